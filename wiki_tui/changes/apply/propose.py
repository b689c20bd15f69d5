"""A changeset proposed from outside (another agent, over MCP): never written to a page.

The reply is parsed and built exactly as `wiki-tui apply --dry-run` builds it (the same
`build_changeset`, so the same guards, diffs and lint findings), then kept as a pending review
(changes/pending.py) with the proposing agent's name. The person reviews it in the app or
applies it with `wiki-tui apply --pending ID --yes`. A reply with a refusal in it is kept
nowhere: the agent gets every file's reason back and can send a corrected reply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wiki_tui.changes.apply.journal import sync_with_disk
from wiki_tui.changes.apply.pending import Pending, new_pending, save
from wiki_tui.changes.build.changeset import build_changeset
from wiki_tui.changes.model import Changeset
from wiki_tui.changes.reply.stream import parse_reply

OPERATION = "apply"  # the log.md and commit word, as for `wiki-tui apply`


@dataclass
class Proposal:
    """What became of one proposed reply."""

    message: str  # one sentence for the agent: stored (and how to apply), or why not
    changeset: Changeset | None = None
    errors: list[Any] = field(default_factory=list)  # refusals: nothing was stored
    notes: list[Any] = field(default_factory=list)  # told, but not blocking
    pending: Pending | None = None  # set when stored for review

    def to_dict(self) -> dict[str, Any]:
        return {"stored": self.pending is not None,
                "pending_id": self.pending.name if self.pending else None,
                "message": self.message,
                **changeset_dict(self.changeset, self.errors + self.notes)}


def propose(vault: Any, reply: str, *, title: str | None, agent: str) -> Proposal:
    """Build `reply` into a changeset against the vault as it is now and store it as pending
    (unless refused, or there is nothing to change). Writes only the pending file."""
    parsed = parse_reply(reply)
    if not (parsed.blocks or parsed.incomplete or parsed.errors):
        return Proposal("not stored: the reply contains no edit blocks (see the edit protocol: "
                        "@@@ WRITE path / @@@ EDIT path ... @@@ END); nothing to review")
    sync_with_disk(vault)  # the pages as they are now, not as when the server started
    changeset, problems = build_changeset(vault, parsed, operation=OPERATION,
                                          title=title or f"changes proposed by {agent}",
                                          model=agent)
    errors = [e for e in problems if getattr(e, "retry", True)]
    notes = [e for e in problems if not getattr(e, "retry", True)]
    if errors:
        return Proposal(f"not stored: {len(errors)} problem(s) in the reply (see errors); fix "
                        "them and propose the whole reply again", changeset, errors, notes)
    if not changeset.files:
        return Proposal("not stored: the reply's edits are already in the vault", changeset,
                        notes=notes)
    record = new_pending(changeset, agent=agent)
    save(vault.root, record)
    return Proposal(f"stored for review as {record.name}: nothing is written until the person "
                    f"accepts it in wiki-tui (or runs `wiki-tui apply --pending {record.name} "
                    "--yes`)", changeset, notes=notes, pending=record)


def changeset_dict(changeset: Changeset | None, errors: list[Any] = ()) -> dict[str, Any]:
    """A changeset for a program: each file with its diff, the lint findings, and the errors
    (blocking) and notes (not) of building it. Shared by `apply --json` and propose."""
    if changeset is None:
        return {"operation": None, "title": None, "files": [], "repairs": [], "findings": [],
                "errors": [], "notes": []}
    return {
        "operation": changeset.operation, "title": changeset.title,
        "files": [{"path": f.path, "kind": f.kind, "old_path": f.old_path,
                   "diff": f.unified_diff(), "repairs": list(f.repairs),
                   "warnings": list(f.warnings), "hold": f.hold} for f in changeset.files],
        "repairs": list(changeset.repairs),
        "findings": [str(f) for f in changeset.findings],
        "errors": [str(e) for e in errors if getattr(e, "retry", True)],
        "notes": [str(e) for e in errors if not getattr(e, "retry", True)],
    }
