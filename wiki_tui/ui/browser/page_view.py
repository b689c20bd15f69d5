"""PageView: a page rendered off the event loop, scrolled line by line, with a link cursor.

The view keeps rendered lines (Rich segments) and paints only the visible rows (Textual's line
API), so a 1 MB page costs nothing to scroll. Rendering runs unit by unit in a thread worker and
the first units appear while the rest are still being rendered. Links are styled when painted:
moving the link cursor repaints a row, never re-renders the page.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import on, work
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.worker import get_current_worker

from wiki_tui.ui.browser.document import LinkRef, PageDocument, prepare_unit
from wiki_tui.ui.browser.lite import LITE_LIMIT, lite_unit_text
from wiki_tui.ui.browser.render import MARKDOWN_STYLE_NAMES, make_console, render_unit

# Past this size code blocks are not syntax-highlighted (lexing dominates on big pages).
HIGHLIGHT_LIMIT = 64 * 1024
# Rendered units are handed to the view in batches at most this far apart (seconds).
BATCH_INTERVAL = 0.15
# After the first screen the worker pauses this often (seconds of work) so the UI gets the GIL.
YIELD_EVERY = 0.02


class _RenderedBatch(Message):
    """Rendered units from the worker (posting is thread-safe and does not wait)."""

    def __init__(self, generation: int, batch: list, done: bool, seconds: float = 0.0,
                 cpu_seconds: float = 0.0) -> None:
        super().__init__()
        self.generation = generation
        self.batch = batch
        self.done = done
        self.seconds = seconds
        self.cpu_seconds = cpu_seconds


def is_lite(doc: PageDocument) -> bool:
    """Very large pages are shown as styled source (see lite.py)."""
    return len(doc.text) > LITE_LIMIT


@dataclass(frozen=True)
class UnitRows:
    first_line: int  # source line of the unit
    line_count: int
    y: int  # first rendered row
    height: int


class PageView(ScrollView, can_focus=True):
    """The rendered page. Posts `LinkActivated` when a link is followed."""

    BINDINGS = [
        Binding("n,right_square_bracket", "next_link", "Next link", id="browser.next_link"),
        Binding("p,left_square_bracket", "prev_link", "Prev link", id="browser.prev_link"),
        Binding("enter", "follow_link", "Follow", id="browser.follow_link"),
        Binding("j", "scroll_down", "Down", show=False, id="browser.scroll_down"),
        Binding("k", "scroll_up", "Up", show=False, id="browser.scroll_up"),
        Binding("space", "page_down", "Page down", show=False, id="browser.page_down"),
        Binding("g", "scroll_home", "Top", show=False, id="browser.top"),
        Binding("G", "scroll_end", "Bottom", show=False, id="browser.bottom"),
    ]

    COMPONENT_CLASSES = {
        "page-view--h1", "page-view--h2", "page-view--h3", "page-view--h4",
        "page-view--code", "page-view--code-block", "page-view--quote", "page-view--bullet",
        "page-view--rule", "page-view--table", "page-view--strong", "page-view--em",
        "page-view--meta", "page-view--type", "page-view--tag", "page-view--summary",
        "page-view--warning",
        "page-view--link", "page-view--link-alias", "page-view--link-unresolved",
        "page-view--link-external", "page-view--link-attachment", "page-view--link-selected",
    }

    class LinkActivated(Message):
        """A link was followed (enter or click)."""

        def __init__(self, view: "PageView", ref: LinkRef) -> None:
            super().__init__()
            self.view = view
            self.ref = ref

    class Rendered(Message):
        """The whole document is rendered (posted once per render)."""

        def __init__(self, view: "PageView", path: str, seconds: float, cpu_seconds: float) -> None:
            super().__init__()
            self.view = view
            self.path = path
            self.seconds = seconds  # wall time of the render worker
            self.cpu_seconds = cpu_seconds  # its thread's CPU time (steady on a loaded machine)

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.vault = None
        self.document: PageDocument | None = None
        self.selected_link: int | None = None
        self.rendering = False
        self._lines: list[list[Segment]] = []
        self._spans: dict[int, list[tuple[int, int]]] = {}
        self._link_first_row: dict[int, int] = {}
        self._link_order: list[int] = []
        self._unit_rows: list[UnitRows] = []
        self._render_width = 0
        self._pending_scroll: tuple[str, float] | None = None  # ("row" | "line", value)
        # A scroll made before the layout pass for a new size, repeated after it:
        # (target row, where the first try left scroll_y).
        self._settling: tuple[int, float] | None = None
        self._link_styles: dict[tuple[int, bool], Style] = {}
        self._generation = 0
        self._replace_pending = False
        self._keep_height = 0
        self._links: list[LinkRef] = []  # the link table of the lines on screen

    # -- public API ---------------------------------------------------------
    def show(self, vault, document: PageDocument, *, scroll_y: float | None = None,
             line: int | None = None, keep_position: bool = False) -> None:
        """Render `document`; then scroll to a row (history) or a source line (search, heading).

        `keep_position`: a new version of the page on screen (changed on disk); the reader
        stays where they are, or where a scroll not finished yet was taking them.
        """
        same_page = self.document is not None and self.document.path == document.path
        if not same_page:
            self.selected_link = None
        if keep_position and same_page:
            self._pending_scroll = self.reading_position
        elif scroll_y is not None:
            self._pending_scroll = ("row", scroll_y)
        elif line is not None:
            self._pending_scroll = ("line", line)
        else:
            self._pending_scroll = ("row", 0)
        self.vault = vault
        self.document = document
        self._start_render()

    @property
    def reading_position(self) -> tuple[str, float]:
        """Where the reader is: ("row", y), or where a scroll still under way is taking them
        (a position waiting for its rows to be rendered, or one waiting for a layout pass)."""
        if self._pending_scroll is not None:
            return self._pending_scroll
        if self._settling is not None and self.scroll_y == self._settling[1]:
            return ("row", self._settling[0])
        return ("row", self.scroll_y)

    def rerender(self, document: PageDocument | None = None) -> None:
        """Render again (new text, new width or theme) keeping the reading position."""
        if self.document is None:
            return
        same_doc = document is None or document.path == self.document.path
        if not same_doc:
            self._pending_scroll = ("row", 0)
        elif self._pending_scroll is None:  # else: still on its way there, keep going
            self._pending_scroll = ("line", self.line_at_row(int(self.reading_position[1])))
        if document is not None:
            self.document = document
        if not same_doc:
            self.selected_link = None
        self._start_render()

    @property
    def line_count(self) -> int:
        return len(self._lines)

    @property
    def link_ids(self) -> list[int]:
        """Links in reading order (as far as rendered)."""
        return list(self._link_order)

    def row_of_link(self, link_id: int) -> int | None:
        return self._link_first_row.get(link_id)

    def row_for_line(self, line: int) -> int | None:
        """The rendered row showing source line `line` (exact at unit starts, else interpolated)."""
        rows = self._unit_rows
        if not rows:
            return None
        index = bisect_right([u.first_line for u in rows], line) - 1
        if index < 0:
            return 0
        unit = rows[index]
        offset = line - unit.first_line
        if offset >= unit.line_count:
            return unit.y + unit.height if index + 1 < len(rows) else None
        return unit.y + int(offset * unit.height / max(unit.line_count, 1))

    def line_at_row(self, row: int) -> int:
        rows = self._unit_rows
        if not rows:
            return 1
        index = max(bisect_right([u.y for u in rows], row) - 1, 0)
        unit = rows[index]
        offset = min(max(row - unit.y, 0), unit.height)
        return unit.first_line + int(offset * unit.line_count / max(unit.height, 1))

    def scroll_to_line(self, line: int, *, animate: bool = False) -> None:
        row = self.row_for_line(line)
        if row is None:
            self._pending_scroll = ("line", line)
        else:
            self.scroll_to(y=row, animate=animate)

    def select_link(self, link_id: int | None) -> None:
        self.selected_link = link_id
        if link_id is not None and (row := self._link_first_row.get(link_id)) is not None:
            self.scroll_to_region(Region(0, row, 1, 1), animate=False, immediate=True)
        self.refresh()

    def plain_lines(self) -> list[str]:
        """Rendered text (for tests and copy)."""
        return ["".join(seg.text for seg in line) for line in self._lines]

    # -- rendering ----------------------------------------------------------
    def _markdown_styles(self) -> dict[str, Style]:
        def style(name: str) -> Style:
            return self.get_component_rich_style(f"page-view--{name}", partial=True)

        styles = {name: Style() for name in MARKDOWN_STYLE_NAMES}
        h1, h2, h3, h4 = style("h1"), style("h2"), style("h3"), style("h4")
        styles.update({
            "markdown.h1": h1, "markdown.h2": h2, "markdown.h3": h3, "markdown.h4": h4,
            "markdown.h5": h4, "markdown.h6": h4, "markdown.h7": h4,
            "markdown.code": style("code"), "markdown.code_block": style("code-block"),
            "markdown.block_quote": style("quote"), "markdown.item.bullet": style("bullet"),
            "markdown.item.number": style("bullet"), "markdown.hr": style("rule"),
            "markdown.table.border": style("table"), "markdown.table.header": Style(bold=True),
            "markdown.em": style("em"), "markdown.emph": style("em"),
            "markdown.strong": style("strong"), "markdown.s": Style(strike=True),
            "markdown.kbd": Style(bold=True),
            "wiki.meta": style("meta"), "wiki.type": style("type"), "wiki.tag": style("tag"),
            "wiki.summary": style("summary"), "wiki.warning": style("warning"),
        })
        return styles

    def _start_render(self) -> None:
        self._generation += 1
        width = self.scrollable_content_region.width or self.size.width
        if width <= 0:
            return  # not laid out yet: on_resize starts it
        self._render_width = width
        self._settling = None  # the new render scrolls to its own pending position
        # The old lines stay on screen until the first new batch replaces them: no blank
        # flash, and the scroll position is not clamped to an empty page meanwhile.
        self._replace_pending = True
        self.rendering = True
        dark = self.app.current_theme.dark if self.app.current_theme else True
        self._render_worker(self.vault, self.document, width, self._markdown_styles(), dark,
                            self._generation)

    # Not `exclusive`: a newer render makes older workers return on their own (generation), so
    # no worker ends "cancelled" (tests that wait for all workers treat that as an error).
    @work(thread=True, group="page-render", exit_on_error=False)
    def _render_worker(self, vault, doc: PageDocument, width: int, styles: dict[str, Style],
                       dark: bool, generation: int) -> None:
        worker = get_current_worker()
        cpu_started = time.thread_time()

        def obsolete() -> bool:
            return worker.is_cancelled or generation != self._generation

        started = time.perf_counter()
        console = make_console(width, styles)
        highlight = doc.size <= HIGHLIGHT_LIMIT
        lite = is_lite(doc)

        def external(url: str) -> int:
            return doc.add_link(LinkRef("external", url))

        batch: list[tuple[object, object]] = []
        last_flush = started
        first = True
        pieces = []
        if doc.header is not None:
            pieces.append((None, doc.header))
        pieces.extend((unit, None) for unit in doc.units)
        last_yield = started
        for unit, header in pieces:
            if obsolete():
                return
            if not first and time.perf_counter() - last_yield >= YIELD_EVERY:
                self._yield_to_ui(obsolete, big=doc.size > HIGHLIGHT_LIMIT)
                last_yield = time.perf_counter()
            if unit is None:
                source = header
            elif lite:
                source = lite_unit_text(vault, doc, unit)
            else:
                source = prepare_unit(vault, doc, unit)
            rendered = render_unit(console, source, highlight_code=highlight, dark=dark,
                                   external_link=external)
            batch.append((unit, rendered))
            now = time.perf_counter()
            # The first screenful goes out at once; then batches keep UI updates cheap.
            if first and sum(len(r.lines) for _, r in batch) >= 60 or now - last_flush >= BATCH_INTERVAL:
                first = False
                self.post_message(_RenderedBatch(generation, batch, False))
                batch, last_flush = [], now
        if not obsolete():
            self.post_message(_RenderedBatch(generation, batch, True, time.perf_counter() - started,
                                             time.thread_time() - cpu_started))

    def _yield_to_ui(self, obsolete, *, big: bool) -> None:
        """After the first screen: let the event loop have the GIL now and then. A big page
        waits while another screen (jump, search, review) covers it, so typing there stays
        instant; small pages just finish (nothing waits on a hidden render for long)."""
        time.sleep(0.001)
        while big and not self.screen.is_active and not obsolete():
            time.sleep(0.05)

    @on(_RenderedBatch)
    def _on_batch(self, message: _RenderedBatch) -> None:
        message.stop()
        self._append(message.generation, message.batch, message.done, message.seconds,
                     message.cpu_seconds)

    def _append(self, generation: int, batch, done: bool, seconds: float = 0.0,
                cpu_seconds: float = 0.0) -> None:
        if generation != self._generation:
            return  # a newer render replaced this one
        if self._replace_pending:
            self._replace_pending = False
            self._keep_height = self.virtual_size.height
            self._lines, self._spans, self._unit_rows = [], {}, []
            self._link_first_row, self._link_order = {}, []
            self._links = self.document.links if self.document else []
            self._link_styles.clear()
        lines = self._lines
        for unit, rendered in batch:
            if lines:
                lines.append([])  # one blank row between units
            y = len(lines)
            for row, spans in rendered.link_spans.items():
                self._spans[y + row] = spans
                for _, link_id in spans:
                    if link_id not in self._link_first_row:
                        self._link_first_row[link_id] = y + row
                        self._link_order.append(link_id)
            lines.extend(rendered.lines)
            if unit is not None:
                self._unit_rows.append(UnitRows(unit.first_line, unit.line_count, y, len(rendered.lines)))
        # Until done, keep the old height so a remembered scroll position is not clamped.
        height = len(lines) if done else max(len(lines), self._keep_height)
        self.virtual_size = Size(self._render_width, height)
        self._apply_pending_scroll(done)
        self.refresh()
        if done:
            self.rendering = False
            if self.document is not None:
                self.post_message(self.Rendered(self, self.document.path, seconds, cpu_seconds))

    def _apply_pending_scroll(self, done: bool) -> None:
        if self._pending_scroll is None:
            return
        kind, value = self._pending_scroll
        if kind == "row":
            target = int(value)
            reachable = target + self.scrollable_content_region.height <= len(self._lines)
        else:
            row = self.row_for_line(int(value))
            reachable = row is not None
            target = row or 0
        if reachable or done:
            self._pending_scroll = None
            self.scroll_to(y=target, animate=False, immediate=True)
            # Before the layout pass for the new virtual size the scroll may be clamped or
            # ignored (no scrollbar yet): scroll again after it, unless the reader has moved.
            self._settling = settling = (target, self.scroll_y)
            self.call_after_refresh(self._settle_scroll, settling)

    def _settle_scroll(self, settling: tuple[int, float]) -> None:
        if self._settling is not settling:
            return  # a newer scroll (or render) took over
        self._settling = None
        target, landed = settling
        if self.scroll_y == landed:
            self.scroll_to(y=target, animate=False, immediate=True)

    def on_mount(self) -> None:
        # Colours are baked into rendered lines: a new theme means rendering again.
        self.watch(self.app, "theme", self._theme_changed, init=False)

    def _theme_changed(self) -> None:
        self._link_styles.clear()
        self.call_after_refresh(self.rerender)  # after the new theme's styles are applied

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if self.document is not None and width > 0 and width != self._render_width:
            if self._render_width == 0:
                self._start_render()
            else:
                self.rerender()

    # -- painting -----------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if row >= len(self._lines):
            return Strip.blank(width, base)
        segments = self._lines[row]
        spans = self._spans.get(row)
        if spans:
            segments = list(segments)
            for index, link_id in spans:
                segment = segments[index]
                segments[index] = Segment(segment.text, (segment.style or Style()) + self._link_style(link_id))
        strip = Strip(segments).apply_style(base)
        return strip.crop_extend(scroll_x, scroll_x + width, base)

    def _link_style(self, link_id: int) -> Style:
        selected = link_id == self.selected_link
        key = (link_id, selected)
        style = self._link_styles.get(key)
        if style is None:
            ref = self._links[link_id] if link_id < len(self._links) else None
            kind = ref.kind if ref else "page"
            name = {
                "unresolved": "link-unresolved", "external": "link-external",
                "attachment": "link-attachment", "alias": "link-alias",
            }.get(kind, "link")
            style = self.get_component_rich_style(f"page-view--{name}", partial=True)
            if selected:
                style += self.get_component_rich_style("page-view--link-selected", partial=True)
            style += Style.from_meta({"@click": f"click_link({link_id})"})
            self._link_styles[key] = style
        return style

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._link_styles.clear()

    # -- link cursor --------------------------------------------------------
    def _visible_rows(self) -> tuple[int, int]:
        top = int(self.scroll_y)
        return top, top + max(self.scrollable_content_region.height, 1) - 1

    def action_next_link(self) -> None:
        self._move_link(+1)

    def action_prev_link(self) -> None:
        self._move_link(-1)

    def _move_link(self, step: int) -> None:
        order = self._link_order
        if not order:
            self.app.bell()
            return
        top, bottom = self._visible_rows()
        current = self.selected_link
        current_row = self._link_first_row.get(current) if current is not None else None
        if current_row is None or not top <= current_row <= bottom:
            # Start from the screen the reader is looking at, not from an old selection.
            rows = [(self._link_first_row[i], i) for i in order]
            if step > 0:
                choice = next((i for r, i in rows if r >= top), order[0])
            else:
                choice = next((i for r, i in reversed(rows) if r <= bottom), order[-1])
        else:
            index = order.index(current) + step
            choice = order[index % len(order)]
        self.select_link(choice)

    def action_follow_link(self) -> None:
        if self.selected_link is None or self.selected_link >= len(self._links):
            self.notify("No link selected: press n (next link) first.", severity="warning", timeout=3)
            return
        self.post_message(self.LinkActivated(self, self._links[self.selected_link]))

    def action_click_link(self, link_id: int) -> None:
        self.select_link(link_id)
        self.action_follow_link()
