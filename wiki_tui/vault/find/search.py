"""Full-text search: SQLite FTS5 with BM25 (title weighted above body).

FTS5 ranks, helped for common words by `impact.Impacts` (the pages where each weighs most, so a
search for them scores a few hundred pages, not every page holding them); snippets are cut here for the top hits (FTS5's `snippet()` took over a second on
one 300 KB page). The database is a cache: `files` records each page's mtime and size so a sync
re-indexes only what changed, and a broken or outdated database is simply rebuilt.
A page written commits its rows and returns: the write-ahead log is folded and FTS5's segments
merged on a thread (`wal.Folder`, `merge_step`), not inside the commit of some unlucky edit.
Queries people type (stray quotes, `AND`, `-`, `*`, parentheses) are reduced to quoted terms,
so FTS5 never sees a syntax error.
"""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from wiki_tui.vault.find.impact import DROP as DROP_IMPACTS
from wiki_tui.vault.find.impact import SCHEMA as IMPACT_SCHEMA
from wiki_tui.vault.find.impact import Impacts, corpus
from wiki_tui.vault.layout import LISTING_PAGES
from wiki_tui.vault.wal import Folder, writer_pragmas

SCHEMA_VERSION = "4"
TITLE_WEIGHT = 10.0
BODY_WEIGHT = 1.0
SNIPPET_WIDTH = 160
_SCAN_CHUNK = 32768
PREFIX_MIN = 3  # (the table keeps a 3-letter prefix index: "sel*" reads one list, not thousands)
BUSY_TIMEOUT = 5.0  # seconds to wait for another process's write on the same database
COMMON_SHARE = 0.5  # a term in more than this share of pages carries no BM25 weight
COMMON_MIN_PAGES = 200  # below this many pages, always rank plainly
BULK_WRITES = 64  # a sync writing more pages than this drops the impact lists instead of updating them
_TERM = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|_+")
_QUOTED = re.compile(r'"([^"]*)"')


@dataclass(frozen=True)
class SearchHit:
    path: str
    title: str
    score: float  # higher is better (negated BM25)
    snippet: str  # one line of the page around the best match, trimmed to ~160 chars
    line: int  # 1-based line of the snippet in the file (0 when no line matched)
    highlights: tuple[tuple[int, int], ...] = field(default=())  # (start, end) in snippet


@dataclass(frozen=True)
class ParsedQuery:
    fts: str  # the MATCH expression
    terms: tuple[str, ...]  # words to highlight (casefolded)
    prefix_last: bool  # the last term matches as a prefix (typing in progress)
    groups: tuple[tuple[str, ...], ...] = ()  # OR of ANDs of quoted FTS5 tokens
    excluded: tuple[str, ...] = ()


def build_expression(groups, excluded=()) -> str:
    expr = " OR ".join("(" + " ".join(g) + ")" if len(g) > 1 else g[0] for g in groups)
    if excluded:
        expr = f"({expr}) NOT (" + " OR ".join(f'"{w}"' for w in excluded) + ")"
    return expr


