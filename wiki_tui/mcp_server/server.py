"""`wiki-tui mcp [VAULT]`: the wiki as tools for other agents, over the Model Context Protocol
(stdio, the official `mcp` SDK's MCPServer).

Read-only tools answer from the vault model (the same search, link rules, backlinks and lint as
the app); `propose_changes` never writes a page: it keeps the changeset as a pending review with
the calling agent's name (the `clientInfo` it sent when it connected), for the person to accept
in the app or with `wiki-tui apply --pending ID --yes`. Nothing here imports litellm or the UI.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.types import ToolAnnotations

from wiki_tui.agent.prompts import EDIT_PROTOCOL
from wiki_tui.mcp_server import tools
from wiki_tui.vault import Vault, VaultError

SERVER_NAME = "wiki-tui"
UNNAMED_AGENT = "an MCP client"  # a client that sent no clientInfo name
# Hints for the client: the lookups change nothing; a proposal adds a pending review only.
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
PROPOSES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

INSTRUCTIONS = """\
A markdown wiki kept with wiki-tui: pages with YAML frontmatter and [[wikilinks]], a generated
index.md (resource wiki://index.md) and the vault's own rules for writers (wiki://AGENTS.md).
Look things up with search, read_page, backlinks and list_pages. To change the wiki, send edit
blocks to propose_changes: nothing is written until the person accepts the changeset in
wiki-tui. Fix any broken links its lint findings report and propose again."""

PROPOSE_DESCRIPTION = """\
Propose changes to the wiki as one changeset for the person to review. Nothing is written: the
reply is checked and diffed as `wiki-tui apply --dry-run` does, and kept as a pending review
that the person accepts or rejects in wiki-tui. Returns each file's diff, the changeset's lint
findings (e.g. links to pages that do not exist) and, if the reply was refused, each refusal
naming the file and the reason (then nothing is kept: correct the blocks and propose again).
Args: reply (the edit blocks, described below), title (optional, for the log and the commit).

""" + EDIT_PROTOCOL


def agent_name(ctx: Context | None) -> str:
    """The connected client's name and version from its initialize request's clientInfo."""
    params = getattr(getattr(ctx, "session", None), "client_params", None) if ctx else None
    info = getattr(params, "client_info", None)
    name = (getattr(info, "name", "") or "").strip()
    if not name:
        return UNNAMED_AGENT
    version = (getattr(info, "version", "") or "").strip()
    return f"{name} {version}" if version else name


def _answers(vault: Vault, fn: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """`fn(vault, ...)` as a tool body: the vault brought in step with applies made elsewhere
    first (one stat of log.md when there were none), an agent's mistake as a ToolError."""
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> dict[str, Any]:
        vault.sync_with_disk()
        try:
            return fn(vault, *args, **kwargs)
        except (tools.ToolInputError, VaultError) as exc:
            raise ToolError(str(exc)) from None
    return call


def build_server(vault: Vault) -> MCPServer:
    server = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")
    _add_read_tools(server, vault)
    _add_propose_tool(server, vault)
    _add_resources(server, vault)
    return server


def _add_read_tools(server: MCPServer, vault: Vault) -> None:
    search = _answers(vault, tools.search)
    read_page = _answers(vault, tools.read_page)
    backlinks = _answers(vault, tools.backlinks)
    list_pages = _answers(vault, tools.list_pages)
    lint = _answers(vault, tools.lint)
    recent_log = _answers(vault, tools.recent_log)

    @server.tool(name="search", annotations=READ_ONLY)
    def search_tool(query: str, limit: int = 20) -> dict[str, Any]:
        """Full-text search of the wiki (BM25; "quoted phrase", OR, -word). Hits best first,
        each with path, title, 1-based line and a one-line snippet."""
        return search(query, limit)

    @server.tool(name="read_page", annotations=READ_ONLY)
    def read_page_tool(page: str) -> dict[str, Any]:
        """One page's full text (frontmatter included). `page` is a path, a file name, a title
        or an alias, resolved as a [[link]] from the vault root resolves."""
        return read_page(page)

    @server.tool(name="backlinks", annotations=READ_ONLY)
    def backlinks_tool(page: str) -> dict[str, Any]:
        """Pages that link to `page` (source, line, the line's text), then unlinked mentions of
        its name in other pages."""
        return backlinks(page)

    @server.tool(name="list_pages", annotations=READ_ONLY)
    def list_pages_tool(type: str | None = None, folder: str | None = None,
                        limit: int | None = None) -> dict[str, Any]:
        """Pages (path, title, type, summary), sorted by path; optionally only one frontmatter
        `type` (e.g. concept, entity, source) and/or one folder."""
        return list_pages(type, folder, limit)

    @server.tool(name="lint", annotations=READ_ONLY)
    def lint_tool() -> dict[str, Any]:
        """Structural findings for the whole wiki: broken links, orphans, frontmatter the
        vault's schema asks for, pages missing from index.md, duplicates."""
        return lint()

    @server.tool(name="recent_log", annotations=READ_ONLY)
    def recent_log_tool(limit: int = 10) -> dict[str, Any]:
        """The newest entries of log.md first (date, operation, title, pages touched)."""
        return recent_log(limit)


def _add_propose_tool(server: MCPServer, vault: Vault) -> None:
    propose = _answers(vault, tools.propose_changes)

    @server.tool(name="propose_changes", description=PROPOSE_DESCRIPTION,
                 annotations=PROPOSES)
    def propose_tool(reply: str, ctx: Context, title: str | None = None) -> dict[str, Any]:
        return propose(reply, title, agent_name(ctx))


def _add_resources(server: MCPServer, vault: Vault) -> None:
    def read(path: str) -> str:
        try:
            return vault.read_text(path)
        except VaultError as exc:
            raise ResourceNotFoundError(str(exc)) from None

    @server.resource("wiki://index.md", name="index.md", mime_type="text/markdown",
                     description="The catalog of every page with its one-line summary, by type.")
    def index_md() -> str:
        return read("index.md")

    @server.resource("wiki://AGENTS.md", name="AGENTS.md", mime_type="text/markdown",
                     description="The vault's schema: page types, required frontmatter, "
                                 "conventions for whoever writes pages.")
    def agents_md() -> str:
        return read("AGENTS.md")

    @server.resource("wiki://edit-protocol", name="edit-protocol", mime_type="text/markdown",
                     description="How to write the reply propose_changes takes.")
    def edit_protocol() -> str:
        return EDIT_PROTOCOL


def serve(root: Path, on_open: Callable[[Vault], None] | None = None) -> None:
    """Open the vault (watching it for outside edits), run `on_open(vault)` (the CLI finishes
    an apply a crash interrupted there), and serve MCP on stdin/stdout until the client closes
    the pipe."""
    vault = Vault.open(root, watch=True)
    if on_open is not None:
        on_open(vault)
    # The finder and the search database, built while the client initialises: the first
    # search then waits only for what is left (a cold 10k-page index takes seconds).
    threading.Thread(target=vault.prepare, name="wiki-tui-prepare", daemon=True).start()
    try:
        build_server(vault).run("stdio")
    finally:
        vault.close()
