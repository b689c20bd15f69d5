"""Pages as plain records: what the index stores for each page (store.py keeps them on disk).

Why records: unpickling 10k `Page` objects with their frozen `Link`s calls Python code per
object (~1 s); the same data as plain tuples loads in C in a fraction of that. `PageMap`
(store.py) keeps records and builds a `Page` only when someone asks for it.

A record keeps the fields the index, the finder and index.md read all the time as plain values
(strings interned: a vault repeats the same targets, keys and tags across pages). The rest is
packed into two byte strings per page: the link rows (read when a page's links are re-resolved,
linted or shown as backlinks) and the "cold" fields (frontmatter, headings, block ids, warnings,
external links). Tens of small objects per link cost ~390 bytes of memory each; packed, ~100:
on a 10k-page vault the index went from 73 MB to about 35 MB, and the cache loads faster.

`VERSION` names the record's shape; the store's schema version changes with it.
"""

from __future__ import annotations

import io
import pickle
import sys
from dataclasses import fields
from operator import attrgetter
from pathlib import Path
from typing import Any, NamedTuple

from wiki_tui.vault.parse.links import Heading, Link
from wiki_tui.vault.parse.page import Page

CACHE_FORMAT = 6  # bump whenever records change shape (and store.STORE_VERSION with it)

_PAGE_FIELDS = tuple(f.name for f in fields(Page))
_LINK_FIELDS = tuple(f.name for f in fields(Link))
_HEADING_FIELDS = tuple(f.name for f in fields(Heading))
_link_values = attrgetter(*_LINK_FIELDS)
_heading_values = attrgetter(*_HEADING_FIELDS)

_COLD_FIELDS = ("frontmatter", "headings", "block_ids", "warnings", "external_links")
_HOT_FIELDS = tuple(f for f in _PAGE_FIELDS if f not in _COLD_FIELDS and f != "links")
RECORD_FIELDS = (*_HOT_FIELDS, "links", "cold")
_hot_values = attrgetter(*_HOT_FIELDS)
_cold_values = attrgetter(*_COLD_FIELDS)
# Record slots read directly (the packed ones through record_links/record_cold).
R = {name: i for i, name in enumerate(RECORD_FIELDS)}
R_TITLE, R_NAME, R_ALIASES, R_TAGS = R["title"], R["name"], R["aliases"], R["tags"]
R_TYPE, R_BODY_START = R["type"], R["body_start"]
_R_LINKS, _R_COLD = R["links"], R["cold"]
L = {name: i for i, name in enumerate(_LINK_FIELDS)}
L_TARGET, L_SUBPATH, L_LINE, L_START, L_END, L_KIND, L_RAW = (
    L["target"], L["subpath"], L["line"], L["start"], L["end"], L["kind"], L["raw"],
)
VERSION = (CACHE_FORMAT, RECORD_FIELDS, _PAGE_FIELDS, _LINK_FIELDS, _HEADING_FIELDS)

Record = tuple


class Cold(NamedTuple):
    """A record's packed fields, unpacked (headings and links as plain rows)."""

    frontmatter: dict
    headings: list[tuple]
    block_ids: list[str]
    warnings: list[str]
    external_links: list[tuple]


def link_rows(page: Page) -> list[tuple]:
    """A page's links as the plain rows the index reads (Link field order)."""
    return [_link_values(x) for x in page.links]


def page_to_record(page: Page, rows: list[tuple] | None = None) -> Record:
    """`rows`: the page's `link_rows`, when the caller has them already."""
    hot = [sys.intern(v) if type(v) is str else _interned_list(v) for v in _hot_values(page)]
    links = _pack(link_rows(page) if rows is None else rows)
    fm, headings, block_ids, warnings, external = _cold_values(page)
    cold = _pack((fm, [_heading_values(h) for h in headings], block_ids, warnings,
                  [_link_values(x) for x in external]))
    return (*hot, links, cold)


def _interned_list(value: Any) -> Any:
    if type(value) is list:  # aliases, tags, sources
        return [sys.intern(v) if type(v) is str else v for v in value]
    return value


def _pack(value: Any) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL) if value else b""


def _unpack(blob: bytes, empty: Any) -> Any:
    # The safe unpickler: a blob comes from the cache file, which may not be ours.
    return SafeUnpickler(io.BytesIO(blob)).load() if blob else empty


def record_links(record: Record) -> list[tuple]:
    """A record's link rows (tuples in Link field order, frontmatter links first)."""
    return _unpack(record[_R_LINKS], [])


def record_cold(record: Record) -> Cold:
    return Cold(*_unpack(record[_R_COLD], ({}, [], [], [], [])))


def record_to_page(record: Record, *, links: bool = True) -> Page:
    """The page a record holds; with `links` False its links are left out (index.md at 50k
    pages holds 50k of them: megabytes of objects a page header never looks at)."""
    values = dict(zip(_HOT_FIELDS, record))
    fm, headings, block_ids, warnings, external = record_cold(record)
    return Page(
        **values,
        links=[Link(*row) for row in record_links(record)] if links else [],
        frontmatter=fm,
        headings=[Heading(*row) for row in headings],
        block_ids=block_ids,
        warnings=warnings,
        external_links=[Link(*row) for row in external],
    )


class SafeUnpickler(pickle.Unpickler):
    """Plain data only. A vault may come from someone else (a cloned repository that committed
    its .wiki-tui/): a crafted pickle must not run code, so no class outside this list loads.
    Records are tuples, lists, dicts and scalars; YAML frontmatter adds dates and sets."""

    ALLOWED = {
        ("datetime", "date"), ("datetime", "datetime"), ("datetime", "time"),
        ("datetime", "timedelta"), ("datetime", "timezone"),
        ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "complex"),
    }

    def find_class(self, module: str, name: str):
        if (module, name) in self.ALLOWED:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in the vault index")


def ensure_state_dir(state_dir: Path) -> None:
    """Create .wiki-tui/ with a .gitignore of its own, so its contents never reach git."""
    state_dir.mkdir(parents=True, exist_ok=True)
    ignore = state_dir / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# wiki-tui caches and state: never commit\n*\n", encoding="utf-8")
