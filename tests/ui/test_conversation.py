"""The conversation pane on its own terms: streaming follows the text, settles into one
Static per message, and the markdown split keeps code fences whole."""

from __future__ import annotations

import pytest

from wiki_tui.agent import events as ev
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.conversation import LiveReply, ReplyMessage, settled_split
from wiki_tui.ui.presenter import EventPresenter
from tests.ui.test_app import settle


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def test_settled_split_never_cuts_inside_a_code_fence():
    text = "para one\n\n```\ncode\n\nmore code\n"
    assert settled_split(text) == text.index("```")
    closed = text + "```\n\nafter"
    assert settled_split(closed) == closed.rindex("\n\n")
    assert settled_split("no blank line yet") == 0


async def test_streaming_follows_the_last_line_and_ends_at_the_bottom(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        conv = app.conversation
        for i in range(30):
            conv.add_user(f"question {i}")
            conv.add_markdown(f"answer {i}\n\n- a\n- b")
        await pilot.pause(0.3)
        presenter = EventPresenter(conv, "query")
        presenter.handle(ev.Started("query", "q", "m"))
        for i in range(60):
            presenter.handle(ev.Token(f"line {i} of the streamed reply\n\n"))
            if i % 15 == 14:
                await pilot.pause(0.3)
                live = conv.live
                assert isinstance(live, LiveReply)
                messages = conv.messages
                top = messages.virtual_size.height - live.outer_size.height
                last_line = top + len(live._strips) - 1
                view = range(int(messages.scroll_y),
                             int(messages.scroll_y) + messages.scrollable_content_region.height)
                assert last_line in view, (last_line, view)
        presenter.handle(ev.Done())
        await pilot.pause(0.5)
        messages = conv.messages
        assert not app.query(LiveReply)
        assert messages.scroll_y == messages.max_scroll_y
        assert "line 59 of the streamed reply" in app.query(ReplyMessage).last().text


async def test_scrolling_up_stops_following(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        conv = app.conversation
        for i in range(30):
            conv.add_markdown(f"answer {i}\n\n- a\n- b")
        await pilot.pause(0.3)
        conv.start_reply()
        conv.feed("first\n\n")
        await pilot.pause(0.3)
        conv.messages.scroll_to(y=0, animate=False)
        for i in range(40):
            conv.feed(f"more {i}\n\n")
        await pilot.pause(0.5)
        assert conv.messages.scroll_y == 0  # left where the person put it
        conv.finish_reply()
        await pilot.pause(0.3)
        assert conv.messages.scroll_y == 0
