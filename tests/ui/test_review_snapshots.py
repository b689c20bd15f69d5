"""Snapshots of the review screen at 80x24 (unified) and 160x48 (side by side).

Deterministic: a real changeset built from fixed reply text on a fresh git copy of
sample_vault, pictured after the grace period, with one hunk rejected. Update after an
intended change with `uv run pytest tests/ui/test_review_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import pytest

from tests.ui.conftest import drain
from tests.ui.conftest import ReviewHost, make_changeset, wait_for
from wiki_tui.ui.review import ReviewScreen


@pytest.fixture(autouse=True)
def _colours(monkeypatch):
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "truecolor")


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_review_screen(snap_compare, git_vault, open_vault, size):
    vault = open_vault(git_vault)
    changeset = make_changeset(vault)
    app = ReviewHost(lambda: ReviewScreen(vault, changeset))

    async def run_before(pilot) -> None:
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.armed)
        await drain(pilot)
        await pilot.press("a", "n", "space", "j", "r")  # accept file 1 but its hunk 2; reject 2
        await pilot.press("k")
        await drain(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
