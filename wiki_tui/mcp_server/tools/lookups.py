"""The lookups: search, read a page (or one section of it), backlinks, list pages, lint, the
log. The same rules as in the CLI and the app (the vault's search, link rules and lint); every
answer a JSON-ready dict, every refusal a ToolInputError with a sentence for the agent.
"""

from __future__ import annotations

import re
from typing import Any

from wiki_tui.changes.apply.logmd import LOG_PATH, parse_log
from wiki_tui.mcp_server.tools.common import (ToolInputError, find_page, limit_of, page_of,
                                              text_arg)
from wiki_tui.vault import Vault, VaultError
from wiki_tui.vault.parse.sections import section_span

SEARCH_LIMIT = 100  # most hits one search returns
LIST_LIMIT = 2000  # most pages one listing returns (a 10k vault: filter by type or folder)
LOG_LIMIT = 100
# Bounded work per call: a query is cut into words and each word costs a pass over the index, so
# a 1 MB query of one repeated word once kept the search busy for minutes (and every later
# search waited behind it). Repeated words count once (the search de-duplicates them too).
QUERY_MAX_CHARS = 1000
QUERY_MAX_TERMS = 32
_WORD = re.compile(r"[^\W_]+")


def bounded_query(query: Any) -> str:
    """The query, if it is one search can answer quickly; else a ToolInputError saying why."""
    text = text_arg(query, "query")
    if len(text) > QUERY_MAX_CHARS:
        raise ToolInputError(f"the query is {len(text):,} characters; search takes at most "
                             f"{QUERY_MAX_CHARS:,}: keep the words that matter")
    distinct = {word.casefold() for word in _WORD.findall(text)}
    if len(distinct) > QUERY_MAX_TERMS:
        raise ToolInputError(f"the query has {len(distinct)} different words; search takes at "
                             f"most {QUERY_MAX_TERMS}: keep the words that matter")
    return text


def search(vault: Vault, query: str, limit: int | None = None) -> dict[str, Any]:
    """Full-text hits, best first: path, title, 1-based line and a one-line snippet."""
    notes: list[str] = []
    text = bounded_query(query)
    most = limit_of(limit, 20, SEARCH_LIMIT, notes)
    hits = vault.search(text, limit=most)
    return {"query": text, "limit": most, "notes": notes, "hits": [
        {"path": h.path, "title": h.title, "line": h.line, "snippet": h.snippet} for h in hits]}


def read_page(vault: Vault, name: str) -> dict[str, Any]:
    """A page's whole text (frontmatter included: EDIT blocks must quote it exactly), or for
    `page#heading` (`page#^block`) that part only, with its lines."""
    name = text_arg(name, "page").strip().removeprefix("[[").removesuffix("]]")
    subpath = ""
    if "#" in name and vault.page(name) is None:
        name, hash_, rest = name.partition("#")
        subpath = hash_ + rest
    page = find_page(vault, name or "#")
    try:
        text = vault.read_text(page.path)
    except VaultError as exc:
        raise ToolInputError(str(exc)) from None
    headings = [h.text for h in page.headings]
    answer = {"path": page.path, "title": page.title, "type": page.type,
              "aliases": list(page.aliases), "text": text, "section": None,
              "headings": headings}
    if subpath.strip("#"):
        span = section_span(text, page.body_start, subpath)
        if span is None:
            listed = ", ".join(headings[:30]) or "none"
            raise ToolInputError(f"{page.path} has no section {subpath!r}; its headings: {listed}")
        start, end = span
        part = text[start:end]
        first = text.count("\n", 0, start) + 1
        answer["text"] = part
        answer["section"] = {"heading": part.split("\n", 1)[0].lstrip("#").strip(),
                             "start_line": first,
                             "end_line": first + part.count("\n") - part.endswith("\n")}
    return answer


def backlinks(vault: Vault, name: str) -> dict[str, Any]:
    """Links to the page from other pages, then plain-text mentions not yet linked."""
    page = find_page(vault, name)
    return {
        "page": page.path,
        "linked": [b.to_dict() for b in vault.backlinks(page.path)],
        "unlinked": [m.to_dict() for m in vault.unlinked_mentions(page.path, limit=200)],
    }


def list_pages(vault: Vault, type: str | None = None, folder: str | None = None,
               limit: int | None = None, cursor: str | None = None) -> dict[str, Any]:
    """Pages with title, type and summary, by path; only those of `type` and under `folder`
    when given; `limit` at a time, the next part from `cursor`."""
    notes: list[str] = []
    most = limit_of(limit, LIST_LIMIT, LIST_LIMIT, notes)
    prefix = folder.strip().strip("/") + "/" if folder and folder.strip("/ ") else ""
    # The store's own columns, by path: no page record is loaded (50k of them take a second).
    rows = [{"path": path, "title": title, "type": kind, "summary": summary}
            for path, title, summary, kind in vault.pages.rows()
            if path.startswith(prefix) and (type is None or kind == type)]
    part, next_cursor = page_of(rows, cursor, most)
    return {"count": len(rows), "truncated": next_cursor is not None, "pages": part,
            "next_cursor": next_cursor, "notes": notes}


def lint(vault: Vault) -> dict[str, Any]:
    """Structural findings (broken links, orphans, frontmatter the schema wants, index.md)."""
    findings = vault.lint()
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.severity] = counts.get(finding.severity, 0) + 1
    return {"counts": counts, "findings": [f.to_dict() for f in findings]}


def recent_log(vault: Vault, limit: int | None = None) -> dict[str, Any]:
    """The newest log.md entries first: date, operation, title and what each touched."""
    notes: list[str] = []
    count = limit_of(limit, 10, LOG_LIMIT, notes)
    try:
        text = vault.read_text(LOG_PATH)
    except VaultError:
        return {"entries": [], "notes": notes}  # a vault without a log yet
    entries = parse_log(text)[-count:][::-1]
    return {"notes": notes, "entries": [{"date": e.date, "operation": e.operation,
                                         "title": e.title, "lines": e.lines} for e in entries]}
