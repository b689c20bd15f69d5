"""Modal screens of the browser: fuzzy page jump, full-text search, tags.

Each is pushed with the vault and dismisses with what to open (a path; a search hit is a
`PageLocation`, a str that also carries its line) or None. Esc closes; enter opens.
"""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import Callable

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from wiki_tui.ui.browser.browser import PageLocation, WikiBrowser, page_titles, warm_finder
from wiki_tui.ui.browser.rows import Row, RowList
from wiki_tui.ui.frame.markup import counted, readable

JUMP_LIMIT = 30
SEARCH_LIMIT = 30
SEARCH_DELAY = 0.12  # seconds of quiet typing before a full-text search runs


class _PickerScreen(ModalScreen[str | None]):
    """An input over a result list: typing filters, up/down move, enter opens, Esc closes."""

    CSS_PATH = Path(__file__).with_name("screens.tcss")
    BINDINGS = [
        Binding("escape", "close", "Close", id="browser.picker_close"),
        Binding("down", "move(1)", "Next", show=False, id="browser.picker_down"),
        Binding("up", "move(-1)", "Previous", show=False, id="browser.picker_up"),
        Binding("pagedown", "move(10)", "Page down", show=False, id="browser.picker_page_down"),
        Binding("pageup", "move(-10)", "Page up", show=False, id="browser.picker_page_up"),
    ]
    # Rows the picker needs beside the list: its top margin 1, border 2, title 1, input 3,
    # status 1 (screens.tcss).
    PICKER_CHROME = 8
    TITLE_TEXT = ""
    PLACEHOLDER = ""

    def __init__(self, vault) -> None:
        super().__init__()
        self.vault = vault
        self._results: dict[str, str] = {}  # option id -> what dismiss returns

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Static(self.TITLE_TEXT, id="picker-title")
            yield Input(placeholder=self.PLACEHOLDER, id="picker-input")
            yield RowList(id="picker-results")
            yield Static("", id="picker-status")

    @property
    def results(self) -> RowList:
        return self.query_one("#picker-results", RowList)

    def on_mount(self) -> None:
        self.query_one("#picker-input", Input).focus()
        self._fit_list(self.app.size.height)
        self.update_results("")

    def on_resize(self, event: events.Resize) -> None:
        self._fit_list(event.size.height)

    def _fit_list(self, rows: int) -> None:
        """The list grows with its results up to what the picker (at most 90% of the screen,
        screens.tcss) leaves under the input, and scrolls past that: on a short terminal the
        highlight and the status stay in view, and a few results keep the picker small."""
        fits = int(rows * 0.9) - self.PICKER_CHROME
        self.results.styles.max_height = max(3, min(30, fits))

    def update_results(self, query: str) -> None:
        raise NotImplementedError

    shown_query: str | None = None  # the query whose results are listed (tests, benchmarks)

    def show_options(self, options: list[tuple[Text | Callable[[], Text], str]], status: str,
                     *, wrap: bool = False) -> None:
        """Rows of (prompt, what enter returns); a prompt may be a function making its text
        (one line), called only when the row comes into view (a tag held by 10k pages).
        `wrap`: long lines wrap (a few search hits with snippets) rather than end in "…"."""
        results = self.results
        self._results = {str(n): value for n, (_, value) in enumerate(options)}
        results.set_options([Row(prompt, id=str(n), wrap=wrap)
                             for n, (prompt, _) in enumerate(options)])
        if options:
            results.highlighted = 0
        self.query_one("#picker-status", Static).update(status)

    @on(Input.Changed, "#picker-input")
    def _changed(self, event: Input.Changed) -> None:
        self.update_results(event.value)

    @on(Input.Submitted, "#picker-input")
    def _submitted(self) -> None:
        results = self.results
        if results.highlighted is not None:
            self._choose(results.get_option_at_index(results.highlighted).id)

    @on(RowList.OptionSelected, "#picker-results")
    def _selected(self, event: RowList.OptionSelected) -> None:
        event.stop()
        self._choose(event.option.id)

    def _choose(self, option_id: str | None) -> None:
        value = self._results.get(option_id or "")
        if value is not None:
            self.dismiss(value)

    def action_move(self, step: int) -> None:
        results = self.results
        if results.option_count:
            current = results.highlighted or 0
            results.highlighted = max(0, min(results.option_count - 1, current + step))

    def action_close(self) -> None:
        self.dismiss(None)


