"""The engine of every real model: litellm, imported lazily, streamed, with faults made
readable (the interface of agent/engine/stream.py; the offline engine is served without litellm).

`import litellm` costs seconds and, unconfigured, reaches for the network and prints to stdout;
so it happens only inside `load_litellm()` (the TUI calls `warm_up()` in a worker after first
paint). `stream_chat()` yields Token and Retry events and finally one ChatResult; every fault
becomes an LLMError(reason, kind, partial_reply) with a message meant for the person.

A reply is finished only when the server said how it finished (a finish reason). The faults are
told apart, each with its own kind: "network" (cannot connect), "dropped" (the connection broke
mid-reply), "timeout" (no bytes for `timeout` s), "limit" (still streaming after `reply_limit`
s), "server"/"auth"/"model"/"request"/"rate_limit" (an HTTP error, with its status), "protocol"
(a 200 answer that is not an OpenAI-compatible stream), "loop" (litellm stopped a stream of the
same chunk over and over) and "incomplete" (the stream ended without a finish reason).
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

from wiki_tui.agent.config import AgentSettings
from wiki_tui.agent.events import Retry, Token, Usage
from wiki_tui.agent.engine.stream import CUT_OFF_KINDS, ChatResult, LLMError, cancelled

__all__ = ["CUT_OFF_KINDS", "ChatResult", "LLMError", "count_tokens", "load_litellm",
           "stream_chat", "warm_up"]

_lock = threading.Lock()
_litellm: Any = None

# Retried before the first token (after it, a retry would repeat text the person already saw).
_RETRY_KINDS = {"rate_limit", "server"}
_MAX_WAIT = 60.0  # never sleep longer than this on one Retry-After
# litellm providers whose streams never carry a finish reason litellm reads (in-process vllm)
_NO_FINISH_REASON = {"vllm"}
_TAP_BYTES = 512  # how much of the answer's raw body is kept to quote when it is not a stream


# -- loading ------------------------------------------------------------------------------------
def litellm_loaded() -> bool:
    return _litellm is not None


def load_litellm() -> Any:
    """Import and configure litellm once (thread-safe)."""
    global _litellm
    if _litellm is not None:
        return _litellm
    with _lock:
        if _litellm is None:
            os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
            stdout = sys.stdout
            try:
                import litellm
            finally:
                sys.stdout = stdout  # belt and braces: nothing may replace our stdout
            litellm.suppress_debug_info = True
            litellm.set_verbose = False
            litellm.telemetry = False
            _quiet_loggers()
            _litellm = litellm
    return _litellm


def _quiet_loggers() -> None:
    """litellm logs its own view of every fault to stderr/stdout; we report faults ourselves
    (LLMError), and stray lines would corrupt the full-screen app or the CLI's --json output.
    LITELLM_LOG=DEBUG (or any level) in the environment keeps litellm's logging for debugging."""
    import logging

    if os.environ.get("LITELLM_LOG"):
        return
    for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def warm_up() -> None:
    """Pre-import litellm and what its first call imports lazily (seconds on a slow machine):
    call from a worker thread after the first paint. No network."""
    litellm = load_litellm()
    try:  # the OpenAI SDK's resources load on first use of a client
        from openai import AsyncOpenAI

        AsyncOpenAI(api_key="warm-up", base_url="http://127.0.0.1:9/v1").chat.completions
    except Exception:
        pass
    try:  # one mocked call (no network) warms litellm's streaming path
        for _chunk in litellm.completion(model="openai/warm-up", stream=True, api_key="warm-up",
                                         mock_response="warm up",
                                         messages=[{"role": "user", "content": "warm up"}]):
            pass
    except Exception:
        pass


