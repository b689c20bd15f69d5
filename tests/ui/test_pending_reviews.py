"""Pending reviews outlive the session: quitting keeps them on disk and says where, the next
start lists them (a base changed on disk since shows as changed), and each can be reopened,
dropped, or closed by rejecting every file."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import git
from tests.ui.conftest import drain
from tests.ui.conftest import MAYER, make_changeset, wait_for
from tests.ui.test_app import settle
from tests.ui.test_review_typeahead import operation
from wiki_tui.changes.model import CONFLICT
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.chat.conversation import NoteLine
from wiki_tui.ui.review import ConfirmScreen, ReviewScreen
from wiki_tui.ui.review.pending import PendingScreen


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def notes(app) -> list[str]:
    return [str(n.render()) for n in app.query(NoteLine)]


def kept(root) -> list[str]:
    folder = root / ".wiki-tui" / "pending"
    return sorted(p.name for p in folder.glob("*.json")) if folder.is_dir() else []


async def test_pending_reviews_survive_a_quit_and_each_can_be_dropped_or_closed(git_vault):
    head = git(git_vault, "rev-parse", "HEAD")
    app = WikiApp(git_vault)
    said: list[str] = []
    leave = app.exit
    app.exit = lambda *args, **kwargs: (said.append(str(kwargs.get("message"))),
                                        leave(*args, **kwargs))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for count, title in enumerate(("First proposal", "Second proposal"), 1):
            ready = asyncio.Event()
            ready.set()  # the changeset is ready at once
            app.run_operation("ingest", operation(make_changeset(app.vault, title=title), ready))
            await wait_for(pilot, lambda: len(app.pending_changesets) == count)
            await drain(pilot)
            if isinstance(app.screen, ReviewScreen):  # the first opens; the second waits
                await wait_for(pilot, lambda: app.screen.armed)
                await pilot.press("escape")  # leave it pending
                await wait_for(pilot, lambda: not isinstance(app.screen, ReviewScreen))
        assert "2 pending reviews" in str(app.status_bar.render())
        await pilot.press("ctrl+q")
    assert len(kept(git_vault)) == 2
    assert len(said) == 1 and "2 pending reviews kept in" in said[0]  # printed on exit
    assert str(git_vault / ".wiki-tui" / "pending") in said[0] and "come back" in said[0]

    page = git_vault / MAYER  # the person edits a page while the app is closed
    page.write_text(page.read_text(encoding="utf-8") + "\nEdited meanwhile.\n", encoding="utf-8")

    app = WikiApp(git_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: len(app.pending_changesets) == 2)
        assert "2 pending reviews" in str(app.status_bar.render())
        assert any("2 pending reviews kept from an earlier session (2 with files changed on "
                   "disk since)" in n for n in notes(app))
        assert all(cs.file(MAYER).status == CONFLICT for cs in app.pending_changesets)
        await pilot.press("ctrl+r")  # two: a chooser
        await wait_for(pilot, lambda: isinstance(app.screen, PendingScreen))
        await pilot.press("up", "d")  # drop the first (the newest is highlighted)
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: len(app.pending_changesets) == 1)
        assert [cs.title for cs in app.pending_changesets] == ["Second proposal"]
        assert len(kept(git_vault)) == 1
        await pilot.press("ctrl+r")  # one: it opens
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert screen._is_stale(screen.changeset.file(MAYER))  # shown as changed on disk
        await wait_for(pilot, lambda: screen.armed)
        await pilot.press("R", "enter")  # every file rejected: enter closes the review
        await wait_for(pilot, lambda: not isinstance(app.screen, ReviewScreen))
        assert app.pending_changesets == []
        assert "0 pending reviews" in str(app.status_bar.render())
        assert any(n.startswith("review closed: every file of") for n in notes(app))
    assert kept(git_vault) == []
    assert git(git_vault, "rev-parse", "HEAD") == head
