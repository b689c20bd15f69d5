"""DiffView: the focused file's hunks, drawn line by line (Textual's line API).

Only the rows on screen are highlighted and rendered, so a diff of thousands of lines opens at
once. Long lines wrap (pages are prose: a paragraph is one line), so a row may take several
screen lines; `_offsets` maps rows to screen lines. Colours come from component classes styled
with theme variables (review.tcss), the markdown syntax colours too; changed words inside a
changed line are emphasised. A created file has no old side: it is shown unified, full width,
even in the side-by-side mode.
"""

from __future__ import annotations

from bisect import bisect_right
from difflib import SequenceMatcher

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from wiki_tui.changes.model import ACCEPTED, CREATE, REJECTED, FileChange
from wiki_tui.ui.review.highlight import FAMILIES, highlight_line, printable
from wiki_tui.ui.review.rows import Cell, Row, build_rows, hunk_starts

HUNK_STATUS = {ACCEPTED: "✓ accepted", REJECTED: "✗ rejected"}
MARK = "▌"
MIN_TEXT_WIDTH = 10
WORD_DIFF_LIMIT = 2000  # characters: longer line pairs are not compared word by word
SYNTAX_FAMILIES = tuple(sorted(set(FAMILIES.values())))  # each has a component class


class DiffView(ScrollView, can_focus=False):
    """Unified or side-by-side diff of one FileChange; `focus_hunk` is highlighted."""

    COMPONENT_CLASSES = {
        "diff-view--added", "diff-view--removed", "diff-view--added-word",
        "diff-view--removed-word", "diff-view--number", "diff-view--header",
        "diff-view--header-focused", "diff-view--mark", "diff-view--gap", "diff-view--accepted",
        "diff-view--rejected", "diff-view--pending", "diff-view--dim",
        *(f"diff-view--syntax-{family}" for family in SYNTAX_FAMILIES),
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.change: FileChange | None = None
        self.rows: list[Row] = []
        self.split = False
        self.focus_hunk = 0
        self._starts: dict[int, int] = {}  # hunk -> row of its header
        self._num_width = 3
        self._offsets: list[int] = [0]  # row -> first screen line; last item: total lines
        self._laid_out_width = -1
        self._cache: dict[tuple[int, str], Strip] = {}  # (row, side) -> the whole line, unwrapped
        self._breaks: dict[tuple[int, str], list[int]] = {}  # (row, "a"|"b") -> wrapped line starts
        self._text_width = MIN_TEXT_WIDTH
        self._syntax: dict[str, Style] | None = None  # token family -> style, per theme

    # -- content ---------------------------------------------------------------------------
    def show(self, change: FileChange | None, *, split: bool, focus_hunk: int = 0,
             keep_scroll: bool = False) -> None:
        """Show `change` (rebuilding its rows) with hunk `focus_hunk` highlighted."""
        self.change, self.split = change, split
        self.rows = build_rows(change, split=self.side_by_side) if change is not None else []
        self._starts = hunk_starts(self.rows)
        self._cache.clear()
        top = max((max(c.old_no or 0, c.new_no or 0) for r in self.rows
                   for c in (r.left, r.right) if c is not None), default=1)
        self._num_width = max(3, len(str(top)))
        self._layout(force=True)
        if not keep_scroll:
            self.scroll_to(x=0, y=0, animate=False, immediate=True)
        self.set_focus_hunk(focus_hunk, scroll=not keep_scroll)

    def set_focus_hunk(self, index: int, *, scroll: bool = True) -> None:
        self.focus_hunk = index
        self.refresh()
        if scroll and index in self._starts:
            start = self._offsets[self._starts[index]]
            end_row = self._starts.get(index + 1, len(self.rows))
            end = self._offsets[end_row]
            height = max(1, self.scrollable_content_region.height)
            target = start - 1 if end - start < height - 1 else start  # all of it, else its top
            if not (self.scroll_y <= max(0, target) and end <= self.scroll_y + height):
                self.scroll_to(y=max(0, target), animate=False, immediate=True)

    @property
    def side_by_side(self) -> bool:
        """Split as asked, except a created file: nothing on its old side would waste half."""
        return self.split and (self.change is None or self.change.kind != CREATE)

    # -- geometry --------------------------------------------------------------------------
    def _widths(self, width: int) -> tuple[int, int, int]:
        """(left part width, right part width, text width per part); right is 0 when unified."""
        n = self._num_width
        if not self.side_by_side:
            return width, 0, max(MIN_TEXT_WIDTH, width - (2 * n + 5))
        half = (width - 1) // 2
        return half, width - half - 1, max(MIN_TEXT_WIDTH, min(half - (n + 4), width - half - 1 - (n + 3)))

    def _layout(self, force: bool = False) -> None:
        width = self.scrollable_content_region.width
        if width == self._laid_out_width and not force:
            return
        self._laid_out_width = width
        text_width = self._widths(width)[2]
        self._text_width = text_width
        self._breaks.clear()
        offsets = [0]
        total = 0
        for index, row in enumerate(self.rows):
            height = 1
            if row.kind == "line":
                for side, cell in (("a", row.left), ("b", row.right)):
                    if cell is not None and len(cell.text) > text_width // 2:
                        breaks = wrap_points(printable(cell.text), text_width)
                        if len(breaks) > 1:
                            self._breaks[(index, side)] = breaks
                            height = max(height, len(breaks))
            total += height
            offsets.append(total)
        self._offsets = offsets
        self.virtual_size = Size(0, total)

    def on_resize(self) -> None:
        self._layout()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._cache.clear()
        self._syntax = None

    # -- drawing ---------------------------------------------------------------------------
    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"diff-view--{name}", partial=True)

    def render_line(self, y: int) -> Strip:
        self._layout()
        width = self.scrollable_content_region.width
        line = self.scroll_offset.y + y
        if not self.rows and y == 0 and self.change is not None:
            return self._text_strip(Text(f" {self._no_hunks_note()}", style=self._style("gap")),
                                    width).apply_style(self.rich_style)
        if line >= self._offsets[-1] or not self.rows:
            return Strip.blank(width, self.rich_style)
        index = bisect_right(self._offsets, line) - 1
        part = line - self._offsets[index]
        row = self.rows[index]
        if row.kind == "header":
            strip = self._header(row, width)
        elif row.kind == "gap":
            strip = self._text_strip(Text("⋯", style=self._style("gap")), width)
        else:
            left_w, right_w, text_w = self._widths(width)
            focused = row.hunk == self.focus_hunk
            if self.side_by_side:
                strips = [self._side(index, row, row.left, "old", part, left_w, text_w, focused),
                          Strip([Segment("│", self._style("number"))], 1),
                          self._side(index, row, row.right, "new", part, right_w, text_w, False)]
                strip = Strip.join(strips)
            else:
                strip = self._side(index, row, row.left, "both", part, left_w, text_w, focused)
        return strip.apply_style(self.rich_style)

    def _no_hunks_note(self) -> str:
        change = self.change
        assert change is not None
        if change.kind == "rename":
            return f"Renamed from {change.old_path}; the text stays as it is. space or a/r decide."
        return "No line changes in this file."

    def _text_strip(self, text: Text, width: int) -> Strip:
        text.truncate(width, overflow="ellipsis", pad=True)
        return Strip(list(text.render(self.app.console)), width)

    def _header(self, row: Row, width: int) -> Strip:
        change = self.change
        assert change is not None
        hunk = change.hunks[row.hunk]
        focused = row.hunk == self.focus_hunk
        text = Text(no_wrap=True, end="")
        text.append(MARK if focused else " ", self._style("mark") if focused else Style())
        text.append(f" {hunk.header}  hunk {row.hunk + 1}/{len(change.hunks)}  ")
        status = hunk.status if hunk.status in (ACCEPTED, REJECTED) else "pending"
        text.append(HUNK_STATUS.get(hunk.status, "· pending"), self._style(status))
        if focused:
            text.append("   space toggles this hunk")
        text.stylize(self._style("header-focused" if focused else "header"))
        return self._text_strip(text, width)

    def _side(self, index: int, row: Row, cell: Cell | None, side: str, part: int, width: int,
              text_width: int, focused: bool) -> Strip:
        """Screen line `part` of one side of a row: mark, numbers, sign, a slice of the text."""
        n = self._num_width
        gutter = Text(no_wrap=True, end="")
        if side != "new":
            gutter.append(MARK if focused else " ", self._style("mark") if focused else Style())
        if cell is None:
            return Strip(list(gutter.render(self.app.console))).extend_cell_length(width)
        kind = {"+": "added", "-": "removed"}.get(cell.tag)
        # on a changed line the numbers take the line's own colour: muted, they would fade
        # into the tinted background
        number_style = self._style("number") if kind is None else Style()
        breaks = self._breaks.get((index, "b" if side == "new" else "a"), [0])
        if part == 0:
            numbers = (f"{_no(cell.old_no, n)} {_no(cell.new_no, n)}" if side == "both"
                       else _no(cell.old_no if side == "old" else cell.new_no, n))
            gutter.append(numbers, number_style)
            gutter.append(f" {cell.tag} ")
        elif part < len(breaks):  # a wrapped line goes on
            gutter.append(" " * (2 * n + 1 if side == "both" else n) + " ↪ ", number_style)
        if part >= len(breaks):  # the other side of the row wraps longer: nothing here
            body = Strip([])
        else:
            end = breaks[part + 1] if part + 1 < len(breaks) else None
            body = self._line(index, side, cell).crop(breaks[part], end)
        strip = Strip.join([Strip(list(gutter.render(self.app.console))), body])
        strip = strip.adjust_cell_length(width)
        if kind is None:
            return strip
        if self.change is not None and self.change.hunks[row.hunk].status == REJECTED:
            kind = "dim"
        return strip.apply_style(self._style(kind))

    def _line(self, index: int, side: str, cell: Cell) -> Strip:
        """The whole highlighted text of a cell (cached), changed words emphasised."""
        key = (index, side)
        strip = self._cache.get(key)
        if strip is None:
            if self._syntax is None:
                self._syntax = {f: self._style(f"syntax-{f}") for f in SYNTAX_FAMILIES}
            text = highlight_line(cell.text, self._syntax)
            if cell.pair is not None and cell.tag in "+-":
                style = self._style("added-word" if cell.tag == "+" else "removed-word")
                for start, end in changed_spans(text.plain, printable(cell.pair)):
                    text.stylize(style, start, end)
            strip = Strip(list(text.render(self.app.console)), cell_len(text.plain))
            if len(self._cache) > 4000:
                self._cache.clear()
            self._cache[key] = strip
        return strip


