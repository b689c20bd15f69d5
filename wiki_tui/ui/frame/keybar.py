"""The footer: the keys the focused part offers, drawn as one line by one widget.

Textual's Footer mounts a widget per key and rebuilds them all on every bindings signal (each
focus move); with ~10 keys that was about a fifth of the app's start-up past a bare app. This
bar keeps the same reading (key, what it does, dimmed when unavailable, the palette key on the
right) and the mouse (a click presses the key; hovering shows its tooltip), but redraws one line.
A screen whose every key matters (the review) asks for `max_rows=2`: keys that do not fit the
first line go on a second one, in their order, instead of being left out. Two keys described
"Next X" and "Prev X" share one place ("j/k File"), and the help key is never the one left out:
whatever does not fit, the key that lists every key is shown, last.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widget import Widget


class ShownKey(NamedTuple):
    key: str  # what simulate_key presses
    display: str  # how the key reads (the keymap is applied)
    description: str
    enabled: bool
    tooltip: str


HELP_ACTIONS = ("help", "app.help")  # the key that lists every key: always on the bar


def paired(keys: list[ShownKey]) -> list[ShownKey]:
    """"j Next file" and "k Prev file" become "j/k File", in the place of the first."""
    out = list(keys)
    for i, first in enumerate(out):
        if not first.description.startswith("Next "):
            continue
        noun = first.description[len("Next "):]
        for j in range(i + 1, len(out)):
            second = out[j]
            if second.description == f"Prev {noun}":
                out[i] = ShownKey(first.key, f"{first.display}/{second.display}",
                                  noun[:1].upper() + noun[1:], first.enabled or second.enabled,
                                  f"{first.tooltip} / {second.tooltip}")
                del out[j]
                break
    return out


class KeyBar(Widget, can_focus=False):
    COMPONENT_CLASSES = {"keybar--key", "keybar--description", "keybar--hover"}

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        &.-two-rows { height: 2; }
        color: $footer-foreground;
        background: $footer-background;
        .keybar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .keybar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .keybar--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
    }
    """

    def __init__(self, *, max_rows: int = 1, **kwargs) -> None:
        super().__init__(**kwargs)
        self.max_rows = max_rows
        self.keys: tuple[ShownKey, ...] = ()
        self.palette: ShownKey | None = None
        self.help_key: ShownKey | None = None  # shown last, and never left out
        self._spans: list[tuple[int, int, int, ShownKey]] = []  # (row, start, end): the mouse
        self._hover: ShownKey | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self._bindings_changed(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen) -> None:
        if screen is not self.screen:
            return
        app = self.app
        keys: dict[str, ShownKey] = {}  # one per action, as Textual's footer shows them
        palette = help_key = None
        for key, (_node, binding, enabled, tooltip) in screen.active_bindings.items():
            shown = ShownKey(binding.key, app.get_key_display(binding), binding.description,
                             enabled, tooltip or binding.tooltip or binding.description)
            if key == app.COMMAND_PALETTE_BINDING and app.ENABLE_COMMAND_PALETTE:
                palette = shown
            elif binding.show and binding.action in HELP_ACTIONS:
                help_key = help_key or shown
            elif binding.show:
                keys.setdefault(binding.action, shown)
        shown_keys = tuple(paired(list(keys.values())))
        if (shown_keys, palette, help_key) != (self.keys, self.palette, self.help_key):
            self.keys, self.palette, self.help_key = shown_keys, palette, help_key
            self._fit_rows()
            self.refresh()

    def on_resize(self) -> None:
        self._fit_rows()

    def _fit_rows(self) -> None:
        self.set_class(len(self._rows(self.size.width)) > 1, "-two-rows")

    def _rows(self, width: int) -> list[list[ShownKey]]:
        """The keys per line: in order, each whole; the first line keeps room for the palette
        key; up to max_rows lines, what fits on none left out, and the help key (which lists
        every key) last, in the room kept for it."""
        rows: list[list[ShownKey]] = [[]]
        room = width - (1 + self._cells(self.palette) if self.palette else 0)  # "▏" and key
        used = 0
        keep = self._cells(self.help_key) if self.help_key else 0
        for shown in self.keys:
            cells = self._cells(shown)
            last = len(rows) == self.max_rows
            if used + cells > room - (keep if last else 0):
                if last:
                    break
                rows.append([])
                room, used = width, 0
                if cells > room - (keep if len(rows) == self.max_rows else 0):
                    break
            rows[-1].append(shown)
            used += cells
        if self.help_key:
            if used + keep > room and len(rows) < self.max_rows:
                rows.append([])
            rows[-1].append(self.help_key)
        return rows

    # -- drawing ---------------------------------------------------------------------------
    def render(self) -> Text:
        key_style = self.get_component_rich_style("keybar--key")
        text_style = self.get_component_rich_style("keybar--description")
        hover_style = self.get_component_rich_style("keybar--hover")
        dim = Style(dim=True)
        width = self.size.width
        tail = 1 + self._cells(self.palette) if self.palette else 0  # "▏" and the key
        text = Text(no_wrap=True, overflow="crop", end="", style=self.rich_style)
        self._spans = []

        def draw(row: int, line: Text, shown: ShownKey) -> None:
            start = line.cell_len
            extra = (hover_style if shown == self._hover else Style()) + (
                Style() if shown.enabled else dim)
            line.append(f" {shown.display} ", key_style + extra)
            if shown.description:
                line.append(f"{shown.description} ", text_style + extra)
            self._spans.append((row, start, line.cell_len, shown))

        for row, keys in enumerate(self._rows(width)):
            line = Text(no_wrap=True, overflow="crop", end="")
            for shown in keys:
                draw(row, line, shown)
            if row == 0 and self.palette and line.cell_len + tail <= width:
                line.append(" " * (width - tail - line.cell_len))
                line.append("▏", text_style + dim)
                draw(row, line, self.palette)
            if row:
                text.append("\n")
            text.append_text(line)
        return text

    @staticmethod
    def _cells(shown: ShownKey) -> int:
        described = cell_len(shown.description) + 1 if shown.description else 0
        return cell_len(shown.display) + 2 + described

    # -- mouse -----------------------------------------------------------------------------
    def _key_at(self, x: int, y: int) -> ShownKey | None:
        for row, start, end, shown in self._spans:
            if row == y and start <= x < end:
                return shown
        return None

    def on_click(self, event: events.Click) -> None:
        shown = self._key_at(event.x, event.y)
        if shown is None:
            return
        event.stop()
        if shown.enabled:
            self.app.simulate_key(shown.key)
        else:
            self.app.bell()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        shown = self._key_at(event.x, event.y)
        if shown != self._hover:
            self._hover = shown
            self.tooltip = shown.tooltip if shown else None
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.tooltip = None
            self.refresh()
