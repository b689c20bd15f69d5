"""What a page's text says, read for the knowledge diff: the pieces that are not links.

Each function takes one page's text (and what the vault's scanner found in it: its `Page`, its
prose spans) and returns plain values that compare with `Counter` arithmetic: frontmatter keys as
written (duplicates, keys below the closing `---`), numbers and dates in sentences, callouts,
table rows, the text inside code and comments, hidden comments, invisible characters and
footnotes. No disk, no vault: knowledge.py compares two readings of a page.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Any

from wiki_tui.vault.parse.frontmatter import split_frontmatter
from wiki_tui.vault.parse.blocks import BlockPass

_KEY_LINE = re.compile(r"^([A-Za-z_][\w .-]*?)[ \t]*:(?:[ \t]|$)", re.M)
# Numbers (1714, 5.1, 1,000, 1761-62, 20/07/1969) and month names: a claim's figures and dates.
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,:/-]\d+)*(?![\w])")
_MONTHS = ("January February March April May June July August September October November "
           "December").split()
# Month names and their abbreviations ("18 Nov 1761", "Sept."), read as the full name;
# capitalised only: "may" is a verb, "mar" and "dec" are words.
_MONTH_OF = {**{m: m.lower() for m in _MONTHS}, **{m[:3]: m.lower() for m in _MONTHS},
             "Sept": "september"}
_MONTH = re.compile(r"\b(" + "|".join(sorted(_MONTH_OF, key=len, reverse=True)) + r")\b")
# Names a sentence's claim rests on: capitalised words ("Harrison", "Greenwich", "H4"), but not
# the common words that open a sentence ("The", "It", "In").
_WORD = re.compile(r"[^\W_]+")
_MARKUP = " \t#>*+-|0123456789.)[]!"  # what may stand before a line's first word
_STARTERS = frozenset("""a an the this that these those it its he she they we i you his her
their our my your in on at by for from with to of into onto over under after before when while
during until since but and or nor so yet as if then there here some many most all each every
no not one two three both either neither such what which who whom whose where why how also
however although though because despite once later earlier today later thus hence still only
even much more less few several another other see note""".split())
_CALLOUT = re.compile(r"^[ \t]{0,3}(?:>[ \t]*)+\[!([A-Za-z][\w-]*)\][+-]?(.*)$", re.M)
_TABLE_ROW = re.compile(r"^[ \t]{0,3}\|.*\|[ \t]*\r?$", re.M)
_TABLE_RULE = re.compile(r"^[ \t|:-]+$")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_FOOTNOTE_DEF = re.compile(r"^[ \t]{0,3}\[\^([^\]\s]+)\]:", re.M)
_BARE_URL = re.compile(r"(?<![(<\w])(?:https?|ftp)://[^\s<>()\[\]]+", re.IGNORECASE)
_LINK_TEXT = re.compile(r"!?\[\[[^\]\n]*\]\]|!?\[[^\]\n]*\]\([^)\n]*\)")
# Invisible or direction-changing characters: the format category (Cf: zero-width, bidi
# controls, tags, soft hyphen) and fillers that render as nothing (U+115F, U+3164, U+FFA0...).
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u115f-\u1160\u180e"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f]")


def body_start(text: str) -> int:
    return split_frontmatter(text)[2]


def frontmatter_keys(text: str) -> list[str]:
    """Top-level keys of the frontmatter as written, in order, repeats kept (YAML keeps only the
    last of a repeated key: the earlier values are silently lost)."""
    fm, _start, _body, _line = split_frontmatter(text)
    if fm is None:
        return []
    return [m.group(1) for m in _KEY_LINE.finditer(fm)]


def keys_in_body(text: str, keys: set[str]) -> list[str]:
    """Which of `keys` stand as `key: value` lines at the top of the body (fell out of the
    frontmatter: a closing `---` written too early, or a second block)."""
    if not keys:
        return []
    start = body_start(text)
    head = text[start:start + 4000]
    found = []
    for m in _KEY_LINE.finditer(head):
        if m.group(1) in keys and m.group(1) not in found:
            found.append(m.group(1))
    return found


def value_kind(value: Any) -> str:
    """The shape of a frontmatter value as the review names it."""
    if value is None:
        return "empty"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "mapping"
    if isinstance(value, bool):
        return "yes/no"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "text"
    return "date" if hasattr(value, "isoformat") else type(value).__name__


def shown(value: Any, limit: int = 60) -> str:
    """A frontmatter value, short, for a one-line review note."""
    text = repr(value) if not isinstance(value, str) else value
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _prose(text: str, start: int) -> list[tuple[int, int]]:
    """Prose spans (the block pass alone: no link is looked for here)."""
    p = BlockPass(text, start)
    p.blocks()
    return p.spans


def figures_in(text: str) -> Counter:
    """Numbers and month names in one piece of text (a frontmatter value), links cut out."""
    prose = _LINK_TEXT.sub(" ", text)
    found = Counter(_NUMBER.findall(prose))
    found.update(_months(prose))
    return found


def has_figures(text: str) -> bool:
    return bool(_NUMBER.search(text) or _MONTH.search(text))


def _months(text: str) -> list[str]:
    return [_MONTH_OF[m] for m in _MONTH.findall(text)]


def _names(text: str) -> Counter:
    """Capitalised words inside sentences: a sentence's first word is left out (capitalised
    whatever it is: "Passed" reworded "Enacted" changes no name)."""
    found: Counter = Counter()
    for line in text.splitlines():
        for m in _WORD.finditer(line):
            w = m.group()
            if not w[0].isupper() or w in _MONTH_OF or w.casefold() in _STARTERS:
                continue
            before = line[:m.start()].rstrip()
            if not before.strip(_MARKUP) or before[-1] in ".!?:;|\"“(":
                continue  # opens a sentence, a list item, a heading, a cell or a quote
            found[w] += 1
    return found


def names_swapped(gone: str, came: str) -> bool:
    """Whether the lines a change adds name someone or something the lines it removes do not,
    and the other way round: one name put in another's place ("Harrison" → "Mudge")."""
    then, now = _names(gone), _names(came)
    return bool(then - now) and bool(now - then)


