"""The conversation pane on its own terms: streaming follows the text, settles into one
Static per message, and the markdown split keeps code fences whole."""

from __future__ import annotations

import pytest

from wiki_tui.agent import events as ev
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.chat.conversation import LiveReply, NoteLine, ReplyMessage, settled_split
from wiki_tui.ui.chat.presenter import EventPresenter
from tests.ui.conftest import drain
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
        await drain(pilot)
        presenter = EventPresenter(conv, "query")
        presenter.handle(ev.Started("query", "q", "m"))
        for i in range(60):
            presenter.handle(ev.Token(f"line {i} of the streamed reply\n\n"))
            if i % 15 == 14:
                await drain(pilot)
                live = conv.live
                assert isinstance(live, LiveReply)
                messages = conv.messages
                top = messages.virtual_size.height - live.outer_size.height
                last_line = top + len(live._strips) - 1
                view = range(int(messages.scroll_y),
                             int(messages.scroll_y) + messages.scrollable_content_region.height)
                assert last_line in view, (last_line, view)
        presenter.handle(ev.Done())
        await drain(pilot)
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
        await drain(pilot)
        conv.start_reply()
        conv.feed("first\n\n")
        await drain(pilot)
        conv.messages.scroll_to(y=0, animate=False)
        for i in range(40):
            conv.feed(f"more {i}\n\n")
        await drain(pilot)
        assert conv.messages.scroll_y == 0  # left where the person put it
        conv.finish_reply()
        await drain(pilot)
        assert conv.messages.scroll_y == 0


def _in_view(conv, widget) -> bool:
    return conv.messages.region.contains_region(widget.region)


async def test_following_resumes_at_the_bottom_and_a_hint_shows_while_away(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        conv = app.conversation
        hint = conv.query_one("#new-below")
        for i in range(20):
            conv.add_markdown(f"answer {i}\n\n- a\n- b")
        conv.add_markdown("\n\n".join(f"long answer, paragraph {i}" for i in range(40)))
        await drain(pilot)
        await pilot.press("ctrl+up")  # into the history: the view goes up to the reply's top
        await drain(pilot)
        note = conv.add_note("new output after ctrl+up")
        await drain(pilot)
        assert not _in_view(conv, note) and hint.display
        await pilot.press("ctrl+l")  # back to the input and the newest output
        await drain(pilot)
        assert _in_view(conv, note) and not hint.display
        note = conv.add_note("and it follows again")
        await drain(pilot)
        assert _in_view(conv, note)

        conv.messages.scroll_to(y=0, animate=False)  # the person reads further up
        await drain(pilot)
        away = conv.add_note("while reading above")
        reply = conv.start_reply()
        conv.feed("streamed while away\n\n")
        await drain(pilot)
        assert conv.messages.scroll_y == 0 and not _in_view(conv, away)
        assert hint.display and "new output below" in str(hint.render())

        conv.messages.scroll_end(animate=False)  # back at the bottom: following again
        await drain(pilot)
        assert not hint.display
        for i in range(30):
            conv.feed(f"more {i}\n\n")
        await drain(pilot)
        messages = conv.messages
        last_line = messages.virtual_size.height - reply.outer_size.height + len(reply._strips) - 1
        assert messages.scroll_y <= last_line < messages.scroll_y + messages.size.height
        final = conv.finish_reply()
        after = conv.add_note("after the reply")
        await drain(pilot)
        assert _in_view(conv, after) and "more 29" in final.text

        conv.messages.scroll_to(y=0, animate=False)
        await drain(pilot)
        conv.add_note("one more")
        await drain(pilot)
        assert hint.display
        await pilot.click("#new-below")  # the hint takes you down
        await drain(pilot)
        assert not hint.display and _in_view(conv, conv.query(NoteLine).last())
