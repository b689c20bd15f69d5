"""Operations through the real app: the offline engine, the local OpenAI-compatible server,
the review screen, apply, and citations followed into the browser."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import git
from tests.support.llm_server import Reply
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.conversation import LiveReply, NoteLine, ReplyMessage
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
        await pilot.pause(0.2)
        reply = app.query(ReplyMessage).last()
        assert "judged K1 a success" in reply.text
        assert "What did the board decide?" in llm_server.requests[0].messages[-1]["content"]
        reply.focus()
        await pilot.press("enter")
        await pilot.pause()
        from wiki_tui.ui.citations import CitationsScreen

        if reply.targets() and len(reply.targets()) > 1:
            assert isinstance(app.screen, CitationsScreen)
            await pilot.press("enter")
            await pilot.pause(0.3)
        browser = app.query_one("#browser")
        await until(pilot, lambda: browser.current_path is not None
                    and "Board of Longitude" in browser.current_path, 10)


async def test_escape_cancels_a_real_stream_and_nothing_is_written(git_vault, llm_server):
    llm_server.queue(Reply("word " * 400, chunk_size=5, rate=40))
    app = WikiApp(git_vault, settings=llm_server.settings(tools=False))
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.submit("/ingest raw/cook-and-k1.txt")
        await until(pilot, lambda: app.conversation.live is not None
                    and len(app.conversation.live.text) > 20)
        await pilot.press("escape")
        await until(pilot, lambda: not app.operation_running, 10)
        await pilot.pause(0.2)
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

    llm_server.queue(Reply("word " * 400, chunk_size=5, rate=40))
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
        await until(pilot, lambda: not app.operation_running, 10)
        await pilot.pause(0.2)
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
        await pilot.pause(0.7)  # the review ignores keys for its first half second
        await pilot.press("escape")  # leave: stays pending
        await pilot.pause()
        assert not isinstance(app.screen, ReviewScreen)
        assert any("stay pending" in n for n in notes(app))
        shown = app.query(ReplyMessage).last().text
        # the reply shows prose and one line per proposed file, never the raw edit blocks
        assert "@@@" not in shown and "`✎ edits entities/John Harrison.md`" in shown
        await pilot.press("ctrl+r")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), 10)
        await pilot.pause(0.7)
        await pilot.press("A", "enter")
        await until(pilot, lambda: not isinstance(app.screen, ReviewScreen), 30)
        await pilot.pause(0.3)
        assert any(n.startswith("applied:") and "commit" in n for n in notes(app))
        assert "0 pending reviews" in str(app.status_bar.render())
    log = git(git_vault, "log", "--oneline")
    assert log.count("\n") == 2
    assert "ingest" in (git_vault / "log.md").read_text(encoding="utf-8")
