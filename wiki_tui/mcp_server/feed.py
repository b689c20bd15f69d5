"""Change notifications: a client subscribes to a page's resource (`wiki://page/{path}`, or
`wiki://index.md`, `wiki://AGENTS.md`) and hears `notifications/resources/updated` when the
vault's watcher sees that file change, whoever changed it (the person, an apply, git).

Subscriptions are kept per connection and dropped when a notification can no longer reach it.
The watcher calls from its own thread; notifications are sent on the server's event loop.
Clients of the 2026-07-28 protocol, which listen with `subscriptions/listen` instead, hear the
same changes through the server's subscription bus (`publish`).
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote

import anyio
import anyio.from_thread
import anyio.lowlevel

PAGE_SCHEME = "wiki://page/"
TOP_FILES = ("index.md", "AGENTS.md")  # served as wiki://index.md and wiki://AGENTS.md


def page_uri(path: str, catalog: str = "index.md") -> str:
    """The resource URI of a vault file (spaces and other specials percent-encoded). The
    catalog, wherever AGENTS.md's `catalog:` puts it, is wiki://index.md; with the catalog
    elsewhere, index.md (a home page) is a page like any other."""
    if path == catalog:
        return "wiki://index.md"
    if path == "AGENTS.md":
        return "wiki://AGENTS.md"
    return PAGE_SCHEME + quote(path, safe="/")


def _connection_of(session: Any) -> Any:
    # The SDK hands each request its own session proxy; the connection behind it is what a
    # subscription belongs to (one client subscribing twice hears each change once).
    return getattr(session, "_connection", session)


class ChangeFeed:
    def __init__(self, publish: Callable[[str], Awaitable[None]] | None = None,
                 catalog: Callable[[], str] = lambda: "index.md") -> None:
        self._publish = publish  # the bus of the newer protocol (MCPServer's subscriptions)
        self._catalog = catalog  # the catalog's path now (AGENTS.md may change it)
        self._subscribed: dict[Any, tuple[Any, set[str]]] = {}  # connection -> (session, uris)
        self._lock = threading.Lock()
        self._loop_token: Any = None

    def bind_loop(self) -> None:
        """Remember the running event loop, for notifications from the watcher's thread."""
        self._loop_token = anyio.lowlevel.current_token()

    def subscribe(self, session: Any, uri: str) -> None:
        self.bind_loop()
        with self._lock:
            _, uris = self._subscribed.setdefault(_connection_of(session), (session, set()))
            uris.add(uri)

    def unsubscribe(self, session: Any, uri: str) -> None:
        with self._lock:
            entry = self._subscribed.get(_connection_of(session))
            if entry is not None:
                entry[1].discard(uri)

    def subscribers(self) -> int:
        with self._lock:
            return sum(1 for _, uris in self._subscribed.values() if uris)

    def changed(self, changes: list[tuple[str, str]]) -> None:
        """The watcher's callback (its thread): [(change, vault path)]."""
        if self._loop_token is None:
            return  # nobody has subscribed yet, and the newer protocol's bus has no loop
        catalog = self._catalog()
        uris = {page_uri(path, catalog) for _change, path in changes if path.endswith(".md")}
        if not uris:
            return
        try:
            anyio.from_thread.run(self._notify, uris, token=self._loop_token)
        except RuntimeError:  # the loop has ended: the server is stopping
            pass

    async def _notify(self, uris: set[str]) -> None:
        with self._lock:
            targets = [(key, session, uris & wanted)
                       for key, (session, wanted) in self._subscribed.items() if uris & wanted]
        for key, session, wanted in targets:
            try:
                for uri in sorted(wanted):
                    await session.send_resource_updated(uri)
            except Exception:  # noqa: BLE001 - the connection is gone: forget it
                with self._lock:
                    self._subscribed.pop(key, None)
        if self._publish is not None:
            for uri in sorted(uris):
                await self._publish(uri)
