"""Whether a sentence asserts what is written at one place in it.

The sentence is cut into clauses at "but", "however", "whereas", "although", "though",
"while", "yet", "and" and ":"; a parenthesis is a clause of its own, and the clause around it
reads on across it. Each value is read within its clause, at most WINDOW characters either side
(work per value is bounded, whatever the model wrote). For the words at one position, in this
order:

- asked: the sentence is a question;
- negated: a negation ("not", "never", "no", "n't", "nor" ...) earlier in the clause (except
  "not only", "not until", "no later than" ... which assert), a contrast ("rather than",
  "instead of", "as opposed to", "unlike" ...) earlier in the clause with no comma since, or a
  denial anywhere in the clause ("wrong", "false", "incorrect", "a myth" ...);
- quoted: inside quotation marks (a source's words, not the writer's);
- historical: marked as replaced ("previously", "formerly", "raised from", "superseded", a
  figure "until" a date ...);
- hedged: the clause doubts it ("some say", "reportedly", "perhaps", "may have", "unclear"...);
- asserted: none of these.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

from wiki_tui.eval.claims.prose import Sentence

ASSERTED, NEGATED, QUOTED, HISTORICAL, HEDGED, ASKED = (
    "asserted", "negated", "quoted", "historical", "hedged", "asked")

_BOUNDARY = re.compile(r",?\s(?:but|however|whereas|although|though|while|whilst|yet|and)\b"
                       r"|:", re.IGNORECASE)  # one space: sentences are whitespace-normalised
_NEGATION = re.compile(r"\b(?:not|never|no|nor|neither|none|cannot|without)\b|n['’]t\b",
                       re.IGNORECASE)
_ASSERTING_NEGATION = re.compile(
    r"(?:not|n['’]t)\s+(?:only|just|least|merely)\b|no\s+(?:later|earlier|more|less|fewer|"
    r"sooner)\s+than\b", re.IGNORECASE)
_UNTIL = re.compile(r"\b(?:until|till|before)\b", re.IGNORECASE)
_CONTRAST = re.compile(r"\b(?:rather than|instead of|as opposed to|other than|in place of|"
                       r"unlike|contrary to|as against)\b", re.IGNORECASE)
_DENIAL = re.compile(
    r"\b(?:wrong(?:ly)?|false(?:ly)?|incorrect(?:ly)?|mistaken(?:ly)?|erroneous(?:ly)?|untrue|"
    r"inaccurate|myths?|misprints?|typos?|bogus|spurious|disproved|debunked|refuted|"
    r"discredited|fabricated|made up)\b", re.IGNORECASE)
_HEDGE = re.compile(
    r"\b(?:some (?:say|said|claim|claimed|sources?|accounts?|believe|think|suggest|people)|"
    r"it is (?:said|claimed|rumou?red|thought|believed|sometimes said|often said)|"
    r"reportedly|allegedly|supposedly|purportedly|rumou?r(?:ed|s)?|possibly|perhaps|maybe|"
    r"might|may (?:have|be|well)|could (?:have|be)|probably|presumably|apparently|"
    r"unconfirmed|unverified|uncertain|unclear|unknown|whether|speculat\w*|guess\w*|"
    r"legend has it|i think|i believe|i suspect|the (?:claim|idea|story|rumou?r|notion) that|"
    r"claims? that|conjectur\w*|hypothe\w*)\b", re.IGNORECASE)
_HISTORY_BEFORE = re.compile(
    r"(?:\b(?:previously|formerly|earlier|former|was once|used to be)\W+"
    r"(?:[^\W\d][\w'’-]*\W+){0,2}"
    r"|\b(?:raised|increased|reduced|lowered|changed|cut|revised|corrected|amended|up|down|"
    r"rose|fell|went|moved)\W+(?:[^\W\d][\w'’-]*\W+){0,4}?from\W+"
    r"|\b(?:replac(?:ing|es|ed)|supersed(?:ing|es|ed))\s+(?:the|an?|its|their)\s+"
    r"(?:[^\W\d][\w'’-]*\s+){0,2})$", re.IGNORECASE)
_HISTORY_AFTER = re.compile(
    r"^\W*(?:[\w'’-]+\W+){0,2}?(?:superseded|outdated|obsolete|no longer|since (?:raised|"
    r"lowered|revised|replaced|corrected))\b", re.IGNORECASE)
_UNTIL_AFTER = re.compile(r"^[\s,]*(?:until|till)\b", re.IGNORECASE)


WINDOW = 240  # characters of its clause read on each side of a value (bounded work per value)


def polarity(sentence: Sentence, start: int, end: int, *, dated: bool = False) -> str:
    """How the sentence holds the words at [start, end): asserted, negated, quoted,
    historical, hedged or asked. `dated`: the words are a year, for which "until" is part of
    a range, not the mark of a replaced figure."""
    if sentence.question:
        return ASKED
    text = sentence.text
    layout = _layout(text)
    lo, hi, marks = layout.clause(start)
    lo, hi = max(lo, start - WINDOW), min(hi, end + WINDOW)
    if marks.negated(lo, start) or _within(marks.denial, lo, hi):
        return NEGATED
    if sentence.quoted(start):
        return QUOTED
    if _HISTORY_BEFORE.search(text[max(0, start - 60):start]) or \
            _HISTORY_AFTER.match(text[end:end + 60]) or \
            (not dated and _UNTIL_AFTER.match(text[end:end + 40])):
        return HISTORICAL
    if _within(marks.hedge, lo, hi):
        return HEDGED
    return ASSERTED


def clause_span(sentence: Sentence, pos: int) -> tuple[int, int]:
    """Where the clause that holds `pos` starts and ends in the sentence."""
    lo, hi, _marks = _layout(sentence.text).clause(pos)
    return lo, hi


class _Marks:
    """Where the cues of a text are (start offsets, in order): found once per sentence, so
    that each value is read in O(log n), however many values a sentence holds."""

    def __init__(self, text: str) -> None:
        self.negation = [m.start() for m in _NEGATION.finditer(text)
                         if not _ASSERTING_NEGATION.match(text, m.start())]
        self.until = [m.start() for m in _UNTIL.finditer(text)]
        self.contrast = [m.start() for m in _CONTRAST.finditer(text)]
        self.comma = [i for i, ch in enumerate(text) if ch == ","]
        self.denial = [m.start() for m in _DENIAL.finditer(text)]
        self.hedge = [m.start() for m in _HEDGE.finditer(text)]

    def negated(self, lo: int, pos: int) -> bool:
        """A negation in [lo, pos) with no "until" after it ("did not open until 1898"
        asserts 1898), or a contrast with no comma after it."""
        until = _last(self.until, lo, pos)
        comma = _last(self.comma, lo, pos)
        return _within(self.negation, max(lo, until + 1), pos) or \
            _within(self.contrast, max(lo, comma + 1), pos)


class _Layout:
    """A sentence read once for all its values: its top-level parentheses, the text with them
    blanked, the clause boundaries in that text, and the cues of each."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans = _parentheses(text)
        scope = list(text)
        for open_, close in self.spans:
            scope[open_:close + 1] = " " * (close + 1 - open_)
        blanked = "".join(scope)
        cuts = [(m.start(), m.end()) for m in _BOUNDARY.finditer(blanked)]
        self.starts, self.ends = [c[0] for c in cuts], [c[1] for c in cuts]
        self.outside = _Marks(blanked)
        self._inside: _Marks | None = None

    def clause(self, pos: int) -> tuple[int, int, _Marks]:
        """The clause holding `pos` (start, end) and the cues to read it with: inside a
        parenthesis, the parenthesis; outside, the sentence with its parentheses blanked."""
        i = bisect_right(self.spans, (pos, len(self.text) + 1)) - 1
        if i >= 0 and self.spans[i][0] < pos < self.spans[i][1]:
            open_, close = self.spans[i]
            if self._inside is None:
                self._inside = _Marks(self.text)
            lo, hi = _bounds(self.text, open_ + 1, close, pos)
            return lo, hi, self._inside
        before = bisect_right(self.ends, pos) - 1
        after = bisect_left(self.starts, pos)
        return (self.ends[before] if before >= 0 else 0,
                self.starts[after] if after < len(self.starts) else len(self.text),
                self.outside)


@lru_cache(maxsize=64)
def _layout(text: str) -> _Layout:
    return _Layout(text)


def _within(positions: list[int], lo: int, hi: int) -> bool:
    i = bisect_left(positions, lo)
    return i < len(positions) and positions[i] < hi


def _last(positions: list[int], lo: int, hi: int) -> int:
    """The last position in [lo, hi), else lo - 1."""
    i = bisect_left(positions, hi) - 1
    return positions[i] if i >= 0 and positions[i] >= lo else lo - 1


def _bounds(text: str, lo: int, hi: int, pos: int) -> tuple[int, int]:
    """The clause around `pos` within text[lo:hi] (a parenthesis), read WINDOW either side."""
    lo, hi = max(lo, pos - WINDOW), min(hi, pos + WINDOW)
    for m in _BOUNDARY.finditer(text, lo, hi):
        if m.end() <= pos:
            lo = m.end()
        elif m.start() >= pos:
            hi = m.start()
            break
    return lo, hi


def _parentheses(text: str) -> list[tuple[int, int]]:
    """Top-level (...) spans as (open, close) indexes; an unclosed one runs to the end."""
    spans, depth, open_ = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                open_ = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                spans.append((open_, i))
    if depth:
        spans.append((open_, len(text)))
    return spans
