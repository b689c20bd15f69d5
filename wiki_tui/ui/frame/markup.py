"""A markdown source line shown as text, where the app quotes one: search snippets, backlink
context, log entries. `[[target|Title]]` reads Title, `[[folder/page]]` reads page, `[text](url)`
reads text; emphasis and code markers, backslash escapes and leading heading, list and quote
markers go. Highlight spans given in the source line come back placed in the shown text.
"""

from __future__ import annotations

import re

Spans = tuple[tuple[int, int], ...]

_MARKUP = re.compile(
    r"(?P<lead>^[ \t]*(?:(?:#{1,6}|>|[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?)+)"
    r"|!?\[\[(?P<target>(?:[^\[\]|/]*/)*(?P<name>[^\[\]|/]*?))(?:\\?\|(?P<alias>[^\[\]]*))?\]\]"
    r"|!?\[\[(?P<cut>[^\[\]]*)$"  # a link a snippet was cut inside
    r"|!?\[(?P<text>[^\[\]]*)\]\([^()\s]*\)"
    r"|\\(?P<escaped>[\\`*_{}\[\]()#+\-.!|~<>])"
    r"|\*\*|__|~~|`"
)


def readable(line: str, spans: Spans = (), limit: int = 0) -> tuple[str, Spans]:
    """The shown text, stripped (and cut to `limit` characters with "…" when given), and
    `spans` (start, end offsets in `line`) moved onto it; a span that falls wholly in markup
    that is not shown is dropped."""
    kept: list[tuple[int, int]] = []  # (start, end) in `line` of each piece shown, in order
    pos = 0
    for match in _MARKUP.finditer(line):
        kept.append((pos, match.start()))
        kept.append(_shown_part(match, spans))
        pos = match.end()
    kept.append((pos, len(line)))
    text = "".join(line[a:b] for a, b in kept)
    lead = len(text) - len(text.lstrip())
    text = text.strip()
    if limit and len(text) > limit:
        text = text[:limit - 1] + "…"
        usable = limit - 1  # a span stops before the "…"
    else:
        usable = len(text)

    def shown_at(offset: int) -> int:
        """Where `offset` of `line` lands in the shown text (markup: where it was dropped)."""
        done = 0
        for a, b in kept:
            if offset < b:
                return done + max(offset - a, 0) - lead
            done += b - a
        return done - lead

    moved = []
    for a, b in spans:
        if 0 <= a < b <= len(line):
            a, b = max(shown_at(a), 0), min(shown_at(b), usable)
            if a < b:
                moved.append((a, b))
    return text, tuple(moved)


def _shown_part(match: re.Match, spans: Spans) -> tuple[int, int]:
    """The part of a markup match that stays on screen (empty for pure markers)."""
    if match.group("target") is not None:
        if match.group("alias"):
            alias, target = match.span("alias"), match.span("target")
            # a highlight only in the hidden target shows the target instead
            return target if _only_in(spans, target, alias) else alias
        name, target = match.span("name"), match.span("target")
        if not match.group("name") or _only_in(spans, (target[0], name[0]), name):
            return target  # a highlight in the folder part shows it
        return name
    for group in ("cut", "text", "escaped"):
        if match.group(group) is not None:
            return match.span(group)
    return match.end(), match.end()


def _only_in(spans: Spans, hidden: tuple[int, int], shown: tuple[int, int]) -> bool:
    """Some span touches `hidden` and none touches `shown`."""
    def touches(part: tuple[int, int]) -> bool:
        return any(a < part[1] and b > part[0] for a, b in spans)
    return touches(hidden) and not touches(shown)


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """'1 match', '2 matches', '0 entries': a count with its noun in the right number
    (`plural` defaults to `singular` + "s", "es" after s, x, z, ch and sh)."""
    if n == 1:
        return f"{n} {singular}"
    if plural is None:
        plural = singular + ("es" if singular.endswith(("s", "x", "z", "ch", "sh")) else "s")
    return f"{n} {plural}"
