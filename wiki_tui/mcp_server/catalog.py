"""What the server offers, as the client sees it: each tool's name, description, arguments and
answer schema (the bodies are in tools/), the resources (the catalog, the schema, the edit
protocol, every page as `wiki://page/{+path}`) and the prompts (ingest, query, lint)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from wiki_tui.agent.context.prompts import EDIT_PROTOCOL
from wiki_tui.mcp_server import prompts, schemas
from wiki_tui.mcp_server.calls import agent_name, answers
from wiki_tui.mcp_server.tools import history, lookups, pages, proposals, sources
from wiki_tui.vault import Vault, VaultError

# Hints for the client: the lookups change nothing; a proposal adds a pending review only.
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
PROPOSES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
WITHDRAWS = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True,
                            open_world_hint=False)

# Arguments as the tools' input schemas describe them.
Query = Annotated[str, Field(description='Words to find; "quoted phrase", OR, -word. At most '
                                         f"{lookups.QUERY_MAX_CHARS} characters and "
                                         f"{lookups.QUERY_MAX_TERMS} different words")]
PageName = Annotated[str, Field(description="A path, a file name, a title or an alias "
                                            "([[...]] around it is fine)")]
PageOrSection = Annotated[str, Field(description=(
    "A path, a file name, a title or an alias; `page#heading` (or `page#^block`) reads that "
    "part only"))]
Limit = Annotated[int, Field(ge=1, description="How many to give at most")]
Cursor = Annotated[str | None, Field(description="The next_cursor of the previous answer "
                                                 "(leave out to start)")]
Folder = Annotated[str | None, Field(description="Only under this folder")]

PROPOSE_DESCRIPTION = """\
Propose changes to the wiki as one changeset for the person to review. Nothing is written: the
reply is checked and diffed as `wiki-tui apply --dry-run` does, and kept as a pending review
that the person accepts or rejects in wiki-tui. Returns each file's diff, the changeset's lint
findings (e.g. links to pages that do not exist) and, if the reply was refused (an error
result), each refusal naming the file and the reason (then nothing is kept: correct the blocks
and propose again).
Args: reply (the edit blocks, described below), title (optional, for the log and the commit).

""" + EDIT_PROTOCOL


def add_tools(server: MCPServer, vault: Vault, seconds: float) -> None:
    _add_lookups(server, vault, seconds)
    _add_structure(server, vault, seconds)
    _add_proposals(server, vault, seconds)
    _add_sources(server, vault, seconds)


def _add_lookups(server: MCPServer, vault: Vault, seconds: float) -> None:
    search = answers(vault, lookups.search, schemas.SearchOut, seconds)
    read_page = answers(vault, lookups.read_page, schemas.PageOut, seconds)
    backlinks = answers(vault, lookups.backlinks, schemas.BacklinksOut, seconds)
    list_pages = answers(vault, lookups.list_pages, schemas.ListOut, seconds)
    lint = answers(vault, lookups.lint, schemas.LintOut, seconds)
    recent_log = answers(vault, lookups.recent_log, schemas.LogOut, seconds)

    @server.tool(name="search", annotations=READ_ONLY)
    async def search_tool(query: Query, limit: Limit = 20) -> schemas.SearchOut:
        """Full-text search of the wiki (BM25; "quoted phrase", OR, -word). Hits best first,
        each with path, title, 1-based line and a one-line snippet. At most 100 hits."""
        return await search(query, limit)

    @server.tool(name="read_page", annotations=READ_ONLY)
    async def read_page_tool(page: PageOrSection) -> schemas.PageOut:
        """One page's full text (frontmatter included), or one section of it with
        `page#heading`. `page` is a path, a file name, a title or an alias, resolved as a
        [[link]] from the vault root resolves. The answer lists the page's headings."""
        return await read_page(page)

    @server.tool(name="backlinks", annotations=READ_ONLY)
    async def backlinks_tool(page: PageName) -> schemas.BacklinksOut:
        """Pages that link to `page` (source, line, the line's text), then unlinked mentions of
        its name in other pages."""
        return await backlinks(page)

    @server.tool(name="list_pages", annotations=READ_ONLY)
    async def list_pages_tool(
        type: Annotated[str | None, Field(description="Only pages of this frontmatter type "
                                                      "(concept, entity, source...)")] = None,
        folder: Folder = None, limit: Limit | None = None, cursor: Cursor = None,
    ) -> schemas.ListOut:
        """Pages (path, title, type, summary), sorted by path; optionally only one frontmatter
        `type` and/or one folder. Long listings come in parts (2000 at most): pass the
        answer's next_cursor as `cursor` for the next one."""
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


