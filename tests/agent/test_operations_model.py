"""Operations through litellm's real openai/ provider against the local scripted server."""

from __future__ import annotations

import asyncio

from tests.agent.conftest import run_op
from tests.conftest import git
from tests.support.llm_server import Reply, ToolCall
from wiki_tui.agent import operations
from wiki_tui.agent.events import (
    Answer, ChangesetReady, Done, Failed, Findings, Retry, Started, ToolActivity,
)
from wiki_tui.changes.apply.journal import apply_changeset
from wiki_tui.vault import Vault

SOURCE = "raw/french-chronometers.md"
PAGE = "sources/The French Chronometer Makers.md"
NEW_PAGE_BLOCK = f"""I summarised the source and linked Harrison.

@@@ WRITE {PAGE}
---
title: The French Chronometer Makers
type: source
summary: "Talk notes on Le Roy and Berthoud, the French rivals of Harrison."
sources: [{SOURCE}]
---
# The French Chronometer Makers

Pierre Le Roy presented a marine watch in 1766 ([[John Harrison]] had H4).
@@@ END
"""
BAD_EDIT = """@@@ EDIT entities/John Harrison.md
@@@ SEARCH
Harrison was born on the Moon.
@@@ REPLACE
Harrison was born in Yorkshire.
@@@ END
"""


def good_edit(vault_root) -> str:
    text = (vault_root / "entities/John Harrison.md").read_text(encoding="utf-8")
    line = next(l for l in text.splitlines() if l.startswith("sources:"))
    return (f"@@@ EDIT entities/John Harrison.md\n@@@ SEARCH\n{line}\n@@@ REPLACE\n"
            f'{line[:-1]}, "[[The French Chronometer Makers]]"]\n@@@ END\n')


async def test_prompt_holds_schema_protocol_page_list_and_source(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply(NEW_PAGE_BLOCK))
    events = await run_op(operations.ingest(vault, SOURCE, llm_server.settings()))
    assert isinstance(events[0], Started) and not events[0].offline
    assert isinstance(events[-1], Done)
    system, user = llm_server.requests[0].messages[:2]
    agents = (sample_vault / "AGENTS.md").read_text(encoding="utf-8")
    assert agents.strip() in system["content"]
    assert "@@@ WRITE" in system["content"] and "Ingest the source" in system["content"]
    assert "Pierre Le Roy, son of the royal clockmaker" in user["content"]  # the source
    assert "- [[John Harrison]] — aliases: Longitude Harrison, Harrison" in user["content"]
    assert "## entities/John Harrison.md" in user["content"]  # a relevant page, in full
    assert [t["function"]["name"] for t in llm_server.requests[0].tools][:2] == [
        "read_page", "search"]


async def test_reply_wide_repairs_reach_the_changeset(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply("<think>\nDraft first.\n</think>\n" + NEW_PAGE_BLOCK, chunk_size=7))
    events = await run_op(operations.ingest(vault, SOURCE, llm_server.settings()))
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    assert changeset.repairs == ["ignored a <think> section (lines 1-3)"]


async def test_malformed_edit_is_sent_back_and_the_retry_lands(llm_server, git_vault):
    vault = Vault.open(git_vault)
    llm_server.queue(Reply(NEW_PAGE_BLOCK + BAD_EDIT, chunk_size=16),
                     Reply("Fixed.\n\n" + good_edit(git_vault)))
    events = await run_op(operations.ingest(vault, SOURCE, llm_server.settings()))
    retries = [e for e in events if isinstance(e, Retry)]
    assert len(retries) == 1 and "round 2 of 3" in retries[0].reason
    second = llm_server.requests[1].messages
    assert second[-2]["role"] == "assistant" and BAD_EDIT.strip() in second[-2]["content"]
    feedback = second[-1]["content"]
    assert "entities/John Harrison.md" in feedback and "born on the Moon" in feedback
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    assert sorted(f.path for f in changeset.files) == ["entities/John Harrison.md", PAGE]
    assert not changeset.errors
    changeset.accept_all()
    result = apply_changeset(vault, changeset)
    assert result.commit
    assert "Pierre Le Roy presented" in (git_vault / PAGE).read_text(encoding="utf-8")
    assert '"[[The French Chronometer Makers]]"]' in (
        git_vault / "entities/John Harrison.md").read_text(encoding="utf-8")
    assert "] ingest | The French Chronometer Makers" in (git_vault / "log.md").read_text()
    assert git(git_vault, "log", "-1", "--format=%s").startswith("ingest")


