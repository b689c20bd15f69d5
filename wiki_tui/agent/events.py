"""The event stream of one operation, consumed alike by the TUI and the headless CLI.

    Started -> Progress... / Token... -> ToolActivity... / Retry... -> FileProposed ->
            FileProgress... -> FileReady ... -> [Answer (query) | Findings (lint)] ->
            ChangesetReady -> Done | Failed

Done.notice carries what the person should know even on success (edits left out, no changes
proposed). Failed.kind names the fault: cancelled, auth, model, network (cannot connect),
dropped (the connection broke mid-reply), timeout (no bytes for `timeout` s), limit (the reply
ran past `reply_limit` s), incomplete (the stream ended without a finish reason, or the model ran
out of output tokens), protocol (the answer was not an OpenAI-compatible stream), unusable (no
edit of the reply could be used), rate_limit, server, request, context, refused, config, input,
error. A Failed operation applies nothing.

An operation is an async generator of these. Nothing here imports litellm or Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:  # pragma: no cover
    from wiki_tui.changes.model import Changeset, FileChange


@dataclass(frozen=True)
class Started:
    operation: str  # "ingest" | "query" | "lint" | "instruct" | "save"
    title: str  # what the operation is about (source name, question, instruction)
    model: str  # the litellm model string, or "offline" for the built-in engine
    offline: bool = False


@dataclass(frozen=True)
class Token:
    text: str  # a piece of the model's reply as it streams (prose and edit blocks alike)


@dataclass(frozen=True)
class ToolActivity:
    tool: str  # "read_page" | "search" | "backlinks" | "read_source" | "context" ...
    detail: str  # one line for the person, e.g. "read concepts/Foo.md"


@dataclass(frozen=True)
class Progress:
    """How far a long operation has got (converting a source, reading its parts, the offline
    engine's steps): a line or a bar in the conversation and on the CLI's stderr. A new
    Progress replaces the last one shown; `total` 0 means the count is not known."""

    stage: str  # what is being done now, for the person: "reading part 2 of 5"
    done: int = 0  # steps finished
    total: int = 0  # steps in all (0: unknown)

    @property
    def fraction(self) -> float | None:
        """0..1 when the count is known, else None."""
        return min(1.0, self.done / self.total) if self.total > 0 else None


@dataclass(frozen=True)
class Retry:
    reason: str  # why another round/attempt: rate limit, protocol errors sent back, ...
    attempt: int
    wait_seconds: float = 0.0
    edit_round: bool = False  # another edit round (the reply's edits sent back), not a re-send
    refused: int = 0  # edit round: how many of the reply's edits were refused and sent back


@dataclass(frozen=True)
class FileProposed:
    path: str  # vault-relative posix path the model started writing
    kind: str  # "create" | "modify" | "delete" | "rename" | "write" | "edit"


@dataclass(frozen=True)
class FileProgress:
    path: str
    text: str  # the block's content so far (for a live preview)


@dataclass(frozen=True)
class FileReady:
    change: "FileChange"  # one file's complete, matched change (diff computed)


@dataclass(frozen=True)
class ChangesetReady:
    changeset: "Changeset"  # every file of the operation, linted; waits for review
    # (changeset.left_out: pages whose edits could not be used; applying is then partial)


@dataclass(frozen=True)
class Answer:
    text: str  # the final prose answer of a query (citations as [[Page]] links)
    citations: tuple[str, ...] = ()  # vault paths cited


@dataclass(frozen=True)
class LintItem:
    """One lint finding shown to the person (structural from the vault, or model-checked)."""

    id: str  # stable across runs: what .wiki-tui/dismissed.json records
    code: str  # "broken-link", "orphan", ... | "contradiction", "superseded", "missing-page", ...
    path: str
    message: str
    line: int = 0
    evidence: str = ""  # the quoted text the finding rests on
    suggestion: str | None = None
    source: str = "structural"  # "structural" | "model"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        text = f"{where}: [{self.code}] {self.message}"
        return text + (f' — "{self.evidence}"' if self.evidence else "")


@dataclass(frozen=True)
class Findings:
    items: tuple[LintItem, ...]  # what lint found (dismissed findings already left out)
    dismissed: int = 0  # how many were hidden because the person dismissed them


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None  # None when litellm does not know the price


@dataclass(frozen=True)
class Done:
    usage: Usage = field(default_factory=Usage)
    reply: str = ""  # the whole reply text
    notice: str = ""  # something the person should know (reply cut short, no changes, ...)


@dataclass(frozen=True)
class Failed:
    reason: str  # a clear, specific message for the person (never a traceback)
    partial_reply: str = ""  # what streamed before the failure, kept for reading
    kind: str = "error"  # "cancelled" | "auth" | "network" | "timeout" | "rate_limit" | ...


Event = Union[
    Started, Progress, Token, ToolActivity, Retry, FileProposed, FileProgress, FileReady,
    ChangesetReady, Answer, Findings, Done, Failed,
]


def event_to_json(event: Any) -> dict:
    """A JSON-ready dict for `--json` output (changesets summarised, not dumped)."""
    name = type(event).__name__
    if isinstance(event, FileReady):
        change = event.change
        return {"event": name, "path": change.path, "kind": change.kind,
                "hunks": len(change.hunks)}
    if isinstance(event, ChangesetReady):
        cs = event.changeset
        return {"event": name, "operation": cs.operation, "title": cs.title,
                "files": [{"path": f.path, "kind": f.kind, "repairs": list(f.repairs),
                           "warnings": list(f.warnings), "hold": f.hold} for f in cs.files],
                "repairs": list(cs.repairs),
                "findings": [str(f) for f in cs.findings],
                "errors": list(cs.errors), "left_out": list(cs.left_out)}
    if isinstance(event, Findings):
        return {"event": name, "dismissed": event.dismissed,
                "items": [vars(item) | {"text": str(item)} for item in event.items]}
    data = {"event": name}
    for key, value in vars(event).items():
        data[key] = vars(value) if isinstance(value, Usage) else value
    return data
