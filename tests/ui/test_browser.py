"""The wiki browser driven through a real Textual app on a real vault."""

from __future__ import annotations

import sys
import threading

from textual.widgets import TabbedContent

from tests.ui.conftest import drain
from tests.ui.conftest import wait_for, wait_page
from wiki_tui.ui.browser import WikiBrowser
from wiki_tui.ui.browser.panels import BacklinksPanel, OutlinePanel

CHRONO = "concepts/Marine chronometer.md"
CLOCK_V_MOON = "syntheses/Clock versus Moon.md"


def text_of(browser) -> str:
    return "\n".join(line.rstrip() for line in browser.page_view.plain_lines())


async def open_and_wait(pilot, browser, target: str, path: str) -> None:
    assert browser.open_page(target)
    await wait_page(pilot, browser, path)


async def test_opens_page_with_compact_header(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, "Marine chronometer", CHRONO)
        text = text_of(browser)
        assert "concept  #horology  #instrument" in text
        assert "aka chronometer, sea clock, timekeeper" in text
        assert "sources: John Harrison and the Sea Clocks" in text
        assert "summary:" not in text and "title: Marine" not in text  # no raw YAML
        assert "The first solution" in text
        assert "[[" not in text  # wikilinks rendered as links
        title = str(browser.query_one("#page-title").render())
        assert "Marine chronometer" in title and CHRONO in title
        opened = [m.path for m in app.messages if isinstance(m, WikiBrowser.PageOpened)]
        assert opened[-1] == CHRONO


async def test_link_cursor_follow_back_forward(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, CHRONO, CHRONO)
        view = browser.page_view
        view.focus()
        await pilot.press("n")
        first = view.selected_link
        assert first is not None
        # the selected link is painted differently from the same link unselected
        row = view.row_of_link(first) - int(view.scroll_y)
        selected_strip = view.render_line(row)
        await pilot.press("n")
        assert view.selected_link != first
        await pilot.press("p")
        assert view.selected_link == first
        assert list(view.render_line(row)) == list(selected_strip)
        await pilot.press("n")
        target = browser.document.links[view.selected_link]
        assert target.kind == "page"
        await pilot.press("enter")
        await wait_page(pilot, browser, target.path)
        await pilot.press("b")
        await wait_page(pilot, browser, CHRONO)
        await pilot.press("f")
        await wait_page(pilot, browser, target.path)
        await pilot.press("alt+left")
        await wait_page(pilot, browser, CHRONO)


async def test_back_restores_scroll_position(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(100, 16)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, "John Harrison", "entities/John Harrison.md")
        view = browser.page_view
        view.scroll_to(y=9, animate=False, immediate=True)
        await pilot.pause()
        await open_and_wait(pilot, browser, "H4", "entities/H4.md")
        assert view.scroll_y == 0
        browser.action_back()
        await wait_page(pilot, browser, "entities/John Harrison.md")
        await wait_for(pilot, lambda: view.scroll_y == 9)


async def test_backlinks_and_outline(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, CHRONO, CHRONO)
        panel = browser.query_one(BacklinksPanel)
        await wait_for(pilot, lambda: panel.option_count > 2)
        prompts = [str(panel.get_option_at_index(i).prompt) for i in range(panel.option_count)]
        assert prompts[0].startswith("Linked mentions")
        # the context line reads as text: the link shows its name, not its markup
        assert any(p.startswith("Longitude and time") and "Marine chronometer" in p and "[[" not in p
                   for p in prompts)
        assert any(p.startswith("Unlinked mentions") for p in prompts)
        # pick a backlink from the keyboard: it opens that page
        await pilot.press("l")
        assert panel.has_focus
        await pilot.press("down", "enter")
        await wait_page(pilot, browser)
        assert browser.current_path != CHRONO
        # outline: headings, selecting one scrolls to it
        await open_and_wait(pilot, browser, CHRONO, CHRONO)
        outline = browser.query_one(OutlinePanel)
        texts = [str(outline.get_option_at_index(i).prompt).strip() for i in range(outline.option_count)]
        assert texts[:2] == ["Marine chronometer", "The first solution"]


async def test_outline_selection_scrolls(tiny_vault, browser_app):
    body = "\n\n".join(f"## Part {n}\n\n" + "words " * 200 for n in range(8))
    root = tiny_vault({"Long.md": "# Long\n\n" + body + "\n"})
    app = browser_app(root)
    async with app.run_test(size=(100, 30)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, "Long", "Long.md")
        await pilot.press("o")
        outline = browser.query_one(OutlinePanel)
        assert outline.has_focus
        await pilot.press("home", "down", "down", "down", "down", "enter")  # Long, Part 0..3
        view = browser.page_view
        await wait_for(pilot, lambda: view.scroll_y > 0)
        top_line = view.plain_lines()[int(view.scroll_y)]
        assert top_line.startswith("Part 3")


