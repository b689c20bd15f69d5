"""Fuzzy page finder over titles, aliases and paths.

Ranking, best first (one result per page, its best-matching field):
  0 exact      the whole title/alias/path equals the query
  1 prefix     a title/alias starts with the query (paths too when the query holds "/")
  2 word       a word of a title/alias starts with the query, or the query starts the
               initials ("rm" -> "Review Meeting")
  3 fuzzy      the query's letters appear in order (abbreviations: "rvw mtg" -> "Review Meeting"),
               scored by a subsequence scorer that rewards word starts and consecutive runs.
Tiers 0-2 come from bisecting presorted key lists. Queries of one or two letters match
thousands of titles by prefix at 50k pages: for those, a prefix index (`_short`: each 1- and
2-letter prefix -> its entries already in rank order) yields the best ones first, so the walk
stops after `limit` pages and costs what a long query costs. Tier 3
only runs when they leave room: per-letter bitsets narrow the entries, rapidfuzz's LCS tests
"is a subsequence" in C++, and the Python scorer re-ranks at most a few hundred candidates.
Paths take part in tiers 1 and 3 only when the query holds "/" (a path is mostly its title).

Memory (issue 21: ~7 MB per 10k pages before, most of it per-entry objects): keys and texts
live in two `PackedStrings` (one joined str and an offsets array each, entries added later in
a short tail list), the sorted title and path keys are arrays of entry ids ordered by the key
they point at, a page's entries form a ring in one array (found from its path entry, no dict
by page), fields are one byte each. The words and initials are packed too: no str object per
key outlives a build (kept, the ~45k of a 50k-page vault pinned ~20 MB of RSS, see SortedKeys).
"""

from __future__ import annotations

import re
import sys
from array import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from rapidfuzz import process
from rapidfuzz.distance import LCSseq

MAX_RESULTS = 50
RERANK = 300  # candidates the subsequence scorer looks at
WORD_CAP = 2000  # word-prefix matches looked at (a one-letter query hits thousands)
_CHUNK = 1024
SHORT = 2  # queries up to this many letters are answered from the prefix index
_WORD = re.compile(r"[^\W_]+")
_AFTER_ALL = "\U0010ffff"  # sorts after every character a word holds
_BOUNDARY = frozenset(" -_/.()[]'\",:;&+")
FIELD_RANK = {"title": 0, "alias": 1, "path": 2}
FIELDS = ("title", "alias", "path")  # by code: the index keeps one byte per entry
_PATH = FIELD_RANK["path"]
_ID_BITS = 32  # a page's entry ids, packed into one int
_ID_MASK = (1 << _ID_BITS) - 1


@dataclass(frozen=True)
class FindHit:
    path: str
    title: str
    score: float
    matched: str  # the text that matched (title, alias or path as written)
    field: str  # "title" | "alias" | "path"


def subsequence_score(query: str, key: str) -> int:
    """Score `query` (no spaces) as a subsequence of `key`; -1 when it is not one.

    Two greedy walks (leftmost, and one preferring word starts), the better score wins; the exact
    optimum would need a DP per candidate, too slow in Python for a keystroke budget.
    """
    best = -1
    for prefer_starts in (False, True):
        positions = _walk(query, key, prefer_starts)
        if positions is not None:
            best = max(best, _score_positions(positions, key))
    return best


def _walk(query: str, key: str, prefer_starts: bool) -> list[int] | None:
    positions: list[int] = []
    pos = 0
    for ch in query:
        found = key.find(ch, pos)
        if found < 0:
            return None
        if prefer_starts and not (positions and found == positions[-1] + 1):
            probe = found
            while probe > 0 and key[probe - 1] not in _BOUNDARY:
                probe = key.find(ch, probe + 1)
            if probe >= 0:
                found = probe
        positions.append(found)
        pos = found + 1
    return positions


def _score_positions(positions: list[int], key: str) -> int:
    score = 0
    prev = -2
    for p in positions:
        score += 1
        if p == 0 or key[p - 1] in _BOUNDARY:
            score += 10
        if p == prev + 1:
            score += 6
        elif prev >= 0:
            score -= min(p - prev - 1, 6)  # gaps cost, capped
        prev = p
    score -= positions[0] // 4  # later starts cost a little
    score -= len(key) // 16  # prefer shorter keys slightly
    return score


