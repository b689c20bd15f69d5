"""Top pages per common word: lists that spare a search for common words from scoring every page
that holds them.

FTS5's bm25 costs about a microsecond for each matching page and a pass over each word's whole
list of pages for its IDF, so a word held by a fifth of 50,000 pages costs ~15 ms to rank, however
few hits are shown. For a token (a word, or a prefix while typing) held by at least COMMON_DOCS
pages, `Impacts` keeps the LIST_SIZE pages where the token weighs most in BM25, each with its
weighted count (title x10 + body), whether the title holds it, and its length: built on first use
from one FTS5 scoring of the pages holding it, stored beside the FTS5 table, kept in step on
every write (a page written is counted here, lowercased with accents folded: what FTS5's
tokenizer matches, but for rare characters). Two caps go with a list: its floor (no page outside
the list weighs more for the token) and its body cap (no page holding the token only in its body
weighs more). A prefix that only one indexed word starts with uses that word's list.

An AND of common tokens (one word, or several, with words left out) is ranked here with the
same BM25 as FTS5 (k1, b, IDF, column weights) by the threshold algorithm: the candidates are
the union of its tokens' lists and, for several words, the pages holding all of them in their
titles (few, found by FTS5 without scoring); a candidate's count for a token it is not listed
under is read from its text, best possible score first, until no unread candidate can beat the
limit-th best. The answer is only given when it also beats what a page in no list could score
(it must hold some word in its body only: the floors, one of them lowered to its body cap), so
it is FTS5's answer; otherwise `rank` gives None and the caller ranks with FTS5 in full, as it
does for a rare word (FTS5's AND skips through its short list), a phrase, or an OR.
"""

from __future__ import annotations

import heapq
import math
import re
import sqlite3
import unicodedata

K1, B = 1.2, 0.75  # FTS5's bm25 constants
COMMON_DOCS = 1000  # a token held by this many pages gets a list (FTS5 ranks rarer ones in ~1 ms)
LIST_SIZE = 256  # pages kept per token
MAX_READS = 256  # candidate texts a query may read before FTS5 ranks it instead
LISTS_HELD = 32  # lists held in memory between writes (the last searched)
MAX_LISTS = 256  # lists kept (each costs a little on every page written); the oldest go first
AVGDL_DRIFT = 0.05  # a list is rebuilt once the mean page length moved this much since
_BATCH = 32  # candidates whose text is read at once
_TOKEN = re.compile(r'"([a-z0-9]+)"(\*?)')  # a quoted ASCII word, or a prefix while typing

SCHEMA = """
CREATE TABLE impact_lists(token TEXT PRIMARY KEY, floor REAL NOT NULL, body_cap REAL NOT NULL,
                          avgdl REAL NOT NULL);
CREATE TABLE impacts(token TEXT NOT NULL, id INTEGER NOT NULL, freq REAL NOT NULL,
                     titled INTEGER NOT NULL, size INTEGER NOT NULL,
                     PRIMARY KEY(token, id)) WITHOUT ROWID;
CREATE INDEX impacts_id ON impacts(id);
"""
DROP = "DROP TABLE IF EXISTS impacts; DROP TABLE IF EXISTS impact_lists;"


