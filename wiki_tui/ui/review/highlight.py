"""Markdown syntax colours for one diff line at a time (pygments tokens -> Rich Text).

Lines are highlighted one by one, only when drawn, so a huge diff costs only what is on screen.
The ANSI syntax themes keep the colours readable in 256-colour terminals (SSH).
"""

from __future__ import annotations

from functools import lru_cache

from pygments.lexers.markup import MarkdownLexer
from rich.style import Style
from rich.syntax import Syntax
from rich.text import Text

TAB = "    "

_lexer = MarkdownLexer(stripnl=False, ensurenl=False)


@lru_cache(maxsize=2)
def _theme(dark: bool):
    return Syntax.get_theme("ansi_dark" if dark else "ansi_light")


@lru_cache(maxsize=4096)
def _token_style(token_type, dark: bool) -> Style:
    style = _theme(dark).get_style_for_token(token_type)
    return Style(color=style.color, bold=style.bold, italic=style.italic,
                 underline=style.underline)  # the row supplies the background


def highlight_line(text: str, *, dark: bool = True) -> Text:
    """`text` (one line, no ending) coloured as markdown; tabs expanded, controls made visible."""
    text = printable(text)
    out = Text(no_wrap=True, end="")
    if not text.strip():
        out.append(text)
        return out
    for token_type, value in _lexer.get_tokens(text):
        if value:
            out.append(value, _token_style(token_type, dark))
    return out


def printable(text: str) -> str:
    if "\t" in text:
        text = text.replace("\t", TAB)
    if any(ord(c) < 32 or c == "\x7f" for c in text):
        text = "".join(c if ord(c) >= 32 and c != "\x7f" else f"\\x{ord(c):02x}" for c in text)
    return text
