"""A gold fact as a claim (what it is about, which value), read against a page or an answer.

A claim is **asserted** where one sentence names what it is about (`about`, a regex such as
"open" or "cables"; none for an answer's own question) and states the gold value, asserted in
its clause (polarity.py). It is **contradicted** where such a sentence does not assert the gold
value but asserts another value of the same kind (a year for a year, tonnes for tonnes), the
one written nearest to what the claim is about. Negated, contrasted, hedged, quoted, struck,
historical and footnoted values count neither way. A claim is credited when it is asserted and
contradicted nowhere in the text.

An unanswerable question is declined when the answer says the wiki does not hold it and
asserts no value of the asked kind (hedged and quoted values count as asserting one here: a
guess is an answer). A contradiction is flagged when a callout or finding asserts a conflict
(not denied: "no contradiction", "the same event", "both are right" ...) and names both sides.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from wiki_tui.eval.claims.polarity import ASKED, ASSERTED, NEGATED, clause_span, polarity
from wiki_tui.eval.claims.prose import Sentence, sentences
from wiki_tui.eval.claims.values import KINDS, TEXT, YEAR, Value, parse_value, values_in


@dataclass(frozen=True)
class Claim:
    value: str  # the gold value as written ("1898", "40", "48 m", "£84,000", "Mara Quell")
    kind: str = TEXT  # year | count | measure | money | text
    about: str = ""  # regex of what the value is of ("open", "cables"); "" reads every sentence

    @classmethod
    def from_json(cls, raw: dict) -> "Claim":
        claim = cls(str(raw.get("value", "")), str(raw.get("kind", TEXT)),
                    str(raw.get("about", "")))
        if claim.kind not in KINDS:
            raise ValueError(f"claim kind must be one of {', '.join(KINDS)}, not {claim.kind!r}")
        if claim.value:
            claim.gold()  # a value that does not read as its kind is the suite's error
        return claim

    def gold(self) -> Value | None:
        return None if self.kind == TEXT else parse_value(self.value, self.kind)

    def about_re(self) -> re.Pattern | None:
        return re.compile(rf"\b(?:{self.about})", re.IGNORECASE) if self.about else None


@dataclass(frozen=True)
class Reading:
    asserted: bool = False
    contradicted: bool = False
    wrong: tuple[str, ...] = ()  # the values asserted in the gold value's place

    @property
    def credited(self) -> bool:
        return self.asserted and not self.contradicted


def read_claim(claim: Claim, text: str, *, callouts: bool = False,
               answer: bool = False) -> Reading:
    """How `text` holds `claim` (contradiction callouts are read only with `callouts`). An
    `answer` that never names what the claim is about ("In 1898.") is read sentence by
    sentence, each about the question: its value said first is the one it gives."""
    about = claim.about_re()
    found = sentences(text, callouts=callouts)
    if answer and about is not None and not any(about.search(s.text) for s in found):
        about = re.compile(r"^")
    asserted, wrong = False, []
    carried = False  # the last sentence was about the claim ("it", "its" ... go on with it)
    for sentence in found:
        cues = [m.start() for m in about.finditer(sentence.text)] if about else [0]
        # "it", "its" ... may go on with what the last sentence was about, or with its
        # subject: such a sentence can say the gold value, it is not read as denying it
        going_on = not cues and carried and _GOES_ON.match(sentence.text) is not None
        carried = bool(cues)
        if not cues and not going_on:
            continue
        said = [(pos, gold, written) for pos, gold, state, written
                in _occurrences(claim, sentence) if state == ASSERTED]
        asserted = asserted or any(gold for _pos, gold, _w in said)
        if about is None or not said or going_on:
            continue
        positions = [pos for pos, _gold, _w in said]  # in order
        for cue in cues:  # the value said nearest to what the claim is about, in its clause
            lo, hi = clause_span(sentence, cue)  # if its clause says one, else in the sentence
            first, stop = bisect_left(positions, lo), bisect_left(positions, hi)
            if first == stop:
                first, stop = 0, len(said)
            i = min(max(bisect_left(positions, cue, first, stop), first), stop - 1)
            near = min((j for j in (i - 1, i) if first <= j < stop),
                       key=lambda j: abs(positions[j] - cue))
            if not said[near][1]:
                wrong.append(said[near][2])
    return Reading(asserted, bool(wrong), tuple(dict.fromkeys(wrong)))


_GOES_ON = re.compile(r"(?:it|its|it's|this|that|these|they|their|she|he|her|his)\b",
                      re.IGNORECASE)


def _occurrences(claim: Claim, sentence: Sentence) -> list[tuple[int, bool, str, str]]:
    """(position, is the gold value, polarity, as written) of every value of the claim's kind
    in the sentence (for a text claim, of the gold words only)."""
    text = sentence.text
    if claim.kind == TEXT:
        pattern = re.compile(rf"(?<!\w){claim.value}(?!\w)", re.IGNORECASE)
        return [(m.start(), True, polarity(sentence, m.start(), m.end()), m.group())
                for m in pattern.finditer(text)]
    gold = claim.gold()
    values = [v for v in values_in(text) if v.comparable(gold)]
    out = [(v.start, v.same(gold), polarity(sentence, v.start, v.end, dated=v.kind == YEAR),
            text[v.start:v.end]) for v in values]
    for i in range(len(values) - 1):  # a span of years with the gold one at one end says it
        a, b = values[i], values[i + 1]
        if gold.kind != YEAR:
            break
        if (a.same(gold) or b.same(gold)) and _RANGE.match(text[a.end:b.start]):
            out[i], out[i + 1] = out[i][:1] + (True,) + out[i][2:], \
                out[i + 1][:1] + (True,) + out[i + 1][2:]
    return out


_RANGE = re.compile(r"^\s*(?:-|–|—|to|until|till|and|through)\s*$", re.IGNORECASE)


# -- unanswerable questions ----------------------------------------------------------------------
_DECLINE = re.compile(
    r"\b(?:does not|doesn't|do not|don't|cannot|can't|could not|couldn't|no|none|nothing)\b"
    r"[^.\n]{0,60}?\b(?:say|says|state|states|mention|mentions|record|records|contain|contains|"
    r"hold|holds|information|answer|cover|covers|find|know|give|gives|figure|data|record)\b"
    r"|\bnot (?:in|covered|mentioned|recorded|stated|given|known)\b", re.IGNORECASE)


def declines(answer: str, claim: Claim) -> bool:
    """The answer says the wiki does not hold it, and offers no value of the asked kind
    (where the claim says what it is about, in a sentence about that)."""
    text = answer or ""
    if not _DECLINE.search(" ".join(text.split())):
        return False
    about = claim.about_re()
    family = claim.gold() if claim.value and claim.kind != TEXT else None
    for sentence in sentences(text):
        if about is not None and not about.search(sentence.text):
            continue
        for value in values_in(sentence.text):
            if value.kind != claim.kind or (family is not None and not value.comparable(family)):
                continue
            if polarity(sentence, value.start, value.end,
                        dated=value.kind == YEAR) not in (NEGATED, ASKED):
                return False
    return True


# -- contradictions ----------------------------------------------------------------------------
_CONFLICT = re.compile(r"contradict|conflict|disagree|differ|inconsisten|discrepan|\bvs\.?\b|"
                       r"\bversus\b|\bbut\b|\bwhile\b|\bwhereas\b", re.IGNORECASE)
_DENIED = re.compile(
    r"\b(?:no|not|n't|never|without|nor)\b[^.;\n]{0,40}?(?:contradict|conflict|disagree|"
    r"inconsisten|discrepan|dispute)|n['’]t\s+(?:really\s+)?(?:contradict|conflict|disagree)|"
    r"\bsame (?:event|thing|date|figure|fact|claim)|\bboth (?:\w+ ){0,5}(?:right|correct|true|"
    r"valid|accurate)\b|\breconcil\w*|\bonly apparent\b|\bapparent(?:ly)? (?:contradiction|"
    r"conflict)|\b(?:are|is|remain) consistent\b|\bconsistent with each other\b|"
    r"\bcompatible\b|\bresolved\b|\bexplained by\b|\bnothing to (?:flag|fix)\b",
    re.IGNORECASE)


def asserts_conflict(text: str) -> bool:
    """The text says two claims conflict, and does not take it back."""
    flat = " ".join(text.split())
    return bool(_CONFLICT.search(flat)) and not _DENIED.search(flat)


def names_both(text: str, claims: list[str]) -> bool:
    """Every side of a contradiction is named in `text` (a number as a number, however
    written; words as words)."""
    return all(_mentions(text, claim) for claim in claims)


def _mentions(text: str, claim: str) -> bool:
    wanted = values_in(claim)
    if len(wanted) == 1 and wanted[0].end - wanted[0].start >= len(claim.strip()) - 1:
        return any(v.amount == wanted[0].amount for v in values_in(text))
    return re.search(rf"(?<!\w){re.escape(claim)}(?!\w)", text, re.IGNORECASE) is not None