async def test_unresolved_link_styled_and_create_requested(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, "entities/Board of Longitude.md",
                            "entities/Board of Longitude.md")
        doc = browser.document
        view = browser.page_view
        unresolved = [i for i in view.link_ids if doc.links[i].kind == "unresolved"]
        resolved = [i for i in view.link_ids if doc.links[i].kind == "page"]
        assert unresolved and resolved
        assert view._link_style(unresolved[0]).color != view._link_style(resolved[0]).color
        view.focus()
        view.select_link(unresolved[0])
        await pilot.press("enter")
        await pilot.pause()
        requests = [m for m in app.messages if isinstance(m, WikiBrowser.CreatePageRequested)]
        assert [r.target for r in requests] == [doc.links[unresolved[0]].target]
        assert requests[0].from_path == "entities/Board of Longitude.md"
        assert browser.current_path == "entities/Board of Longitude.md"  # nothing written, no move


async def test_embeds_show_what_they_embed(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(120, 60)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, "Clock versus Moon", CLOCK_V_MOON)
        text = text_of(browser)
        assert "image: longitude-error-chart.svg" in text
        assert "Lunar distance method › The calculation (embedded)" in text
        section = (sample_vault / "concepts/Lunar distance method.md").read_text()
        calc = section.split("## The calculation", 1)[1].strip().splitlines()[0]
        assert " ".join(calc.split()[1:4]) in " ".join(text.split())
        # escaped pipes inside a table keep their display text
        assert "Harrison" in text and "John Harrison\\|" not in text
        # a same-page link scrolls within the page
        anchors = [i for i in browser.page_view.link_ids if browser.document.links[i].kind == "anchor"]
        assert anchors


async def test_citation_targets_resolve_like_links(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, "[[Longitude Act 1714#^prize-scale|the Act]]",
                            "entities/Longitude Act 1714.md")
        assert browser.page_view.scroll_y >= 0
        await open_and_wait(pilot, browser, "chronometer", CHRONO)  # an alias
        assert not browser.open_page("No such page at all")
        await pilot.pause()
        assert any(isinstance(m, WikiBrowser.CreatePageRequested) for m in app.messages)


async def test_outside_change_refreshes_keeping_scroll(tiny_vault, browser_app):
    paragraphs = "\n\n".join(f"Paragraph {n} " + "text " * 60 for n in range(40))
    root = tiny_vault({"A.md": "# A\n\n" + paragraphs + "\n", "B.md": "# B\n\nsee [[A]]\n"})
    app = browser_app(root)
    async with app.run_test(size=(100, 24)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, "A", "A.md")
        view = browser.page_view
        view.scroll_to(y=30, animate=False, immediate=True)
        await pilot.pause()
        (root / "A.md").write_text("# A\n\nA NEW FIRST LINE\n\n" + paragraphs + "\n", encoding="utf-8")
        (root / "C.md").write_text("# C\n\nalso [[A]]\n", encoding="utf-8")
        app.vault.refresh_file("A.md")
        app.vault.refresh_file("C.md")
        browser.files_changed([("modified", "A.md"), ("added", "C.md")])
        await wait_for(pilot, lambda: "A NEW FIRST LINE" in text_of(browser) and not view.rendering)
        # the reading position is kept (it used to be lost now and then: an older load of the
        # page, still under way, was shown after the newer one; see the test below)
        await wait_for(pilot, lambda: 25 <= view.scroll_y <= 35)
        assert "C.md" in browser.query_one("#page-tree").paths
        panel = browser.query_one(BacklinksPanel)
        await wait_for(pilot, lambda: any(
            "C  :3" in str(panel.get_option_at_index(i).prompt) for i in range(panel.option_count)))


