"""A snapshot of the browser alone at 80x24 (the app's own snapshots cover whole screens)."""

from __future__ import annotations

import pytest

from tests.ui.conftest import drain
from tests.ui.conftest import BrowserHost, wait_page


@pytest.fixture(autouse=True)
def _truecolor(monkeypatch):
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "truecolor")


def test_browser_80x24(snap_compare, sample_vault, open_vault):
    app = BrowserHost(open_vault(sample_vault))

    async def run_before(pilot) -> None:
        browser = app.browser
        await wait_page(pilot, browser)
        browser.open_page("Clock versus Moon")
        await wait_page(pilot, browser, "syntheses/Clock versus Moon.md")
        browser.page_view.focus()
        await pilot.press("n", "n")
        await pilot.app.workers.wait_for_complete()
        await drain(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
