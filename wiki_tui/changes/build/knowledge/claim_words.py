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

import os
import re
from collections import Counter

# -- figures -------------------------------------------------------------------------------------
# What a figure counts, each spelling (lower case) → one name, so that a unit written out or
# abbreviated compares equal ("5.1 s" = "5.1 seconds", "5 km" = "5 kilometres") and one unit
# put in another's place does not ("5.1 seconds" → "5.1 minutes").
_UNIT_NAMES = """seconds: second seconds sec secs | minutes: minute minutes min mins |
hours: hour hours hr hrs | days: day days | weeks: week weeks | fortnights: fortnight fortnights |
months: month months | years: year years yr yrs | decades: decade decades |
centuries: century centuries | millennia: millennium millennia millenniums |
milliseconds: millisecond milliseconds ms | metres: meter meters metre metres |
millimetres: millimeter millimeters millimetre millimetres mm |
centimetres: centimeter centimeters centimetre centimetres cm |
kilometres: kilometer kilometers kilometre kilometres km | miles: mile miles mi |
leagues: league leagues | feet: foot feet ft | inches: inch inches | yards: yard yards yd yds |
fathoms: fathom fathoms | knots: knot knots kn | grams: gram grams gramme grammes |
kilograms: kilogram kilograms kilogramme kilogrammes kg kgs |
milligrams: milligram milligrams milligramme milligrammes mg | tonnes: tonne tonnes |
tons: ton tons | pounds: pound pounds lb lbs | ounces: ounce ounces oz |
guineas: guinea guineas | shillings: shilling shillings | pence: penny pence pennies |
dollars: dollar dollars | euros: euro euros | francs: franc francs | crowns: crown crowns |
ducats: ducat ducats | florins: florin florins | cents: cent cents |
percent: percent percents per cent pct | degrees: degree degrees deg | volts: volt volts |
watts: watt watts | hertz: hertz hz | bytes: byte bytes | kb: kb kbs | mb: mb mbs | gb: gb gbs |
tb: tb tbs | hundred: hundred hundreds | thousand: thousand thousands |
million: million millions | billion: billion billions bn | trillion: trillion trillions"""
UNIT_OF: dict[str, str] = {}
for _group in _UNIT_NAMES.replace("\n", " ").split("|"):
    _name, _spellings = _group.split(":")
    for _w in (["per cent"] if "per cent" in _spellings else []) + _spellings.replace(
            "per cent", "").split():
        UNIT_OF[_w] = _name.strip()
# one letter is a unit only in lower case, after a space ("5.1 s", "100 m", "2 h", "30 g"):
# "1764 M. Le Roy" names no metres
_LETTER_UNITS = {"s": "seconds", "m": "metres", "h": "hours", "g": "grams"}
_UNIT_WORDS = list(UNIT_OF)
# A number, what is glued to it (19th, 1760s, 5km, 12%); what stands before it (a currency
# sign; not a letter, digit or dot: H4, v1.2) is read in Python, so the regex starts on a digit.
_NUMBER = (r"(?:\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3})+(?![\d.,])|\d+(?:[.,:/\-–]\d+)*)"
           r"(%|(?i:st|nd|rd|th|s)|[a-zA-Z]{1,3})?(?![\w])")
_CURRENCY = "£$€¥"
_SIGNS = "-−<>≤≥~"  # a sign before a figure is part of what it says
_DEGREE = re.compile(r"[ \u00a0]?°[ \u00a0]?([CFKNSEW](?![A-Za-z]))?")
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


def _trie(words) -> str:
    """A regex matching exactly `words`, written as a trie: Python's `re` tries the branches of
    an alternation one by one at each position; a trie turns most positions down at the first
    letter (5x faster over a page)."""
    tree: dict = {}
    for word in words:
        node = tree
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def branch(node: dict) -> str:
        parts = [re.escape(ch) + branch(sub) for ch, sub in sorted(node.items()) if ch]
        if not parts:
            return ""
        body = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
        return f"(?:{body})?" if "" in node else body

    return branch(tree)