class Impacts:
    """The lists of one FTS5 table `docs(title, body)`; `weights` are bm25's column weights."""

    def __init__(self, weights: tuple[float, float]) -> None:
        self.weights = weights
        self._df: dict[str, int] = {}  # pages per token, until the next write
        self._words: dict[str, str] = {}  # a prefix's one word, until the next write
        self._held: dict[str, tuple] = {}  # lists read lately, until the next write
        self._version = None
        self._vocab = False

    # -- ranking ---------------------------------------------------------------------------
    def rank(self, conn: sqlite3.Connection, group, excluded, limit: int) -> list[tuple[int, float]] | None:
        """(rowid, bm25) best first for the AND of the quoted tokens of `group`, without pages
        holding an `excluded` word; None when FTS5 should rank this query itself."""
        if limit <= 0 or not group or not all(_TOKEN.fullmatch(tok) for tok in group):
            return None
        phrases = [self._canonical(conn, tok) for tok in group]
        if not all(_TOKEN.fullmatch(f'"{w}"') for w in excluded):
            return None
        rows, avgdl = corpus(conn)
        if not rows:
            return None
        df = {tok: self.doc_count(conn, tok) for tok in dict.fromkeys(phrases)}
        if any(n < COMMON_DOCS for n in df.values()):
            return None  # FTS5's AND skips through a rare word's short list: cheap
        titled_all = self._titled_all(conn, phrases)
        if titled_all is not None and len(titled_all) < limit:
            return None  # the rest of the answer holds a word in the body only: no list orders those
        lists = {tok: self._list(conn, tok, df[tok], rows, avgdl) for tok in df}
        idf = {tok: _idf(rows, df[tok]) for tok in df}
        model = _Model(avgdl, idf, phrases, excluded, self.weights, lists)
        known: dict[int, dict[str, tuple[float, int]]] = {}  # candidate -> token -> (freq, titled)
        sizes: dict[int, int] = {}
        for tok, (_, _, entries) in lists.items():
            for rowid, freq, titled, size in entries:
                entry = known.get(rowid)
                if entry is None:
                    known[rowid] = {tok: (freq, titled)}
                    sizes[rowid] = size
                else:
                    entry[tok] = (freq, titled)
        top = sum(model.cap[tok] for tok in phrases)
        bound = {rowid: top for rowid in titled_all or () if rowid not in known}
        for rowid, entry in known.items():
            bound[rowid] = model.upper(entry, sizes[rowid], titled_all, rowid)
        for rowid in titled_all or ():
            known.setdefault(rowid, {})
        order = sorted(bound, key=bound.__getitem__, reverse=True)
        best: list[tuple[float, int]] = []  # a heap of the `limit` best (score, -rowid)
        reads = 0
        for start in range(0, len(order), _BATCH):
            if len(best) >= limit and bound[order[start]] <= best[0][0]:
                break
            batch = order[start : start + _BATCH]
            wanted = [r for r in batch if model.needs_text(known[r])]
            reads += len(wanted)
            if reads > MAX_READS:
                return None
            texts = _texts(conn, wanted)
            for rowid in batch:
                text = texts.get(rowid)
                score = model.score(known[rowid], text[2] if text else sizes[rowid], text)
                if score is None:
                    continue
                item = (score, -rowid)
                if len(best) < limit:
                    heapq.heappush(best, item)
                elif item > best[0]:
                    heapq.heapreplace(best, item)
        if len(best) < limit or best[0][0] < model.unseen(titled_all):
            return None  # a page in no list might rank higher
        return [(-neg, -score) for score, neg in sorted(best, reverse=True)]

    @staticmethod
    def _titled_all(conn, group) -> set[int] | None:
        """The pages holding every word of an AND in their titles; None for a single word, or
        when there are too many to read."""
        if len(group) < 2:
            return None
        expr = "title : (" + " ".join(group) + ")"
        found = {r for (r,) in conn.execute("SELECT rowid FROM docs WHERE docs MATCH ? LIMIT ?",
                                            (expr, LIST_SIZE))}
        return found if len(found) < LIST_SIZE else None

    def _list(self, conn, token: str, df: int, rows: int, avgdl: float):
        """(floor, body_cap, [(rowid, freq, titled, size)]) of a common token: as held or stored,
        or built when missing or stale. The caps were set at the mean page length of their day;
        a page's weight grows at most in proportion to that mean, so they are scaled up by it."""
        held = self._held.get(token)
        if held is None:
            stored = conn.execute("SELECT floor, body_cap, avgdl FROM impact_lists WHERE token=?",
                                  (token,)).fetchone()
            if stored and abs(stored[2] - avgdl) <= AVGDL_DRIFT * stored[2]:
                entries = conn.execute("SELECT id, freq, titled, size FROM impacts WHERE token=?",
                                       (token,)).fetchall()
                held = (*stored, entries, True)
            else:
                floor, body_cap, entries = self._build(conn, token, df, rows, avgdl)
                held = (floor, body_cap, avgdl, entries, False)
            if len(self._held) >= LISTS_HELD:
                del self._held[next(iter(self._held))]
        floor, body_cap, built_at, entries, stored = held
        if not stored:  # built now, or not stored yet (another process was writing)
            stored = self._try(conn, lambda: self._store(conn, token, floor, body_cap, built_at, entries))
        self._held[token] = (floor, body_cap, built_at, entries, stored)
        scale = max(1.0, avgdl / built_at)
        return floor * scale, body_cap * scale, entries

    @staticmethod
    def _try(conn, write) -> bool:
        """A write the search can do without: not waited for when another process holds the
        database (the list is used unstored this time)."""
        wait = conn.execute("PRAGMA busy_timeout").fetchone()[0]
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            write()
            return True
        except sqlite3.OperationalError:
            return False
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(wait)}")

    def _build(self, conn, token: str, df: int, rows: int, avgdl: float):
        """From one FTS5 scoring of every page holding the token (about the cost of ranking it):
        the best LIST_SIZE, each one's weighted count following from its bm25 score, the token's
        IDF and the page's length; the floor; the body cap, the best of the pages FTS5 does not
        find the token in the title of."""
        scored = conn.execute(
            f"SELECT rowid, bm25(docs, {self.weights[0]}, {self.weights[1]}) FROM docs WHERE docs MATCH ?",
            (token,),
        ).fetchall()
        titled = {r for (r,) in conn.execute("SELECT rowid FROM docs WHERE docs MATCH ?", (f"title : {token}",))}
        best = heapq.nsmallest(LIST_SIZE, scored, key=lambda row: (row[1], row[0]))
        idf = _idf(rows, df)
        sizes = _sizes(conn, [r for r, _ in best])
        entries = [(r, _unsaturate(-score / idf, sizes.get(r, 0), avgdl), int(r in titled), sizes.get(r, 0))
                   for r, score in best]
        if len(best) < LIST_SIZE:
            return 0.0, 0.0, entries  # every page holding it is listed
        body_best = min((score for r, score in scored if r not in titled), default=0.0)
        return -best[-1][1] / idf, -body_best / idf, entries

    def _store(self, conn, token: str, floor: float, body_cap: float, avgdl: float, entries) -> None:
        conn.execute("SAVEPOINT impact")
        try:
            self._drop(conn, token)
            count = conn.execute("SELECT count(*) FROM impact_lists").fetchone()[0]
            if count >= MAX_LISTS:
                oldest = conn.execute("SELECT token FROM impact_lists ORDER BY rowid LIMIT 1").fetchone()[0]
                self._drop(conn, oldest)
            conn.execute("INSERT INTO impact_lists VALUES(?,?,?,?)", (token, floor, body_cap, avgdl))
            conn.executemany("INSERT INTO impacts VALUES(?,?,?,?,?)", [(token, *e) for e in entries])
            conn.execute("RELEASE impact")
        except BaseException:
            conn.execute("ROLLBACK TO impact")
            conn.execute("RELEASE impact")
            raise

    @staticmethod
    def _drop(conn, token: str) -> None:
        conn.execute("DELETE FROM impacts WHERE token=?", (token,))
        conn.execute("DELETE FROM impact_lists WHERE token=?", (token,))

    def _canonical(self, conn, token: str) -> str:
        """A prefix that only one indexed word starts with stands for that word (the same pages,
        counts and IDF), whose list serves it: typing "revi" once "review" has a list."""
        word, star = _TOKEN.fullmatch(token).groups()  # type: ignore[union-attr]
        if not star:
            return token
        self._check_version(conn)
        if token not in self._words:
            if not self._vocab:
                conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.impact_vocab USING fts5vocab(main, 'docs', 'row')")
                self._vocab = True
            terms = conn.execute("SELECT term FROM temp.impact_vocab WHERE term >= ? AND term < ? LIMIT 2",
                                 (word, word[:-1] + chr(ord(word[-1]) + 1))).fetchall()
            self._words[token] = f'"{terms[0][0]}"' if len(terms) == 1 and _TOKEN.fullmatch(f'"{terms[0][0]}"') else token
        return self._words[token]

    def doc_count(self, conn, token: str) -> int:
        """Pages matching a quoted token (kept until the next write, here or by another process)."""
        self._check_version(conn)
        if token not in self._df:
            self._df[token] = conn.execute("SELECT count(*) FROM docs WHERE docs MATCH ?", (token,)).fetchone()[0]
        return self._df[token]

    def _check_version(self, conn) -> None:
        """Another process's write changes data_version: counts cached before it are stale."""
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._version:
            self._forget()
            self._version = version

    # -- keeping in step (inside the writer's transaction) ----------------------------------
    def _forget(self) -> None:
        self._df.clear()
        self._words.clear()
        self._held.clear()

    def written(self, conn, rowid: int, title: str, text: str) -> None:
        """A page was inserted as `rowid`: it joins each list it now ranks in, and raises the
        body cap of each token it holds only in its body past that cap."""
        self._forget()
        lists = conn.execute("SELECT token, floor, body_cap, avgdl FROM impact_lists").fetchall()
        if not lists:
            return
        size = _sizes(conn, [rowid]).get(rowid, 0)
        low_title, low_text = fold(title), fold(text)
        rows, caps = [], []
        for token, floor, body_cap, avgdl in lists:
            word, star = _TOKEN.fullmatch(token).groups()  # type: ignore[union-attr]
            in_title = count(low_title, word, bool(star))
            freq = self.weights[0] * in_title + self.weights[1] * count(low_text, word, bool(star))
            if not freq:
                continue
            weight = _saturate(freq, size, avgdl)
            if weight > floor:
                rows.append((token, rowid, freq, int(in_title > 0), size))
            if not in_title and weight > body_cap:
                caps.append((weight, token))
        conn.executemany("INSERT OR REPLACE INTO impacts VALUES(?,?,?,?,?)", rows)
        conn.executemany("UPDATE impact_lists SET body_cap=? WHERE token=?", caps)

    def removed(self, conn, rowid: int) -> None:
        self._forget()
        conn.execute("DELETE FROM impacts WHERE id=?", (rowid,))

    def clear(self, conn) -> None:
        """Many pages changed: drop every list (each is rebuilt when next searched)."""
        self._forget()
        conn.execute("DELETE FROM impacts")
        conn.execute("DELETE FROM impact_lists")


