"""Operations through the real app: the offline engine, the local OpenAI-compatible server,
the review screen, apply, and citations followed into the browser."""

from __future__ import annotations

import asyncio
import threading

import pytest

from tests.conftest import git
from tests.support.llm_server import Reply
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.chat.conversation import LiveReply, NoteLine, ReplyMessage
from tests.ui.conftest import drain
from tests.ui.test_app import settle


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def notes(app) -> list[str]:
    return [str(n.render()) for n in app.query(NoteLine)]


async def until(pilot, condition, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "condition not reached in time"
        await pilot.pause(0.05)


async def test_query_streams_from_the_local_server_and_citations_open_pages(git_vault,
                                                                             llm_server):
    answer = ("The [[Board of Longitude]] asked for a copy of H4; see also "
              "[[Larcum Kendall]].\n\nIt judged K1 a success.")
    llm_server.queue(Reply(answer, chunk_size=3, rate=200))
    app = WikiApp(git_vault, settings=llm_server.settings(tools=False))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert "openai/test-model" in str(app.status_bar.render())
        app.submit("What did the board decide?")
        await until(pilot, lambda: app.query(LiveReply))  # streaming is visible
        await until(pilot, lambda: not app.operation_running)
        await drain(pilot)
        reply = app.query(ReplyMessage).last()
        assert "judged K1 a success" in reply.text
        assert "What did the board decide?" in llm_server.requests[0].messages[-1]["content"]
        reply.focus()
        await pilot.press("enter")
        await pilot.pause()
        from wiki_tui.ui.chat.citations import CitationsScreen

        if reply.targets() and len(reply.targets()) > 1:
            assert isinstance(app.screen, CitationsScreen)
            await pilot.press("enter")
            await drain(pilot)
        browser = app.query_one("#browser")
        await until(pilot, lambda: browser.current_path is not None
                    and "Board of Longitude" in browser.current_path, 10)


async def test_a_cut_off_answer_shows_as_failed_and_is_not_kept(git_vault, llm_server):
    llm_server.queue(Reply("H4 was finished in 17", no_finish=True))
    app = WikiApp(git_vault, settings=llm_server.settings(tools=False))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        app.submit("When was H4 finished?")
        await until(pilot, lambda: not app.operation_running)
        await drain(pilot)
        reply = app.query(ReplyMessage).last()
        assert reply.status == "failed" and reply.text == "H4 was finished in 17"
        shown = " ".join(" ".join(notes(app)).split())
        assert "ended without a finish reason" in shown and "ask again to retry" in shown
        assert not app.last_answer  # /save cannot file a cut-off answer


def held_stream(llm_server) -> threading.Event:
    """Queue a reply whose stream stays open until the returned event is set (or the server's
    EVENT_HOLD passes): the operation runs for as long as the test needs, whatever the machine's
    speed. Its words differ: litellm ends a stream of 100 identical chunks as a repeating model."""
    hold = threading.Event()
    llm_server.queue(Reply(" ".join(f"word{i}" for i in range(400)), chunk_size=5, hold=hold))
    return hold


async def test_escape_cancels_a_real_stream_and_nothing_is_written(git_vault, llm_server):
    hold = held_stream(llm_server)
    app = WikiApp(git_vault, settings=llm_server.settings(tools=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.submit("/ingest raw/cook-and-k1.txt")
        await until(pilot, lambda: app.conversation.live is not None
                    and len(app.conversation.live.text) > 20)
        await pilot.press("escape")
        await until(pilot, lambda: not app.operation_running, 90)
        hold.set()  # the server may close the stream now: the cancel came first
        await drain(pilot)
        reply = app.query(ReplyMessage).last()
        assert reply.has_class("-cancelled") and reply.text.startswith("word")
        assert any("cancelled" in n for n in notes(app))
        assert app.pending_changesets == []
    assert git(git_vault, "status", "--porcelain") == ""


@pytest.mark.parametrize("panel", ["backlinks", "outline-list", "page-tree"])
async def test_one_escape_from_a_browser_panel_cancels_the_operation(git_vault, llm_server, panel):
    """A side panel's own Esc (back to its page) waits: while an operation runs, the first Esc
    cancels it, wherever the focus is."""
    from wiki_tui.ui.browser import WikiBrowser

    hold = held_stream(llm_server)
    app = WikiApp(git_vault, settings=llm_server.settings(tools=False))
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        app.submit("/ingest raw/cook-and-k1.txt")
        await until(pilot, lambda: app.conversation.live is not None
                    and len(app.conversation.live.text) > 20)
        await pilot.press("ctrl+w", {"backlinks": "l", "outline-list": "o", "page-tree": "t"}[panel])
        focused = app.focused
        assert focused is not None and focused.id == panel and app.operation_running
        await pilot.press("escape")
        await until(pilot, lambda: not app.operation_running, 90)
        hold.set()  # the server may close the stream now: the cancel came first
        await drain(pilot)
        reply = app.query(ReplyMessage).last()
        assert reply.has_class("-cancelled")
        assert any("cancelled" in n for n in notes(app))
        assert app.pending_changesets == []
        assert app.focused is focused  # that Esc was the cancel, not a step back
        await pilot.press("escape")  # with nothing running: back to the page, as before
        assert app.focused is app.query_one(WikiBrowser).page_view
    assert git(git_vault, "status", "--porcelain") == ""


async def test_offline_ingest_opens_review_then_apply_commits(git_vault):
    from wiki_tui.ui.review import ReviewScreen

    app = WikiApp(git_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        app.submit("/ingest raw/cook-and-k1.txt")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), 90)
        assert "1 pending review" in str(app.status_bar.render())
        await until(pilot, lambda: app.screen.armed)  # keys count after its grace period
        await pilot.press("escape")  # leave: stays pending
        await pilot.pause()
        assert not isinstance(app.screen, ReviewScreen)
        assert any("stay pending" in n for n in notes(app))
        shown = app.query(ReplyMessage).last().text
        # the reply shows prose and one line per proposed file, never the raw edit blocks
        assert "@@@" not in shown and "`✎ edits entities/John Harrison.md`" in shown
        await pilot.press("ctrl+r")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), 90)
        await until(pilot, lambda: app.screen.armed)
        await pilot.press("A", "enter")
        await until(pilot, lambda: not isinstance(app.screen, ReviewScreen), 90)
        await drain(pilot)
        assert any(n.startswith("applied:") and "commit" in n for n in notes(app))
        assert "0 pending reviews" in str(app.status_bar.render())
    log = git(git_vault, "log", "--oneline")
    assert log.count("\n") == 2
    assert "ingest" in (git_vault / "log.md").read_text(encoding="utf-8")


