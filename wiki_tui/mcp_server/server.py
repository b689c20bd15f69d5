"""`wiki-tui mcp [VAULT]`: the wiki as tools for other agents, over the Model Context Protocol
(the official `mcp` SDK's MCPServer; stdio by default, streamable HTTP with http.py).

Read-only tools answer from the vault model (the same search, link rules, backlinks and lint as
the app); `propose_changes` never writes a page: it keeps the changeset as a pending review with
the calling agent's name (the `clientInfo` it sent when it connected), for the person to accept
in the app or with `wiki-tui apply --pending ID --yes`. Nothing here imports litellm or the UI.

Every call runs in a worker thread under a time limit, so no request stalls the server for the
others; every refusal is a tool error (`isError`) in plain words (arguments.py).
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

from wiki_tui import __version__
from wiki_tui.agent.prompts import EDIT_PROTOCOL
from wiki_tui.mcp_server import schemas, tools
from wiki_tui.mcp_server.arguments import plain_message
from wiki_tui.vault import Vault, VaultError

if TYPE_CHECKING:
    from wiki_tui.mcp_server.http import HttpOptions

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


CALL_SECONDS = 10.0  # the most one call may take before it is answered with an error

# Arguments as the tools' input schemas describe them.
Query = Annotated[str, Field(description='Words to find; "quoted phrase", OR, -word. At most '
                                         f"{tools.QUERY_MAX_CHARS} characters and "
                                         f"{tools.QUERY_MAX_TERMS} different words")]
PageName = Annotated[str, Field(description="A path, a file name, a title or an alias "
                                            "([[...]] around it is fine)")]
Limit = Annotated[int, Field(ge=1, description="How many to give at most")]
Cursor = Annotated[str | None, Field(description="The next_cursor of the previous answer")]


class WikiServer(MCPServer):
    """The SDK's MCPServer, with argument mistakes told in plain words and stdin checked line
    by line (stdio.py)."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context | None = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(plain_message(name, exc.__cause__)) from None
            raise

    async def run_stdio_async(self) -> None:
        from wiki_tui.mcp_server.stdio import serve_stdio

        await serve_stdio(self._lowlevel_server)


def _answers(vault: Vault, fn: Callable[..., dict[str, Any]], out: type[BaseModel] | None,
             seconds: float = CALL_SECONDS) -> Callable[..., Awaitable[Any]]:
    """`fn(vault, ...)` as a tool body, its answer as the model `out` (so the text and the
    structured content say the same; None: the dict as is): run in a worker thread with the
    vault first brought in
    step with applies made elsewhere (one stat of log.md when there were none); an agent's
    mistake as a ToolError; a call that takes more than `seconds` answered with a ToolError
    (its thread is left to finish on its own, bounded by the limits on what a call may ask)."""
    what = fn.__name__

    def run(*args: Any, **kwargs: Any) -> Any:
        vault.sync_with_disk()
        answer = fn(vault, *args, **kwargs)
        return answer if out is None else out.model_validate(answer)

    @functools.wraps(fn)
    async def call(*args: Any, **kwargs: Any) -> Any:
        try:
            with anyio.fail_after(seconds):
                return await anyio.to_thread.run_sync(
                    functools.partial(run, *args, **kwargs), abandon_on_cancel=True)
        except TimeoutError:
            raise ToolError(f"{what} took longer than {seconds:g} s and was stopped: ask for "
                            "less (fewer words, a smaller limit, one folder)") from None
        except (tools.ToolInputError, VaultError) as exc:
            raise ToolError(str(exc)) from None
    return call


def build_server(vault: Vault, *, call_seconds: float = CALL_SECONDS) -> WikiServer:
    server = WikiServer(SERVER_NAME, version=__version__, instructions=INSTRUCTIONS,
                        log_level="WARNING")
    _add_read_tools(server, vault, call_seconds)
    _add_propose_tool(server, vault, call_seconds)
    _add_resources(server, vault)
    return server