class _Model:
    """BM25 of one query over candidates, as FTS5 computes it: each phrase (a token, repeated
    tokens counted again) adds idf * (k1 + 1) f / (f + k1 (1 - b + b D / avgdl)); and the bounds
    of what an unread page can score."""

    def __init__(self, avgdl, idf, phrases, excluded, weights, lists) -> None:
        self.avgdl, self.idf, self.phrases = avgdl, idf, phrases
        self.excluded, self.weights = excluded, weights
        self.tokens = [(tok, *_TOKEN.fullmatch(tok).groups()) for tok in idf]  # type: ignore[misc]
        self.cap = {tok: idf[tok] * floor for tok, (floor, _, _) in lists.items()}
        # what a token adds at most on a page that holds it in its body only, not listed
        self.gap = {tok: self.cap[tok] - idf[tok] * min(floor, body_cap) for tok, (floor, body_cap, _) in lists.items()}

    def upper(self, entry: dict, size: int, titled_all: set[int] | None, rowid: int) -> float:
        """The most the page can score: listed tokens counted, the others at their floors; when
        the page is not titled with every word yet is with each listed one, a missing word is in
        its body only (at its body cap)."""
        norm = K1 * (1 - B + B * size / self.avgdl)
        total, gap, titled = 0.0, None, True
        for tok in self.phrases:
            hit = entry.get(tok)
            if hit is None:
                total += self.cap[tok]
                gap = self.gap[tok] if gap is None else min(gap, self.gap[tok])
            else:
                total += self.idf[tok] * hit[0] * (K1 + 1) / (hit[0] + norm)
                titled = titled and hit[1]
        if gap is not None and titled and titled_all is not None and rowid not in titled_all:
            total -= gap
        return total

    def unseen(self, titled_all: set[int] | None) -> float:
        """The best a page in no list (and not titled with every word of the AND) can score."""
        total = sum(self.cap[tok] for tok in self.phrases)
        return total - min(self.gap[tok] for tok in self.phrases) if titled_all is not None else total

    def needs_text(self, entry: dict) -> bool:
        return bool(self.excluded) or len(entry) < len(self.idf)

    def score(self, entry: dict, size: int, text: tuple[str, str, int] | None) -> float | None:
        """The page's score, or None when it does not match (an AND missing a word, an excluded
        word present, or the page is gone)."""
        freqs = {tok: freq for tok, (freq, _) in entry.items()}
        if self.needs_text(entry):
            if text is None:
                return None
            title, body = fold(text[0]), fold(text[1])
            if any(count(title, w, False) or count(body, w, False) for w in self.excluded):
                return None
            for tok, word, star in self.tokens:
                if tok not in freqs:
                    freqs[tok] = (self.weights[0] * count(title, word, bool(star))
                                  + self.weights[1] * count(body, word, bool(star)))
        if not all(freqs[tok] > 0 for tok in self.phrases):
            return None
        return sum(self.idf[tok] * _saturate(freqs[tok], size, self.avgdl)
                   for tok in self.phrases if freqs[tok] > 0)