class FuzzyIndex:
    """Incrementally maintained search structures for `Vault.find`.

    Entries (one per title, alias and path) live in parallel lists indexed by entry id; a bulk
    build numbers them shortest key first, so walking ids in order visits tight matches first.
    """

    def __init__(self) -> None:
        self._path: list[str | None] = []  # the vault's own (interned) path strings
        self._field = bytearray()  # FIELDS code of each entry
        self._text = PackedStrings()  # as written; "" for a path (its stem, derived)
        self._key = PackedStrings()  # casefolded
        # A page's entries form a ring (each names the next); a page is found by its path
        # entry. Pages without one (a blank file name) are in `_odd`, their ids packed.
        self._ring = array("i")
        self._odd: dict[str, int] = {}
        self._count = 0
        self._sorted = SortedEntries(self._key)  # titles/aliases
        self._paths = SortedEntries(self._key)  # paths without .md
        self._words = SortedKeys()  # each word of a title/alias
        self._initials = SortedKeys()  # "rm" for "Review Meeting"
        self._letters: dict[tuple[str, bool], int] = {}  # (char, is_path) -> bitset, filled lazily
        self._short: dict[str, array] = {}  # 1-2 letter prefix -> title/alias entries, rank order

    def __len__(self) -> int:
        return self._count

    # -- maintenance -------------------------------------------------------------------------
    def build(self, pages) -> None:
        """Bulk load an iterable of (path, title, aliases)."""
        self.__init__()
        paths: list[str] = []
        fields: list[int] = []
        texts: list[str] = []
        keys: list[str] = []
        for path, title, aliases in pages:
            path = sys.intern(path)  # the vault's own copy (scan_tree interns paths)
            for _, field_name, text, key in _fields(path, title, aliases):
                paths.append(path)
                fields.append(FIELD_RANK[field_name])
                texts.append(text or "")
                keys.append(key)
        order = sorted(range(len(keys)), key=lambda i: len(keys[i]))
        self._path = paths = [paths[i] for i in order]
        self._field = bytearray(fields[i] for i in order)
        texts = [texts[i] for i in order]
        self._text = PackedStrings(texts)
        del texts
        keys = [keys[i] for i in order]
        del order
        by_page: dict[str, list[int]] = {}
        names, path_ids, words, initials = [], [], [], []
        findall = _WORD.findall
        # a vault says the same words again: one string each (a dict of this build's own, not
        # sys.intern, whose table only grows: ~4 MB more at 50k pages)
        seen: dict[str, str] = {}
        same = seen.setdefault
        for eid, (path, code, key) in enumerate(zip(paths, self._field, keys)):
            by_page.setdefault(path, []).append(eid)
            if code == _PATH:
                path_ids.append(eid)
                continue
            names.append(eid)
            ws = [same(w, w) for w in findall(key)]
            words.extend([(w, eid) for w in set(ws)])
            if len(ws) > 1:
                letters = "".join([w[0] for w in ws])
                initials.append((same(letters, letters), eid))
        del seen
        self._ring = ring = array("i", [0]) * len(keys)
        for path, ids in by_page.items():
            for i, eid in enumerate(ids):
                ring[eid] = ids[i - 1]
            if not any(self._field[eid] == _PATH for eid in ids):
                self._odd[path] = _pack(ids)
        self._count = len(by_page)
        del by_page
        self._words.fill(words)
        self._initials.fill(initials)
        del words, initials
        self._build_letter_bits(keys)
        short: dict[str, list[int]] = {}
        for eid in names:
            key = keys[eid]
            for n in range(1, min(SHORT, len(key)) + 1):
                short.setdefault(key[:n], []).append(eid)
        for prefix, eids in short.items():
            eids.sort(key=self._short_rank(len(prefix), keys))
        self._sorted.fill(names, keys)
        self._paths.fill(path_ids, keys)
        self._key.extend_packed(keys)
        del keys, names, path_ids
        # Last, once most of the build's temporaries are freed: made in the loop above, the
        # prefix index's few hundred arrays sat among them and kept ~5 MB of the allocator's
        # arenas mapped at 50k pages.
        self._short = {prefix: array("i", eids) for prefix, eids in short.items()}

    def _short_rank(self, length: int, keys=None):
        """Sort key of an entry in the prefix index of `length` letters: exact first, then as
        `find` ranks prefix matches (field, key length, key, path)."""
        keys = self._key if keys is None else keys
        fields, paths = self._field, self._path
        return lambda eid: (len(keys[eid]) != length, fields[eid], len(keys[eid]), keys[eid], paths[eid])

    def _short_add(self, eid: int) -> None:
        key = self._key[eid]
        for n in range(1, min(SHORT, len(key)) + 1):
            ids = self._short.setdefault(key[:n], array("i"))
            rank = self._short_rank(n)
            ids.insert(bisect_left(ids, rank(eid), key=rank), eid)

    def _short_remove(self, eid: int) -> None:
        key = self._key[eid]
        for n in range(1, min(SHORT, len(key)) + 1):
            ids = self._short.get(key[:n])
            if ids is None:
                continue
            rank = self._short_rank(n)
            i = bisect_left(ids, rank(eid), key=rank)
            if i < len(ids) and ids[i] == eid:
                del ids[i]

    def _build_letter_bits(self, keys: list[str]) -> None:
        """Every (char, is_path) bitset in one pass, so no keystroke pays for building one.
        Bits are set in one bytearray per letter (a list of entry ids per letter first would
        hold millions of ints at 50k pages: ~50 MB the allocator keeps after they are freed)."""
        size = len(keys) // 8 + 1
        maps: dict[tuple[str, bool], bytearray] = {}
        for eid, (key, code) in enumerate(zip(keys, self._field)):
            is_path = code == _PATH
            byte, bit = eid >> 3, 1 << (eid & 7)
            for ch in set(key):
                bitmap = maps.get((ch, is_path))
                if bitmap is None:
                    bitmap = maps[ch, is_path] = bytearray(size)
                bitmap[byte] |= bit
        for letter_key, bitmap in maps.items():
            self._letters[letter_key] = int.from_bytes(bitmap, "little")

    def add_page(self, path: str, title: str, aliases: list[str]) -> None:
        fields = list(_fields(path, title, aliases))
        now = self._page_ids(path)
        if now is not None and sorted((self._field[e], self._text[e], self._key[e]) for e in now) \
                == sorted((FIELD_RANK[f], text or "", key) for _, f, text, key in fields):
            return  # the same path, title and aliases (an edit of the body): nothing to redo
        self.remove_page(path)
        ids = []
        for _, field_name, text, key in fields:
            eid = len(self._key)
            code = FIELD_RANK[field_name]
            self._path.append(path)
            self._field.append(code)
            self._text.append(text or "")
            self._key.append(key)
            self._index_keys(eid, key, code)
            bit, is_path = 1 << eid, code == _PATH
            for ch in set(key):
                self._letters[ch, is_path] = self._letters.get((ch, is_path), 0) | bit
            if code != _PATH:
                self._short_add(eid)
            ids.append(eid)
        self._ring.extend(ids[i - 1] for i in range(len(ids)))
        if not any(self._field[eid] == _PATH for eid in ids):
            self._odd[path] = _pack(ids)
        self._count += 1

    def _page_ids(self, path: str) -> list[int] | None:
        """The page's entry ids, None when it is not indexed."""
        odd = self._odd.get(path)
        if odd is not None:
            return list(_unpack(odd))
        for head in self._paths.equal(_stem(path).casefold()):
            if self._path[head] == path:
                ids, eid = [head], self._ring[head]
                while eid != head:
                    ids.append(eid)
                    eid = self._ring[eid]
                return ids
        return None

    def remove_page(self, path: str) -> None:
        ids = self._page_ids(path)
        if ids is None:
            return
        self._odd.pop(path, None)
        self._count -= 1
        for eid in ids:
            key, code = self._key[eid], self._field[eid]
            if code != _PATH:
                self._short_remove(eid)
            if code == _PATH:
                self._paths.remove(eid)
            else:
                self._sorted.remove(eid)
                words = _WORD.findall(key)
                for word in set(words):
                    self._words.remove(word, eid)
                if len(words) > 1:
                    self._initials.remove("".join(w[0] for w in words), eid)
            self._path[eid] = None  # removed entries match nothing (their ids are in no index)
            bit, is_path = ~(1 << eid), code == _PATH
            for ch in set(key):
                if (ch, is_path) in self._letters:
                    self._letters[ch, is_path] &= bit

    def _index_keys(self, eid: int, key: str, code: int) -> None:
        if code == _PATH:
            self._paths.add(eid)
            return
        self._sorted.add(eid)
        words = _WORD.findall(key)
        for word in set(words):
            self._words.add(word, eid)
        if len(words) > 1:
            self._initials.add("".join(w[0] for w in words), eid)

    def _letter_bits(self, ch: str, is_path: bool) -> int:
        """Entries holding `ch` (a char no key holds: 0; all others are built up front)."""
        return self._letters.get((ch, is_path), 0)

    # -- queries -----------------------------------------------------------------------------
    def find(self, query: str, limit: int = MAX_RESULTS) -> list[FindHit]:
        limit = max(0, min(limit, MAX_RESULTS))
        q = " ".join(query.casefold().split())
        if not q or not limit:
            return []
        best: dict[str, tuple[tuple, int]] = {}  # path -> (sort key, entry id)
        keys, fields, paths = self._key, self._field, self._path

        def offer(eid: int, tier: int, sub: int) -> None:
            key = keys[eid]
            rank = (tier, -sub, fields[eid], len(key), key, paths[eid])
            cur = best.get(paths[eid])
            if cur is None or rank < cur[0]:
                best[paths[eid]] = (rank, eid)

        for eid in self._paths.equal(q):
            offer(eid, 0, 0)
        if len(q) <= SHORT and "/" not in q:
            # in rank order: each page's first entry is its best, and after `limit` pages
            # nothing later can rank among them
            for eid in self._short.get(q, ()):
                offer(eid, 0 if keys[eid] == q else 1, 0)
                if len(best) >= limit:
                    break
        else:
            for key, eid in self._sorted.prefixed(q):
                offer(eid, 0 if key == q else 1, 0)
        if "/" in q:  # folder prefixes: alphabetical order is as good as any
            for _key, eid in self._paths.prefixed(q, cap=4 * limit):
                offer(eid, 1, 0)
        needle = q.replace(" ", "")
        if len(best) < limit:
            first_word = q.split(" ", 1)[0]
            for _length, eid in self._words.prefixed(first_word, cap=WORD_CAP):
                if " " not in q or q in keys[eid]:
                    offer(eid, 2, -keys[eid].find(first_word))
            if len(needle) > 1:
                for length, eid in self._initials.prefixed(needle, cap=WORD_CAP):
                    offer(eid, 2, len(needle) - length)
        if len(best) < limit and needle:
            self._fuzzy_tier(needle, "/" in needle, offer)
        hits = []
        for rank, eid in sorted(best.values())[:limit]:
            score = 1000.0 - 250 * rank[0] - rank[1]
            path = paths[eid]
            hits.append(FindHit(path, self._title_of(eid), score, self._shown(eid), FIELDS[fields[eid]]))
        return hits

    def _fuzzy_tier(self, needle: str, is_path: bool, offer) -> None:
        bits = -1
        for ch in set(needle):  # entries holding every letter: a superset of the matches
            bits &= self._letter_bits(ch, is_path)
            if not bits:
                return
        many = bits.bit_count() > RERANK
        keys = self._key
        taken = 0
        for chunk in _bit_chunks(bits, _CHUNK):
            if many:  # exact "is a subsequence" test in C++ first
                found = process.extract(
                    needle, keys.take(chunk), scorer=LCSseq.similarity, processor=None,
                    score_cutoff=len(needle), limit=None,
                )
                chunk = sorted(chunk[i] for _k, _s, i in found)
            for eid in chunk:
                sub = subsequence_score(needle, keys[eid])
                if sub >= 0:
                    offer(eid, 3, sub)
                    taken += 1
                    if taken >= RERANK:
                        return

    def title_for(self, path: str) -> str | None:
        """The page's title as indexed (its file stem when it has none)."""
        ids = self._page_ids(path)
        if ids is None:
            return None
        return self._title_of(ids[0]) if ids else _stem(path)

    def _title_of(self, eid: int) -> str:
        """The title of the page of entry `eid` (walking its ring), else its file stem."""
        ring, fields, title = self._ring, self._field, FIELD_RANK["title"]
        at = eid
        while fields[at] != title:
            at = ring[at]
            if at == eid:
                return _stem(self._path[eid] or "")
        return self._text[at]

    def _shown(self, eid: int) -> str:
        if self._field[eid] == _PATH:
            return _stem(self._path[eid] or "")
        return self._text[eid]