def _add_read_tools(server: MCPServer, vault: Vault, seconds: float) -> None:
    search = _answers(vault, tools.search, schemas.SearchOut, seconds)
    read_page = _answers(vault, tools.read_page, schemas.PageOut, seconds)
    backlinks = _answers(vault, tools.backlinks, schemas.BacklinksOut, seconds)
    list_pages = _answers(vault, tools.list_pages, schemas.ListOut, seconds)
    lint = _answers(vault, tools.lint, schemas.LintOut, seconds)
    recent_log = _answers(vault, tools.recent_log, schemas.LogOut, seconds)

    @server.tool(name="search", annotations=READ_ONLY)
    async def search_tool(query: Query, limit: Limit = 20) -> schemas.SearchOut:
        """Full-text search of the wiki (BM25; "quoted phrase", OR, -word). Hits best first,
        each with path, title, 1-based line and a one-line snippet."""
        return await search(query, limit)

    @server.tool(name="read_page", annotations=READ_ONLY)
    async def read_page_tool(page: PageName) -> schemas.PageOut:
        """One page's full text (frontmatter included). `page` is a path, a file name, a title
        or an alias, resolved as a [[link]] from the vault root resolves."""
        return await read_page(page)

    @server.tool(name="backlinks", annotations=READ_ONLY)
    async def backlinks_tool(page: PageName) -> schemas.BacklinksOut:
        """Pages that link to `page` (source, line, the line's text), then unlinked mentions of
        its name in other pages."""
        return await backlinks(page)

    @server.tool(name="list_pages", annotations=READ_ONLY)
    async def list_pages_tool(type: str | None = None, folder: str | None = None,
                              limit: Limit | None = None,
                              cursor: Cursor = None) -> schemas.ListOut:
        """Pages (path, title, type, summary), sorted by path; optionally only one frontmatter
        `type` (e.g. concept, entity, source) and/or one folder. Long listings come in parts:
        pass the answer's next_cursor as `cursor` for the next one."""
        return await list_pages(type, folder, limit, cursor)

    @server.tool(name="lint", annotations=READ_ONLY)
    async def lint_tool() -> schemas.LintOut:
        """Structural findings for the whole wiki: broken links, orphans, frontmatter the
        vault's schema asks for, pages missing from index.md, duplicates."""
        return await lint()

    @server.tool(name="recent_log", annotations=READ_ONLY)
    async def recent_log_tool(limit: Limit = 10) -> schemas.LogOut:
        """The newest entries of log.md first (date, operation, title, pages touched)."""
        return await recent_log(limit)


def _add_propose_tool(server: MCPServer, vault: Vault, seconds: float) -> None:
    propose = _answers(vault, tools.propose_changes, None, seconds)

    @server.tool(name="propose_changes", description=PROPOSE_DESCRIPTION,
                 annotations=PROPOSES)
    async def propose_tool(
        reply: Annotated[str, Field(description="Edit blocks in the edit protocol")],
        ctx: Context,
        title: Annotated[str | None, Field(description="For the log and the commit")] = None,
    ) -> Annotated[CallToolResult, schemas.ProposalOut]:
        answer = await propose(reply, title, agent_name(ctx))
        return CallToolResult(content=[TextContent(type="text", text=json.dumps(answer, indent=2))],
                              structured_content=answer, is_error=answer["refused"])


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


def serve(root: Path, on_open: Callable[[Vault], None] | None = None,
          http: "HttpOptions | None" = None) -> None:
    """Open the vault (watching it for outside edits), run `on_open(vault)` (the CLI finishes
    an apply a crash interrupted there), and serve MCP: on stdin/stdout until the client closes
    the pipe, or over streamable HTTP (`http`) until SIGINT/SIGTERM. HttpSetupError when the
    HTTP server cannot start as asked (before the vault is opened)."""
    sock = None
    if http is not None:
        from wiki_tui.mcp_server.http import announce, bind

        http.check()
        sock = bind(http)
    vault = Vault.open(root, watch=True)
    try:
        if on_open is not None:
            on_open(vault)
        # The finder and the search database, built while the client initialises: the first
        # search then waits only for what is left (a cold 10k-page index takes seconds).
        threading.Thread(target=vault.prepare, name="wiki-tui-prepare", daemon=True).start()
        server = build_server(vault)
        if http is None:
            server.run("stdio")
        else:
            from wiki_tui.mcp_server.http import serve_http

            announce(root, sock, http)
            serve_http(server, http, sock)
    finally:
        if sock is not None:
            sock.close()
        vault.close()
