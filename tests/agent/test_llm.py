"""The real litellm openai/ provider against the local scripted server: streaming and faults."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.support.llm_server import Reply, ToolCall
from wiki_tui.agent.config import AgentSettings
from wiki_tui.agent.events import Retry, Token
from wiki_tui.agent.engine.llm import ChatResult, LLMError, stream_chat

MESSAGES = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hello"}]


async def collect(settings, messages=MESSAGES, **kwargs):
    events = []
    async for item in stream_chat(settings, messages, **kwargs):
        events.append(item)
    return events


async def test_streamed_text_arrives_in_pieces_with_usage(llm_server):
    llm_server.queue(Reply("The answer is [[Alpha]].", chunk_size=4,
                           usage={"prompt_tokens": 11, "completion_tokens": 7,
                                  "total_tokens": 18}))
    events = await collect(llm_server.settings())
    tokens = [e.text for e in events if isinstance(e, Token)]
    assert len(tokens) > 3 and "".join(tokens) == "The answer is [[Alpha]]."
    result = events[-1]
    assert isinstance(result, ChatResult) and result.finish_reason == "stop"
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (11, 7)
    assert result.usage.cost_usd is None  # no price known for a test model
    request = llm_server.requests[0]
    assert request.stream and request.messages[-1]["content"] == "hello"


async def test_streamed_tool_calls_are_reassembled(llm_server):
    llm_server.queue(Reply(tool_calls=[ToolCall("search", {"query": "alpha beta"}),
                                       ToolCall("read_page", {"path": "concepts/A.md"})],
                           chunk_size=3))
    tools = [{"type": "function", "function": {"name": "search", "parameters": {
        "type": "object", "properties": {"query": {"type": "string"}}}}}]
    result = (await collect(llm_server.settings(), tools=tools))[-1]
    assert result.finish_reason == "tool_calls"
    assert [(c["name"], c["arguments"]) for c in result.tool_calls] == [
        ("search", '{"query": "alpha beta"}'), ("read_page", '{"path": "concepts/A.md"}')]
    assert llm_server.requests[0].tools[0]["function"]["name"] == "search"


async def test_dropped_connection_keeps_partial_reply(llm_server):
    llm_server.queue(Reply("abcdefghijklmnop", chunk_size=2, drop_after=3))
    seen = []
    with pytest.raises(LLMError) as info:
        async for item in stream_chat(llm_server.settings(), MESSAGES):
            seen.append(item)
    assert info.value.kind == "dropped"
    assert "dropped in the middle of the reply after 6 characters" in info.value.reason
    assert info.value.partial_reply == "abcdef" == "".join(t.text for t in seen)
    assert len(llm_server.requests) == 1  # no silent retry after text was shown


async def test_rate_limit_is_retried_after_retry_after(llm_server):
    llm_server.queue(Reply(status=429, retry_after=0.2), Reply("fine now"))
    started = time.perf_counter()
    events = await collect(llm_server.settings())
    retries = [e for e in events if isinstance(e, Retry)]
    assert len(retries) == 1 and retries[0].wait_seconds == pytest.approx(0.2)
    assert "Rate limited" in retries[0].reason
    assert time.perf_counter() - started >= 0.2
    assert events[-1].text == "fine now" and len(llm_server.requests) == 2


async def test_server_error_gives_up_after_retries(llm_server):
    llm_server.queue(*[Reply(status=500, error_message="boom inside")] * 3)
    events = []
    with pytest.raises(LLMError) as info:
        async for item in stream_chat(llm_server.settings(max_retries=2), MESSAGES):
            events.append(item)
    assert info.value.kind == "server" and "boom inside" in info.value.reason
    assert "Traceback" not in info.value.reason
    assert len([e for e in events if isinstance(e, Retry)]) == 2
    assert len(llm_server.requests) == 3


async def test_timeout(llm_server):
    llm_server.queue(Reply("late", delay=15))
    started = time.perf_counter()
    with pytest.raises(LLMError) as info:
        await collect(llm_server.settings(timeout=0.5))
    assert info.value.kind == "timeout" and "0.5 s" in info.value.reason
    assert time.perf_counter() - started < 10  # not the 15 s the server would have taken


async def test_length_cut_is_reported(llm_server):
    llm_server.queue(Reply("cut in the mid", finish_reason="length"))
    result = (await collect(llm_server.settings(max_tokens=5)))[-1]
    assert result.finish_reason == "length" and result.text == "cut in the mid"
    assert llm_server.requests[0].body["max_tokens"] == 5


@pytest.mark.parametrize("status,kind,words", [
    (401, "auth", "rejected"), (404, "model", "does not know"), (400, "request", "rejected")])
async def test_http_faults_map_to_specific_messages(llm_server, status, kind, words):
    llm_server.queue(Reply(status=status))
    with pytest.raises(LLMError) as info:
        await collect(llm_server.settings())
    assert info.value.kind == kind and words in info.value.reason


async def test_connection_refused(llm_server):
    settings = llm_server.settings(api_base="http://127.0.0.1:9/v1")
    with pytest.raises(LLMError) as info:
        await collect(settings)
    assert info.value.kind == "network" and "Cannot reach" in info.value.reason


async def test_missing_key_and_unknown_provider_fail_before_any_network(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(LLMError) as info:
        await collect(AgentSettings(model="anthropic/claude-sonnet-4-5", offline=False))
    assert info.value.kind == "auth" and "ANTHROPIC_API_KEY" in info.value.reason
    with pytest.raises(LLMError) as info:
        await collect(AgentSettings(model="nosuch-provider/x", offline=False))
    assert info.value.kind == "model" and "Unknown model" in info.value.reason


async def test_tools_refused_falls_back_to_no_tools(llm_server):
    llm_server.queue(Reply(status=400, error_message="this model does not support tools"),
                     Reply("plain answer"))
    tools = [{"type": "function", "function": {"name": "search", "parameters": {
        "type": "object", "properties": {}}}}]
    events = await collect(llm_server.settings(), tools=tools)
    assert any(isinstance(e, Retry) and "tool" in e.reason for e in events)
    assert events[-1].text == "plain answer"
    assert llm_server.requests[0].tools and not llm_server.requests[1].tools


async def test_cancel_event_stops_stream_and_keeps_partial(llm_server):
    llm_server.queue(Reply("x" * 400, chunk_size=1, rate=200))
    cancel = asyncio.Event()
    seen = []
    with pytest.raises(LLMError) as info:
        async for item in stream_chat(llm_server.settings(), MESSAGES, cancel=cancel):
            seen.append(item)
            if len(seen) == 5:
                cancel.set()
    assert info.value.kind == "cancelled"
    assert info.value.partial_reply == "x" * 5


async def test_task_cancellation_closes_the_stream(llm_server):
    llm_server.queue(Reply("y" * 400, chunk_size=1, rate=200))
    got = []

    async def consume():
        async for item in stream_chat(llm_server.settings(), MESSAGES):
            got.append(item)

    task = asyncio.create_task(consume())
    while len(got) < 3:
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert 3 <= len(got) < 100


def test_start_up_path_does_not_import_litellm():
    import subprocess
    import sys

    code = ("import sys; import wiki_tui.cli, wiki_tui.cli.agent_commands, "
            "wiki_tui.agent.operations, wiki_tui.agent.context.prompts, wiki_tui.agent.engine.tools; "
            "wiki_tui.cli.build_parser(); print('litellm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_warm_up_prints_nothing(capsys):
    from wiki_tui.agent.engine.llm import litellm_loaded, warm_up

    warm_up()
    assert litellm_loaded()
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


async def test_server_refusing_stream_options_still_streams(llm_server):
    llm_server.queue(Reply(status=400, error_message="Unrecognized request argument "
                                                     "supplied: stream_options"),
                     Reply("fine"))
    events = await collect(llm_server.settings(tools=False))
    assert events[-1].text == "fine"
    assert "stream_options" in llm_server.requests[0].body
    assert "stream_options" not in llm_server.requests[1].body
