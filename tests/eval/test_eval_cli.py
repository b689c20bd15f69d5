"""`wiki-tui eval` as a command: the vault's config read like every other command, a failed task
that reports its tokens, and Ctrl-C (a real SIGINT to a real process) that keeps the finished
tasks' scores."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from benchmarks.bench_headless import clean_env, wiki_tui_command
from tests.conftest import SAMPLE_VAULT
from tests.eval import profiles
from tests.support.llm_server import Reply
from wiki_tui.cli import main
from wiki_tui.eval.suite import load_suite

TASKS = [t.name for t in load_suite().tasks]  # v2, the default
V1 = [t.name for t in load_suite("v1").tasks]


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, " ".join(err.split())


def _vault_with_config(root: Path, server) -> Path:
    import shutil

    shutil.copytree(SAMPLE_VAULT, root)
    (root / ".wiki-tui").mkdir(exist_ok=True)
    (root / ".wiki-tui" / "config.toml").write_text(
        f'model = "openai/test-model"\napi_base = "{server.api_base}"\n', encoding="utf-8")
    return root


def test_eval_reads_the_config_of_the_vault_it_is_given(capsys, llm_server, tmp_path,
                                                        monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.chdir(tmp_path)
    vault = _vault_with_config(tmp_path / "vault", llm_server)
    llm_server.queue(Reply(status=401))  # the configured model and server, asked once
    code, out, err = _run(capsys, "eval", "--vault", str(vault), "--json", "--no-save")
    assert code == 1, err
    run = json.loads(out)
    assert run["model"] == "openai/test-model" and run["tasks"][0]["fault"] == "auth"
    assert f"openai/test-model at {llm_server.api_base}" in err
    assert llm_server.pending == 0 and len(llm_server.requests) == 1


def test_eval_reads_an_adopted_folder_and_says_why_not_an_empty_one(capsys, llm_server,
                                                                    tmp_path, monkeypatch):
    # a folder with .wiki-tui/ is adopted (vault/state.py): its config is read, by --vault or
    # started there, as every reading command reads it
    folder = tmp_path / "notes"
    (folder / ".wiki-tui").mkdir(parents=True)
    (folder / ".wiki-tui" / "config.toml").write_text(
        f'model = "openai/test-model"\napi_base = "{llm_server.api_base}"\n')
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.chdir(tmp_path)
    llm_server.queue(Reply(status=401), Reply(status=401))
    code, out, err = _run(capsys, "eval", "--vault", str(folder), "--json", "--no-save")
    assert code == 1 and json.loads(out)["model"] == "openai/test-model", err
    monkeypatch.chdir(folder)
    code, out, err = _run(capsys, "eval", "--json", "--no-save")
    assert code == 1 and json.loads(out)["model"] == "openai/test-model", err
    assert llm_server.pending == 0
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = _run(capsys, "eval", "--vault", str(empty))
    assert code == 2 and out == "" and "holds no markdown pages" in err


def test_eval_in_a_folder_of_notes_without_a_model_says_where_it_looked(capsys, llm_server,
                                                                     tmp_path, monkeypatch):
    # a folder of notes wiki-tui has not adopted: with no model anywhere, eval says where it
    # looked and what to pass, and writes nothing into the folder
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n", encoding="utf-8")
    monkeypatch.chdir(notes)
    code, out, err = _run(capsys, "eval")
    assert code == 2 and "no model configured" in err and "--model offline" in err
    assert [p.name for p in notes.iterdir()] == ["a.md"]


def test_a_failed_task_reports_its_tokens(capsys, llm_server, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.chdir(tmp_path)
    prose = profiles._reply("I have read the survey; the wiki is up to date.")
    llm_server.queue(prose, prose, prose)  # three rounds without a block: unusable
    llm_server.queue(Reply(status=401))  # then the provider refuses the key
    code, out, err = _run(capsys, "eval", "--model", "openai/test-model", "--api-base",
                          llm_server.api_base, "--json", "--no-save")
    assert code == 1, err
    run = json.loads(out)
    first, second = run["tasks"][:2]
    assert (first["status"], first["fault"]) == ("failed", "unusable")
    assert first["scores"]["cost"]["tokens_in"] == 3000  # every round it spent
    assert first["scores"]["format"]["replies_parsed"] == 0
    assert (second["status"], second["fault"]) == ("failed", "auth")
    assert second["scores"].keys() == {"cost"}  # the provider's fault is not scored
    assert run["summary"]["cost"]["tokens_in"] == 3000


@pytest.mark.timeout(600)  # a fresh process imports litellm: minutes on a loaded machine
def test_ctrl_c_keeps_the_finished_tasks_scores(llm_server, tmp_path):
    """A real process, a real SIGINT while task 2 waits on a stalled stream."""
    results = tmp_path / "results"
    llm_server.queue(*profiles.replies(profiles.GOOD, TASKS[:1]))
    hold = threading.Event()  # task 2 hangs mid-reply until the test is done with it
    llm_server.queue(Reply("@@@ WRITE sources/Letters", hold=hold))
    env = clean_env(tmp_path / "home") | {"OPENAI_API_KEY": "sk-test"}
    proc = subprocess.Popen(
        [*wiki_tui_command(), "eval", "--model", "openai/test-model", "--api-base",
         llm_server.api_base, "--json", "--results", str(results)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        for line in proc.stderr:  # wait for the event, not for a time
            lines.append(line)
            if line.startswith("[2/20]"):
                break
        else:
            pytest.fail("the run never reached task 2: " + "".join(lines))
        proc.send_signal(signal.SIGINT)
        out, rest = proc.communicate(timeout=120)
    finally:
        hold.set()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = "".join(lines) + rest
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    run = json.loads(out)
    assert [t["status"] for t in run["tasks"]] == ["done"] + ["not run"] * 19
    assert run["summary"]["knowledge"]["contradiction_recall"] == {"count": 1, "of": 1,
                                                                   "share": 1.0}
    assert run["stopped"].startswith("interrupted (Ctrl-C) during task ingest-letters")
    saved = list(results.glob("*-openai_test-model.json"))
    assert len(saved) == 1 and json.loads(saved[0].read_text())["tasks"][0]["status"] == "done"


def test_a_judge_grades_the_answers_beside_the_checks(capsys, llm_server, tmp_path,
                                                      monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.chdir(tmp_path)
    llm_server.queue(*profiles.replies(profiles.GAMED, V1))
    # a lenient judge: one gamed answer passes it; one verdict it does not write as asked
    llm_server.queue(*[profiles._reply(text) for text in [
        "VERDICT: WRONG\nREASON: it denies 1898 and gives 1889.",
        "VERDICT: RIGHT\nREASON: Mara Quell and 1879 are both named.",
        "**Verdict:** wrong\nReason: rust is not corrosion fatigue.",
        "The answer seems fine to me.",
        "VERDICT: WRONG\nREASON: it gives a figure."]])
    code, out, err = _run(capsys, "eval", "--suite", "v1", "--model", "openai/test-model",
                          "--judge", "openai/judge-model", "--api-base", llm_server.api_base,
                          "--json", "--no-save")
    assert code == 0, err
    run = json.loads(out)
    judge = run["judge"]
    assert judge["model"] == "openai/judge-model"
    assert judge["answers_correct"] == {"count": 1, "of": 3, "share": 0.333}
    assert judge["unanswerable_declined"] == {"count": 0, "of": 2, "share": 0.0}
    assert judge["unreadable"] == 1
    assert [v["verdict"] for v in judge["verdicts"]] == ["wrong", "right", "wrong",
                                                         "unreadable", "wrong"]
    assert judge["cost"]["tokens_in"] == 5000  # its own cost line ...
    assert run["summary"]["cost"]["tokens_in"] == 12000  # ... apart from the model's
    # beside the checks, never in their place
    assert run["summary"]["knowledge"]["answers_correct"]["count"] == 0
    asked = llm_server.requests[-5:]
    assert all(r.body["model"] == "judge-model" for r in asked)
    assert "VERDICT: RIGHT or WRONG" in asked[0].text()
    assert "It did not open in 1898; it opened in 1889" in asked[0].text()
    assert "The answer is: 1898." in asked[0].text()
    assert "cannot answer" in asked[3].text()

    from wiki_tui.eval.report import scorecard

    table = scorecard([run])
    assert "answers correct (judge)" in table and "1/3 (33%)" in table


def test_the_offline_engine_cannot_judge(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _out, err = _run(capsys, "eval", "--model", "offline", "--judge", "offline")
    assert code == 2 and "cannot judge" in err
