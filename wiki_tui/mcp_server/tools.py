"""What the MCP tools do, as plain functions over an open Vault: JSON-ready dicts in, a
ToolInputError with a sentence for the calling agent out. No MCP SDK here (server.py wires
these to it), so they are quick to test and the same rules hold as in the CLI and the app.
"""

from __future__ import annotations

from typing import Any

from wiki_tui.changes.apply.logmd import LOG_PATH, parse_log
from wiki_tui.vault import Vault, VaultError
from wiki_tui.vault.cache import R, R_TITLE, R_TYPE

SEARCH_LIMIT = 100  # most hits one search returns
LIST_LIMIT = 2000  # most pages one listing returns (a 10k vault: filter by type or folder)
LOG_LIMIT = 100


class ToolInputError(ValueError):
    """The agent asked for something that cannot be answered; str() says why and what to do."""


def _limit(value: int | None, default: int, most: int, name: str = "limit") -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ToolInputError(f"{name} must be a whole number of at least 1 (got {value!r})")
    return min(value, most)


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
    hits = vault.search(_text(query, "query"), limit=_limit(limit, 20, SEARCH_LIMIT))
    return {"query": query, "hits": [
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
               limit: int | None = None) -> dict[str, Any]:
    """Pages with title, type and summary, by path; only those of `type` and under `folder`
    when given."""
    most = _limit(limit, LIST_LIMIT, LIST_LIMIT)
    prefix = folder.strip().strip("/") + "/" if folder and folder.strip("/ ") else ""
    summary_at = R["summary"]
    rows = [{"path": path, "title": rec[R_TITLE], "type": rec[R_TYPE], "summary": rec[summary_at]}
            for path, rec in sorted(vault.pages.records().items())
            if path.startswith(prefix) and (type is None or rec[R_TYPE] == type)]
    return {"count": len(rows), "truncated": len(rows) > most, "pages": rows[:most]}


def lint(vault: Vault) -> dict[str, Any]:
    """Structural findings (broken links, orphans, frontmatter the schema wants, index.md)."""
    findings = vault.lint()
    counts: dict[str, int] = {}
    for finding in findings:
        counts[finding.severity] = counts.get(finding.severity, 0) + 1
    return {"counts": counts, "findings": [f.to_dict() for f in findings]}


def recent_log(vault: Vault, limit: int | None = None) -> dict[str, Any]:
    """The newest log.md entries first: date, operation, title and what each touched."""
    count = _limit(limit, 10, LOG_LIMIT)
    try:
        text = vault.read_text(LOG_PATH)
    except VaultError:
        return {"entries": []}  # a vault without a log yet
    entries = parse_log(text)[-count:][::-1]
    return {"entries": [{"date": e.date, "operation": e.operation, "title": e.title,
                         "lines": e.lines} for e in entries]}


def propose_changes(vault: Vault, reply: str, title: str | None, agent: str) -> dict[str, Any]:
    """Build the reply into a changeset (as `apply --dry-run`), keep it as a pending review."""
    from wiki_tui.changes.apply.propose import propose  # with git: not on the start-up path

    if title is not None and not isinstance(title, str):
        raise ToolInputError("title must be a string")
    return propose(vault, _text(reply, "reply"), title=(title or "").strip() or None,
                   agent=agent).to_dict()
