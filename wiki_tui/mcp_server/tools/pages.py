"""A page's structure and what the vault knows across pages: outgoing links (resolved as the
app resolves them, broken ones said), tags and the pages holding one, frontmatter properties and
the pages where one is set (or has a value)."""

from __future__ import annotations

import json
from typing import Any

from wiki_tui.mcp_server.tools.common import (ToolInputError, find_page, limit_of, page_of,
                                              text_arg)
from wiki_tui.vault import Vault
from wiki_tui.vault.indexing.cache import R_TITLE, record_cold

LIST_LIMIT = 500  # most rows one answer holds (then: next_cursor)


def _plain(value: Any) -> Any:
    """YAML values as JSON has them (dates as ISO text, sets as lists)."""
    return json.loads(json.dumps(value, default=lambda v: sorted(v, key=str)
                                 if isinstance(v, (set, frozenset)) else str(v)))


def links(vault: Vault, name: str) -> dict[str, Any]:
    """Each link on the page by line: as written, where it leads (null: nowhere, or outside
    the wiki for an external link)."""
    page = find_page(vault, name)
    rows = []
    for link, target, via_alias in vault.outgoing(page.path):
        rows.append({"raw": link.raw, "line": link.line, "kind": link.kind, "embed": link.embed,
                     "target": target, "subpath": link.subpath or None,
                     "broken": target is None and link.kind != "external",
                     "via_alias": via_alias})
    for link in page.external_links:  # http(s):, mailto: ... leave the wiki: never broken here
        rows.append({"raw": link.raw, "line": link.line, "kind": "external", "embed": link.embed,
                     "target": None, "subpath": None, "broken": False, "via_alias": False})
    rows.sort(key=lambda row: row["line"])
    return {"page": page.path, "links": rows,
            "broken": sum(1 for row in rows if row["broken"])}


def tags(vault: Vault, limit: int | None = None, cursor: str | None = None) -> dict[str, Any]:
    """Every tag with how many pages hold it, by name."""
    notes: list[str] = []
    most = limit_of(limit, LIST_LIMIT, LIST_LIMIT, notes)
    rows = [{"tag": tag, "pages": len(paths)} for tag, paths in vault.tags().items()]
    part, next_cursor = page_of(rows, cursor, most)
    return {"count": len(rows), "tags": part, "next_cursor": next_cursor, "notes": notes}


def pages_by_tag(vault: Vault, tag: str, limit: int | None = None,
                 cursor: str | None = None) -> dict[str, Any]:
    """The pages holding `tag` (case-insensitive, "#" optional; `area` also finds `area/sub`)."""
    notes: list[str] = []
    most = limit_of(limit, LIST_LIMIT, LIST_LIMIT, notes)
    wanted = text_arg(tag, "tag").strip().lstrip("#").casefold()
    found: dict[str, None] = {}
    for name, paths in vault.tags().items():
        key = name.casefold()
        if key == wanted or key.startswith(wanted + "/"):
            found.update(dict.fromkeys(paths))
    titles = {path: title for path, title, _summary, _kind in vault.pages.rows()}  # no record loaded
    rows = [{"path": p, "title": titles.get(p, p)} for p in sorted(found)]
    if not rows:
        notes.append(f"no page has the tag #{wanted} (the tags tool lists them all)")
    part, next_cursor = page_of(rows, cursor, most)
    return {"tag": wanted, "count": len(rows), "pages": part, "next_cursor": next_cursor,
            "notes": notes}


def properties(vault: Vault, name: str) -> dict[str, Any]:
    """The page's frontmatter properties, as JSON values."""
    page = find_page(vault, name)
    return {"page": page.path, "properties": _plain(dict(page.frontmatter))}


def _matches(value: Any, wanted: str | None) -> bool:
    if wanted is None:
        return True
    values = value if isinstance(value, (list, tuple, set)) else [value]
    return any(str(_plain(v)).casefold() == wanted for v in values)


def pages_by_property(vault: Vault, name: str, value: str | None = None,
                      limit: int | None = None, cursor: str | None = None) -> dict[str, Any]:
    """Pages whose frontmatter sets `name` (to `value`, or a list holding it, when given;
    compared as text, case-insensitively), with the value each has."""
    notes: list[str] = []
    most = limit_of(limit, LIST_LIMIT, LIST_LIMIT, notes)
    key = text_arg(name, "name").strip()
    if value is not None and not isinstance(value, str):
        raise ToolInputError("value must be text")
    wanted = value.strip().casefold() if value is not None else None
    rows = []
    # Only pages whose stored record holds the name's bytes are unpickled (a rare property
    # at 50k pages reads a handful), and those a batch at a time, by path.
    needle = key.encode("utf-8", "surrogatepass")
    for path, record in vault.pages.iter_records(contains=needle):
        frontmatter = record_cold(record).frontmatter
        if key in frontmatter and _matches(frontmatter[key], wanted):
            rows.append({"path": path, "title": record[R_TITLE],
                         "value": _plain(frontmatter[key])})
    part, next_cursor = page_of(rows, cursor, most)
    return {"name": key, "value": value, "count": len(rows), "pages": part,
            "next_cursor": next_cursor, "notes": notes}
