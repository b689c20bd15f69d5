"""Snapshots of the full-text search (ctrl+f) and the history (F3) at 80x24 and 160x48.

Deterministic like the main screen's: a fresh git copy of sample_vault, no user config or state,
no blinking cursor, every worker finished before the picture. The history shows one applied
change whose log.md date is given to `apply_changeset` and whose commit id is fixed by fixed
author, committer and dates in the environment. Update after an intended change with
`uv run pytest tests/ui/test_search_history_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import pytest
from textual.widgets import Input

from tests.ui.conftest import make_changeset, wait_for
from tests.ui.test_app import settle
from tests.ui.test_snapshots import _ready
from wiki_tui.changes.apply.journal import apply_changeset
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.browser import SearchScreen
from wiki_tui.ui.review import HistoryScreen

SIZES = pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
QUERY = "Harrison watch"
APPLIED_ON = "2026-11-21"  # the log.md date of the applied change
GIT_DATE = "2026-11-21T10:00:00+00:00"  # its commit (and the vault's first one)


@pytest.fixture(autouse=True)
def _deterministic(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "truecolor")
    for who in ("AUTHOR", "COMMITTER"):  # so the commit ids shown stay the same
        monkeypatch.setenv(f"GIT_{who}_NAME", "wiki-tui tests")
        monkeypatch.setenv(f"GIT_{who}_EMAIL", "test@example.invalid")
        monkeypatch.setenv(f"GIT_{who}_DATE", GIT_DATE)


@SIZES
def test_search_screen(snap_compare, git_vault, size):
    app = WikiApp(git_vault)

    async def run_before(pilot) -> None:
        await _ready(pilot)
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: isinstance(app.screen, SearchScreen))
        screen = app.screen
        screen.query_one("#picker-input", Input).cursor_blink = False
        await pilot.press(*QUERY)
        await wait_for(pilot, lambda: screen.shown_query == QUERY)
        await settle(pilot)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@SIZES
def test_history_screen(snap_compare, git_vault, open_vault, size):
    vault = open_vault(git_vault)
    changeset = make_changeset(vault)
    changeset.accept_all()
    result = apply_changeset(vault, changeset, date=APPLIED_ON)
    assert result.commit
    app = WikiApp(git_vault)

    async def run_before(pilot) -> None:
        await _ready(pilot)
        await pilot.press("f3")
        await wait_for(pilot, lambda: isinstance(app.screen, HistoryScreen)
                       and app.screen.history is not None)
        await settle(pilot)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
