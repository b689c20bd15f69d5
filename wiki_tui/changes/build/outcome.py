"""Judging a built changeset by its outcome: its knowledge diff, then the invariants on it.

`judge` is the one call build.py makes after a changeset is built (and `apply --pending` before
it applies a changeset kept for review): it computes the knowledge diff (knowledge/diff.py), puts it
on the changeset, and puts each file's breaches (knowledge/invariants.py) on the file, released where the
reply declared the intent (intent.py). A failure in here never passes a change unseen: every
file is held with the reason.
"""

from __future__ import annotations

from typing import Any

from wiki_tui.changes.build.knowledge.invariants import Breach, assess
from wiki_tui.changes.build.knowledge.diff import KnowledgeDiff, knowledge_diff
from wiki_tui.changes.model import Changeset
from wiki_tui.changes.reply.twins import TwinIndex
from wiki_tui.vault.proposed import Proposed


def judge(vault: Any, changeset: Changeset, *, intents: dict[str, str] | None = None,
          rewrites: set[str] = frozenset(), twins: TwinIndex | None = None,
          proposed: Proposed | None = None) -> KnowledgeDiff:
    """Compute and attach the knowledge diff and the breaches of `changeset` (`proposed`: the
    vault after it, vault/proposed.py, when the caller read it already for the lint)."""
    intents = dict(intents or changeset.intents or {})
    changeset.intents = intents
    try:
        diff = knowledge_diff(vault, changeset, twins=twins, proposed=proposed)
        assess(changeset, diff, intents=intents, rewrites=set(rewrites))
    except Exception as exc:  # noqa: BLE001 - a bug here must hold, never pass, the change
        diff = KnowledgeDiff()
        for fc in changeset.files:
            fc.breaches = [Breach("links", fc.path, "the change could not be assessed "
                                  f"({exc!r}): review it", declarable=False)]
    changeset.knowledge = diff
    return diff


def outcome_dict(changeset: Changeset) -> dict[str, Any]:
    """The knowledge diff and the declared intents, for `--json` (files carry their breaches,
    see `breaches_dict`)."""
    diff = changeset.knowledge
    return {"knowledge": diff.to_dict() if diff is not None else None,
            "intents": dict(changeset.intents)}


def breaches_dict(fc: Any) -> list[dict[str, Any]]:
    return [b.to_dict() | {"holds": b.holds} for b in getattr(fc, "breaches", ())]


def outcome_lines(changeset: Changeset) -> list[tuple[str, str]]:
    """(label, text) lines saying what the changeset does to the wiki: the summary, then each
    file's breaches (`held` or `declared`). The CLI's text output prints them."""
    out: list[tuple[str, str]] = []
    if changeset.knowledge is not None:
        out.append(("outcome", changeset.knowledge.summary()))
    for fc in changeset.files:
        for b in getattr(fc, "breaches", ()):
            out.append(("held" if b.holds else "declared", f"{fc.path}: {b}"))
    return out