def _stem(path: str) -> str:
    return path[:-3] if path.lower().endswith(".md") else path


def _fields(path: str, title: str, aliases: list[str]):
    """(path, field, text, key) rows for one page, duplicates dropped (a path's text is None:
    its stem, derived when shown)."""
    stem = _stem(path)
    seen: set[str] = set()
    for field_name, text in [("title", title), *(("alias", a) for a in aliases), ("path", stem)]:
        if not isinstance(text, str) or not text.strip():
            continue
        key = text.casefold()
        mark = ("p" if field_name == "path" else "n") + key
        if mark not in seen:
            seen.add(mark)
            yield path, field_name, None if field_name == "path" else text, key


def _pack(ids: list[int]) -> int:
    """A page's entry ids as one int."""
    packed = 0
    for eid in reversed(ids):
        packed = (packed << _ID_BITS) | (eid + 1)  # +1: no id is 0, so the end shows
    return packed


def _unpack(packed: int | None):
    while packed:
        yield (packed & _ID_MASK) - 1
        packed >>= _ID_BITS


def _bit_chunks(bits: int, size: int):
    """Positions of the set bits, lowest first, in lists of at most `size`, made as they are
    asked for: a query with enough matches in its first entries does not turn a bitset of
    every entry at 50k pages into ~25k ints (that alone was most of a 20 ms keystroke)."""
    width = size * 4  # bits looked at a time
    end = bits.bit_length()
    out: list[int] = []
    for base in range(0, end, width):
        digits = bin((bits >> base) & ((1 << width) - 1) | (1 << width))[:2:-1]  # bit i at i
        i = digits.find("1")
        while i >= 0:
            out.append(base + i)
            if len(out) == size:
                yield out
                out = []
            i = digits.find("1", i + 1)
    if out:
        yield out


