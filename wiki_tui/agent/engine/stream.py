"""The streaming interface every engine serves, and what both engines share.

An engine answers one model turn as an async stream: `Token` pieces of the reply (and `Retry`
or `Progress` events on the way), then exactly one `ChatResult` (the whole text, tool calls,
finish reason, usage). A fault is raised as `LLMError(reason, kind, partial_reply)`, a message
meant for the person. Two engines serve it (`agent/engine/engines.py` picks one):

- litellm's (`agent/engine/llm.py`), for every real model; litellm is imported lazily, in it alone;
- the built-in offline engine (`agent/offline/`), which never imports litellm.

    async for item in engine(settings, messages, tools=None, task=task, cancel=cancel):
        ...   # Token | Retry | Progress, then one ChatResult

A `Task` says which operation the turn serves (ingest, query, ...), on which vault, with what
details: a language model reads the prompt; the offline engine, which reads the vault itself,
reads the task. Nothing here imports litellm, Textual or the engines.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, Protocol, Union

from wiki_tui.agent.events import Progress, Retry, Token, Usage

# Kinds of a reply that stopped before its end: the agent may send it back for another round.
CUT_OFF_KINDS = frozenset({"dropped", "incomplete"})


class LLMError(Exception):
    """A fault of the model call, described for the person (never a traceback)."""

    def __init__(self, reason: str, kind: str = "error", partial_reply: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind
        self.partial_reply = partial_reply


def cancelled(partial: str = "") -> LLMError:
    """The fault of a turn the person cancelled."""
    return LLMError("Cancelled; nothing was applied.", "cancelled", partial)


@dataclass
class ChatResult:
    """One finished model turn."""

    text: str
    tool_calls: list[dict] = field(default_factory=list)  # {"id", "name", "arguments": str}
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    cut_off: str = ""  # why the reply stopped before its end (a dropped or unfinished stream)

    @property
    def message(self) -> dict:
        """The assistant message to append to the conversation."""
        msg: dict[str, Any] = {"role": "assistant", "content": self.text or None}
        if self.tool_calls:
            msg["tool_calls"] = [{"id": c["id"], "type": "function",
                                  "function": {"name": c["name"], "arguments": c["arguments"]}}
                                 for c in self.tool_calls]
        return msg


@dataclass
class Task:
    """What a turn is for: the operation ("ingest", "query", ...), the vault, its details."""

    operation: str
    vault: Any
    args: dict = field(default_factory=dict)


StreamItem = Union[Token, Retry, Progress, ChatResult]


class Engine(Protocol):
    """One model turn, streamed (see the module doc)."""

    def __call__(self, settings: Any, messages: list[dict], *, tools: list[dict] | None = None,
                 task: Task | None = None, cancel: asyncio.Event | None = None
                 ) -> AsyncIterator[StreamItem]: ...
