"""MCP over streamable HTTP (`wiki-tui mcp --transport streamable-http`), at path /mcp.

The SDK's streamable HTTP app behind one guard, checked in this order on every request:
1. Host and Origin against DNS rebinding: a web page in the person's browser that makes its own
   name resolve to 127.0.0.1 still sends its own Host and Origin, and is refused (421 / 403);
2. the bearer token, when there is one (401 otherwise); one is required to bind anything but a
   loopback address, since the wiki would be open to the network;
3. the JSON-RPC envelope of a POST (envelope.py): a parse error, a batch or an invalid request
   gets a JSON-RPC error (400), never silence.
It binds 127.0.0.1 unless told otherwise, and ends cleanly on SIGINT/SIGTERM.
"""

from __future__ import annotations

import hmac
import signal
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from wiki_tui.mcp_server import TOKEN_ENV
from wiki_tui.mcp_server.transport.envelope import MAX_MESSAGE_BYTES, refusal

PATH = "/mcp"
TOKEN_MIN_CHARS = 16
LOOPBACK = ("127.0.0.1", "localhost", "::1")
ANY_ADDRESS = ("0.0.0.0", "::", "")
GRACE_SECONDS = 3  # open streams are closed after this long when the server stops


class HttpSetupError(ValueError):
    """The server cannot be started as asked; str() says why and what to do."""


@dataclass(frozen=True)
class HttpOptions:
    host: str = "127.0.0.1"
    port: int = 8765
    token: str | None = None
    allowed_hosts: tuple[str, ...] = field(default=())  # more Host names clients may use

    @property
    def loopback(self) -> bool:
        return self.host in LOOPBACK

    def check(self) -> None:
        """Refuse what would open the wiki to the network unguarded, or cannot work."""
        if not (0 <= self.port <= 65535):
            raise HttpSetupError(f"--port must be between 0 and 65535 (got {self.port})")
        if self.token is not None and len(self.token) < TOKEN_MIN_CHARS:
            raise HttpSetupError(f"the token is {len(self.token)} characters; use at least "
                                 f"{TOKEN_MIN_CHARS} (e.g. `openssl rand -hex 32`)")
        if not self.loopback and not self.token:
            raise HttpSetupError(
                f"binding {self.host or 'every address'} serves the wiki to other machines: give "
                f"a bearer token with --token or the {TOKEN_ENV} environment variable "
                f"(or bind 127.0.0.1, the default)")


def _host_name(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def security_settings(options: HttpOptions) -> Any:
    """The Host and Origin values accepted: the loopback names for a loopback bind, else the
    bound name and those given with --allow-host (a wildcard bind without --allow-host checks
    the token only)."""
    from mcp.server.transport_security import TransportSecuritySettings

    names = list(LOOPBACK) if options.loopback else []
    if options.host not in ANY_ADDRESS and not options.loopback:
        names.append(options.host)
    names.extend(options.allowed_hosts)
    if not names:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    hosts = [name for n in names for name in (_host_name(n), f"{_host_name(n)}:*")]
    origins = [f"{scheme}://{_host_name(n)}{port}" for n in names
               for scheme in ("http", "https") for port in ("", ":*")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=hosts, allowed_origins=origins)


def _bearer(headers: Headers) -> str | None:
    scheme, _, value = headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


class Guard:
    """ASGI middleware in front of the SDK's app: Host/Origin, token, envelope (see above)."""

    def __init__(self, app: Any, options: HttpOptions) -> None:
        from mcp.server.transport_security import TransportSecurityMiddleware

        self.app = app
        self.token = options.token.encode() if options.token else None
        self.security = TransportSecurityMiddleware(security_settings(options))

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":  # the lifespan: the SDK's session manager starts there
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        refused = await self.security.validate_request(request, is_post=False)
        if refused is None and self.token is not None:
            given = _bearer(request.headers)
            if given is None or not hmac.compare_digest(given.encode(), self.token):
                refused = JSONResponse(
                    {"error": "a bearer token is required: send `Authorization: Bearer <token>`"
                              if given is None else "the bearer token is not this server's"},
                    status_code=401, headers={"WWW-Authenticate": 'Bearer realm="wiki-tui"'})
        if refused is None and scope["method"] == "POST" and scope["path"].rstrip("/") == PATH:
            refused, receive = await self._checked_body(receive)
        if refused is not None:
            await refused(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _checked_body(self, receive: Any) -> tuple[Response | None, Any]:
        """Read the body (at most MAX_MESSAGE_BYTES), check its envelope, and hand the SDK a
        receive that replays it."""
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return Response(status_code=400), receive  # the client went away
            body.extend(message.get("body", b""))
            if len(body) > MAX_MESSAGE_BYTES:
                return JSONResponse(refusal(bytes(body)), status_code=413), receive
            if not message.get("more_body", False):
                break
        error = refusal(bytes(body))
        if error is not None:
            return JSONResponse(error, status_code=400), receive
        sent = False

        async def replay() -> dict:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()
        return None, replay


def bind(options: HttpOptions) -> socket.socket:
    """A listening socket on host:port (port 0: any free port), or HttpSetupError."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            options.host or None, options.port, type=socket.SOCK_STREAM,
            flags=socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise HttpSetupError(f"cannot listen on {options.host}:{options.port}: "
                             f"{exc.strerror or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise HttpSetupError(f"cannot listen on {options.host}:{options.port}: "
                             f"{exc.strerror or exc}") from None
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://{_host_name(host)}:{port}{PATH}"


def serve_http(server: Any, options: HttpOptions, sock: socket.socket) -> None:
    """Serve `server` (an MCPServer) on `sock` until SIGINT or SIGTERM."""
    import uvicorn

    class _Server(uvicorn.Server):
        @contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn raises the signal again after shutting down, which would kill the
            # process before the vault is closed: here the signal just ends serve().
            handled = (signal.SIGINT, signal.SIGTERM)
            previous = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

    app = Guard(server.streamable_http_app(streamable_http_path=PATH, host=options.host,
                                           transport_security=security_settings(options)),
                options)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=GRACE_SECONDS,
                            lifespan="on", access_log=False)
    _Server(config).run(sockets=[sock])


def announce(root: Any, sock: socket.socket, options: HttpOptions) -> None:
    guard = "a bearer token required" if options.token else "no token"
    print(f"wiki-tui mcp: serving {root} at {url_of(sock)} ({guard}; ctrl+c stops)",
          file=sys.stderr, flush=True)
