"""Tables read by their columns: a change that relabels a table's columns under its rows, rows
whose cells moved with their columns, and cells moved to another column under the same header.

A table's header names what each column's cells are. Header cells put in another order while
the rows keep theirs ("| Machine | Finished |" → "| Finished | Machine |" over "| H1 | 1735 |")
make every row say something else, though no figure and no row changes. A real reordering of
columns moves every row's cells the same way: that passes, and those rows' cells trading places
is not a claim turned around. The other way round, a row whose cells change places under a
header that stays ("| H1 | 1735 | balances |" → "| H1 | balances | 1735 |") files each of them
under what another column names.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_ROW = re.compile(r"^[ \t]{0,3}\|.*\|[ \t]*$")
_RULE = re.compile(r"^[ \t]{0,3}\|?(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*$")
_BAR = re.compile(r"(?<!\\)\|")


class Table(NamedTuple):
    header: tuple[str, ...]  # its cells, compared as read (case and spacing folded)
    rows: list[tuple[str, ...]]
    header_line: str  # as written, stripped
    row_lines: list[str]


def cells(row: str) -> tuple[str, ...]:
    """A row's cells, case and spacing folded (a `\\|` inside a cell is text)."""
    parts = _BAR.split(row.strip())
    return tuple(" ".join(p.split()).casefold() for p in parts[1:-1])


def tables(text: str) -> list[Table]:
    """Each table of `text` (a header row over a `|---|` rule), in order."""
    out = []
    lines = text.split("\n")
    i, n = 0, len(lines)
    while i + 1 < n:
        if _ROW.match(lines[i]) and _RULE.match(lines[i + 1]):
            head, i = lines[i], i + 2
            raw = []
            while i < n and _ROW.match(lines[i]):
                raw.append(lines[i].strip())
                i += 1
            out.append(Table(cells(head), [cells(r) for r in raw], head.strip(), raw))
        else:
            i += 1
    return out


def _reorders(before: list[Table], after: list[Table]):
    """(old table, new table, moved) for each new header that puts an old header's distinct
    cells in another order: new column j holds old column moved[j]."""
    known = {t.header for t in before}
    for new in after:
        if new.header in known or len(set(new.header)) < 2:
            continue
        for old in before:
            if sorted(old.header) == sorted(new.header) and len(set(old.header)) == len(old.header):
                yield old, new, [old.header.index(cell) for cell in new.header]
                break


def columns_relabelled(base: str, proposed: str) -> list[str]:
    """Headers ("old → new") whose cells the change reorders while rows of the table keep their
    order of cells."""
    if "|" not in base or "|" not in proposed:
        return []
    out = []
    for old, new, moved in _reorders(tables(base), tables(proposed)):
        kept = set(old.rows) & set(new.rows)  # rows as they were: their cells did not move
        if any(len(row) == len(moved) and tuple(row[k] for k in moved) != row for row in kept):
            out.append(f"{old.header_line} → {new.header_line}")
    return out


def rows_moved_with_columns(base: str, proposed: str) -> set[tuple[str, str]]:
    """(old row, new row) as written, for rows whose cells moved exactly as their table's
    columns did: a column reordering, not facts trading places."""
    if "|" not in base or "|" not in proposed:
        return set()
    out = set()
    for old, new, moved in _reorders(tables(base), tables(proposed)):
        now = {cells_: line for cells_, line in zip(new.rows, new.row_lines)}
        for row, line in zip(old.rows, old.row_lines):
            if len(row) == len(moved) and (placed := now.get(tuple(row[k] for k in moved))):
                out.add((line, placed))
    return out


def cells_reordered(base: str, proposed: str) -> list[str]:
    """Rows ("old → new", as written) whose cells the change puts in another order while their
    table's header stays as it was."""
    if "|" not in base or "|" not in proposed:
        return []
    by_header = {t.header: t for t in reversed(tables(base))}  # (the first of a header wins)
    out = []
    for new in tables(proposed):
        old = by_header.get(new.header)
        if old is None:
            continue  # a new or reordered header: columns_relabelled's, or a new table
        kept = set(old.rows) & set(new.rows)
        gone = {tuple(sorted(row)): line for row, line in zip(old.rows, old.row_lines)
                if row not in kept}
        for row, line in zip(new.rows, new.row_lines):
            if row in kept or len(set(row)) < 2:
                continue
            was = gone.pop(tuple(sorted(row)), None)
            if was is not None:
                out.append(f"{was} → {line}")
    return out
