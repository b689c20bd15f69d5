"""What the MCP tools do, as plain functions over an open Vault: JSON-ready dicts in, a
ToolInputError with a sentence for the calling agent out. No MCP SDK here (server.py wires
these to it), so they are quick to test and the same rules hold as in the CLI and the app.
"""

from __future__ import annotations

import base64
import re
from typing import Any

from wiki_tui.changes.logmd import LOG_PATH, parse_log
from wiki_tui.vault import Vault, VaultError
from wiki_tui.vault.cache import R, R_TITLE, R_TYPE

SEARCH_LIMIT = 100  # most hits one search returns
LIST_LIMIT = 2000  # most pages one listing returns (a 10k vault: filter by type or folder)
LOG_LIMIT = 100
# Bounded work per call: a query is cut into words and each word costs a pass over the index, so
# a 1 MB query of one repeated word once kept the search busy for minutes (and every later
# search waited behind it). Repeated words count once (the search de-duplicates them too).
QUERY_MAX_CHARS = 1000
QUERY_MAX_TERMS = 32
_WORD = re.compile(r"[^\W_]+")


class ToolInputError(ValueError):
    """The agent asked for something that cannot be answered; str() says why and what to do."""


def _limit(value: int | None, default: int, most: int, notes: list[str],
           name: str = "limit") -> int:
    """The number of items to give; a value above `most` is given `most`, said in `notes`."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ToolInputError(f"{name} must be a whole number of at least 1 (got {value!r})")
    if value > most:
        notes.append(f"{name} {value} is more than this tool gives: at most {most} are given")
        return most
    return value


def _cursor_start(cursor: str | None) -> int:
    """Where a listing resumes: the offset inside a cursor this server gave."""
    if cursor is None or cursor == "":
        return 0
    try:
        kind, _, offset = base64.urlsafe_b64decode(cursor.encode("ascii")).decode("ascii").partition(":")
        if kind == "at" and offset.isdigit():
            return int(offset)
    except (ValueError, UnicodeError):
        pass
    raise ToolInputError("cursor is not one this server gave: pass the next_cursor of the "
                         "previous answer, or leave it out to start from the beginning")


def _next_cursor(start: int, given: int, total: int) -> str | None:
    end = start + given
    return base64.urlsafe_b64encode(f"at:{end}".encode()).decode("ascii") if end < total else None


def page_of(rows: list[Any], cursor: str | None, most: int) -> tuple[list[Any], str | None]:
    """One part of a listing, and the cursor for the next part (None: this is the last)."""
    start = _cursor_start(cursor)
    part = rows[start:start + most]
    return part, _next_cursor(start, len(part), len(rows))


def bounded_query(query: Any) -> str:
    """The query, if it is one search can answer quickly; else a ToolInputError saying why."""
    text = _text(query, "query")
    if len(text) > QUERY_MAX_CHARS:
        raise ToolInputError(f"the query is {len(text):,} characters; search takes at most "
                             f"{QUERY_MAX_CHARS:,}: keep the words that matter")
    distinct = {word.casefold() for word in _WORD.findall(text)}
    if len(distinct) > QUERY_MAX_TERMS:
        raise ToolInputError(f"the query has {len(distinct)} different words; search takes at "
                             f"most {QUERY_MAX_TERMS}: keep the words that matter")
    return text


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ToolInputError(f"{name} must be a non-empty string")
    return value


def find_page(vault: Vault, name: str):
    """The page `name` means (a path, a link target as [[name]] resolves from the vault root,
    a title or an alias), else a ToolInputError naming the closest pages."""
    page = vault.page(_text(name, "page").strip().removeprefix("[[").removesuffix("]]"))
    if page is None:
        close = [hit.path for hit in vault.find(name, limit=5)]
        hint = f"; did you mean: {', '.join(close)}" if close else ""
        raise ToolInputError(f"no page {name!r} in the wiki{hint}")
    return page


def search(vault: Vault, query: str, limit: int | None = None) -> dict[str, Any]:
    """Full-text hits, best first: path, title, 1-based line and a one-line snippet."""
    notes: list[str] = []
    text = bounded_query(query)
    most = _limit(limit, 20, SEARCH_LIMIT, notes)
    hits = vault.search(text, limit=most)
    return {"query": text, "limit": most, "notes": notes, "hits": [
        {"path": h.path, "title": h.title, "line": h.line, "snippet": h.snippet} for h in hits]}


def read_page(vault: Vault, name: str) -> dict[str, Any]:
    """A page's whole text (frontmatter included: EDIT blocks must quote it exactly)."""
    page = find_page(vault, name)
    try:
        text = vault.read_text(page.path)
    except VaultError as exc:
        raise ToolInputError(str(exc)) from None
    return {"path": page.path, "title": page.title, "type": page.type,
            "aliases": list(page.aliases), "text": text}


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
    most = _limit(limit, LIST_LIMIT, LIST_LIMIT, notes)
    prefix = folder.strip().strip("/") + "/" if folder and folder.strip("/ ") else ""
    summary_at = R["summary"]
    rows = [{"path": path, "title": rec[R_TITLE], "type": rec[R_TYPE], "summary": rec[summary_at]}
            for path, rec in sorted(vault.pages.records().items())
            if path.startswith(prefix) and (type is None or rec[R_TYPE] == type)]
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
    count = _limit(limit, 10, LOG_LIMIT, notes)
    try:
        text = vault.read_text(LOG_PATH)
    except VaultError:
        return {"entries": [], "notes": notes}  # a vault without a log yet
    entries = parse_log(text)[-count:][::-1]
    return {"notes": notes, "entries": [{"date": e.date, "operation": e.operation,
                                         "title": e.title, "lines": e.lines} for e in entries]}


def propose_changes(vault: Vault, reply: str, title: str | None, agent: str) -> dict[str, Any]:
    """Build the reply into a changeset (as `apply --dry-run`), keep it as a pending review."""
    from wiki_tui.changes.propose import propose  # with git: not on the start-up path

    if title is not None and not isinstance(title, str):
        raise ToolInputError("title must be a string")
    answer = propose(vault, _text(reply, "reply"), title=(title or "").strip() or None,
                     agent=agent).to_dict()
    # Kept nowhere because of what the reply holds (refusals, or no edit blocks at all): an
    # error for the client, with the same answer. (Edits already in the vault are no refusal.)
    answer["refused"] = not answer["stored"] and bool(answer["errors"] or answer["operation"] is None)
    return answer
