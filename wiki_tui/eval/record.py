"""One task's run as data: the operation's events, read into what the scores need.

The reply of each edit round is the text streamed between two edit-round Retry events (the
model's tool-call turns inside a round are part of that round's reply).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from wiki_tui.agent.events import (
    Answer, ChangesetReady, Done, Failed, Findings, Retry, Token, Usage,
)


@dataclass
class StepRecord:
    rounds: list[str] = field(default_factory=lambda: [""])  # each edit round's reply text
    refused_per_round: list[int] = field(default_factory=list)  # from edit-round Retry events
    usage: Usage = field(default_factory=Usage)
    changeset: Any = None
    answer: str | None = None
    citations: tuple[str, ...] = ()
    findings: tuple = ()  # LintItems (structural and model-checked)
    failed: Failed | None = None
    notice: str = ""
    first_token_s: float | None = None
    wall_s: float = 0.0

    @property
    def model_findings(self) -> list:
        return [item for item in self.findings if item.source == "model"]


async def record(events: AsyncIterator, on_token: Callable[[], None] | None = None
                 ) -> StepRecord:
    """Consume an operation's events into a StepRecord (timings from the first event on)."""
    rec = StepRecord()
    start = time.monotonic()
    async for event in events:
        if isinstance(event, Token):
            if rec.first_token_s is None:
                rec.first_token_s = time.monotonic() - start
            rec.rounds[-1] += event.text
            if on_token is not None:
                on_token()
        elif isinstance(event, Retry) and event.edit_round:
            rec.refused_per_round.append(event.refused)
            rec.rounds.append("")
        elif isinstance(event, Answer):
            rec.answer, rec.citations = event.text, tuple(event.citations)
        elif isinstance(event, Findings):
            rec.findings = tuple(event.items)
        elif isinstance(event, ChangesetReady):
            rec.changeset = event.changeset
        elif isinstance(event, Done):
            rec.usage, rec.notice = event.usage, event.notice
        elif isinstance(event, Failed):
            rec.failed, rec.usage = event, event.usage  # a failed step's tokens were spent too
    rec.wall_s = time.monotonic() - start
    return rec