class PageJumpScreen(_PickerScreen):
    """Fuzzy jump over titles, aliases and paths (vault.find), updated on every keystroke."""

    TITLE_TEXT = "Jump to page"
    PLACEHOLDER = "Page title, alias or path…"

    def update_results(self, query: str) -> None:
        self._list_pages(query)
        self.shown_query = query

    def _list_pages(self, query: str) -> None:
        if not query.strip():
            recent = self._recent()
            self.show_options([(_page_prompt(self.vault, p), p) for p in recent],
                              "Recent pages" if recent else "Type to find a page")
            return
        hits = self.vault.find(query, limit=JUMP_LIMIT)
        options = []
        for hit in hits:
            prompt = Text.assemble((hit.title, "bold"), "  ", (hit.path, "dim"))
            if hit.field == "alias":
                prompt.append(f"  alias: {hit.matched}", "italic")
            options.append((prompt, hit.path))
        self.show_options(options, counted(len(hits), "match") if hits else "No page matches")

    def on_mount(self) -> None:
        warm_finder(self, self.vault)  # usually built already; then a no-op
        super().on_mount()

    def _recent(self) -> list[str]:
        for browser in self.app.query(WikiBrowser):
            return [p for p in browser.history.recent(JUMP_LIMIT) if p in self.vault.pages]
        return []


class SearchScreen(_PickerScreen):
    """Full-text search (vault.search) with snippets; enter opens the page at the hit's line."""

    TITLE_TEXT = "Search the wiki"
    PLACEHOLDER = "Words to search for…"

    _latest = ""

    def update_results(self, query: str) -> None:
        self._latest = query
        if not query.strip():
            self.show_options([], "Type words to search page text")
            self.shown_query = query
            return
        self.query_one("#picker-status", Static).update("Searching…")
        self._search(query)

    @work(thread=True, group="search", exit_on_error=False)
    def _search(self, query: str) -> None:
        time.sleep(SEARCH_DELAY)  # let fast typing settle; only the latest query runs
        if query != self._latest:
            return
        try:
            hits = self.vault.search(query, limit=SEARCH_LIMIT)
        except Exception as error:  # a query the index cannot parse
            self.app.call_from_thread(self.show_options, [], f"Search failed: {error}")
            return
        if query == self._latest:
            self.app.call_from_thread(self._show_hits, query, hits)

    def _show_hits(self, query: str, hits) -> None:
        if query != self._latest:
            return
        options = []
        for hit in hits:
            line = getattr(hit, "line", None)
            where = f"{hit.path}:{line}" if line else hit.path
            prompt = Text.assemble((hit.title, "bold"), "  ", (where, "dim"))
            snippet = str(hit.snippet or "").replace("\n", " ")
            if snippet.strip():
                prompt.append("\n  ")
                prompt.append(_snippet_text(snippet, getattr(hit, "highlights", ())))
            options.append((prompt, PageLocation(hit.path, line or None)))
        self.show_options(options, counted(len(hits), "result") if hits else "Nothing found",
                          wrap=True)
        self.shown_query = query


class TagsScreen(_PickerScreen):
    """Tags with their page counts; enter on a tag lists its pages, enter on a page opens it."""

    TITLE_TEXT = "Tags"
    PLACEHOLDER = "Filter tags…"

    def __init__(self, vault) -> None:
        super().__init__(vault)
        self._tags = vault.tags()
        self._tag: str | None = None

    def update_results(self, query: str) -> None:
        self._tag = None
        wanted = query.strip().lstrip("#").casefold()
        tags = sorted(self._tags.items(), key=lambda kv: (-len(kv[1]), kv[0].casefold()))
        options = [
            (Text.assemble((f"#{tag}", "bold"), (f"  {len(pages)}", "dim")), "#" + tag)
            for tag, pages in tags if wanted in tag.casefold()
        ]
        self.show_options(options, counted(len(options), "tag"))

    def _choose(self, option_id: str | None) -> None:
        value = self._results.get(option_id or "")
        if value is None:
            return
        if self._tag is None and value.startswith("#"):
            self._show_tag(value[1:])
        else:
            self.dismiss(value)

    def _show_tag(self, tag: str) -> None:
        self._tag = tag
        titles = page_titles(self.vault, self._tags.get(tag, []))
        pages = sorted(titles, key=lambda p: titles[p].casefold())
        self.show_options([(partial(_titled_prompt, titles[p], p), p) for p in pages],
                          f"#{tag}: {counted(len(pages), 'page')} — Esc goes back to the tags")

    def action_close(self) -> None:
        if self._tag is not None:
            self.update_results(self.query_one("#picker-input", Input).value)
        else:
            self.dismiss(None)


def _title(vault, path: str) -> str:
    page = vault.pages.get(path)
    return page.title if page is not None else path


def _page_prompt(vault, path: str) -> Text:
    return _titled_prompt(_title(vault, path), path)


def _titled_prompt(title: str, path: str) -> Text:
    return Text.assemble((title, "bold"), "  ", (path, "dim"))


def _snippet_text(snippet: str, highlights) -> Text:
    """The snippet as text (not markdown source) with its matched words emphasised."""
    shown, spans = readable(snippet, tuple(highlights or ()))
    text = Text(shown, "italic")
    for start, end in spans:
        text.stylize("bold reverse", start, end)
    return text
