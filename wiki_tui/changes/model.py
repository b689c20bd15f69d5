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

    @property
    def header(self) -> str:
        new_start = self.base_start  # approximate; renderers recompute against the result
        return (f"@@ -{self.base_start + 1},{len(self.old_lines)} "
                f"+{new_start + 1},{len(self.new_lines)} @@")


def compute_hunks(base: str, proposed: str) -> list[Hunk]:
    """Hunks that turn `base` into `proposed`, line-based, no context merged in."""
    a = base.splitlines(keepends=True)
    b = proposed.splitlines(keepends=True)
    hunks: list[Hunk] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        hunks.append(Hunk(len(hunks), i1, i2, a[i1:i2], b[j1:j2]))
    return hunks


def apply_hunks(base: str, hunks: list[Hunk], accepted_only: bool = True) -> str:
    """The base text with the (accepted) hunks applied."""
    lines = base.splitlines(keepends=True)
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

    def __post_init__(self) -> None:
        if self.base_hash is None:
            self.base_hash = text_hash(self.base_text)
        if not self.hunks:
            self.rediff()

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
        hunk.status = REJECTED if hunk.status == ACCEPTED else ACCEPTED
        self._status_from_hunks()

    def set_hunk(self, index: int, status: str) -> None:
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
        self.rediff()

    def result_text(self) -> str | None:
        """What will be written: base plus accepted hunks (None: delete the file)."""
        if self.kind == DELETE:
            return None if self.status == ACCEPTED else self.base_text
        if self.kind == CREATE and not self.base_text:
            return apply_hunks("", self.hunks)
        return apply_hunks(self.base_text or "", self.hunks)

    @property
    def will_write(self) -> bool:
        return self.status == ACCEPTED

    def unified_diff(self, context: int = 3) -> str:
        a = (self.base_text or "").splitlines(keepends=True)
        b = (self.proposed_text or "").splitlines(keepends=True)
        src = self.old_path or self.path
        return "".join(difflib.unified_diff(
            a, b, f"a/{src}" if self.base_text is not None else "/dev/null",
            f"b/{self.path}" if self.proposed_text is not None else "/dev/null", n=context))


@dataclass
class Changeset:
    operation: str  # "ingest" | "query" | "lint" | "instruct" | "save" | "apply"
    title: str
    model: str = "offline"
    files: list[FileChange] = field(default_factory=list)
    findings: list[Any] = field(default_factory=list)  # vault lint findings for the review
    errors: list[str] = field(default_factory=list)  # protocol/match errors not resolved
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
