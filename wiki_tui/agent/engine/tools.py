"""Read-only tools the model may call (where it supports tool calls). Writes never happen here:
they go through the edit protocol and the person's review."""

from __future__ import annotations

import json
import posixpath
from typing import Any

MAX_TOOL_CHARS = 24_000  # one tool result; longer texts are read in parts (offset)


def _fn(name: str, description: str, properties: dict, required: list[str]) -> dict:
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": properties, "required": required}}}


TOOLS: list[dict] = [
    _fn("read_page", "Read a wiki page's full text (frontmatter included).",
        {"path": {"type": "string", "description": "vault path or page name"}}, ["path"]),
    _fn("search", "Full-text search over the wiki; returns paths, titles and snippets.",
        {"query": {"type": "string"}, "limit": {"type": "integer"}}, ["query"]),
    _fn("backlinks", "List the pages that link to a page, with the linking line.",
        {"path": {"type": "string"}}, ["path"]),
    _fn("read_source", "Read a raw source file under raw/, in parts of up to 24,000 "
        "characters (pass offset to continue).",
        {"path": {"type": "string"}, "offset": {"type": "integer"}}, ["path"]),
    _fn("list_pages", "List page paths, optionally only those under a folder.",
        {"folder": {"type": "string"}}, []),
]


def describe(name: str, args: dict) -> str:
    """One line for the person: what the model looked at."""
    if name == "search":
        return f"search {args.get('query', '')!r}"
    if name == "list_pages":
        return f"list pages {args.get('folder') or ''}".rstrip()
    target = args.get("path", "")
    if name == "read_source" and args.get("offset"):
        return f"read {target} from {args.get('offset')}"
    return f"{name.replace('_', ' ')} {target}"


def parse_arguments(raw: str) -> dict:
    try:
        value = json.loads(raw or "{}")
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def run_tool(vault: Any, name: str, args: dict) -> str:
    """The tool's result as text for the model; faults become a sentence, never an exception."""
    try:
        if name == "read_page":
            path = _page_path(vault, str(args.get("path", "")))
            return vault.read_text(path)[:MAX_TOOL_CHARS]
        if name == "search":
            limit = max(1, min(int(args.get("limit") or 10), 30))
            hits = vault.search(str(args.get("query", "")), limit=limit)
            return "\n".join(f"{h.path} — {h.title}: {h.snippet}" for h in hits) or "no hits"
        if name == "backlinks":
            path = _page_path(vault, str(args.get("path", "")))
            rows = vault.backlinks(path)
            return "\n".join(f"{b.source}:{b.line}: {b.context}" for b in rows) or "no backlinks"
        if name == "read_source":
            path = str(args.get("path", "")).strip().removeprefix("./")
            if not path.startswith("raw/"):
                path = f"raw/{path}"
            if not posixpath.normpath(path).startswith("raw/"):
                return f"read_source reads files under raw/ only, not {path!r}"
            offset = max(0, int(args.get("offset") or 0))
            text = _source_text(vault, path)
            part = text[offset:offset + MAX_TOOL_CHARS]
            more = len(text) - offset - len(part)
            return part + (f"\n[... {more} more characters; call again with offset="
                           f"{offset + len(part)}]" if more > 0 else "")
        if name == "list_pages":
            folder = str(args.get("folder") or "").strip("/")
            paths = [p for p in sorted(vault.pages) if not folder or p.startswith(folder + "/")]
            return "\n".join(paths[:2000]) or "no pages"
        return f"unknown tool {name!r}; the tools are " + ", ".join(
            t["function"]["name"] for t in TOOLS)
    except Exception as exc:  # a missing page, a path outside the vault ...
        return f"{name} failed: {exc}"


def _source_text(vault: Any, path: str) -> str:
    """A raw file as the ingest sees it: markdown as is, a PDF or a web page converted."""
    from wiki_tui.agent.convert import MARKDOWN, convert_source

    if path.lower().endswith(MARKDOWN):
        return vault.read_text(path)
    raw = (vault.root / "raw").resolve()
    if raw not in (vault.root / path).resolve().parents:  # a link in raw/ leading out of it
        raise ValueError(f"{path} is not a file inside raw/")
    return convert_source(vault.root, path).text


def _page_path(vault: Any, name: str) -> str:
    if name in vault.pages:
        return name
    page = vault.page(name)
    if page is None:
        raise LookupError(f"no page {name!r}")
    return page.path
