"""Which engine answers a turn: the built-in offline engine, or litellm's for a real model.

Both serve the streaming interface of `agent/engine/stream.py`. The offline engine's path never
imports litellm (a command that uses it starts in well under a second); litellm's module is
imported only when a real model is configured, and litellm itself only on the first call.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from wiki_tui.agent.engine.stream import StreamItem, Task


def stream_reply(settings: Any, messages: list[dict], *, tools: list[dict] | None = None,
                 task: Task | None = None, cancel: asyncio.Event | None = None
                 ) -> AsyncIterator[StreamItem]:
    """One model turn from the engine `settings` name (see agent/engine/stream.py)."""
    if settings.offline:
        from wiki_tui.agent.offline.stream import stream_reply as offline

        return offline(settings, messages, tools=tools, task=task, cancel=cancel)
    from wiki_tui.agent.engine.llm import stream_chat

    return stream_chat(settings, messages, tools=tools, cancel=cancel)
