"""Figures read with the words that bound them: "at least 5", "up to 5", "about 5" and "5" say
different things about the same number, as "before 1765" and "after 1765" do.

A change that keeps a number but changes what bounds it ("tested at least 5 times" → "tested 5
times", "more than 5" → "fewer than 5") turns the claim around without touching a figure, so
the figure readings (claim_words.py) never see it. Phrases meaning the same bound are read as
one ("at least" = "no fewer than" = "a minimum of"); "exactly" is the bare number's own bound.
"""

from __future__ import annotations

import re
from collections import Counter

from wiki_tui.changes.build.alternation import Caseless, trie_pattern

# Each bound, by the phrases that say it (longest first within the alternation below).
_BOUNDS = {
    "≥": ("at least", "no fewer than", "no less than", "not fewer than", "not less than",
          "a minimum of", "at minimum", "upwards of", "or more"),
    "≤": ("at most", "no more than", "not more than", "up to", "a maximum of", "at maximum",
          "or fewer", "or less"),
    ">": ("more than", "over", "above", "in excess of", "greater than", "upward of"),
    "<": ("fewer than", "less than", "under", "below", "lower than"),
    "~": ("about", "around", "approximately", "roughly", "circa", "c.", "ca.", "some",
          "close to", "an estimated", "estimated", "of the order of"),
    "≲": ("nearly", "almost", "just under", "just below", "not quite"),
    "≳": ("just over", "just above", "a little over", "slightly over", "slightly more than"),
    "before": ("before", "prior to", "earlier than", "until", "till", "up until", "up till"),
    "after": ("after", "later than"),  # (a date's side: "until 1765" is before it too)
}
_SIGN = {phrase: sign for sign, phrases in _BOUNDS.items() for phrase in phrases}
_BEFORE = sorted((p for p in _SIGN if not p.startswith("or ")), key=len, reverse=True)
_AFTER = [p for p in _SIGN if p.startswith("or ")]
# A span of time counted from something, after its unit: "5 days later" is "after 5 days".
_LATER = {"later": "after", "after": "after", "earlier": "before", "before": "before"}
_SPAN = r"(?:\s+(?:second|minute|hour|day|week|month|year|decade|centur(?:y|ie))s?\s+(" \
    + "|".join(_LATER) + r")\b)"
_NUMBER = r"\d+(?:[.,]\d+)*"
# The phrases as a tree of letters, run over a lower-cased ASCII text (alternation.py): as a
# plain IGNORECASE alternation it tried some 50 phrases at each offset, ~0.4 us a character.
_BOUNDED = Caseless(
    r"(?<![\w.])(?:(" + trie_pattern(_BEFORE) + r")\s+)?(?:exactly\s+|precisely\s+)?"
    r"(" + _NUMBER + r")(?![\d])"
    r"(?:(?:\s+\w+)?\s+(" + trie_pattern(_AFTER) + r")\b|" + _SPAN + ")?")


def bounded(text: str) -> list[tuple[str, str, str]]:
    """(bound sign, number, the bound as written) of each number in `text`; "=" and "" for a
    bare one."""
    out = []
    for m in _BOUNDED.finditer(text):
        later = m.group(4)
        if later and not m.group(1):  # "5 days later" (a bound written first wins)
            out.append((_LATER[later.lower()], m.group(2), later.lower()))
            continue
        phrase = (m.group(1) or m.group(3) or "").lower()
        out.append((_SIGN.get(" ".join(phrase.split()), "="), m.group(2), phrase))
    return out


def bounds_changed(gone: str, came: str) -> list[str]:
    """"at least 5 → 5" for each number the change keeps (as often) while its bound changes.
    `gone`/`came`: the lines the change removes and adds."""
    if not any(c.isdigit() for c in gone):
        return []
    then, now = bounded(gone), bounded(came)
    counts_then = Counter(n for _s, n, _p in then)
    counts_now = Counter(n for _s, n, _p in now)
    out = []
    for number, count in counts_then.items():
        if counts_now[number] != count:
            continue  # the figure itself changed: the figure readings say so
        signs_then = Counter(s for s, n, _p in then if n == number)
        signs_now = Counter(s for s, n, _p in now if n == number)
        if signs_then == signs_now:
            continue
        old = next(p for s, n, p in then if n == number and signs_then[s] > signs_now[s])
        new = next(p for s, n, p in now if n == number and signs_now[s] > signs_then[s])
        out.append(f"“{(old + ' ') if old else ''}{number}” → “{(new + ' ') if new else ''}{number}”")
    return out
