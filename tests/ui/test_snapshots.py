"""Snapshots of the main screen at 80x24 and 160x48 (pytest-textual-snapshot).

Deterministic: a fresh copy of sample_vault (folder name "vault"), no user config or state,
the cursor not blinking, every worker finished before the picture. Update after an intended
change with `uv run pytest tests/ui/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import pytest

from tests.ui.test_app import settle
from tests.ui.conftest import drain, still_cursor
from wiki_tui.ui.app import WikiApp


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "truecolor")


async def _ready(pilot) -> None:
    await settle(pilot)
    still_cursor(pilot.app)
    await drain(pilot)
    await settle(pilot)


def _with_conversation(app: WikiApp):
    async def run_before(pilot) -> None:
        await _ready(pilot)
        conv = app.conversation
        conv.add_user("What did the Board of Longitude decide?")
        conv.add_note("query: What did the Board of Longitude decide? · offline engine", "tool")
        conv.add_markdown("The [[Board of Longitude]] asked for a copy of H4.\n\n"
                          "- K1 was that copy\n- Cook took it south")
        await drain(pilot)
    return run_before


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_main_screen(snap_compare, git_vault, size):
    app = WikiApp(git_vault)
    assert snap_compare(app, terminal_size=size, run_before=_with_conversation(app))


def test_help_screen(snap_compare, git_vault):
    app = WikiApp(git_vault)

    async def run_before(pilot) -> None:
        await _ready(pilot)
        await pilot.press("f1")
        await drain(pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)
