"""Pages as plain records, a lazy page map, and the on-disk index cache.

Why records: unpickling 10k `Page` objects with their frozen `Link`s calls Python code per
object (~1 s); the same data as plain tuples loads in C in a fraction of that. `PageMap` keeps
records and builds a `Page` only when someone asks for it.

The cache (`<vault>/.wiki-tui/index.pickle`) holds the records, each file's (mtime_ns, size)
and the link index state. It is only a cache: unreadable, foreign or outdated (another format
version or other Page/Link fields) means a cold build, never an error.
"""

from __future__ import annotations

import os
import pickle
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import fields
from operator import attrgetter
from pathlib import Path
from typing import Any

from .links import Heading, Link
from .page import Page

CACHE_FORMAT = 2  # bump whenever records or the link index state change shape
CACHE_FILE = "index.pickle"

_PAGE_FIELDS = tuple(f.name for f in fields(Page))
_LINK_FIELDS = tuple(f.name for f in fields(Link))
_HEADING_FIELDS = tuple(f.name for f in fields(Heading))
_page_values = attrgetter(*_PAGE_FIELDS)
_link_values = attrgetter(*_LINK_FIELDS)
_heading_values = attrgetter(*_HEADING_FIELDS)
# Record slots the index reads directly.
R = {name: i for i, name in enumerate(_PAGE_FIELDS)}
R_TITLE, R_NAME, R_ALIASES, R_TAGS = R["title"], R["name"], R["aliases"], R["tags"]
R_TYPE, R_FM, R_LINKS, R_WARNINGS = R["type"], R["frontmatter"], R["links"], R["warnings"]
R_BODY_START = R.get("body_start")
L = {name: i for i, name in enumerate(_LINK_FIELDS)}
L_TARGET, L_SUBPATH, L_LINE, L_START, L_END, L_KIND, L_RAW = (
    L["target"], L["subpath"], L["line"], L["start"], L["end"], L["kind"], L["raw"],
)
_CONVERT = {
    "links": (lambda links: [_link_values(x) for x in links], lambda rows: [Link(*r) for r in rows]),
    "external_links": (lambda links: [_link_values(x) for x in links], lambda rows: [Link(*r) for r in rows]),
    "headings": (lambda hs: [_heading_values(h) for h in hs], lambda rows: [Heading(*r) for r in rows]),
}
_CONVERT_AT = {R[name]: conv for name, conv in _CONVERT.items() if name in R}
_INTERNED_AT = tuple(R[name] for name in (
    "path", "name", "title", "aliases", "tags", "type", "sources", "frontmatter", "headings",
    "block_ids", "links", "external_links"))
VERSION = (CACHE_FORMAT, _PAGE_FIELDS, _LINK_FIELDS, _HEADING_FIELDS)

Record = tuple


def page_to_record(page: Page) -> Record:
    values = list(_page_values(page))
    for i, (to_rows, _) in _CONVERT_AT.items():
        values[i] = to_rows(values[i])
    for i in _INTERNED_AT:
        values[i] = _interned(values[i])
    return tuple(values)


def _interned(value: Any) -> Any:
    """The same value with its strings interned, one container level deep.

    A vault repeats the same strings across pages: link targets, frontmatter keys, tags,
    types, heading texts. Interned, each is stored once in memory, and once in the cache (the
    pickle shares an object it meets twice), which took a 10k-page index from 73 MB to about
    52 MB. Only the first level of containers is walked: YAML can nest (or even contain
    itself), and the rare deep value is not worth a general walk."""
    if type(value) is str:
        return sys.intern(value)
    if type(value) is tuple:
        return tuple([sys.intern(v) if type(v) is str else _interned_row(v) for v in value])
    if type(value) is list:
        return [sys.intern(v) if type(v) is str else _interned_row(v) for v in value]
    if type(value) is dict:
        return {sys.intern(k) if type(k) is str else k: _interned_row(v) for k, v in value.items()}
    return value


def _interned_row(value: Any) -> Any:
    if type(value) is str:
        return sys.intern(value)
    if type(value) is tuple:  # a link or heading row
        return tuple([sys.intern(v) if type(v) is str else v for v in value])
    if type(value) is list and all(type(v) is str for v in value):  # a list property
        return [sys.intern(v) for v in value]
    return value


def record_to_page(record: Record) -> Page:
    values = list(record)
    for i, (_, from_rows) in _CONVERT_AT.items():
        values[i] = from_rows(values[i])
    return Page(*values)


class PageMap(Mapping[str, Page]):
    """path -> Page, stored as records; a Page object is built on first access."""

    def __init__(self, records: dict[str, Record] | None = None) -> None:
        self._records: dict[str, Record] = records if records is not None else {}
        self._objects: dict[str, Page] = {}

    def __getitem__(self, path: str) -> Page:
        page = self._objects.get(path)
        if page is None:
            page = record_to_page(self._records[path])
            self._objects[path] = page
        return page

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
        self._objects[page.path] = page
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