async def test_edit_rounds_stop_after_three(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(*[Reply(BAD_EDIT)] * 3)
    events = await run_op(operations.ingest(vault, SOURCE, llm_server.settings()))
    assert len([e for e in events if isinstance(e, Retry)]) == 2
    assert len(llm_server.requests) == 3
    failed = events[-1]  # nothing usable after the last round: a fault, not "no changes"
    assert isinstance(failed, Failed) and failed.kind == "unusable"
    assert "No usable edits after 3 round(s)" in failed.reason
    assert "born on the Moon" in failed.reason


async def test_tool_calls_are_answered_and_shown(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(
        Reply(tool_calls=[ToolCall("read_page", {"path": "H4"}),
                          ToolCall("search", {"query": "Berthoud"})]),
        Reply("H4 was completed in 1759 ([[H4]])."))
    events = await run_op(operations.query(vault, "When was H4 completed?",
                                           llm_server.settings()))
    activity = [e.detail for e in events if isinstance(e, ToolActivity)]
    assert activity == ["read page H4", "search 'Berthoud'"]
    tool_msgs = [m for m in llm_server.requests[1].messages if m["role"] == "tool"]
    assert "title: H4" in tool_msgs[0]["content"]
    answer = next(e for e in events if isinstance(e, Answer))
    assert answer.citations == ("entities/H4.md",)


DETACHED = ("@@@ WRITE concepts/Detached escapement.md\n---\ntitle: Detached escapement\n"
            "type: concept\nsummary: An escapement that frees the balance.\n---\n"
            "# Detached escapement\n\nLe Roy's design.\n@@@ END\n")


async def test_length_cut_keeps_complete_blocks_and_asks_for_the_cut_one(llm_server,
                                                                         sample_vault):
    vault = Vault.open(sample_vault)
    cut = NEW_PAGE_BLOCK + DETACHED[:60]
    llm_server.queue(Reply(cut, finish_reason="length"), Reply(DETACHED))
    events = await run_op(operations.ingest(vault, SOURCE, llm_server.settings(max_tokens=50)))
    retry = next(e for e in events if isinstance(e, Retry))
    assert "cut off" in retry.reason and "round 2 of 3" in retry.reason
    feedback = llm_server.requests[1].messages[-1]["content"]
    assert 'ran out of output tokens (finish reason "length", max_tokens=50)' in feedback
    assert "inside the block for concepts/Detached escapement.md" in feedback
    assert "do not send them again" in feedback
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    assert sorted(f.path for f in changeset.files) == ["concepts/Detached escapement.md", PAGE]
    assert not changeset.errors and isinstance(events[-1], Done)


async def test_dropped_connection_fails_cleanly(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply(NEW_PAGE_BLOCK, chunk_size=10, drop_after=5))
    events = await run_op(operations.ingest(vault, SOURCE,
                                            llm_server.settings(edit_rounds=1)))
    failed = events[-1]
    assert isinstance(failed, Failed) and failed.kind == "dropped"
    assert "dropped in the middle of the reply" in failed.reason
    assert "still incomplete after 1 round(s); nothing was applied" in failed.reason
    assert failed.partial_reply == NEW_PAGE_BLOCK[:50]
    assert not any(isinstance(e, ChangesetReady) for e in events)


async def test_rate_limit_then_success_and_server_error(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply(status=429, retry_after=0), Reply("The wiki does not hold it."))
    events = await run_op(operations.query(vault, "What?", llm_server.settings()))
    assert any(isinstance(e, Retry) and "Rate limited" in e.reason for e in events)
    assert isinstance(events[-1], Done)
    llm_server.queue(*[Reply(status=500)] * 2)
    events = await run_op(operations.query(vault, "What?", llm_server.settings(max_retries=1)))
    assert isinstance(events[-1], Failed) and events[-1].kind == "server"


async def test_timeout_in_an_operation(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply("late", delay=2))
    events = await run_op(operations.query(vault, "What?", llm_server.settings(timeout=0.3)))
    assert isinstance(events[-1], Failed) and events[-1].kind == "timeout"


async def test_cancelling_the_task_writes_nothing(llm_server, git_vault):
    vault = Vault.open(git_vault)
    llm_server.queue(Reply(NEW_PAGE_BLOCK, chunk_size=1, rate=200))
    seen = []

    async def consume():
        async for event in operations.ingest(vault, SOURCE, llm_server.settings()):
            seen.append(event)

    task = asyncio.create_task(consume())
    while len(seen) < 10:
        await asyncio.sleep(0.01)
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    assert not any(isinstance(e, ChangesetReady) for e in seen)
    assert not (git_vault / PAGE).exists()
    assert git(git_vault, "status", "--porcelain").strip() == ""


async def test_model_checked_lint_findings(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply(
        'FINDING: contradiction | entities/H4.md | The completion year differs. | '
        '"completed in 1759"\nNo fixes.\n'))
    events = await run_op(operations.lint(vault, llm_server.settings()))
    findings = next(e for e in events if isinstance(e, Findings))
    model = [i for i in findings.items if i.source == "model"]
    assert [(i.code, i.path, i.evidence) for i in model] == [
        ("contradiction", "entities/H4.md", "completed in 1759")]
    assert "broken-link" in llm_server.requests[0].text()  # structural findings were given


async def test_large_source_is_read_in_parts(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    big = "# Big source\n\n" + "\n\n".join(
        f"## Section {i}\n\n" + f"Sentence {i} about the marine chronometer. " * 60
        for i in range(12))
    (sample_vault / "raw" / "big.md").write_text(big, encoding="utf-8")
    settings = llm_server.settings(context_tokens=4000)
    from wiki_tui.agent.context.prompts import part_tokens, split_source

    # the rules take much of a 4,000-token budget: the parts are cut smaller than half of it
    size = part_tokens(vault, "ingest", 4000, settings.model)
    assert 1000 <= size < 2000
    parts = split_source(big, size, settings.model)
    assert len(parts) >= 3
    llm_server.queue(Reply(NEW_PAGE_BLOCK.replace(PAGE, "sources/Big source.md")),
                     *[Reply("Nothing new in this part.")] * (len(parts) - 1))
    events = await run_op(operations.ingest(vault, "raw/big.md", settings))
    assert len(llm_server.requests) == len(parts)
    second = llm_server.requests[1].messages[1]["content"]
    assert f"(part 2 of {len(parts)})" in second
    assert "already changed these pages" in second and "sources/Big source.md" in second
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    assert [f.path for f in changeset.files] == ["sources/Big source.md"]
    for request in llm_server.requests:  # each prompt stays within the budget (estimate)
        assert sum(len(m["content"] or "") for m in request.messages) // 4 < 4000 * 1.1


async def test_usage_and_cost_for_a_model_with_a_known_price(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply("The wiki does not hold it.",
                           usage={"prompt_tokens": 1000, "completion_tokens": 100,
                                  "total_tokens": 1100}))
    events = await run_op(operations.query(vault, "What?",
                                           llm_server.settings(model="openai/gpt-4o-mini")))
    usage = events[-1].usage
    assert (usage.prompt_tokens, usage.completion_tokens) == (1000, 100)
    assert usage.cost_usd is not None and 0 < usage.cost_usd < 0.01


async def test_cancel_event_mid_stream_keeps_the_partial_reply(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply(NEW_PAGE_BLOCK, chunk_size=1, rate=200))
    cancel = asyncio.Event()
    events = []
    async for event in operations.ingest(vault, SOURCE, llm_server.settings(), cancel=cancel):
        events.append(event)
        if len(events) == 8:
            cancel.set()
    failed = events[-1]
    assert isinstance(failed, Failed) and failed.kind == "cancelled"
    assert failed.partial_reply and NEW_PAGE_BLOCK.startswith(failed.partial_reply)
    assert not any(isinstance(e, ChangesetReady) for e in events)


async def test_model_merge_gets_every_backlink_rewritten(llm_server, git_vault):
    vault = Vault.open(git_vault)
    linking = sorted({b.source for b in vault.backlinks("entities/Larcum Kendall.md")}
                     - {"index.md", "log.md"})
    assert linking
    target = (git_vault / "entities/John Harrison.md").read_text(encoding="utf-8")
    llm_server.queue(Reply(
        "Merged.\n\n@@@ WRITE entities/John Harrison.md\n" + target
        + "\nKendall copied H4 as K1.\n@@@ END\n@@@ DELETE entities/Larcum Kendall.md\n"))
    events = await run_op(operations.instruct(vault, "merge Larcum Kendall into John Harrison",
                                              llm_server.settings()))
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    paths = {f.path for f in changeset.files}
    assert set(linking) - {"entities/John Harrison.md"} <= paths
    changeset.accept_all()
    apply_changeset(vault, changeset)
    for path in set(linking) - {"entities/John Harrison.md"}:
        text = (git_vault / path).read_text(encoding="utf-8")
        assert "[[Larcum Kendall]]" not in text
        assert "[[John Harrison|Larcum Kendall]]" in text, path
