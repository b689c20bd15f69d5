"""`wiki-tui mcp [VAULT]`: the wiki as tools for other agents, over the Model Context Protocol
(the official `mcp` SDK's MCPServer; stdio by default, streamable HTTP with transport/http.py).

Read-only tools answer from the vault model (the same search, link rules, backlinks and lint as
the app); `propose_changes` never writes a page: it keeps the changeset as a pending review with
the calling agent's name (the `clientInfo` it sent when it connected), for the person to accept
in the app or with `wiki-tui apply --pending ID --yes`. Nothing here imports litellm or the UI.

Every call runs in a worker thread under a time limit (calls.py), so no request stalls the
server for the others; every refusal is a tool error (`isError`) in plain words (arguments.py).
What it offers is listed in catalog.py; subscriptions to pages are kept in feed.py.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import (Completion, CompleteRequestParams, CompleteResult, EmptyResult,
                       SetLevelRequestParams, SubscribeRequestParams, UnsubscribeRequestParams)
from pydantic import ValidationError

from wiki_tui import __version__
from wiki_tui.mcp_server import catalog
from wiki_tui.mcp_server.arguments import plain_message
from wiki_tui.mcp_server.calls import CALL_SECONDS
from wiki_tui.mcp_server.feed import ChangeFeed
from wiki_tui.vault import Vault

if TYPE_CHECKING:
    from wiki_tui.mcp_server.transport.http import HttpOptions

SERVER_NAME = "wiki-tui"

INSTRUCTIONS = """\
A markdown wiki kept with wiki-tui: pages with YAML frontmatter and [[wikilinks]], a generated
index.md (resource wiki://index.md) and the vault's own rules for writers (wiki://AGENTS.md).
Look things up with search, read_page (`page#heading` for one section), backlinks, links,
list_pages, tags, properties and recent_changes; raw sources with list_sources and
read_source. To change the wiki, send edit blocks to propose_changes: nothing is written until
the person accepts the changeset in wiki-tui. Fix any broken links its lint findings report and
propose again; my_proposals and withdraw_proposal manage what you proposed."""


class WikiServer(MCPServer):
    """The SDK's MCPServer, with argument mistakes told in plain words, stdin checked line by
    line (transport/stdio.py), and the protocol's smaller parts: resource subscriptions (with
    `feed`), argument completion, and logging/setLevel (accepted; the server logs nothing to
    clients)."""

    def __init__(self, vault: Vault, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.vault = vault
        self.feed = ChangeFeed(publish=self._publish_update, catalog=lambda: vault.catalog)
        self.log_level = "warning"
        lowlevel = self._lowlevel_server
        lowlevel.add_request_handler("resources/subscribe", SubscribeRequestParams, self._subscribe)
        lowlevel.add_request_handler("resources/unsubscribe", UnsubscribeRequestParams,
                                     self._unsubscribe)
        lowlevel.add_request_handler("logging/setLevel", SetLevelRequestParams, self._set_level)
        lowlevel.add_request_handler("completion/complete", CompleteRequestParams, self._complete)
        self.middleware.append(self._bind_loop)

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context | None = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(plain_message(name, exc.__cause__)) from None
            prefix = f"Error executing tool {name}: "  # the SDK's, before our own sentence
            if str(exc).startswith(prefix):
                raise ToolError(str(exc)[len(prefix):]) from None
            raise

    async def run_stdio_async(self) -> None:
        from wiki_tui.mcp_server.transport.stdio import serve_stdio

        await serve_stdio(self._lowlevel_server)

    async def _bind_loop(self, ctx: Any, call_next: Any) -> Any:
        self.feed.bind_loop()  # the loop notifications from the watcher's thread are sent on
        return await call_next(ctx)

    async def _publish_update(self, uri: str) -> None:
        from mcp.shared.subscriptions import ResourceUpdated

        await self._subscriptions.publish(ResourceUpdated(uri=uri))

    async def _subscribe(self, ctx: Any, params: SubscribeRequestParams) -> EmptyResult:
        self.feed.subscribe(ctx.session, str(params.uri))
        return EmptyResult()

    async def _unsubscribe(self, ctx: Any, params: UnsubscribeRequestParams) -> EmptyResult:
        self.feed.unsubscribe(ctx.session, str(params.uri))
        return EmptyResult()

    async def _set_level(self, ctx: Any, params: SetLevelRequestParams) -> EmptyResult:
        self.log_level = params.level
        return EmptyResult()

    async def _complete(self, ctx: Any, params: CompleteRequestParams) -> CompleteResult:
        values, total = catalog.completions(self.vault, params.ref, params.argument)
        return CompleteResult(completion=Completion(values=values, total=total,
                                                    has_more=total > len(values)))


def build_server(vault: Vault, *, call_seconds: float = CALL_SECONDS) -> WikiServer:
    """The server over `vault`; the vault's watcher (if any) feeds its change notifications."""
    server = WikiServer(vault, name=SERVER_NAME, version=__version__,
                        instructions=INSTRUCTIONS, log_level="WARNING")
    catalog.add_tools(server, vault, call_seconds)
    catalog.add_resources(server, vault)
    catalog.add_prompts(server)
    return server


def serve(root: Path, on_open: Callable[[Vault], None] | None = None,
          http: "HttpOptions | None" = None) -> None:
    """Open the vault (watching it for outside edits), run `on_open(vault)` (the CLI finishes
    an apply a crash interrupted there), and serve MCP: on stdin/stdout until the client closes
    the pipe, or over streamable HTTP (`http`) until SIGINT/SIGTERM. HttpSetupError when the
    HTTP server cannot start as asked (before the vault is opened)."""
    sock = None
    if http is not None:
        from wiki_tui.mcp_server.transport.http import announce, bind

        http.check()
        sock = bind(http)
    vault = Vault.open(root)
    try:
        if on_open is not None:
            on_open(vault)
        # The finder and the search database, built while the client initialises: the first
        # search then waits only for what is left (a cold 10k-page index takes seconds).
        threading.Thread(target=vault.prepare, name="wiki-tui-prepare", daemon=True).start()
        server = build_server(vault)
        vault.start_watching(server.feed.changed)
        if http is None:
            server.run("stdio")
        else:
            from wiki_tui.mcp_server.transport.http import serve_http

            announce(root, sock, http)
            serve_http(server, http, sock)
    finally:
        if sock is not None:
            sock.close()
        vault.close()
