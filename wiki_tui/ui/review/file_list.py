"""How a changeset's files and its lint findings read in the review's side column."""

from __future__ import annotations

from typing import Any, Iterable

from rich.style import Style
from rich.table import Table
from rich.text import Text

from wiki_tui.changes.model import (ACCEPTED, CONFLICT, CREATE, DELETE, MODIFY, PENDING, REJECTED,
                                    RENAME, Changeset, FileChange)
from wiki_tui.ui.frame.elide import ElidedPath

GLYPHS = {PENDING: "·", ACCEPTED: "✓", REJECTED: "✗", CONFLICT: "!"}
KIND_LETTERS = {CREATE: "C", MODIFY: "M", DELETE: "D", RENAME: "R"}
STATUS_COLOURS = {PENDING: "foreground-muted", ACCEPTED: "success", REJECTED: "error",
                  CONFLICT: "warning"}


def status_style(status: str, variables: dict[str, str]) -> Style:
    colour = variables.get(STATUS_COLOURS.get(status, "foreground"))
    try:
        return Style(color=colour, bold=status != PENDING)
    except Exception:  # a theme variable Rich cannot parse: plain text is still readable
        return Style(bold=status != PENDING)


def file_row(change: FileChange, variables: dict[str, str]) -> Table:
    """One file: status glyph, kind letter, path (elided in the middle to fit), +added −removed."""
    style = status_style(change.status, variables)
    grid = Table.grid(expand=True, padding=(0, 1))
    grid.add_column(no_wrap=True, width=1)
    grid.add_column(no_wrap=True, width=1)
    grid.add_column(ratio=1, no_wrap=True)
    grid.add_column(no_wrap=True, justify="right")
    added, removed = change.stats
    stats = Text(no_wrap=True)
    stats.append(f"+{added}", variables.get("text-success", "green"))
    stats.append(f" −{removed}", variables.get("text-error", "red"))
    path = change.path + (" ✎" if change.edited_by_hand else "")
    grid.add_row(Text(GLYPHS.get(change.status, "?"), style=style),
                 Text(KIND_LETTERS.get(change.kind, "?"), style="bold"), ElidedPath(path), stats)
    return grid


def describe(change: FileChange, *, stale: bool = False) -> Text:
    """The focused file's title line: path, kind, status, counts, and why it conflicts."""
    added, removed = change.stats
    kind = change.kind if change.kind != RENAME else f"rename from {change.old_path}"
    hunks = len(change.hunks)
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(change.path, "bold")
    text.append(f"  {kind} · {change.status} · +{added} −{removed} · "
                f"{hunks} hunk{'s' if hunks != 1 else ''}")
    if change.edited_by_hand:
        text.append(" · edited by hand")
    for warning in change.warnings:
        text.append(f"  ⚠ {warning}", "bold")
    for repair in change.repairs:
        text.append(f"  ↻ {repair}")
    if stale:
        text.append("  ⚠ changed on disk — d re-diffs", "bold")
    elif change.status == CONFLICT:
        text.append(f"  ⚠ {change.conflict or 'conflict'}", "bold")
    return text


def summary(changeset: Changeset) -> str:
    counts = {s: 0 for s in (ACCEPTED, REJECTED, PENDING, CONFLICT)}
    for change in changeset.files:
        counts[change.status] = counts.get(change.status, 0) + 1
    parts = [f"{counts[s]} {s}" for s in (ACCEPTED, REJECTED, PENDING) if counts[s] or s == PENDING]
    if counts[CONFLICT]:
        parts.append(f"{counts[CONFLICT]} conflict{'s' if counts[CONFLICT] != 1 else ''}")
    n = len(changeset.files)
    return f"{n} file{'s' if n != 1 else ''}: " + ", ".join(parts)


def notes_text(findings: Iterable[Any], errors: Iterable[str],
               repairs: Iterable[str] = (), *, operation: str = "") -> Text:
    """Lint findings (one readable line each), unresolved protocol errors, and the repairs the
    program made to read the reply. The findings are those the changes would bring: for a lint's
    fixes, "no lint findings" read as if the lint had found nothing."""
    findings, errors, repairs = list(findings), list(errors), list(repairs)
    text = Text()
    if repairs:
        text.append(f"Repaired to read the reply ({len(repairs)})\n", "bold")
        for repair in repairs:
            text.append(f"• {_one_line(repair)}\n")
    if findings:
        text.append(f"Lint ({len(findings)})\n", "bold")
        for finding in findings:
            text.append(f"• {_one_line(str(finding))}\n")
    if errors:
        text.append(f"Not applied — model errors ({len(errors)})\n", "bold")
        for error in errors:
            text.append(f"• {_one_line(error)}\n")
    if not findings and not errors:
        text.append("The fixes add no new findings." if operation == "lint" else "No lint findings.",
                    "italic")
    text.rstrip()
    return text


def _one_line(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else ""
    return first if len(first) <= 300 else first[:299] + "…"
