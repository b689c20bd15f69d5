"""The changeset: one operation's proposed edits across every file it touches, with review state.

A `FileChange` holds a file's base text (what was on disk when proposed, with its hash) and the
proposed text; its hunks come from diffing the two. The text to write is the base with only the
accepted hunks applied. This module is pure data and diffing: no disk, no git, no model.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
from dataclasses import dataclass, field
from typing import Any

from wiki_tui.changes.lines import diff_opcodes, line_body, split_lines
from wiki_tui.changes.usage import Spend

PENDING, ACCEPTED, REJECTED, CONFLICT = "pending", "accepted", "rejected", "conflict"
CREATE, MODIFY, DELETE, RENAME = "create", "modify", "delete", "rename"

_ids = itertools.count(1)


def text_hash(text: str | None) -> str | None:
    """Hash of a file's text as read (None for a file that does not exist)."""
    if text is None:
        return None
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


@dataclass
class Hunk:
    """One contiguous change: base lines [base_start, base_end) become `new_lines`."""

    index: int
    base_start: int  # 0-based line index into the base text's lines
    base_end: int
    old_lines: list[str]  # with line endings, as in the base
    new_lines: list[str]  # with line endings
    status: str = PENDING
    new_start: int = -1  # 0-based line index into the proposed text (-1: unknown)

    @property
    def header(self) -> str:
        """Unified-diff style header; line numbers are 1-based (0 for an empty side)."""
        new_start = self.new_start if self.new_start >= 0 else self.base_start
        old_no = self.base_start + 1 if self.old_lines else self.base_start
        new_no = new_start + 1 if self.new_lines else new_start
        return f"@@ -{old_no},{len(self.old_lines)} +{new_no},{len(self.new_lines)} @@"

    @property
    def added(self) -> int:
        return len(self.new_lines)

    @property
    def removed(self) -> int:
        return len(self.old_lines)


@dataclass(frozen=True)
class DiffLine:
    """One rendered line of a hunk with its context, for the review."""

    tag: str  # " " context, "-" removed (base), "+" added (proposed)
    old_no: int | None  # 1-based line number in the base
    new_no: int | None  # 1-based line number in the proposed text
    text: str  # without its line ending


def compute_hunks(base: str, proposed: str) -> list[Hunk]:
    """Hunks that turn `base` into `proposed`, line-based, no context merged in.

    Patience diff with a bounded difflib fallback (see lines.py): a 100 KB page diffs in
    milliseconds even when it is full of repeated lines.
    """
    a = split_lines(base)
    b = split_lines(proposed)
    return [Hunk(k, i1, i2, a[i1:i2], b[j1:j2], new_start=j1)
            for k, (_tag, i1, i2, j1, j2) in enumerate(diff_opcodes(a, b))]


def hunk_lines(base: str, hunk: Hunk, context: int = 3) -> list[DiffLine]:
    """A hunk with `context` unchanged base lines either side, numbered, for display."""
    lines = split_lines(base)
    new_start = hunk.new_start if hunk.new_start >= 0 else hunk.base_start
    shift = new_start - hunk.base_start  # proposed line = base line + shift, around this hunk
    out: list[DiffLine] = []
    for i in range(max(0, hunk.base_start - context), hunk.base_start):
        out.append(DiffLine(" ", i + 1, i + 1 + shift, line_body(lines[i])))
    for k, line in enumerate(hunk.old_lines):
        out.append(DiffLine("-", hunk.base_start + k + 1, None, line_body(line)))
    for k, line in enumerate(hunk.new_lines):
        out.append(DiffLine("+", None, new_start + k + 1, line_body(line)))
    after_shift = shift + len(hunk.new_lines) - len(hunk.old_lines)
    for i in range(hunk.base_end, min(len(lines), hunk.base_end + context)):
        out.append(DiffLine(" ", i + 1, i + 1 + after_shift, line_body(lines[i])))
    return out


_INTRALINE_MAX = 2000  # longer lines are marked as changed whole (difflib is quadratic-ish)


