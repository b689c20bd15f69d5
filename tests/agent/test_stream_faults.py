"""A reply that does not finish is a fault, not an answer: each way a stream can go wrong, told
apart, through the real litellm path against the suite's server (tests/support/llm_server.py),
in the operations and through `wiki-tui query/ingest` (exit codes, stderr, --json)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from tests.agent.conftest import run_op
from tests.agent.test_operations_model import (
    BAD_EDIT,
    NEW_PAGE_BLOCK,
    PAGE,
    SOURCE,
    good_edit,
)
from tests.conftest import git
from tests.support.llm_server import Reply
from wiki_tui.agent import operations
from wiki_tui.agent.events import Answer, ChangesetReady, Done, Failed, Retry
from wiki_tui.agent.engine.llm import LLMError, stream_chat
from wiki_tui.changes.apply.journal import apply_changeset
from wiki_tui.changes.reply.stream import parse_reply
from wiki_tui.cli import main
from wiki_tui.vault import Vault

MESSAGES = [{"role": "user", "content": "hello"}]
ANSWER = "The H4 watch was finished in 1759 ([[H4]]), after six years of work. " * 3


async def chat(settings):
    return [item async for item in stream_chat(settings, MESSAGES)]


# -- the call: one kind and one message per fault -----------------------------------------------
@pytest.mark.parametrize("reply,kind,words", [
    (Reply("half an answer", no_finish=True), "incomplete",
     "ended without a finish reason after 14 characters"),
    (Reply(body="<html><body>502 Bad gateway</body></html>"), "protocol",
     "not an OpenAI-compatible stream: <html><body>502 Bad gateway</body></html>"),
    (Reply(body="", content_type="application/json"), "protocol", "stream (an empty body)"),
    (Reply("ok then", garbage="data: {oops, not json\n\n"), "protocol",
     "not an OpenAI-compatible stream: {oops, not json"),
    (Reply("abcdefgh", chunk_size=2, drop_after=2), "dropped",
     "dropped in the middle of the reply"),
    # a model stuck in a loop: litellm stops a stream of 100 identical chunks itself
    (Reply("Intro. " + "loop " * 150, chunk_size=5), "loop", "went into a loop"),
])
async def test_each_fault_has_its_kind_and_message(llm_server, reply, kind, words):
    llm_server.queue(reply)
    with pytest.raises(LLMError) as info:
        await chat(llm_server.settings(tools=False))
    assert info.value.kind == kind
    assert words in info.value.reason
    assert "Traceback" not in info.value.reason


async def test_a_stalled_stream_is_a_timeout_not_a_drop(llm_server):
    llm_server.queue(Reply("abc", stall=15))
    started = time.perf_counter()
    with pytest.raises(LLMError) as info:
        await chat(llm_server.settings(tools=False, timeout=0.5))
    assert info.value.kind == "timeout"
    assert "No bytes from" in info.value.reason and "for 0.5 s" in info.value.reason
    assert info.value.partial_reply == "abc"
    assert time.perf_counter() - started < 10  # the timeout, not the 15 s stall


async def test_a_trickling_stream_ends_at_the_overall_limit(llm_server):
    llm_server.queue(Reply("abc", trickle=0.1))  # a token every 0.1 s, never finishing
    started = time.perf_counter()
    with pytest.raises(LLMError) as info:
        await chat(llm_server.settings(tools=False, timeout=1, reply_limit=1.0))
    elapsed = time.perf_counter() - started
    assert info.value.kind == "limit" and "overall limit of 1 s" in info.value.reason
    assert "reply_limit" in info.value.reason
    assert info.value.partial_reply.startswith("abc..")
    assert 0.9 < elapsed < 10  # the limit, not the server's 20 s of trickle (MAX_HOLD)


# -- query: an incomplete answer is never an Answer ---------------------------------------------
@pytest.mark.parametrize("reply,kind", [
    (Reply(ANSWER, no_finish=True), "incomplete"),
    (Reply(ANSWER, finish_reason="length"), "incomplete"),
    (Reply(ANSWER, chunk_size=20, drop_after=3), "dropped"),
])
async def test_query_cut_off_is_failed_with_the_partial_answer(llm_server, sample_vault,
                                                              reply, kind):
    vault = Vault.open(sample_vault)
    llm_server.queue(reply)
    events = await run_op(operations.query(vault, "When?", llm_server.settings()))
    failed = events[-1]
    assert isinstance(failed, Failed) and failed.kind == kind
    assert ANSWER.startswith(failed.partial_reply) and failed.partial_reply
    assert failed.reason.endswith("The answer is incomplete: ask again to retry.") or \
        "ask again to retry (or raise max_tokens" in failed.reason
    assert not any(isinstance(e, (Answer, Done)) for e in events)


async def test_query_length_cut_says_so(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply(ANSWER, finish_reason="length"))
    events = await run_op(operations.query(vault, "When?", llm_server.settings(max_tokens=9)))
    assert 'ran out of output tokens (finish reason "length", max_tokens=9)' in events[-1].reason


# -- edit operations: cut-off and unusable replies are retry rounds -----------------------------
async def test_ingest_cut_inside_a_block_sends_that_block_back(llm_server, git_vault):
    vault = Vault.open(git_vault)
    edit = good_edit(git_vault)
    llm_server.queue(Reply(NEW_PAGE_BLOCK + edit[:40], no_finish=True), Reply(edit))
    events = await run_op(operations.ingest(vault, SOURCE, llm_server.settings()))
    retry = next(e for e in events if isinstance(e, Retry))
    assert "the reply was cut off (" in retry.reason and "round 2 of 3" in retry.reason
    assistant, feedback = llm_server.requests[1].messages[-2:]
    assert assistant["content"] == NEW_PAGE_BLOCK + edit[:40]
    assert "ended without a finish reason" in feedback["content"]
    assert "inside the block for entities/John Harrison.md" in feedback["content"]
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    assert sorted(f.path for f in changeset.files) == ["entities/John Harrison.md", PAGE]
    assert isinstance(events[-1], Done) and not changeset.errors


async def test_ingest_cut_off_in_every_round_fails_naming_the_block(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(*[Reply(NEW_PAGE_BLOCK[:120], no_finish=True)] * 2)
    events = await run_op(operations.ingest(vault, SOURCE, llm_server.settings(edit_rounds=2)))
    failed = events[-1]
    assert isinstance(failed, Failed) and failed.kind == "incomplete"
    assert f"inside the block for {PAGE}" in failed.reason
    assert "still incomplete after 2 round(s); nothing was applied" in failed.reason
    assert not any(isinstance(e, ChangesetReady) for e in events)


@pytest.mark.parametrize("other,said", [
    ("--- a/sources/X.md\n+++ b/sources/X.md\n@@ -1,2 +1,2 @@\n-old\n+new\n",
     "reply line 2: this looks like a unified diff for sources/X.md"),
    ("sources/X.md\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n",
     "sources/X.md: cannot EDIT a page that does not exist"),
    ('```json\n{"path": "sources/X.md", "content": "new"}\n```\n',
     "reply line 2: this looks like a JSON tool call for sources/X.md"),
])
async def test_a_reply_in_another_edit_format_is_sent_back(llm_server, sample_vault, other,
                                                          said):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply(other), Reply(NEW_PAGE_BLOCK))
    events = await run_op(operations.ingest(vault, SOURCE, llm_server.settings()))
    feedback = " ".join(llm_server.requests[1].messages[-1]["content"].split())
    assert said in feedback and "@@@" in feedback  # names the file and line, says what to send
    assert any(isinstance(e, Retry) for e in events)
    assert [f.path for f in next(e.changeset for e in events
                                 if isinstance(e, ChangesetReady)).files] == [PAGE]


async def test_a_prose_reply_to_an_ingest_is_sent_back(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply("I have read the source. It is about clocks."), Reply(NEW_PAGE_BLOCK))
    events = await run_op(operations.ingest(vault, SOURCE, llm_server.settings()))
    feedback = llm_server.requests[1].messages[-1]["content"]
    assert "Your reply had no @@@ blocks, so nothing was written" in feedback
    assert any(isinstance(e, Retry) and "no usable edit blocks" in e.reason for e in events)
    assert [f.path for f in next(e.changeset for e in events
                                 if isinstance(e, ChangesetReady)).files] == [PAGE]


@pytest.mark.parametrize("text,name", [
    ('Here are the edits:\n```json\n{"path": "a.md", "content": "x"}\n```', "JSON"),
    ('[{"file": "a.md", "replace": "x"}]', "JSON"),
    ("@@ -3,2 +3,2 @@\n-old\n+new\n", "a unified diff"),
    ("<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE", "SEARCH/REPLACE"),
    ('I think {braces} and "path": in prose are fine.', None),
    ("@@@ WRITE a.md\n--- a/x\n+++ b/x\n@@@ END", None),  # a page that quotes a diff
])
def test_other_edit_formats_are_recognised(text, name):
    errors = " ".join(str(e) for e in parse_reply(text).errors)
    assert (name in errors and "@@@" in errors) if name else errors == ""


async def test_save_without_blocks_is_asked_again_then_fails(llm_server, git_vault):
    vault = Vault.open(git_vault)
    llm_server.queue(*[Reply("Sure, I will file it as a page about H4.")] * 2)
    events = await run_op(operations.save_answer(vault, "When?", ANSWER,
                                                 llm_server.settings(edit_rounds=2)))
    assert "this operation must write at least one page" in \
        llm_server.requests[1].messages[-1]["content"]
    failed = events[-1]
    assert isinstance(failed, Failed) and failed.kind == "unusable"
    assert "No usable edits after 2 round(s)" in failed.reason


async def test_instruct_answered_in_prose_is_not_a_fault(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply("Those two pages are already merged; nothing to do."))
    events = await run_op(operations.instruct(vault, "merge H4 into H4", llm_server.settings()))
    assert len(llm_server.requests) == 1
    assert isinstance(events[-1], Done) and events[-1].notice == "No changes were proposed."


async def test_edits_refused_after_the_last_round_are_named(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(*[Reply(NEW_PAGE_BLOCK + BAD_EDIT)] + [Reply(BAD_EDIT)] * 2)
    events = await run_op(operations.ingest(vault, SOURCE, llm_server.settings()))
    ready = next(e for e in events if isinstance(e, ChangesetReady))
    assert [f.path for f in ready.changeset.files] == [PAGE]
    assert ready.changeset.left_out == ["entities/John Harrison.md"]
    assert "left out (entities/John Harrison.md)" in events[-1].notice
    ready.changeset.accept_all()  # a person who applies the rest: the log entry says so
    result = apply_changeset(vault, ready.changeset)
    assert "- left out (the model's edits could not be used): entities/John Harrison.md" \
        in result.log_entry
    assert result.log_entry in (sample_vault / "log.md").read_text(encoding="utf-8")


# -- headless: exit codes, messages, --json; `apply` and `ingest` agree ----------------------
def _use_server(monkeypatch, llm_server) -> list[str]:
    monkeypatch.setenv("WIKI_TUI_API_BASE", llm_server.api_base)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    return ["--model", "openai/test-model"]


def test_apply_and_ingest_give_the_same_verdict_on_one_reply(llm_server, git_vault, tmp_path,
                                                             monkeypatch, capsys):
    model = _use_server(monkeypatch, llm_server)
    (git_vault / ".wiki-tui").mkdir(exist_ok=True)
    (git_vault / ".wiki-tui" / "config.toml").write_text("tools = false\n")
    before = git(git_vault, "rev-parse", "HEAD").strip()
    reply = NEW_PAGE_BLOCK + BAD_EDIT  # one good block, one that can never be used
    reply_file = tmp_path / "reply.txt"
    reply_file.write_text(reply, encoding="utf-8")

    assert main(["--vault", str(git_vault), "apply", str(reply_file), "--yes"]) == 1
    applied = capsys.readouterr()
    llm_server.queue(*[Reply(reply)] * 3)
    assert main(["--vault", str(git_vault), "ingest", SOURCE, "--yes", *model]) == 1
    ingested = capsys.readouterr()
    assert "not applied" in applied.err and "not applied" in ingested.err
    assert "left out: entities/John Harrison.md" in " ".join(ingested.err.split())
    assert git(git_vault, "rev-parse", "HEAD").strip() == before
    assert git(git_vault, "status", "--porcelain", "--untracked-files=no") == "" and not (git_vault / PAGE).exists()

    good = NEW_PAGE_BLOCK + good_edit(git_vault)
    reply_file.write_text(good, encoding="utf-8")
    assert main(["--vault", str(git_vault), "apply", str(reply_file), "--yes"]) == 0
    by_apply = git(git_vault, "show", "--name-only", "--format=", "HEAD").split()
    page_by_apply = (git_vault / PAGE).read_text(encoding="utf-8")
    git(git_vault, "reset", "-q", "--hard", before)
    llm_server.queue(Reply(good))
    assert main(["--vault", str(git_vault), "ingest", SOURCE, "--yes", *model]) == 0
    assert git(git_vault, "show", "--name-only", "--format=", "HEAD").split() == by_apply
    assert (git_vault / PAGE).read_text(encoding="utf-8") == page_by_apply


def _cli(vault, llm_server, *args: str, timeout: float = 110) -> subprocess.CompletedProcess:
    env = dict(os.environ, WIKI_TUI_API_BASE=llm_server.api_base, OPENAI_API_KEY="sk-test",
               LITELLM_LOCAL_MODEL_COST_MAP="True", COLUMNS="200")
    code = "import sys; from wiki_tui.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, "--vault", str(vault), *args,
                           "--model", "openai/test-model"],
                          capture_output=True, text=True, env=env, timeout=timeout)


def test_query_whose_stream_drops_exits_1_and_says_so(llm_server, sample_vault, monkeypatch,
                                                     capsys):
    model = _use_server(monkeypatch, llm_server)
    llm_server.queue(Reply(ANSWER, chunk_size=20, drop_after=2))
    assert main(["--vault", str(sample_vault), "query", "When?", *model]) == 1
    out = capsys.readouterr()
    assert out.out.strip() == ANSWER[:40].strip()  # the partial answer, marked on stderr
    err = " ".join(out.err.split())
    assert "failed: The connection to" in err and "dropped in the middle of the reply" in err


def test_trickling_stream_stops_at_the_configured_reply_limit(llm_server, sample_vault,
                                                              monkeypatch, capsys):
    model = _use_server(monkeypatch, llm_server)
    (sample_vault / ".wiki-tui").mkdir(exist_ok=True)
    (sample_vault / ".wiki-tui" / "config.toml").write_text("reply_limit = 1.5\n")
    llm_server.queue(Reply("So far", trickle=0.2))
    started = time.perf_counter()
    assert main(["--vault", str(sample_vault), "query", "When?", "--json", *model]) == 1
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert events[-1]["event"] == "Failed" and events[-1]["kind"] == "limit"
    assert "overall limit of 1.5 s (reply_limit in the config)" in events[-1]["reason"]
    assert time.perf_counter() - started < 15  # the limit, not the 20 s trickle (MAX_HOLD)


# real subprocesses (each imports litellm: seconds), for the exit code and streams as a shell
# sees them
def test_cli_query_json_reports_an_unfinished_stream_as_failed(llm_server, sample_vault):
    llm_server.queue(Reply(ANSWER, no_finish=True))
    out = _cli(sample_vault, llm_server, "query", "When?", "--json")
    events = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 1
    assert events[-1]["event"] == "Failed" and events[-1]["kind"] == "incomplete"
    assert not any(e["event"] in ("Done", "Answer") for e in events)


def test_cli_ingest_answered_by_a_web_page_exits_1(llm_server, sample_vault):
    llm_server.queue(Reply(body="<!DOCTYPE html><title>Proxy login</title>"))
    out = _cli(sample_vault, llm_server, "ingest", SOURCE, "--yes")
    assert out.returncode == 1
    flat = " ".join(out.stderr.split())
    assert "not an OpenAI-compatible stream: <!DOCTYPE html><title>Proxy login</title>" in flat
    assert "No changes were proposed" not in flat
