"""What every MCP tool shares: the agent's mistake as a ToolInputError with a sentence, limits
that say when they cap, cursors for listings in parts, and finding a page by any of its names.
No MCP SDK here (server.py wires the tools to it), so the tools are quick to test."""

from __future__ import annotations

import base64
from typing import Any

from wiki_tui.vault import Vault


class ToolInputError(ValueError):
    """The agent asked for something that cannot be answered; str() says why and what to do."""


def limit_of(value: int | None, default: int, most: int, notes: list[str],
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


def text_arg(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ToolInputError(f"{name} must be a non-empty string")
    return value


def find_page(vault: Vault, name: str):
    """The page `name` means (a path, a link target as [[name]] resolves from the vault root,
    a title or an alias), else a ToolInputError naming the closest pages."""
    page = vault.page(text_arg(name, "page").strip().removeprefix("[[").removesuffix("]]"))
    if page is None:
        close = [hit.path for hit in vault.find(name, limit=5)]
        hint = f"; did you mean: {', '.join(close)}" if close else ""
        raise ToolInputError(f"no page {name!r} in the wiki{hint}")
    return page