class SortedKeys:
    """(key, entry id) pairs sorted by key, then id. The keys live in one `PackedStrings` in the
    order they came (`ids` beside them), and `order` lists their positions sorted by (key, id):
    no str object per key. A bulk build makes tens of thousands of distinct words and initials;
    kept as str objects they stayed scattered over the allocator's arenas among the build's
    freed temporaries and pinned them (~20 MB of RSS at 50k pages). A removed pair leaves its
    text behind, unreferenced (a session removes few)."""

    __slots__ = ("texts", "ids", "order")

    def __init__(self) -> None:
        self.texts = PackedStrings()
        self.ids = array("I")
        self.order = array("I")

    def __len__(self) -> int:
        return len(self.order)

    def fill(self, pairs: list[tuple[str, int]]) -> None:
        pairs.sort()
        self.texts = PackedStrings([key for key, _ in pairs])
        self.ids = array("I", [eid for _, eid in pairs])
        self.order = array("I", range(len(pairs)))

    def add(self, key: str, eid: int) -> None:
        i = self._position(key, eid)
        self.order.insert(i, len(self.texts))
        self.texts.append(key)
        self.ids.append(eid)

    def remove(self, key: str, eid: int) -> None:
        i = self._position(key, eid)
        if i < len(self.order):
            at = self.order[i]
            if self.texts[at] == key and self.ids[at] == eid:
                del self.order[i]

    def _position(self, key: str, eid: int) -> int:
        """Where (key, eid) is or would go: among equal keys, ids ascend."""
        order, text_of = self.order, self.texts.__getitem__
        lo = bisect_left(order, key, key=text_of)
        hi = bisect_right(order, key, lo, key=text_of)
        return bisect_left(order, eid, lo, hi, key=self.ids.__getitem__)

    def prefixed(self, prefix: str, cap: int = 1 << 30):
        """(length of the key, id) for keys starting with `prefix`, in order, at most `cap`.
        Two bisections bound them (no key holds U+10FFFF: keys are words and their initials),
        so no str is made per key."""
        order, texts, ids = self.order, self.texts, self.ids
        text_of = texts.__getitem__
        lo = bisect_left(order, prefix, key=text_of)
        hi = bisect_left(order, prefix + _AFTER_ALL, lo, min(len(order), lo + cap), key=text_of)
        blob, ends = texts.packed()
        packed = len(ends)
        for at in order[lo:hi]:
            if at < packed:
                yield ends[at] - (ends[at - 1] if at else 0), ids[at]
            else:
                yield len(texts[at]), ids[at]


