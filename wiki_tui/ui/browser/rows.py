"""RowList: a list that renders only the rows on screen, for lists of any length (a page with
thousands of backlinks, a tag held by thousands of pages).

Textual's OptionList measures every option (its wrapped height) when options are set and again
on each highlight move, ~0.3 ms an option: 5,000 backlinks took 1.5 s of CPU to show and 40 ms a
keystroke. Here each row has a fixed number of lines (its prompt's lines, never wrapped: a line
too long is cut with "…"), so the line where a row starts is one running sum made when rows are
set, finding the row of a screen line is a bisection, and a row's text is made (a `Row` may hold
a function instead of its text) and rendered only when it comes into view. The surface follows
OptionList's where it overlaps (option_count, get_option_at_index, highlighted, OptionSelected),
so the browser's keys, the pickers and the tests read the same.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from typing import Callable, ClassVar, Iterable

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

RENDERED_KEPT = 512  # rendered rows kept (a screen shows a few dozen)


class Row:
    """One entry: its prompt (rich Text, or a function making it when first shown), an id the
    owner maps back to what the row stands for, and whether the cursor may stop on it. Its
    height is its prompt's lines (give it with a function); `wrap`: long lines wrap instead of
    being cut, the height measured at the list's width (for short lists: a search's 30 hits)."""

    __slots__ = ("_prompt", "id", "disabled", "height", "wrap")

    def __init__(self, prompt: Text | str | Callable[[], Text], id: str | None = None,
                 *, disabled: bool = False, height: int | None = None, wrap: bool = False) -> None:
        if isinstance(prompt, str):
            prompt = Text(prompt)
        self._prompt = prompt
        self.id = id
        self.disabled = disabled
        self.wrap = wrap
        if height is None:
            height = prompt.plain.count("\n") + 1 if isinstance(prompt, Text) else 1
        self.height = max(1, height)

    @property
    def made(self) -> bool:
        """Whether the prompt's text exists yet (it is made when the row is first shown)."""
        return isinstance(self._prompt, Text)

    @property
    def prompt(self) -> Text:
        prompt = self._prompt
        if not isinstance(prompt, Text):
            prompt = self._prompt = prompt()
        return prompt


