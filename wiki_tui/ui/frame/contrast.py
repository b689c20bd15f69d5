"""Contrast of what the app actually draws (WCAG 2 relative luminance ratio).

Two sources, both read from the running app so no list of styles can drift from the code:
- every text segment on the screen as Textual composes it (theme variables, tcss rules, syntax
  colours, `dim` blended by Textual's filters): its foreground against its background;
- every component class of every widget on the screen (the styles a widget draws with, shown
  on screen or not): its foreground against its background, as the widget composes it.
An emphasis inside a line (the changed words of a diff) must also stand apart from the line it
sits on: adjacent text segments of an emphasising widget that differ in background give a
background-against-background pair.

Each pair is measured in truecolor and after the 256-colour mapping a terminal without
truecolor shows (Rich's own downgrade), since over SSH Textual falls back to 256 colours.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.cells import cell_len
from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.style import Style

RGB = tuple[int, int, int]
DECORATION = range(0x2500, 0x25A0)  # box drawing and block elements: borders, bars, not text
EMPHASIS_WIDGETS = {"DiffView"}  # widgets whose in-line backgrounds carry meaning
# component classes drawn only with line characters (rules, guides, separators), never text
DECORATIVE_COMPONENTS = ("option-list--separator", "tree--guides", "underline--bar",
                         "page-view--rule", "page-view--table")


@dataclass(frozen=True, slots=True)
class Pair:
    where: str  # "Screen Widget#id" plus the component class or "emphasis"
    fg: RGB
    bg: RGB
    sample: str = field(default="", compare=False)  # some of the text: not part of identity

    @property
    def ratio(self) -> float:
        return contrast_ratio(self.fg, self.bg)

    @property
    def ratio_256(self) -> float:
        return contrast_ratio(to_256(self.fg), to_256(self.bg))


def _luminance(rgb: RGB) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGB, b: RGB) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def to_256(rgb: RGB) -> RGB:
    """The colour a 256-colour terminal actually shows for `rgb`."""
    triplet = RichColor.from_rgb(*rgb).downgrade(ColorSystem.EIGHT_BIT).get_truecolor()
    return triplet.red, triplet.green, triplet.blue


def hex_rgb(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _rgb(colour: RichColor | None) -> RGB | None:
    if colour is None or colour.triplet is None:
        return None
    return tuple(colour.triplet)  # type: ignore[return-value]


def _colours(style: Style) -> tuple[RGB | None, RGB | None]:
    fg, bg = _rgb(style.color), _rgb(style.bgcolor)
    return (bg, fg) if style.reverse else (fg, bg)


def _is_text(text: str) -> bool:
    return any(not c.isspace() and ord(c) not in DECORATION for c in text)


def _label(widget) -> str:
    name = type(widget).__name__
    return f"{name}#{widget.id}" if widget.id else name


def _inside(widget, root) -> bool:
    return root is None or root in widget.ancestors_with_self


def screen_pairs(app, root=None) -> set[Pair]:
    """Every (foreground, background) of the text on the app's current screen (only inside
    `root` when given); for an emphasising widget also the backgrounds of neighbouring
    segments that differ."""
    screen = app.screen
    compositor = screen._compositor
    pairs: set[Pair] = set()
    for y, strip in enumerate(compositor.render_strips()):
        x = 0
        previous: tuple[object, RGB | None] | None = None  # (widget, bg) of the segment before
        for segment in strip:
            text, style = segment.text, segment.style
            width = cell_len(text)
            if style is None or not text or not _is_text(text) and not text.isspace():
                previous = None  # a border or a bar separates what is either side of it
            else:
                widget, _ = compositor.get_widget_at(x, y)
                fg, bg = _colours(style)
                where = f"{type(screen).__name__} {_label(widget)}"
                inside = _inside(widget, root)
                if inside and fg is not None and bg is not None and _is_text(text):
                    pairs.add(Pair(where, fg, bg, text.strip()[:24]))
                if (inside and previous is not None and previous[0] is widget and _is_text(text)
                        and None not in (bg, previous[1]) and previous[1] != bg
                        and type(widget).__name__ in EMPHASIS_WIDGETS):
                    pairs.add(Pair(f"{where} emphasis", bg, previous[1], text.strip()[:24]))
                previous = (widget, bg)
            x += width
    return pairs


def component_pairs(app, root=None) -> set[Pair]:
    """Every component class of every widget on the current screen (inside `root` when given),
    as the widget composes it: its own colours where it sets them, else the widget's."""
    screen = app.screen
    pairs: set[Pair] = set()
    for widget in (root or screen).walk_children(with_self=True):
        base_fg, base_bg = _colours(widget.rich_style)
        for name in sorted(getattr(widget, "COMPONENT_CLASSES", ())):
            if name.startswith(DECORATIVE_COMPONENTS):
                continue
            composed = widget.get_component_rich_style(name, partial=False)
            partial = widget.get_component_rich_style(name, partial=True)
            fg = _rgb(composed.color) if partial.color is not None else base_fg
            bg = _rgb(composed.bgcolor) if partial.bgcolor is not None else base_bg
            if composed.reverse:
                fg, bg = bg, fg
            if composed.dim and fg is not None and bg is not None:
                fg = _dimmed(fg, bg)
            if fg is not None and bg is not None:
                pairs.add(Pair(f"{type(screen).__name__} {_label(widget)} .{name}", fg, bg))
    return pairs


def _dimmed(fg: RGB, bg: RGB) -> RGB:
    """`dim` as Textual draws it: the foreground blended towards the background."""
    from textual.filter import dim_color

    return _rgb(dim_color(RichColor.from_rgb(*bg), RichColor.from_rgb(*fg)))  # type: ignore[return-value]

