"""A path in the width there is, cut where it says least: the review's file list and the
findings list show long vault paths in narrow columns."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text


def _head(text: str, cells: int) -> str:
    """The start of `text` in at most `cells` cells (a wide character counts two)."""
    out, used = [], 0
    for char in text:
        used += cell_len(char)
        if used > cells:
            break
        out.append(char)
    return "".join(out)


def _tail(text: str, cells: int) -> str:
    return _head(text[::-1], cells)[::-1]


def elide(path: str, width: int) -> str:
    """`path` in at most `width` cells, cut where it says least: the folders first
    ("con…/Dead reckoning.md"), then the middle of the name ("Dead re…oning.md"), never the
    end (a finding's line number stays)."""
    if cell_len(path) <= width:
        return path
    if width <= 1:
        return "…"[:max(width, 0)]
    folder, _, name = path.rpartition("/")
    if folder and cell_len(name) + 2 <= width:  # the start of the folders, "…/", the name
        return _head(folder, width - cell_len(name) - 2) + "…/" + name
    tail = _tail(name, (width - 1) // 2)
    return _head(name, width - 1 - cell_len(tail)) + "…" + tail


class ElidedPath:
    """A path that fits the width it is given (a table column) by `elide`, not by a cut end."""

    def __init__(self, path: str, style: str | Style = "") -> None:
        self.path = path
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text(elide(self.path, options.max_width), style=self.style, no_wrap=True, end="")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(8, cell_len(self.path)), cell_len(self.path))