async def test_a_load_overtaken_by_a_newer_one_is_not_shown(tiny_vault, browser_app, monkeypatch):
    """Loads run in threads and can finish out of order: the older one must not undo the newer
    (older text on screen, or the reader sent back to the top)."""
    from wiki_tui.ui.browser import browser as browser_module

    paragraphs = "\n\n".join(f"Paragraph {n} " + "text " * 60 for n in range(40))
    # (the version mark is not the first paragraph: that is the page's summary, shown in its
    # header from the index, which nothing here refreshes)
    root = tiny_vault({"A.md": "# A\n\nIntro.\n\nFIRST VERSION\n\n" + paragraphs + "\n"})
    app = browser_app(root)
    gate = threading.Event()
    real_load = browser_module.load_document
    held: list[str] = []

    def load_document(vault, path, **options):
        doc = real_load(vault, path, **options)
        if not held:  # the first load from here on reads the page, then waits at the gate
            held.append(doc.text)
            gate.wait(10)
        return doc

    async with app.run_test(size=(100, 24)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, "A", "A.md")
        view = browser.page_view
        view.scroll_to(y=30, animate=False, immediate=True)
        await pilot.pause()
        monkeypatch.setattr(browser_module, "load_document", load_document)
        try:
            browser.reload()  # reads the first version, then waits
            await wait_for(pilot, lambda: bool(held))
            (root / "A.md").write_text("# A\n\nIntro.\n\nSECOND VERSION\n\n" + paragraphs + "\n",
                                       encoding="utf-8")
            browser.reload()
            await wait_for(pilot, lambda: "SECOND VERSION" in text_of(browser) and not view.rendering)
            await wait_for(pilot, lambda: view.scroll_y == 30)
        finally:
            gate.set()
        await app.workers.wait_for_complete()
        await drain(pilot)
        assert "FIRST VERSION" in held[0]
        assert "SECOND VERSION" in text_of(browser) and "FIRST VERSION" not in text_of(browser)
        assert view.scroll_y == 30 and not browser.loading


async def test_edit_without_editor_says_so(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, CHRONO, CHRONO)
        browser.page_view.focus()
        await pilot.press("e")
        await pilot.pause()
        assert any("EDITOR" in n.message for n in app._notifications)


async def test_edit_runs_editor_and_reindexes(sample_vault, browser_app, tmp_path, monkeypatch):
    script = tmp_path / "editor.py"
    script.write_text("import sys\nopen(sys.argv[1], 'a').write('\\nEDITED BY THE EDITOR\\n')\n")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    app = browser_app(sample_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, CHRONO, CHRONO)
        browser.page_view.focus()
        await pilot.press("e")
        await wait_for(pilot, lambda: "EDITED BY THE EDITOR" in text_of(browser))
        assert any(isinstance(m, WikiBrowser.PageEdited) for m in app.messages)


async def test_narrow_layout_gives_the_page_priority(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, CHRONO, CHRONO)
        panel = browser.query_one("#side-panel", TabbedContent)
        view = browser.page_view
        assert browser.has_class("-narrow")
        assert view.size.width >= 76
        browser.page_view.focus()
        await pilot.press("s")  # panel closed <-> open, stacked under the page when narrow
        await pilot.pause()
        shown = panel.display and panel.region.height > 0
        await pilot.press("s")
        await pilot.pause()
        assert shown != (panel.display and panel.region.height > 0)
        await pilot.press("l")
        await pilot.pause()
        assert panel.region.height > 0 and panel.region.y > view.region.y
        await pilot.press("escape")
        assert view.has_focus


async def test_unlinked_mentions_on_request_in_big_vaults(sample_vault, browser_app, monkeypatch):
    import wiki_tui.ui.browser.browser as browser_module

    monkeypatch.setattr(browser_module, "AUTO_MENTIONS_PAGES", 0)
    app = browser_app(sample_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, CHRONO, CHRONO)
        panel = browser.query_one(BacklinksPanel)

        def prompts() -> list[str]:
            return [str(panel.get_option_at_index(i).prompt) for i in range(panel.option_count)]

        await wait_for(pilot, lambda: any("enter to search" in p for p in prompts()))
        assert not any(p.startswith("Unlinked mentions (") for p in prompts())
        await pilot.press("l", "end", "enter")
        await wait_for(pilot, lambda: any(p.startswith("Unlinked mentions (") for p in prompts()))