class SortedEntries:
    """Entry ids sorted by the key each points at (then by id), in one array: the keys
    themselves stay in the index's `PackedStrings`, so a sorted view costs 4 bytes an entry."""

    __slots__ = ("keys", "ids")

    def __init__(self, keys: "PackedStrings") -> None:
        self.keys = keys
        self.ids = array("I")

    def __len__(self) -> int:
        return len(self.ids)

    def fill(self, ids: list[int], keys: list[str]) -> None:
        """Sort `ids` by `keys` (a plain list for the bulk build: the packed keys are filled
        after it)."""
        ids.sort(key=lambda eid: (keys[eid], eid))
        self.ids = array("I", ids)

    def add(self, eid: int) -> None:
        self.ids.insert(self._position(self.keys[eid], eid), eid)

    def remove(self, eid: int) -> None:
        i = self._position(self.keys[eid], eid)
        if i < len(self.ids) and self.ids[i] == eid:
            del self.ids[i]

    def _range(self, key: str) -> tuple[int, int]:
        ids, keyof = self.ids, self.keys.__getitem__
        return bisect_left(ids, key, key=keyof), bisect_right(ids, key, key=keyof)

    def _position(self, key: str, eid: int) -> int:
        lo, hi = self._range(key)
        return bisect_left(self.ids, eid, lo, hi)

    def equal(self, key: str) -> array:
        lo, hi = self._range(key)
        return self.ids[lo:hi]

    def prefixed(self, prefix: str, cap: int = 1 << 30):
        """(key, id) for keys starting with `prefix`, in order, at most `cap`."""
        ids, keys = self.ids, self.keys
        i = bisect_left(ids, prefix, key=keys.__getitem__)
        n = min(len(ids), i + cap)
        while i < n:
            eid = ids[i]
            key = keys[eid]
            if not key.startswith(prefix):
                return
            yield key, eid
            i += 1