def _add_structure(server: MCPServer, vault: Vault, seconds: float) -> None:
    links = answers(vault, pages.links, schemas.LinksOut, seconds)
    tags = answers(vault, pages.tags, schemas.TagsOut, seconds)
    by_tag = answers(vault, pages.pages_by_tag, schemas.TaggedOut, seconds)
    properties = answers(vault, pages.properties, schemas.PropertiesOut, seconds)
    by_property = answers(vault, pages.pages_by_property, schemas.PropertyOut, seconds)
    changes = answers(vault, history.recent_changes, schemas.ChangesOut, seconds)

    @server.tool(name="links", annotations=READ_ONLY)
    async def links_tool(page: PageName) -> schemas.LinksOut:
        """The page's outgoing links in file order: as written, the page each leads to (null
        when none: a broken link), and how many are broken."""
        return await links(page)

    @server.tool(name="tags", annotations=READ_ONLY)
    async def tags_tool(limit: Limit | None = None, cursor: Cursor = None) -> schemas.TagsOut:
        """Every tag in the wiki (frontmatter and #inline) with how many pages hold it."""
        return await tags(limit, cursor)

    @server.tool(name="pages_by_tag", annotations=READ_ONLY)
    async def pages_by_tag_tool(
        tag: Annotated[str, Field(description="The tag, with or without #; `area` also finds "
                                              "`area/sub`")],
        limit: Limit | None = None, cursor: Cursor = None,
    ) -> schemas.TaggedOut:
        """The pages holding a tag (case-insensitive), by path."""
        return await by_tag(tag, limit, cursor)

    @server.tool(name="properties", annotations=READ_ONLY)
    async def properties_tool(page: PageName) -> schemas.PropertiesOut:
        """The page's frontmatter properties as JSON values (dates as ISO text)."""
        return await properties(page)

    @server.tool(name="pages_by_property", annotations=READ_ONLY)
    async def pages_by_property_tool(
        name: Annotated[str, Field(description="The frontmatter property, e.g. status")],
        value: Annotated[str | None, Field(description="Only pages where it has this value "
                                                       "(or a list holding it); compared as "
                                                       "text, case-insensitively")] = None,
        limit: Limit | None = None, cursor: Cursor = None,
    ) -> schemas.PropertyOut:
        """Pages whose frontmatter sets a property (to a value, when given), with its value."""
        return await by_property(name, value, limit, cursor)

    @server.tool(name="recent_changes", annotations=READ_ONLY)
    async def recent_changes_tool(
        page: Annotated[str | None, Field(description="One page (else the whole wiki)")] = None,
        limit: Limit = 10,
    ) -> schemas.ChangesOut:
        """What changed lately, newest first: git commits (with the files each changed; for
        one page, those that touched it, across renames) and the log.md entries naming it."""
        return await changes(page, limit)


def _add_proposals(server: MCPServer, vault: Vault, seconds: float) -> None:
    propose = answers(vault, proposals.propose_changes, None, seconds)
    mine = answers(vault, proposals.my_proposals, schemas.ProposalsOut, seconds)
    withdraw = answers(vault, proposals.withdraw_proposal, schemas.WithdrawnOut, seconds)

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

    @server.tool(name="my_proposals", annotations=READ_ONLY)
    async def my_proposals_tool(ctx: Context) -> schemas.ProposalsOut:
        """Your proposals still waiting for the person's review (by your client's name and
        version), oldest first. One that was applied or rejected is no longer listed."""
        return await mine(agent_name(ctx))

    @server.tool(name="withdraw_proposal", annotations=WITHDRAWS)
    async def withdraw_tool(
        pending_id: Annotated[str, Field(description="The pending_id propose_changes gave (or "
                                                     "its last part)")],
        ctx: Context,
    ) -> schemas.WithdrawnOut:
        """Take back one of your own pending proposals before the person reviews it (to
        propose a corrected one instead). Other agents' proposals are not yours to withdraw."""
        return await withdraw(pending_id, agent_name(ctx))


