"""Apply a model's SEARCH/REPLACE edits to a page, strictly enough never to corrupt it.

Matching is by whole lines. Tiers, tried in order; the first tier with any hit decides, and it
must have exactly one:
  1. exact lines (line endings never matter: a CRLF page matches an LF search);
  2. trailing whitespace ignored;  3. indentation ignored too;  4. runs of inner whitespace
     collapsed.  A search that is one line fragment may then match exactly once inside a line.
  5. typography ignored: curly quotes, en/em dashes, no-break spaces, '…' (models retype them);
  6. line-number prefixes ("12 | ", "12: ", "12→") a model copied into every SEARCH line are
     removed (and from REPLACE lines that carry them), then tiers 1-5 again;
  7. a re-wrapped paragraph: the same words in the same order, with other line breaks.
Tiers 2-7 are computed only when the exact tier fails, so a well-formed reply costs no more.
Every line of the search must match: there is no first/last-line "anchor" matching and no fuzzy
similarity (both silently corrupted files in other tools). Where a tolerant tier matched, lines
the REPLACE repeats unchanged from the SEARCH keep the page's own characters, and the report
says which tier matched (a repair note for the review). A search found twice, or nowhere, raises
MatchError naming the file and showing the real lines, which is what the model is sent for
another try. An edit whose replacement is already in the page is reported as already applied
and skipped, never doubled; an edit whose REPLACE equals its SEARCH is refused as changing
nothing. All edits of one call apply in order, together or not at all.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from wiki_tui.changes.lines import line_body as _body
from wiki_tui.changes.lines import newline_style, split_lines

BOM = "\ufeff"
_MAX_SHOWN = 3  # candidate places shown in an ambiguity error
_DISTINCTIVE = 12  # characters a replacement needs to be taken as proof of an earlier apply


class MatchError(Exception):
    """An edit that cannot be applied; str() is the message for the model (and the person)."""

    def __init__(self, path: str, message: str, *, edit_index: int = 0, edit_count: int = 1,
                 kind: str = "not_found", candidates: list[int] | None = None) -> None:
        self.path, self.edit_index, self.edit_count = path, edit_index, edit_count
        self.kind = kind  # "not_found" | "ambiguous" | "invalid" | "unchanged"
        self.candidates = candidates or []  # 1-based lines where the search matched
        self.message = message
        where = f"edit {edit_index + 1} of {edit_count}" if edit_count > 1 else "the edit"
        super().__init__(f"{path}: {where}: {message}")


@dataclass
class EditReport:
    text: str  # the page after every edit
    already_applied: list[int] = field(default_factory=list)  # indexes of skipped edits
    tiers: list[str] = field(default_factory=list)  # how each edit matched (for diagnostics)
    notes: list[str] = field(default_factory=list)  # tolerant matches, as repair notes


# What models retype: curly quotes, primes, dashes and the minus sign, no-break and thin spaces,
# the one-character ellipsis. Each maps to what a keyboard types.
_TYPOGRAPHY = str.maketrans({
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
    **dict.fromkeys("\u00a0\u2007\u2009\u200a\u202f", " "),
    "\u2026": "...",
})


def _typed(s: str) -> str:
    """A line as typed on a keyboard (an ASCII line already is: the common case, kept cheap)."""
    return s if s.isascii() else s.translate(_TYPOGRAPHY)


def _plain(s: str) -> str:
    """A line as typed on a keyboard, with its spacing collapsed (tier 5)."""
    return " ".join(_typed(s).split())


_NORMALISERS = (
    ("exact", lambda s: s),
    ("trailing whitespace", lambda s: s.rstrip()),
    ("indentation", lambda s: s.strip()),
    ("inner whitespace", lambda s: " ".join(s.split())),
)
_TYPOGRAPHIC = (("typography", _plain),)

# How each tolerant tier is named in the review (trailing whitespace is invisible: no note).
TIER_NOTES = {
    "indentation": "matched ignoring indentation",
    "inner whitespace": "matched ignoring spacing inside lines",
    "typography": "matched ignoring typography (curly quotes, dashes, non-breaking spaces, '…')",
    "line numbers": "matched after removing the line numbers copied into its SEARCH",
    "re-wrapped": "matched a re-wrapped paragraph (the same words with other line breaks)",
}

# "12 | text", "12: text", "  12→text", "12\ttext": how tools and error quotes number lines
# ("12:30" is a time, not a number prefix).
_NUMBERED = re.compile(r"^[ \t]*L?(\d{1,7})(?:[ \t]*[|\u2192\u2502][ ]?|:(?: |$)|\t)(.*)$")


def _find(page: list[str], search: list[str]) -> list[int]:
    """Start indexes where `search` equals a run of `page` (both already normalised)."""
    m = len(search)
    first = search[0]
    hits: list[int] = []
    i = -1
    last = len(page) - m
    while True:
        try:
            i = page.index(first, i + 1, last + 1)  # C speed over a long page
        except ValueError:
            return hits
        if page[i : i + m] == search:
            hits.append(i)


def _trim_blank(lines: list[str]) -> tuple[int, int]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return start, end


# -- one edit ----------------------------------------------------------------------------------

def _locate(bodies: list[str], search: list[str],
            tiers: tuple = _NORMALISERS) -> tuple[list[int], str, int]:
    """(start indexes, tier name, match length) of the first tier with any hit."""
    for name, norm in tiers:
        page_n = bodies if name == "exact" else [norm(b) for b in bodies]
        hits = _find(page_n, [norm(s) for s in search])
        if hits:
            return hits, name, len(search)
    return [], "", len(search)


def _unnumbered(search: list[str], replace: list[str]) -> tuple[list[str], list[str]] | None:
    """SEARCH and REPLACE without the line numbers a model copied in front of every SEARCH line
    (numbers counting up by one), or None when the SEARCH is not numbered that way."""
    found = [_NUMBERED.match(s) for s in search]
    if not all(found):
        return None
    numbers = [int(m.group(1)) for m in found if m]
    if any(b != a + 1 for a, b in zip(numbers, numbers[1:])):
        return None
    strip = lambda line: (m.group(2) if (m := _NUMBERED.match(line)) else line)  # noqa: E731
    return [m.group(2) for m in found if m], [strip(r) for r in replace]


def _words(lines: list[str]) -> list[list[str]]:
    """Each line as its words (typography plain); a blank line is one paragraph mark."""
    return [_typed(line).split() or ["\n"] for line in lines]


def _rewrapped(bodies: list[str], search: list[str]) -> list[tuple[int, int]]:
    """(start, length) of every page run of whole lines holding exactly the search's words in
    order, paragraph breaks included, whatever the line breaks (tier 7)."""
    want = [w for line in _words(search) for w in line]
    if len(want) < 2:
        return []
    page = _words(bodies)
    out = []
    for i, first_line in enumerate(page):
        if first_line[0] != want[0]:
            continue
        got: list[str] = []
        j = i
        while j < len(page) and len(got) < len(want):
            got.extend(page[j])
            j += 1
            if got != want[: len(got)]:
                break
        if got == want:
            out.append((i, j - i))
    return out


def _keep_page_spelling(replace: list[str], search: list[str], page_run: list[str]) -> list[str]:
    """REPLACE lines that repeat a SEARCH line unchanged take the page line it matched: a
    tolerant match must not retype the page's own quotes, dashes or spacing."""
    if len(search) != len(page_run):
        return replace
    mine: dict[str, str] = {}
    for s, p in zip(search, page_run):
        if mine.setdefault(s.rstrip(), p) != p:
            mine[s.rstrip()] = ""  # one SEARCH line matched two differing page lines: ambiguous
    return [mine.get(r.rstrip()) or r for r in replace]


