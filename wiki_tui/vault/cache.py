"""Pages as plain records, a lazy page map, and the on-disk index cache.

Why records: unpickling 10k `Page` objects with their frozen `Link`s calls Python code per
object (~1 s); the same data as plain tuples loads in C in a fraction of that. `PageMap` keeps
records and builds a `Page` only when someone asks for it.

A record keeps the fields the index, the finder and index.md read all the time as plain values
(strings interned: a vault repeats the same targets, keys and tags across pages). The rest is
packed into two byte strings per page: the link rows (read when a page's links are re-resolved,
linted or shown as backlinks) and the "cold" fields (frontmatter, headings, block ids, warnings,
external links). Tens of small objects per link cost ~390 bytes of memory each; packed, ~100:
on a 10k-page vault the index went from 73 MB to about 35 MB, and the cache loads faster.

The cache (`<vault>/.wiki-tui/index.pickle`) holds the records, each file's (mtime_ns, size)
and the link index state. It is only a cache: unreadable, foreign or outdated (another format
version or other Page/Link fields) means a cold build, never an error.
"""

from __future__ import annotations

import io
import os
import pickle
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import fields
from operator import attrgetter
from pathlib import Path
from typing import Any, NamedTuple

from .links import Heading, Link
from .page import Page

CACHE_FORMAT = 5  # bump whenever records or the link index state change shape
CACHE_FILE = "index.pickle"

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


def page_to_record(page: Page) -> Record:
    hot = [sys.intern(v) if type(v) is str else _interned_list(v) for v in _hot_values(page)]
    links = _pack(link_rows(page))
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
    return _SafeUnpickler(io.BytesIO(blob)).load() if blob else empty


def record_links(record: Record) -> list[tuple]:
    """A record's link rows (tuples in Link field order, frontmatter links first)."""
    return _unpack(record[_R_LINKS], [])


def record_cold(record: Record) -> Cold:
    return Cold(*_unpack(record[_R_COLD], ({}, [], [], [], [])))


def record_to_page(record: Record) -> Page:
    values = dict(zip(_HOT_FIELDS, record))
    fm, headings, block_ids, warnings, external = record_cold(record)
    return Page(
        **values,
        links=[Link(*row) for row in record_links(record)],
        frontmatter=fm,
        headings=[Heading(*row) for row in headings],
        block_ids=block_ids,
        warnings=warnings,
        external_links=[Link(*row) for row in external],
    )


class PageMap(Mapping[str, Page]):
    """path -> Page, stored as records; a Page object is built on access. The last
    OBJECTS_KEPT pages built are kept (a page with 10k links is megabytes as objects)."""

    OBJECTS_KEPT = 256

    def __init__(self, records: dict[str, Record] | None = None) -> None:
        self._records: dict[str, Record] = records if records is not None else {}
        self._objects: dict[str, Page] = {}  # insertion order = least recently used first

    def __getitem__(self, path: str) -> Page:
        page = self._objects.pop(path, None)
        if page is None:
            page = record_to_page(self._records[path])
        self._keep(path, page)
        return page

    def _keep(self, path: str, page: Page) -> None:
        objects = self._objects
        objects[path] = page
        while len(objects) > self.OBJECTS_KEPT:
            try:  # the watcher thread may be touching the map too: drop one, whichever
                del objects[next(iter(objects))]
            except (RuntimeError, StopIteration, KeyError):
                break

    def __contains__(self, path: object) -> bool:
        return path in self._records

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._records))

    def __len__(self) -> int:
        return len(self._records)

    def record(self, path: str) -> Record | None:
        return self._records.get(path)

    def records(self) -> dict[str, Record]:
        """A snapshot (path -> record): safe to iterate while the watcher thread updates pages.
        Copying 10k entries costs ~0.2 ms."""
        return dict(self._records)

    def put(self, page: Page) -> Record:
        record = page_to_record(page)
        self._records[page.path] = record
        self._objects.pop(page.path, None)
        self._keep(page.path, page)
        return record

    def put_record(self, path: str, record: Record) -> None:
        self._records[path] = record
        self._objects.pop(path, None)

    def remove(self, path: str) -> None:
        self._records.pop(path, None)
        self._objects.pop(path, None)


class _SafeUnpickler(pickle.Unpickler):
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
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in the index cache")


def load_cache(state_dir: Path) -> dict[str, Any] | None:
    """The cached state, or None when there is none usable."""
    try:
        with open(state_dir / CACHE_FILE, "rb") as fh:
            data = _SafeUnpickler(fh).load()
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
        return None
    except Exception:  # noqa: BLE001 - a damaged cache must never stop the vault from opening
        return None
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return None
    return data


def save_cache(state_dir: Path, data: dict[str, Any]) -> bool:
    """Write atomically; False (and no exception) when the folder is not writable."""
    data = {**data, "version": VERSION}
    try:
        ensure_state_dir(state_dir)
        fd, tmp = tempfile.mkstemp(dir=state_dir, prefix=".index-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, state_dir / CACHE_FILE)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return False
    return True


def ensure_state_dir(state_dir: Path) -> None:
    """Create .wiki-tui/ with a .gitignore of its own, so its contents never reach git."""
    state_dir.mkdir(parents=True, exist_ok=True)
    ignore = state_dir / ".gitignore"
    if not ignore.exists():
        ignore.write_text("# wiki-tui caches and state: never commit\n*\n", encoding="utf-8")
