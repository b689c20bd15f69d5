"""The vault's schema: AGENTS.md frontmatter for the program, its prose for the model.

It is also the one place that says where the vault's generated catalog lives: `catalog:` in
AGENTS.md's frontmatter (default `index.md`). A vault whose own index.md is a person's home page
sets `catalog: wiki-index.md` (`wiki-tui init` does), and index.md is then an ordinary page.
Everything that treats a file as THE catalog asks `Schema.catalog` or `catalog_path(root)`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from wiki_tui.vault.parse.frontmatter import split_frontmatter, yaml_load

SCHEMA_FILE = "AGENTS.md"
DEFAULT_CATALOG = "index.md"
LOG_FILE = "log.md"

DEFAULT_TYPES = {
    "source": "sources",
    "entity": "entities",
    "concept": "concepts",
    "synthesis": "syntheses",
    "answer": "answers",
}


@dataclass
class Schema:
    """What AGENTS.md declares. Nothing declared, nothing checked: a vault without AGENTS.md
    (an Obsidian vault opened as it is) requires no field and checks no type; `types` still
    gives the folders where the model files new pages."""

    required_fields: list[str] = field(default_factory=list)
    types: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_TYPES))  # type -> folder
    text: str = ""  # the whole AGENTS.md
    warnings: list[str] = field(default_factory=list)
    found: bool = False  # False when the vault has no AGENTS.md (defaults apply)
    types_declared: bool = False  # AGENTS.md names the types: pages are checked against them
    catalog: str = DEFAULT_CATALOG  # the generated catalog's path (`catalog:` in the frontmatter)

    def folder_for(self, page_type: str | None) -> str | None:
        return self.types.get(page_type) if page_type else None


def parse_schema(text: str) -> Schema:
    """Read the schema from AGENTS.md; anything malformed falls back to defaults with a warning.
    An AGENTS.md of prose only (one written for other agents, say) declares nothing."""
    schema = Schema(text=text, found=True)
    yaml_text = split_frontmatter(text)[0]
    if yaml_text is None:
        return schema
    try:
        data = yaml_load(yaml_text) or {}
    except (yaml.YAMLError, ValueError) as exc:
        schema.warnings.append(f"AGENTS.md frontmatter is not valid YAML ({_first_line(exc)}); using defaults")
        return schema
    if not isinstance(data, dict):
        schema.warnings.append("AGENTS.md frontmatter is not a mapping; using the default schema")
        return schema
    required = data.get("required_fields")
    if isinstance(required, str):
        required = [required]
    if isinstance(required, list):
        schema.required_fields = [str(f) for f in required if f is not None]
    elif required is not None:
        schema.warnings.append("AGENTS.md: required_fields should be a list")
    types = data.get("types")
    if isinstance(types, dict):
        # a type with no folder (`note:`) is known and may sit in any folder
        schema.types = {str(k): "" if v is None else str(v).strip("/") for k, v in types.items() if k is not None}
        schema.types_declared = True
    elif isinstance(types, list):  # tolerate a bare list: folder = type name + "s"
        schema.types = {str(t): f"{t}s" for t in types if t is not None}
        schema.types_declared = True
    elif types is not None:
        schema.warnings.append("AGENTS.md: types should map a page type to its folder")
    if "catalog" in data:
        catalog, problem = _catalog_setting(data.get("catalog"))
        if problem:
            schema.warnings.append(f"AGENTS.md: catalog {problem}; using {DEFAULT_CATALOG}")
        else:
            schema.catalog = catalog
    return schema


def _catalog_setting(value: object) -> tuple[str, str | None]:
    """(the catalog path, or a reason it cannot be one). A markdown file of the vault that is no
    other bookkeeping file: not AGENTS.md or log.md, not in raw/ or a hidden folder."""
    if not isinstance(value, str) or not value.strip():
        return DEFAULT_CATALOG, "should be the path of a markdown file, like wiki-index.md"
    path = value.strip().replace("\\", "/")
    parts = path.split("/")
    if path.startswith("/") or any(p in ("", ".", "..") or p.startswith(".") for p in parts):
        return DEFAULT_CATALOG, f"{path!r} is not a plain path inside the vault"
    if not path.lower().endswith(".md") or parts[0] == "raw" or path in (SCHEMA_FILE, LOG_FILE):
        return DEFAULT_CATALOG, f"{path!r} cannot be the catalog (a .md page outside raw/, not AGENTS.md or log.md)"
    return path, None


def catalog_path(root: Path | str) -> str:
    """Where the vault at `root` keeps its generated catalog: `catalog:` in AGENTS.md's
    frontmatter, else index.md (also when AGENTS.md is missing or unreadable). Asked once per
    file of a changeset: AGENTS.md is parsed again only when its stamp changes."""
    path = os.path.join(root, SCHEMA_FILE)
    try:
        st = os.stat(path)
        key = (path, st.st_mtime_ns, st.st_size, st.st_ino)
        if key in _catalogs:
            return _catalogs[key]
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return DEFAULT_CATALOG
    if len(_catalogs) > 64:
        _catalogs.clear()
    _catalogs[key] = catalog = parse_schema(text).catalog
    return catalog


_catalogs: dict[tuple, str] = {}  # (AGENTS.md path, mtime_ns, size, inode) -> catalog


def with_catalog_setting(text: str, catalog: str) -> str:
    """AGENTS.md `text` with `catalog: <catalog>` added to its frontmatter (made when it has
    none); the rest of the file byte for byte. For a schema that does not set `catalog:` yet."""
    newline = "\r\n" if "\r\n" in text.split("\n", 1)[0] + "\n" else "\n"
    line = f"catalog: {catalog}{newline}"
    if split_frontmatter(text)[0] is not None:
        first_end = text.index("\n") + 1
        return text[:first_end] + line + text[first_end:]
    return f"---{newline}{line}---{newline}" + text


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
