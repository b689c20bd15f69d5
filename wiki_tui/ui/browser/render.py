"""Turn prepared markdown units into styled terminal lines (Rich, off the event loop).

Each unit is one Rich `Markdown` rendered at the view's width. Links are written as
`[text](wiki:N)`; Rich marks their cells with that URL, and `render_unit` lifts it out into
`link_spans` so the view can style links (resolved, unresolved, selected) at paint time without
rendering again. Headings are left-aligned and every colour comes from the view's component styles,
so the app's theme applies. Code is syntax-highlighted only on pages below the fast-path size. A
```chart block is drawn as a text chart (forms/chart_text.py; the SVG is what Obsidian shows).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

from markdown_it import MarkdownIt
from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import CodeBlock, Heading, Markdown
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.syntax import Syntax
from rich.text import Text
from rich.theme import Theme

WIKI_SCHEME = "wiki:"
# The markdown style names Rich looks up; the view fills them from its component classes.
MARKDOWN_STYLE_NAMES = (
    "markdown.paragraph", "markdown.text", "markdown.em", "markdown.emph", "markdown.strong",
    "markdown.code", "markdown.code_block", "markdown.block_quote", "markdown.list",
    "markdown.item", "markdown.item.bullet", "markdown.item.number", "markdown.hr",
    "markdown.h1.border", "markdown.h1", "markdown.h2", "markdown.h3", "markdown.h4",
    "markdown.h5", "markdown.h6", "markdown.h7", "markdown.link", "markdown.link_url",
    "markdown.s", "markdown.table.border", "markdown.table.header", "markdown.kbd",
)


class _LeftHeading(Heading):
    """Every heading level flush left (Rich centres h1 in a box)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        text = self.text.copy()
        text.justify = "left"
        yield text


class _HighlightedCode(CodeBlock):
    """A code block highlighted with the terminal's own palette (readable in 256 colours)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        code = str(self.text).rstrip()
        yield Syntax(code, self.lexer_name, theme=self.theme, word_wrap=True, padding=(0, 1),
                     background_color="default")


class _PlainCode(CodeBlock):
    """The fast path: code as styled text, no lexer (lexing dominates big pages)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        code = str(self.text).rstrip()
        yield Padding(Text(code, style="markdown.code_block"), (0, 1))


def _chart(block: CodeBlock, options: ConsoleOptions) -> Text | None:
    """A ```chart fence drawn as text (None: not a chart; a spec that does not read says why)."""
    if block.lexer_name != "chart":
        return None
    from wiki_tui.forms.chart_spec import ChartError, parse_spec
    from wiki_tui.forms.chart_text import render_text

    try:
        lines = render_text(parse_spec(str(block.text)), max(30, options.max_width - 2))
    except ChartError as exc:
        return Text(f"chart spec that does not read: {exc}", style="markdown.code_block")
    return Text("\n".join(lines), style="markdown.code_block")


class _ChartFirst:
    """A fence that is a ```chart is drawn as its chart; any other, as the code class after
    this one in the bases draws it."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        chart = _chart(self, options)  # type: ignore[arg-type]
        if chart is None:
            yield from super().__rich_console__(console, options)  # type: ignore[misc]
        else:
            yield Padding(chart, (0, 1))


class _ChartOrCode(_ChartFirst, _HighlightedCode):
    pass


class _ChartOrPlainCode(_ChartFirst, _PlainCode):
    pass


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    """One parser for every unit (Rich builds a new one per Markdown: ~1 ms each)."""
    return MarkdownIt().enable("strikethrough").enable("table")


class _Markdown(Markdown):
    elements = {**Markdown.elements, "heading_open": _LeftHeading,
                "fence": _ChartOrCode, "code_block": _HighlightedCode}

    def __init__(self, markup: str, code_theme: str) -> None:
        # Same attributes as Rich's Markdown.__init__, with the shared parser.
        self.markup = markup
        self.parsed = _parser().parse(markup)
        self.code_theme = code_theme
        self.justify = None
        self.style = "none"
        self.hyperlinks = True
        self.inline_code_lexer = None
        self.inline_code_theme = code_theme


class _FastMarkdown(Markdown):
    elements = {**_Markdown.elements, "fence": _ChartOrPlainCode, "code_block": _PlainCode}


@dataclass
class RenderedUnit:
    lines: list[list[Segment]]
    link_spans: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # row -> (segment, link id)


def make_console(width: int, styles: dict[str, Style]) -> Console:
    return Console(
        width=max(width, 10), file=io.StringIO(), color_system="truecolor", force_terminal=True,
        legacy_windows=False, theme=Theme(styles, inherit=True), emoji=False, highlight=False,
    )


def render_unit(
    console: Console,
    markdown_text: str | Text,
    *,
    highlight_code: bool,
    dark: bool = True,
    external_link: Callable[[str], int],
) -> RenderedUnit:
    """Render one unit; `external_link(url)` registers a non-wiki URL and returns its link id."""
    if isinstance(markdown_text, Text):
        renderable = markdown_text
    else:
        cls = _Markdown if highlight_code else _FastMarkdown
        # ANSI palettes follow the terminal's colours, so code stays readable in 256 colours.
        renderable = cls(markdown_text, code_theme="ansi_dark" if dark else "ansi_light")
    lines = console.render_lines(renderable, console.options, pad=False, new_lines=False)
    spans: dict[int, list[tuple[int, int]]] = {}
    # Every link cell comes with a Style of its own (a unique link id): without the link they
    # are a handful of equal styles, kept once (a 10k-link page held 10k Style objects).
    plain_styles: dict[Style, Style] = {}
    for row, line in enumerate(lines):
        for index, segment in enumerate(line):
            style = segment.style
            if style is None or not style._link:
                continue
            url = style._link
            link_id = int(url[len(WIKI_SCHEME):]) if url.startswith(WIKI_SCHEME) else external_link(url)
            # The view styles links itself; a raw terminal hyperlink would leak `wiki:N`.
            plain = style.update_link(None)
            line[index] = Segment(segment.text, plain_styles.setdefault(plain, plain))
            spans.setdefault(row, []).append((index, link_id))
    return RenderedUnit(lines, spans)