_HIDING = re.compile(r"`|~~~|%%|<!--|\n(?: {4}|\t)")


def may_hide(text: str) -> bool:
    """Whether the text can hold code or comments at all (else there is nothing to compare)."""
    return _HIDING.search(text) is not None


def _outside(spans: list[tuple[int, int]], start: int, end: int) -> list[tuple[int, int]]:
    """The gaps between prose spans within [start, end): code, inline code, %% comments."""
    gaps, pos = [], start
    for a, b in spans:
        if a > pos:
            gaps.append((pos, a))
        pos = max(pos, b)
    if pos < end:
        gaps.append((pos, end))
    return gaps


class TextReading:
    """One page's text read once: its body's prose spans and the gaps between them."""

    __slots__ = ("text", "start", "spans")

    def __init__(self, text: str, start: int | None = None) -> None:
        self.text = text
        self.start = body_start(text) if start is None else start
        self.spans = _prose(text, self.start)

    def claim_spans(self) -> list[tuple[int, int]]:
        """The prose spans and the inline code inside them (`20,000` in a sentence still
        states a figure): where a sentence's claims are read."""
        inline = [(a, b) for a, b in _outside(self.spans, self.start, len(self.text))
                  if self.text.startswith("`", a) and not self.text.startswith("``", a)
                  and "\n" not in self.text[a:b].strip("\n")]
        return sorted([*self.spans, *inline]) if inline else self.spans

    def prose_lines(self, spans: list[tuple[int, int]] | None = None) -> list[tuple[int, str]]:
        """(1-based line, prose text of that line) with link text cut out."""
        out: dict[int, list[str]] = {}
        text = self.text
        for a, b in self.spans if spans is None else spans:
            piece = text[a:b]
            line = text.count("\n", 0, a) + 1
            for k, part in enumerate(piece.split("\n")):
                out.setdefault(line + k, []).append(part)
        return [(n, _LINK_TEXT.sub(" ", " ".join(parts))) for n, parts in sorted(out.items())]

    def visible_prose(self) -> str:
        """The body's prose as a reader sees it: no code, no %% or HTML comments."""
        text = self.text
        return _HTML_COMMENT.sub(" ", "\n".join(text[a:b] for a, b in self.spans))

    def _claim_text(self) -> str:
        text = self.text
        return _LINK_TEXT.sub(" ", "\n".join(text[a:b] for a, b in self.claim_spans()))

    def figures(self) -> Counter:
        """Numbers and dates (month names, abbreviated too) in the prose and its inline code
        (outside links), as a multiset."""
        prose = self._claim_text()
        found = Counter(_NUMBER.findall(prose))
        found.update(_months(prose))
        return found

    def names(self) -> Counter:
        """Capitalised words inside sentences of the prose and its inline code (outside
        links), as a multiset: the names its claims rest on."""
        return _names("\n".join(line for _n, line in self.prose_lines(self.claim_spans())))

    def figure_lines(self, wanted: set[str]) -> list[tuple[int, str]]:
        """Prose lines holding one of `wanted` figures or names: (line, the line as written)."""
        lines = self.text.splitlines()
        out = []
        for n, line in self.prose_lines(self.claim_spans()):
            tokens = {*_NUMBER.findall(line), *_months(line), *_names(line)}
            if tokens & wanted and 0 < n <= len(lines):
                out.append((n, lines[n - 1].strip()))
        return out

    def hidden(self) -> Counter:
        """Text inside code (fenced, indented, inline) and %% comments, one stripped line each;
        HTML comments in prose too."""
        text, found = self.text, Counter()
        for a, b in _outside(self.spans, self.start, len(text)):
            for line in text[a:b].splitlines():
                if line.strip():
                    found[line.strip()] += 1
        for a, b in self.spans:
            for m in _HTML_COMMENT.finditer(text, a, b):
                for line in m.group().splitlines():
                    if line.strip():
                        found[line.strip()] += 1
        return found

    def comments(self) -> Counter:
        """Hidden comments (`%% %%`, `<!-- -->`), whole, stripped."""
        text, found = self.text, Counter()
        for a, b in _outside(self.spans, self.start, len(text)):
            piece = text[a:b]
            i = piece.find("%%")
            while i != -1:
                j = piece.find("%%", i + 2)
                end = len(piece) if j == -1 else j + 2
                found[" ".join(piece[i:end].split())] += 1
                i = -1 if j == -1 else piece.find("%%", end)
        for a, b in self.spans:
            for m in _HTML_COMMENT.finditer(text, a, b):
                found[" ".join(m.group().split())] += 1
        return found


