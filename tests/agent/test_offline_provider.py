"""The offline engine is a litellm custom provider; the task reaches it through metadata."""

from __future__ import annotations

from wiki_tui.agent.config import AgentSettings
from wiki_tui.agent.events import Token
from wiki_tui.agent.llm import ChatResult, stream_chat
from wiki_tui.agent.offline.provider import Task, register_task, release_task


async def test_task_reaches_the_custom_provider_through_litellm():
    task_id = register_task(Task("nothing-known", vault=None))
    try:
        text, result = "", None
        async for item in stream_chat(AgentSettings(), [{"role": "user", "content": "hi"}],
                                      metadata={"wiki_tui_task": task_id}):
            if isinstance(item, Token):
                text += item.text
            elif isinstance(item, ChatResult):
                result = item
    finally:
        release_task(task_id)
    assert "nothing to do for 'nothing-known'" in text  # the engine saw our task
    assert "not a language model" in text
    assert result.usage.cost_usd == 0.0 and result.finish_reason == "stop"


async def test_without_a_task_the_engine_says_what_it_is():
    items = [i async for i in stream_chat(AgentSettings(), [{"role": "user", "content": "hi"}])]
    assert "carried no task" in items[-1].text


async def test_sync_async_and_non_streaming_calls_reach_the_engine():
    from wiki_tui.agent.llm import load_litellm

    litellm = load_litellm()
    task_id = register_task(Task("nothing-known", vault=None))
    call = dict(model="wiki-offline/engine", messages=[{"role": "user", "content": "hi"}],
                metadata={"wiki_tui_task": task_id})
    try:
        whole = litellm.completion(**call)
        streamed = "".join(c.choices[0].delta.content or ""
                           for c in litellm.completion(stream=True, **call) if c.choices)
        awaited = await litellm.acompletion(**call)
    finally:
        release_task(task_id)
    for text in (whole.choices[0].message.content, streamed,
                 awaited.choices[0].message.content):
        assert "nothing to do for 'nothing-known'" in text
