"""Lists that render only what is on screen (RowList): a page with thousands of backlinks and a
tag held by thousands of pages, in the real browser on a real vault, driven from the keyboard;
and the list's own rules (disabled rows skipped, long lines cut, wrapped rows laid out again at
a new width, a click selects)."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from tests.ui.conftest import wait_for, wait_page
from tests.ui.test_browser_screens import open_screen
from wiki_tui.ui.browser import TagsScreen
from wiki_tui.ui.browser.panels import BacklinksPanel
from wiki_tui.ui.browser.rows import Row, RowList

SOURCES = 2500  # more than AUTO_MENTIONS_PAGES: unlinked mentions wait to be asked for


def hub_vault(tiny_vault):
    """Hub.md and SOURCES pages that link to it (line 6) and share the tag #bulk; titles run
    the other way from the paths, so a list sorted by title is not the path order."""
    files = {"Hub.md": "# Hub\n\nThe page everyone links to.\n"}
    for n in range(SOURCES):
        files[f"notes/p{n:04d}.md"] = (f"---\ntitle: Source {SOURCES - n:04d}\ntags: [bulk]\n---\n"
                                       f"# Source\n\nsee [[Hub]] from page {n}\n")
    return tiny_vault(files)


def made(rows: RowList) -> int:
    return sum(rows.get_option_at_index(i).made for i in range(rows.option_count))


def in_view(rows: RowList, index: int) -> bool:
    start, end = rows.row_lines(index)
    top = round(rows.scroll_y)
    return top <= start and end <= top + rows.scrollable_content_region.height


async def test_thousands_of_backlinks_show_at_once_and_move_by_keys(tiny_vault, browser_app):
    app = browser_app(hub_vault(tiny_vault))
    async with app.run_test(size=(100, 30)) as pilot:
        browser = app.browser
        assert browser.open_page("Hub")
        await wait_page(pilot, browser, "Hub.md")
        await pilot.press("l")
        panel = browser.query_one(BacklinksPanel)
        # a heading, every backlink, then the offer to search unlinked mentions
        await wait_for(pilot, lambda: panel.option_count == SOURCES + 2)
        await pilot.pause()
        assert panel.has_focus
        shown = panel.scrollable_content_region.height
        assert 0 < made(panel) <= shown + 2  # the rows on screen, not 2,500
        assert str(panel.get_option_at_index(0).prompt) == f"Linked mentions ({SOURCES})"

        await pilot.press("g")  # the heading cannot hold the cursor
        assert panel.highlighted == 1
        await pilot.press("j", "j", "j", "k")
        assert panel.highlighted == 3
        await pilot.press("pagedown")
        assert panel.highlighted > 3 + shown // 2 - 2 and in_view(panel, panel.highlighted)
        await pilot.press("G")
        assert panel.highlighted == SOURCES + 1  # "Unlinked mentions: enter to search"
        await pilot.press("k")
        last = panel.highlighted
        assert last == SOURCES and in_view(panel, last) and panel.scroll_y > 1000
        assert made(panel) <= 3 * shown + 4  # the middle of the list was never made
        title = str(panel.get_option_at_index(last).prompt).split("  :")[0]
        await pilot.press("enter")  # opens the backlink's page
        await wait_page(pilot, browser)
        assert app.vault.pages[browser.current_path].title == title


async def test_a_tag_held_by_thousands_of_pages(tiny_vault, browser_app):
    app = browser_app(hub_vault(tiny_vault))
    async with app.run_test(size=(100, 30)) as pilot:
        browser = app.browser
        await wait_page(pilot, browser)
        await open_screen(pilot, app, browser.open_tags, TagsScreen)
        await pilot.press(*"bulk", "enter")
        results = app.screen.results
        await wait_for(pilot, lambda: results.option_count == SOURCES)
        await pilot.pause()
        assert made(results) <= results.scrollable_content_region.height + 1
        first = str(results.get_option_at_index(0).prompt)
        assert first.startswith("Source 0001") and first.endswith(f"notes/p{SOURCES - 1:04d}.md")
        await pilot.press("down", "pagedown", "pagedown")
        chosen = results.highlighted
        assert chosen == 21 and in_view(results, chosen)
        assert made(results) < 60
        await pilot.press("enter")
        await wait_page(pilot, browser)
        assert app.vault.pages[browser.current_path].title == f"Source {chosen + 1:04d}"


class ListHost(App[None]):
    def __init__(self, rows: list[Row]) -> None:
        super().__init__()
        self.rows = rows
        self.chosen: list[str | None] = []

    def compose(self) -> ComposeResult:
        yield RowList(id="list")

    def on_mount(self) -> None:
        rows = self.query_one(RowList)
        rows.set_options(self.rows)
        rows.focus()

    def on_row_list_option_selected(self, event: RowList.OptionSelected) -> None:
        self.chosen.append(event.option.id)


def screen_lines(app: App) -> list[str]:
    rows = app.query_one(RowList)
    return ["".join(seg.text for seg in rows.render_line(y))
            for y in range(rows.scrollable_content_region.height)]


async def test_disabled_rows_are_skipped_and_the_cursor_goes_round():
    rows = [Row("heading", disabled=True), Row("a", "a"), Row("off", disabled=True),
            Row("b", "b"), Row("tail", disabled=True)]
    app = ListHost(rows)
    async with app.run_test(size=(40, 10)) as pilot:
        widget = app.query_one(RowList)
        await pilot.press("down")
        assert widget.highlighted == 1
        await pilot.press("down")
        assert widget.highlighted == 3  # over the disabled one
        await pilot.press("down")
        assert widget.highlighted == 1  # round past the end, as OptionList went
        await pilot.press("up")
        assert widget.highlighted == 3
        await pilot.press("home")
        assert widget.highlighted == 1
        await pilot.press("end")
        assert widget.highlighted == 3  # the last enabled row, not the disabled tail
        await pilot.press("enter")
        assert app.chosen == ["b"]


async def test_long_lines_are_cut_and_wrapped_rows_follow_the_width():
    long = "word " * 40
    rows = [Row(Text("cut " + long), "cut"), Row(Text("wrap " + long), "wrap", wrap=True),
            Row(lambda: Text("made late\nsecond line"), "late", height=2)]
    app = ListHost(rows)
    async with app.run_test(size=(40, 20)) as pilot:
        widget = app.query_one(RowList)
        await pilot.pause()
        lines = screen_lines(app)
        assert lines[0].rstrip().endswith("…") and len(lines[0]) == widget.scrollable_content_region.width
        narrow = widget.row_lines(1)
        assert narrow[1] - narrow[0] > 3  # the wrapped row takes the lines it needs
        assert "made late" in lines[narrow[1]] and "second line" in lines[narrow[1] + 1]
        await pilot.resize_terminal(100, 20)
        await pilot.pause()
        wide = widget.row_lines(1)
        assert wide[1] - wide[0] < narrow[1] - narrow[0]  # laid out again at the new width
        assert "made late" in screen_lines(app)[wide[1]]
        region = widget.content_region  # inside the border
        await pilot.click(offset=(region.x + 3, region.y + wide[1]))
        assert app.chosen == ["late"] and widget.highlighted == 2
