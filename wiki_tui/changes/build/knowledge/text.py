"""What a page's text says, read for the knowledge diff: the pieces that are not links.

Each function takes one page's text (and what the vault's scanner found in it: its `Page`, its
prose spans) and returns plain values that compare with `Counter` arithmetic: frontmatter keys as
written (duplicates, keys below the closing `---`), numbers and dates in sentences, callouts,
table rows, the text inside code and comments, hidden comments, invisible characters and
footnotes. No disk, no vault: diff.py compares two readings of a page.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Any

from wiki_tui.vault.parse.frontmatter import split_frontmatter
from wiki_tui.changes.build.alternation import Caseless
from wiki_tui.changes.build.knowledge import claim_words as cw
from wiki_tui.vault.parse.blocks import BlockPass

_KEY_LINE = re.compile(r"^([A-Za-z_][\w .-]*?)[ \t]*:(?:[ \t]|$)", re.M)
_CALLOUT = re.compile(r"^[ \t]{0,3}(?:>[ \t]*)+\[!([A-Za-z][\w-]*)\][+-]?(.*)$", re.M)
_TABLE_ROW = re.compile(r"^[ \t]{0,3}\|.*\|[ \t]*\r?$", re.M)
_TABLE_RULE = re.compile(r"^[ \t|:-]+$")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_FOOTNOTE_LABEL = re.compile(r"\[\^[^\]\s]+\]:?")
_BARE_URL = re.compile(r"(?<![(<\w])(?:https?|ftp)://[^\s<>()\[\]]+", re.IGNORECASE)
# A link as written (wikilink or markdown, embeds too): canvas.py counts a text node's links by it.
LINKS_WRITTEN = re.compile(r"!?\[\[[^\]\n]*\]\]|!?\[[^\]\n]*\]\([^)\n]*\)")
# What a link shows in a sentence: `[[H4|the Sea Watch]]` and `[the Sea Watch](H4.md)` read as
# "the Sea Watch" (a label is part of the claim); `[[H4]]` and embeds as nothing (the link
# itself is judged with the links).
_LINK_SHOWN = re.compile(r"!\[\[[^\]\n]*\]\]|!\[[^\]\n]*\]\([^)\n]*\)|\[\[[^\]|\n]*(?:\|([^\]\n]*))?\]\]"
                         r"|\[([^\]\n]*)\]\([^)\n]*\)")
# Struck-through text: a claim withdrawn in plain sight. What a reader does not see in prose:
# HTML comments and HTML elements hidden by style or attribute.
_STRUCK = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~", re.S)
_HIDDEN_HTML = re.compile(r"<(\w+)\b[^>]*?(?:display\s*:\s*none|visibility\s*:\s*hidden|"
                          r"font-size\s*:\s*0|\shidden(?:\s|=|>))[^>]*>.*?</\1\s*>",
                          re.S | re.IGNORECASE)
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


def second_frontmatter(text: str) -> list[str]:
    """Keys of a `---` block of `key: value` lines opening the body (after the frontmatter and
    blank lines): a field the model meant to add, written where YAML never reads it (Obsidian
    shows it as a rule and a heading)."""
    start = body_start(text)
    if start == 0:
        return []  # no frontmatter: such a block would be the frontmatter
    head = text[start:start + 4000].lstrip("\r\n")
    if not head.startswith("---"):
        return []
    lines = head.splitlines()
    if lines[0].strip() != "---":
        return []
    keys = []
    for line in lines[1:60]:
        if line.strip() == "---":
            return keys
        m = _KEY_LINE.match(line)
        if m:
            keys.append(m.group(1))
        elif line.strip() and not line.startswith((" ", "\t", "-")):
            return []  # not a block of fields
    return []


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


def link_shown(text: str) -> str:
    """`text` with each link replaced by what it shows (a label, or nothing)."""
    if "[" not in text:
        return text
    return _LINK_SHOWN.sub(lambda m: f" {m.group(1) or m.group(2) or ''} ", text)


def unseen_cut(text: str) -> str:
    """`text` without what a reader does not see: HTML comments, hidden HTML elements."""
    if "<" in text:
        text = _HIDDEN_HTML.sub(" ", _HTML_COMMENT.sub(" ", text))
    return text


def figures_in(text: str) -> Counter:
    """Numbers and month names in one piece of text (a frontmatter value), as links show it."""
    return cw.figures(link_shown(text))


has_figures = cw.has_figures
figures_changed = cw.figures_changed
names_swapped = cw.names_swapped
citations_moved = cw.citations_moved
figures_moved = cw.figures_moved
openers_swapped = cw.openers_swapped
codes = cw.codes
clauses_cut = cw.clauses_cut


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

    def __init__(self, text: str, start: int | None = None,
                 spans: list[tuple[int, int]] | None = None) -> None:
        """`spans`: the body's prose spans when the page's parse found them already."""
        self.text = text
        self.start = body_start(text) if start is None else start
        self.spans = _prose(text, self.start) if spans is None else spans

    def claim_spans(self) -> list[tuple[int, int]]:
        """The prose spans and the inline code inside them (`20,000` in a sentence still
        states a figure): where a sentence's claims are read."""
        inline = [(a, b) for a, b in _outside(self.spans, self.start, len(self.text))
                  if self.text.startswith("`", a) and not self.text.startswith("``", a)
                  and "\n" not in self.text[a:b].strip("\n")]
        return sorted([*self.spans, *inline]) if inline else self.spans

    def prose_lines(self, spans: list[tuple[int, int]] | None = None) -> list[tuple[int, str]]:
        """(1-based line, prose text of that line) as a reader sees it: links as they show,
        comments and hidden elements cut out."""
        out: dict[int, list[str]] = {}
        text = self.text
        for a, b in self.spans if spans is None else spans:
            piece = text[a:b]
            line = text.count("\n", 0, a) + 1
            for k, part in enumerate(piece.split("\n")):
                out.setdefault(line + k, []).append(part)
        return [(n, link_shown(unseen_cut(" ".join(parts)))) for n, parts in sorted(out.items())]

    def visible_prose(self) -> str:
        """The body's prose as a reader sees it: no code, no %% or HTML comments, no hidden
        elements."""
        text = self.text
        return unseen_cut("\n".join(text[a:b] for a, b in self.spans))

    def claim_text(self) -> str:
        """The prose and its inline code as a reader sees them: where figures are read. A
        footnote's label (`[^1]`, `[^1]:`) is a name for a note, not a figure."""
        text = self.text
        shown = link_shown(unseen_cut("\n".join(text[a:b] for a, b in self.claim_spans())))
        return unlabelled(shown)

    def figures(self) -> Counter:
        """Numbers and dates (claim_words.figures) in the prose and its inline code, as a
        reader sees them, as a multiset."""
        return cw.figures(self.claim_text())

    def names(self) -> Counter:
        """Capitalised words inside sentences of the prose and its inline code (outside
        links), as a multiset: the names its claims rest on."""
        return cw.names("\n".join(line for _n, line in self.prose_lines(self.claim_spans())))

    def figure_lines(self, wanted: set[str]) -> list[tuple[int, str]]:
        """Prose lines holding one of `wanted` figures or names: (line, the line as written)."""
        lines = self.text.splitlines()
        out = []
        for n, line in self.prose_lines(self.claim_spans()):
            tokens = {*cw.figures(line), *cw.names(line)}
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
            for pattern in (_HTML_COMMENT, _HIDDEN_HTML):
                for m in pattern.finditer(text, a, b):
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


