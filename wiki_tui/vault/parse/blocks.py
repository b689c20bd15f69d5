"""The block side of scanning markdown: which text is prose, and its headings and block ids.

Fenced code (any fence length, to EOF when unclosed), indented code, inline code spans
(backtick runs of any length, over lines within a paragraph) and ``%% comments %%`` are
not prose; what is left are *prose spans* (offset ranges) where links, tags and mentions
live (see links.py). Every search pointer only moves forward, so any input is linear.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["BlockPass", "Heading", "LineIndex", "heading_text"]


@dataclass(slots=True)
class Heading:
    level: int
    text: str
    line: int


# Only "hard" lines (a possible fence, an indented line, a line with %%) are looked at
# one by one; the stretches between them are prose as a whole. The little context a hard
# line needs (blank line before? inside a list?) is read backwards from it.

_NEEDLES = ("%%", "\n    ", "\n\t")  # the last two: an indented line
_SPACES_TAB = re.compile(r"\n {1,3}\t")
_FENCE_LINE = re.compile(r"\n[ \t]*+(?:>[ \t]*+)*+(?:```|~~~)")
_FIRST_LINE_HARD = re.compile(r"[ \t]*+(?:>[ \t]*+)*+(?:```|~~~)|    | {0,3}\t")
_FENCE_OPEN = re.compile(r"(`{3,}|~{3,})(.*)")
_LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_HEADING_AT = re.compile(r"^ {0,3}(#{1,6})(?=[ \t]|\r?$)", re.M)
_HEADING_CLOSE = re.compile(r"(?:^|[ \t])#+$")
_HEADING_NL = re.compile(r"\n {0,3}(#{1,6})(?=[ \t]|\r?$)", re.M)
_BLOCK_ID = re.compile(r"\^([A-Za-z0-9-]+)[ \t]*\r?$", re.M)
_SETEXT = re.compile(r"\n {0,3}(=+|-{2,})[ \t]*\r?$", re.M)
_SETEXT_LINE = re.compile(r"(?:=+|-{2,})$")
_BACKTICKS = re.compile(r"`+")
# A newline that ends a paragraph: a blank line follows, or a line that starts a new block
_PARA_BREAK = re.compile(
    r"\n(?:[ \t]*\r?$|[ \t]{0,3}(?:[-*+][ \t]|\d{1,9}[.)][ \t]|#{1,6}(?:[ \t]|\r?$)|>|\|))",
    re.M,
)
_QUOTE_PREFIX = re.compile(r"[ \t]{0,3}(?:>[ \t]?)+")
_CODE_END = re.compile(r"^(?![ \t]*\r?$)(?! {4}| {0,3}\t)", re.M)  # first line not indented code
_UNQUOTED = re.compile(r"^(?![ \t]{0,3}>)", re.M)


@lru_cache(maxsize=64)
def _fence_close(ch: str, n: int) -> re.Pattern[str]:
    return re.compile(r"^[ \t]*+(?:>[ \t]*+)*+" + re.escape(ch) + f"{{{n},}}[ \t]*\r?$", re.M)


def indent_width(line: str) -> int:
    """Visual indent, tabs to the next multiple of 4."""
    width = 0
    for ch in line:
        if ch == " ":
            width += 1
        elif ch == "\t":
            width += 4 - width % 4
        else:
            break
    return width


class LineIndex:
    """Line numbers and columns for offsets, cheap when asked in increasing order."""

    __slots__ = ("text", "pos", "line", "line_start")

    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self.line = 1
        self.line_start = 0

    def at(self, offset: int) -> tuple[int, int]:
        """(1-based line, 0-based column) of ``offset``."""
        text = self.text
        if offset < self.pos:
            self.pos, self.line, self.line_start = 0, 1, 0
        k = text.count("\n", self.pos, offset)
        if k:
            self.line += k
            self.line_start = text.rfind("\n", self.pos, offset) + 1
        self.pos = offset
        return self.line, offset - self.line_start


class BlockPass:
    """One pass over ``text[start:]``: ``blocks()`` fills ``spans`` (prose outside code and
    comments), then ``meta()`` fills ``headings`` and ``block_ids`` from the prose."""

    __slots__ = (
        "text",
        "spans",
        "headings",
        "block_ids",
        "lines",
        "in_comment",
        "start",
        "cache",
        "has_tab",
        "list_memo",
    )

    def __init__(self, text: str, start: int = 0):
        self.text = text
        self.spans: list[tuple[int, int]] = []
        self.headings: list[Heading] = []
        self.block_ids: list[str] = []
        self.lines = LineIndex(text)
        self.in_comment = False
        self.start = start
        self.cache = [-2] * (len(_NEEDLES) + 1)  # the last: _FENCE_LINE
        self.has_tab = text.find("\t", start) != -1
        self.list_memo = (-1, False)  # (line start, inside a list?) of the last lookup

    # -- inline code and %% comments inside prose ---------------------------
    def add_span(self, a: int, b: int) -> None:
        """Add a prose span, merged with the previous one when they touch."""
        spans = self.spans
        if spans and spans[-1][1] == a:
            spans[-1] = (spans[-1][0], b)
        else:
            spans.append((a, b))

    def inline(self, a: int, b: int) -> None:
        """Add prose spans for text[a:b] (prose lines) minus inline code and %% comments."""
        text = self.text
        add = self.add_span
        ls = a
        has_tick = text.find("`", ls, b) >= 0
        next_pct = text.find("%%", ls, b)
        if not has_tick and next_pct == -1:
            if a < b:
                add(a, b)
            return
        runs: list[tuple[int, int]] = []  # (start, length) of backtick runs
        by_len: dict[int, list[int]] = {}  # run length -> indexes into runs
        if has_tick:
            # str.find jumps between backticks; a regex finditer would test every offset
            i = text.find("`", ls, b)
            while i != -1:
                j = _BACKTICKS.match(text, i, b).end()
                by_len.setdefault(j - i, []).append(len(runs))
                runs.append((i, j - i))
                i = text.find("`", j, b)
        ri = 0  # next run to consider
        nl = -2  # next newline at or after the current run (-1: none)
        para_end = -2  # where the current paragraph ends
        pos = seg = a  # seg: start of the current prose segment
        while True:
            while ri < len(runs) and runs[ri][0] < pos:
                ri += 1
            if next_pct != -1 and next_pct < pos:
                next_pct = text.find("%%", pos, b)
            tick = runs[ri][0] if ri < len(runs) else -1
            if tick == -1 and next_pct == -1:
                break
            if next_pct != -1 and (tick == -1 or next_pct < tick):
                if seg < next_pct:
                    add(seg, next_pct)
                close = text.find("%%", next_pct + 2, b)
                if close < 0:
                    self.in_comment = True  # runs on to a closing %% in a later line
                    return
                pos = seg = close + 2
                continue
            start, n = runs[ri]
            same = by_len[n]
            k = bisect_right(same, ri)
            close_start = runs[same[k]][0] if k < len(same) else -1
            if close_start != -1:
                if nl != -1 and nl < start:
                    nl = text.find("\n", start, b)
                if nl != -1 and nl < close_start:
                    # a code span may run on over lines, within one paragraph; the
                    # paragraph's end is known already when this line lies inside it
                    if para_end < nl:
                        line_start = max(text.rfind("\n", a, start) + 1, a)
                        if _HEADING_AT.match(text, line_start):
                            para_end = nl  # a heading is a block of one line
                        else:
                            m = _PARA_BREAK.search(text, nl, b)
                            para_end = m.start() if m else b
                    if para_end < close_start:
                        close_start = -1
            if close_start != -1:  # a closing run of the same length: a code span
                if seg < start:
                    add(seg, start)
                pos = seg = close_start + n
            else:  # unmatched run: literal backticks
                pos = start + n
        if seg < b:
            add(seg, b)

    # -- context read backwards from a line start ----------------------------
    def _prev_line(self, ls: int) -> str | None:
        if ls <= self.start:
            return None
        q = self.text.rfind("\n", self.start, ls - 1) + 1
        return self.text[max(q, self.start) : ls - 1]

    def _in_list(self, ls: int) -> bool:
        """Is the line at ``ls`` inside a list (indented text there is not code)?

        Walks back over blank and indented lines to the line that decides. The previous
        answer is remembered: a walk that reaches its line can stop there, so a long list
        of indented paragraphs costs linear time.
        """
        text = self.text
        cached_at, cached = self.list_memo
        result = False
        p = ls
        while p > self.start:
            q = max(text.rfind("\n", self.start, p - 1) + 1, self.start)
            if q == cached_at:
                result = cached
                break
            line = text[q : p - 1]
            stripped = line.lstrip(" \t>")
            if stripped.strip():
                if _LIST_ITEM.match(stripped):
                    result = True
                    break
                if line[0] not in " \t":
                    break
            p = q
        self.list_memo = (ls, result)
        return result

    # -- the block pass ------------------------------------------------------
    def _next_hard(self, pos: int) -> int:
        """Offset of the next thing that may end plain prose: "%%", or the start of a line
        that may open a fence or indented code. Every pointer only moves forward."""
        text = self.text
        cache = self.cache
        best = len(text)
        lo_nl = pos - 1 if pos > 0 else 0
        for k in range(len(_NEEDLES)):
            c = cache[k]
            if c == -1:
                continue
            lo = lo_nl if k else pos
            if c < lo:
                c = cache[k] = text.find(_NEEDLES[k], lo)
                if c == -1:
                    continue
            hit = c + 1 if k else c
            if hit < best:
                best = hit
        c = cache[-1]
        if c != -1 and c < lo_nl:
            if text.find("```", lo_nl) == -1 and text.find("~~~", lo_nl) == -1:
                c = cache[-1] = -1  # cheap test first: most pages have no fences
            else:
                m = _FENCE_LINE.search(text, lo_nl)
                c = cache[-1] = m.start() if m else -1
        if c != -1 and c + 1 < best:
            best = c + 1
        if self.has_tab:
            m = _SPACES_TAB.search(text, lo_nl, best)
            if m is not None:
                best = m.start() + 1
        if pos == 0 and best > 0 and _FIRST_LINE_HARD.match(text):
            best = 0
        return best

    def blocks(self) -> None:
        text = self.text
        n = len(text)
        pos = prose_from = self.start  # pos: always a line start
        while pos < n:
            if self.in_comment:
                j = text.find("%%", pos)
                if j < 0:
                    return  # an unclosed %% comments out the rest (as Obsidian does)
                self.in_comment = False
                pos = prose_from = j + 2
                le = text.find("\n", j)
                if le == -1:
                    break
                self.inline(prose_from, le + 1)
                pos = prose_from = le + 1
                continue
            i = self._next_hard(pos)
            if i >= n:
                break
            le = text.find("\n", i)
            le = n if le == -1 else le
            next_line = min(le + 1, n)
            if text.startswith("%%", i):
                self.inline(prose_from, next_line)
                pos = prose_from = next_line
                continue
            e = le - 1 if le > i and text[le - 1] == "\r" else le
            skip_to = self._block_line(i, e)
            if skip_to is None:  # not a block after all: prose
                pos = next_line
                continue
            self.inline(prose_from, i)
            pos = prose_from = skip_to
        if prose_from < n and not self.in_comment:
            self.inline(prose_from, n)

    def _block_line(self, ls: int, e: int) -> int | None:
        """For a fence or indented-code start at ``ls``: the offset after the block."""
        text = self.text
        n = len(text)
        line = text[ls:e]
        stripped = line.lstrip(" \t")
        if not stripped:
            return None
        quoted = False
        if stripped[0] == ">":
            qm = _QUOTE_PREFIX.match(line)
            if qm:
                quoted = True
                stripped = line[qm.end() :].lstrip(" \t")
                if not stripped:
                    return None
        width = indent_width(line)
        first = stripped[0]
        if first == "`" or first == "~":
            fm = _FENCE_OPEN.match(stripped)
            if fm and not (first == "`" and "`" in fm.group(2)):
                if width < 4 or quoted or self._in_list(ls):
                    close = _fence_close(first, len(fm.group(1))).search(text, e)
                    end = n
                    if close is not None:
                        nl = text.find("\n", close.end())
                        end = n if nl == -1 else nl + 1
                    if quoted:  # a fence in a quote also ends where the quote ends
                        uq = _UNQUOTED.search(text, min(e + 1, n), end)
                        if uq is not None and uq.start() < n:
                            end = uq.start()
                    return end
        if width >= 4 and not quoted:
            prev = self._prev_line(ls)
            prev_s = prev.strip() if prev is not None else ""
            after_break = not prev_s or _HEADING_AT.match(prev) is not None
            if after_break and not self._in_list(ls):
                stop = _CODE_END.search(text, min(e + 1, n))
                return n if stop is None else stop.start()
        return None

    # -- headings, block ids -------------------------------------------------
    def meta(self) -> None:
        text = self.text
        out = self
        lines = LineIndex(text)
        n = len(text)
        setext = False
        for a, b in out.spans:
            if text.find("#", a, b) != -1:
                # a heading starts a line: at ``a`` only if ``a`` is a line start
                lo = a - 1 if a > 0 and text[a - 1] == "\n" else a
                if a == 0:
                    m0 = _HEADING_AT.match(text, 0, b)
                    if m0:
                        self._heading(m0.start(), m0.end(), len(m0.group(1)), lines)
                for m in _HEADING_NL.finditer(text, lo, b):
                    self._heading(m.start() + 1, m.end(), len(m.group(1)), lines)
            if text.find("=", a, b) != -1 or text.find("--", a, b) != -1:
                for m in _SETEXT.finditer(text, max(a - 1, 0), b):
                    level = 1 if m.group(1)[0] == "=" else 2
                    setext = self._setext(m.start() + 1, level, a, lines) or setext
            if text.find("^", a, b) != -1:
                for m in _BLOCK_ID.finditer(text, a, b):
                    i, end = m.start(), m.end()
                    if i > 0 and text[i - 1] not in " \t\n":
                        continue
                    if end < n and text[end] != "\n":
                        continue  # the span ended before the line did (inline code)
                    ls = text.rfind("\n", 0, i) + 1
                    if _HEADING_AT.match(text, ls):
                        continue
                    out.block_ids.append(m.group(1))
        if setext:  # found in a second sweep: put them in file order
            out.headings.sort(key=lambda h: h.line)

    def _setext(self, underline: int, level: int, span_start: int, lines: LineIndex) -> bool:
        """A paragraph underlined with ``===`` or ``---`` is a heading whose text is the
        paragraph; right after a blank line, list item, quote or heading it is not."""
        text = self.text
        pieces = []
        first = -1
        p = underline - 1  # the newline that ends the line above
        while p > span_start:
            q = text.rfind("\n", 0, p) + 1
            line = text[q:p].strip()
            if not line or line[0] in ">|" or _LIST_ITEM.match(line):
                break
            if _HEADING_AT.match(line) or _SETEXT_LINE.match(line):
                break
            pieces.append(line)
            first = q
            if q <= span_start:
                break  # the line began before this prose span (after code or a comment)
            p = q - 1
        if not pieces:
            return False
        text_ = " ".join(reversed(pieces))
        self.headings.append(Heading(level, text_, lines.at(first)[0]))
        return True

    def _heading(self, start: int, end: int, level: int, lines: LineIndex) -> None:
        self.headings.append(Heading(level, heading_text(self.text, end), lines.at(start)[0]))


def heading_text(text: str, end: int) -> str:
    """The text of the ATX heading whose ``#`` marks end at ``end``: the rest of its line,
    trimmed, without a closing run of ``#``."""
    le = text.find("\n", end)
    htext = text[end:le].strip() if le != -1 else text[end:].strip()
    if htext.endswith("#"):
        htext = _HEADING_CLOSE.sub("", htext).rstrip()
    return htext
