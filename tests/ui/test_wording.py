"""Words on screen: F1's title keeps "[keys]", counts agree with their nouns ("1 match"), and a
lint's review says its fixes add no new findings (not "No lint findings" after a lint found some).
"""

from __future__ import annotations

import pytest
from textual.widgets import Static

from tests.ui.conftest import wait_for, wait_page
from tests.ui.test_app import settle
from tests.ui.test_browser_screens import open_screen
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.browser import PageJumpScreen
from wiki_tui.ui.frame.help import HelpScreen
from wiki_tui.ui.frame.markup import counted


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def shown(widget: Static) -> str:
    lines = widget.render_lines(widget.region.reset_offset)  # as drawn, after markup
    return "\n".join(line.text for line in lines)


@pytest.mark.parametrize("n, singular, plural, expected", [
    (1, "match", None, "1 match"), (2, "match", None, "2 matches"), (0, "tag", None, "0 tags"),
    (1, "log entry", "log entries", "1 log entry"), (3, "log entry", "log entries", "3 log entries"),
])
def test_counted(n, singular, plural, expected):
    assert counted(n, singular, plural) == expected


async def test_f1_title_names_the_keys_table(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        text = shown(app.screen.query_one("#help-body Static", Static))
        assert "remap any id in config.toml under [keys]" in text


async def test_one_hit_reads_one_match(tiny_vault, browser_app):
    root = tiny_vault({"Sandglass.md": "# Sandglass\n", "Log line.md": "# Log line\n"})
    app = browser_app(root)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = app.browser
        await wait_page(pilot, browser)
        await open_screen(pilot, app, browser.open_jump, PageJumpScreen)
        await pilot.press(*"sandgl")
        status = app.screen.query_one("#picker-status", Static)
        await wait_for(pilot, lambda: app.screen.shown_query == "sandgl")
        assert str(status.render()) == "1 match"


async def test_lint_review_says_the_fixes_add_no_findings(git_vault):
    from wiki_tui.ui.review import ReviewScreen

    app = WikiApp(git_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        app.submit("/lint")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen), 60)
        await pilot.pause()
        notes = str(app.screen.query_one("#review-notes-text", Static).render())
        assert "The fixes add no new findings." in notes
        assert "No lint findings" not in notes
