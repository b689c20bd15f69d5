"""Quotations read for the knowledge diff: a source's own words, which a change may move,
re-wrap, re-punctuate or put in other quote marks, but not reword.

A quotation is text inside quotation marks ("…", “…”, ‘…’ or '…' used as quotes, not as
apostrophes) or a block quote (`> ` lines; a callout, `> [!type]`, is the wiki's own words and
is not read here), of three words or more, in the prose of a page's body (not in code). A
change rewords one when a quotation the page had is gone and one that shares most of its words
takes its place: a word swapped, a phrase shortened or lengthened, words reordered, an ellipsis
put in or taken out. Quotations compare by their words (lower case, punctuation and spacing
aside, an ellipsis kept as a word), so that straight ↔ curly marks, re-wrapping, moving a
quotation whole, a block quote turned inline, and fixing its spacing compare equal; a new
quotation, or one removed together with its sentence, has nothing in its place and is judged
by the other readings.
"""

from __future__ import annotations

import re
from collections import Counter

from wiki_tui.changes.build.knowledge.text import body_start, link_shown

_MIN_WORDS = 3  # fewer is a term or a title ("the “sea clock”"), not a source's sentence
_SHARE = 0.6  # of the shorter quotation's words, shared: the same quotation, reworded
# "…" / '…' in prose; a straight mark after "=" is an HTML attribute, after a word an inch sign
_DOUBLE = re.compile(r'(?<![=\w])(?:"(?=\S)([^"“”\n]*?\S)"|“([^"“”\n]+?)”)(?!\w)')
_SINGLE = re.compile(r"(?<![\w'’])['‘](?=\w)((?:[^'‘’\"“”\n]|['’](?=\w))+?(?<=[\w.,;!?…)\]]))['’](?!\w)")
_TOKEN = re.compile(r"\w+(?:['’]\w+)*|\.\.\.|…")
_INLINE_CODE = re.compile(r"`+[^`\n]*`+")
_BLOCK = re.compile(r"^[ \t]{0,3}>", re.M)
_CALLOUT = re.compile(r"^[ \t]{0,3}(?:>[ \t]*)+\[!")
_MARKERS = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+")
_FENCE = re.compile(r"^[ \t]{0,3}(?:```|~~~)")


def may_quote(gone: str) -> bool:
    """Whether the lines a change removes can hold part of a quotation at all (a quote mark
    or a block-quote line): else no quotation was reworded, and the page is not read."""
    return ('"' in gone or "“" in gone or "”" in gone or "‘" in gone or " '" in gone
            or (">" in gone and _BLOCK.search(gone) is not None))


def _words(text: str) -> tuple[str, ...]:
    return tuple("…" if t == "..." else t.lower().replace("’", "'") for t in _TOKEN.findall(text))


def _paragraphs(text: str) -> list[list[str]]:
    """The body's paragraphs (runs of non-blank lines), outside fenced and indented code."""
    out: list[list[str]] = []
    block: list[str] = []
    fenced = False
    for line in text[body_start(text):].splitlines():
        if _FENCE.match(line):
            fenced, block = not fenced, []
            continue
        if fenced:
            continue
        if not line.strip():
            if block:
                out.append(block)
            block = []
        elif block or not line.startswith(("    ", "\t")):
            block.append(line)
    if block and not fenced:
        out.append(block)
    return out


def quotations(text: str) -> list[tuple[tuple[str, ...], str]]:
    """(words, as written) of each quotation of three words or more in a page's body."""
    return _quoted(_paragraphs(text))


def _quoted(paragraphs: list[list[str]]) -> list[tuple[tuple[str, ...], str]]:
    out = []
    for block in paragraphs:
        quoted = [line for line in block if _BLOCK.match(line)]
        if quoted and _CALLOUT.match(quoted[0]):
            continue  # a callout's lines are the wiki's own words
        prose = " ".join(line.strip() for line in block if not _BLOCK.match(line))
        if quoted:  # a block quote, read whole; blank `>` lines part its paragraphs
            lines = [_MARKERS.sub("", line).strip() for line in quoted]
            for part in "\n".join(lines).split("\n\n"):
                if len(words := _words(link_shown(part))) >= _MIN_WORDS:
                    out.append((words, " ".join(part.split())))
        if not prose or not ('"' in prose or "“" in prose or "'" in prose or "‘" in prose):
            continue
        prose = link_shown(_INLINE_CODE.sub(" ", prose))
        for pattern in (_DOUBLE, _SINGLE):
            for m in pattern.finditer(prose):
                inner = m.group(1) or (m.group(2) if pattern is _DOUBLE else "") or ""
                if len(words := _words(inner)) >= _MIN_WORDS:
                    out.append((words, " ".join(inner.split())))
    return out


def _unkept(paragraphs: list[list[str]], kept: Counter) -> list[list[str]]:
    """`paragraphs` less those of `kept` (as often as it counts them)."""
    left, out = Counter(kept), []
    for block in paragraphs:
        key = tuple(block)
        if left[key] > 0:
            left[key] -= 1
        else:
            out.append(block)
    return out


def _short(text: str, limit: int = 70) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quotes_reworded(base: str, proposed: str, limit: int = 50) -> list[str]:
    """"“old words” → “new words”" for each quotation of `base` whose words `proposed`
    changes while the quotation stays (one sharing most of its words takes its place).
    Callers ask only when `may_quote` holds for the change's removed lines."""
    paragraphs_then, paragraphs_now = _paragraphs(base), _paragraphs(proposed)
    kept = Counter(map(tuple, paragraphs_then)) & Counter(map(tuple, paragraphs_now))
    if kept:  # a paragraph both pages hold, line for line, holds the same quotations
        paragraphs_then = _unkept(paragraphs_then, kept)
        paragraphs_now = _unkept(paragraphs_now, kept)
    then, now = _quoted(paragraphs_then), _quoted(paragraphs_now)
    if not then or not now:
        return []
    kept_then = Counter(w for w, _s in then)
    kept_now = Counter(w for w, _s in now)
    gone = [(w, s) for w, s in then if w not in kept_now][:limit]
    came = [(w, s, Counter(w)) for w, s in now if w not in kept_then][:limit]
    out = []
    for words, shown in gone:
        bag = Counter(words)
        best, best_shared = None, 0
        for new_words, new_shown, new_bag in came:
            shared = sum((bag & new_bag).values())
            if shared > best_shared:
                best, best_shared = (new_words, new_shown), shared
        if best is None:
            continue
        shorter = min(len(words), len(best[0]))
        if best_shared >= max(_MIN_WORDS - 1, _SHARE * shorter):
            out.append(f"“{_short(shown)}” → “{_short(best[1])}”")
    return out