def unlabelled(text: str) -> str:
    """`text` without footnote labels (`[^1]`, `[^note]:`): names of notes, not figures."""
    return _FOOTNOTE_LABEL.sub(" ", text) if "[^" in text else text


def struck_bare(gone: str, came: str) -> list[str]:
    """Text the change strikes through (`~~...~~` it adds around what the page said) without
    saying anything in its place: no line it adds holds five content words or more that the
    lines it removes did not (the rest of the struck sentence, kept as it was, says nothing
    new). A superseded sentence struck beside the new one is a visible correction."""
    if "~~" not in came:
        return []
    struck = [m.group(1).strip() for m in _STRUCK.finditer(came)]
    had = {m.group(1).strip() for m in _STRUCK.finditer(gone)}
    new = [t for t in struck if t not in had]
    if not new:
        return []
    said = _content_words(gone)
    beside = _STRUCK.sub(" ", came)
    if any(len(_content_words(line) - said) >= 5 for line in beside.splitlines()):
        return []
    return new


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
_NEGATOR = Caseless(r"\b(?:not|never|no|none|nobody|nothing|neither|nor|cannot|without|"
                      r"\w+n't|false|untrue|disproved|refuted)\b"
                      # "no fewer than 5" bounds a figure (bounds.py reads it), denies nothing
                      r"(?!\s+(?:fewer|less|more|later|earlier|greater)\s+than\b)")
