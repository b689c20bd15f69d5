"""The browser's modal screens (jump, search, tags) and big pages, in a real app."""

from __future__ import annotations

from benchmarks.bench_browser import big_page
from tests.ui.conftest import wait_for, wait_page
from wiki_tui.ui.browser import PageJumpScreen, PageLocation, SearchScreen, TagsScreen
from wiki_tui.ui.browser.rows import RowList
from wiki_tui.ui.browser.units import split_units


async def open_screen(pilot, app, opener, screen_class) -> None:
    opener()
    await wait_for(pilot, lambda: isinstance(app.screen, screen_class)
                   and bool(app.screen.query("#picker-results")))
    await pilot.pause()


def option_texts(screen) -> list[str]:
    results = screen.query_one("#picker-results", RowList)
    return [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]


async def test_fuzzy_jump_opens_the_page(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = app.browser
        await wait_page(pilot, browser)
        await open_screen(pilot, app, browser.open_jump, PageJumpScreen)
        await pilot.press(*"chrono")
        texts = option_texts(app.screen)
        assert texts[0].startswith("Marine chronometer")  # an alias or title match first
        assert any("alias: chronometer" in t for t in texts)
        await pilot.press("enter")
        await wait_page(pilot, browser, "concepts/Marine chronometer.md")
        # an empty query lists recent pages; Esc closes without opening anything
        await open_screen(pilot, app, browser.open_jump, PageJumpScreen)
        assert option_texts(app.screen)[0].startswith("Marine chronometer")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, PageJumpScreen))
        assert browser.current_path == "concepts/Marine chronometer.md"


async def test_jump_moves_with_arrows(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = app.browser
        await wait_page(pilot, browser)
        await open_screen(pilot, app, browser.open_jump, PageJumpScreen)
        await pilot.press(*"longitude")
        second = option_texts(app.screen)[1]
        await pilot.press("down", "enter")
        await wait_page(pilot, browser)
        assert browser.document.title == second.split("  ")[0]


async def test_search_results_on_a_short_terminal_keep_the_highlight_and_count_in_view(
        sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        browser = app.browser
        await wait_page(pilot, browser)
        await open_screen(pilot, app, browser.open_search, SearchScreen)
        await pilot.press(*"Harrison watch")
        await wait_for(pilot, lambda: app.screen.shown_query == "Harrison watch")
        await pilot.pause()
        picker = app.screen.query_one("#picker")
        results = app.screen.query_one("#picker-results", RowList)
        assert results.option_count > 8
        # the list is not cut off by the picker (it scrolls itself), nor is the count below it
        inside = picker.content_region
        assert inside.contains_region(results.region)
        assert inside.contains_region(app.screen.query_one("#picker-status").region)
        await pilot.press(*["down"] * 8)
        await pilot.pause()
        assert results.highlighted == 8 and results.scroll_y > 0
        # a query with one hit: the picker shrinks to it instead of keeping the full height
        full = picker.region.height
        await pilot.press(*["backspace"] * len("Harrison watch"), *"Deptford")
        await wait_for(pilot, lambda: app.screen.shown_query == "Deptford")
        await pilot.pause()
        assert results.option_count == 1
        assert results.region.height == results.virtual_size.height  # all shown, no scrolling
        assert picker.region.height == 2 + 1 + 3 + results.region.height + 1 < full


async def test_search_screen_opens_at_the_line(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = app.browser
        await wait_page(pilot, browser)
        await open_screen(pilot, app, browser.open_search, SearchScreen)
        await pilot.press(*"Barbados")
        await wait_for(pilot, lambda: len(option_texts(app.screen)) > 0)
        texts = option_texts(app.screen)
        assert all("Barbados" in t for t in texts)
        results = app.screen.query_one("#picker-results", RowList)
        chosen = app.screen._results[results.get_option_at_index(0).id]
        assert isinstance(chosen, PageLocation) and chosen.line
        await pilot.press("enter")
        await wait_page(pilot, browser, str(chosen))
        view = browser.page_view
        top = int(view.scroll_y)
        visible = view.plain_lines()[top : top + view.scrollable_content_region.height]
        assert any("Barbados" in line for line in visible)


async def test_tags_screen_lists_pages_of_a_tag(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = app.browser
        await wait_page(pilot, browser)
        await open_screen(pilot, app, browser.open_tags, TagsScreen)
        tags = app.vault.tags()
        texts = option_texts(app.screen)
        assert len(texts) == len(tags)
        await pilot.press(*"horology")
        assert option_texts(app.screen)[0].startswith("#horology")
        await pilot.press("enter")
        pages = option_texts(app.screen)
        assert len(pages) == len(tags["horology"])
        await pilot.press("escape")  # back to the tags, then pick again
        assert option_texts(app.screen)[0].startswith("#horology")
        await pilot.press("enter", "enter")
        await wait_page(pilot, browser)
        assert browser.current_path in tags["horology"]


async def test_big_page_renders_without_blocking(tiny_vault, browser_app):
    root = tiny_vault({"Big.md": big_page(1_000_000), "A small.md": "# Small\n\nsee [[Big]]\n"})
    app = browser_app(root)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = app.browser
        await wait_page(pilot, browser, "A small.md")
        view = browser.page_view
        browser.open_page("Big")
        await wait_for(pilot, lambda: view.document is not None and view.document.path == "Big.md"
                       and view.line_count > 0)
        # keys are handled while the rest of the page renders in the worker
        assert view.rendering
        view.focus()
        await pilot.press("s")
        assert browser.has_class("-panel-closed")
        await pilot.press("n")
        assert view.selected_link is not None
        # (how soon the first screen shows is a budget: benchmarks/bench_browser.py measures it;
        # what this test proves is that it shows, keys working, while the rest still renders)
        assert "Section 9" in "\n".join(view.plain_lines()[:400])
        # (the full render, seconds for 1 MB, is measured in benchmarks/bench_browser.py)


def test_units_split_at_headings_never_inside_fences():
    text = "# A\n\ntext\n\n```\n# not a heading\n```\n\n## B\n\nmore\n"
    units = split_units(text, 0, 1)
    assert [u.first_line for u in units] == [1, 9]
    assert "# not a heading" in units[0].text


def test_units_split_long_runs_at_paragraphs():
    text = "".join(f"para {n} " + "x" * 100 + "\n\n" for n in range(100))
    units = split_units(text, 0, 1, max_chars=1000)
    assert len(units) > 5
    assert "".join(u.text for u in units) == text
    assert all(u.text.startswith("para") for u in units)
