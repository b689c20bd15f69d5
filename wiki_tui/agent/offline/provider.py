"""The litellm custom provider that serves the offline engine ("wiki-offline/engine").

The engine needs the operation and the vault, not just the prompt: the operation registers a
`Task` and passes its id in the call's `metadata` ({"wiki_tui_task": id}), which litellm hands
to the provider as `litellm_params["metadata"]` (tests/agent/test_offline.py checks this).
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

PROVIDER = "wiki-offline"
TASK_KEY = "wiki_tui_task"
_CHUNK = 256  # characters per streamed chunk: the engine is instant, keep the chunk count low


@dataclass
class Task:
    """What the engine is asked to do: operation ("ingest", "query", ...), the vault, details."""

    operation: str
    vault: Any
    args: dict = field(default_factory=dict)


_tasks: dict[str, Task] = {}
_ids = itertools.count(1)
_lock = threading.Lock()


def register_task(task: Task) -> str:
    with _lock:
        task_id = f"task-{next(_ids)}"
        _tasks[task_id] = task
    return task_id


def release_task(task_id: str) -> None:
    with _lock:
        _tasks.pop(task_id, None)


def _task_of(litellm_params: dict | None) -> Task | None:
    metadata = (litellm_params or {}).get("metadata") or {}
    task_id = metadata.get(TASK_KEY)
    return _tasks.get(task_id) if task_id else None


def _reply(litellm_params: dict | None, messages: list) -> str:
    from wiki_tui.agent.offline.engine import respond

    return respond(_task_of(litellm_params), messages)


def _usage(messages: list, text: str) -> dict:
    prompt = sum(len(str(m.get("content") or "")) for m in messages) // 4
    completion = len(text) // 4
    return {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion}


def _chunks(text: str, messages: list) -> Iterator[dict]:
    for start in range(0, len(text), _CHUNK):
        yield {"text": text[start:start + _CHUNK], "is_finished": False, "finish_reason": None,
               "usage": None, "index": 0, "tool_use": None}
    yield {"text": "", "is_finished": True, "finish_reason": "stop",
           "usage": _usage(messages, text), "index": 0, "tool_use": None}


def register(litellm: Any) -> None:
    """Add the engine to litellm.custom_provider_map (idempotent)."""
    from litellm import CustomLLM
    from litellm.types.utils import GenericStreamingChunk

    class OfflineEngine(CustomLLM):
        def completion(self, model, messages, *args, litellm_params=None, **kwargs):
            text = _reply(litellm_params, messages)
            return litellm.ModelResponse(
                model=f"{PROVIDER}/engine",
                choices=[{"index": 0, "finish_reason": "stop",
                          "message": {"role": "assistant", "content": text}}],
                usage=_usage(messages, text))

        async def acompletion(self, model, messages, *args, litellm_params=None, **kwargs):
            return await asyncio.to_thread(self.completion, model, messages,
                                           litellm_params=litellm_params)

        def streaming(self, model, messages, *args, litellm_params=None, **kwargs):
            for chunk in _chunks(_reply(litellm_params, messages), messages):
                yield GenericStreamingChunk(**chunk)

        async def astreaming(self, model, messages, *args, litellm_params=None, **kwargs
                             ) -> AsyncIterator[Any]:
            # the engine reads the vault (up to ~1 s on 10,000 pages): off the event loop, so
            # the TUI keeps painting
            text = await asyncio.to_thread(_reply, litellm_params, messages)
            for chunk in _chunks(text, messages):
                yield GenericStreamingChunk(**chunk)

    entries = [e for e in (litellm.custom_provider_map or []) if e.get("provider") != PROVIDER]
    entries.append({"provider": PROVIDER, "custom_handler": OfflineEngine()})
    litellm.custom_provider_map = entries
