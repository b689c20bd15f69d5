"""Type-ahead never applies a changeset: a person typing a question at 12 keys/s while an
operation ends keeps every letter in the input, and the review waits, pending. And one rule for
when a review opens: by itself when the operation ends, unless the person typed since it began.

The app runs on a FakeClock the test moves by 1/12 s a key: the person's pace, not the
machine's, decides what counts as "typing", so the outcome is the same on a busy machine."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import git
from tests.support.clock import FakeClock
from tests.ui.conftest import make_changeset, wait_for
from tests.ui.test_app import settle
from wiki_tui.agent import events as ev
from wiki_tui.changes.model import PENDING
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.chat.conversation import NoteLine, UserMessage
from wiki_tui.ui.review import ReviewScreen

SENTENCE = "was the harrison watch tested at sea?"
KEY_SECONDS = 1 / 12  # 12 keys a second


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def operation(changeset, ready: asyncio.Event, name: str = "ingest"):
    """An operation whose changeset is ready once `ready` is set."""

    async def events():
        yield ev.Started(name, changeset.title, "test-model")
        await ready.wait()
        yield ev.ChangesetReady(changeset)
        yield ev.Done()

    return events


def keys(text: str) -> list[str]:
    return ["space" if key == " " else key for key in text] + ["enter"]


async def become_ready(pilot, app, ready: asyncio.Event, changeset) -> None:
    ready.set()
    await wait_for(pilot, lambda: changeset in app.pending_changesets, timeout=90)
    await pilot.pause()


def notes(app) -> list[str]:
    return [str(n.render()) for n in app.query(NoteLine)]


# Where in the typing the changeset becomes ready, as the number of keys typed by then: before
# the first key, after it, mid-sentence, after the final enter.
READY_AT = [0, 1, 18, len(SENTENCE) + 1]


@pytest.mark.parametrize("ready_at", READY_AT, ids=["before", "first-key", "mid", "at-enter"])
async def test_typing_across_a_review_becoming_ready_applies_nothing_and_keeps_the_text(
        git_vault, ready_at):
    clock = FakeClock()
    app = WikiApp(git_vault, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        asked: list[str] = []
        app._command_query = asked.append  # the question is not sent to a model here
        app._warm_started = True  # nor is the model library loaded (seconds, not tested here)
        changeset = make_changeset(app.vault)
        head = git(git_vault, "rev-parse", "HEAD")
        ready = asyncio.Event()
        app.run_operation("ingest", operation(changeset, ready))
        await pilot.pause()
        for i, key in enumerate(keys(SENTENCE)):
            if i == ready_at:
                await become_ready(pilot, app, ready, changeset)
            clock.advance(KEY_SECONDS)
            await pilot.press(key)
        if ready_at == len(SENTENCE) + 1:
            await become_ready(pilot, app, ready, changeset)
        clock.advance(1.0)  # past any grace period: whatever was going to happen has
        await pilot.press("ctrl+l")  # a key that decides nothing in a review
        await settle(pilot)
        sent = [str(m.render()) for m in app.query(UserMessage)]
        assert sent == [SENTENCE]
        assert asked == [SENTENCE]
        assert all(f.status == PENDING for f in changeset.files)
        assert app.pending_changesets == [changeset]
        assert "1 pending review" in str(app.status_bar.render())
        assert app.screen is app.screen_stack[0]  # the review waits for ctrl+r
        said = notes(app)
        assert any(n.startswith("review ready: instruct | Tidy navigation pages, 3 files")
                   and "ctrl+r opens it" in n for n in said)
        if ready_at == 0:  # it opened (the person was idle), then stepped aside for the typing
            assert any("stepped aside" in n for n in said)
    assert git(git_vault, "rev-parse", "HEAD") == head
    assert git(git_vault, "status", "--porcelain") == ""


@pytest.mark.parametrize("command", ["/save", "/lint", "/ingest raw/x.md"])
async def test_a_review_opens_by_itself_when_the_person_only_pressed_enter(git_vault, command):
    """The enter that started the operation is not typing: a quick save or lint review opens by
    itself as an ingest does (it used to wait for ctrl+r, the enter being 'recent typing')."""
    clock = FakeClock()
    app = WikiApp(git_vault, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        changeset = make_changeset(app.vault)
        ready = asyncio.Event()
        ready.set()  # as quick as can be: ready at once
        name = command.split()[0][1:]
        started: list[str] = []

        def run(_arg: str) -> None:
            started.append(name)
            app.run_operation(name, operation(changeset, ready, name))

        setattr(app, f"_command_{name}", run)
        app._warm_started = True
        for key in keys(command):
            clock.advance(KEY_SECONDS)
            await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen), timeout=90)
        assert started == [name]
        screen = app.screen
        assert screen.hand_back is not None  # opened by itself: typing would step it aside
        clock.advance(0.5)
        await pilot.press("R", "enter")  # armed: the keys now decide
        await wait_for(pilot, lambda: app.screen is app.screen_stack[0], timeout=90)
        assert not app.pending_changesets
        assert any("every file" in n and "rejected" in n for n in notes(app))


async def test_a_review_waits_when_the_person_typed_while_it_ran(git_vault):
    clock = FakeClock()
    app = WikiApp(git_vault, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        changeset = make_changeset(app.vault)
        ready = asyncio.Event()
        app.run_operation("lint", operation(changeset, ready, "lint"))
        await pilot.pause()
        for key in "next":
            clock.advance(KEY_SECONDS)
            await pilot.press(key)
        clock.advance(1.0)  # less than TYPING_SECONDS since the last key
        await become_ready(pilot, app, ready, changeset)
        assert app.screen is app.screen_stack[0]
        assert app.conversation.prompt.text == "next"
        assert any(n.startswith("review ready:") for n in notes(app))
