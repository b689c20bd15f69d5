"""What each MCP tool answers, as pydantic models: the SDK publishes them as the tools' output
schemas (every field described, so a client's validation checks something) and validates each
answer against them. The tool bodies (tools.py) still return plain dicts."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

NOTES = Field(default_factory=list, description=(
    "Plain-language notes about the answer, e.g. a limit larger than the most this tool gives "
    "(said here, never capped silently)"))
NEXT = Field(None, description="Pass as `cursor` to get the next part; null when this is the last")


class Hit(BaseModel):
    path: str = Field(description="The page's path in the vault")
    title: str = Field(description="The page's title")
    line: int = Field(description="1-based line of the snippet (0: no single line matched)")
    snippet: str = Field(description="One line of the page around the best match")


class SearchOut(BaseModel):
    query: str = Field(description="The query as searched (repeated words once)")
    hits: list[Hit] = Field(description="Best first")
    limit: int = Field(description="The most hits this answer could hold")
    notes: list[str] = NOTES


class Section(BaseModel):
    heading: str = Field(description="The heading as written")
    start_line: int = Field(description="1-based line of the heading")
    end_line: int = Field(description="1-based last line of the section")


class PageOut(BaseModel):
    path: str = Field(description="The page's path in the vault")
    title: str = Field(description="Frontmatter title, else the file name")
    type: str | None = Field(description="Frontmatter `type` (concept, entity, source...)")
    aliases: list[str] = Field(description="Other names the page answers to")
    text: str = Field(description="The whole file, frontmatter included (EDIT blocks quote it "
                                  "exactly); for `page#heading`, that section only")
    section: Section | None = Field(None, description="The section read, for `page#heading`")
    headings: list[str] = Field(default_factory=list, description=(
        "The page's headings, for reading one section with `page#heading`"))


class LinkedOut(BaseModel):
    source: str = Field(description="The page holding the link")
    line: int = Field(description="1-based line of the link")
    context: str = Field(description="The line's text")
    raw: str = Field(description="The link as written")
    via_alias: bool = Field(description="The link names a title or alias, not the file")


class MentionOut(BaseModel):
    source: str = Field(description="The page mentioning the name")
    line: int = Field(description="1-based line")
    context: str = Field(description="The line's text")
    text: str = Field(description="The name or alias as it appears")


class BacklinksOut(BaseModel):
    page: str = Field(description="The page asked about")
    linked: list[LinkedOut] = Field(description="Links to it from other pages")
    unlinked: list[MentionOut] = Field(description="Its name in other pages, not linked yet")


class PageRow(BaseModel):
    path: str = Field(description="The page's path")
    title: str = Field(description="Its title")
    type: str | None = Field(description="Frontmatter `type`")
    summary: str | None = Field(description="Its one-line summary")


class ListOut(BaseModel):
    count: int = Field(description="How many pages match, in all")
    truncated: bool = Field(description="True when more match than are listed here")
    pages: list[PageRow] = Field(description="Sorted by path")
    next_cursor: str | None = NEXT
    notes: list[str] = NOTES


class FindingOut(BaseModel):
    code: str = Field(description="What kind of finding (broken-link, orphan...)")
    path: str = Field(description="The page it is about")
    line: int = Field(description="1-based line (0: the whole page)")
    message: str = Field(description="What is wrong")
    suggestion: str | None = Field(description="A fix, when there is one")
    severity: str = Field(description="error, warning or info")


class LintOut(BaseModel):
    counts: dict[str, int] = Field(description="Findings by severity")
    findings: list[FindingOut] = Field(description="Every finding")


class LogEntry(BaseModel):
    date: str = Field(description="YYYY-MM-DD")
    operation: str = Field(description="ingest, query, lint, apply...")
    title: str = Field(description="The entry's title")
    lines: list[str] = Field(description="What it did (created, updated, deleted pages)")


class LogOut(BaseModel):
    entries: list[LogEntry] = Field(description="Newest first")
    notes: list[str] = NOTES


class FileOut(BaseModel):
    path: str = Field(description="The file the change is about")
    kind: str = Field(description="create, edit, delete or rename")
    old_path: str | None = Field(description="For a rename, where it was")
    diff: str = Field(description="Unified diff of the file as it would be written")
    repairs: list[str] = Field(description="What was read as meant, and how")
    warnings: list[str] = Field(description="What the person is warned about")
    hold: str | None = Field(description="Why this file is not applied by --yes alone")


class ProposalOut(BaseModel):
    stored: bool = Field(description="True when kept as a pending review")
    refused: bool = Field(description="True when the reply was refused (see errors): kept "
                                      "nowhere; correct it and propose again")
    pending_id: str | None = Field(description="The pending review's name, when stored")
    message: str = Field(description="What happened, in one sentence")
    operation: str | None = Field(description="The changeset's operation")
    title: str | None = Field(description="Its title")
    files: list[FileOut] = Field(description="Each file's change")
    repairs: list[str] = Field(description="Repairs made to the reply as a whole")
    findings: list[str] = Field(description="The changeset's own lint (e.g. broken links)")
    errors: list[str] = Field(description="Refusals: each names the file and the reason")
    notes: list[str] = Field(description="Told, not blocking")



class LinkOut(BaseModel):
    raw: str = Field(description="The link as written")
    line: int = Field(description="1-based line")
    kind: str = Field(description="wiki, markdown, frontmatter or external")
    embed: bool = Field(description="An embed (![[...]])")
    target: str | None = Field(description="The vault path it leads to; null when it leads "
                                           "nowhere (or outside, for external links)")
    subpath: str | None = Field(description="#Heading or #^block, when the link names one")
    broken: bool = Field(description="A link inside the wiki that leads nowhere")
    via_alias: bool = Field(description="Found through a title or alias, not the file name")


class LinksOut(BaseModel):
    page: str = Field(description="The page asked about")
    links: list[LinkOut] = Field(description="Its links in file order")
    broken: int = Field(description="How many lead nowhere")


class TagCount(BaseModel):
    tag: str = Field(description="The tag, without #")
    pages: int = Field(description="How many pages hold it")


class TagsOut(BaseModel):
    count: int = Field(description="How many tags in all")
    tags: list[TagCount] = Field(description="By name")
    next_cursor: str | None = NEXT
    notes: list[str] = NOTES


class TaggedPage(BaseModel):
    path: str = Field(description="The page's path")
    title: str = Field(description="Its title")


class TaggedOut(BaseModel):
    tag: str = Field(description="The tag looked for (lower case, without #)")
    count: int = Field(description="How many pages hold it (or a tag under it)")
    pages: list[TaggedPage] = Field(description="By path")
    next_cursor: str | None = NEXT
    notes: list[str] = NOTES


class PropertiesOut(BaseModel):
    page: str = Field(description="The page asked about")
    properties: dict[str, Any] = Field(description="Its frontmatter, as JSON values")


class PropertyPage(BaseModel):
    path: str = Field(description="The page's path")
    title: str = Field(description="Its title")
    value: Any = Field(description="The property's value on that page")


class PropertyOut(BaseModel):
    name: str = Field(description="The property looked for")
    value: str | None = Field(description="The value looked for (null: any)")
    count: int = Field(description="How many pages match")
    pages: list[PropertyPage] = Field(description="By path")
    next_cursor: str | None = NEXT
    notes: list[str] = NOTES


class ChangedFile(BaseModel):
    path: str = Field(description="The file")
    change: str = Field(description="created, modified, deleted, renamed")


class Commit(BaseModel):
    commit: str = Field(description="The commit's short hash")
    date: str = Field(description="ISO 8601")
    author: str = Field(description="Who committed")
    subject: str = Field(description="The commit's first line")
    files: list[ChangedFile] = Field(description="The files it changed (at most 50)")
    more_files: int = Field(description="How many more it changed")


class ChangesOut(BaseModel):
    page: str | None = Field(description="The page asked about (null: the whole wiki)")
    commits: list[Commit] = Field(description="git commits, newest first")
    log: list[LogEntry] = Field(description="log.md entries (naming the page), newest first")
    notes: list[str] = NOTES


class ProposalRow(BaseModel):
    pending_id: str = Field(description="Its name, for withdraw_proposal")
    created: str = Field(description="When it was proposed (ISO 8601, UTC)")
    title: str = Field(description="Its title")
    files: list[str] = Field(description="The files it changes")


class ProposalsOut(BaseModel):
    agent: str = Field(description="The agent they belong to (the client's name and version)")
    proposals: list[ProposalRow] = Field(description="Still waiting for review, oldest first")


class WithdrawnOut(BaseModel):
    withdrawn: str = Field(description="The proposal taken back")
    title: str = Field(description="Its title")


class SourceRow(BaseModel):
    path: str = Field(description="Its path (under raw/)")
    kind: str = Field(description="Its file type (md, pdf, html...)")
    ingested: bool = Field(description="A page or log.md names it as ingested already")


class SourcesOut(BaseModel):
    count: int = Field(description="How many files in all")
    sources: list[SourceRow] = Field(description="By path")
    next_cursor: str | None = NEXT
    notes: list[str] = NOTES


class SourceOut(BaseModel):
    path: str = Field(description="Its path (under raw/)")
    kind: str = Field(description="What it was converted from (markdown, pdf, html...)")
    chars: int = Field(description="The length of its whole text")
    offset: int = Field(description="Where this part starts")
    text: str = Field(description="This part of its text, as markdown")
    next_offset: int | None = Field(description="Pass as `offset` for the next part; null at "
                                                "the end")
