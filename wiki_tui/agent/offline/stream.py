"""The offline engine as a streaming engine (the interface of `agent/engine/stream.py`).

The reply is written from the task (the operation, the vault, its details), in a thread: the
engine reads the vault, up to a second on 10,000 pages, and the TUI keeps painting meanwhile.
Its steps arrive as Progress events while it works; then the reply streams as Token pieces,
and one ChatResult closes the turn (finish reason "stop", cost 0). Setting `cancel` stops the
turn at once (LLMError kind "cancelled"). litellm is never imported here.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from wiki_tui.agent.events import Progress, Token, Usage
from wiki_tui.agent.engine.stream import ChatResult, LLMError, StreamItem, Task, cancelled

_CHUNK = 256  # characters per streamed piece: the reply is ready at once, keep pieces few


async def stream_reply(settings: Any, messages: list[dict], *, tools: list[dict] | None = None,
                       task: Task | None = None, cancel: asyncio.Event | None = None
                       ) -> AsyncIterator[StreamItem]:
    """One offline turn: Progress..., Token..., then a ChatResult. `tools` are never called."""
    from wiki_tui.agent.offline.engine import respond

    if cancel is not None and cancel.is_set():
        raise cancelled()
    loop = asyncio.get_running_loop()
    steps: asyncio.Queue[Progress] = asyncio.Queue()

    def progress(stage: str, done: int = 0, total: int = 0) -> None:  # from the worker thread
        loop.call_soon_threadsafe(steps.put_nowait, Progress(stage, done, total))

    work = asyncio.ensure_future(asyncio.to_thread(respond, task, messages, progress))
    stop = asyncio.ensure_future(cancel.wait()) if cancel is not None else None
    try:
        while not work.done():
            step = asyncio.ensure_future(steps.get())
            done, _ = await asyncio.wait({work, step, *([stop] if stop else [])},
                                         return_when=asyncio.FIRST_COMPLETED)
            if step.done():
                yield step.result()
            else:
                step.cancel()
            if stop is not None and stop in done:
                raise cancelled()
        try:
            text = work.result()
        except Exception as exc:  # a fault of the engine itself: said, never a traceback
            raise LLMError(f"The offline engine failed: {type(exc).__name__}: {exc}",
                           "error") from exc
        while not steps.empty():
            yield steps.get_nowait()
    finally:
        if stop is not None:
            stop.cancel()
        # a cancelled turn leaves the thread to finish its read; its reply is dropped
    for start in range(0, len(text), _CHUNK):
        if cancel is not None and cancel.is_set():
            raise cancelled(text[:start])
        yield Token(text[start:start + _CHUNK])
        await asyncio.sleep(0)  # let the consumer render between pieces
    yield ChatResult(text, finish_reason="stop", usage=_usage(messages, text))


def _usage(messages: list[dict], text: str) -> Usage:
    """Tokens as a model would count them (~4 characters each); the engine costs nothing."""
    prompt = sum(len(str(m.get("content") or "")) for m in messages) // 4
    return Usage(prompt, len(text) // 4, 0.0)
