"""What every offline reply uses to write a page: the engine's note, YAML strings, file names
that are safe, new paths that collide with nothing, and frontmatter the schema accepts."""

from __future__ import annotations

import re
from typing import Any

from wiki_tui.agent.config import OFFLINE_LABEL

NOTE = f"_({OFFLINE_LABEL}.)_"
BAD_NAME = re.compile(r'[\\/#|^\[\]:*?"<>]')


def yaml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def file_name(title: str, fallback: str, limit: int = 120) -> str:
    """A page's file name (no extension) for a title: no characters links cannot carry."""
    name = BAD_NAME.sub(" ", title).strip(" .?!")
    return re.sub(r"\s+", " ", name)[:limit].strip(" .") or fallback


def new_path(vault: Any, folder: str, name: str, taken: set[str] = frozenset()) -> str:
    """`folder/name.md`, numbered when a page (or a file, or a path in `taken`) has it."""
    path = f"{folder}/{name}.md" if folder else f"{name}.md"
    n = 2
    while path in vault.pages or path in taken or (vault.root / path).exists():
        path = f"{folder}/{name} ({n}).md" if folder else f"{name} ({n}).md"
        n += 1
    return path


def frontmatter(vault: Any, fields: dict[str, str]) -> str:
    """The `---` block: the fields given (values already YAML), then any the schema requires."""
    fields = dict(fields)
    for name in vault.schema.required_fields:
        fields.setdefault(name, '""')
    return "---\n" + "\n".join(f"{k}: {v}" for k, v in fields.items()) + "\n---"