class PackedStrings:
    """A growing list of strings kept as one joined str and an array of end offsets (a str
    object each cost ~50 bytes besides its text). Strings appended after the bulk fill go to a
    short tail list; `extend_packed` folds everything in again."""

    __slots__ = ("_blob", "_ends", "_tail")

    def __init__(self, items: list[str] = ()) -> None:
        self._blob = ""
        self._ends = array("I")
        self._tail: list[str] = []
        if items:
            self.extend_packed(items)

    def extend_packed(self, items: list[str]) -> None:
        items = [*self._tail, *items]
        self._tail = []
        end = self._ends[-1] if self._ends else 0
        ends = self._ends
        for item in items:
            end += len(item)
            ends.append(end)
        self._blob = "".join([self._blob, *items])

    def __len__(self) -> int:
        return len(self._ends) + len(self._tail)

    def __getitem__(self, i: int) -> str:
        ends = self._ends
        if i < len(ends):
            return self._blob[ends[i - 1] if i else 0 : ends[i]]
        return self._tail[i - len(ends)]

    def append(self, item: str) -> None:
        self._tail.append(item)

    def packed(self) -> tuple[str, array]:
        """The joined text and the end offsets of the packed strings (not the tail): string
        `i` is `blob[ends[i - 1] if i else 0 : ends[i]]`, for loops that read it in place."""
        return self._blob, self._ends

    def take(self, ids) -> list[str]:
        """The strings at `ids` (the fuzzy tier hands a chunk of them to rapidfuzz)."""
        blob, ends, tail, n = self._blob, self._ends, self._tail, len(self._ends)
        return [(blob[ends[i - 1] if i else 0 : ends[i]]) if i < n else tail[i - n] for i in ids]