def intraline_spans(old: str, new: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Character spans that differ between a removed line and its replacement, for highlighting
    inside a hunk: ([(start, end) in old], [(start, end) in new])."""
    if len(old) > _INTRALINE_MAX or len(new) > _INTRALINE_MAX:
        return ([(0, len(old))] if old else []), ([(0, len(new))] if new else [])
    sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
    a_spans: list[tuple[int, int]] = []
    b_spans: list[tuple[int, int]] = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "equal":
            if i2 > i1:
                a_spans.append((i1, i2))
            if j2 > j1:
                b_spans.append((j1, j2))
    return a_spans, b_spans


def apply_hunks(base: str, hunks: list[Hunk], accepted_only: bool = True) -> str:
    """The base text with the (accepted) hunks applied."""
    lines = split_lines(base)
    out: list[str] = []
    pos = 0
    for hunk in hunks:
        if accepted_only and hunk.status != ACCEPTED:
            continue
        out.extend(lines[pos:hunk.base_start])
        out.extend(hunk.new_lines)
        pos = hunk.base_end
    out.extend(lines[pos:])
    return "".join(out)


@dataclass
class FileChange:
    path: str  # vault-relative posix path (the new path for a rename)
    kind: str  # CREATE | MODIFY | DELETE | RENAME
    base_text: str | None  # None when the file does not exist yet
    proposed_text: str | None  # None for a delete
    old_path: str | None = None  # for RENAME: where the page was
    base_hash: str | None = None
    hunks: list[Hunk] = field(default_factory=list)
    status: str = PENDING
    conflict: str | None = None  # why the file conflicts with disk, when status == CONFLICT
    edited_by_hand: bool = False
    # What the program did to read the model's edit as meant ("unwrapped a fence", "matched
    # ignoring indentation"): the person sees every repair before accepting.
    repairs: list[str] = field(default_factory=list)
    # What the person must look at before accepting (a rewrite that drops most of the page,
    # uncommitted hand edits in the base, the vault's schema): shown with the file.
    warnings: list[str] = field(default_factory=list)
    # Set when the file must not be applied by `--yes` alone (the reason, for the message).
    hold: str | None = None
    # What the change does to the wiki that an invariant forbids unseen (invariants.Breach):
    # each holds the file from `--yes` unless the reply declared it or the person allowed it.
    breaches: list[Any] = field(default_factory=list)
    # A file the program drew from a page's spec (a chart's SVG): the page's path. It follows
    # that page's decision at apply (changes/build/form_files.py).
    rendered_from: str | None = None

    def __post_init__(self) -> None:
        if self.base_hash is None:
            self.base_hash = text_hash(self.base_text)
        if not self.hunks:
            self.rediff()

    @property
    def source(self) -> str:
        """The path the change reads from disk (a rename's old path)."""
        return self.old_path if self.kind == RENAME and self.old_path else self.path

    def warn(self, warning: str) -> None:
        """Add a warning for the review, once."""
        if warning not in self.warnings:
            self.warnings.append(warning)

    # -- review ---------------------------------------------------------------------------
    def rediff(self) -> None:
        self.hunks = compute_hunks(self.base_text or "", self.proposed_text or "")

    def accept(self) -> None:
        self.status = ACCEPTED
        for hunk in self.hunks:
            hunk.status = ACCEPTED

    def reject(self) -> None:
        self.status = REJECTED
        for hunk in self.hunks:
            hunk.status = REJECTED

    def toggle_hunk(self, index: int) -> None:
        hunk = self.hunks[index]
        self.set_hunk(index, REJECTED if hunk.status == ACCEPTED else ACCEPTED)

    def set_hunk(self, index: int, status: str) -> None:
        if self.kind == DELETE:  # half a deletion is not a deletion: the file goes or stays
            {ACCEPTED: self.accept, REJECTED: self.reject}.get(status, lambda: None)()
            return
        self.hunks[index].status = status
        self._status_from_hunks()

    def _status_from_hunks(self) -> None:
        states = {h.status for h in self.hunks}
        if states == {REJECTED}:
            self.status = REJECTED
        elif ACCEPTED in states:
            self.status = ACCEPTED  # partially or wholly accepted: something will be written
        else:
            self.status = PENDING

    def set_proposed(self, text: str) -> None:
        """The person replaced the proposed text by hand: re-diff, back to pending."""
        self.proposed_text = text
        self.edited_by_hand = True
        self.status = PENDING
        if self.kind == DELETE:  # the person kept the page, with this text
            self.kind = MODIFY
        self.rediff()

    def result_text(self) -> str | None:
        """What will be written: base plus accepted hunks (None: delete the file)."""
        if self.kind == DELETE:
            return None if self.status == ACCEPTED else self.base_text
        if self.status == REJECTED:
            return self.base_text
        if self.kind == CREATE and not self.base_text:
            return apply_hunks("", self.hunks)
        return apply_hunks(self.base_text or "", self.hunks)

    @property
    def will_write(self) -> bool:
        return self.status == ACCEPTED

    def hunk_lines(self, index: int, context: int = 3) -> list[DiffLine]:
        """Hunk `index` with numbered context lines, for the review."""
        return hunk_lines(self.base_text or "", self.hunks[index], context)

    @property
    def stats(self) -> tuple[int, int]:
        """(lines added, lines removed) over all hunks."""
        return (sum(h.added for h in self.hunks), sum(h.removed for h in self.hunks))

    def unified_diff(self, context: int = 3) -> str:
        """The proposed change as a unified diff (from the hunks: no second diff pass)."""
        src = self.old_path or self.path
        head = [f"--- {'a/' + src if self.base_text is not None else '/dev/null'}\n",
                f"+++ {'b/' + self.path if self.proposed_text is not None else '/dev/null'}\n"]
        if not self.hunks:
            return "".join(head) if self.old_path and self.old_path != self.path else ""
        base = split_lines(self.base_text or "")
        out = head
        for group in _context_groups(self.hunks, len(base), context):
            first, last = group[0], group[-1]
            lo = max(0, first.base_start - context)
            hi = min(len(base), last.base_end + context)
            shift = (first.new_start if first.new_start >= 0 else first.base_start) - first.base_start
            new_len = (hi - lo) + sum(len(h.new_lines) - len(h.old_lines) for h in group)
            old_no = lo + 1 if hi > lo else lo
            new_no = lo + shift + 1 if new_len else lo + shift
            out.append(f"@@ -{old_no},{hi - lo} +{new_no},{new_len} @@\n")
            pos = lo
            for h in group:
                out.extend(_diff_line(" ", x) for x in base[pos:h.base_start])
                out.extend(_diff_line("-", x) for x in h.old_lines)
                out.extend(_diff_line("+", x) for x in h.new_lines)
                pos = h.base_end
            out.extend(_diff_line(" ", x) for x in base[pos:hi])
        return "".join(out)


def _diff_line(tag: str, line: str) -> str:
    if line.endswith("\n"):
        return tag + line
    return f"{tag}{line}\n\\ No newline at end of file\n"


def _context_groups(hunks: list[Hunk], n_lines: int, context: int) -> list[list[Hunk]]:
    """Hunks whose context windows touch, grouped (as `diff -u` prints them)."""
    groups: list[list[Hunk]] = []
    for h in hunks:
        if groups and h.base_start - groups[-1][-1].base_end <= 2 * context:
            groups[-1].append(h)
        else:
            groups.append([h])
    return groups


def proposed_texts(files: list[FileChange]) -> dict[str, str | None]:
    """What the files would leave on disk: path -> proposed text, None for a path removed (a
    deleted page, a renamed page's old path). The vault's view of a change (vault/proposed.py)."""
    out: dict[str, str | None] = {}
    for fc in files:
        if fc.kind == RENAME and fc.old_path:
            out[fc.old_path] = None
        out[fc.path] = fc.proposed_text
    return out


@dataclass
class Changeset:
    operation: str  # "ingest" | "query" | "lint" | "instruct" | "save" | "apply"
    title: str
    model: str = "offline"
    files: list[FileChange] = field(default_factory=list)
    findings: list[Any] = field(default_factory=list)  # vault lint findings for the review
    errors: list[str] = field(default_factory=list)  # protocol/match errors not resolved
    repairs: list[str] = field(default_factory=list)  # reply-wide repairs (see FileChange)
    # pages whose edits the model never got right (refused or cut off after the last retry
    # round; their messages are in errors): an apply is then partial, and its log entry says so
    left_out: list[str] = field(default_factory=list)
    spend: Spend | None = None  # the model's tokens and cost (log.md and the commit record them)
    source: str = ""  # an ingest's raw/ path: its log entry names it (what counts as ingested)
    knowledge: Any = None  # its knowledge diff (knowledge.KnowledgeDiff), once judged
    intents: dict[str, str] = field(default_factory=dict)  # pages the reply declared: reason
    id: int = field(default_factory=lambda: next(_ids))

    def file(self, path: str) -> FileChange | None:
        return next((f for f in self.files if f.path == path), None)

    def accept_all(self) -> None:
        for f in self.files:
            if f.status != CONFLICT:
                f.accept()

    def reject_all(self) -> None:
        for f in self.files:
            f.reject()

    @property
    def accepted(self) -> list[FileChange]:
        return [f for f in self.files if f.status == ACCEPTED]

    @property
    def rejected(self) -> list[FileChange]:
        return [f for f in self.files if f.status == REJECTED]

    @property
    def pending(self) -> list[FileChange]:
        return [f for f in self.files if f.status == PENDING]
