"""The vault's index on disk: one SQLite database of pages, files, links, names and tags.

The process holds only what it shows and what every keystroke needs (the file list with its
stamps, the resolver, the finder); the rest of the index lives here and is queried: a page's
record, backlinks, unresolved links, the pages a new file could change, titles and aliases,
tags. A warm start lists the vault and compares stamps with `pages`/`files`; nothing is loaded.

Tables (schema STORE_VERSION: another version is dropped and rebuilt, never migrated):
  pages(path, mtime, size, indexed_ns, title, type, summary, aliases, record)
        one row per page. (mtime, size) say whether the file changed since it was read;
        `indexed_ns` is when it was read (a file written within 2 s of that is read again:
        its mtime cannot tell a second write apart). `record` is the page's record
        (cache.py) pickled: a Page is rebuilt from it. `aliases` joined by U+001F.
  files(path, mtime, size)
        every non-page file (raw/ and attachments): link targets.
  links(src, linkpath, n, lkey, nkey, target)
        one row per page and linkpath as written (external and same-page links are not
        stored), `n` times in the page: within one page a linkpath always means the same
        file, so a page that gains one link (index.md and a new page) changes one row.
        `target` is the resolved path or NULL (unresolved), `lkey` the linkpath lowercased
        (NFC), `nkey` its last segment without .md: the rows to look at again when a file of
        that name comes or goes.
  names(key, path)         each page's lowercased title and aliases (Vault.resolve_alias)
  tags(key, seq, tag, path) each page's tags, casefolded, as written, in page order
        names and tags are keyed by path first (WITHOUT ROWID): a page's rows lie together,
        so deleting or listing them by page needs no second index (a cold build makes two
        indexes fewer).

It is only an index: unreadable, foreign or of another version means a cold build, never an
error; a database that cannot be opened for writing (read-only folder, locked) means one in
memory for this run. Every statement runs under one lock (the watcher thread writes too).
"""

from __future__ import annotations

import io
import pickle
import sqlite3
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable

from wiki_tui.vault.indexing.cache import R, Record, SafeUnpickler, page_to_record, record_to_page
from wiki_tui.vault.indexing.resolve import link_key
from wiki_tui.vault.parse.page import Page
from wiki_tui.vault.wal import Folder, writer_pragmas

STORE_VERSION = "4"
BUSY_TIMEOUT = 5.0  # seconds to wait for another process's write
SEP = "\x1f"  # between aliases in pages.aliases
_R_TITLE, _R_TYPE, _R_SUMMARY, _R_ALIASES, _R_TAGS = (
    R["title"], R["type"], R["summary"], R["aliases"], R["tags"],
)

_SCHEMA = """
DROP TABLE IF EXISTS pages; DROP TABLE IF EXISTS files; DROP TABLE IF EXISTS links;
DROP TABLE IF EXISTS names; DROP TABLE IF EXISTS tags;
CREATE TABLE pages(path TEXT PRIMARY KEY, mtime INTEGER NOT NULL, size INTEGER NOT NULL,
                   indexed_ns INTEGER NOT NULL, title TEXT, type TEXT, summary TEXT,
                   aliases TEXT, record BLOB NOT NULL);
CREATE TABLE files(path TEXT PRIMARY KEY, mtime INTEGER NOT NULL, size INTEGER NOT NULL);
CREATE TABLE links(src TEXT NOT NULL, linkpath TEXT NOT NULL, n INTEGER NOT NULL,
                   lkey TEXT NOT NULL, nkey TEXT NOT NULL, target TEXT,
                   PRIMARY KEY(src, linkpath)) WITHOUT ROWID;
CREATE TABLE names(key TEXT NOT NULL, path TEXT NOT NULL, PRIMARY KEY(path, key)) WITHOUT ROWID;
CREATE TABLE tags(key TEXT NOT NULL, seq INTEGER NOT NULL, tag TEXT NOT NULL, path TEXT NOT NULL,
                  PRIMARY KEY(path, seq)) WITHOUT ROWID;
"""
# Secondary indexes: dropped during a cold build and made once at its end (faster than
# keeping them up to date row by row).
_INDEXES = """
CREATE INDEX IF NOT EXISTS links_target ON links(target) WHERE target IS NOT NULL;
CREATE INDEX IF NOT EXISTS links_unresolved ON links(lkey) WHERE target IS NULL;
CREATE INDEX IF NOT EXISTS links_nkey ON links(nkey);
CREATE INDEX IF NOT EXISTS names_key ON names(key);
CREATE INDEX IF NOT EXISTS tags_key ON tags(key);
"""
_DROP_INDEXES = "".join(
    f"DROP INDEX IF EXISTS {name};"
    for name in ("links_target", "links_unresolved", "links_nkey", "names_key", "tags_key")
)


