"""What the terminal shows of a form, as text: a deck slide by slide, a page's charts drawn,
a canvas's files, claims and relations. The review's preview (`v`) steps through the views.
"""

from __future__ import annotations

from wiki_tui.forms.canvas import CanvasError, check_canvas, describe
from wiki_tui.forms.chart_spec import ChartError, find_chart_blocks, parse_spec
from wiki_tui.forms.chart_text import render_text
from wiki_tui.forms.slides import is_deck, slides


def form_of(path: str, text: str | None) -> str:
    """'canvas', 'slides', 'chart' or '' (a plain page, or no text)."""
    if text is None:
        return ""
    if path.lower().endswith(".canvas"):
        return "canvas"
    if not path.lower().endswith(".md"):
        return ""
    if is_deck(text):
        return "slides"
    return "chart" if find_chart_blocks(text) else ""


def views(path: str, text: str | None, width: int = 72) -> list[tuple[str, list[str]]]:
    """(heading, lines) per view of the file's form: one per slide, one per chart, one for a
    canvas; [] for a plain page."""
    form = form_of(path, text)
    if not form:
        return []
    assert text is not None
    if form == "canvas":
        try:
            return [("Canvas", describe(check_canvas(text), width))]
        except CanvasError as exc:
            return [("Canvas (not valid)", [str(exc)])]
    if form == "slides":
        deck = slides(text)
        return [(f"Slide {i} of {len(deck)}", s.splitlines()) for i, s in enumerate(deck, 1)]
    out = []
    blocks = find_chart_blocks(text)
    for i, block in enumerate(blocks, 1):
        heading = f"Chart {i} of {len(blocks)} (page line {block.line})"
        try:
            out.append((heading, render_text(parse_spec(block.body, block.first_line), width)))
        except ChartError as exc:
            out.append((heading, [f"not a valid chart spec: {exc}"]))
    return out