# What a figure counts, after it: a trie too (looked for at every line break, figures_changed).
_UNIT = rf"(?:(?i:{_trie(_UNIT_WORDS)})|[{''.join(_LETTER_UNITS)}])"
# "one" and "first" (and "second") are left out alone: "an erratic one", "the first result"
# name no quantity; in a compound ("twenty-one", "thirty-first") they do. Words are looked for
# in the lower-cased text (a case-sensitive trie: 5x faster than an alternation with (?i)).
_HEADS = {**_SMALL, **_TENS, **{w: -n for w, n in _ORDINAL.items()}}  # ordinals negative
# fractions as words read as written in digits: "half a degree" = "1/2 a degree" ≠ "a quarter"
_FRACTIONS = {"half": "1/2", "halves": "1/2", "quarter": "1/4", "quarters": "1/4"}
_WORD_RE = re.compile(rf"\b(?:{_trie({**_HEADS, **_FRACTIONS})})\b")
_WORD_RE_ANY_CASE = re.compile(_WORD_RE.pattern, re.IGNORECASE)  # when lower() moves positions
_COMPOUND = re.compile(rf"[- ]({_trie({**_ONES, **_ORDINAL_ONES})})\b", re.IGNORECASE)
_UNIT_AFTER = re.compile(rf"[`*_]*(?:[ \u00a0\n]+|-)[`*_]*({_UNIT})\b")  # "5 s", "a 5-second"
_NUMBER_RE = re.compile(_NUMBER)
_MONTHS = ("January February March April May June July August September October November "
           "December").split()
# Month names and their abbreviations ("18 Nov 1761", "Sept."), read as the full name;
# capitalised only: "may" is a verb, "mar" and "dec" are words.
MONTH_OF = {**{m: m.lower() for m in _MONTHS}, **{m[:3]: m.lower() for m in _MONTHS},
            "Sept": "september"}
_MONTH = re.compile(r"\b(" + "|".join(sorted(MONTH_OF, key=len, reverse=True)) + r")\b")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _unit_at(text: str, end: int) -> tuple[str, int]:
    """The unit or scale word right after a figure ending at `end`: (" seconds", its end)."""
    m = _UNIT_AFTER.match(text, end)
    if not m:
        return "", end
    w = m.group(1)
    unit = _LETTER_UNITS.get(w) or UNIT_OF.get(" ".join(w.lower().split()))
    return (" " + unit if unit else ""), m.end()


def _found(text: str) -> list[tuple[int, int, str]]:
    """(start, end, token) of each figure in `text`: digits first, then words."""
    out = []
    for m in _NUMBER_RE.finditer(text):
        start, cur = m.start(), ""
        before = text[start - 1] if start else " "
        if before in _CURRENCY:
            cur, before = before, text[start - 2] if start > 1 else " "
            if _glued(before):
                cur, before = "", " "
        if _glued(before):
            continue  # part of a name or a version: H4, K1, v1.2
        sign = ""
        if before in _SIGNS and not cur and not (start > 1 and _glued(text[start - 2])):
            sign = "-" if before in "-−" else before  # "−40", "<5", "≥ 3" (not "H4-5")
        suffix = (m.group(1) or "").lower()
        unit, end = _unit_at(text, m.end())
        if not unit and not suffix and (deg := _DEGREE.match(text, end)):
            unit, end = " °" + (deg.group(1) or ""), deg.end()  # "5 °C" ≠ "5 °F"
        if suffix == "%":  # 12% = 12 per cent = 12 percent
            suffix, unit = "", " percent"
        elif cur and suffix in _MONEY_SCALE:  # "£5m", "$2bn", "€20k"
            suffix, unit = "", " " + _MONEY_SCALE[suffix]
        elif suffix not in ("s", "m") and (glued := UNIT_OF.get(suffix) or _LETTER_UNITS.get(suffix)):
            suffix, unit = "", " " + glued  # "5km" = "5 km"; not "1760s", not "£5m"
        number = m.group()[: len(m.group()) - len(m.group(1) or "")]
        token, end = _value(text, cur, number, suffix, unit, end)
        out.append((start - len(cur) - len(sign), end, sign + token))
    low = text.lower()
    finder = _WORD_RE
    if len(low) != len(text):  # a letter whose lower case is longer (İ): read in place
        low, finder = text, _WORD_RE_ANY_CASE
    taken = 0  # "twenty-five": "five" is read with "twenty"
    for m in finder.finditer(low):
        if m.start() < taken:
            continue
        # read in any case, a word may be spelt with a letter that folds to ASCII ("ſix")
        word = m.group().lower()
        n, end = _HEADS.get(word) or _HEADS.get(m.group().casefold()), m.end()
        if n is None:
            if word in _FRACTIONS:
                out.append((m.start(), end, _FRACTIONS[word]))
            continue
        ordinal, n = n < 0, abs(n)
        if not ordinal and n >= 20 and (c := _COMPOUND.match(low, end)):
            word = c.group(1).casefold()
            ordinal = word in _ORDINAL_ONES
            one = _ORDINAL_ONES.get(word) if ordinal else _ONES.get(word)
            if one is not None:
                n, end = n + one, c.end()
        taken = end
        unit, end = _unit_at(text, end)
        if ordinal:
            out.append((m.start(), end, _ordinal(n) + unit))
        else:
            token, end = _value(text, "", str(n), "", unit, end)
            out.append((m.start(), end, token))
    return out