# -- token counting -----------------------------------------------------------------------------
def count_tokens(text: str, model: str | None = None) -> int:
    """litellm's counter when litellm is already loaded; else ~4 characters a token."""
    if _litellm is not None and model and not model.startswith("wiki-offline/"):
        try:
            return int(_litellm.token_counter(model=model, text=text))
        except Exception:  # an unknown tokenizer: the estimate will do
            pass
    return max(1, len(text) // 4) if text else 0


# -- the call ---------------------------------------------------------------------------------
async def stream_chat(
    settings: AgentSettings,
    messages: list[dict],
    *,
    tools: list[dict] | None = None,
    metadata: dict | None = None,
    cancel: asyncio.Event | None = None,
) -> AsyncIterator[Token | Retry | ChatResult]:
    """Stream one model turn of a real model through litellm (the interface of
    agent/engine/stream.py): Token/Retry events, then a ChatResult. Raises LLMError.

    `cancel`, when set, stops the stream at once (LLMError kind "cancelled" with the partial
    reply); cancelling the consuming task works too (the HTTP stream is closed either way).
    """
    litellm = await _load_async()
    _check_ready(litellm, settings)
    if tools and not _may_use_tools(litellm, settings):
        tools = None
    attempt = 0
    usage_option = True  # ask for usage in the last chunk, unless the server refuses it
    while True:
        partial: list[str] = []
        try:
            async for item in _one_attempt(litellm, settings, messages, tools, metadata,
                                           cancel, partial, usage_option):
                yield item
            return
        except LLMError:
            raise
        except asyncio.CancelledError:
            raise
        except _StreamFault as fault:  # the answer had begun: a drop or a body not a stream
            text = "".join(partial)
            reason, kind = describe_stream_fault(fault.original, fault.tap, settings, text)
            raise LLMError(reason, kind, text) from None
        except Exception as exc:  # litellm/openai/httpx faults: classify
            text = "".join(partial)
            if usage_option and not text and _is_bad_request(exc) \
                    and "stream_options" in str(exc):
                usage_option = False  # an older OpenAI-compatible server; usage is estimated
                continue
            if tools and _is_tool_refusal(exc) and not text:
                tools = None
                yield Retry("the model does not support tool calls; continuing without tools",
                            attempt + 1)
                continue
            reason, kind = describe_error(exc, settings, streamed=bool(text))
            if kind in _RETRY_KINDS and not text and attempt < settings.max_retries:
                wait = _backoff(exc, settings, attempt)
                attempt += 1
                yield Retry(f"{reason} — retrying in {wait:.1f} s", attempt, wait)
                await _sleep(wait, cancel)
                if cancel is not None and cancel.is_set():
                    raise cancelled() from None
                continue
            raise LLMError(reason, kind, text) from None


async def _load_async() -> Any:
    if _litellm is not None:
        return _litellm
    return await asyncio.to_thread(load_litellm)


async def _one_attempt(litellm, settings, messages, tools, metadata, cancel, partial,
                       usage_option=True):
    kwargs: dict[str, Any] = dict(
        model=settings.model, messages=messages, stream=True,
        # our own watchdog (below) gives up first and says which limit it was
        timeout=settings.timeout + 1.0,
        max_retries=0,  # our own retries, visible to the person; not the SDK's hidden ones
        metadata=metadata or {},
        # litellm routes any call with tools through its MCP gateway check, which imports the
        # optional `mcp` package; we never send MCP tools, so skip that check.
        _skip_mcp_handler=True,
    )
    if usage_option:
        kwargs["stream_options"] = {"include_usage": True}
    if settings.api_base:
        kwargs["api_base"] = settings.api_base
    key = settings.api_key or _placeholder_key(litellm, settings)
    if key:
        kwargs["api_key"] = key
    if settings.temperature is not None:
        kwargs["temperature"] = settings.temperature
    if settings.max_tokens:
        kwargs["max_tokens"] = settings.max_tokens
    if tools:
        kwargs["tools"] = tools

    clock = _Clock(settings)
    response = await _watched(litellm.acompletion(**kwargs), cancel, partial, clock,
                              begun=False)
    tap = _tap(response)
    chunks: list[Any] = []
    try:
        iterator = response.__aiter__()
        while True:
            try:
                chunk = await _watched(iterator.__anext__(), cancel, partial, clock)
            except StopAsyncIteration:
                break
            except (LLMError, asyncio.CancelledError):
                raise
            except Exception as exc:
                raise _StreamFault(exc, tap) from exc
            chunks.append(chunk)
            choices = getattr(chunk, "choices", None) or ()
            if choices:
                delta = choices[0].delta
                content = getattr(delta, "content", None)
                if content:
                    partial.append(content)
                    yield Token(content)
    finally:
        await _close(response)
    result = _result(litellm, settings, chunks, "".join(partial))
    _check_finished(response, result, tap, settings)
    yield result


class _StreamFault(Exception):
    """A fault while reading the stream (the HTTP answer had begun): wraps the original."""

    def __init__(self, original: Exception, tap: "_Tap | None") -> None:
        super().__init__(str(original))
        self.original = original
        self.tap = tap


class _Clock:
    """The two time limits of one reply: `timeout` without a byte, `reply_limit` overall."""

    def __init__(self, settings: AgentSettings) -> None:
        self.settings = settings
        self.deadline = time.monotonic() + settings.reply_limit

    def next_wait(self) -> float:
        return max(0.0, min(self.settings.timeout, self.deadline - time.monotonic()))

    def expired(self, partial: list[str], begun: bool) -> LLMError:
        settings, text = self.settings, "".join(partial)
        kept = " The partial reply is kept; nothing was applied." if text else ""
        if time.monotonic() >= self.deadline - 0.01:
            return LLMError(
                f"The reply from {settings.model} did not finish within the overall limit of "
                f"{settings.reply_limit:g} s (reply_limit in the config); it was stopped.{kept}",
                "limit", text)
        if not begun:
            return LLMError(f"No reply from {settings.model} within {settings.timeout:g} s "
                            "(timeout).", "timeout", text)
        return LLMError(f"No bytes from {_where(settings)} for {settings.timeout:g} s "
                        f"(timeout): the stream stalled.{kept}", "timeout", text)


async def _watched(awaitable, cancel: asyncio.Event | None, partial: list[str],
                   clock: _Clock, *, begun: bool = True):
    """Await within the clock's limits, unless `cancel` is set first (the pending call is
    cancelled either way). `begun`: the HTTP answer has started (a stall, not a late reply)."""
    if cancel is not None and cancel.is_set():
        if asyncio.iscoroutine(awaitable):
            awaitable.close()
        raise cancelled("".join(partial))
    task = asyncio.ensure_future(awaitable)
    waiter = asyncio.ensure_future(cancel.wait()) if cancel is not None else None
    try:
        done, _ = await asyncio.wait({task, waiter} - {None}, timeout=clock.next_wait(),
                                     return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        task.cancel()
        raise
    finally:
        if waiter is not None:
            waiter.cancel()
    if task in done:
        return task.result()
    task.cancel()
    if waiter is not None and waiter in done:
        raise cancelled("".join(partial))
    raise clock.expired(partial, begun)


class _Tap:
    """Keeps the first bytes of the HTTP answer's body, to quote when it is not a stream."""

    def __init__(self) -> None:
        self.head = b""

    def text(self, limit: int = 80) -> str:
        text = self.head.decode("utf-8", "replace").strip()
        return " ".join(text.split())[:limit]

    def looks_like_sse(self) -> bool:
        return self.head.lstrip().startswith((b"data:", b":", b"event:", b"id:"))


def _tap(response: Any) -> _Tap | None:
    """Tee the raw body of an OpenAI-SDK stream (litellm's openai/ and compatible providers)
    before anything reads it; None when the provider streams some other way."""
    raw = getattr(getattr(response, "completion_stream", None), "response", None)
    try:
        import httpx
    except ImportError:  # pragma: no cover - litellm depends on httpx
        return None
    if not isinstance(raw, httpx.Response) or not isinstance(raw.stream, httpx.AsyncByteStream):
        return None
    tap, inner = _Tap(), raw.stream

    class _Tee(httpx.AsyncByteStream):
        async def __aiter__(self):
            async for part in inner:
                if len(tap.head) < _TAP_BYTES:
                    tap.head += part[:_TAP_BYTES - len(tap.head)]
                yield part

        async def aclose(self) -> None:
            await inner.aclose()

    raw.stream = _Tee()
    return tap


def _check_finished(response: Any, result: ChatResult, tap: _Tap | None,
                    settings: AgentSettings) -> None:
    """A stream is an answer only when the server said how it finished; litellm fills in
    "stop" when it did not, so ask the stream wrapper what the server actually sent."""
    if not hasattr(response, "received_finish_reason") \
            or getattr(response, "custom_llm_provider", None) in _NO_FINISH_REASON:
        return  # another stream wrapper, or a provider litellm never reads one from
    sent = getattr(response, "received_finish_reason", None) or getattr(
        response, "intermittent_finish_reason", None)
    if sent:
        return
    if not result.text and not result.tool_calls and tap is not None \
            and not tap.looks_like_sse():
        raise LLMError(_not_a_stream(settings, tap.text()), "protocol")
    if result.tool_calls and result.finish_reason == "tool_calls":
        return  # some servers send tool calls without a finish reason; the calls are whole
    result.finish_reason = None
    raise LLMError(
        f"The reply from {_where(settings)} ended without a finish reason after "
        f"{len(result.text)} characters: the stream was cut off, so the reply is incomplete."
        + (" The partial reply is kept; nothing was applied." if result.text else ""),
        "incomplete", result.text)


def _not_a_stream(settings: AgentSettings, excerpt: str) -> str:
    shown = f": {excerpt}" if excerpt else " (an empty body)"
    return (f"{_where(settings)} answered with something that is not an OpenAI-compatible "
            f"stream{shown}")


def _where(settings: AgentSettings) -> str:
    return settings.api_base or _provider(settings.model)


async def _close(response: Any) -> None:
    close = getattr(response, "aclose", None)
    if close is None:
        return
    try:
        await asyncio.shield(close())
    except Exception:
        pass


def _result(litellm, settings: AgentSettings, chunks: list, text: str) -> ChatResult:
    built = None
    if chunks:
        try:
            built = litellm.stream_chunk_builder(chunks)
        except Exception:
            built = None
    tool_calls: list[dict] = []
    finish = None
    prompt_tokens = completion_tokens = 0
    if built is not None:
        choice = built.choices[0]
        finish = choice.finish_reason
        for i, call in enumerate(getattr(choice.message, "tool_calls", None) or ()):
            tool_calls.append({"id": call.id or f"call_{i}", "name": call.function.name or "",
                               "arguments": call.function.arguments or ""})
        usage = getattr(built, "usage", None)
        if usage is not None:
            prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
            completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
    return ChatResult(text, tool_calls, finish,
                      Usage(prompt_tokens, completion_tokens, _cost(litellm, built)))


def _cost(litellm, built) -> float | None:
    if built is None:
        return None
    try:
        return float(litellm.completion_cost(completion_response=built))
    except Exception:  # no price known for this model
        return None


# -- readiness and tools ------------------------------------------------------------------------
def _provider(model: str) -> str:
    return model.split("/", 1)[0] if "/" in model else "openai"


def _placeholder_key(litellm, settings: AgentSettings) -> str | None:
    """Local OpenAI-compatible servers (llama.cpp, vLLM) need no key, but the SDK wants one."""
    if settings.api_base and _provider(settings.model) in {"openai", "hosted_vllm"} \
            and not os.environ.get("OPENAI_API_KEY"):
        return "no-key-needed"
    return None


def _check_ready(litellm, settings: AgentSettings) -> None:
    """Fail before any network when the model string or its API key cannot work."""
    if not settings.model:
        raise LLMError("No model configured. Pass --model, set WIKI_TUI_MODEL, or add "
                       "model = \"...\" to the config file.", "config")
    if settings.offline:  # agent/engine/engines.py sends it to the offline engine, never here
        raise LLMError("The offline engine is not served by litellm.", "config")
    if settings.api_base or settings.api_key:
        return
    try:
        litellm.get_llm_provider(settings.model)
    except Exception:
        raise LLMError(_unknown_model(settings.model), "model") from None
    try:
        env = litellm.validate_environment(model=settings.model)
    except Exception:
        return
    missing = env.get("missing_keys") or []
    if missing and not env.get("keys_in_environment"):
        names = " and ".join(missing)
        raise LLMError(f"No API key for {settings.model}: set {names} in the environment "
                       "(wiki-tui never stores keys in its config).", "auth")


def _may_use_tools(litellm, settings: AgentSettings) -> bool:
    if settings.tools is not None:
        return settings.tools
    try:
        litellm.get_model_info(settings.model)
    except Exception:  # not in the price map (local server, new model): try, fall back
        return True
    try:
        return bool(litellm.supports_function_calling(settings.model))
    except Exception:
        return True


def _is_bad_request(exc: Exception) -> bool:
    return type(exc).__name__ in {"BadRequestError", "UnsupportedParamsError",
                                  "UnprocessableEntityError"}


def _is_tool_refusal(exc: Exception) -> bool:
    if not _is_bad_request(exc):
        return False
    text = str(exc).lower()
    return any(word in text for word in ("tool", "function"))


# -- errors -------------------------------------------------------------------------------------
def _unknown_model(model: str) -> str:
    return (f"Unknown model or provider {model!r}. Use a litellm model string such as "
            "openai/gpt-4o-mini, anthropic/claude-sonnet-4-5, gemini/gemini-2.0-flash, "
            "ollama/llama3.1, or openai/<name> with api_base for an OpenAI-compatible server.")


def _clean(message: str) -> str:
    """litellm's 'litellm.X: X: OpenAIException - text' -> 'text' (first line)."""
    text = str(message).strip()
    text = re.sub(r"^(litellm\.\w+:\s*)+", "", text)
    text = re.sub(r"^(\w+Error:\s*)+", "", text)
    if "Exception - " in text:
        text = text.split("Exception - ", 1)[1]
    text = text.split("Original exception", 1)[0]
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first[:300]


def _status(exc: Exception) -> int | None:
    status = getattr(exc, "status_code", None)
    return status if isinstance(status, int) else None


def describe_error(exc: Exception, settings: AgentSettings, *, streamed: bool = False
                   ) -> tuple[str, str]:
    """(reason, kind) for a fault of the model call."""
    name = type(exc).__name__
    names = {c.__name__ for c in type(exc).__mro__}
    raw = str(exc)
    detail = _clean(raw)
    lower = raw.lower()
    where = settings.api_base or _provider(settings.model)
    kept = " The partial reply is kept; nothing was applied." if streamed else ""

    if "repeating the same chunk" in lower:  # litellm stops a stream of identical chunks
        return (f"{settings.model} went into a loop (the same text over and over), so the reply "
                f"was stopped.{kept}", "loop")
    if "Timeout" in names or "timed out" in lower or "ReadTimeout" in raw:
        return (f"No reply from {settings.model} within {settings.timeout:g} s (timeout)."
                f"{kept}", "timeout")
    if name == "MidStreamFallbackError" or (streamed and ("APIConnectionError" in names
                                                          or "connection" in lower)):
        return (f"The connection to {where} dropped in the middle of the reply.{kept}",
                "dropped")
    if "missing credentials" in lower or "api key" in lower and "AuthenticationError" not in names \
            and _status(exc) in (None, 500) and "missing" in lower:
        return (f"No API key for {settings.model}: set the provider's key (e.g. "
                f"{_provider(settings.model).upper()}_API_KEY) in the environment.", "auth")
    if "AuthenticationError" in names or _status(exc) == 401:
        return (f"The API key for {settings.model} was rejected ({detail}). Check the key in "
                "the environment.", "auth")
    if "PermissionDeniedError" in names or _status(exc) == 403:
        return f"Access denied by {where}: {detail}", "auth"
    if "RateLimitError" in names or _status(exc) == 429:
        return f"Rate limited by {where}: {detail}", "rate_limit"
    if "llm provider not provided" in lower or "BadRequestError" in names and "provider" in lower \
            and "not provided" in lower:
        return _unknown_model(settings.model), "model"
    if "NotFoundError" in names or _status(exc) == 404:
        return f"{where} does not know the model {settings.model!r}: {detail}", "model"
    if "ContextWindowExceededError" in names:
        return (f"The prompt is too long for {settings.model}'s context window: lower "
                "context_tokens in the config.", "context")
    if "ContentPolicyViolationError" in names:
        return f"The provider refused the request: {detail}", "refused"
    if "connection error" in lower or "APIConnectionError" in names \
            or "connect" in lower and "refused" in lower:
        return (f"Cannot reach {where}: the connection failed (network down or server not "
                f"running).{kept}", "network")
    status = _status(exc)
    if status is not None and status >= 500 or "InternalServerError" in names \
            or "ServiceUnavailableError" in names:
        return f"The model server {where} failed ({status or 'error'}): {detail}{kept}", "server"
    if "BadRequestError" in names:
        return f"{where} rejected the request: {detail}", "request"
    return f"The model call failed: {detail or name}{kept}", "error"


def describe_stream_fault(exc: Exception, tap: _Tap | None, settings: AgentSettings,
                          text: str) -> tuple[str, str]:
    """(reason, kind) for a fault after the HTTP answer began: an HTTP error told late, a body
    that is not an OpenAI-compatible stream, or the connection dropping mid-reply."""
    bad_json = _json_error(exc)
    if bad_json is not None:
        return _not_a_stream(settings, " ".join(bad_json.doc.split())[:80]), "protocol"
    reason, kind = describe_error(exc, settings, streamed=bool(text))
    if kind in ("network", "error", "dropped"):
        kept = " The partial reply is kept; nothing was applied." if text else ""
        where = _where(settings)
        return (f"The connection to {where} dropped in the middle of the reply"
                f" after {len(text)} characters.{kept}", "dropped")
    return reason, kind


def _json_error(exc: BaseException | None):
    """The JSONDecodeError behind a fault (an SSE data line that is not JSON), if any."""
    import json

    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, json.JSONDecodeError):
            return exc
        exc = getattr(exc, "original_exception", None) or exc.__cause__ or exc.__context__
        seen += 1
    return None


def _backoff(exc: Exception, settings: AgentSettings, attempt: int) -> float:
    wait = settings.retry_base_delay * (2 ** attempt)
    # litellm keeps the provider's headers here; exc.response is a synthetic one
    headers = getattr(exc, "litellm_response_headers", None) or getattr(
        getattr(exc, "response", None), "headers", None)
    if headers is not None:
        value = headers.get("retry-after") or headers.get("Retry-After")
        try:
            wait = float(value) if value is not None else wait
        except ValueError:
            pass
    return max(0.0, min(wait, _MAX_WAIT))


async def _sleep(seconds: float, cancel: asyncio.Event | None) -> None:
    if cancel is None:
        await asyncio.sleep(seconds)
        return
    try:
        await asyncio.wait_for(cancel.wait(), timeout=seconds)
    except asyncio.TimeoutError:
        pass
