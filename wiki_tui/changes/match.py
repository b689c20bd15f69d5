"""Apply a model's SEARCH/REPLACE edits to a page, strictly enough never to corrupt it.

Matching is by whole lines. Tiers, first unique hit wins:
  1. exact lines (line endings never matter: a CRLF page matches an LF search);
  2. trailing whitespace ignored;  3. indentation ignored too;  4. runs of inner whitespace
     collapsed.  A search that is one line fragment may also match exactly once inside a line.
Every line of the search must match: there is no first/last-line "anchor" matching (it silently
corrupted files in other tools). A search found twice, or nowhere, raises MatchError naming the
file and showing the real lines, which is what the model is sent for another try. An edit whose
replacement is already in the page is reported as already applied and skipped, never doubled.
All edits of one call apply in order, together or not at all.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process

from wiki_tui.changes.lines import line_body as _body
from wiki_tui.changes.lines import newline_style, split_lines

BOM = "\ufeff"
_WS = re.compile(r"\s+")
_MAX_SHOWN = 3  # candidate places shown in an ambiguity error
_DISTINCTIVE = 12  # characters a replacement needs to be taken as proof of an earlier apply


class MatchError(Exception):
    """An edit that cannot be applied; str() is the message for the model (and the person)."""

    def __init__(self, path: str, message: str, *, edit_index: int = 0, edit_count: int = 1,
                 kind: str = "not_found", candidates: list[int] | None = None) -> None:
        self.path, self.edit_index, self.edit_count = path, edit_index, edit_count
        self.kind = kind  # "not_found" | "ambiguous" | "invalid"
        self.candidates = candidates or []  # 1-based lines where the search matched
        self.message = message
        where = f"edit {edit_index + 1} of {edit_count}" if edit_count > 1 else "the edit"
        super().__init__(f"{path}: {where}: {message}")


@dataclass
class EditReport:
    text: str  # the page after every edit
    already_applied: list[int] = field(default_factory=list)  # indexes of skipped edits
    tiers: list[str] = field(default_factory=list)  # how each edit matched (for diagnostics)


_NORMALISERS = (
    ("exact", lambda s: s),
    ("trailing whitespace", lambda s: s.rstrip()),
    ("indentation", lambda s: s.strip()),
    ("inner whitespace", lambda s: _WS.sub(" ", s.strip())),
)


def _find(page: list[str], search: list[str]) -> list[int]:
    """Start indexes where `search` equals a run of `page` (both already normalised)."""
    m = len(search)
    first = search[0]
    hits = []
    for i in range(len(page) - m + 1):
        if page[i] == first and page[i : i + m] == search:
            hits.append(i)
    return hits


def _trim_blank(lines: list[str]) -> tuple[int, int]:
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return start, end


# -- one edit ----------------------------------------------------------------------------------

def _locate(bodies: list[str], search: list[str]) -> tuple[list[int], str, int]:
    """(start indexes, tier name, match length) of the first tier with any hit."""
    for name, norm in _NORMALISERS:
        page_n = bodies if name == "exact" else [norm(b) for b in bodies]
        hits = _find(page_n, [norm(s) for s in search])
        if hits:
            return hits, name, len(search)
    return [], "", len(search)


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


def _apply_one(lines: list[str], search_text: str, replace_text: str, nl: str,
               path: str, idx: int, count: int) -> tuple[list[str], str]:
    """Return (new lines, tier) or raise MatchError. tier == 'already' means skipped."""
    bodies = [_body(x) for x in lines]
    search = [_body(x) for x in split_lines(search_text)]
    replace = [_body(x) for x in split_lines(replace_text)]
    s0, s1 = _trim_blank(search)
    if s0 == s1:
        raise MatchError(path, "the SEARCH text is blank; copy at least one non-blank line of "
                         "the page into it", edit_index=idx, edit_count=count, kind="invalid")
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
            return lines[:i] + split_lines(new_text) + lines[i + 1 :], "phrase"
        if len(inside) > 1:
            hits = inside  # reported as ambiguous below
    if len(hits) == 1:
        start = hits[0]
        if _already(bodies, replace, hits, m):
            return lines, "already"
        if tier in ("indentation", "inner whitespace"):
            replace = _reindent(replace, bodies[start : start + m], search)
        end = start + m
        last_ending = lines[end - 1][len(bodies[end - 1]):]
        new = [r + nl for r in replace]
        if new and not last_ending:  # the match ran to the end of a file without final newline
            new[-1] = replace[-1]
        return lines[:start] + new + lines[end:], tier
    if hits:
        shown = "\n".join(_show(bodies, h, m, 1) for h in hits[:_MAX_SHOWN])
        more = f"\n(and {len(hits) - _MAX_SHOWN} more)" if len(hits) > _MAX_SHOWN else ""
        where = ", ".join(str(h + 1) for h in hits[:10]) + (", ..." if len(hits) > 10 else "")
        raise MatchError(path, f"the SEARCH text matches {len(hits)} places (lines "
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
            return lines, "already"
        if r1 - r0 == 1 and len(search) == 1 and sum(b.count(replace[r0]) for b in bodies) == 1:
            return lines, "already"  # a phrase replaced before
    near = _closest(bodies, search)
    if near is None:
        hint = "No line of the page resembles it."
    else:
        hint = f"The closest lines in {path} are {_show(bodies, near[0], near[1])}"
    first = next((s for s in search if s.strip()), "")
    raise MatchError(path, f"the SEARCH text was not found (its first line: {first.strip()!r}). "
                     "SEARCH must repeat lines of the page as it is now, exactly, in order. "
                     f"{hint}\nCopy the lines exactly, or send the whole page with '@@@ WRITE'.",
                     edit_index=idx, edit_count=count, kind="not_found")


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
    report = EditReport(text)
    for i, (search, replace) in enumerate(edits):
        lines, tier = _apply_one(lines, search, replace, nl, path, i, len(edits))
        if tier == "already":
            report.already_applied.append(i)
        report.tiers.append(tier)
    report.text = (BOM if bom else "") + "".join(lines)
    return report


def apply_edits(text: str, edits: list[tuple[str, str]], path: str) -> str:
    """The page with every edit applied (already-applied ones skipped), or raise MatchError."""
    return apply_edits_report(text, edits, path).text
