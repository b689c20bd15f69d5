"""FormPreviewScreen: a form file of the review as a person reads it, one view at a time.

A Marp deck slide by slide, a page's charts drawn as text charts (a drawn SVG shows the chart of
its page's spec), a canvas as its files, claims and relations (forms/preview.py makes the text).
`←`/`→` (or `p`/`n`) step through the views, `esc` goes back to the review. It reads only the
texts it is given: nothing here decides or writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from wiki_tui.changes.model import FileChange
from wiki_tui.forms.preview import form_of, views

WIDTH = 100  # the widest text a view is drawn for (the dialog is narrower on small screens)


def change_views(change: FileChange, page: FileChange | None = None, width: int = 72
                 ) -> list[tuple[str, list[str]]]:
    """The views of a file of the review: its own form, or for a drawn SVG its page's chart."""
    if change.rendered_from and page is not None:
        from wiki_tui.changes.build.form_files import page_charts
        from wiki_tui.forms.chart_spec import ChartError
        from wiki_tui.forms.chart_text import render_text

        try:
            charts = [c for c in page_charts(page.path, page.proposed_text or "")
                      if c.file == change.path]
        except ChartError as exc:
            return [("Chart (not valid)", [str(exc)])]
        return [(f"Chart of {page.path} (line {c.block.line})", render_text(c.spec, width))
                for c in charts]
    return views(change.path, change.proposed_text, width)


def form_hint(change: FileChange) -> str:
    """A few words for the file's title line when the file has a view ('' when it has none)."""
    if change.rendered_from:
        return f"chart drawn from {change.rendered_from} · v views it"
    form = form_of(change.path, change.proposed_text)
    if form == "slides":
        count = len(views(change.path, change.proposed_text))
        return f"Marp deck, {count} slide{'s' if count != 1 else ''} · v views them one by one"
    if form:
        return f"{form} · v views it"
    return ""


class FormPreviewScreen(ModalScreen[None]):
    CSS_PATH = Path(__file__).with_name("review.tcss")
    BINDINGS = [
        Binding("right,n,l,space", "step(1)", "Next", id="preview.next"),
        Binding("left,p,h", "step(-1)", "Previous", id="preview.previous"),
        Binding("escape,v,q", "close", "Back", id="preview.close"),
    ]

    def __init__(self, path: str, make_pages: Callable[[int], list[tuple[str, list[str]]]]
                 ) -> None:
        super().__init__()
        self.path = path
        self.make_pages = make_pages  # width -> the views, drawn for that many columns
        self.pages: list[tuple[str, list[str]]] = []
        self.index = 0

    def compose(self) -> ComposeResult:
        with Vertical(id="preview"):
            yield Static(id="preview-title")
            with VerticalScroll(id="preview-scroll"):
                yield Static(id="preview-body")
            yield Static(id="preview-keys")

    def on_mount(self) -> None:
        self.pages = self.make_pages(max(30, min(WIDTH, self.app.size.width * 95 // 100 - 4)))
        self._show()

    def _show(self) -> None:
        heading, lines = self.pages[self.index] if self.pages else ("", ["(nothing to view)"])
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(heading, "bold")
        title.append(f"  {self.path}")
        self.query_one("#preview-title", Static).update(title)
        self.query_one("#preview-body", Static).update(Text("\n".join(lines)))
        self.query_one("#preview-scroll", VerticalScroll).scroll_home(animate=False)
        keys = "esc back to the review"
        if len(self.pages) > 1:
            keys = f"← → step ({self.index + 1} of {len(self.pages)})    " + keys
        self.query_one("#preview-keys", Static).update(keys)

    def action_step(self, step: int) -> None:
        if self.pages:
            self.index = max(0, min(len(self.pages) - 1, self.index + step))
            self._show()

    def action_close(self) -> None:
        self.dismiss(None)
