"""The rows a file's diff is drawn from: hunk headers and numbered lines, unified or split.

Built once per focused file (and again when its hunks change); the DiffView renders only the
rows on screen. The base is split once per file: model.hunk_lines splits it per hunk, which
costs seconds on a big page with hundreds of hunks.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import zip_longest

from wiki_tui.changes.lines import line_body, split_lines
from wiki_tui.changes.model import FileChange

CONTEXT = 3  # unchanged lines shown around each hunk


@dataclass(slots=True)
class Cell:
    tag: str  # " " context, "-" removed, "+" added
    old_no: int | None
    new_no: int | None
    text: str
    pair: str | None = None  # a changed line's counterpart on the other side, for word emphasis


@dataclass(slots=True)
class Row:
    kind: str  # "header" | "line" | "gap"
    hunk: int  # index of the hunk the row belongs to
    left: Cell | None = None  # unified: the line; split: the base side
    right: Cell | None = None  # split only: the proposed side


def build_rows(change: FileChange, *, split: bool, context: int = CONTEXT) -> list[Row]:
    """Rows for every hunk of `change`, context shared between neighbouring hunks (not repeated)."""
    base = split_lines(change.base_text or "")
    rows: list[Row] = []
    shown = 0  # base lines [0, shown) are already on screen
    for k, hunk in enumerate(change.hunks):
        new_start = hunk.new_start if hunk.new_start >= 0 else hunk.base_start
        shift = new_start - hunk.base_start
        first = max(shown, hunk.base_start - context)
        if rows and first > shown:
            rows.append(Row("gap", k))
        rows.append(Row("header", k))
        for i in range(first, hunk.base_start):
            _context(rows, k, i + 1, i + 1 + shift, line_body(base[i]), split)
        old = [Cell("-", hunk.base_start + j + 1, None, line_body(x)) for j, x in enumerate(hunk.old_lines)]
        new = [Cell("+", None, new_start + j + 1, line_body(x)) for j, x in enumerate(hunk.new_lines)]
        for a, b in zip(old, new):  # paired in order: the usual shape of an edited paragraph
            a.pair, b.pair = b.text, a.text
        if split:
            rows.extend(Row("line", k, a, b) for a, b in zip_longest(old, new))
        else:
            rows.extend(Row("line", k, cell) for cell in old + new)
        after = shift + len(hunk.new_lines) - len(hunk.old_lines)
        nxt = change.hunks[k + 1].base_start if k + 1 < len(change.hunks) else len(base)
        end = min(len(base), hunk.base_end + context, nxt)
        for i in range(hunk.base_end, end):
            _context(rows, k, i + 1, i + 1 + after, line_body(base[i]), split)
        shown = end
    return rows


def _context(rows: list[Row], k: int, old_no: int, new_no: int, text: str, split: bool) -> None:
    if split:
        rows.append(Row("line", k, Cell(" ", old_no, None, text), Cell(" ", None, new_no, text)))
    else:
        rows.append(Row("line", k, Cell(" ", old_no, new_no, text)))


def hunk_starts(rows: list[Row]) -> dict[int, int]:
    """Hunk index -> row index of its header."""
    return {row.hunk: i for i, row in enumerate(rows) if row.kind == "header"}
