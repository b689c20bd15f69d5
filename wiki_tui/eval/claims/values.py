"""The values a sentence states, normalised so that one value written several ways is one value:
"£84,000", "84,000 pounds", "£84k" and "84 thousand pounds"; "48 m", "48 metres" and
"48-metre"; "forty cables" and "40 cables"; "1889" inside "in 1889's spring" (but not the
decade "1890s").

Kinds: year (1000-2099, no unit), count (a bare number or number word), measure (a number with
a unit of length or mass), money (a currency sign or word). Names and phrases (kind text) are
matched by check.py, not here.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

YEAR, COUNT, MEASURE, MONEY, TEXT = "year", "count", "measure", "money", "text"
KINDS = (YEAR, COUNT, MEASURE, MONEY, TEXT)

_SIGNS = {"£": "GBP", "$": "USD", "€": "EUR"}
_CURRENCY_WORDS = {
    "pound": "GBP", "pounds": "GBP", "sterling": "GBP", "gbp": "GBP", "guineas": "GBP",
    "dollar": "USD", "dollars": "USD", "usd": "USD", "euro": "EUR", "euros": "EUR", "eur": "EUR",
}
# unit word -> (family, factor to the family's base unit)
_UNITS = {
    "m": ("m", 1.0), "metre": ("m", 1.0), "metres": ("m", 1.0), "meter": ("m", 1.0),
    "meters": ("m", 1.0), "km": ("m", 1000.0), "kilometre": ("m", 1000.0),
    "kilometres": ("m", 1000.0), "kilometer": ("m", 1000.0), "kilometers": ("m", 1000.0),
    "ft": ("m", 0.3048), "foot": ("m", 0.3048), "feet": ("m", 0.3048),
    "t": ("t", 1.0), "tonne": ("t", 1.0), "tonnes": ("t", 1.0), "ton": ("t", 1.0),
    "tons": ("t", 1.0), "kg": ("t", 0.001), "kilograms": ("t", 0.001),
}
_MULTIPLIERS = {"k": 1e3, "thousand": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "bn": 1e9,
                "billion": 1e9}
_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen"]
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_WORD_VALUE = {w: n for n, w in enumerate(_ONES)} | _TENS | {"hundred": 100, "dozen": 12}

_DIGITS = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d])")
_WORDS = re.compile(
    r"\b(" + "|".join(sorted(_WORD_VALUE, key=len, reverse=True)) + r")(?:-(" +
    "|".join(_ONES[1:10]) + r"))?\b", re.IGNORECASE)
_AFTER = re.compile(r"(?P<mult>\s?(?:k|thousand|million|mn|bn|billion|m)\b)?"
                    r"(?:(?:\s|-|\u00a0)(?P<word>[A-Za-z]+)\b)?")
_BEFORE_WORD = re.compile(r"\b(gbp|usd|eur)\s?$", re.IGNORECASE)


@dataclass(frozen=True)
class Value:
    kind: str  # year | count | measure | money
    amount: float
    unit: str = ""  # measure: "m" or "t"; money: "GBP", "USD", "EUR" or "" (not said)
    start: int = 0  # where it is written in the sentence
    end: int = 0

    def same(self, other: "Value") -> bool:
        """The same value, however each was written."""
        if self.kind != other.kind:
            return False
        if self.kind == MONEY and self.unit and other.unit and self.unit != other.unit:
            return False
        if self.kind == MEASURE and self.unit != other.unit:
            return False
        return abs(self.amount - other.amount) <= 1e-6 * max(abs(self.amount), 1.0)

    def comparable(self, other: "Value") -> bool:
        """Values of one claim: same kind (a measure: same family, metres or tonnes)."""
        return self.kind == other.kind and (self.kind != MEASURE or self.unit == other.unit)


def values_in(text: str) -> list[Value]:
    """Every year, count, measure and sum of money written in `text`, in order."""
    found = [v for v in (_digits_value(text, m) for m in _DIGITS.finditer(text)) if v]
    starts = [v.start for v in found]
    for m in _WORDS.finditer(text):
        i = bisect_right(starts, m.start()) - 1
        if i >= 0 and found[i].start <= m.start() < found[i].end:
            continue  # a word inside a value already read ("48 m" holds no "m" word)
        amount = _WORD_VALUE[m.group(1).lower()] + (
            _ONES.index(m.group(2).lower()) if m.group(2) else 0)
        found.append(_with_unit(text, COUNT, float(amount), "", m.start(), m.end(), False))
    return sorted(found, key=lambda v: v.start)


def parse_value(text: str, kind: str) -> Value:
    """The gold value of a claim ("1898", "40", "48 m", "£84,000") read as `kind`."""
    for value in values_in(text):
        if value.kind == kind or (kind == COUNT and value.kind == YEAR):
            return Value(kind, value.amount, value.unit)
    raise ValueError(f"{text!r} holds no {kind}")


def _digits_value(text: str, m: re.Match) -> Value | None:
    digits, decimals = m.group(1), m.group(2) or ""
    if re.match(r"s\b", text[m.end():]) and len(digits) == 4:
        return None  # a decade ("the 1890s") is no year
    amount = float(digits.replace(",", "") + decimals)
    before = text[max(0, m.start() - 8):m.start()].rstrip()
    currency = _SIGNS.get(before[-1:], "")
    if not currency:
        word = _BEFORE_WORD.search(before)
        currency = word.group(1).upper() if word else ""
    start = text.rfind(before[-1], max(0, m.start() - 8), m.start()) \
        if before[-1:] in _SIGNS else m.start()
    year_like = not decimals and "," not in digits and len(digits) == 4 and \
        1000 <= amount <= 2099
    return _with_unit(text, MONEY if currency else (YEAR if year_like else COUNT), amount,
                      currency, start, m.end(), bool(currency))


def _with_unit(text: str, kind: str, amount: float, currency: str, start: int, end: int,
               money: bool) -> Value:
    """The value with what follows it read: a multiplier ("k", "thousand"), a currency word
    ("pounds"), a unit ("metres", "-tonne")."""
    after = _AFTER.match(text, end)
    mult = (after.group("mult") or "").strip().lower()
    word = (after.group("word") or "").lower()
    word_end = after.end("word") if word else end
    if mult == "m" and not money:
        word, word_end = "m", after.end("mult")  # "48 m": metres, not millions
    elif mult and (money or word in _CURRENCY_WORDS or mult not in ("k", "m")):
        amount *= _MULTIPLIERS[mult]
        end = after.end("mult")
    if word in _CURRENCY_WORDS:
        return Value(MONEY, amount, currency or _CURRENCY_WORDS[word], start, word_end)
    if kind != MONEY and word in _UNITS:
        family, factor = _UNITS[word]
        return Value(MEASURE, amount * factor, family, start, word_end)
    return Value(kind, amount, currency, start, end)
