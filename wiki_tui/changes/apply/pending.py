"""Changesets waiting for review, kept on disk so that quitting never loses them.

One file per changeset: `<state>/pending/NAME.json`, where `<state>` is `state_dir(vault)`
(vault/state.py: `<vault>/.wiki-tui/`, or the user cache for a folder not adopted), NAME:
`YYYYMMDD-HHMMSS-OPERATION-XXXXXX`, sortable by time. The format is plain JSON, version 1:

    {"format": 1, "created": "2026-11-25T09:15:02+00:00",
     "operation": "ingest", "title": "...", "model": "...", "agent": null | "claude-code",
     "source": "raw/... (ingest)",
     "errors": ["..."], "repairs": ["..."], "findings": [{code, path, line, message, ...}],
     "files": [{"path": "concepts/X.md", "kind": "create|modify|delete|rename",
                "old_path": null, "base_text": null | "...", "base_hash": null | "sha256 hex",
                "proposed_text": null | "...", "status": "pending|accepted|rejected|conflict",
                "hunks": ["accepted", "rejected", ...], "conflict": null | "...",
                "edited_by_hand": false, "repairs": [], "warnings": [], "hold": null,
                "breaches": [{"code", "path", "message", "declared", "declarable"}]}],
     "intents": {path: reason}}

`agent` names another program that proposed the changeset (an MCP client, by the name it gave
when it connected); null for the app's own operations. Older files without it read as null.

`base_text` is what the file held when the change was proposed and `base_hash` its SHA-256
(`model.text_hash`); hunks are recomputed from base and proposed text, so only their decisions
are stored. Loading does not look at the disk: the caller re-checks the bases
(`journal.check_conflicts`) so a file changed since shows as changed on disk. Writing is atomic
(temp file and rename); a file that does not parse is reported and left in place.
"""

from __future__ import annotations

import datetime as _dt
import json
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wiki_tui.changes.apply import atomic
from wiki_tui.changes.build.knowledge.invariants import Breach
from wiki_tui.changes.model import Changeset, FileChange
from wiki_tui.changes.usage import Spend
from wiki_tui.vault.indexing.cache import ensure_state_dir
from wiki_tui.vault.state import state_dir

FORMAT = 1
PENDING_DIR = "pending"


@dataclass
class Pending:
    """A changeset as kept on disk: its file name (without .json) and when it was proposed."""

    name: str
    created: str  # ISO 8601, UTC
    changeset: Changeset
    agent: str | None = None  # the outside agent that proposed it (MCP), None for the app's own


def pending_dir(root: Path) -> Path:
    return state_dir(root) / PENDING_DIR  # the user cache for a folder not adopted


def new_pending(changeset: Changeset, agent: str | None = None) -> Pending:
    now = _dt.datetime.now(_dt.timezone.utc)  # `created` keeps the microseconds: the order
    name = f"{now:%Y%m%d-%H%M%S}-{changeset.operation}-{secrets.token_hex(3)}"  # of one second
    return Pending(name, now.isoformat(), changeset, agent)


def to_dict(pending: Pending) -> dict[str, Any]:
    cs = pending.changeset
    return {
        "format": FORMAT, "created": pending.created,
        "operation": cs.operation, "title": cs.title, "model": cs.model, "agent": pending.agent,
        "source": cs.source, "intents": dict(cs.intents),
        "errors": list(cs.errors), "repairs": list(cs.repairs),
        "findings": [f.to_dict() if hasattr(f, "to_dict") else {"message": str(f)}
                     for f in cs.findings],
        "files": [_file_dict(change) for change in cs.files],
        "spend": None if cs.spend is None else {
            "tokens_in": cs.spend.tokens_in, "tokens_out": cs.spend.tokens_out,
            "cost_usd": cs.spend.cost_usd},
    }


def _file_dict(change: FileChange) -> dict[str, Any]:
    return {
        "path": change.path, "kind": change.kind, "old_path": change.old_path,
        "base_text": change.base_text, "base_hash": change.base_hash,
        "proposed_text": change.proposed_text, "status": change.status,
        "hunks": [hunk.status for hunk in change.hunks], "conflict": change.conflict,
        "edited_by_hand": change.edited_by_hand, "repairs": list(change.repairs),
        "warnings": list(change.warnings), "hold": change.hold,
        "breaches": [b.to_dict() for b in change.breaches],
        "rendered_from": change.rendered_from,
    }


