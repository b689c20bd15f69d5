"""DiffView: the focused file's hunks, drawn line by line (Textual's line API).

Only the rows on screen are highlighted and rendered, so a diff of thousands of lines opens
at once. Colours come from component classes styled with theme variables (review.tcss).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from wiki_tui.changes.model import ACCEPTED, REJECTED, FileChange
from wiki_tui.ui.review.highlight import highlight_line
from wiki_tui.ui.review.rows import Cell, Row, build_rows, hunk_starts

HUNK_STATUS = {ACCEPTED: "✓ accepted", REJECTED: "✗ rejected"}
MARK = "▌"


class DiffView(ScrollView, can_focus=False):
    """Unified or side-by-side diff of one FileChange; `focus_hunk` is highlighted."""

    COMPONENT_CLASSES = {
        "diff-view--added", "diff-view--removed", "diff-view--context", "diff-view--number",
        "diff-view--header", "diff-view--header-focused", "diff-view--mark", "diff-view--gap",
        "diff-view--accepted", "diff-view--rejected", "diff-view--pending", "diff-view--dim",
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.change: FileChange | None = None
        self.rows: list[Row] = []
        self.split = False
        self.focus_hunk = 0
        self._starts: dict[int, int] = {}
        self._num_width = 3
        self._cache: dict[str, Text] = {}  # highlighted line texts

    # -- content ---------------------------------------------------------------------------
    def show(self, change: FileChange | None, *, split: bool, focus_hunk: int = 0,
             keep_scroll: bool = False) -> None:
        """Show `change` (rebuilding its rows) with hunk `focus_hunk` highlighted."""
        self.change, self.split = change, split
        self.rows = build_rows(change, split=split) if change is not None else []
        self._starts = hunk_starts(self.rows)
        self._cache.clear()
        top = max((c.old_no or 0, c.new_no or 0) for r in self.rows
                  for c in (r.left, r.right) if c is not None) if self.rows else (1, 1)
        self._num_width = max(3, len(str(max(top))))
        self._update_virtual_size()
        self.set_focus_hunk(focus_hunk, scroll=not keep_scroll)
        if not keep_scroll:
            self.scroll_to(x=0, animate=False, immediate=True)

    def set_focus_hunk(self, index: int, *, scroll: bool = True) -> None:
        self.focus_hunk = index
        self.refresh()
        if scroll and index in self._starts:
            start = self._starts[index]
            end = self._starts.get(index + 1, len(self.rows))
            height = max(1, self.scrollable_content_region.height)
            # the whole hunk if it fits, else its header at the top
            target = start - 1 if end - start < height - 2 else start
            if not (self.scroll_y <= target and end <= self.scroll_y + height):
                self.scroll_to(y=max(0, target), animate=False, immediate=True)

    def _update_virtual_size(self) -> None:
        if self.split:
            width = 0  # halves are cropped to the view: no horizontal scrolling
        else:
            longest = max((cell_len(r.left.text) for r in self.rows if r.left), default=0)
            width = self._gutter_width + longest + 2
        self.virtual_size = Size(width, len(self.rows))

    @property
    def _gutter_width(self) -> int:
        # mark + numbers + sign: "▌ 12  13 + "
        numbers = self._num_width if self.split else 2 * self._num_width + 1
        return 1 + numbers + 3

    def on_resize(self) -> None:
        self._update_virtual_size()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()

    # -- drawing ---------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"diff-view--{name}", partial=True)

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if index >= len(self.rows):
            return Strip.blank(width, base)
        row = self.rows[index]
        focused = row.hunk == self.focus_hunk
        if row.kind == "header":
            strip = self._header(row, width)
        elif row.kind == "gap":
            strip = self._strip(Text("⋯", style=self._style("gap")), width)
        elif self.split:
            half = (width - 1) // 2
            left = self._cell(row.left, row, half, side="old", focused=focused)
            right = self._cell(row.right, row, width - half - 1, side="new", focused=False)
            sep = Text("│", style=self._style("number"))
            strip = self._strip(Text.assemble(left, sep, right), width)
        else:
            text = self._cell(row.left, row, None, side="both", focused=focused)
            strip = Strip(list(text.render(self.app.console)), cell_len(text.plain))
            strip = strip.crop_extend(scroll_x, scroll_x + width, None)
        return strip.apply_style(base)

    def _strip(self, text: Text, width: int) -> Strip:
        text.truncate(width, overflow="ellipsis", pad=True)
        return Strip(list(text.render(self.app.console)), width)

    def _header(self, row: Row, width: int) -> Strip:
        change = self.change
        assert change is not None
        hunk = change.hunks[row.hunk]
        status = HUNK_STATUS.get(hunk.status, "· pending")
        focused = row.hunk == self.focus_hunk
        text = Text(no_wrap=True, end="")
        text.append(MARK if focused else " ", self._style("mark") if focused else Style())
        text.append(f" {hunk.header}  hunk {row.hunk + 1}/{len(change.hunks)}  ")
        text.append(status, self._style(hunk.status if hunk.status in (ACCEPTED, REJECTED)
                                        else "pending"))
        if focused:
            text.append("  space toggles", self._style("dim"))
        text.stylize(self._style("header-focused" if focused else "header"))
        return self._strip(text, width)

    def _cell(self, cell: Cell | None, row: Row, width: int | None, *, side: str,
              focused: bool) -> Text:
        """One side of a row: mark, line number(s), sign, highlighted text, row background."""
        change = self.change
        assert change is not None
        n = self._num_width
        text = Text(no_wrap=True, end="")
        if side != "new":
            text.append(MARK if focused else " ", self._style("mark") if focused else Style())
        if cell is None:
            pad = n + 3 if side != "both" else 2 * n + 4
            text.append(" " * pad)
            if width is not None:
                text.truncate(width, pad=True)
            return text
        if side == "both":
            numbers = f"{_no(cell.old_no, n)} {_no(cell.new_no, n)}"
        else:
            numbers = _no(cell.old_no if side == "old" else cell.new_no, n)
        text.append(numbers, self._style("number"))
        text.append(f" {cell.tag if cell.tag != ' ' else ' '} ")
        text.append_text(self._highlighted(cell.text))
        line_style = {"+": "added", "-": "removed"}.get(cell.tag, "context")
        if cell.tag != " " and change.hunks[row.hunk].status == REJECTED:
            line_style = "dim"
        if width is not None:
            text.truncate(width, overflow="ellipsis", pad=True)
        else:
            full = self.scroll_offset.x + self.scrollable_content_region.width
            text.append(" " * max(0, full - cell_len(text.plain)))
        text.stylize(self._style(line_style), 1 if side != "new" else 0)
        return text

    def _highlighted(self, line: str) -> Text:
        cached = self._cache.get(line)
        if cached is None:
            if len(self._cache) > 2000:
                self._cache.clear()
            cached = self._cache[line] = highlight_line(line, dark=self.app.current_theme.dark)
        return cached.copy()


def _no(number: int | None, width: int) -> str:
    return f"{number:>{width}}" if number is not None else " " * width