def parse_query(text: str) -> ParsedQuery | None:
    """Turn what a person typed into a safe FTS5 expression (None: nothing to search)."""
    groups: list[list[str]] = [[]]  # OR of ANDs
    terms: list[str] = []
    excluded: list[str] = []
    pos = 0
    pieces: list[tuple[str, bool]] = []  # (text, is_phrase)
    for m in _QUOTED.finditer(text):
        pieces.append((text[pos : m.start()], False))
        pieces.append((m.group(1), True))
        pos = m.end()
    pieces.append((text[pos:].replace('"', " "), False))
    last_bare = None
    seen: dict[int, set[str]] = defaultdict(set)  # the words of each AND group
    for piece, is_phrase in pieces:
        if is_phrase:
            words = [w.casefold() for w in _TERM.findall(piece)]
            if words:
                groups[-1].append('"' + " ".join(words) + '"')
                terms.extend(words)
                last_bare = None
            continue
        for raw in piece.split():
            if raw == "OR":
                if groups[-1]:
                    groups.append([])
                continue
            if raw in ("AND", "NOT"):
                continue
            negate = raw.startswith("-") and len(raw) > 1
            words = [w.casefold() for w in _TERM.findall(raw)]
            if not words:
                continue
            if negate:
                excluded.extend(w for w in words if w not in excluded)
                continue
            added = False
            for w in words:
                if f'"{w}"' not in seen[len(groups)]:  # a repeated word adds nothing but work
                    seen[len(groups)].add(f'"{w}"')
                    groups[-1].append(f'"{w}"')
                    added = True
                terms.append(w)
            last_bare = (len(groups) - 1, len(groups[-1]) - 1) if added else None
    groups = [g for g in groups if g]
    if not groups:
        return None
    prefix_last = bool(last_bare) and not text[-1:].isspace() and not text.rstrip().endswith('"')
    if prefix_last and len(terms[-1]) < PREFIX_MIN:
        prefix_last = False  # "b*" expands to every word starting with b: slow and useless
    if prefix_last:
        gi, ti = last_bare
        groups[gi][ti] += "*"
    frozen = tuple(tuple(g) for g in groups)
    return ParsedQuery(
        build_expression(frozen, excluded), tuple(dict.fromkeys(terms)), prefix_last, frozen, tuple(excluded)
    )


CRISIS_SEGMENTS = 64  # FTS5 merges a level inside a commit only once it holds this many segments
MERGE_PAGES = 16  # leaf pages one merge step writes (a few ms): what an edit may wait for


def _no_automerge(conn: sqlite3.Connection) -> None:
    """Pages written one at a time leave their segments unmerged: FTS5's automerge would merge
    them, now and then, at the commit of one edit (30-40 ms at 50k pages, against a 20 ms
    budget for re-indexing an edit). They are merged on the folder's thread instead
    (`SearchIndex.merge_step`); FTS5's crisis merge stays as the bound when that thread cannot
    keep up, at CRISIS_SEGMENTS segments a level rather than FTS5's 16: a burst of back-to-back
    edits (a script, a sync tool) reached 16 every 16th edit and paid the merge in that edit's
    commit (20-100 ms at 10k-50k pages; 5.6 / 8.0 ms worst over 60 / 40 edits at 64). A bulk sync merges as usual (it turns automerge on for its
    own run)."""
    try:
        row = conn.execute("SELECT v FROM docs_config WHERE k='automerge'").fetchone()
        if row is None or row[0] != 0:
            conn.execute("INSERT INTO docs(docs, rank) VALUES('automerge', 0)")
        row = conn.execute("SELECT v FROM docs_config WHERE k='crisismerge'").fetchone()
        if row is None or row[0] != CRISIS_SEGMENTS:
            conn.execute("INSERT INTO docs(docs, rank) VALUES('crisismerge', ?)", (CRISIS_SEGMENTS,))
    except sqlite3.OperationalError:  # read-only: the default holds
        pass