def wrap_points(text: str, width: int) -> list[int]:
    """Cell offsets where the wrapped lines of `text` start: at spaces when possible."""
    if cell_len(text) != len(text):  # wide characters: cut by cells, not at words
        return list(range(0, cell_len(text), width)) or [0]
    points = [0]
    start = 0
    while len(text) - start > width:
        cut = text.rfind(" ", start + 1, start + width + 1)
        cut = cut + 1 if cut > start else start + width
        points.append(cut)
        start = cut
    return points


def changed_spans(text: str, other: str) -> list[tuple[int, int]]:
    """Character ranges of `text` that differ from `other` (whole words), for emphasis."""
    if not text or not other or len(text) + len(other) > WORD_DIFF_LIMIT:
        return []
    words_a, words_b = _words(text), _words(other)
    matcher = SequenceMatcher(None, [w for w, _ in words_a], [w for w, _ in words_b],
                              autojunk=False)
    if matcher.ratio() < 0.4:  # mostly rewritten: emphasising everything says nothing
        return []
    spans = []
    for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
        if tag in ("replace", "delete") and i1 < i2:
            spans.append((words_a[i1][1], words_a[i2 - 1][1] + len(words_a[i2 - 1][0])))
    return spans


def _words(text: str) -> list[tuple[str, int]]:
    """Words and the runs between them, with their offsets."""
    out: list[tuple[str, int]] = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or text[i].isalnum() != text[start].isalnum():
            out.append((text[start:i], start))
            start = i
    return out


def _no(number: int | None, width: int) -> str:
    return f"{number:>{width}}" if number is not None else " " * width
