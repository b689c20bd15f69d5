"""An agent's proposals: propose a changeset (kept as a pending review, never written), list the
ones it proposed that still wait for the person, withdraw one of its own. An agent sees and
withdraws only its own proposals (by the name and version its client sent when it connected);
the person's reviews and other agents' are not its business."""

from __future__ import annotations

from typing import Any

from wiki_tui.changes.apply import pending
from wiki_tui.mcp_server.tools.common import ToolInputError, text_arg
from wiki_tui.vault import Vault


def propose_changes(vault: Vault, reply: str, title: str | None, agent: str) -> dict[str, Any]:
    """Build the reply into a changeset (as `apply --dry-run`), keep it as a pending review."""
    from wiki_tui.changes.apply.propose import propose  # with git: not on the start-up path

    if title is not None and not isinstance(title, str):
        raise ToolInputError("title must be a string")
    answer = propose(vault, text_arg(reply, "reply"), title=(title or "").strip() or None,
                     agent=agent).to_dict()
    # Kept nowhere because of what the reply holds (refusals, or no edit blocks at all): an
    # error for the client, with the same answer. (Edits already in the vault are no refusal.)
    answer["refused"] = not answer["stored"] and bool(answer["errors"] or answer["operation"] is None)
    return answer


def _mine(vault: Vault, agent: str) -> list[pending.Pending]:
    records, _problems = pending.load_all(vault.root)
    return [record for record in records if record.agent == agent]


def my_proposals(vault: Vault, agent: str) -> dict[str, Any]:
    """The agent's proposals still waiting for review, oldest first."""
    return {"agent": agent, "proposals": [
        {"pending_id": r.name, "created": r.created, "title": r.changeset.title,
         "files": [f.path for f in r.changeset.files]} for r in _mine(vault, agent)]}


def withdraw_proposal(vault: Vault, pending_id: str, agent: str) -> dict[str, Any]:
    """Take back one of the agent's own pending proposals (its whole name or its last part)."""
    ident = text_arg(pending_id, "pending_id").strip()
    mine = _mine(vault, agent)
    matches = [r for r in mine if r.name == ident] or [r for r in mine if r.name.endswith(ident)]
    if len(matches) != 1:
        listed = ", ".join(r.name for r in mine) or "none"
        why = "no pending proposal of yours" if not matches else "several of your proposals match"
        raise ToolInputError(f"{why} {ident!r} (yours: {listed}); the person may have "
                             "applied or rejected it already")
    pending.discard(vault.root, matches[0].name)
    return {"withdrawn": matches[0].name, "title": matches[0].changeset.title}