async def test_the_conversation_keeps_showing_its_newest_lines(git_vault):
    # The reply starts while the conversation is shorter than its pane (Textual's anchor then
    # holds a negative scroll offset); once it is longer, what comes next must still be shown.
    from wiki_tui.ui.review import ReviewScreen

    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 24)) as pilot:
        await settle(pilot)
        messages = app.conversation.messages
        assert messages.max_scroll_y == 0  # only the welcome lines so far
        app.submit("/ingest raw/french-chronometers.md")  # a long reply: 8 files
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), 90)
        await until(pilot, lambda: app.screen.armed)
        await pilot.press("A", "enter")
        await until(pilot, lambda: not isinstance(app.screen, ReviewScreen), 90)
        app.submit("/undo")
        await until(pilot, lambda: any(n.startswith("undone:") for n in notes(app)), 90)
        await drain(pilot)
        assert messages.max_scroll_y > 0  # longer than the pane now
        last = app.query(NoteLine).last()
        assert str(last.render()).startswith("undone:")
        assert messages.region.contains_region(last.region)  # on screen, not below it


INGEST_REPLY = """I read the notes on the lunar distance method and propose these changes.

@@@ WRITE sources/Lunar Notes.md
---
title: Lunar Notes
type: source
summary: Study notes on finding longitude from the Moon's distance to a star.
sources: ["[[raw/lunar-distances.md]]"]
---
# Lunar Notes

The observer measures the angle between the Moon and a star; see [[Lunar distance method]].
@@@ END

@@@ EDIT concepts/Dead reckoning.md
@@@ SEARCH
the speed measured with a log line and the time run by the sandglass. Currents and leeway go
@@@ REPLACE
the speed measured with a log line and the time run by the sandglass (see [[Lunar Notes]]). Currents and leeway go
@@@ SEARCH
reckoning gone wrong.
@@@ REPLACE
reckoning gone wrong, and lunar distances the first check at sea.
@@@ END

@@@ EDIT entities/Tobias Mayer.md
@@@ SEARCH
# Tobias Mayer
@@@ REPLACE
# Tobias Mayer

His widow received £3,000 for his tables ([[Lunar Notes]]).
@@@ END

Done.
"""