async def test_theme_change_renders_again_in_the_new_colours(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        app.theme = "textual-dark"
        await open_and_wait(pilot, browser, CHRONO, CHRONO)
        view = browser.page_view

        def heading_colour():
            row = next(i for i, line in enumerate(view.plain_lines()) if line.startswith("The first solution"))
            return view._lines[row][0].style.color

        before = heading_colour()
        app.theme = "textual-light"
        await wait_for(pilot, lambda: view.line_count > 0 and not view.rendering
                       and heading_colour() != before)


async def test_mouse_click_follows_a_link(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, CHRONO, CHRONO)
        view = browser.page_view
        link_id = next(i for i in view.link_ids if browser.document.links[i].kind == "page"
                       and view.row_of_link(i) > 8)
        row = view.row_of_link(link_id)
        index = next(i for i, lid in view._spans[row] if lid == link_id)
        x = sum(len(segment.text) for segment in view._lines[row][:index])
        target = browser.document.links[link_id].path
        await pilot.click("#page-view", offset=(x + 2, row - int(view.scroll_y)))  # +padding
        await wait_page(pilot, browser, target)


async def test_page_tree_opens_pages_from_the_keyboard(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        browser = app.browser
        await wait_page(pilot, browser)
        await pilot.press("t")
        tree = browser.query_one("#page-tree")
        assert tree.has_focus
        folder = next(n for n in tree.root.children if n.data == "concepts/")
        tree.move_cursor(folder)
        await pilot.press("enter")  # expands the folder (children added on demand)
        await wait_for(pilot, lambda: len(folder.children) > 0)
        await pilot.press("down", "enter")
        await wait_page(pilot, browser, folder.children[0].data)
        assert browser.current_path.startswith("concepts/")


async def test_raw_source_opens_read_only_from_the_header(sample_vault, browser_app):
    app = browser_app(sample_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, "sources/Board of Longitude.md", "sources/Board of Longitude.md")
        view = browser.page_view
        view.focus()
        await pilot.press("n")  # the first link is the header's source
        assert browser.document.links[view.selected_link].path == "raw/board-of-longitude.md"
        await pilot.press("enter")
        await wait_page(pilot, browser, "raw/board-of-longitude.md")
        browser.open_page("sources/Board of Longitude.md")  # the same page twice is one entry
        await wait_page(pilot, browser, "sources/Board of Longitude.md")
        browser.open_page("sources/Board of Longitude.md")
        await pilot.press("b")
        await wait_page(pilot, browser, "raw/board-of-longitude.md")


async def test_a_chart_spec_reads_as_a_text_chart(sample_vault, browser_app):
    """A ```chart block is drawn as the chart it specifies (the SVG is Obsidian's view)."""
    app = browser_app(sample_vault)
    async with app.run_test(size=(100, 50)) as pilot:
        browser = app.browser
        await open_and_wait(pilot, browser, "Longitude timeline", "answers/Longitude timeline.md")
        text = text_of(browser)
        assert "The longitude story (timeline chart)" in text
        assert "1761 ┼ × Jamaica trial" in text
        assert "kind: timeline" not in text  # the spec itself is not shown raw
        assert "image: attachments/Longitude timeline.svg" in text


async def test_big_start_page_opens_by_its_head_and_a_reads_the_rest(tiny_vault, browser_app):
    """A vault's index.md at 50k pages is 6.5 MB: the start page shows its head (linked like any
    page), says so in the title, and `a` loads the rest in place. A page opened later is whole."""
    from wiki_tui.ui.browser.browser import START_HEAD

    rows = [f"- [[Page {n}]] — summary number {n}" for n in range(4000)]
    index = "# Index\n\n" + "\n".join(rows) + "\n"
    assert len(index) > 2 * START_HEAD
    files = {"index.md": index, "Page 1.md": "# One\n\nBack to [[index]].\n"}
    root = tiny_vault(files)
    app = browser_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        await wait_page(pilot, browser, "index.md")
        doc = browser.document
        assert doc.partial and doc.full_length == len(index)
        assert len(doc.text) <= START_HEAD and doc.text.endswith("\n")
        assert index.startswith(doc.text)
        title = str(browser.query_one("#page-title").render())
        assert "a reads it all" in title
        assert [ref.path for ref in doc.links[:2]] == [None, "Page 1.md"]  # the head's links resolve
        assert "Page 3999" not in text_of(browser)
        browser.page_view.focus()
        await pilot.press("a")
        await wait_for(pilot, lambda: browser.document is not doc and not browser.loading)
        await wait_page(pilot, browser, "index.md")
        assert not browser.document.partial and browser.document.text == index
        assert "Page 3999" in text_of(browser)
        await pilot.press("a")  # nothing left to load: the key does nothing
        await drain(pilot)
        assert browser.document.text == index


async def test_small_start_page_is_whole(tiny_vault, browser_app):
    root = tiny_vault({"index.md": "# Index\n\n- [[A]]\n", "A.md": "# A\n"})
    app = browser_app(root)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        await wait_page(pilot, browser, "index.md")
        assert not browser.document.partial
        assert "reads it all" not in str(browser.query_one("#page-title").render())