_SCALE = {"hundred": 100, "thousand": 1000, "million": 10**6, "billion": 10**9,
          "trillion": 10**12}
_MONEY_SCALE = {"k": "thousand", "m": "million", "bn": "billion"}
_SIGN = {"pounds": "£", "dollars": "$", "euros": "€"}
_GROUPED = re.compile(r"\d{1,3}(?:([, \u00a0\u2009\u202f])\d{3})(?:\1\d{3})*(?:\.\d+)?")
_YEARS = re.compile(r"(\d{2})(\d{2})-(\d{2})")


def _value(text: str, cur: str, number: str, suffix: str, unit: str, end: int) -> tuple[str, int]:
    """One figure as a token that compares by what it says: thousands separators dropped
    ("20,000" = "20 000" = "20000"), a scale word multiplied in ("2.5 million" = "2,500,000",
    "£10 thousand" = "£10,000"), a currency's word read as its sign ("20,000 pounds" =
    "£20,000"; integers from 10,000 and sums of money shown grouped), a year range written whole ("1761-62" = "1761–1762"). (token, end)."""
    number = number.replace("–", "-")
    if cur and unit[1:] in _SIGN:
        cur = ""  # "£5 pounds": one currency
    if _GROUPED.fullmatch(number):
        number = re.sub(r"[, \u00a0\u2009\u202f]", "", number)
    elif (years := _YEARS.fullmatch(number)) and years.group(3) > years.group(2):
        number = f"{years.group(1)}{years.group(2)}-{years.group(1)}{years.group(3)}"
    scale = _SCALE.get(unit[1:]) if unit else None
    if scale and not suffix and re.fullmatch(r"\d+(?:\.\d+)?", number):
        whole, _, part = number.partition(".")
        value = int(whole + part) * scale // 10 ** len(part) if len(part) < 13 else None
        if value is not None and int(whole + part) * scale % 10 ** len(part) == 0:
            number = str(value)
            unit, end = _unit_at(text, end)  # what it counts: "thousand pounds", "million years"
    if number.isdigit() and not suffix and (len(number) > 4 or cur):
        number = f"{int(number):,}"  # shown grouped, as people write it
    sign = _SIGN.get(unit[1:]) if unit else None
    if sign:  # "20,000 pounds" is shown "£20,000"
        return f"{sign}{number}{suffix}", end
    return f"{cur}{number}{suffix}{unit}", end


def _glued(ch: str) -> bool:
    return ch.isalnum() or ch in "_."


_ISO_DATE = re.compile(r"(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])")


_DAY = re.compile(r"(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)")
_MONTH_BEFORE = re.compile(_MONTH.pattern + r"\.?[ \u00a0]*(?:the[ \u00a0]+)?\Z")
_MONTH_AFTER = re.compile(r"[ \u00a0]+(?:of[ \u00a0]+)?" + _MONTH.pattern)


def figures(text: str) -> Counter:
    """Numbers (digits or words, with the unit or scale word after them), ordinals, and month
    names in `text`, normalised, as a multiset. An ISO date counts as its year, month name and
    day, so "1765-10-28" and "28 October 1765" compare equal."""
    found: Counter = Counter()
    for start, end, token in _found(text):
        if _DAY.fullmatch(token) and (_MONTH_BEFORE.search(text, max(0, start - 12), start)
                                      or _MONTH_AFTER.match(text, end)):
            token = token[:-2]  # "May 3rd" = "3 May"
        iso = _ISO_DATE.fullmatch(token)
        if iso:
            found.update((iso.group(1), _MONTHS[int(iso.group(2)) - 1].lower(),
                          str(int(iso.group(3)))))
        else:
            found[token] += 1
    found.update(MONTH_OF[m] for m in _MONTH.findall(text))
    return found