async def test_ingest_from_the_local_server_reviewed_per_file_and_hunk_then_applied(git_vault,
                                                                                 llm_server):
    """The real model path (litellm -> the suite's streaming server) into the review: accept a
    new page, accept an edit but reject one of its hunks, reject a third file; apply; check
    the disk, log.md and the commit."""
    from wiki_tui.changes.model import ACCEPTED, REJECTED
    from wiki_tui.ui.review import ReviewScreen

    dead, mayer, new = "concepts/Dead reckoning.md", "entities/Tobias Mayer.md", "sources/Lunar Notes.md"
    mayer_before = (git_vault / mayer).read_text(encoding="utf-8")
    llm_server.queue(Reply(INGEST_REPLY, chunk_size=7, rate=400))
    app = WikiApp(git_vault, settings=llm_server.settings(tools=False))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        app.submit("/ingest raw/lunar-distances.md")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), 60)
        screen = app.screen
        changeset = screen.changeset
        assert [f.path for f in changeset.files] == [new, dead, mayer]
        assert len(changeset.file(dead).hunks) == 2
        await until(pilot, lambda: screen.armed, 90)
        await pilot.press("a")  # the new page
        await pilot.press("j", "a", "n", "space")  # Dead reckoning: accept, reject hunk 2
        await pilot.press("j", "r")  # Tobias Mayer: reject
        assert [f.status for f in changeset.files] == [ACCEPTED, ACCEPTED, REJECTED]
        assert [h.status for h in changeset.file(dead).hunks] == [ACCEPTED, REJECTED]
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, ReviewScreen), 90)
        await until(pilot, lambda: any(n.startswith("applied:") for n in notes(app)), 90)
    assert "lunar distance" in str(llm_server.requests[0].messages).lower()  # the source was sent
    text = (git_vault / dead).read_text(encoding="utf-8")
    assert "(see [[Lunar Notes]])" in text
    assert "the first check at sea" not in text  # the rejected hunk
    assert (git_vault / mayer).read_text(encoding="utf-8") == mayer_before
    assert "The observer measures the angle" in (git_vault / new).read_text(encoding="utf-8")
    log = (git_vault / "log.md").read_text(encoding="utf-8")
    entry = log[log.rindex("\n## ["):]
    assert "] ingest | Reading the Moon: the Lunar Distance Method" in entry.splitlines()[1]
    assert f"- rejected: {mayer}" in entry
    assert "- created: [[sources/Lunar Notes|Lunar Notes]]" in entry
    committed = git(git_vault, "show", "--name-only", "--format=%B", "HEAD")
    assert committed.startswith("ingest: ")
    assert "Model: openai/test-model" in committed
    for path in (new, dead, "log.md", "index.md"):
        assert path in committed
    assert mayer not in committed
    assert "[[sources/Lunar Notes|Lunar Notes]]" in (git_vault / "index.md").read_text(encoding="utf-8")
    assert git(git_vault, "status", "--porcelain") == ""
