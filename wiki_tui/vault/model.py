"""`Vault`: one vault on disk with its index, finder, full-text search, lint and watcher.

Opening: list the files (one stat each), keep the stored index (store.py, SQLite under
`.wiki-tui/`) for every file whose (mtime_ns, size) is unchanged and re-parse the rest, else
parse everything (cold build). Nothing is loaded from the index at opening: the process holds
the file list with stamps, the resolver and (once used) the finder; records, links, names and
tags are queried from the store. The fuzzy finder and the search database are built on first
use (or by `prepare()` in a worker), so opening stays fast. Every public method is safe to call
while the watcher thread feeds changes in (one re-entrant lock).

Queries beyond the page map: `backlinks`, `outgoing`, `unlinked_mentions`, `resolve`,
`resolve_alias`, `tags`, `pages_tagged`, `by_type`, `by_folder`, `page_rows`, `headings`,
`block_ids`, `properties`, `find`, `search`, `lint`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, TypeVar

from wiki_tui.vault import layout
from wiki_tui.vault.gc_pause import no_gc
from wiki_tui.vault.indexing.bulk import parse_all
from wiki_tui.vault.indexing.catalog import catalog_delta, catalog_digest, parse_catalog
from wiki_tui.vault.indexing.cache import ensure_state_dir, link_rows, record_cold
from wiki_tui.vault.find.fuzzy import FindHit, FuzzyIndex
from wiki_tui.vault.indexing.index import LinkIndex
from wiki_tui.vault.layout import (
    VaultError, clean_path, clean_path_on_disk, is_page_path, is_raw_path, listing_pages, scan_tree, stat_file,
)
from wiki_tui.vault.parse.links import Link
from wiki_tui.vault.find.mentions import Backlink, Mention, linked_mentions, unlinked_mentions
from wiki_tui.vault.parse.page import Page, parse_page, read_page_text
from wiki_tui.vault.indexing.resolve import Resolver, link_key
from wiki_tui.vault.proposed import Proposed
from wiki_tui.vault.parse.schema import SCHEMA_FILE, Schema, parse_schema
from wiki_tui.vault.find.search import SearchHit, SearchIndex
from wiki_tui.vault.state import carry_over, is_adopted, state_dir
from wiki_tui.vault.indexing.store import PageMap, Store

SEARCH_DB = "search.sqlite"
INDEX_DB = "index.sqlite"
DISK_NAMES = "disk-names"  # meta key: the NFC path -> name on disk map (JSON), for opening unlisted
PARSE_CHUNK = 4000  # pages parsed and written per step of a cold build (bounds its memory)
# Told how far a long indexing run is: (pages done, pages in all). See Vault.open.
Progress = Callable[[int, int], None]
RACY_NS = 2_000_000_000  # file times within 2 s of the cache save are not trusted


T = TypeVar("T")

LOG_FILE = "log.md"  # appended by every apply: its stamp says whether another one happened


class Vault:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._root_str = str(self.root)
        self.raw_dir = Path(layout.RAW_DIR)
        self._store = Store(None)
        self.pages = PageMap(self._store)
        self.attachments: set[str] = set()  # every non-page file (raw/ included): link targets
        self.schema = Schema()
        self.load_stats: dict[str, int | bool] = {}
        self._files: dict[str, tuple[int, int]] = {}  # non-page file stamps
        self._disk: dict[str, str] = {}  # NFC vault path -> name on disk where they differ (NFD)
        self._resolver = Resolver()
        self._index = LinkIndex(self._resolver, self._store)
        self._fuzzy: FuzzyIndex | None = None
        self._search: SearchIndex | None = None
        self._search_synced = False
        self._lock = threading.RLock()
        self._watcher = None
        self._synced_log: tuple[int, int] | None = None  # log.md's stamp at the last sync
        # catalog_digest of the catalog text the index holds the links of, when it was read as
        # a plain generated catalog (parse_catalog); None: unknown (see catalog_rewritten)
        self._catalog_digest: bytes | None = None
        self._digest_of = "index.md"  # the catalog path _catalog_digest is about
        self._by_page_set: dict[str, tuple[PageMap, int, Any]] = {}  # see by_page_set
        self.checked = True  # False: opened from the index without listing the disk (check_freshness)
        self.on_progress: Progress | None = None  # see open()
        self._real_root: str | None = None  # os.path.realpath(root), once asked (_clean)
        # index.md and log.md name every page: listings, not backlinks, mentions or search hits.
        # True shows them (the default of each query's `include_listings`).
        self.show_listings = False

    @property
    def catalog(self) -> str:
        """The generated catalog's path: `catalog:` in AGENTS.md, default index.md. With it
        elsewhere, index.md is an ordinary page (a person's home page)."""
        return self.schema.catalog

    @property
    def listing_pages(self) -> tuple[str, str]:
        """The catalog and log.md: they name every page, so they are no backlinks, mentions or
        search hits unless asked for."""
        return listing_pages(self.schema.catalog)

    @property
    def state_dir(self) -> Path:
        """Where this vault's caches live: `.wiki-tui/` when adopted, else the user cache
        (state.py): a folder only being read is never written into."""
        return state_dir(self.root)

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def open(cls, root: Path, *, use_cache: bool = True, watch: bool = False, check: bool = True,
             on_progress: Progress | None = None) -> "Vault":
        """Open the vault at `root`. `check` False: when an index is on disk, answer from it at
        once and leave the listing of the vault (one stat per file) to `check_freshness()`,
        which the caller runs later, in a worker; until then answers may be stale (the app
        does this; commands that need an exact index keep the default).

        `on_progress(done, total)`: called from the opening thread while pages are indexed in
        bulk (a cold build, or a freshness check that re-reads many pages): once with 0 before
        the first page, then as each step of pages is stored, last with `done == total`. An
        opening that indexes nothing in bulk never calls it."""
        root = Path(root)
        if not root.exists():
            raise VaultError(f"no vault at {root}: the folder does not exist")
        if not root.is_dir():
            raise VaultError(f"no vault at {root}: not a folder")
        vault = cls(root.resolve())
        vault.on_progress = on_progress
        vault._load(use_cache, check)
        if watch:
            vault.start_watching(None)
        return vault

    def _load(self, use_cache: bool, check: bool = True) -> None:
        # a bulk load allocates ~10^6 containers: with the GC on, unpickling the cache takes
        # 2.5x longer (gc_pause.py)
        with no_gc():
            self._load_unguarded(use_cache, check)

    def _load_unguarded(self, use_cache: bool, check: bool) -> None:
        self._load_schema()  # first: it says which file is the catalog (read the fast way)
        self._store.close()
        self._store = Store(self._state_file(INDEX_DB) if use_cache else None)
        self.pages = PageMap(self._store, self._reload_record)
        try:
            if not self._store.fresh and self._open_stored():
                if check:
                    self.check_freshness()
                return
        except (sqlite3.Error, TypeError, ValueError):  # the right version, odd content
            self._store.reset()
            self.pages = PageMap(self._store, self._reload_record)
        self._cold_build(self._list_disk())
        self.checked = True

    def _list_disk(self) -> layout.Tree:
        """One listing of the vault (a stat per file). Call with the lock held or not: what it
        sets (log.md's stamp, the NFD names on disk) is set under it."""
        tree = scan_tree(self.root)
        with self._lock:
            self._synced_log = tree.pages.get(LOG_FILE)  # see sync_with_disk
            if tree.disk != self._disk:
                self._disk = dict(tree.disk)
                self._store.put_meta(DISK_NAMES, json.dumps(self._disk))
        return tree

    def _open_stored(self) -> bool:
        """Take the file list, stamps and resolver from the index on disk, nothing listed or
        read (False: the index holds no page)."""
        stamps = self._store.page_stamps()
        if not stamps:
            return False
        files = self._store.file_stamps()
        self.pages.stamps = stamps
        self.pages.generation += 1
        self._files = files
        self.attachments = set(files)
        self._disk = json.loads(self._store.meta(DISK_NAMES) or "{}")
        self._resolver = Resolver([*stamps, *files])
        self._index = LinkIndex(self._resolver, self._store)
        self.checked = False
        self.load_stats = {"cold": False, "parsed": 0, "removed": 0}
        return True

    def _reload_record(self, path: str):
        """A stored record that does not load (damaged or crafted): parse the page again."""
        stamp = self.pages.stamps.get(path)
        page = self._parse_file(path, stamp) if stamp is not None else None
        if page is None:
            return None
        return self.pages.put(page, stamp, time.time_ns()) if path in self.pages.stamps else None

    def _state_file(self, name: str) -> Path | None:
        """Where a state file of this vault lives (None: the folder cannot be written; keep it
        in memory). The one place that says where the vault's state is."""
        try:
            ensure_state_dir(self.state_dir)
        except OSError:
            return None
        if is_adopted(self.root):  # kept in the user cache before the folder was adopted?
            carry_over(self.root, name)
        return self.state_dir / name

    def _cold_build(self, tree: layout.Tree) -> None:
        store = self._store
        self._catalog_digest = None  # the catalog may be read in a forked parser: not known
        self._files = dict(tree.files)
        self.attachments = set(tree.files)
        self._resolver = Resolver([*tree.pages, *tree.files])
        self._index = LinkIndex(self._resolver, store)
        parsed = 0
        stamps = tree.pages
        paths = sorted(stamps)  # in key order: rows append to the tables' b-trees
        link_keys: dict[str, tuple[str, str]] = {}  # shared by the chunks: see add_new
        self._progress(0, len(paths))
        with store.bulk():
            store.put_files(tree.files.items())
            for start in range(0, len(paths), PARSE_CHUNK):
                chunk = paths[start : start + PARSE_CHUNK]
                now = time.time_ns()
                parsed_chunk = parse_all(chunk, lambda p: self._parse_file(p, stamps[p]))
                rows, links = [], []
                for path, got in parsed_chunk.items():
                    if got is None:  # vanished
                        self._resolver.remove(path)
                        continue
                    record, counts = got
                    rows.append((path, record, stamps[path], now))
                    links.append((path, counts))
                with store.transaction():
                    self.pages.put_records(rows, new=True)
                    self._index.add_new(links, link_keys)
                parsed += len(rows)
                self._progress(start + len(chunk), len(paths))
        store.checkpoint()
        self.load_stats = {"cold": True, "parsed": parsed}

    def _progress(self, done: int, total: int) -> None:
        if self.on_progress is None:
            return
        try:
            self.on_progress(done, total)
        except Exception:  # noqa: BLE001 - e.g. the app closing: the index still gets built
            self.on_progress = None

    def check_freshness(self) -> list[tuple[str, str]]:
        """List the vault and re-index every file whose (mtime_ns, size) differs from the
        index (or was written too close to its reading to tell), in one transaction, AGENTS.md
        read again if it changed; the changes as the watcher reports them, [(change, path)].
        The listing runs outside the lock: the vault answers meanwhile. Safe from a worker
        thread. (`sync_with_disk` is this check, skipped when nothing can have changed.)"""
        tree = self._list_disk()
        # "Racy" files: written within the clock's granularity of when they were read could
        # have changed again without a new mtime (as git's index handles it): re-read those.
        # (Their stored mtime is the one on disk, else the stamp differs anyway.)
        racy = self._store.racy_pages(RACY_NS)
        with self._lock:
            stored = self.pages.stamps
            old_files = dict(self._files)
            changed = []
            for path, stamp in tree.pages.items():
                if stored.get(path) != stamp or path in racy:
                    changed.append(path)
            # gone from the listing, unless the watcher (started before it) saw it come since
            gone = [p for p in stored if p not in tree.pages and not self._exists(p)]
            added_files = [p for p in tree.files if p not in old_files]
            gone_files = [p for p in old_files if p not in tree.files and not self._exists(p)]
            changes = [("added" if p not in stored else "modified", p) for p in changed]
            changes += [("deleted", p) for p in gone]
            changes += [("added", p) for p in added_files] + [("deleted", p) for p in gone_files]
            if SCHEMA_FILE in changed or SCHEMA_FILE in gone:
                self._load_schema()  # first: it says which page is the catalog
            with self._store.transaction():
                for path in gone:
                    self._drop_page(path)
                self._store.put_files((p, st) for p, st in tree.files.items() if old_files.get(p) != st)
                for path, stamp in tree.files.items():
                    if old_files.get(path) != stamp:
                        self._files[path] = stamp
                self.attachments.update(added_files)
                for path in gone_files:
                    del self._files[path]
                    self.attachments.discard(path)
                    self._store.drop_file(path)
                    self._file_presence_changed(path)
                for path in added_files:
                    self._file_presence_changed(path)
                bulk = len(changed) >= PARSE_CHUNK  # e.g. a checkout that changed many pages
                if bulk:
                    self._progress(0, len(changed))
                for n, path in enumerate(changed, 1):
                    self._reindex_page(path, tree.pages[path])
                    if bulk and (n % PARSE_CHUNK == 0 or n == len(changed)):
                        self._progress(n, len(changed))
            if len(changed) + len(gone) > 100:
                self._store.checkpoint()
            self.load_stats = {"cold": False, "parsed": len(changed), "removed": len(gone)}
            self.checked = True
        return changes

    def _exists(self, path: str) -> bool:
        return stat_file(self.root, self._disk.get(path, path)) is not None

    def _load_schema(self) -> None:
        try:
            text, _warnings = read_page_text(self.root / SCHEMA_FILE)
        except OSError:
            self.schema = Schema()
        else:
            self.schema = parse_schema(text)
        if self.schema.catalog != getattr(self, "_digest_of", None):  # the catalog moved
            self._catalog_digest, self._digest_of = None, self.schema.catalog

    def _parse_file(self, path: str, stamp: tuple[int, int], *, note_catalog: bool = False) -> Page | None:
        """Read and parse a page; None if it cannot be read (vanished). `stamp` is its
        (mtime_ns, size) from the listing, so no second stat is needed. `note_catalog`: the
        page's links are being indexed; if it is the catalog, remember which text they are of."""
        try:
            text, warnings = read_page_text(os.path.join(self._root_str, self._disk.get(path, path)), stamp[1])
        except OSError:
            return None
        # the generated index.md has a fixed shape: read line by line, not scanned (50k links)
        page = parse_catalog(path, text, mtime=stamp[0] / 1e9) if path == self.catalog and not warnings else None
        if note_catalog and path == self.catalog:
            self._catalog_digest = None if page is None else catalog_digest(text.encode("utf-8", "surrogatepass"))
        if page is None:
            page = parse_page(path, text, mtime=stamp[0] / 1e9)
        if warnings:
            page.warnings[:0] = warnings
        return page

    # -- incremental upkeep ------------------------------------------------------------------
    def refresh_file(self, path: str | os.PathLike[str]) -> None:
        """Bring one file (page, attachment or folder) in step with disk."""
        rel, on_disk = clean_path_on_disk(self.root, path)
        with self._lock, self._store.transaction():
            if on_disk != rel and (self.root / on_disk).exists():
                self._disk[rel] = on_disk
            elif (self.root / rel).exists():
                self._disk.pop(rel, None)
            abs_path = self._abs(rel)
            if abs_path.is_dir() and not abs_path.is_symlink():
                sub = scan_tree(abs_path)
                folder = self._disk.get(rel, rel)
                for child in [*sub.pages, *sub.files]:
                    self.refresh_file(f"{folder}/{sub.disk.get(child, child)}")
                return
            if rel not in self._stamps and rel not in self._files and not abs_path.exists():
                prefix = rel + "/"
                known_below = [p for p in (*self._stamps, *self._files) if p.startswith(prefix)]
                for child in known_below:  # a folder went away
                    self.refresh_file(child)
                if known_below:
                    return
            stamp = stat_file(self.root, self._disk.get(rel, rel))
            if is_page_path(rel):
                if stamp is None:
                    if rel in self._stamps:
                        self._drop_page(rel)
                else:
                    self._reindex_page(rel, stamp)
            else:
                present = stamp is not None
                if present:
                    self._store.put_files([(rel, stamp)])
                else:
                    self._store.drop_file(rel)
                if present != (rel in self._files):
                    if present:
                        self._files[rel] = stamp
                        self.attachments.add(rel)
                    else:
                        self._files.pop(rel, None)
                        self.attachments.discard(rel)
                    self._file_presence_changed(rel)
                elif present:
                    self._files[rel] = stamp
            if rel == SCHEMA_FILE:
                self._load_schema()

    def sync_with_disk(self, *, force: bool = False) -> int:
        """The freshness check (check_freshness: one listing of the vault, ~40 ms at 10k pages;
        no parse of unchanged pages), when something may have changed; the number of paths
        refreshed. An apply calls it under the vault lock, so index.md includes what another
        process applied meanwhile. Every apply appends to log.md: unless `force`, once the
        vault was checked, the listing is skipped while log.md is as it was at the last
        listing (see mark_synced)."""
        if self.checked and not force and self._log_stamp() == self._synced_log:
            return 0
        return len(self.check_freshness())

    def mark_synced(self) -> None:
        """The vault holds every apply up to now (called after our own apply, lock still held)."""
        self._synced_log = self._log_stamp()

    def _log_stamp(self) -> tuple[int, int] | None:
        return stat_file(self.root, LOG_FILE)

    def rename_file(self, old: str, new: str) -> None:
        """The file at `old` now lives at `new` (already moved on disk)."""
        with self._lock:
            self.refresh_file(old)
            self.refresh_file(new)

    def catalog_rewritten(self, path: str, old: bytes | None, new: bytes,
                          lines: tuple[bytes, list[str], list[str]] | None = None) -> None:
        """The catalog at `path` was rewritten from `old` to `new` (an apply's own bytes; the
        file holds `new`). Its links follow from the lines that changed (catalog_delta): when
        the index holds `old`'s links, they are adjusted by those lines and its record is
        made when first read, nothing parsed now (at 50k pages, re-reading 50k links cost
        most of an accept). `lines`: (catalog_digest of the text they change, the lines
        dropped, added), when the writer knows them: used if that text is `old`. Otherwise,
        the file is re-read as any other (refresh_file)."""
        with self._lock, self._store.transaction():
            stamp = stat_file(self.root, self._disk.get(path, path))
            delta = None
            if (path == self.catalog and path in self._stamps and old is not None and stamp is not None
                    and self._catalog_digest is not None and self._catalog_digest == catalog_digest(old)):
                known = lines[1:] if lines is not None and lines[0] == self._catalog_digest else None
                delta = catalog_delta(old, new, known)
            if delta is None or not self._index.adjust_links(path, delta):
                self.refresh_file(path)
                return
            self.pages.defer(path, stamp, time.time_ns())
            self._catalog_digest = catalog_digest(new)

    def _catalog_unchanged(self, path: str, stamp: tuple[int, int]) -> bool:
        """The catalog on disk holds the very bytes the index read its links from (the watcher
        reporting an apply's own write, a start that finds it "racy"): nothing to re-read but
        its stamp (its record is made again when next read, for the new time)."""
        if path != self.catalog or self._catalog_digest is None or path not in self._stamps:
            return False
        try:
            with open(os.path.join(self._root_str, self._disk.get(path, path)), "rb") as handle:
                same = catalog_digest(handle.read()) == self._catalog_digest
        except OSError:
            return False
        if same and self._stamps[path] != stamp:
            self.pages.defer(path, stamp, time.time_ns())
        return same

    def _reindex_page(self, path: str, stamp: tuple[int, int]) -> None:
        if self._catalog_unchanged(path, stamp):
            return
        page = self._parse_file(path, stamp, note_catalog=True)
        if page is None:
            if path in self._stamps:
                self._drop_page(path)
            return
        is_new = path not in self._stamps
        self.pages.put(page, stamp, time.time_ns())
        if is_new:
            self._resolver.add(path)
            self._rerun_affected(path)
        self._index.set_links(path, link_rows(page))  # from the parse, not unpacked again
        if self._fuzzy is not None:
            self._fuzzy.add_page(path, page.title, page.aliases)
        if self._search is not None and self._search_synced and path != self.catalog:
            self._search_synced = self._search.sync_one(path, stamp, (page.title, self._search_text(path)))

    def _drop_page(self, path: str) -> None:
        if path == self.catalog:
            self._catalog_digest = None
        self.pages.remove(path)
        self._index.remove_source(path)
        self._resolver.remove(path)
        self._rerun_affected(path)
        if self._fuzzy is not None:
            self._fuzzy.remove_page(path)
        if self._search is not None and self._search_synced:
            self._search_synced = self._search.remove(path)

    def _file_presence_changed(self, path: str) -> None:
        if path in self._files:
            self._resolver.add(path)
        else:
            self._resolver.remove(path)
        self._rerun_affected(path)

    def _rerun_affected(self, path: str) -> None:
        self._index.reresolve_named(path)

    @property
    def _stamps(self) -> dict[str, tuple[int, int]]:
        return self.pages.stamps

    # -- lookups -----------------------------------------------------------------------------
    @property
    def resolved_links(self) -> dict[str, dict[str, int]]:
        """source -> {target path: count} for every page (built on each call: a full read)."""
        with self._lock:
            return self._index.resolved(self.pages.stamps)

    def by_page_set(self, key: str, build: Callable[[list[str]], T]) -> T:
        """`build(paths)` of every page path, kept until a page is added or removed: what is
        derived from the page names alone (the changes' twin index: 10k names keyed once, not
        once per reply). The result is shared: it must not be changed by its users."""
        with self._lock:
            pages = self.pages
            held = self._by_page_set.get(key)
            if held is not None and held[0] is pages and held[1] == pages.generation:
                return held[2]
            value = build(list(pages))
            self._by_page_set[key] = (pages, pages.generation, value)
            return value

    def linking_to(self, path: str) -> dict[str, int]:
        """source -> how many of its links resolve to `path` (one indexed query)."""
        with self._lock:
            return self._index.sources_linking(path)

    @property
    def unresolved_links(self) -> dict[str, dict[str, int]]:
        """source -> {linkpath as written: count} for every page (built on each call)."""
        with self._lock:
            return self._index.unresolved(self.pages.stamps)

    def _is_big(self) -> bool:
        return len(self.pages) >= FREEZE_MIN_PAGES

    def _abs(self, rel: str) -> Path:
        """Where a vault path lives on disk (its NFD spelling, if that is what is there)."""
        return Path(os.path.join(self._root_str, self._disk.get(rel, rel)))

    def is_page(self, path: str) -> bool:
        try:
            return self._clean(path) in self.pages
        except VaultError:
            return False

    def is_raw(self, path: str) -> bool:
        try:
            return is_raw_path(self._clean(path))
        except VaultError:
            return False

    def _clean(self, path: str) -> str:
        """`layout.clean_path` for this vault, the root's real path worked out once."""
        if self._real_root is None:
            self._real_root = os.path.realpath(self.root)
        return clean_path(self.root, path, real_root=self._real_root)

    def read_text(self, path: str) -> str:
        """A vault file's text (invalid UTF-8 shown as U+FFFD); refuses paths outside the vault."""
        rel = self._clean(path)
        try:
            text, _warnings = read_page_text(self._abs(rel))
        except FileNotFoundError:
            raise VaultError(f"{rel} does not exist") from None
        except IsADirectoryError:
            raise VaultError(f"{rel} is a folder") from None
        except OSError as exc:
            raise VaultError(f"cannot read {rel}: {exc.strerror or exc}") from None
        return text

    def page(self, path_or_name: str) -> Page | None:
        """A page by exact path (with or without .md), else resolved like a link from the root,
        else by title or alias."""
        with self._lock:
            key = path_or_name.strip()
            if not key:
                return None
            for candidate in (key, key + ".md"):
                if candidate in self.pages:
                    return self.pages[candidate]
            target = self._resolver.resolve(key, "")
            if target in self.pages:
                return self.pages[target]
            via_alias = self.resolve_alias(key)
            return self.pages[via_alias] if via_alias else None

    def page_meta(self, path: str) -> Page | None:
        """A page by exact path without its links (title, frontmatter, headings: what a page
        header shows), not kept in memory; None when it is not a page."""
        with self._lock:
            return self.pages.meta(path)

    def resolve(self, target: str, from_path: str = "") -> str | None:
        with self._lock:
            return self._resolver.resolve(target, from_path)

    def candidates(self, target: str, from_path: str = "") -> list[str]:
        with self._lock:
            return self._resolver.candidates(target, from_path)

    def resolve_alias(self, name: str) -> str | None:
        """A page whose title or alias equals `name` (case-insensitive): a convenience, not an
        Obsidian link target. Several: the shortest path wins."""
        key = link_key(name.strip())
        if not key:
            return None
        with self._lock:
            return self._store.name_owner(key)

    def resolve_aliases(self, names: list[str]) -> dict[str, str]:
        """resolve_alias of each of `names` that has an answer (name -> path), in one query."""
        keys = {name: link_key(name.strip()) for name in names}
        with self._lock:
            owners = self._store.name_owners(sorted({k for k in keys.values() if k}))
        return {name: owners[key] for name, key in keys.items() if key in owners}

    def outgoing(self, path: str) -> list[tuple[Link, str | None, bool]]:
        """(link, target path or None, resolved via alias) for each link on the page."""
        with self._lock:
            rel = self._clean(path)
            if rel not in self.pages:
                raise VaultError(f"{rel} is not a page of this vault")
            page = self.pages[rel]
            targets = self._index.targets_of(rel, link_rows(page))
            out = []
            for link, target in zip(page.links, targets):
                via_alias = False
                if target is None and link.kind != "external" and link.target:
                    alias_target = self.resolve_alias(link.target)
                    if alias_target:
                        target, via_alias = alias_target, True
                out.append((link, target, via_alias))
            return out

    def backlinks(self, path: str, *, context: bool = True,
                  include_listings: bool | None = None) -> list[Backlink]:
        """Linked mentions: links in other pages (frontmatter too) that resolve to `path`,
        then links that only match one of its titles or aliases (via_alias). `context=False`
        leaves each link's line text empty and reads no file (the index alone). The listings
        (index.md, log.md) count only with `include_listings` (default: `show_listings`)."""
        with self._lock:
            found = linked_mentions(self, self._clean(path), context=context)
        if not self._listings(include_listings):
            listings = self.listing_pages
            found = [b for b in found if b.source not in listings]
        return found

    def unlinked_mentions(self, path: str, limit: int = 500, *,
                          include_listings: bool | None = None) -> list[Mention]:
        """Plain-text occurrences of the page's title, file name or aliases in other pages,
        outside links, code, comments and frontmatter (whole words, case-insensitive)."""
        return unlinked_mentions(self, self._clean(path), limit,
                                 include_listings=self._listings(include_listings))

    def _listings(self, include: bool | None) -> bool:
        return self.show_listings if include is None else include

    # -- tags, folders, types ----------------------------------------------------------------
    def tags(self) -> dict[str, list[str]]:
        """tag (first spelling seen) -> pages; tags compare case-insensitively."""
        with self._lock:
            spelling: dict[str, str] = {}
            pages: dict[str, list[str]] = {}
            for path, tag, key in self._store.tag_rows():
                spelling.setdefault(key, tag)
                pages.setdefault(key, []).append(path)
            return {spelling[k]: v for k, v in sorted(pages.items())}

    def pages_tagged(self, tag: str) -> list[str]:
        """Pages carrying `tag` (with or without "#", any case), by path."""
        with self._lock:
            return self._store.pages_tagged(tag)

    def by_folder(self) -> dict[str, list[str]]:
        with self._lock:
            out: dict[str, list[str]] = {}
            for path in sorted(self.pages.stamps):
                out.setdefault(path.rpartition("/")[0], []).append(path)
            return out

    def by_type(self) -> dict[str | None, list[str]]:
        with self._lock:
            out: dict[str | None, list[str]] = {}
            for path, _title, _summary, page_type in self._store.page_rows():
                out.setdefault(page_type, []).append(path)
            return out

    def page_rows(self) -> list[tuple[str, str, object, object]]:
        """(path, title, summary, type) of every page, by path: one read of the store, no
        page built (index.md, page lists)."""
        with self._lock:
            return self._store.page_rows()

    # -- inside one page ---------------------------------------------------------------------
    def headings(self, path: str) -> list[tuple[int, str, int]]:
        """(level, text, line) of each heading of a page, in order."""
        return [(h[0], h[1], h[2]) for h in self._cold(path).headings]

    def block_ids(self, path: str) -> list[str]:
        """The page's block ids (`^id`), in order."""
        return list(self._cold(path).block_ids)

    def properties(self, path: str) -> dict:
        """The page's frontmatter properties as parsed."""
        return dict(self._cold(path).frontmatter)

    def _cold(self, path: str):
        rel = self._clean(path)
        with self._lock:
            record = self.pages.record(rel)
        if record is None:
            raise VaultError(f"{rel} is not a page of this vault")
        return record_cold(record)

    # -- finder and search -------------------------------------------------------------------
    def find(self, query: str, limit: int = 50) -> list[FindHit]:
        with self._lock:
            return self._fuzzy_index().find(query, limit)

    def search(self, query: str, limit: int = 20, *, include_listings: bool | None = None) -> list[SearchHit]:
        """Full-text hits, best first; log.md only with `include_listings` (default:
        `show_listings`), and then after the pages. index.md is not searched at all: it holds
        the pages' titles and summaries, which their own hits carry."""
        with self._lock:
            index = self._search_index()
        return index.search(query, limit, include_listings=self._listings(include_listings),
                            listings=self.listing_pages)

    def prepare(self) -> None:
        """Build the finder and the search database now (call from a worker thread)."""
        with self._lock:
            self._fuzzy_index()
            self._search_index()

    def release_memory(self) -> None:
        """Give back what a load's full scans left in SQLite's page caches (~11 MB at 50k
        pages; they grow again, up to their caps, only as queries need pages). Call once the
        vault is loaded and prepared, before `heap.give_back`."""
        with self._lock:
            self._store.release_memory()
            if self._search is not None:
                self._search.release_memory()

    def _fuzzy_index(self) -> FuzzyIndex:
        if self._fuzzy is None:
            fuzzy = FuzzyIndex()
            # frozen on a big vault: every later full collection would walk it (~150 ms at 10k
            # pages, a visible stall). A small one is not: that would also pin cyclic garbage.
            with no_gc(self._is_big):
                fuzzy.build(self._store.titles())
            self._fuzzy = fuzzy
        return self._fuzzy

    def _search_index(self) -> SearchIndex:
        if self._search is None:
            self._search = SearchIndex(self._state_file(SEARCH_DB))  # None: in memory
        if not self._search_synced:
            # index.md is left out: its text is every page's title and summary, which the pages'
            # own hits carry (and indexing its 6.5 MB again after each accept cost seconds at 50k)
            catalog = self.catalog
            searched = {p: st for p, st in self._stamps.items() if p != catalog}
            self._search_synced = self._search.sync(searched, self._search_load) >= 0
        return self._search

    def _search_load(self, path: str) -> tuple[str, str] | None:
        title = self._store.title(path)
        if title is None:
            return None
        try:
            return title, self._search_text(path)
        except VaultError:
            return None

    def _search_text(self, path: str) -> str:
        return self.read_text(path)

    # -- lint --------------------------------------------------------------------------------
    def lint(self):
        from wiki_tui.vault.lint import lint_vault

        return lint_vault(self)  # it takes the lock a step of pages at a time

    def lint_changes(self, files: dict[str, str | None], *, proposed: Proposed | None = None):
        """Findings the proposed texts would introduce (lint.py); `proposed`: the vault after
        them (proposed.py), when the caller reads it too."""
        from wiki_tui.vault.lint import lint_changes

        with self._lock:
            return lint_changes(self, files, proposed=proposed)

    # -- watching ----------------------------------------------------------------------------
    def start_watching(
        self, callback: Callable[[list[tuple[str, str]]], None] | None = None, *, wait: bool = False
    ) -> None:
        """Feed outside changes into the index from a thread; `callback([(change, path)])` runs
        on that thread after the index is updated. `wait`: return once it is observing."""
        from wiki_tui.vault.watch import VaultWatcher

        self.stop_watching()
        self._watcher = VaultWatcher(self, callback)
        self._watcher.start(wait=wait)

    def stop_watching(self) -> None:
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None

    # -- persistence -------------------------------------------------------------------------
    def save_cache(self) -> bool:
        """The index is written as it changes; this folds its log into the database. False
        when it lives in memory (the state folder cannot be written)."""
        with self._lock:
            self._store.checkpoint()
            return self._store.on_disk

    def settle(self) -> None:
        """Wait until the databases' upkeep after the writes so far (folding their logs,
        merging the search index: wal.py) is done. Tests and benchmarks; nothing needs it."""
        self._store.settle()
        search = self._search
        if search is not None:
            search.settle()

    def close(self) -> None:
        self.stop_watching()
        with self._lock:
            self._store.close()
            if self._search is not None:
                self._search.close()
                self._search = None
                self._search_synced = False

    def __enter__(self) -> "Vault":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Vault({str(self.root)!r}, {len(self.pages)} pages)"


FREEZE_MIN_PAGES = 2000  # below this the GC walk is cheap; freezing is not worth its cost


__all__ = ["Vault", "Backlink", "Mention"]
