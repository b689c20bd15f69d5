"""The catalog between accepts: index.md's entries kept in order, section by section, and
updated by the pages that changed since the last accept.

An accept re-renders the catalog with the changeset applied. At 50,000 pages, reading every
page's row and rendering every entry cost ~0.4 s of an accept that bare git does in ~0.35 s.
The vault's page map logs the paths it stores or removes (PageMap.changes_since), and HEAD's
file set is known per commit (gitops.committed_files): so the rows to look at again are those
the log names, those whose committed state changed (a set difference), the last accept's
changeset (rendered from its texts, which may not have been written) and the canvases (not
pages: read each time, as render_rows' callers do). Anything else (another page map, another
schema, the log started over) and the entries are built again from every row.

A render that followed the last one also says which entry lines it dropped and added, and of
which text (its digest): the vault adjusts the catalog's links by those lines instead of
comparing 50k lines (Vault.catalog_rewritten).

What `CatalogCache.render` gives is byte for byte what `index_md.render_rows` gives for the
same rows (tests/changes/test_catalog_cache.py checks that over random sequences of changes).
"""

from __future__ import annotations

import threading
import weakref
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from typing import Any

from wiki_tui.changes.apply.index_md import HEADER, OTHER, _entry, not_listed, page_rows, section_title
from wiki_tui.vault.indexing.catalog import catalog_digest

Row = tuple[str, str, Any, Any]  # (path, title, summary, type)


class CatalogCache:
    """The entries of one vault's catalog, by section, for its rows as of `mark`."""

    def __init__(self, pages: Any, types: Mapping[str, str] | None, catalog: str) -> None:
        self.pages = weakref.ref(pages) if hasattr(pages, "changes_since") else (lambda: None)
        self.types_key = (catalog, tuple((types or {}).items()))
        types = dict(types or {})
        self.headings = [section_title(str(types[t]) or str(t)) for t in types] + [OTHER]
        self.section_of = {t: i for i, t in enumerate(types)}
        self.folded = {str(t).casefold(): i for i, t in enumerate(types)}
        self.keys: list[list[str]] = [[] for _ in self.headings]
        self.lines: list[list[str]] = [[] for _ in self.headings]
        self.placed: dict[str, tuple[int, str]] = {}  # path -> (section, sort key)
        self.left_out: set[str] = set()  # rows not committed (and not in the changeset)
        self.skipped = not_listed(catalog)
        self.committed: frozenset[str] | None = None
        self.mark: tuple[int, int] | None = None
        self.again: set[str] = set()  # paths to look at again next time (changeset, canvases)
        self.digest: bytes | None = None  # catalog_digest of the last text rendered, UTF-8
        self.gone: list[str] | None = None  # entry lines dropped and added by this render
        self.added: list[str] = []

    def fits(self, pages: Any, types: Mapping[str, str] | None, catalog: str) -> bool:
        return self.pages() is pages and self.types_key == (catalog, tuple((types or {}).items()))

    def _section(self, kind: Any) -> int:
        other = len(self.headings) - 1
        if not kind:
            return other
        try:
            if kind in self.section_of:
                return self.section_of[kind]
        except TypeError:  # an unhashable type value (odd frontmatter)
            return other
        return self.folded.get(str(kind).casefold(), other)

    def fill(self, rows: Iterable[Row], listed: Any) -> None:
        """Every entry at once from `rows` (`listed(path)`: whether it is committed), sorted
        once: an empty cache is filled this way, not by 50k inserts."""
        sections: list[list[tuple[str, str]]] = [[] for _ in self.headings]
        skipped, placed, left_out = self.skipped, self.placed, self.left_out
        for path, title, summary, kind in rows:
            if path in skipped:
                continue
            if not listed(path):
                left_out.add(path)
                continue
            if path.startswith("raw/"):  # never listed, but said to be left out when not committed
                continue
            if not title:
                title = path.rsplit("/", 1)[-1].removesuffix(".md")
            entry = _entry(path, title, summary)
            section = self._section(kind)
            sections[section].append(entry)
            placed[path] = (section, entry[0])
        for i, entries in enumerate(sections):
            entries.sort()
            self.keys[i] = [key for key, _ in entries]
            self.lines[i] = [line for _, line in entries]

    def place(self, path: str, row: Row | None, listed: bool) -> None:
        """`path`'s entry as `row` says (None: no such page); `listed` False: it is left out
        (not committed)."""
        old = self.placed.pop(path, None)
        if old is not None:
            keys, at = self.keys[old[0]], bisect_left(self.keys[old[0]], old[1])
            if self.gone is not None:
                self.gone.append(self.lines[old[0]][at])
            del keys[at], self.lines[old[0]][at]
        self.left_out.discard(path)
        if row is None or path in self.skipped:
            return
        if not listed:
            self.left_out.add(path)
            return
        if path.startswith("raw/"):
            return
        _, title, summary, kind = row
        if not title:
            title = path.rsplit("/", 1)[-1].removesuffix(".md")
        key, line = _entry(path, title, summary)
        section = self._section(kind)
        keys = self.keys[section]
        at = bisect_left(keys, key)
        keys.insert(at, key)
        self.lines[section].insert(at, line)
        self.added.append(line)
        self.placed[path] = (section, key)

    def diff(self, base: bytes | None) -> tuple[bytes, list[str], list[str]] | None:
        """(digest of the text this render started from, the entry lines it dropped, the lines
        it added with every section heading now shown), or None when it was filled anew."""
        if self.gone is None or base is None:
            return None
        headings = [f"## {h}" for h, lines in zip(self.headings, self.lines) if lines]
        return base, self.gone, self.added + headings

    def text(self) -> str:
        parts = [HEADER]
        for heading, lines in zip(self.headings, self.lines):
            if lines:
                parts += [f"\n## {heading}\n\n", "\n".join(lines), "\n"]
        return "".join(parts)