def callouts(text: str) -> Counter:
    """Callout types (`> [!contradiction]` -> "contradiction"), as a multiset."""
    return Counter(m.group(1).lower() for m in _CALLOUT.finditer(text))


def callout_lines(text: str, kinds: set[str]) -> list[str]:
    return [m.group(0).strip() for m in _CALLOUT.finditer(text) if m.group(1).lower() in kinds]


def table_rows(text: str) -> list[str]:
    """Table rows (not the `|---|` rule), stripped, in order."""
    rows = (m.group(0).strip() for m in _TABLE_ROW.finditer(text))
    return [r for r in rows if not _TABLE_RULE.match(r)]


def footnotes(text: str) -> Counter:
    """Footnote definitions (`[^1]: ...`) by label."""
    return Counter(_FOOTNOTE_DEF.findall(text[body_start(text):]))


def invisible(text: str) -> Counter:
    """Invisible and direction-changing characters (zero-width, bidi controls, fillers), by code
    point; a byte-order mark at the very start is the file's, not the text's."""
    if text.isascii():
        return Counter()
    found = Counter(_INVISIBLE.findall(text, 1))
    if text[:1] and _INVISIBLE.match(text) and text[0] != "\ufeff":
        found[text[0]] += 1
    return found


def char_name(ch: str) -> str:
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')}"


