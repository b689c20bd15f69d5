"""Markdown syntax colours for one diff line at a time (pygments tokens -> Rich Text).

Lines are highlighted one by one, only when drawn, so a huge diff costs only what is on screen.
Token kinds map to a few families (heading, markup, code) whose styles the caller passes in:
the DiffView takes them from its component classes, so the colours are the theme's and are
checked for contrast against the line backgrounds (wiki_tui/ui/frame/contrast.py).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Mapping

from pygments import token as T
from pygments.lexers.markup import MarkdownLexer
from rich.style import Style
from rich.text import Text

TAB = "    "
FAMILIES = {  # the most specific token type first
    T.Generic.Heading: "heading", T.Generic.Subheading: "heading",
    T.Generic.Strong: "strong", T.Generic.Emph: "emph",
    T.Keyword: "markup", T.Name.Tag: "markup", T.Name.Attribute: "markup",
    T.Name.Label: "markup", T.String: "code",
}

_lexer = MarkdownLexer(stripnl=False, ensurenl=False)


@lru_cache(maxsize=4096)
def token_family(token_type) -> str | None:
    while token_type is not None:
        if token_type in FAMILIES:
            return FAMILIES[token_type]
        token_type = token_type.parent
    return None


def highlight_line(text: str, styles: Mapping[str, Style]) -> Text:
    """`text` (one line, no ending) styled as markdown with `styles` per token family; tabs
    expanded, controls made visible."""
    text = printable(text)
    out = Text(no_wrap=True, end="")
    if not text.strip():
        out.append(text)
        return out
    # lexed with its line ending: the lexer's heading and list rules match whole lines only
    for token_type, value in _lexer.get_tokens(text + "\n"):
        if value.endswith("\n"):
            value = value[:-1]
        if value:
            family = token_family(token_type)
            out.append(value, styles.get(family) if family else None)
    return out


def printable(text: str) -> str:
    if "\t" in text:
        text = text.replace("\t", TAB)
    if any(ord(c) < 32 or c == "\x7f" for c in text):
        text = "".join(c if ord(c) >= 32 and c != "\x7f" else f"\\x{ord(c):02x}" for c in text)
    return text