def _add_sources(server: MCPServer, vault: Vault, seconds: float) -> None:
    listing = answers(vault, sources.list_sources, schemas.SourcesOut, seconds)
    reading = answers(vault, sources.read_source, schemas.SourceOut, seconds)

    @server.tool(name="list_sources", annotations=READ_ONLY)
    async def list_sources_tool(folder: Folder = None, limit: Limit | None = None,
                                cursor: Cursor = None) -> schemas.SourcesOut:
        """The raw sources under raw/ (read only), with whether each is ingested already."""
        return await listing(folder, limit, cursor)

    @server.tool(name="read_source", annotations=READ_ONLY)
    async def read_source_tool(
        path: Annotated[str, Field(description="A path under raw/ (raw/ may be left out)")],
        offset: Annotated[int | None, Field(ge=0, description="Where to go on from: the "
                                                              "previous answer's next_offset")] = None,
    ) -> schemas.SourceOut:
        """A raw source's text as markdown (PDF, HTML, CSV and office files converted), 50,000
        characters at a time. raw/ is never written."""
        return await reading(path, offset)


def add_resources(server: MCPServer, vault: Vault) -> None:
    def read(path: str) -> str:
        try:
            return vault.read_text(path)
        except VaultError as exc:
            raise ResourceNotFoundError(str(exc)) from None

    @server.resource("wiki://index.md", name="index.md", mime_type="text/markdown",
                     description="The catalog of every page with its one-line summary, by type.")
    def index_md() -> str:
        return read(vault.catalog)  # index.md, or where AGENTS.md's `catalog:` puts it

    @server.resource("wiki://AGENTS.md", name="AGENTS.md", mime_type="text/markdown",
                     description="The vault's schema: page types, required frontmatter, "
                                 "conventions for whoever writes pages.")
    def agents_md() -> str:
        return read("AGENTS.md")

    @server.resource("wiki://edit-protocol", name="edit-protocol", mime_type="text/markdown",
                     description="How to write the reply propose_changes takes.")
    def edit_protocol() -> str:
        return EDIT_PROTOCOL

    @server.resource("wiki://page/{+path}", name="page", mime_type="text/markdown",
                     description="A page of the wiki by its path (e.g. "
                                 "wiki://page/concepts/Marine%20chronometer.md); subscribe to "
                                 "hear when it changes.")
    def page(path: str) -> str:
        if not vault.is_page(path):
            raise ResourceNotFoundError(f"no page {path!r} in the wiki")
        return read(path)


def add_prompts(server: MCPServer) -> None:
    @server.prompt(name="ingest", description="Ingest a raw source into the wiki: a summary "
                   "page, updates to the pages it touches, links, contradictions flagged; "
                   "proposed for review.")
    def ingest_prompt(
        source: Annotated[str, Field(description="The source's path under raw/")],
    ) -> str:
        return prompts.ingest(source)

    @server.prompt(name="query", description="Answer a question from the wiki, with [[page]] "
                   "citations.")
    def query_prompt(question: Annotated[str, Field(description="The question")]) -> str:
        return prompts.query(question)

    @server.prompt(name="lint", description="Check the wiki's health and propose fixes.")
    def lint_prompt() -> str:
        return prompts.lint()


def completions(vault: Vault, ref: Any, argument: Any) -> tuple[list[str], int]:
    """Values that complete an argument: page paths for `wiki://page/{+path}`, raw sources for
    the ingest prompt; (at most 100 values, how many match in all)."""
    value = (getattr(argument, "value", "") or "").casefold()
    name = getattr(argument, "name", "")
    uri = getattr(ref, "uri", None)
    prompt = getattr(ref, "name", None)
    if uri == "wiki://page/{+path}" and name == "path":
        pool = sorted(vault.pages.records())
    elif prompt == "ingest" and name == "source":
        pool = sorted(p for p in vault.attachments if vault.is_raw(p))
    else:
        return [], 0
    starts = [p for p in pool if p.casefold().startswith(value)]
    inside = [p for p in pool if value in p.casefold() and not p.casefold().startswith(value)]
    found = starts + inside
    return found[:100], len(found)
