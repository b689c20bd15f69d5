"""Whether a sentence asserts what is written at one place in it.

The sentence is cut into clauses at "but", "however", "whereas", "although", "though",
"while", "yet", "and" and ":"; a parenthesis is a clause of its own, and the clause around it
reads on across it. For the words at one position, in this order:

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

from wiki_tui.eval.claims.prose import Sentence

ASSERTED, NEGATED, QUOTED, HISTORICAL, HEDGED, ASKED = (
    "asserted", "negated", "quoted", "historical", "hedged", "asked")

_BOUNDARY = re.compile(r",?\s+(?:but|however|whereas|although|though|while|whilst|yet|and)\b"
                       r"|:", re.IGNORECASE)
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
    r"rose|fell|went|moved)\W+(?:[^\W\d][\w'’-]*\W+){0,4}?from\W+)$", re.IGNORECASE)
_HISTORY_AFTER = re.compile(
    r"^\W*(?:[\w'’-]+\W+){0,2}?(?:superseded|outdated|obsolete|no longer|since (?:raised|"
    r"lowered|revised|replaced|corrected))\b", re.IGNORECASE)
_UNTIL_AFTER = re.compile(r"^[\s,]*(?:until|till)\b", re.IGNORECASE)


def polarity(sentence: Sentence, start: int, end: int, *, dated: bool = False) -> str:
    """How the sentence holds the words at [start, end): asserted, negated, quoted,
    historical, hedged or asked. `dated`: the words are a year, for which "until" is part of
    a range, not the mark of a replaced figure."""
    if sentence.question:
        return ASKED
    text = sentence.text
    lo, hi, scope = _clause(text, start)
    before, around = scope[lo:start], scope[lo:hi]
    if _negated(before) or _DENIAL.search(around):
        return NEGATED
    if sentence.quoted(start):
        return QUOTED
    if _HISTORY_BEFORE.search(text[max(0, start - 60):start]) or \
            _HISTORY_AFTER.match(text[end:end + 60]) or \
            (not dated and _UNTIL_AFTER.match(text[end:end + 40])):
        return HISTORICAL
    if _HEDGE.search(around):
        return HEDGED
    return ASSERTED


def _negated(before: str) -> bool:
    for m in _NEGATION.finditer(before):
        rest = before[m.start():]
        if _ASSERTING_NEGATION.match(rest) or _UNTIL.search(rest):
            continue  # "not only", "no later than", "did not open until 1898"
        return True
    for m in _CONTRAST.finditer(before):
        if "," not in before[m.end():]:
            return True
    return False


def _clause(text: str, pos: int) -> tuple[int, int, str]:
    """The clause holding `pos`: (start, end, the text it is read in). Inside a parenthesis,
    the parenthesis; outside, the sentence with its parentheses blanked."""
    spans = _parentheses(text)
    for open_, close in spans:
        if open_ < pos < close:
            inner = text[open_ + 1:close]
            lo, hi = _bounds(inner, pos - open_ - 1)
            return lo + open_ + 1, hi + open_ + 1, text
    scope = list(text)
    for open_, close in spans:
        scope[open_:close + 1] = " " * (close + 1 - open_)
    blanked = "".join(scope)
    lo, hi = _bounds(blanked, pos)
    return lo, hi, blanked


def _bounds(text: str, pos: int) -> tuple[int, int]:
    lo, hi = 0, len(text)
    for m in _BOUNDARY.finditer(text):
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