class SearchIndex:
    """The FTS5 database (a file under .wiki-tui/, or in memory). Thread-safe via one lock."""

    def __init__(self, db_path: Path | None) -> None:
        self.db_path = db_path
        self._lock = threading.RLock()
        self._impacts = Impacts((TITLE_WEIGHT, BODY_WEIGHT))
        self._conn = self._connect()
        self._folder = (Folder(self.db_path, self.merge_step, lock=self._lock, busy_timeout=BUSY_TIMEOUT)
                        if self.db_path else None)

    def _connect(self) -> sqlite3.Connection:
        target = str(self.db_path) if self.db_path else ":memory:"
        try:
            conn = self._open(target)
        except sqlite3.OperationalError:
            if not self.db_path:
                raise
            # Locked by another wiki-tui on this vault, or unwritable: never delete it, work in
            # memory this time instead.
            self.db_path = None
            conn = self._open(":memory:")
        except sqlite3.DatabaseError:
            if not self.db_path:
                raise
            self._delete_files()  # corrupt or foreign file: it is only a cache
            conn = self._open(target)
        return conn

    def _open(self, target: str) -> sqlite3.Connection:
        conn = sqlite3.connect(target, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT)
        try:
            conn.execute("PRAGMA trusted_schema=OFF")  # a database from a cloned vault is not trusted
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA cache_size=-16384")  # 16 MB: a full build runs ~15% faster
            writer_pragmas(conn)  # folded by the Folder's thread, not in an edit's COMMIT
            conn.execute("CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT)")
            row = conn.execute("SELECT value FROM meta WHERE key='version'").fetchone()
            if row is None or row[0] != SCHEMA_VERSION:
                conn.executescript(
                    DROP_IMPACTS
                    + """
                    DROP TABLE IF EXISTS docs;
                    DROP TABLE IF EXISTS files;
                    CREATE TABLE files(path TEXT PRIMARY KEY, id INTEGER UNIQUE NOT NULL,
                                       mtime INTEGER NOT NULL, size INTEGER NOT NULL);
                    CREATE VIRTUAL TABLE docs USING fts5(title, body,
                        tokenize = 'unicode61 remove_diacritics 2', prefix = '3');
                    """
                    + IMPACT_SCHEMA
                )
                conn.execute("INSERT OR REPLACE INTO meta VALUES('version', ?)", (SCHEMA_VERSION,))
            _no_automerge(conn)
        except sqlite3.DatabaseError:
            conn.close()
            raise
        return conn

    def _delete_files(self) -> None:
        assert self.db_path is not None
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(str(self.db_path) + suffix).unlink(missing_ok=True)

    def release_memory(self) -> None:
        """Free the page cache a full sync filled (SQLite's shrink_memory)."""
        with self._lock:
            self._conn.execute("PRAGMA shrink_memory")

    def close(self) -> None:
        if self._folder is not None:
            self._folder.close()  # outside the lock: its thread's merge step takes it
        with self._lock:
            self._conn.close()

    # -- upkeep off the edits' path (wal.Folder runs it) ------------------------------------
    def _wrote(self) -> None:
        if self._folder is not None:
            self._folder.wrote()

    def merge_step(self) -> bool:
        """Merge FTS5 segments a little (MERGE_PAGES leaf pages), when a level holds
        `usermerge` (4) of them; True when it did some work (call again). Never waits for
        another process's write: a locked database is left for the next round."""
        with self._lock:
            conn = self._conn
            if self.db_path is None or conn.in_transaction:
                return False
            conn.execute("PRAGMA busy_timeout=0")
            try:
                before = conn.total_changes
                conn.execute("INSERT INTO docs(docs, rank) VALUES('merge', ?)", (MERGE_PAGES,))
                return conn.total_changes - before >= 2  # FTS5's sign that it merged something
            finally:
                conn.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT * 1000)}")

    def settle(self) -> None:
        """Wait until the folder's thread has merged and folded every write so far (tests)."""
        if self._folder is not None:
            self._folder.settle()

    # -- keeping it in step ------------------------------------------------------------------
    def stamps(self) -> dict[str, tuple[float, int]]:
        with self._lock:
            return {p: (m, s) for p, m, s in self._conn.execute("SELECT path, mtime, size FROM files")}

    def sync(
        self,
        current: dict[str, tuple[float, int]],
        load: Callable[[str], tuple[str, str] | None],
    ) -> int:
        """Bring the index in step with `current` (path -> (mtime, size)); `load(path)` gives
        (title, text) or None when the file has vanished. Returns how many files were touched."""
        with self._lock:
            try:
                return self._sync(current, load)
            except sqlite3.OperationalError:
                return -1  # locked by another process: search what is there, sync next time
            except sqlite3.DatabaseError:
                self._rebuild_empty()
                return self._sync(current, load)

    def _sync(self, current, load) -> int:
        known = self.stamps()
        stale = [p for p, stamp in current.items() if known.get(p) != tuple(stamp)]
        gone = [p for p in known if p not in current]
        if not stale and not gone:
            self._wrote()  # nothing written: a round in the next pause merges what a build left
            return 0
        conn = self._conn
        bulk = len(stale) + len(gone) > BULK_WRITES
        conn.execute("BEGIN")
        try:
            if bulk:
                self._impacts.clear(conn)
                conn.execute("INSERT INTO docs(docs, rank) VALUES('automerge', 4)")  # see _no_automerge
            for path in gone:
                self._remove(path)
            next_id = (conn.execute("SELECT max(id) FROM files").fetchone()[0] or 0) + 1
            for path in stale:
                loaded = load(path)
                self._remove(path)
                if loaded is None:
                    continue
                title, text = loaded
                mtime, size = current[path]
                conn.execute("INSERT INTO files VALUES(?,?,?,?)", (path, next_id, mtime, size))
                conn.execute("INSERT INTO docs(rowid, title, body) VALUES(?,?,?)", (next_id, title, text))
                if not bulk:
                    self._impacts.written(conn, next_id, title, text)
                next_id += 1
            if bulk:
                conn.execute("INSERT INTO docs(docs, rank) VALUES('automerge', 0)")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        if len(stale) + len(gone) > 100:  # fold the big WAL in now, and shrink its file
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._wrote()  # the merging its segments still want, in the next pause
        return len(stale) + len(gone)

    def _rebuild_empty(self) -> None:
        self._conn.close()
        self._impacts = Impacts((TITLE_WEIGHT, BODY_WEIGHT))
        if self.db_path:
            self._delete_files()
        self._conn = self._connect()

    def sync_one(self, path: str, stamp: tuple[int, int] | None, loaded: tuple[str, str] | None) -> bool:
        """Replace (or with `loaded` None, remove) one page. False when the database is locked
        by another process: the caller should sync again later."""
        conn = self._conn
        with self._lock:
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError:
                return False
            try:
                self._remove(path)
                if stamp is not None and loaded is not None:
                    next_id = (conn.execute("SELECT max(id) FROM files").fetchone()[0] or 0) + 1
                    conn.execute("INSERT INTO files VALUES(?,?,?,?)", (path, next_id, *stamp))
                    conn.execute(
                        "INSERT INTO docs(rowid, title, body) VALUES(?,?,?)", (next_id, *loaded)
                    )
                    self._impacts.written(conn, next_id, *loaded)
                conn.execute("COMMIT")
            except sqlite3.OperationalError:
                _rollback(conn)
                return False
            except BaseException:
                _rollback(conn)
                raise
        self._wrote()
        return True

    def remove(self, path: str) -> bool:
        return self.sync_one(path, None, None)

    def rename(self, old: str, new: str) -> None:
        with self._lock:
            self._conn.execute("DELETE FROM files WHERE path=?", (new,))
            self._conn.execute("UPDATE files SET path=? WHERE path=?", (new, old))
        self._wrote()

    def _remove(self, path: str) -> None:
        row = self._conn.execute("SELECT id FROM files WHERE path=?", (path,)).fetchone()
        if row:
            self._conn.execute("DELETE FROM docs WHERE rowid=?", (row[0],))
            self._impacts.removed(self._conn, row[0])
            self._conn.execute("DELETE FROM files WHERE id=?", (row[0],))

    # -- queries -----------------------------------------------------------------------------
    def paths_matching(self, fts: str, limit: int = 10000) -> list[str]:
        """Paths of the pages matching a raw FTS5 expression (callers build it safely)."""
        with self._lock:
            try:
                return [
                    row[0] for row in self._conn.execute(
                        "SELECT path FROM files WHERE id IN "
                        "(SELECT rowid FROM docs WHERE docs MATCH ? LIMIT ?)",
                        (fts, limit),
                    )
                ]
            except sqlite3.OperationalError:
                return []

    def _ranked_rows(self, parsed: ParsedQuery, limit: int) -> list[tuple[int, float]]:
        """(rowid, bm25) best first.

        BM25 gives a term found in more than half the pages no weight (FTS5 clamps its idf
        to ~0), yet scoring it costs a pass over nearly every page ("the": ~13 ms on 10k
        pages). Such terms are dropped from an AND query that has other terms; a query of
        only such terms is ranked from their impact lists when there are enough pages for
        them, else ranks the pages holding them in the title, then fills up unranked.
        """
        conn = self._conn
        groups = parsed.groups
        if len(groups) == 1:
            total = corpus(conn)[0]
            if total >= COMMON_MIN_PAGES:
                common = {tok for tok in groups[0] if self._doc_share(tok, total) > COMMON_SHARE}
                if common:
                    kept = tuple(tok for tok in groups[0] if tok not in common)
                    if kept:
                        return self._rank((kept,), parsed.excluded, limit)
                    ranked = self._impacts.rank(conn, groups[0], parsed.excluded, limit)
                    if ranked is not None:
                        return ranked
                    expr = build_expression(groups, parsed.excluded)
                    rows = self._bm25(f"title : ({expr})", limit)
                    seen = {r[0] for r in rows}
                    for (rowid,) in conn.execute(
                        "SELECT rowid FROM docs WHERE docs MATCH ? LIMIT ?", (expr, limit + len(rows))
                    ):
                        if len(rows) >= limit:
                            break
                        if rowid not in seen:
                            rows.append((rowid, 0.0))
                    return rows
        return self._rank(groups, parsed.excluded, limit)

    def _rank(self, groups, excluded, limit: int) -> list[tuple[int, float]]:
        """From the impact lists when they can rank the query (an AND), else by FTS5 over every
        match."""
        ranked = self._impacts.rank(self._conn, groups[0], excluded, limit) if len(groups) == 1 else None
        return ranked if ranked is not None else self._bm25(build_expression(groups, excluded), limit)

    def _bm25(self, expr: str, limit: int) -> list[tuple[int, float]]:
        return self._conn.execute(
            f"SELECT rowid, bm25(docs, {TITLE_WEIGHT}, {BODY_WEIGHT}) AS r FROM docs "
            "WHERE docs MATCH ? ORDER BY r LIMIT ?",
            (expr, limit),
        ).fetchall()

    def _doc_share(self, token: str, total: int) -> float:
        """Share of pages holding a quoted term ('"word"'; for '"word"*' a lower bound: the pages
        holding the word itself); 0 for phrases."""
        word = token[:-1] if token.endswith('"*') else token
        if not (word.startswith('"') and word.endswith('"')) or " " in word:
            return 0.0
        return self._impacts.doc_count(self._conn, word) / total if total else 0.0

    def search(self, query: str, limit: int = 20, *, include_listings: bool = True,
               listings: tuple[str, ...] = LISTING_PAGES) -> list[SearchHit]:
        """Best first. The `listings` (the catalog and log.md) name every page, so they match
        nearly any query: left out unless `include_listings`, and then after the pages."""
        parsed = parse_query(query)
        if parsed is None or limit <= 0:
            return []
        with self._lock:
            try:
                rows = self._ranked_rows(parsed, limit + len(listings))
            except sqlite3.OperationalError:
                return []  # parse_query should prevent this; never crash on a query
            if not rows:
                return []
            marks = ",".join("?" * len(rows))
            docs = {
                rowid: rest
                for rowid, *rest in self._conn.execute(
                    "SELECT d.rowid, f.path, d.title, d.body FROM docs d JOIN files f ON f.id = d.rowid "
                    f"WHERE d.rowid IN ({marks})",
                    [r[0] for r in rows],
                )
            }
        hits = []
        for rowid, rank in rows:
            if rowid in docs:
                path, title, body = docs[rowid]
                if path in listings and not include_listings:
                    continue
                snippet, line, spans = cut_snippet(body, parsed.terms, parsed.prefix_last)
                hits.append(SearchHit(path, title, -rank, snippet, line, spans))
        # a page is not pushed past the limit by the listings (stable sort)
        hits.sort(key=lambda hit: hit.path in listings)
        return hits[:limit]