def _saturate(freq: float, size: int, avgdl: float) -> float:
    return freq * (K1 + 1) / (freq + K1 * (1 - B + B * size / avgdl))


def _unsaturate(weight: float, size: int, avgdl: float) -> float:
    """The weighted count that gives `weight` on a page of `size` tokens."""
    return weight * K1 * (1 - B + B * size / avgdl) / max(K1 + 1 - weight, 1e-9)


def _idf(rows: int, hits: int) -> float:
    idf = math.log((rows - hits + 0.5) / (hits + 0.5))
    return idf if idf > 0 else 1e-6  # FTS5 clamps the IDF of a word in over half the pages


def corpus(conn) -> tuple[int, float]:
    """(pages, mean page length in tokens) from FTS5's own totals record."""
    row = conn.execute("SELECT block FROM docs_data WHERE id = 1").fetchone()
    values = varints(row[0]) if row else []
    if not values or not values[0]:
        return 0, 0.0
    return values[0], sum(values[1:]) / values[0]


def _sizes(conn, rowids: list[int]) -> dict[int, int]:
    """Length in tokens (all columns) of each page, from FTS5's docsize table."""
    out: dict[int, int] = {}
    for lo in range(0, len(rowids), 500):
        part = rowids[lo : lo + 500]
        marks = ",".join("?" * len(part))
        for rowid, blob in conn.execute(f"SELECT id, sz FROM docs_docsize WHERE id IN ({marks})", part):
            out[rowid] = sum(varints(blob))
    return out