class Store:
    """One connection to the index database (a file, or memory). See the module docstring."""

    def __init__(self, db_path: Path | None) -> None:
        self.db_path = db_path
        self.lock = threading.RLock()
        self._depth = 0  # nesting of transaction()
        self.fresh = False  # the tables were (re)created on opening: nothing is known
        self._conn: sqlite3.Connection | None = self._connect()
        # folds the write-ahead log on a thread, after each write transaction (wal.py)
        self._folder = Folder(self.db_path, lock=self.lock, busy_timeout=BUSY_TIMEOUT) if self.db_path else None
        self._bulk = False

    @property
    def conn(self) -> sqlite3.Connection:
        """The connection; opened again on use after close() (a closed Vault still answers)."""
        conn = self._conn
        if conn is None:
            with self.lock:
                if self._conn is None:
                    self._conn = self._connect()
                conn = self._conn
        return conn

    # -- opening -----------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        target = str(self.db_path) if self.db_path else ":memory:"
        try:
            return self._open(target)
        except sqlite3.OperationalError:
            if not self.db_path:
                raise
            self.db_path = None  # locked or unwritable: never delete it, index in memory instead
            return self._open(":memory:")
        except sqlite3.DatabaseError:
            if not self.db_path:
                raise
            self._delete_files()  # corrupt or foreign: it is only an index
            return self._open(target)

    def _open(self, target: str) -> sqlite3.Connection:
        conn = sqlite3.connect(target, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT)
        try:
            conn.execute("PRAGMA trusted_schema=OFF")  # a database from a cloned vault is not trusted
            if target != ":memory:":
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                writer_pragmas(conn)  # folded by a wal.Folder's thread, not in an edit's COMMIT
            conn.execute("PRAGMA cache_size=-8192")  # 8 MB
            conn.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT)")
            row = conn.execute("SELECT value FROM meta WHERE key='version'").fetchone()
            if row is None or row[0] != STORE_VERSION or not _tables_fit(conn):
                self._create(conn)
        except sqlite3.DatabaseError:
            conn.close()
            raise
        return conn

    def _create(self, conn: sqlite3.Connection) -> None:
        conn.executescript(_SCHEMA + _INDEXES)
        conn.execute("INSERT OR REPLACE INTO meta VALUES('version', ?)", (STORE_VERSION,))
        self.fresh = True

    def reset(self) -> None:
        """Drop and recreate every table (a database of the right version but odd content)."""
        with self.lock:
            self._depth = 0
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.OperationalError:
                pass
            self._create(self.conn)

    def _delete_files(self) -> None:
        assert self.db_path is not None
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(str(self.db_path) + suffix).unlink(missing_ok=True)

    @property
    def on_disk(self) -> bool:
        return self.db_path is not None

    @contextmanager
    def bulk(self):
        """Forget everything and fill the tables anew (a cold build): the secondary indexes
        are made once at the end."""
        if self._folder is not None:
            self._folder.settle()  # its connection closed: the journal mode can change
        with self.lock:
            conn = self.conn
            self._bulk = True  # no folding meanwhile: the build checkpoints at its end
            with self.transaction():  # no version until the build is complete: see _journal
                conn.execute("DELETE FROM meta WHERE key='version'")
            wal = self.on_disk and self._journal(conn, "MEMORY") != "wal"
            conn.execute("PRAGMA synchronous=OFF")
            conn.executescript(_DROP_INDEXES)
            with self.transaction():
                for table in ("pages", "files", "links", "names", "tags"):
                    conn.execute(f"DELETE FROM {table}")
            try:
                yield self
            finally:
                conn.executescript(_INDEXES)
                if wal:
                    self._journal(conn, "WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                self._bulk = False
            with self.transaction():
                conn.execute("INSERT OR REPLACE INTO meta VALUES('version', ?)", (STORE_VERSION,))

    @staticmethod
    def _journal(conn: sqlite3.Connection, mode: str) -> str:
        """Switch the journal mode. A cold build writes every page once, not into the WAL and
        again into the file, without syncing; if it is cut short, the database has no
        version and the next opening builds it anew (it is only an index). Another process
        holding the database keeps it in WAL: the answer says which mode holds."""
        try:
            return str(conn.execute(f"PRAGMA journal_mode={mode}").fetchone()[0]).lower()
        except sqlite3.OperationalError:
            return "wal"

    def release_memory(self) -> None:
        """Free the page cache (SQLite's shrink_memory): after a full scan it holds up to its
        cap of pages that later point queries rarely want; they read back what they need."""
        with self.lock:
            if self._conn is not None:
                self._conn.execute("PRAGMA shrink_memory")

    def close(self) -> None:
        """Close the file (an index in memory stays: it is all there is)."""
        if self._folder is not None:
            self._folder.close()
        with self.lock:
            if self._conn is not None and self.on_disk:
                try:
                    self._conn.close()
                except sqlite3.Error:
                    pass
                self._conn = None

    @contextmanager
    def transaction(self):
        """One write transaction (nested calls join the outer one)."""
        with self.lock:
            if self._depth == 0:
                self.conn.execute("BEGIN IMMEDIATE")
            self._depth += 1
            try:
                yield self.conn
            except BaseException:
                self._depth -= 1
                if self._depth == 0:
                    try:
                        self.conn.execute("ROLLBACK")
                    except sqlite3.OperationalError:
                        pass
                raise
            self._depth -= 1
            if self._depth == 0:
                self.conn.execute("COMMIT")
                if self._folder is not None and not self._bulk:
                    self._folder.wrote()

    def settle(self) -> None:
        """Wait until the log of every write so far is folded (wal.Folder.settle)."""
        if self._folder is not None:
            self._folder.settle()

    def checkpoint(self) -> None:
        """Fold the write-ahead log into the database (after a big write)."""
        if self.on_disk:
            with self.lock:
                try:
                    self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                except sqlite3.OperationalError:
                    pass  # another reader: next time

    # -- pages -------------------------------------------------------------------------------
    def put_pages(self, pages: Iterable[tuple[str, Record, tuple[int, int], int]], *, new: bool = False) -> None:
        """Store (path, record, stamp, indexed_ns) rows; `new`: none of them is stored yet."""
        rows, names, tags, paths = [], [], [], []
        dumps, protocol = pickle.dumps, pickle.HIGHEST_PROTOCOL
        for path, record, stamp, indexed_ns in pages:
            aliases = record[_R_ALIASES]
            rows.append((path, stamp[0], stamp[1], indexed_ns, record[_R_TITLE], _text(record[_R_TYPE]),
                         _text(record[_R_SUMMARY]), SEP.join(a for a in aliases if isinstance(a, str)),
                         dumps(record, protocol=protocol)))
            keys = {_name(t) for t in (record[_R_TITLE], *aliases) if isinstance(t, str)}
            names.extend((k, path) for k in keys if k)
            tags.extend((t.casefold(), i, t, path) for i, t in enumerate(record[_R_TAGS]) if isinstance(t, str))
            paths.append((path,))
        with self.transaction() as conn:
            if not new:
                conn.executemany("DELETE FROM names WHERE path=?", paths)
                conn.executemany("DELETE FROM tags WHERE path=?", paths)
            conn.executemany("INSERT OR REPLACE INTO pages VALUES(?,?,?,?,?,?,?,?,?)", rows)
            conn.executemany("INSERT OR REPLACE INTO names VALUES(?,?)", names)
            conn.executemany("INSERT OR REPLACE INTO tags VALUES(?,?,?,?)", tags)

    def defer_record(self, path: str, stamp: tuple[int, int], indexed_ns: int) -> None:
        """The page at `path` changed to `stamp` and its record is to be made when first read
        (an empty blob does not load: PageMap.record parses the page again). Its title, names
        and tags stay: the caller knows they did not change."""
        with self.transaction() as conn:
            conn.execute("UPDATE pages SET mtime=?, size=?, indexed_ns=?, record=x'' WHERE path=?",
                         (*stamp, indexed_ns, path))

    def drop_page(self, path: str) -> None:
        with self.transaction() as conn:
            for table in ("pages", "names", "tags"):
                conn.execute(f"DELETE FROM {table} WHERE path=?", (path,))

    def record(self, path: str) -> Record | None:
        """The stored record (None: none, or one that does not load)."""
        with self.lock:
            row = self.conn.execute("SELECT record FROM pages WHERE path=?", (path,)).fetchone()
        return _load(row[0]) if row else None

    def records(self) -> dict[str, Record | None]:
        with self.lock:
            rows = self.conn.execute("SELECT path, record FROM pages").fetchall()
        return {path: _load(blob) for path, blob in rows}

    def page_stamps(self) -> dict[str, tuple[int, int]]:
        """path -> (mtime_ns, size)."""
        with self.lock:
            rows = self.conn.execute("SELECT path, mtime, size FROM pages").fetchall()
        # interned: the resolver, the finder and the page map share one copy of each path
        intern = sys.intern
        return {intern(p): (m, s) for p, m, s in rows}

    def racy_pages(self, window_ns: int) -> set[str]:
        """Pages whose stored mtime is within `window_ns` of when they were read, or later:
        another write in that window would not change the mtime, so they are read again. Only
        those come back (a dict of every page's time cost 50k rows of temporaries at 50k
        pages, and the allocator kept the arenas they took: ~6 MB of RSS)."""
        with self.lock:
            rows = self.conn.execute("SELECT path FROM pages WHERE mtime >= indexed_ns - ?", (window_ns,))
            return {path for (path,) in rows}

    def meta(self, key: str) -> str | None:
        with self.lock:
            row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def put_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO meta VALUES(?, ?)", (key, value))

    def page_rows(self, paths: Iterable[str] | None = None) -> list[tuple[str, str, Any, Any]]:
        """(path, title, summary, type) of every page (or of those of `paths`), by path."""
        sql = "SELECT path, title, summary, type FROM pages"
        with self.lock:
            if paths is None:
                return self.conn.execute(sql + " ORDER BY path").fetchall()
            paths, out = list(paths), []
            for start in range(0, len(paths), 500):
                chunk = paths[start : start + 500]
                out += self.conn.execute(f"{sql} WHERE path IN ({','.join('?' * len(chunk))})", chunk)
            return sorted(out)

    def titles(self) -> Iterator[tuple[str, str, list[str]]]:
        """(path, title, aliases) of every page."""
        with self.lock:
            rows = self.conn.execute("SELECT path, title, aliases FROM pages").fetchall()
        for path, title, aliases in rows:
            yield path, title, aliases.split(SEP) if aliases else []

    def title(self, path: str) -> str | None:
        with self.lock:
            row = self.conn.execute("SELECT title FROM pages WHERE path=?", (path,)).fetchone()
        return row[0] if row else None

    def name_owner(self, key: str) -> str | None:
        """The page whose title or alias is `key` (lowercased); several: the shortest path."""
        with self.lock:
            row = self.conn.execute(
                "SELECT path FROM names WHERE key=? ORDER BY length(path), path LIMIT 1", (key,)
            ).fetchone()
        return row[0] if row else None

    def name_owners(self, keys: list[str]) -> dict[str, str]:
        """name_owner of each of `keys` that has one, in one query per 500 keys."""
        out: dict[str, str] = {}
        with self.lock:
            for i in range(0, len(keys), 500):
                chunk = keys[i:i + 500]
                rows = self.conn.execute(
                    f"SELECT key, path FROM names WHERE key IN ({','.join('?' * len(chunk))}) "
                    "ORDER BY length(path), path", chunk).fetchall()
                for key, path in rows:
                    out.setdefault(key, path)
        return out

    def tag_rows(self) -> list[tuple[str, str, str]]:
        """(path, tag as written, casefolded) in page order, pages by path."""
        with self.lock:
            return self.conn.execute("SELECT path, tag, key FROM tags ORDER BY path, seq").fetchall()

    def pages_tagged(self, tag: str) -> list[str]:
        with self.lock:
            rows = self.conn.execute(
                "SELECT DISTINCT path FROM tags WHERE key=? ORDER BY path", (tag.lstrip("#").casefold(),)
            ).fetchall()
        return [r[0] for r in rows]

    # -- other files -------------------------------------------------------------------------
    def file_stamps(self) -> dict[str, tuple[int, int]]:
        with self.lock:
            return {p: (m, s) for p, m, s in self.conn.execute("SELECT path, mtime, size FROM files")}

    def put_files(self, stamps: Iterable[tuple[str, tuple[int, int]]]) -> None:
        with self.transaction() as conn:
            conn.executemany("INSERT OR REPLACE INTO files VALUES(?,?,?)", [(p, m, s) for p, (m, s) in stamps])

    def drop_file(self, path: str) -> None:
        with self.transaction() as conn:
            conn.execute("DELETE FROM files WHERE path=?", (path,))

    # -- reading every page, a batch at a time --------------------------------------------------
    def record_batches(self, size: int = 500, contains: bytes = b"") -> Iterator[list[tuple[str, Record | None]]]:
        """Every stored (path, record), by path, `size` rows a batch: each batch one query that
        starts after the last path seen (keyset), the lock held only for it, so a reader of
        every page (the agent's page list, a property query) never holds 50k records at once
        and one that stops early reads no further. `contains`: only rows whose stored record
        holds these bytes, tested in SQL before anything is unpickled (a str in a record, its
        packed parts included, is pickled as its UTF-8 bytes where it first occurs: a page whose
        record lacks a key's bytes cannot hold the key)."""
        after = ""
        # a deferred record (an empty blob) may hold anything once made: it is let through
        where, needle = ("AND (instr(record, ?) > 0 OR length(record) = 0)", (contains,)) if contains else ("", ())
        query = f"SELECT path, record FROM pages WHERE path > ? {where} ORDER BY path LIMIT ?"
        while True:
            with self.lock:
                rows = self.conn.execute(query, (after, *needle, size)).fetchall()
            if not rows:
                return
            yield [(path, _load(blob)) for path, blob in rows]
            if len(rows) < size:
                return
            after = rows[-1][0]


_PROBES = (
    "SELECT path, mtime, size, indexed_ns, title, type, summary, aliases, record FROM pages",
    "SELECT path, mtime, size FROM files",
    "SELECT src, linkpath, n, lkey, nkey, target FROM links",
    "SELECT key, path FROM names",
    "SELECT key, seq, tag, path FROM tags",
)


def _tables_fit(conn: sqlite3.Connection) -> bool:
    """Every table has the columns the queries read (a database of the right version can still
    have been changed by hand)."""
    try:
        for probe in _PROBES:
            conn.execute(probe + " LIMIT 0").fetchall()
    except sqlite3.OperationalError:
        return False
    return True


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _name(text: str) -> str:
    return link_key(text.strip())


def _load(blob: bytes) -> Record | None:
    # The safe unpickler: the database may come from a copied vault, not from us.
    try:
        record = SafeUnpickler(io.BytesIO(blob)).load()
    except Exception:  # noqa: BLE001 - a crafted or damaged row: the page is read again
        return None
    return record if isinstance(record, tuple) and len(record) == len(R) else None


class PageMap(Mapping[str, Page]):
    """path -> Page over the store. The paths and their stamps are held in memory (`stamps`);
    a Page is built from its stored record on access, and the last OBJECTS_KEPT built are kept
    (a page with 10k links is megabytes as objects)."""

    OBJECTS_KEPT = 256
    CHANGES_KEPT = 4096  # paths noted in `changed` before it starts over (see changes_since)

    def __init__(self, store: Store | None = None,
                 reload: Callable[[str], Record | None] | None = None) -> None:
        self.store = store if store is not None else Store(None)
        self.reload = reload  # parses a page again when its stored record does not load
        self.stamps: dict[str, tuple[int, int]] = {}  # path -> (mtime_ns, size)
        self._objects: dict[str, Page] = {}  # insertion order = least recently used first
        self.generation = 0  # counts the changes to the set of paths (a page added or removed)
        self.changed: list[str] = []  # the paths stored, deferred or removed since `epoch` began
        self.epoch = 0

    def __getitem__(self, path: str) -> Page:
        page = self._objects.pop(path, None)
        if page is None:
            record = self.record(path)
            if record is None:
                raise KeyError(path)
            page = record_to_page(record)
        self._keep(path, page)
        return page

    def meta(self, path: str) -> Page | None:
        """The page without its links, not kept (see `record_to_page`); None: not a page."""
        page = self._objects.get(path)
        if page is not None:
            return page
        record = self.record(path)
        return record_to_page(record, links=False) if record is not None else None

    def _keep(self, path: str, page: Page) -> None:
        objects = self._objects
        objects[path] = page
        while len(objects) > self.OBJECTS_KEPT:
            try:  # the watcher thread may be touching the map too: drop one, whichever
                del objects[next(iter(objects))]
            except (RuntimeError, StopIteration, KeyError):
                break

    def __contains__(self, path: object) -> bool:
        return path in self.stamps

    def __iter__(self) -> Iterator[str]:
        return iter(list(self.stamps))

    def __len__(self) -> int:
        return len(self.stamps)

    def record(self, path: str) -> Record | None:
        if path not in self.stamps:
            return None
        record = self.store.record(path)
        if record is None and self.reload is not None:
            record = self.reload(path)
        return record

    def rows(self, paths: Iterable[str] | None = None) -> list[tuple[str, str, Any, Any]]:
        """(path, title, summary, type) of every page (or of those of `paths` that are pages),
        by path: no record is loaded."""
        return self.store.page_rows(paths)

    def mark(self) -> tuple[int, int]:
        """Where the log of changed paths is now (give it to changes_since later)."""
        return self.epoch, len(self.changed)

    def changes_since(self, mark: tuple[int, int]) -> set[str] | None:
        """The paths whose row may have changed since `mark` (None: too many to say, or the
        log started over: read every row again). What keeps a derived view, such as the
        catalog an apply renders, in step without reading 50k rows each time."""
        epoch, at = mark
        return set(self.changed[at:]) if epoch == self.epoch else None

    def _note(self, paths: Iterable[str]) -> None:
        if len(self.changed) >= self.CHANGES_KEPT:
            self.changed = []
            self.epoch += 1
        self.changed.extend(paths)

    def titles(self) -> list[tuple[str, str, list[str]]]:
        """(path, title, aliases) of every page."""
        return list(self.store.titles())

    def records(self) -> dict[str, Record]:
        """Every record (a full read of the pages table: ~10 µs a page; lint, not keystrokes)."""
        out = {}
        for path, record in self.store.records().items():
            if record is None and self.reload is not None and path in self.stamps:
                record = self.reload(path)
            if record is not None:
                out[path] = record
        return out

    def iter_records(self, size: int = 500, contains: bytes = b"") -> Iterator[tuple[str, Record]]:
        """(path, record) of every page, by path, read `size` at a time (Store.record_batches:
        memory stays one batch; `contains` filters on the stored bytes in SQL)."""
        for batch in self.store.record_batches(size, contains):
            for path, record in batch:
                if record is None and self.reload is not None and path in self.stamps:
                    record = self.reload(path)
                if record is not None:
                    yield path, record

    def put(self, page: Page, stamp: tuple[int, int] = (0, 0), indexed_ns: int = 0) -> Record:
        record = page_to_record(page)
        self.put_record(page.path, record, stamp, indexed_ns)
        self._keep(page.path, page)
        return record

    def put_record(self, path: str, record: Record, stamp: tuple[int, int] = (0, 0), indexed_ns: int = 0) -> None:
        self.put_records([(path, record, stamp, indexed_ns)])

    def put_records(self, rows: list[tuple[str, Record, tuple[int, int], int]], *, new: bool = False) -> None:
        """Store (path, record, stamp, indexed_ns) rows at once (`new`: none is stored yet)."""
        self.store.put_pages(rows, new=new)
        self._note(row[0] for row in rows)
        for path, _record, stamp, _ns in rows:
            if path not in self.stamps:
                self.generation += 1
            self.stamps[path] = stamp
            self._objects.pop(path, None)

    def defer(self, path: str, stamp: tuple[int, int], indexed_ns: int) -> None:
        """`path` (a stored page) changed on disk to `stamp`; its record is made again when
        next read (Store.defer_record: the caller knows its title, names and tags held)."""
        self.store.defer_record(path, stamp, indexed_ns)
        self._note((path,))
        self.stamps[path] = stamp
        self._objects.pop(path, None)

    def remove(self, path: str) -> None:
        self.store.drop_page(path)
        self._note((path,))
        if self.stamps.pop(path, None) is not None:
            self.generation += 1
        self._objects.pop(path, None)


__all__ = ["Store", "PageMap", "STORE_VERSION"]