# Verbs that deny what follows them as a "not" does ("failed to win" = "did not win", "refused
# to pay" = "would not pay", "lacked" = "had no"): counted with the negations, so that "failed
# to win" → "won" turns a sentence around while "failed to win" → "never won" does not.
_DENIAL = Caseless(r"\b(?:fail(?:s|ed|ing)?\s+to|(?:declin|neglect|omitt?|ceas)\w*\s+to|"
                     r"refus(?:e|es|ed|ing)|den(?:y|ies|ied|ying)|withh(?:e|o)ld(?:s|ing)?|"
                     r"held\s+back|unable|unwilling|lack(?:s|ed|ing)?|in\s+vain)\b")
# Words that say a claim holds of part, not all ("some sailors", "one of the first", "largely
# from Parliament", "often checked"): one dropped or added makes the claim general or partial
# ("Some sailors distrusted it" → "Sailors distrusted it"). Words of one scale step are counted
# alike, so "often" → "frequently" is no change (the scales in claim_words.py judge a step).
_LIMITS = Caseless(r"\b(?:some|many|most|several|few|one\s+of|among|partly|partially|largely|"
                     r"mainly|mostly|chiefly|primarily|in\s+part|at\s+first|initially|usually|"
                     r"generally|normally|typically|often|frequently|sometimes|occasionally|"
                     r"seldom|rarely|much\s+of|(?:greater|larger|better)\s+part|bulk|a\s+number\s+of|"
                     r"a\s+handful\s+of)\b")
_WORD = re.compile(r"[\w']+")
_LIST_MARK = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+")


_LINK_INNER = re.compile(r"!?\[\[([^\]\n]*)\]\]|!?\[([^\]\n]*)\]\([^)\n]*\)")
# Words that make a claim less than certain, or someone's: one added or removed changes what
# the page asserts ("According to Sobel, H4 lost 5.1 s" → "H4 lost 5.1 s").
_HEDGE = Caseless(r"\b(?:may|might|could|possibly|probably|perhaps|likely|reportedly|allegedly|"
                    r"apparently|supposedly|seemingly|arguably|presumably|rumou?red|disputed|"
                    r"unconfirmed|uncertain|approximately|roughly|circa|nearly|almost|"
                    # a claim reported, not asserted: "according to Sobel", "Mudge argued"
                    r"according|argue[sd]?|suggest(?:s|ed)|assert(?:s|ed)|contend(?:s|ed)|"
                    r"believe[sd]?|claimed)\b"
                    r"|\b(?:c|ca)\.(?=[ \t]*\d)")


def _polarity_words(line: str) -> list[str]:
    """A line's words, links read as what they name (`[[John Harrison|Harrison]]`: both)."""
    text = _LINK_INNER.sub(lambda m: f" {m.group(1) or m.group(2) or ''} ", line)
    return _WORD.findall(_LIST_MARK.sub("", text).lower())


# The words (their beginnings) the two patterns above can start or end on: a line and its
# counterpart that differ in none of these differ in neither count (one dict look-up per word
# that differs, not two regex scans per line).
_TURNING = ("fail", "declin", "neglect", "omit", "ceas", "refus", "den", "withh", "held", "unable",
            "unwilling", "lack", "vain", "some", "many", "most", "several", "few", "one", "among",
            "part", "largely", "mainly", "chiefly", "primarily", "first", "initially", "usually",
            "generally", "normally", "typically", "often", "frequently", "sometimes",
            "occasionally", "seldom", "rarely", "much", "bulk", "number", "handful", "back")


def _turning(then: Counter, now: Counter) -> bool:
    """Whether a word of denial or of limit is among the words two lines do not share."""
    get_then, get_now = then.get, now.get
    return any(get_then(w, 0) != get_now(w, 0) and w.startswith(_TURNING)
               for w in then.keys() | now.keys())


