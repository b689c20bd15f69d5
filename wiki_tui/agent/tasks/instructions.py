"""The few instructions understood without a model: "rename X to Y" and "merge X into Y"."""

from __future__ import annotations

import re
from typing import Any

_RENAME = re.compile(r"^\s*(?:rename|move)\s+(.+?)\s+(?:to|->|as)\s+(.+?)\s*\.?\s*$", re.I)
_MERGE = re.compile(r"^\s*merge\s+(.+?)\s+into\s+(.+?)\s*\.?\s*$", re.I)


def _strip_name(text: str) -> str:
    return text.strip().strip("\"'`").removeprefix("[[").removesuffix("]]").strip()


def rename_parts(instruction: str) -> tuple[str, str] | None:
    m = _RENAME.match(instruction)
    return (_strip_name(m.group(1)), _strip_name(m.group(2))) if m else None


def merge_parts(instruction: str) -> tuple[str, str] | None:
    m = _MERGE.match(instruction)
    return (_strip_name(m.group(1)), _strip_name(m.group(2))) if m else None


def merge_request(vault: Any, instruction: str) -> tuple[str, str] | None:
    """(page merged away, page it goes into) for "merge X into Y", when both pages exist."""
    parts = merge_parts(instruction)
    if parts is None:
        return None
    src, dst = vault.page(parts[0]), vault.page(parts[1])
    return (src.path, dst.path) if src is not None and dst is not None else None
