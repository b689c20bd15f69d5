"""Type-ahead never applies a changeset: a person typing a question at 12 keys/s while an
operation ends keeps every letter in the input, and the review waits, pending."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import git
from tests.ui.conftest import make_changeset
from tests.ui.test_app import settle
from wiki_tui.agent import events as ev
from wiki_tui.changes.model import PENDING
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.conversation import NoteLine, UserMessage

SENTENCE = "was the harrison watch tested at sea?"
KEYS_PER_SECOND = 12


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def operation(changeset, ready_after: float):
    """An operation whose changeset is ready `ready_after` seconds after it starts."""

    async def events():
        yield ev.Started("ingest", changeset.title, "test-model")
        await asyncio.sleep(ready_after)
        yield ev.ChangesetReady(changeset)
        yield ev.Done()

    return events


async def type_sentence(pilot, text: str) -> None:
    """Press each character then enter, at KEYS_PER_SECOND (the time a key takes counts)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    for i, key in enumerate([*text, "enter"]):
        await pilot.press("space" if key == " " else key)
        await asyncio.sleep(max(0.0, start + (i + 1) / KEYS_PER_SECOND - loop.time()))


# Where in the typing the changeset becomes ready (seconds after the first key; negative:
# before it): just before, at the first key, mid-sentence, at the final enter.
OFFSETS = [-0.2, 0.0, 1.5, (len(SENTENCE) + 1) / KEYS_PER_SECOND]


@pytest.mark.parametrize("offset", OFFSETS, ids=["before", "first-key", "mid", "at-enter"])
async def test_typing_across_a_review_becoming_ready_applies_nothing_and_keeps_the_text(
        git_vault, offset):
    app = WikiApp(git_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        asked: list[str] = []
        app._command_query = asked.append  # the question is not sent to a model here
        app._warm_started = True  # nor is the model library loaded (seconds, not tested here)
        changeset = make_changeset(app.vault)
        head = git(git_vault, "rev-parse", "HEAD")
        lead = max(0.0, -offset)
        app.run_operation("ingest", operation(changeset, max(0.0, offset) + 0.05))
        await pilot.pause(lead + 0.05)
        await type_sentence(pilot, SENTENCE)
        await pilot.pause(1.0)  # past any grace period: whatever was going to happen has
        sent = [str(m.render()) for m in app.query(UserMessage)]
        assert sent == [SENTENCE]
        assert asked == [SENTENCE]
        assert all(f.status == PENDING for f in changeset.files)
        assert app.pending_changesets == [changeset]
        assert "1 pending review" in str(app.status_bar.render())
        assert app.screen is app.screen_stack[0]  # the review waits for ctrl+r
        said = [str(n.render()) for n in app.query(NoteLine)]
        assert any(n.startswith("review ready: instruct | Tidy navigation pages, 3 files")
                   and "ctrl+r opens it" in n for n in said)
        if offset < 0:  # it opened (the person was idle), then stepped aside for the typing
            assert any("stepped aside" in n for n in said)
    assert git(git_vault, "rev-parse", "HEAD") == head
    assert git(git_vault, "status", "--porcelain") == ""
