"""A local OpenAI-compatible chat server that replays scripted replies (no network, no mocks).

Tests drive litellm's real `openai/` provider against it, so the whole path (HTTP, SSE parsing,
litellm's stream wrapper, our error mapping) runs for real.

Use from a test (the `llm_server` fixture is available everywhere: tests/conftest.py loads this
module as a pytest plugin; one server per session, its script and request log reset per test):

    async def test_something(llm_server):
        llm_server.queue(Reply("Hello [[Page]]"))                   # streamed text
        llm_server.queue(Reply(status=429, retry_after=0))          # rate limited ...
        llm_server.queue(Reply("then fine"))                         # ... then success
        llm_server.queue(Reply(tool_calls=[ToolCall("search", {"query": "x"})]))
        llm_server.queue(Reply("cut", finish_reason="length"))
        llm_server.queue(Reply("partial", drop_after=3))            # connection dropped mid-stream
        llm_server.queue(Reply(delay=5))                             # past the client timeout
        llm_server.queue(Reply("half", no_finish=True))   # a clean end without a finish_reason
        llm_server.queue(Reply(body="<html>Bad gateway</html>"))     # 200, not a stream at all
        llm_server.queue(Reply("ok", garbage="data: {oops\n\n"))     # SSE lines that are not JSON
        llm_server.queue(Reply("a", stall=3))              # then no bytes for 3 s (then close)
        llm_server.queue(Reply("a", trickle=0.2))          # then a token every 0.2 s, until the
                                                           # client leaves (or MAX_HOLD passes)
        settings = llm_server.settings()   # AgentSettings(model="openai/test-model", api_base=...)
        ...
        assert "AGENTS" in llm_server.requests[0].messages[0]["content"]

Every request pops the next queued reply; with the queue empty the server answers 500 with
"no scripted reply" (so a test that makes an unexpected call fails loudly). `llm_server.api_base`
is "http://127.0.0.1:PORT/v1"; litellm needs any non-empty api_key (tests pass "sk-test").

From a benchmark or a script (a plain class, no pytest):

    with LLMServer() as server:
        server.queue(Reply("x" * 600, chunk_size=1, rate=100))   # 600 chunks at 100 chunks/s
        ...
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

__all__ = ["LLMServer", "Reply", "ToolCall", "RecordedRequest", "llm_server"]


@dataclass
class ToolCall:
    name: str
    arguments: dict | str
    id: str = ""


@dataclass
class Reply:
    """One scripted answer to one request."""

    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    chunk_size: int = 8  # characters per streamed content chunk
    rate: float | None = None  # chunks per second (None: as fast as possible)
    finish_reason: str | None = None  # default: "tool_calls" with tool calls, else "stop"
    status: int = 200  # 429 / 500 / 401 / 404 ... answer with an error body instead
    error_message: str = ""
    retry_after: float | None = None  # Retry-After header for a 429
    delay: float = 0.0  # seconds to wait before answering (a timeout when > the client's)
    drop_after: int | None = None  # close the connection after this many content chunks
    usage: dict | None = None  # default: counted from the request and reply (rough)
    model: str = "test-model"
    # fault modes (every wait is bounded by MAX_HOLD and ends when the server stops)
    no_finish: bool = False  # end the stream cleanly ([DONE]) but send no finish_reason
    body: str | None = None  # answer 200 with this body instead of a stream
    content_type: str = "text/html"  # ... and this Content-Type
    garbage: str | None = None  # raw bytes sent inside the event stream after the text
    stall: float = 0.0  # after the text: no bytes for this long, then close the connection
    trickle: float | None = None  # after the text: one token every `trickle` s, never finishing
    # after the text: finish only once the test sets this event (a test decides when a stream
    # ends, instead of racing its rate on a busy machine)
    hold: threading.Event | None = None


MAX_HOLD = 20.0  # the longest a stall or a trickle keeps one connection busy (tests never hang)
# the longest a `hold` waits for its event: it ends at once when the server stops (every test's
# teardown), so a test that holds a stream open across a slow step (a real process handling a
# signal on a loaded machine) is not raced by the clock
EVENT_HOLD = 300.0


@dataclass
class RecordedRequest:
    path: str
    body: dict
    headers: dict

    @property
    def messages(self) -> list[dict]:
        return self.body.get("messages", [])

    @property
    def tools(self) -> list[dict]:
        return self.body.get("tools") or []

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))

    def text(self) -> str:
        """All message contents joined: what the prompt contained."""
        parts = []
        for msg in self.messages:
            content = msg.get("content")
            if isinstance(content, list):  # content parts
                content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
            parts.append(str(content or ""))
        return "\n".join(parts)


class LLMServer:
    """A threaded HTTP server on 127.0.0.1 serving POST /v1/chat/completions."""

    def __init__(self) -> None:
        self._replies: deque[Reply] = deque()
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ------------------------------------------------------------------------
    def start(self) -> "LLMServer":
        server = self

        class Handler(_Handler):
            owner = server

        self._httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> "LLMServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- script ---------------------------------------------------------------------------
    def queue(self, *replies: Reply | str) -> None:
        with self._lock:
            for reply in replies:
                self._replies.append(Reply(reply) if isinstance(reply, str) else reply)

    def reset(self) -> None:
        with self._lock:
            self._replies.clear()
            self.requests.clear()

    @property
    def pending(self) -> int:
        return len(self._replies)

    def settings(self, **overrides: Any):
        """AgentSettings pointing litellm's openai/ provider at this server."""
        from wiki_tui.agent.config import AgentSettings

        values = dict(model="openai/test-model", offline=False, api_base=self.api_base,
                      # generous: a busy machine's first call (litellm warming up) is slow;
                      # tests of the timeout pass their own
                      api_key="sk-test", source="test server", timeout=60.0,
                      retry_base_delay=0.01)
        values.update(overrides)
        return AgentSettings(**values)

    def _next(self, request: RecordedRequest) -> Reply | None:
        with self._lock:
            self.requests.append(request)
            return self._replies.popleft() if self._replies else None


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return  # a client that went away (cancelled, exited): not the server's fault
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    owner: LLMServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            body = {"_raw": raw.decode("utf-8", "replace")}
        if not self.path.rstrip("/").endswith("/chat/completions"):
            return self._error(404, f"unknown path {self.path}")
        request = RecordedRequest(self.path, body, dict(self.headers))
        reply = self.owner._next(request)
        if reply is None:
            return self._error(500, "no scripted reply (the test server's queue is empty)")
        if reply.delay and self.owner._stopping.wait(reply.delay):
            return
        if reply.body is not None:
            return self._raw_body(reply)
        if reply.status != 200:
            headers = {}
            if reply.retry_after is not None:
                headers["Retry-After"] = f"{reply.retry_after:g}"
            return self._error(reply.status, reply.error_message or _REASONS.get(
                reply.status, "error"), headers)
        try:
            if body.get("stream"):
                self._stream(reply, body)
            else:
                self._whole(reply, body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away (cancellation): nothing more to say

    # -- replies ---------------------------------------------------------------------------
    def _error(self, status: int, message: str, headers: dict | None = None) -> None:
        payload = json.dumps({"error": {"message": message, "type": "test_error",
                                        "code": status}}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(payload)

    def _raw_body(self, reply: Reply) -> None:
        payload = reply.body.encode()
        self.send_response(200)
        self.send_header("Content-Type", reply.content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _whole(self, reply: Reply, body: dict) -> None:
        message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
        if reply.tool_calls:
            message["tool_calls"] = [
                {"id": _call_id(c, i), "type": "function",
                 "function": {"name": c.name, "arguments": _args(c)}}
                for i, c in enumerate(reply.tool_calls)]
        payload = json.dumps({
            "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()),
            "model": reply.model,
            "choices": [{"index": 0, "message": message, "finish_reason": _finish(reply)}],
            "usage": _usage(reply, body),
        }).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _stream(self, reply: Reply, body: dict) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")  # so a dropped connection is detectable
        self.end_headers()
        created = int(time.time())

        def chunk(delta: dict, finish: str | None = None, usage: dict | None = None) -> dict:
            data = {"id": "chatcmpl-test", "object": "chat.completion.chunk",
                    "created": created, "model": reply.model,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            if usage is not None:
                data["usage"] = usage
            return data

        interval = 1.0 / reply.rate if reply.rate else 0.0
        next_at = time.perf_counter()
        sent = 0
        self._send(chunk({"role": "assistant", "content": ""}))
        size = max(1, reply.chunk_size)
        for start in range(0, len(reply.text), size):
            if reply.drop_after is not None and sent >= reply.drop_after:
                return self._drop()
            if interval:
                next_at += interval
                pause = next_at - time.perf_counter()
                if pause > 0 and self.owner._stopping.wait(pause):
                    return self._drop()
            self._send(chunk({"content": reply.text[start:start + size]}))
            sent += 1
        if reply.drop_after is not None:
            return self._drop()
        if reply.stall:
            self.owner._stopping.wait(min(reply.stall, MAX_HOLD))
            return self._drop()
        if reply.trickle:
            return self._trickle(reply, chunk)
        if reply.hold is not None:
            until = time.monotonic() + EVENT_HOLD
            while not reply.hold.wait(0.02) and time.monotonic() < until:
                if self.owner._stopping.is_set():
                    return self._drop()
        if reply.garbage is not None:
            self._write(reply.garbage.encode())
            return self._end()
        for i, call in enumerate(reply.tool_calls):
            args = _args(call)
            self._send(chunk({"tool_calls": [{"index": i, "id": _call_id(call, i),
                                              "type": "function",
                                              "function": {"name": call.name,
                                                           "arguments": ""}}]}))
            for start in range(0, len(args), size):  # arguments arrive in pieces, like OpenAI
                self._send(chunk({"tool_calls": [{"index": i, "function": {
                    "arguments": args[start:start + size]}}]}))
        if not reply.no_finish:
            self._send(chunk({}, _finish(reply)))
        if (body.get("stream_options") or {}).get("include_usage"):
            final = chunk({}, None, _usage(reply, body))
            final["choices"] = []
            self._send(final)
        else:  # usage in the last chunk anyway (many servers do; litellm reads it)
            self._send(chunk({}, None, _usage(reply, body)) | {"choices": []})
        self._end()

    def _end(self) -> None:
        """Finish the event stream and the chunked body properly."""
        self._write(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _trickle(self, reply: Reply, chunk) -> None:
        """A token every `reply.trickle` seconds: a stream that is alive but never ends, until
        the client goes away (a write fails) or MAX_HOLD passes."""
        until = time.monotonic() + MAX_HOLD
        while time.monotonic() < until:
            if self.owner._stopping.wait(reply.trickle):
                return self._drop()
            self._send(chunk({"content": "."}))
        self._send(chunk({}, "stop"))
        self._end()

    def _send(self, data: dict) -> None:
        self._write(b"data: " + json.dumps(data).encode() + b"\n\n")

    def _write(self, payload: bytes) -> None:
        self.wfile.write(f"{len(payload):x}\r\n".encode() + payload + b"\r\n")
        self.wfile.flush()

    def _drop(self) -> None:
        """Close the socket without finishing the chunked body: the client sees a broken stream."""
        self.close_connection = True
        try:
            self.wfile.flush()
            # let the client read what was sent: closing at once can reset the connection, and
            # a reset throws away bytes the client had not read yet (a flaky partial reply)
            self.owner._stopping.wait(0.1)
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


_REASONS = {400: "bad request", 401: "Incorrect API key provided", 404: "model not found",
            429: "rate limit exceeded", 500: "internal server error",
            503: "service unavailable"}


def _args(call: ToolCall) -> str:
    return call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)


def _call_id(call: ToolCall, index: int) -> str:
    return call.id or f"call_{index}_{call.name}"


def _finish(reply: Reply) -> str:
    return reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")


def _usage(reply: Reply, body: dict) -> dict:
    if reply.usage is not None:
        return reply.usage
    prompt_chars = sum(len(str(m.get("content") or "")) for m in body.get("messages", []))
    prompt = max(1, prompt_chars // 4)
    completion = max(1, len(reply.text) // 4) if reply.text or reply.tool_calls else 0
    return {"prompt_tokens": prompt, "completion_tokens": completion,
            "total_tokens": prompt + completion}


# -- pytest plugin ----------------------------------------------------------------------------
def _first_call(server: "LLMServer") -> None:
    """One streamed call through litellm: a process's first call imports litellm and the SDK's
    lazy parts (seconds on a busy machine), which is no test's timeout to pay."""
    import asyncio

    from wiki_tui.agent.engine.llm import stream_chat

    async def call() -> None:
        async for _item in stream_chat(server.settings(timeout=120.0), [
                {"role": "user", "content": "warm up"}]):
            pass

    server.queue(Reply("warm"))
    asyncio.run(call())
    server.reset()


@pytest.fixture(scope="session")
def _llm_server_session():
    server = LLMServer().start()
    _first_call(server)
    yield server
    server.stop()


@pytest.fixture
def llm_server(_llm_server_session: LLMServer) -> LLMServer:
    """The session's local OpenAI-compatible server, with an empty script and request log."""
    _llm_server_session.reset()
    yield _llm_server_session
    _llm_server_session.reset()