def _reindent(replace: list[str], page_run: list[str], search: list[str]) -> list[str]:
    """When the match ignored indentation, shift the replacement by the same consistent offset."""
    pairs = [(p, s) for p, s in zip(page_run, search) if s.strip()]
    if not pairs:
        return replace
    deltas = set()
    for p, s in pairs:
        pi, si = p[: len(p) - len(p.lstrip())], s[: len(s) - len(s.lstrip())]
        if pi.endswith(si):
            deltas.add(("add", pi[: len(pi) - len(si)]))
        elif si.endswith(pi):
            deltas.add(("drop", si[: len(si) - len(pi)]))
        else:
            return replace
    if len(deltas) != 1:
        return replace
    how, prefix = deltas.pop()
    if not prefix:
        return replace
    out = []
    for r in replace:
        if not r.strip():
            out.append(r)
        elif how == "add":
            out.append(prefix + r)
        else:
            out.append(r[len(prefix):] if r.startswith(prefix) else r)
    return out


def _closest(bodies: list[str], search: list[str]) -> tuple[int, int] | None:
    """The page window most like the search (0-based start, length): the longest run of shared
    lines (difflib), else the single most similar line (rapidfuzz, C speed on a 1 MB page)."""
    if not bodies:
        return None
    page_n = [b.strip() for b in bodies]
    want = [s.strip() for s in search]
    sm = difflib.SequenceMatcher(None, page_n, want, autojunk=False)
    a, b, size = sm.find_longest_match(0, len(page_n), 0, len(want))
    if size and any(len(x) >= 4 for x in page_n[a : a + size]):  # not just a '---' or blank
        return max(0, a - b), len(want)
    best, best_i = 0.0, -1
    for k, line in enumerate(want[:5]):  # no shared line: the most similar single line
        if not line:
            continue
        hit = process.extractOne(line, page_n, scorer=fuzz.ratio, score_cutoff=50)
        if hit and hit[1] > best:
            best, best_i = hit[1], max(0, hit[2] - k)
    if best_i < 0:
        return None
    return best_i, len(want)


