"""`wiki-tui eval`: the whole v1 suite through the real operations, with the offline engine and
with the scripted test server replaying four models (good, sloppy, plainly wrong, and gamed:
the gold strings quoted around wrong values), asserting each scorecard exactly."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_VAULT
from tests.eval import profiles
from tests.support.llm_server import Reply
from wiki_tui.cli import main
from wiki_tui.eval.suite import load_suite

TASKS = [t.name for t in load_suite("v1").tasks]
TIMINGS = ("wall_s", "first_token_s")


def _r(count: int, of: int) -> dict:
    return {"count": count, "of": of, "share": round(count / of, 3) if of else None}


def _without_timings(summary: dict) -> dict:
    out = json.loads(json.dumps(summary))
    for key in TIMINGS:
        out["cost"].pop(key)
    return out


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def server(llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")  # litellm's openai/ provider wants one
    return llm_server


def _scripted(server, profile) -> list[str]:
    server.queue(*profiles.replies(profile, TASKS))
    return ["--model", "openai/test-model", "--api-base", server.api_base]


# v1 has no synthesis and no injected source: those rows are empty
NO_V2_TASKS = {"sources_cited": _r(0, 0), "injections_resisted": _r(0, 0),
               "pages_deleted_on_injection": 0}

OFFLINE = {
    "silently_wrong": 0,
    "tasks": {"total": 12, "done": 12, "failed": 0, "not_run": 0, "applied": 6},
    "format": {"replies_parsed": _r(6, 7), "edits_first_try": _r(23, 23), "retry_rounds": 0,
               "repairs": 0, "refusals": 0, "silently_wrong": 0},
    "integrity": {"broken_links_introduced": 0, "orphans_introduced": 0,
                  "frontmatter_missing": 0, "index_log_consistent": _r(7, 7)},
    "knowledge": {"contradiction_recall": _r(0, 4), "contradiction_precision": _r(0, 0),
                  "superseded_marked": _r(0, 2), "facts_present": _r(10, 13),
                  "facts_contradicted": _r(1, 17),
                  "answers_correct": _r(3, 3), "citations_gold": _r(3, 3),
                  "citation_precision": _r(8, 16), "unanswerable_declined": _r(2, 2),
                  "lint_recall": _r(0, 5), "lint_precision": _r(0, 0),
                  "moves_done": _r(2, 2), "backlinks_carried": _r(5, 5), **NO_V2_TASKS},
    "cost": {"tokens_in": 1989, "tokens_out": 3988, "cost_usd": 0.0},
}

GOOD = {
    "silently_wrong": 0,
    "tasks": {"total": 12, "done": 12, "failed": 0, "not_run": 0, "applied": 7},
    "format": {"replies_parsed": _r(7, 7), "edits_first_try": _r(15, 15), "retry_rounds": 0,
               "repairs": 0, "refusals": 0, "silently_wrong": 0},
    "integrity": {"broken_links_introduced": 0, "orphans_introduced": 0,
                  "frontmatter_missing": 0, "index_log_consistent": _r(7, 7)},
    "knowledge": {"contradiction_recall": _r(4, 4), "contradiction_precision": _r(6, 6),
                  "superseded_marked": _r(2, 2), "facts_present": _r(13, 13),
                  "facts_contradicted": _r(0, 17),
                  "answers_correct": _r(3, 3), "citations_gold": _r(3, 3),
                  "citation_precision": _r(7, 7), "unanswerable_declined": _r(2, 2),
                  "lint_recall": _r(5, 5), "lint_precision": _r(5, 5),
                  "moves_done": _r(2, 2), "backlinks_carried": _r(5, 5), **NO_V2_TASKS},
    "cost": {"tokens_in": 12000, "tokens_out": 1904, "cost_usd": None},
}

# --yes holds what a person must see (issue 19's invariants): SLOPPY's contradiction settled
# silently and its 12-tonne limit overwritten each drop the Gazette's citation undeclared
SLOPPY = {
    "silently_wrong": 0,
    "tasks": {"total": 12, "done": 12, "failed": 0, "not_run": 0, "applied": 5},
    "format": {"replies_parsed": _r(9, 11), "edits_first_try": _r(5, 8), "retry_rounds": 4,
               "repairs": 6, "refusals": 3, "silently_wrong": 0},
    "integrity": {"broken_links_introduced": 0, "orphans_introduced": 2,
                  "frontmatter_missing": 1, "index_log_consistent": _r(7, 7)},
    "knowledge": {"contradiction_recall": _r(1, 4), "contradiction_precision": _r(1, 2),
                  "superseded_marked": _r(0, 2), "facts_present": _r(4, 13),
                  "facts_contradicted": _r(2, 17),
                  "answers_correct": _r(1, 3), "citations_gold": _r(2, 3),
                  "citation_precision": _r(2, 2), "unanswerable_declined": _r(1, 2),
                  "lint_recall": _r(2, 5), "lint_precision": _r(1, 2),
                  "moves_done": _r(2, 2), "backlinks_carried": _r(5, 5), **NO_V2_TASKS},
    "cost": {"tokens_in": 16000, "tokens_out": 942, "cost_usd": None},
}

# held: the load limit's citation dropped undeclared; a merge losing a link and two dates
WRONG = {
    "silently_wrong": 0,
    "tasks": {"total": 12, "done": 12, "failed": 0, "not_run": 0, "applied": 5},
    "format": {"replies_parsed": _r(7, 7), "edits_first_try": _r(13, 13), "retry_rounds": 0,
               "repairs": 0, "refusals": 0, "silently_wrong": 0},
    "integrity": {"broken_links_introduced": 0, "orphans_introduced": 0,
                  "frontmatter_missing": 0, "index_log_consistent": _r(7, 7)},
    "knowledge": {"contradiction_recall": _r(0, 4), "contradiction_precision": _r(0, 1),
                  "superseded_marked": _r(0, 2), "facts_present": _r(0, 13),
                  "facts_contradicted": _r(10, 17),
                  "answers_correct": _r(0, 3), "citations_gold": _r(3, 3),
                  "citation_precision": _r(3, 3), "unanswerable_declined": _r(0, 2),
                  "lint_recall": _r(0, 5), "lint_precision": _r(0, 2),
                  "moves_done": _r(0, 2), "backlinks_carried": _r(0, 5), **NO_V2_TASKS},
    "cost": {"tokens_in": 12000, "tokens_out": 970, "cost_usd": None},
}

# quoting every gold string earns nothing: 0 on answers, declines, facts and contradictions
# (held: the load limit's citation dropped undeclared)
GAMED = {
    "silently_wrong": 0,
    "tasks": {"total": 12, "done": 12, "failed": 0, "not_run": 0, "applied": 4},
    "format": {"replies_parsed": _r(5, 7), "edits_first_try": _r(10, 10), "retry_rounds": 0,
               "repairs": 0, "refusals": 0, "silently_wrong": 0},
    "integrity": {"broken_links_introduced": 0, "orphans_introduced": 3,
                  "frontmatter_missing": 0, "index_log_consistent": _r(7, 7)},
    "knowledge": {"contradiction_recall": _r(0, 4), "contradiction_precision": _r(0, 6),
                  "superseded_marked": _r(0, 2), "facts_present": _r(0, 13),
                  "facts_contradicted": _r(12, 17),
                  "answers_correct": _r(0, 3), "citations_gold": _r(3, 3),
                  "citation_precision": _r(3, 3), "unanswerable_declined": _r(0, 2),
                  "lint_recall": _r(0, 5), "lint_precision": _r(0, 3),
                  "moves_done": _r(0, 2), "backlinks_carried": _r(0, 5), **NO_V2_TASKS},
    "cost": {"tokens_in": 12000, "tokens_out": 1093, "cost_usd": None},
}


def test_offline_engine_scores_poorly_on_knowledge_and_says_so(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no vault here: none is needed
    code, out, _err = _run(capsys, "eval", "--model", "offline", "--suite", "v1", "--json",
                           "--no-save")
    assert code == 0
    run = json.loads(out)
    assert run["model"] == "offline" and run["suite"] == "v1"
    assert [(t["name"], t["kind"]) for t in run["tasks"]] == [
        (t.name, t.kind) for t in load_suite("v1").tasks]
    assert _without_timings(run["summary"]) == OFFLINE
    assert list(tmp_path.iterdir()) == []  # nothing written where it ran


@pytest.mark.timeout(600)  # two whole runs through litellm: minutes on a loaded machine
def test_good_and_sloppy_models_side_by_side(capsys, server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    results = tmp_path / "results"
    server.queue(*profiles.replies(profiles.GOOD, TASKS))
    server.queue(*profiles.replies(profiles.SLOPPY, TASKS))
    model = ["--suite", "v1", "--model", "openai/test-model"]
    code, out, err = _run(capsys, "eval", *model, *model, "--api-base", server.api_base,
                          "--json", "--results", str(results))
    assert code == 0, err
    assert server.pending == 0
    good, sloppy = json.loads(out)  # one after another, a list of two runs
    assert _without_timings(good["summary"]) == GOOD
    assert _without_timings(sloppy["summary"]) == SLOPPY
    assert all(t["status"] == "done" for t in good["tasks"] + sloppy["tasks"])
    tasks = {t["name"]: t["scores"] for t in sloppy["tasks"]}
    # each misbehaviour is counted where it happened
    assert tasks["ingest-survey"]["format"]["repairs"] == 2  # fence unwrapped, path completed
    assert tasks["ingest-letters"]["format"]["replies_parsed"] == 1  # the JSON reply refused
    assert tasks["ingest-ferry"]["format"]["replies_parsed"] == 1  # prose where blocks were due
    assert tasks["ingest-inspection"]["format"]["refusals"] == 1  # the placeholder
    assert tasks["ingest-ferry"]["integrity"]["frontmatter_missing"] == 1
    assert tasks["query-cost"]["knowledge"]["query"]["declined"] is False  # it made one up
    assert "[1/12] openai/test-model: ingest ingest-survey" in err  # progress, per task

    first, second = sorted(results.iterdir(), key=lambda p: len(p.name))
    code, out, _err = _run(capsys, "eval", "--compare", str(first), str(second))
    assert code == 0
    assert out.splitlines()[0].count("openai/test-model (") == 2  # side by side
    rows = {line.strip().split("  ")[0]: line.split() for line in out.splitlines()}
    assert rows["silently wrong"][-2:] == ["0", "0"]
    assert rows["replies carrying edit blocks that parse"][-4:] == ["7/7", "(100%)", "9/11",
                                                                    "(82%)"]
    assert rows["edits applied on the first try"][-4:] == ["15/15", "(100%)", "5/8", "(62%)"]
    assert rows["unanswerable questions declined"][-4:] == ["2/2", "(100%)", "1/2", "(50%)"]


@pytest.mark.timeout(600)
def test_a_wrong_model_and_a_gamed_one_score_nothing_on_knowledge(capsys, server, tmp_path,
                                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)
    server.queue(*profiles.replies(profiles.WRONG, TASKS))
    server.queue(*profiles.replies(profiles.GAMED, TASKS))
    model = ["--suite", "v1", "--model", "openai/test-model"]
    code, out, err = _run(capsys, "eval", *model, *model, "--api-base", server.api_base,
                          "--json", "--no-save")
    assert code == 0, err
    wrong, gamed = json.loads(out)
    assert _without_timings(wrong["summary"]) == WRONG
    assert _without_timings(gamed["summary"]) == GAMED
    tasks = {t["name"]: t["scores"] for t in gamed["tasks"]}
    # doing nothing wins nothing: prose for an instruction, findings that quote no page
    assert tasks["rename-concept"]["format"]["replies_parsed"] == 0
    assert tasks["rename-concept"]["knowledge"]["moves"] == {
        "moves": 1, "moved": 0, "backlinks": 3, "carried": 0}
    assert tasks["merge-twin"]["knowledge"]["moves"]["carried"] == 0  # already linked: no credit
    assert tasks["lint-planted"]["knowledge"]["lint"] == {
        "planted": 5, "found": 0, "findings": 3, "findings_correct": 0}


def test_vault_untouched_runs_saved_and_compared(capsys, tmp_path, monkeypatch):
    vault = tmp_path / "vault"
    shutil.copytree(SAMPLE_VAULT, vault)
    before = _tree(vault)
    monkeypatch.chdir(vault)
    assert _run(capsys, "eval", "--model", "offline", "--suite", "v1")[0] == 0
    assert _run(capsys, "eval", "--model", "offline", "--suite", "v1")[0] == 0
    assert _tree(vault) == before  # pages, index, log: untouched
    saved = sorted((p.name for p in (vault / ".wiki-tui" / "evals").iterdir()), key=len)
    assert len(saved) == 2 and saved[0].endswith("-offline.json")
    assert saved[1] == saved[0].replace(".json", "-2.json")  # the second run kept apart
    code, out, _err = _run(capsys, "eval", "--compare", saved[0], saved[1].removesuffix(".json"))
    assert code == 0
    assert out.splitlines()[0].count("offline (") == 2
    assert "gold facts present" in out
    code, _out, err = _run(capsys, "eval", "--compare", saved[0], "nope")
    assert code == 2 and "no saved eval run 'nope'" in err


def test_no_model_configured_is_a_clear_error(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, "eval")
    assert code == 2 and out == ""
    assert "no model configured" in err and "--model offline" in err


def test_provider_failing_mid_run_keeps_the_finished_tasks(capsys, server, tmp_path,
                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    results = tmp_path / "results"
    args = ["--suite", "v1", "--model", "openai/test-model", "--api-base", server.api_base]
    server.queue(*profiles.replies(profiles.GOOD, TASKS[:4]))
    server.queue(Reply(status=401))
    code, out, err = _run(capsys, "eval", *args, "--json", "--results", str(results))
    assert code == 1
    run = json.loads(out)
    status = [t["status"] for t in run["tasks"]]
    assert status == ["done"] * 4 + ["failed"] + ["not run"] * 7
    assert run["tasks"][4]["fault"] == "auth" and run["tasks"][4]["note"]
    assert run["summary"]["tasks"] == {"total": 12, "done": 4, "failed": 1, "not_run": 7,
                                       "applied": 4}
    assert run["summary"]["knowledge"]["contradiction_recall"] == _r(2, 2)
    assert "not run: query-founder, query-cables" in run["stopped"]
    assert "stopped:" in err and "query-opened" in err
    assert len(list(results.glob("*-openai_test-model.json"))) == 1  # saved all the same


def test_an_unknown_suite_is_named(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _out, err = _run(capsys, "eval", "--model", "offline", "--suite", "v9")
    assert code == 2 and "no eval suite 'v9'" in err and "v1, v2" in err


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and ".wiki-tui" not in p.parts}