# A line break a figure's unit may not be read across ("5\n`seconds`" reads "5 seconds"):
# the pieces either side of every other line break are read apart with the same result.
_PIECE_BREAK = re.compile(rf"\n(?![ \u00a0\n]*[`*_]*{_UNIT}\b)")


def figures_changed(then: str, now: str) -> tuple[Counter, Counter]:
    """(figures(then) - figures(now), figures(now) - figures(then)), reading only what differs:
    a figure never reaches across a line break (but to its unit), so the pieces between breaks
    the two texts share add the same figures to both sides, and are not read."""
    if len(then.lower()) != len(then) or len(now.lower()) != len(now):
        old, new = figures(then), figures(now)  # read in place, whole (see _found)
        return old - new, new - old
    old_pieces = Counter(_PIECE_BREAK.split(then))
    new_pieces = Counter(_PIECE_BREAK.split(now))
    # joined by a tab and a break: no unit is read across a tab
    old = figures("\t\n".join((old_pieces - new_pieces).elements()))
    new = figures("\t\n".join((new_pieces - old_pieces).elements()))
    return old - new, new - old


_MONTH_WORDS = frozenset(m.lower() for m in MONTH_OF)


def _figure_free_words(line: str) -> tuple[list[str], Counter]:
    """A line's words with its figures taken out, and its figures."""
    rest, at = [], 0
    for start, end, _token in _found(line):
        rest.append(line[at:start])
        at = end
    rest.append(line[at:])
    words = [w for w in _WORD.findall(" ".join(rest).lower()) if w not in _MONTH_WORDS]
    return words, figures(line)


def figures_moved(gone: str, came: str, limit: int = 50) -> list[tuple[str, str]]:
    """Lines whose figures trade places with another's while the page keeps the same figures:
    a removed line and the added line worded the same but for its figures, holding other
    figures ("| H1 | 1735 |" → "| H1 | 1759 |" while H4's row takes 1735). (old, new) pairs."""
    removed = [line.strip() for line in gone.splitlines() if line.strip()][:limit]
    added = [line.strip() for line in came.splitlines() if line.strip()][:limit]
    if not removed or not added:
        return []
    kept = set(added)
    readings = None
    out = []
    for old in removed:
        if old in kept or not has_figures(old):
            continue
        words, figs = _figure_free_words(old)
        if readings is None:  # read the added lines once, when a removed line has figures
            readings = [(line, *_figure_free_words(line)) for line in added if has_figures(line)]
        if not words or not figs:
            continue
        best, share = None, 0.0
        for new, new_words, new_figs in readings:
            if len(words) < 4:
                same = 1.0 if new_words == words else 0.0  # a short line: worded exactly so
            else:
                same = sum((Counter(words) & Counter(new_words)).values()) / max(len(words),
                                                                               len(new_words))
            if same > share:
                best, share, best_figs = new, same, new_figs
        if best is not None and share >= 0.8 and best_figs and figs - best_figs:
            out.append((old, best))  # (a figure added beside those it kept trades nothing)
    return out


def has_figures(text: str) -> bool:
    return bool(re.search(r"\d", text) or _MONTH.search(text)
                or _WORD_RE_ANY_CASE.search(text))


# -- names ---------------------------------------------------------------------------------------
# Names a sentence's claim rests on: capitalised words ("Harrison", "Greenwich", "H4"), but not
# the common words that open a sentence ("The", "It", "In").
_WORD = re.compile(r"[\w']+")
_DIGIT = re.compile(r"\d")
_MARKUP = " \t#>*+-|0123456789.)[]!"  # what may stand before a line's first word
_STARTERS = frozenset("""a an the this that these those it its he she they we i you his her
their our my your in on at by for from with to of into onto over under after before when while
during until since but and or nor so yet as if then there here some many most all each every
no not one two three both either neither such what which who whom whose where why how also
however although though because despite once later earlier today later thus hence still only
even much more less few several another other see note""".split())


