"""The words a sentence's claim rests on, read for the knowledge diff: figures, names, opposites.

A claim changes when its figure changes ("5.1 seconds" → "6.1 seconds"), when the figure stays
but what it counts changes ("5.1 seconds" → "5.1 minutes", "2.5 million" → "2.5 billion",
"19th century" → "18th century", "thirteen" → "thirty"), when a name is put in another's place,
when a word is put in place of its opposite ("slow" → "fast", "confirmed" → "contradicted",
"reliable" → "unreliable"), and when two of its facts trade places ("Harrison beat Mudge" →
"Mudge beat Harrison"). Each function reads plain text and returns values that compare with
`Counter` arithmetic, so that a reworded sentence saying the same thing compares equal: figures
are normalised ("1761–62" = "1761-62", "thirteen" = "13", "fourth" = "4th", "12%" =
"12 per cent", "1765-10-28" = "28 October 1765").
"""

from __future__ import annotations

import re
from collections import Counter

# -- figures -------------------------------------------------------------------------------------
_UNIT = (r"(?i:second|minute|hour|day|week|fortnight|month|year|decade|century|centuries|"
         r"millennium|millennia|(?:milli|centi|kilo)?met(?:er|re)|mm|cm|km|mile|league|foot|feet|"
         r"inch|inches|yard|fathom|knot|(?:kilo|milli)?gram(?:me)?|kg|mg|tonne|ton|pound|ounce|"
         r"lb|oz|guinea|shilling|penny|pence|dollar|euro|franc|crown|ducat|florin|cent|percent|"
         r"per cent|degree|volt|watt|hertz|byte|kb|mb|gb|tb|hundred|thousand|million|billion|"
         r"trillion)s?")
_NUMBER = (r"(?<![\w.])(?P<cur>[£$€¥])?(?P<num>\d+(?:[.,:/\-–]\d+)*)"
           r"(?P<suf>%|(?i:st|nd|rd|th|s)|[a-zA-Z]{1,3})?(?![\w])")