_cache: CatalogCache | None = None
_lock = threading.Lock()


def render(pages: Any, types: Mapping[str, str] | None, catalog: str, committed: frozenset[str] | None,
           changed: Mapping[str, Row | None], paths: Iterable[str] = (),
           canvases: Iterable[Row] = ()) -> tuple[str, list[str], tuple | None]:
    """(the catalog's text, the pages left out as not committed, CatalogCache.diff) for the vault's `pages` with
    the changeset's page rows `changed` over them (None: the page goes), and the `canvases`
    rows. Only the paths of `committed` are listed, and the changeset's own `paths` (None:
    no git, every path listed)."""
    global _cache
    canvases = list(canvases)
    ours = set(paths) | set(changed)
    listed = (lambda p: True) if committed is None else (lambda p: p in committed or p in ours)
    if not hasattr(pages, "changes_since"):  # a plain mapping of pages: no log to follow
        cache = CatalogCache(pages, types, catalog)
        cache.fill([*(r for r in page_rows(pages) if r[0] not in changed), *canvases,
                    *(r for r in changed.values() if r is not None)], listed)
        return cache.text(), sorted(cache.left_out), None
    with _lock:
        cache, changes = _cache, None
        if cache is not None and cache.fits(pages, types, catalog) and cache.mark is not None \
                and (cache.committed is None) == (committed is None):
            changes = pages.changes_since(cache.mark)
        mark = pages.mark()
        if changes is None:
            cache = _cache = None  # until filled: a failure half-way leaves no cache behind
            cache = CatalogCache(pages, types, catalog)
            cache.fill((r for r in page_rows(pages) if r[0] not in changed), listed)
            base = None
        else:
            base, cache.gone, cache.added = cache.digest, [], []
            if committed is not None and cache.committed is not committed:
                changes |= cache.committed ^ committed
            changes |= cache.again
            changes -= changed.keys()
            for path in changes:
                cache.place(path, None, False)
            for row in pages.rows(changes):
                cache.place(row[0], row, listed(row[0]))
        for path, row in changed.items():
            cache.place(path, row, True)
        for row in canvases:
            cache.place(row[0], row, listed(row[0]))
        cache.mark, cache.committed = mark, committed
        cache.again = set(changed) | {row[0] for row in canvases}
        _cache = None  # until the text and its digest are made
        text = cache.text()
        diff = cache.diff(base)
        cache.digest, cache.gone, cache.added = catalog_digest(text.encode("utf-8", "surrogatepass")), None, []
        _cache = cache
        return text, sorted(cache.left_out), diff