def _name_matches(line: str, openers: bool = False):
    """Capitalised words of a line; those opening a sentence only with `openers`."""
    if line.islower() or not line:
        return  # no capital letter at all
    lead = len(line) - len(line.lstrip(_MARKUP))  # before it, only markup: the line's opener
    for m in _WORD.finditer(line):
        w = m.group()
        if not w[0].isupper() or w in MONTH_OF or w.casefold() in _STARTERS:
            continue
        if not openers and not _DIGIT.search(w):  # "H1", "K2": a name wherever it stands
            start = m.start()
            if start <= lead:
                continue  # opens the line: a sentence, a list item, a heading, a cell
            j = start - 1
            while j >= 0 and line[j] in " \t":
                j -= 1
            if line[j] in ".!?:;|\"“(":
                continue  # opens a sentence, a cell or a quote
        yield m


def names(text: str) -> Counter:
    """Capitalised words inside sentences: a sentence's first word is left out (capitalised
    whatever it is: "Passed" reworded "Enacted" changes no name)."""
    return Counter(m.group() for line in text.splitlines() for m in _name_matches(line))


# Names that are codes: a letter and a number ("H4", "K1", "HMS2"), a regnal number ("III")
_CODE = re.compile(r"\b(?:[A-Z]{1,4}[a-z]?\d+[A-Za-z0-9]*|[IVX]{2,5})\b")


def codes(text: str) -> Counter:
    """Names written as codes (`_CODE`), as a multiset: a page that no longer writes "K1"
    anywhere has lost what K1 stood for ("made K1 in 1769" → "made a copy in 1769")."""
    return Counter(_CODE.findall(text))


def names_swapped(gone: str, came: str) -> bool:
    """Whether the lines a change adds name someone or something the lines it removes do not,
    and the other way round: one name put in another's place ("Harrison" → "Mudge")."""
    then, now = names(gone), names(came)
    return bool(then - now) and bool(now - then)


def _one_word_apart(old: str, new: str) -> tuple[str, str, int] | None:
    """(old word, new word, where) when two lines differ in one word only."""
    p = len(os.path.commonprefix((old, new)))
    q = len(os.path.commonprefix((old[p:][::-1], new[p:][::-1])))
    while p and (old[p - 1].isalnum() or old[p - 1] in "_'"):
        p -= 1  # back to the word's start
    a, b = old[p:len(old) - q], new[p:len(new) - q]
    while q and (a or b) and (old[len(old) - q].isalnum() or old[len(old) - q] in "_'"):
        q -= 1  # on to the word's end
        a, b = old[p:len(old) - q], new[p:len(new) - q]
    if _WORD.fullmatch(a) and _WORD.fullmatch(b):
        return a, b, p
    return None


def line_pairs(gone: str, came: str, limit: int = 50):
    """(removed line, the added lines that may be it edited) for each of the first `limit`
    removed lines: an added line ending alike, its length within 40 characters."""
    removed = [line for line in gone.splitlines() if line.strip()][:limit]
    added = [line for line in came.splitlines() if line.strip()][:limit]
    for old in removed:
        yield old, [new for new in added if abs(len(old) - len(new)) <= 40
                    and old[-3:] == new[-3:]]


def openers_swapped(gone: str, came: str, limit: int = 50) -> list[tuple[str, str]]:
    """A sentence's first word put in place of another's, the rest of the line kept as it was
    ("Harrison built H4 in 1759." → "Mudge built H4 in 1759."): (old word, new word) pairs,
    both capitalised and neither a common opener ("The", "It", "In"). Whether the old word is a
    name the page knows (it stands inside a sentence somewhere) is the caller's to ask:
    "Passed in 1714" → "Enacted in 1714" changes no name."""
    out = []
    for old, candidates in line_pairs(gone, came, limit):
        for new in candidates:
            apart = _one_word_apart(old, new)
            if apart is None:
                continue
            a, b, at = apart
            before = old[:at].rstrip(" \t*_")
            if (before and before[-1] not in ".!?:\"“(" and before.lstrip(_MARKUP)) or \
                    not (a[0].isupper() and b[0].isupper()) or \
                    a.casefold() in _STARTERS or b.casefold() in _STARTERS:
                continue
            out.append((a, b))
            break
    return out


