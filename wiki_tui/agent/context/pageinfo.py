"""What the agent needs to know of every page (names, type, summary, sources), read without
building 10,000 Page objects: the vault keeps pages as compact records and builds a Page on
first access (vault/indexing/cache.py), which costs ~0.25 ms a page."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class PageInfo:
    path: str
    name: str
    title: str
    aliases: tuple[str, ...]
    type: str | None
    summary: str | None
    sources: tuple[str, ...]
    tags: tuple[str, ...] = ()


def page_infos(vault: Any) -> Iterator[PageInfo]:
    """Every page's PageInfo, by path. From the index on disk a batch of records at a time
    (PageMap.iter_records), so 50k pages are never all in memory and a reader that stops
    early stops the reading."""
    records = getattr(vault.pages, "iter_records", None)
    if records is not None:
        try:
            from wiki_tui.vault.indexing.cache import R
        except ImportError:  # pragma: no cover - another vault layout
            R = None
        fields = ("name", "title", "aliases", "type", "summary", "sources", "tags")
        if R is not None and all(k in R for k in fields):
            idx = [R[k] for k in fields]
            for path, rec in records():
                yield PageInfo(path, rec[idx[0]], rec[idx[1]], tuple(rec[idx[2]] or ()),
                               rec[idx[3]], rec[idx[4]], tuple(rec[idx[5]] or ()),
                               tuple(rec[idx[6]] or ()))
            return
    for path, page in vault.pages.items():
        yield PageInfo(path, page.name, page.title, tuple(page.aliases or ()), page.type,
                       page.summary, tuple(page.sources or ()), tuple(page.tags or ()))


def page_info(vault: Any, path: str) -> PageInfo:
    page = vault.pages[path]
    return PageInfo(path, page.name, page.title, tuple(page.aliases or ()), page.type,
                    page.summary, tuple(page.sources or ()), tuple(page.tags or ()))