_SMALL = dict(zip("two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                  "fifteen sixteen seventeen eighteen nineteen".split(), range(2, 20)))
_ONES = dict(zip("one two three four five six seven eight nine".split(), range(1, 10)))
_TENS = dict(zip("twenty thirty forty fifty sixty seventy eighty ninety".split(),
                 range(20, 100, 10)))
_ORDINAL = {**dict(zip("third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
                       "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth "
                       "nineteenth".split(), range(3, 20))),
            **dict(zip("twentieth thirtieth fortieth fiftieth sixtieth seventieth eightieth "
                       "ninetieth".split(), range(20, 100, 10))),
            "hundredth": 100, "thousandth": 1000}
_ORDINAL_ONES = {"first": 1, "second": 2, **{k: v for k, v in _ORDINAL.items() if v < 10}}


def _alt(words) -> str:
    return "|".join(sorted(words, key=len, reverse=True))


# "one" and "first" (and "second") are left out alone: "an erratic one", "the first result"
# name no quantity; in a compound ("twenty-one", "thirty-first") they do.
_WORDS = (rf"\b(?i:(?P<tens>{_alt(_TENS)})(?:[- ](?P<ones>{_alt(_ONES)})|[- ](?P<tord>"
          rf"{_alt(_ORDINAL_ONES)}))?|(?P<small>{_alt(_SMALL)})|(?P<ord>{_alt(_ORDINAL)}))\b")
_FIGURE = re.compile(rf"(?:{_NUMBER}|{_WORDS})(?:[`*_]*[ \u00a0\n]+[`*_]*(?P<unit>{_UNIT})\b)?")
_MONTHS = ("January February March April May June July August September October November "
           "December").split()
# Month names and their abbreviations ("18 Nov 1761", "Sept."), read as the full name;
# capitalised only: "may" is a verb, "mar" and "dec" are words.
MONTH_OF = {**{m: m.lower() for m in _MONTHS}, **{m[:3]: m.lower() for m in _MONTHS},
            "Sept": "september"}
_MONTH = re.compile(r"\b(" + "|".join(sorted(MONTH_OF, key=len, reverse=True)) + r")\b")
_HAS_WORD_NUMBER = re.compile(rf"{_WORDS}")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _unit(word: str | None) -> str:
    if not word:
        return ""
    w = " ".join(word.lower().split())
    return " percent" if w in ("per cent", "per cents", "percents") else " " + w


def _token(m: re.Match) -> str:
    g = m.groupdict()
    if g["num"] is not None:
        num = g["num"].replace("–", "-")
        suffix = (g["suf"] or "").lower()
        unit = _unit(g["unit"])
        if suffix == "%":  # 12% = 12 per cent = 12 percent
            suffix, unit = "", " percent"
        return f"{g['cur'] or ''}{num}{suffix}{unit}"
    if g["tens"]:
        n = _TENS[g["tens"].lower()]
        if g["tord"]:
            return _ordinal(n + _ORDINAL_ONES[g["tord"].lower()]) + _unit(g["unit"])
        n += _ONES[g["ones"].lower()] if g["ones"] else 0
        return f"{n}{_unit(g['unit'])}"
    if g["small"]:
        return f"{_SMALL[g['small'].lower()]}{_unit(g['unit'])}"
    return _ordinal(_ORDINAL[g["ord"].lower()]) + _unit(g["unit"])


_ISO_DATE = re.compile(r"(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])")


def figures(text: str) -> Counter:
    """Numbers (digits or words, with the unit or scale word after them), ordinals, and month
    names in `text`, normalised, as a multiset. An ISO date counts as its year, month name and
    day, so "1765-10-28" and "28 October 1765" compare equal."""
    found: Counter = Counter()
    for m in _FIGURE.finditer(text):
        token = _token(m)
        iso = _ISO_DATE.fullmatch(token)
        if iso:
            found.update((iso.group(1), _MONTHS[int(iso.group(2)) - 1].lower(),
                          str(int(iso.group(3)))))
        else:
            found[token] += 1
    found.update(MONTH_OF[m] for m in _MONTH.findall(text))
    return found


def has_figures(text: str) -> bool:
    return bool(re.search(r"\d", text) or _MONTH.search(text) or _HAS_WORD_NUMBER.search(text))


# -- names ---------------------------------------------------------------------------------------
# Names a sentence's claim rests on: capitalised words ("Harrison", "Greenwich", "H4"), but not
# the common words that open a sentence ("The", "It", "In").
_WORD = re.compile(r"[\w']+")
_MARKUP = " \t#>*+-|0123456789.)[]!"  # what may stand before a line's first word
_STARTERS = frozenset("""a an the this that these those it its he she they we i you his her
their our my your in on at by for from with to of into onto over under after before when while
during until since but and or nor so yet as if then there here some many most all each every
no not one two three both either neither such what which who whom whose where why how also
however although though because despite once later earlier today later thus hence still only
even much more less few several another other see note""".split())


def _name_matches(line: str, openers: bool = False):
    """Capitalised words of a line; those opening a sentence only with `openers`."""
    for m in _WORD.finditer(line):
        w = m.group()
        if not w[0].isupper() or w in MONTH_OF or w.casefold() in _STARTERS:
            continue
        before = line[:m.start()].rstrip()
        if not openers and (not before.strip(_MARKUP) or before[-1] in ".!?:;|\"“("):
            continue  # opens a sentence, a list item, a heading, a cell or a quote
        yield m


def names(text: str) -> Counter:
    """Capitalised words inside sentences: a sentence's first word is left out (capitalised
    whatever it is: "Passed" reworded "Enacted" changes no name)."""
    return Counter(m.group() for line in text.splitlines() for m in _name_matches(line))


def names_swapped(gone: str, came: str) -> bool:
    """Whether the lines a change adds name someone or something the lines it removes do not,
    and the other way round: one name put in another's place ("Harrison" → "Mudge")."""
    then, now = names(gone), names(came)
    return bool(then - now) and bool(now - then)


def _facts(line: str) -> list[tuple[int, int, str]]:
    found = [(m.start(), m.end(), _token(m)) for m in _FIGURE.finditer(line)]
    found += [(m.start(), m.end(), m.group()) for m in _name_matches(line, openers=True)]
    return sorted(found)


def facts_in_order(line: str) -> list[str]:
    """The figures and names of one line (a sentence's first word too), in order."""
    return [token for _a, _b, token in _facts(line)]


# what may stand between the items of a plain list: punctuation (not a table's `|`: cells trading
# places trade columns) and "and"/"or"
_LISTING = re.compile(r"[^\w|]*(?:(?:and|or|nor|&)\b[^\w|]*)*", re.IGNORECASE)


def swapped(old: str, new: str) -> bool:
    """Two lines holding the same figures and names, two of them trading places ("Harrison beat
    Mudge" → "Mudge beat Harrison", "1761 to Jamaica, 1764 to Barbados" with the years traded).
    Items of a plain list trading places ("Arnold and Earnshaw" → "Earnshaw and Arnold") do
    not count: nothing but commas and "and"/"or" stands between them."""
    facts = _facts(old)
    a, b = [t for _s, _e, t in facts], facts_in_order(new)
    if len(a) < 2 or a == b or Counter(a) != Counter(b) or len(set(a)) < 2:
        return False
    i = next(k for k in range(len(a)) if a[k] != b[k])
    j = max(k for k in range(len(a)) if a[k] != b[k])
    between = "".join(old[facts[k][1]:facts[k + 1][0]] for k in range(i, j))
    return _LISTING.fullmatch(between) is None


# -- opposites -----------------------------------------------------------------------------------
_PAIRS = """slow fast|slower faster|gained lost|gain lose|gains loses|gaining losing|won lost|
win lose|wins loses|winning losing|victory defeat|passed failed|pass fail|passes fails|
success failure|succeeded failed|successful unsuccessful|confirmed contradicted|
confirmed refuted|confirmed disproved|confirms contradicts|supported opposed|supports opposes|
support oppose|accepted rejected|accept reject|approved rejected|approved denied|
granted refused|granted denied|allowed forbade|allowed forbidden|increase decrease|
increased decreased|increases decreases|rose fell|rise fall|rising falling|more less|
more fewer|higher lower|larger smaller|bigger smaller|greater smaller|longer shorter|
heavier lighter|cheaper dearer|before after|earlier later|earliest latest|first last|
east west|eastern western|north south|northern southern|above below|inside outside|
true false|always never|all none|required optional|for against|
with without|best worst|better worse|alive dead|born died|began ended|start end|started ended|
open closed|opened closed|legal illegal|agree disagree|agreed disagreed|accurate inaccurate|
reliable unreliable|possible impossible|likely unlikely|correct incorrect|valid invalid|
proved disproved|proven unproven|guilty innocent|acquitted convicted|rich poor|
strong weak|stronger weaker|hot cold|warm cool|wet dry|high low|maximum minimum|
majority minority|positive negative|inclusive exclusive|import export|imported exported|
buy sell|bought sold|lend borrow|lent borrowed|creditor debtor|profit loss|surplus deficit|
ally enemy|allies enemies|friend foe|arrived departed|
predecessor successor|older younger|oldest youngest|ancient modern|dependent independent"""
OPPOSITE: dict[str, set[str]] = {}
for _pair in _PAIRS.replace("\n", "").split("|"):
    _a, _b = _pair.split()
    OPPOSITE.setdefault(_a, set()).add(_b)
    OPPOSITE.setdefault(_b, set()).add(_a)
_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non", "non-", "mis")


def opposed(removed: Counter, added: Counter) -> tuple[str, str] | None:
    """A word the change takes out and its opposite put in (lower-case words): a pair from the
    list above, or the same word with a negating prefix ("reliable" → "unreliable")."""
    for w in removed:
        for v in added:
            if v in OPPOSITE.get(w, ()):
                return w, v
            short, long_ = (w, v) if len(w) < len(v) else (v, w)
            if len(short) >= 4 and any(long_ == p + short for p in _PREFIXES):
                return w, v
    return None