def _facts(line: str) -> list[tuple[int, int, str]]:
    found = _found(line)
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
    not count: nothing but commas and "and"/"or" stands between them; nor does a sentence
    built anew around its facts (the words between them are not the same words)."""
    facts, new_facts = _facts(old), _facts(new)
    a, b = [t for _s, _e, t in facts], [t for _s, _e, t in new_facts]
    if len(a) < 2 or a == b or Counter(a) != Counter(b) or len(set(a)) < 2:
        return False
    i = next(k for k in range(len(a)) if a[k] != b[k])
    j = max(k for k in range(len(a)) if a[k] != b[k])
    between = "".join(old[facts[k][1]:facts[k + 1][0]] for k in range(i, j))
    if _LISTING.fullmatch(between) is not None:
        return False
    # the words between them stay where they were: the facts moved, not the sentence around
    # them ("Harrison received £10,000 in 1765" → "In 1765 Harrison received £10,000")
    now = "".join(new[new_facts[k][1]:new_facts[k + 1][0]] for k in range(i, j))
    return Counter(_WORD.findall(between.lower())) == Counter(_WORD.findall(now.lower()))


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
predecessor successor|older younger|oldest youngest|ancient modern|dependent independent|
cheap expensive|cheap costly|cheap dear|cheaper costlier|cheapest costliest|major minor|
large small|big small|long short|heavy light|wide narrow|deep shallow|early late|young old|
simple complex|simple complicated|easy difficult|easy hard|safe dangerous|similar different|
same different|identical different|include exclude|included excluded|includes excludes|
permitted prohibited|permitted forbidden|allowed prohibited|public private|domestic foreign|
native foreign|male female|men women|man woman|father mother|son daughter|brother sister|
husband wife|king queen|inner outer|upper lower|summer winter|spring autumn|day night|
morning evening|beginning end|birth death|peace war|attack defence|attack defense|
offensive defensive|gain loss|credit debit|asset liability|grow shrink|grew shrank|
growth decline|expand contract|expanded contracted|raised lowered|top bottom|highest lowest|
largest smallest|biggest smallest|longest shortest|most least|newest oldest|newer older|
superior inferior|primary secondary|present absent|presence absence|remembered forgotten|
famous obscure|real fake|genuine fake|genuine forged|authentic forged|original copy|
fact fiction|risen fallen|ascending descending|give take|gave took|send receive|
sent received|employer employee|landlord tenant|master apprentice|teacher pupil|
caused prevented|causes prevents|enabled prevented|helped hindered|help hinder|benefit harm|
benefits harms|beneficial harmful|helpful harmful|friendly hostile|optimistic pessimistic|
love hate|loved hated|praised criticised|praised criticized|praise blame|praised blamed|
supporter opponent|supporters opponents|defended attacked|defend attack|entered left|
joined left|hired fired|appointed dismissed|promoted demoted|accepted declined|
agreed refused|agree refuse|lost beat|lose beat|loses beats|wins losses|victories defeats|success defeat|decisive minor|
common rare|commoner rarer|frequent rare|frequent infrequent|widespread rare|usual rare|
abundant scarce|plentiful scarce|abundance scarcity|plenty scarcity"""
# Scales of degree (split by ";"), their steps by "|": a word put in place of one from another
# step says more or less than the claim did ("most" → "some", "usually" → "rarely", "nearly
# nineteen" → "over nineteen"); words on one step say the same ("often" → "frequently").
_SCALES = """all, every | most | many, much | some, several | few, little;
always | usually, mostly, generally, normally, typically, commonly | often, frequently | sometimes,
occasionally | seldom, rarely | never;
certainly, definitely, surely | probably, likely | possibly, perhaps, maybe | unlikely;
over, above, exceeding | about, around, approximately, roughly, circa |
nearly, almost, under, below | exactly, precisely"""
OPPOSITE: dict[str, set[str]] = {}
for _pair in _PAIRS.replace("\n", "").split("|"):
    _a, _b = _pair.split()
    OPPOSITE.setdefault(_a, set()).add(_b)
    OPPOSITE.setdefault(_b, set()).add(_a)
for _scale in _SCALES.split(";"):
    _steps = [step.replace(",", " ").split() for step in _scale.split("|")]
    for _i, _step in enumerate(_steps):
        for _other in _steps[_i + 1:]:
            for _a in _step:
                for _b in _other:
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


