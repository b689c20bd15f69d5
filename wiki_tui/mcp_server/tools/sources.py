"""raw/, read only: the sources an ingest reads, listed (with whether one is ingested yet) and
read as the model reads them (PDF, HTML, CSV, office files converted to markdown by
agent/convert, under its limits), a part at a time. Nothing here writes."""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from wiki_tui.mcp_server.tools.common import (ToolInputError, limit_of, page_of, text_arg)
from wiki_tui.vault import Vault
from wiki_tui.vault.layout import RAW_DIR

LIST_LIMIT = 500
PART_CHARS = 50_000  # the most text one read_source answer holds (then: next_offset)


def list_sources(vault: Vault, folder: str | None = None, limit: int | None = None,
                 cursor: str | None = None) -> dict[str, Any]:
    """Files under raw/ (or one folder of it), by path, with `ingested` as ingest --new counts it."""
    from wiki_tui.agent.context.sources import ingested

    notes: list[str] = []
    most = limit_of(limit, LIST_LIMIT, LIST_LIMIT, notes)
    prefix = RAW_DIR + "/"
    if folder:
        inner = folder.strip().strip("/").removeprefix(RAW_DIR).strip("/")
        prefix += inner + "/" if inner else ""
    done = ingested(vault)
    paths = sorted(p for p in vault.attachments if p.startswith(prefix))
    rows = [{"path": p, "kind": PurePosixPath(p).suffix.lower().lstrip(".") or "file",
             "ingested": p in done} for p in paths]
    part, next_cursor = page_of(rows, cursor, most)
    return {"count": len(rows), "sources": part, "next_cursor": next_cursor, "notes": notes}


def read_source(vault: Vault, path: str, offset: int | None = None) -> dict[str, Any]:
    """A raw file as markdown, PART_CHARS characters from `offset` (0: the start)."""
    from wiki_tui.agent.convert import ConversionError, convert_source

    rel = text_arg(path, "path").strip().removeprefix("[[").removesuffix("]]")
    if not rel.startswith(RAW_DIR + "/"):
        rel = f"{RAW_DIR}/{rel.lstrip('/')}"
    if not vault.is_raw(rel) or rel not in vault.attachments:
        raise ToolInputError(f"no source {path!r} under raw/ (list_sources lists them)")
    start = offset or 0
    if isinstance(start, bool) or not isinstance(start, int) or start < 0:
        raise ToolInputError(f"offset must be a whole number of at least 0 (got {offset!r})")
    try:
        converted = convert_source(vault.root, rel)
    except ConversionError as exc:
        raise ToolInputError(str(exc)) from None
    text = converted.text
    end = min(len(text), start + PART_CHARS)
    return {"path": rel, "kind": converted.kind, "chars": len(text), "offset": start,
            "text": text[start:end], "next_offset": end if end < len(text) else None}