class RowList(ScrollView, can_focus=True):
    """A scrolling list of `Row`s with a highlight: up/down (and the owner's j/k/g/G; round past
    either end), home/end, page up/down skip disabled rows; enter or a click posts
    OptionSelected."""

    DEFAULT_CSS = """
    RowList {
        height: auto;
        max-height: 100%;
        overflow-x: hidden;
        padding: 0 1;
        color: $foreground;
        background: $surface;
        border: tall $border-blurred;
        &:focus {
            border: tall $border;
            background-tint: $foreground 5%;
        }
        & > .row-list--disabled { color: $text-disabled; }
        & > .row-list--highlighted {
            color: $block-cursor-blurred-foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .row-list--highlighted {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"row-list--highlighted", "row-list--disabled"}
    BINDINGS = [
        Binding("down", "cursor_down", "Down", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("enter", "select", "Select", show=False),
    ]

    highlighted: reactive[int | None] = reactive(None, always_update=True)

    class OptionSelected(Message):
        """A row was chosen (enter or click)."""

        def __init__(self, row_list: RowList, option: Row, index: int) -> None:
            super().__init__()
            self.row_list = row_list
            self.option = option
            self.option_index = index

        @property
        def control(self) -> RowList:
            return self.row_list

    def __init__(self, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None, disabled: bool = False) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self._rows: list[Row] = []
        self._wrapping: list[Row] = []
        self._starts: list[int] = [0]  # line where each row starts; the last: the total
        self._rendered: LRUCache[tuple[int, str, int], list[Strip]] = LRUCache(RENDERED_KEPT)

    # -- content ---------------------------------------------------------------------------
    @property
    def option_count(self) -> int:
        return len(self._rows)

    @property
    def line_count(self) -> int:
        return self._starts[-1]

    def get_option_at_index(self, index: int) -> Row:
        return self._rows[index]

    def set_options(self, rows: Iterable[Row]) -> RowList:
        """Replace every row (the highlight is cleared: the owner sets it again if it wants)."""
        self._rows = list(rows)
        self._wrapping = [row for row in self._rows if row.wrap]
        self._rendered.clear()
        self.highlighted = None
        self._size_changed()
        self.scroll_to(y=0, animate=False, immediate=True)
        return self

    def clear_options(self) -> RowList:
        return self.set_options(())

    def _size_changed(self) -> None:
        """Lay the rows out again (rows set, or a new width for the wrapping ones)."""
        width = self.scrollable_content_region.width
        if self._wrapping and width > 0:
            console = self.app.console
            for row in self._wrapping:
                row.height = max(1, len(row.prompt.wrap(console, width)))
        self._starts = [0, *accumulate(row.height for row in self._rows)]
        self.virtual_size = Size(width, self.line_count)
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.line_count

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return container.width

    def row_lines(self, index: int) -> tuple[int, int]:
        """First line of row `index` and the line after it, in the list's own lines."""
        return self._starts[index], self._starts[index + 1]

    def _row_at_line(self, line: int) -> int:
        return bisect_right(self._starts, line) - 1

    # -- highlight ------------------------------------------------------------------------------
    def validate_highlighted(self, index: int | None) -> int | None:
        if index is None or not self._rows:
            return None
        return max(0, min(len(self._rows) - 1, index))

    def watch_highlighted(self, old: int | None, new: int | None) -> None:
        self.refresh()
        if new is not None:
            self.scroll_to_highlight()

    def scroll_to_highlight(self) -> None:
        index = self.highlighted
        if index is None or not self.is_mounted or not self.scrollable_content_region:
            return
        start, end = self._starts[index], self._starts[index + 1]
        self.scroll_to_region(Region(0, start, max(1, self.scrollable_content_region.width),
                                     end - start), animate=False, force=True, immediate=True)

    def _enabled_from(self, index: int, step: int) -> int | None:
        rows = self._rows
        while 0 <= index < len(rows):
            if not rows[index].disabled:
                return index
            index += step
        return None

    def _move(self, index: int, step: int) -> None:
        found = self._enabled_from(index, step)
        if found is None:  # nothing enabled that way: try the other way, from the same place
            found = self._enabled_from(index - step, -step)
        if found is not None:
            self.highlighted = found

    def _step(self, step: int) -> None:
        """The next enabled row that way, round past the end (as OptionList does)."""
        current, last = self.highlighted, len(self._rows) - 1
        start = (0 if step > 0 else last) if current is None else current + step
        found = self._enabled_from(start, step)
        if found is None and current is not None:
            found = self._enabled_from(0 if step > 0 else last, step)
        if found is not None:
            self.highlighted = found

    def action_cursor_down(self) -> None:
        self._step(1)

    def action_cursor_up(self) -> None:
        self._step(-1)

    def action_first(self) -> None:
        self._move(0, 1)

    def action_last(self) -> None:
        self._move(len(self._rows) - 1, -1)

    def _move_page(self, direction: int) -> None:
        if not self._rows:
            return
        current = self.highlighted
        if current is None:  # nothing highlighted: page down goes to the end, up to the start
            self._move(len(self._rows) - 1, -1) if direction > 0 else self._move(0, 1)
            return
        line = self._starts[current] + direction * max(1, self.scrollable_content_region.height)
        line = max(0, min(self.line_count - 1, line))
        self._move(self._row_at_line(line), direction)

    def action_page_down(self) -> None:
        self._move_page(1)

    def action_page_up(self) -> None:
        self._move_page(-1)

    def action_select(self) -> None:
        index = self.highlighted
        if index is not None and not self._rows[index].disabled:
            self.post_message(self.OptionSelected(self, self._rows[index], index))

    async def _on_click(self, event: events.Click) -> None:
        index = event.style.meta.get("row")
        if isinstance(index, int) and 0 <= index < len(self._rows) and not self._rows[index].disabled:
            self.highlighted = index
            self.action_select()

    # -- rendering ------------------------------------------------------------------------------
    def _on_resize(self, event: events.Resize) -> None:
        self._rendered.clear()
        self._size_changed()
        self.scroll_to_highlight()

    def on_show(self) -> None:
        self.scroll_to_highlight()

    def notify_style_update(self) -> None:
        self._rendered.clear()
        super().notify_style_update()

    def _state(self, index: int) -> str:
        if self._rows[index].disabled:
            return "row-list--disabled"
        if index == self.highlighted:
            return "row-list--highlighted"
        return ""

    def _row_strips(self, index: int, width: int) -> list[Strip]:
        state = self._state(index)
        key = (index, state + (":focus" if self.has_focus else ""), width)
        strips = self._rendered.get(key)
        if strips is None:
            base = self.rich_style
            style = base + self.get_component_rich_style(state, partial=True) if state else base
            console = self.app.console
            strips = []
            row = self._rows[index]
            if row.wrap:
                lines = list(row.prompt.wrap(console, width))[:row.height]
            else:
                lines = list(row.prompt.split("\n", allow_blank=True))
            for line in lines:
                line.rstrip()  # a wrapped line's trailing space is no part of it
                line.truncate(width, overflow="ellipsis", pad=True)
                line.no_wrap = True
                segments = Segment.apply_style(line.render(console), style)
                strips.append(Strip(segments, width).crop_extend(0, width, style)
                              .apply_meta({"row": index}))
            self._rendered[key] = strips
        return strips

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        line = self.scroll_offset.y + y
        if not 0 <= line < self.line_count or width <= 0:
            return Strip.blank(width, self.rich_style)
        index = self._row_at_line(line)
        strips = self._row_strips(index, width)
        offset = line - self._starts[index]
        return strips[offset] if offset < len(strips) else Strip.blank(width, self.rich_style)

    def _on_focus(self, event: events.Focus) -> None:
        self.refresh()

    def _on_blur(self, event: events.Blur) -> None:
        self.refresh()


__all__ = ["Row", "RowList"]