# -- clauses: part of a sentence cut, nothing in its place -----------------------------------------
_CONTENT = re.compile(r"[^\W\d_]{4,}")
_CUT_SKIP = re.compile(r"^[ \t]*(?:#|>|\||```|~~~|---|%%|<!--|\[\^)")


def clauses_cut(gone: str, came: str, visible: str, limit: int = 50) -> list[tuple[str, str]]:
    """Lines that keep most of their words but lose a clause: four content words (four letters
    or more) or more that the new page's visible prose no longer holds anywhere, with at most
    one new word in their place — a cut, not a rewording ("after explaining H4 to a panel and
    accepting that copies must be made" taken out of a sentence). (old line, the words lost)."""
    removed = [line.strip() for line in gone.splitlines()
               if line.strip() and not _CUT_SKIP.match(line)][:limit]
    added = [line.strip() for line in came.splitlines() if line.strip()][:limit]
    if not removed or not added:
        return []
    kept = set(added)
    now: set[str] | None = None
    added_words = [(line, set(_CONTENT.findall(line.lower()))) for line in added]
    out = []
    for old in removed:
        if old in kept:
            continue
        words = _CONTENT.findall(old.lower())
        if len(words) < 6:
            continue
        have = set(words)
        best, best_share, best_words = None, 0.0, set()
        for new, new_words in added_words:
            share = len(have & new_words) / len(have)
            if share > best_share:
                best, best_share, best_words = new, share, new_words
        if best is None or best_share < 0.5 or len(best_words - have) > 1:
            continue
        if now is None:
            now = set(_CONTENT.findall(visible.lower()))
        lost = [w for w in dict.fromkeys(words) if w not in now]
        if len(lost) >= 4:
            out.append((old, " ".join(lost)))
    return out


# -- citations: which claim a source backs ------------------------------------------------------
_CITE = re.compile(r"!?\[\[[^\]\n]*\]\]|!?\[[^\]\n]*\]\([^)\n]*\)|\[\^[^\]\s]+\]")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_ITEM_START = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+|^[ \t]*\|", re.M)


def _items(text: str) -> list[str]:
    """The paragraphs, list items and table rows of `text`."""
    items: list[str] = []
    for block in _BLANK_LINE.split(text):
        if "\n" not in block.strip("\n"):
            items.append(block)  # one line: one item
            continue
        starts = [m.start() for m in _ITEM_START.finditer(block)]
        if not starts or starts[0] != 0:
            starts.insert(0, 0)
        items += [block[a:b] for a, b in zip(starts, starts[1:] + [len(block)])]
    return items


def _claims_cited(items: list[str], *, uncited: bool = False) -> dict[str, tuple[Counter, str]]:
    """Each item that cites something (with `uncited`, every item), keyed by its words without
    its links: what it cites (links and footnote references, as written) and the item as shown.
    An item whose words stand twice is left out: it cannot be told apart."""
    out: dict[str, tuple[Counter, str]] = {}
    twice: set[str] = set()
    for item in items:
        cites = _CITE.findall(item)
        if not cites and not uncited:
            continue
        key = " ".join(_WORD.findall(_CITE.sub(" ", item).lower()))
        if key.count(" ") < 2:
            continue  # a bare link list: its items are not claims
        if key in out:
            twice.add(key)
        out[key] = Counter(cites), " ".join(item.split())
    for key in twice:
        del out[key]
    return out


def citations_moved(then: str, now: str) -> list[tuple[str, str]]:
    """Claims that keep their words but no longer cite what they cited, while what they cited
    now stands beside another claim: a source moved to back something it did not say.
    (the claim as written, the citation that left it) pairs."""
    if "[" not in then:
        return []
    then_items, now_items = _items(then), _items(now)
    kept = set(then_items) & set(now_items)  # an item standing as it was cites as it did
    old = _claims_cited([i for i in then_items if i not in kept and "[" in i])
    new = _claims_cited([i for i in now_items if i not in kept], uncited=True)  # (citing
    # nothing now is a citation gone too)
    gained: Counter = Counter()
    for key, (cites, _shown) in new.items():
        gained += cites - old.get(key, (Counter(), ""))[0]
    out = []
    for key, (cites, shown) in old.items():
        if key in new and cites != new[key][0]:
            out += [(shown, cite) for cite in cites - new[key][0] if gained[cite]]
    return out