def _rollback(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("ROLLBACK")
    except sqlite3.OperationalError:  # no transaction left to roll back
        pass


def _find_terms(text: str, terms: list[str], prefix_last: bool, per_term: int = 64):
    """(start, end, term) of whole-word (for the last term while typing: prefix) occurrences.

    Works on lowercased chunks with str.find (a case-insensitive regex is ~10x slower) and stops
    after the first chunk holding any term, so a 5 MB page costs no more than a small one.
    """
    out: list[tuple[int, int, str]] = []
    size = len(text)
    for lo in range(0, max(size, 1), _SCAN_CHUNK):
        hi = min(size, lo + _SCAN_CHUNK + 256)  # overlap: a term across the boundary
        low = text[lo:hi].lower()
        if len(low) != hi - lo:  # a letter whose lowercase is longer: keep offsets aligned
            low = "".join(c.lower() if len(c.lower()) == 1 else c for c in text[lo:hi])
        for i, term in enumerate(terms):
            whole = not (prefix_last and i == len(terms) - 1)
            pos, taken = low.find(term), 0
            while 0 <= pos < _SCAN_CHUNK and taken < per_term:
                a, b = lo + pos, lo + pos + len(term)
                if (a == 0 or not text[a - 1].isalnum()) and (not whole or b >= size or not text[b].isalnum()):
                    out.append((a, b, term))
                    taken += 1
                pos = low.find(term, pos + len(term))
        if out:
            break
    return out


def cut_snippet(text: str, terms: Iterable[str], prefix_last: bool = False) -> tuple[str, int, tuple]:
    """The line holding the most distinct query terms (body before frontmatter, earliest on
    ties), trimmed around its first match to about SNIPPET_WIDTH chars; with its 1-based line
    number and highlight spans (offsets in the snippet)."""
    found = _find_terms(text, [t for t in terms if t], prefix_last)
    if not found:
        return _plain_snippet(text), 0, ()
    body_start = _body_offset(text)
    per_line: dict[int, list[tuple[int, int, str]]] = {}
    for hit in found:
        per_line.setdefault(text.rfind("\n", 0, hit[0]) + 1, []).append(hit)
    start = max(
        per_line,
        key=lambda ls: (ls >= body_start, len({h[2] for h in per_line[ls]}), text[ls] != "#", -ls),
    )
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    hits = sorted(per_line[start])
    line_no = text.count("\n", 0, start) + 1
    lo = start
    if end - start > SNIPPET_WIDTH:
        lo = max(start, min(hits[0][0] - SNIPPET_WIDTH // 3, end - SNIPPET_WIDTH))
    hi = min(end, lo + SNIPPET_WIDTH)
    prefix = "…" if lo > start else ""
    suffix = "…" if hi < end else ""
    snippet = prefix + text[lo:hi].rstrip("\r") + suffix
    shift = len(prefix) - lo
    spans = tuple((a + shift, min(b, hi) + shift) for a, b, _ in hits if lo <= a < hi)
    return snippet, line_no, spans


def _body_offset(text: str) -> int:
    """Offset just past the frontmatter (0 when there is none)."""
    if not text.startswith("---"):
        return 0
    end = re.search(r"\n(?:---|\.\.\.)[ \t]*(?:\n|$)", text)
    return end.end() if end else 0


def _plain_snippet(text: str) -> str:
    """No term found (e.g. a diacritic-folded match): the first prose line after frontmatter."""
    lines = text.splitlines()[:200]
    in_fm = bool(lines) and lines[0].strip() == "---"
    for i, line in enumerate(lines):
        if in_fm:
            if i > 0 and line.strip() in ("---", "..."):
                in_fm = False
            continue
        if line.strip() and not line.startswith("#"):
            return line.strip()[:SNIPPET_WIDTH]
    return ""