def _show(bodies: list[str], start: int, length: int, context: int = 1) -> str:
    """Page lines start..start+length (plus context) in a fence, ready to copy into a SEARCH."""
    lo, hi = max(0, start - context), min(len(bodies), start + length + context)
    shown = bodies[lo:hi]
    longest = max((len(run) for line in shown for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"lines {lo + 1}-{hi}:\n{fence}\n" + "".join(x + "\n" for x in shown) + fence


def _splice(lines: list[str], bodies: list[str], start: int, end: int,
            new: list[str]) -> tuple[list[str], list[str]]:
    """Lines [start, end) replaced by `new`, the bodies kept in step rather than recomputed
    (a reply with hundreds of edits to a long page would pay O(page) per edit)."""
    return (lines[:start] + new + lines[end:],
            bodies[:start] + [_body(x) for x in new] + bodies[end:])


def _apply_one(lines: list[str], bodies: list[str], search_text: str, replace_text: str,
               nl: str, path: str, idx: int,
               count: int) -> tuple[list[str], list[str], str]:
    """Return (new lines, their bodies, tier) or raise MatchError; tier 'already': skipped."""
    search = [_body(x) for x in split_lines(search_text)]
    replace = [_body(x) for x in split_lines(replace_text)]
    s0, s1 = _trim_blank(search)
    if s0 == s1:
        raise MatchError(path, "the SEARCH text is blank; copy at least one non-blank line of "
                         "the page into it", edit_index=idx, edit_count=count, kind="invalid")
    if [s.rstrip() for s in search] == [r.rstrip() for r in replace]:
        raise MatchError(path, "it changes nothing: its REPLACE equals its SEARCH. Put the "
                         "changed lines in REPLACE, or leave this pair out",
                         edit_index=idx, edit_count=count, kind="unchanged")
    if (s0, s1) != (0, len(search)):  # blank lines around the search are noise, not anchors
        r0, r1 = _trim_blank(replace)
        lead, trail = min(s0, r0), min(len(search) - s1, len(replace) - r1)
        search = search[s0:s1]
        replace = replace[lead : len(replace) - trail]
    hits, tier, m = _locate(bodies, search)
    if not hits and len(search) == 1:  # a phrase inside one line
        inside = [i for i, b in enumerate(bodies) if search[0] in b]
        if len(inside) == 1 and bodies[inside[0]].count(search[0]) == 1:
            i = inside[0]
            ending = lines[i][len(bodies[i]):]
            new_text = bodies[i].replace(search[0], nl.join(replace), 1) + ending
            return *_splice(lines, bodies, i, i + 1, split_lines(new_text)), "phrase"
        if len(inside) > 1:
            hits = inside  # reported as ambiguous below
    if not hits:
        hits, tier, m = _locate(bodies, search, _TYPOGRAPHIC)
    if not hits and (plain := _unnumbered(search, replace)) is not None:
        found, _, m = _locate(bodies, plain[0], _NORMALISERS + _TYPOGRAPHIC)
        if found:
            search, replace = plain
            hits, tier = found, "line numbers"
    lengths = [m] * len(hits)
    if not hits:
        runs = _rewrapped(bodies, search)
        if runs:
            hits, lengths, tier = [r[0] for r in runs], [r[1] for r in runs], "re-wrapped"
    if len(hits) == 1:
        start, m = hits[0], lengths[0]
        if _already(bodies, replace, hits, m):
            return lines, bodies, "already"
        if tier in ("indentation", "inner whitespace", "typography", "line numbers"):
            replace = _reindent(replace, bodies[start : start + m], search)
        if tier not in ("exact", "re-wrapped"):
            replace = _keep_page_spelling(replace, search, bodies[start : start + m])
        end = start + m
        last_ending = lines[end - 1][len(bodies[end - 1]):]
        new = [r + nl for r in replace]
        if new and not last_ending:  # the match ran to the end of a file without final newline
            new[-1] = replace[-1]
        return *_splice(lines, bodies, start, end, new), tier
    if hits:
        m = lengths[0]
        shown = "\n".join(_show(bodies, h, m, 1) for h in hits[:_MAX_SHOWN])
        more = f"\n(and {len(hits) - _MAX_SHOWN} more)" if len(hits) > _MAX_SHOWN else ""
        where = ", ".join(str(h + 1) for h in hits[:10]) + (", ..." if len(hits) > 10 else "")
        note = TIER_NOTES.get(tier)  # exact and trailing-whitespace matches go unnamed
        how = f" ({note.replace('matched ', '')})" if note else ""
        raise MatchError(path, f"the SEARCH text matches {len(hits)} places{how} (lines "
                         f"{where}); it must match exactly one. "
                         "Add neighbouring lines to the SEARCH (and the same lines to the "
                         f"REPLACE) so that it is unique.\n{shown}{more}",
                         edit_index=idx, edit_count=count, kind="ambiguous",
                         candidates=[h + 1 for h in hits])
    # Not found: perhaps it was already applied (the replacement is there, the search is not).
    # Only a distinctive replacement counts: a short one ("TODO") may be there by chance.
    if sum(len(r.strip()) for r in replace) >= _DISTINCTIVE:
        r0, r1 = _trim_blank(replace)
        rhits, _, _ = _locate(bodies, replace[r0:r1])
        if len(rhits) == 1:
            return lines, bodies, "already"
        if r1 - r0 == 1 and len(search) == 1 and sum(b.count(replace[r0]) for b in bodies) == 1:
            return lines, bodies, "already"  # a phrase replaced before
    near = _closest(bodies, search)
    if near is None:
        hint = "No line of the page resembles it."
    else:
        hint = (_first_difference(bodies, near[0], search) + "The closest lines in "
                f"{path} are {_show(bodies, near[0], near[1])}")
    first = next((s for s in search if s.strip()), "")
    raise MatchError(path, f"the SEARCH text was not found (its first line: {first.strip()!r}). "
                     "SEARCH must repeat lines of the page as it is now, exactly, in order. "
                     f"{hint}\nCopy the lines exactly, or send the whole page with '@@@ WRITE'.",
                     edit_index=idx, edit_count=count, kind="not_found")


def _first_difference(bodies: list[str], start: int, search: list[str]) -> str:
    """'Closest line 12 differs at column 34: ...' when a line of the closest window differs
    from its SEARCH line in only a few characters (a retyped dash, a dropped letter)."""
    for k, want in enumerate(search):
        if start + k >= len(bodies):
            break
        have = bodies[start + k]
        if have.strip() == want.strip():
            continue
        p, s = have.strip(), want.strip()
        sm = difflib.SequenceMatcher(None, p, s, autojunk=False)
        ops = [op for op in sm.get_opcodes() if op[0] != "equal"]
        changed = sum(max(i2 - i1, j2 - j1) for _, i1, i2, j1, j2 in ops)
        if not ops or changed > max(3, len(p) // 10):
            return ""
        _, i1, i2, j1, j2 = ops[0]
        column = len(have) - len(have.lstrip()) + i1 + 1
        return (f"Closest line {start + k + 1} differs at column {column}: the page has "
                f"{p[i1:i2] or '(nothing)'!r}, the SEARCH has {s[j1:j2] or '(nothing)'!r}. ")
    return ""


def _already(bodies: list[str], replace: list[str], hits: list[int], m: int) -> bool:
    """The replacement already sits where the search matched (e.g. an append done twice)."""
    r0, r1 = _trim_blank(replace)
    rep = [r.strip() for r in replace[r0:r1]]
    if not rep or len(rep) <= m:
        return False  # a replacement no longer than the search cannot contain it
    page_n = [b.strip() for b in bodies]
    start = hits[0]
    for j in range(max(0, start + m - len(rep)), start + 1):
        if page_n[j : j + len(rep)] == rep:
            return True
    return False


# -- all edits of one file ---------------------------------------------------------------------

def apply_edits_report(text: str, edits: list[tuple[str, str]], path: str) -> EditReport:
    """Apply every edit in order (each sees the result of the ones before) or raise MatchError."""
    bom = text.startswith(BOM)
    body = text[1:] if bom else text
    nl = newline_style(body)
    lines = split_lines(body)
    bodies = [_body(x) for x in lines]
    report = EditReport(text)
    for i, (search, replace) in enumerate(edits):
        lines, bodies, tier = _apply_one(lines, bodies, search, replace, nl, path, i, len(edits))
        if tier == "already":
            report.already_applied.append(i)
        elif tier in TIER_NOTES:
            which = f"edit {i + 1}" if len(edits) > 1 else "the edit"
            report.notes.append(f"{which} {TIER_NOTES[tier]}")
        report.tiers.append(tier)
    report.text = (BOM if bom else "") + "".join(lines)
    return report


def apply_edits(text: str, edits: list[tuple[str, str]], path: str) -> str:
    """The page with every edit applied (already-applied ones skipped), or raise MatchError."""
    return apply_edits_report(text, edits, path).text