def split_has_frontmatter(text: str) -> bool:
    return split_frontmatter(text)[0] is not None


def bare_urls(text: str) -> Counter:
    """URLs written out in prose (Obsidian makes them links), outside code and comments."""
    if "://" not in text:
        return Counter()
    return Counter(m.group().rstrip(".,;:!?'\"") for _n, line in TextReading(text).prose_lines()
                   for m in _BARE_URL.finditer(line))


# -- polarity: a sentence kept but turned around ("made" → "never made") ------------------------
_NEGATOR = re.compile(r"\b(?:not|never|no|none|nobody|nothing|neither|nor|cannot|without|"
                      r"\w+n't|false|untrue|disproved|refuted)\b", re.IGNORECASE)
_WORD = re.compile(r"[\w']+")
_LIST_MARK = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+")


def _polarity_words(line: str) -> list[str]:
    return _WORD.findall(_LIST_MARK.sub("", _LINK_TEXT.sub(" ", line)).lower())


def polarity_flips(gone: str, came: str, limit: int = 50) -> list[tuple[str, str]]:
    """Lines the change keeps in substance but turns around: a removed line and the added line
    most like it (most of their words shared) whose negations ("not", "never", "no", "n't"...)
    differ in number. (removed line, added line) pairs; at most `limit` lines are compared."""
    removed = [line.strip() for line in gone.splitlines() if line.strip()][:limit]
    added = [line.strip() for line in came.splitlines() if line.strip()][:limit]
    if not removed or not added:
        return []
    added_words = [(line, _polarity_words(line)) for line in added]
    flips = []
    for old in removed:
        old_words = _polarity_words(old)
        if len(old_words) < 4:
            continue
        best, best_share = None, 0.0
        for new, new_words in added_words:
            if len(new_words) < 4:
                continue
            shared = sum((Counter(old_words) & Counter(new_words)).values())
            share = shared / max(len(old_words), len(new_words))
            if share > best_share:
                best, best_share = new, share
        if best is None or best_share < 0.6:
            continue
        if len(_NEGATOR.findall(old)) != len(_NEGATOR.findall(best)):
            flips.append((old, best))
    return flips


# -- prose dropped: a sentence whose words the new page no longer holds ---------------------------
_SKIP_LINE = re.compile(r"^[ \t]*(?:#|>|\||```|~~~|---|%%|<!--|\[\^)")


def _content_words(line: str) -> set[str]:
    return {w for w in _polarity_words(line) if len(w) >= 4 and not w.isdigit()}


def dropped_lines(gone: str, base: str, visible: str, limit: int = 200) -> list[str]:
    """Prose lines the change removes whose content words (four letters or more) mostly do not
    survive anywhere in `visible`, the new page's prose as a reader sees it: a sentence dropped
    (or hidden in a comment or code), not reworded or moved. Lines of five
    content words or more; headings, quotes, tables, fences, comments and footnotes are judged
    elsewhere (anchors, callouts, rows, code), the frontmatter by its fields."""
    head = set(base[: body_start(base)].splitlines())
    candidates = [line.strip() for line in gone.splitlines()[:limit]
                  if line.strip() and line not in head and not _SKIP_LINE.match(line)]
    if not candidates:
        return []
    now = set(_polarity_words(visible))
    out = []
    for line in candidates:
        words = _content_words(line)
        if len(words) >= 5 and len(words & now) * 2 < len(words):
            out.append(line)
    return out