def from_dict(name: str, data: dict[str, Any]) -> Pending:
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown format {data.get('format')!r}")
    cs = Changeset(data["operation"], data["title"], model=data.get("model", "offline"),
                   errors=list(data.get("errors", [])), repairs=list(data.get("repairs", [])),
                   findings=[_finding(f) for f in data.get("findings", [])],
                   source=data.get("source", ""), intents=dict(data.get("intents", {})))
    cs.files = [_file_change(f) for f in data["files"]]
    spend = data.get("spend")
    if isinstance(spend, dict):
        cs.spend = Spend(cs.model, int(spend.get("tokens_in") or 0),
                         int(spend.get("tokens_out") or 0), spend.get("cost_usd"))
    return Pending(name, data.get("created", ""), cs, data.get("agent"))


def _file_change(data: dict[str, Any]) -> FileChange:
    change = FileChange(data["path"], data["kind"], data.get("base_text"),
                        data.get("proposed_text"), old_path=data.get("old_path"),
                        base_hash=data.get("base_hash"), conflict=data.get("conflict"),
                        edited_by_hand=bool(data.get("edited_by_hand")),
                        repairs=list(data.get("repairs", [])),
                        warnings=list(data.get("warnings", [])), hold=data.get("hold"),
                        breaches=[Breach.from_dict(b) for b in data.get("breaches", [])],
                        rendered_from=data.get("rendered_from"))
    decisions = data.get("hunks", [])
    if len(decisions) == len(change.hunks):  # the same texts diff the same way
        for hunk, status in zip(change.hunks, decisions):
            hunk.status = status
    change.status = data.get("status", change.status)
    return change


def _finding(data: dict[str, Any]) -> Any:
    from wiki_tui.vault.lint import Finding

    try:
        return Finding(**data)
    except TypeError:  # written by a newer version: keep the words
        return data.get("message", str(data))


def save(root: Path, pending: Pending) -> Path:
    path = pending_dir(root) / f"{pending.name}.json"
    ensure_state_dir(path.parent.parent)  # with its .gitignore: pending work never reaches git
    path.parent.mkdir(exist_ok=True)
    data = json.dumps(to_dict(pending), indent=1)  # ASCII: surrogate escapes survive
    atomic.atomic_write(path, data.encode("ascii"), sync_dir=False)
    return path


def load_all(root: Path) -> tuple[list[Pending], list[str]]:
    """Every pending changeset, oldest first, and a line per file that could not be read."""
    found: list[Pending] = []
    problems: list[str] = []
    folder = pending_dir(root)
    if not folder.is_dir():
        return found, problems
    for path in sorted(folder.glob("*.json")):
        try:
            found.append(from_dict(path.stem, json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            problems.append(f"{path.name}: {exc}")
    found.sort(key=lambda p: p.created)  # names share a second; `created` tells them apart
    return found, problems


def discard(root: Path, name: str) -> None:
    try:
        (pending_dir(root) / f"{name}.json").unlink()
    except FileNotFoundError:
        pass


def load_one(root: Path, ident: str) -> Pending:
    """The pending changeset named `ident`: its whole name, or any part of it that only one
    name contains (the random suffix, say). LookupError says which exist when none or several
    match; ValueError when the file does not parse."""
    folder = pending_dir(root)
    names = sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []
    ident = ident.strip().removesuffix(".json")
    matches = [ident] if ident in names else [n for n in names if ident and ident in n]
    if len(matches) != 1:
        listing = ", ".join(names) if names else "none"
        why = "no pending changeset" if not matches else "several pending changesets match"
        raise LookupError(f"{why} {ident!r} (pending: {listing})")
    path = folder / f"{matches[0]}.json"
    try:
        return from_dict(matches[0], json.loads(path.read_text(encoding="utf-8")))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{path.name}: {exc}") from None
