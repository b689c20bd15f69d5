"""`wiki-tui eval`: the whole v1 suite through the real operations, with the offline engine and
with the scripted test server replaying a good and a sloppy model, asserting the scorecards."""

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

TASKS = [t.name for t in load_suite().tasks]
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


OFFLINE = {
    "silently_wrong": 0,
    "tasks": {"total": 12, "done": 12, "failed": 0, "not_run": 0, "applied": 6},
    "format": {"replies_parsed": _r(7, 7), "edits_first_try": _r(19, 19), "retry_rounds": 0,
               "repairs": 0, "refusals": 0, "silently_wrong": 0},
    "integrity": {"broken_links_introduced": 0, "orphans_introduced": 0,
                  "frontmatter_missing": 0, "index_log_consistent": _r(7, 7)},
    "knowledge": {"contradiction_recall": _r(0, 4), "contradiction_precision": _r(0, 0),
                  "superseded_marked": _r(0, 2), "facts_present": _r(7, 13),
                  "answers_correct": _r(3, 3), "citations_gold": _r(3, 3),
                  "citation_precision": _r(8, 19), "unanswerable_declined": _r(0, 2),
                  "lint_recall": _r(0, 5), "lint_precision": _r(0, 0),
                  "moves_done": _r(2, 2), "backlinks_carried": _r(5, 5)},
    "cost": {"tokens_in": 1891, "tokens_out": 3381, "cost_usd": 0.0},
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
                  "answers_correct": _r(3, 3), "citations_gold": _r(3, 3),
                  "citation_precision": _r(7, 7), "unanswerable_declined": _r(2, 2),
                  "lint_recall": _r(5, 5), "lint_precision": _r(5, 5),
                  "moves_done": _r(2, 2), "backlinks_carried": _r(5, 5)},
    "cost": {"tokens_in": 12000, "tokens_out": 1832, "cost_usd": None},
}

SLOPPY = {
    "silently_wrong": 0,
    "tasks": {"total": 12, "done": 12, "failed": 0, "not_run": 0, "applied": 7},
    "format": {"replies_parsed": _r(10, 11), "edits_first_try": _r(5, 8), "retry_rounds": 4,
               "repairs": 6, "refusals": 3, "silently_wrong": 0},
    "integrity": {"broken_links_introduced": 0, "orphans_introduced": 2,
                  "frontmatter_missing": 1, "index_log_consistent": _r(7, 7)},
    "knowledge": {"contradiction_recall": _r(1, 4), "contradiction_precision": _r(1, 2),
                  "superseded_marked": _r(0, 2), "facts_present": _r(7, 13),
                  "answers_correct": _r(1, 3), "citations_gold": _r(2, 3),
                  "citation_precision": _r(2, 2), "unanswerable_declined": _r(1, 2),
                  "lint_recall": _r(2, 5), "lint_precision": _r(1, 2),
                  "moves_done": _r(2, 2), "backlinks_carried": _r(5, 5)},
    "cost": {"tokens_in": 16000, "tokens_out": 942, "cost_usd": None},
}


def test_offline_engine_scores_poorly_on_knowledge_and_says_so(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no vault here: none is needed
    code, out, _err = _run(capsys, "eval", "--model", "offline", "--json", "--no-save")
    assert code == 0
    run = json.loads(out)
    assert run["model"] == "offline" and run["suite"] == "v1"
    assert [(t["name"], t["kind"]) for t in run["tasks"]] == [
        (t.name, t.kind) for t in load_suite().tasks]
    assert _without_timings(run["summary"]) == OFFLINE
    assert list(tmp_path.iterdir()) == []  # nothing written where it ran


def test_good_and_sloppy_models_side_by_side(capsys, server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    results = tmp_path / "results"
    server.queue(*profiles.replies(profiles.GOOD, TASKS))
    server.queue(*profiles.replies(profiles.SLOPPY, TASKS))
    model = ["--model", "openai/test-model"]
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
    assert rows["edits applied on the first try"][-4:] == ["15/15", "(100%)", "5/8", "(62%)"]
    assert rows["unanswerable questions declined"][-4:] == ["2/2", "(100%)", "1/2", "(50%)"]


def test_vault_untouched_runs_saved_and_compared(capsys, tmp_path, monkeypatch):
    vault = tmp_path / "vault"
    shutil.copytree(SAMPLE_VAULT, vault)
    before = _tree(vault)
    monkeypatch.chdir(vault)
    assert _run(capsys, "eval", "--model", "offline")[0] == 0
    assert _run(capsys, "eval", "--model", "offline")[0] == 0
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
    args = ["--model", "openai/test-model", "--api-base", server.api_base]
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
    assert code == 2 and "no eval suite 'v9'" in err and "v1" in err


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and ".wiki-tui" not in p.parts}
