"""The Backlinks tab: its count follows edits even while the panel is hidden or on another
tab, and at 80x24 (the app's stacked layout) an opened panel shows entries, not 0 rows."""

from __future__ import annotations

from textual.widgets import TabbedContent

from tests.ui.conftest import wait_for, wait_page
from wiki_tui.ui.browser.panels import BacklinksPanel


def label(browser) -> str:
    return str(browser.query_one("#side-panel", TabbedContent).get_tab("links").label)


async def add_linking_page(app, browser, root, name: str) -> None:
    (root / name).write_text(f"# {name}\n\nsee [[A]]\n", encoding="utf-8")
    app.vault.refresh_file(name)
    browser.files_changed([("added", name)])


async def test_count_follows_edits_on_another_tab_and_when_hidden(tiny_vault, browser_app):
    root = tiny_vault({"A.md": "# A\n\n## Part\n", "B.md": "# B\n\nsee [[A]]\n"})
    app = browser_app(root)
    async with app.run_test(size=(120, 30)) as pilot:
        browser = app.browser
        assert browser.open_page("A")
        await wait_page(pilot, browser, "A.md")
        await wait_for(pilot, lambda: label(browser) == "Backlinks 1")
        browser.action_show_panel("outline")  # the count stays in sight on the tab
        await pilot.pause()
        await add_linking_page(app, browser, root, "C.md")
        await wait_for(pilot, lambda: label(browser) == "Backlinks 2")
        browser.action_toggle_panel()  # hidden altogether
        await pilot.pause()
        await add_linking_page(app, browser, root, "D.md")
        await wait_for(pilot, lambda: label(browser) == "Backlinks 3")
        browser.action_show_panel("links")
        panel = browser.query_one(BacklinksPanel)
        await wait_for(pilot, lambda: any(
            "D  :3" in str(panel.get_option_at_index(i).prompt) for i in range(panel.option_count)))


async def test_opened_panel_shows_entries_at_80x24(git_vault):
    from tests.ui.test_app import settle
    from wiki_tui.ui.app import WikiApp

    app = WikiApp(git_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_page("entities/H4.md")
        browser = app.query_one("#browser")
        await wait_page(pilot, browser, "entities/H4.md")
        browser.page_view.focus()
        await pilot.press("l")
        panel = browser.query_one(BacklinksPanel)
        await wait_for(pilot, lambda: panel.option_count > 3)
        await pilot.pause()
        assert panel.has_focus
        assert panel.scrollable_content_region.height >= 4  # a heading and an entry at least
        assert label(browser).startswith("Backlinks ")
