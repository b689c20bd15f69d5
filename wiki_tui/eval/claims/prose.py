"""A markdown page or answer as the sentences it says, for reading claims in context.

What asserts nothing is taken out before the text is read: the frontmatter (its `summary` is
kept as a sentence), code, comments, footnote definitions and inline footnotes, struck-through
text (`~~old claim~~`), bare citations (`([[Source]])`), link targets (a link reads as its
shown text; numbers in a page's name are no values), and, when asked, contradiction callouts
(they report two sources' claims, they do not make one). Quoted spans stay in the sentence but
are marked: a quotation is a source's words, not the writer's assertion.

Sentences end at `.`, `!`, `?` (before a capital, a quote or a bracket), at `;` and at an
ellipsis; list items, headings, table rows and quote lines are sentences of their own, and a
paragraph's wrapped lines are joined first. A text is read to its first MAX_CHARS characters,
and every pattern here runs in linear time, so any reply is read in bounded time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FRONTMATTER = re.compile(r"\A---[ \t]*\n(.*?)\n---[ \t]*(?:\n|\Z)", re.DOTALL)
_SUMMARY = re.compile(r"^summary:\s*(.+?)\s*$", re.MULTILINE)
_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*$", re.DOTALL | re.MULTILINE)
_FOOTNOTE_DEF = re.compile(r"^\[\^[^\]\n]+\]:.*(?:\n(?:[ \t]+.*)?)*", re.MULTILINE)
_INLINE_FOOTNOTE = re.compile(r"\^\[[^\[\]\n]*\]|\[\^[^\[\]\n]+\]")
_STRUCK = re.compile(r"~~.+?~~", re.DOTALL)
_CODE = re.compile(r"`[^`\n]*`")
# Every pattern here scans in linear time: no class that can run past the next opening
# bracket or quote (a run of 40,000 "[[" or "“" is read in milliseconds).
_CITATION = re.compile(r" ?\((?:\s*(?:see\s+|source:\s*)?\[\[[^\[\]\n]*\]\][,;]?)+\s*\)")
_EMBED = re.compile(r"!\[\[[^\[\]\n]*\]\]")
_WIKILINK = re.compile(r"\[\[([^\[\]|\n]*)(?:\|([^\[\]\n]*))?\]\]")
_MD_LINK = re.compile(r"!?\[([^\[\]\n]*)\]\([^()\s]*\)")
_URL = re.compile(r"https?://\S+")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)")
_NEW_UNIT = re.compile(r"^\s*(?:#{1,6}\s|[-*+•]\s|\d+[.)]\s|>|\|)")
_MARKER = re.compile(r"^\s*(?:#{1,6}\s+|(?:>\s*)+(?:\[![^\]]*\][-+]?\s*)?|[-*+•]\s+|\d+[.)]\s+)")
_SPLIT = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"”’)]))\s+(?=[\"“‘(\[A-Z0-9])|\s*;\s*"
                    r"|\s*(?:\.\.\.|…)\s*")
_QUOTE = re.compile(r'"[^"\n]+"|“[^“”\n]+”|„[^„“”\n]+[“”]|«[^«»\n]+»|‘[^‘’\n]+’(?!\w)')
_CALLOUT_START = re.compile(r"^\s*>\s*\[!\w+\]")
MAX_CHARS = 100_000  # a page or an answer is read this far (a wiki page is a few KB): bounded


@dataclass(frozen=True)
class Sentence:
    text: str
    quotes: tuple[tuple[int, int], ...] = ()  # spans of quoted words

    @property
    def question(self) -> bool:
        return self.text.rstrip(" )\"”").endswith("?")

    def quoted(self, pos: int) -> bool:
        return any(start <= pos < end for start, end in self.quotes)


def sentences(markdown: str, *, callouts: bool = False) -> list[Sentence]:
    """The sentences of a page or an answer (contradiction callouts left out unless
    `callouts`: they report claims, they do not make them)."""
    text, summary = _body(markdown[:MAX_CHARS])
    if not callouts:
        for callout in contradiction_callouts(text):
            text = text.replace(callout, "")
    out = [_sentence(s) for unit in ([summary] if summary else []) + _units(_clean(text))
           for s in _SPLIT.split(" ".join(unit.split()))]
    return [s for s in out if s.text]


def contradiction_callouts(text: str) -> list[str]:
    """The contradiction callouts of a page (`> [!warning] Contradiction` and its quote
    lines), each as its text."""
    out, current = [], None
    for line in text.splitlines():
        if current is not None and line.lstrip().startswith(">") \
                and not _CALLOUT_START.match(line):
            current.append(line)
            continue
        if current is not None:
            out.append("\n".join(current))
            current = None
        if _CALLOUT_START.match(line):
            current = [line]
    if current is not None:
        out.append("\n".join(current))
    return [c for c in out if "contradict" in c.casefold()]


def flat(text: str) -> str:
    """Text as plain words for comparing quotes: links as their shown text, no emphasis, one
    space for every run of whitespace, case folded."""
    text = _WIKILINK.sub(lambda m: m.group(2) or _name(m.group(1)), text)
    text = _MD_LINK.sub(lambda m: m.group(1), text)
    text = _EMPHASIS.sub("", text.replace("`", ""))
    text = text.replace("“", '"').replace("”", '"').replace("’", "'").replace("‘", "'")
    return " ".join(text.split()).casefold()


def _body(markdown: str) -> tuple[str, str]:
    m = _FRONTMATTER.match(markdown)
    if not m:
        return markdown, ""
    summary = _SUMMARY.search(m.group(1))
    value = summary.group(1).strip() if summary else ""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        value = value[1:-1]
    return markdown[m.end():], _clean(value)


def _clean(text: str) -> str:
    text = _FENCE.sub("", text)
    text = _cut(_cut(text, "<!--", "-->"), "%%", "%%")
    for pattern in (_FOOTNOTE_DEF, _INLINE_FOOTNOTE, _STRUCK, _CODE, _CITATION, _EMBED):
        text = pattern.sub("", text)
    text = _WIKILINK.sub(lambda m: _digits_out(m.group(2) or _name(m.group(1))), text)
    text = _MD_LINK.sub(lambda m: m.group(1), text)
    text = _URL.sub("", text)
    return _EMPHASIS.sub("", text)


def _cut(text: str, opening: str, closing: str) -> str:
    """`text` without its opening...closing spans (comments), in one pass; an unclosed one
    runs to the end."""
    out, pos = [], 0
    while (start := text.find(opening, pos)) >= 0:
        out.append(text[pos:start])
        stop = text.find(closing, start + len(opening))
        pos = len(text) if stop < 0 else stop + len(closing)
    out.append(text[pos:])
    return "".join(out)


def _name(target: str) -> str:
    return target.split("#", 1)[0].rsplit("/", 1)[-1].removesuffix(".md").strip()


def _digits_out(name: str) -> str:
    """A link's words with its digits written out of reach of the value reader: a page's name
    ("[[1902 Engineering Survey]]") names a page, it states no year."""
    return re.sub(r"\d", "#", name)


def _units(text: str) -> list[str]:
    """Paragraphs joined across wrapped lines; list items, headings, table rows and quote
    lines each a unit."""
    units: list[str] = []
    current: list[str] = []

    def close() -> None:
        if current:
            units.append(" ".join(current))
            current.clear()

    for line in text.splitlines():
        if not line.strip():
            close()
            continue
        if _NEW_UNIT.match(line):
            close()
            line = _MARKER.sub("", line)
            if line.lstrip().startswith("|") or line.rstrip().endswith("|"):
                line = " ".join(c.strip() for c in line.strip().strip("|").split("|")
                                if c.strip() and not set(c.strip()) <= set("-: "))
        current.append(line.strip())
    close()
    return units


def _sentence(text: str) -> Sentence:
    text = " ".join(text.split())
    return Sentence(text, tuple((m.start(), m.end()) for m in _QUOTE.finditer(text)))