# A line that starts a unit of its own: a list item, a table row, a heading, a quote, a fence.
_UNIT_START = re.compile(r"[ \t]*(?:[-*+][ \t]|\d+[.)][ \t]|\||#|>|```|~~~)")
_SENTENCE_END = re.compile(r"(?<=[.!?])[ \t]+(?=[A-Z\[*_\"“(])")


def _sentences(text: str) -> list[str]:
    """The sentences of `text` (lines a change removes or adds), read across line breaks: a
    paragraph's lines are joined before it is cut at each sentence's end, so that the same
    sentence wrapped anew is the same sentence. List items, rows, headings and quotes are
    units of their own; a table row is never cut."""
    units: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            units.append("")  # a blank line ends a paragraph
        elif units and units[-1] and not _UNIT_START.match(line) \
                and not units[-1].startswith(("|", "#", ">", "```", "~~~")):
            units[-1] += " " + line
        else:
            units.append(line)
    out = []
    for unit in units:
        if not unit:
            continue
        if unit.startswith("|"):
            out.append(unit)
            continue
        parts: list[str] = []
        for sentence in _SENTENCE_END.split(unit):  # a short one ("Longitude cannot:") is
            if parts and min(len(sentence.split()), len(parts[-1].split())) < 4:  # read with
                parts[-1] += " " + sentence                                       # its neighbour
            else:
                parts.append(sentence)
        out += parts
    return out


def polarity_flips(gone: str, came: str, limit: int = 50) -> list[tuple[str, str]]:
    """Sentences the change keeps in substance but turns around (read across line breaks:
    _sentences): a removed sentence and the added one most like it (most of their words
    shared) whose negations ("not", "never", "no", "n't"...) differ in number, where a hedge
    comes or goes ("reportedly", "probably", "circa"), where a word gives way to its opposite
    ("slow" → "fast", "reliable" → "unreliable"), where a claim becomes a question or a
    question a claim, or where two of its figures or names trade places. (removed sentence,
    added sentence) pairs; at most `limit` sentences a side are compared."""
    removed, added = _sentences(gone)[:limit], _sentences(came)[:limit]
    if not removed or not added:
        return []
    kept = set(added)
    added_words = [(line, len(words), Counter(words))
                   for line in added if len(words := _polarity_words(line)) >= 4]
    flips = []
    for old in removed:
        if old in kept:
            continue  # the same line stands in the new text: nothing turned around
        old_words = _polarity_words(old)
        if len(old_words) < 4:
            continue
        best, best_share, best_words = None, 0.0, Counter()
        then = Counter(old_words)
        for new, size, now in added_words:
            share = sum((then & now).values()) / max(len(old_words), size)
            if share > best_share:
                best, best_share, best_words = new, share, now
        if best is None or best_share < 0.6:
            continue
        turning = _turning(then, best_words)
        if (len(_NEGATOR.findall(old)) + (len(_DENIAL.findall(old)) if turning else 0)
                != len(_NEGATOR.findall(best)) + (len(_DENIAL.findall(best)) if turning else 0)
                or (turning and len(_LIMITS.findall(old)) != len(_LIMITS.findall(best)))
                or len(_HEDGE.findall(old)) != len(_HEDGE.findall(best))
                or cw.opposed(then - best_words, best_words - then)
                or cw.swapped(old, best)
                or _questions(old) != _questions(best)):
            flips.append((old, best))
    return flips


# A question asks; it does not claim: "Harrison received £10,000" → "Did Harrison receive
# £10,000" takes the claim back (and the other way round asserts what the page only asked).
_AUXILIARY = frozenset("did does do was were is are has have had could would can will shall "
                       "should might may must".split())
_ASKED = frozenset("he she it they we you i the this that these those there".split())


def _questions(text: str) -> int:
    """How many of the sentences in `text` ask (a short one glued to another too)."""
    return sum(map(_asks, _SENTENCE_END.split(text)))


def _asks(sentence: str) -> bool:
    """A question: it ends with "?", or opens with an auxiliary verb put before its subject
    ("Did Harrison...", "Was the watch...")."""
    text = _LIST_MARK.sub("", sentence).strip().lstrip("*_\"“(")
    if text.rstrip(")*_\"”").endswith("?"):
        return True
    words = text.split(None, 2)
    if len(words) < 2 or words[0].lower() not in _AUXILIARY or not words[0][:1].isupper():
        return False
    second = words[1].strip("*_[]")
    return second[:1].isupper() or second.lower() in _ASKED


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