def _texts(conn, rowids: list[int]) -> dict[int, tuple[str, str, int]]:
    """(title, text, length in tokens) of each page."""
    if not rowids:
        return {}
    marks = ",".join("?" * len(rowids))
    return {r: (t or "", b or "", sum(varints(sz))) for r, t, b, sz in conn.execute(
        f"SELECT c.id, c.c0, c.c1, s.sz FROM docs_content c JOIN docs_docsize s ON s.id = c.id "
        f"WHERE c.id IN ({marks})", rowids)}


def varints(blob: bytes) -> list[int]:
    """SQLite's variable-length integers, one after another."""
    out, i, size = [], 0, len(blob)
    while i < size:
        value = 0
        for n in range(9):
            byte = blob[i]
            i += 1
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        out.append(value)
    return out


def fold(text: str) -> str:
    """Lowercased, accents removed: close to what FTS5's unicode61 tokenizer matches on."""
    low = text.lower()
    if low.isascii():
        return low
    return "".join(c for c in unicodedata.normalize("NFKD", low) if not unicodedata.combining(c))


def count(low: str, word: str, prefix: bool) -> int:
    """Occurrences of `word` as a whole token (or, with `prefix`, as a token's start) in folded text."""
    n, size, step = 0, len(low), len(word)
    pos = low.find(word)
    while pos >= 0:
        end = pos + step
        if (pos == 0 or not low[pos - 1].isalnum()) and (prefix or end >= size or not low[end].isalnum()):
            n += 1
        pos = low.find(word, end)
    return n
