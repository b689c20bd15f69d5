"""The link graph of a vault, kept in the store's `links` table and queried there.

Shapes follow Obsidian's metadata cache: `resolved()[source] = {target path: count}` and
`unresolved()[source] = {linkpath as written: count}` (built on demand: a full read). Same-page
links (`[[#Heading]]`) are not counted (a page does not back-link itself); external links are
not stored. Aliases are not link targets (Obsidian-exact); `unresolved_sources` lets the vault
offer "resolved via alias" separately.

Queries: `sources_linking(path)` (backlinks: an index on `target`), `unresolved_sources(name)`,
`unresolved_by_key()`, `targets_of(source, rows)` (each link row's resolved path, aligned),
`resolved_from(source)`, `affected_by_file(path)`. One row per page and linkpath (see store.py).

`adjust_links` applies a known change of counts (a rewritten catalog) without reading the
source's other rows.

Incremental upkeep: when a file appears or disappears, only links whose last path segment
names that file can change meaning (own folder beats shortest path, a new file can resolve a
dangling link): `reresolve_named(path)` re-resolves just those rows (index.md links every page;
re-resolving all its links per change would be slow).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from wiki_tui.vault.indexing.cache import L_KIND, L_TARGET
from wiki_tui.vault.indexing.resolve import Resolver
from wiki_tui.vault.indexing.resolve import link_key as _link_key
from wiki_tui.vault.indexing.store import Store

link_key = lru_cache(maxsize=1 << 16)(_link_key)  # the same few thousand linkpaths, over and over


@lru_cache(maxsize=1 << 16)
def name_key(target: str) -> str:
    """The last path segment of a linkpath or file path, lowercase, without `.md`."""
    return _name_of_key(link_key(target))


def _name_of_key(key: str) -> str:
    key = key.rstrip("/")
    key = key[key.rfind("/") + 1 :]
    return key[:-3] if key.endswith(".md") else key


class LinkIndex:
    def __init__(self, resolver: Resolver, store: Store) -> None:
        self.resolver = resolver
        self.store = store

    # -- upkeep ------------------------------------------------------------------------------
    def set_links(self, source: str, links: list[tuple]) -> None:
        """(Re)index one page's links (record rows): only the linkpaths that came, went or
        changed count are written, and only the new ones resolved (index.md gaining one
        entry writes one row, not fifty thousand)."""
        counts = link_counts(links)
        with self.store.lock:
            known = {
                linkpath: (n, target)
                for linkpath, n, target in self.store.conn.execute(
                    "SELECT linkpath, n, target FROM links WHERE src=?", (source,)
                )
            }
            gone = [(source, lp) for lp in known if lp not in counts]
            recount = [(n, source, lp) for lp, n in counts.items() if lp in known and known[lp][0] != n]
            resolve = self.resolver.resolve
            added = [_row(source, lp, n, resolve(lp, source)) for lp, n in counts.items() if lp not in known]
            if gone or recount or added:
                with self.store.transaction() as conn:
                    conn.executemany("DELETE FROM links WHERE src=? AND linkpath=?", gone)
                    conn.executemany("UPDATE links SET n=? WHERE src=? AND linkpath=?", recount)
                    conn.executemany("INSERT INTO links VALUES(?,?,?,?,?,?)", added)

    def adjust_links(self, source: str, delta: dict[str, int]) -> bool:
        """Add `delta` (linkpath -> change of count) to `source`'s links: the catalog gaining
        and losing entries (catalog_delta). False, nothing written, when a count would fall
        below zero (the rows are not what the delta was taken against)."""
        if not delta:
            return True
        with self.store.lock:
            known: dict[str, int] = {}
            paths = list(delta)
            for start in range(0, len(paths), 500):
                chunk = paths[start : start + 500]
                known.update(self.store.conn.execute(
                    f"SELECT linkpath, n FROM links WHERE src=? AND linkpath IN ({','.join('?' * len(chunk))})",
                    (source, *chunk)))
            gone, recount, added = [], [], []
            for linkpath, change in delta.items():
                n = known.get(linkpath, 0) + change
                if n < 0:
                    return False
                if n == 0:
                    gone.append((source, linkpath))
                elif linkpath in known:
                    recount.append((n, source, linkpath))
                else:
                    added.append(_row(source, linkpath, n, self.resolver.resolve(linkpath, source)))
            with self.store.transaction() as conn:
                conn.executemany("DELETE FROM links WHERE src=? AND linkpath=?", gone)
                conn.executemany("UPDATE links SET n=? WHERE src=? AND linkpath=?", recount)
                conn.executemany("INSERT INTO links VALUES(?,?,?,?,?,?)", added)
        return True

    def add_new(self, pages: Iterable[tuple[str, dict[str, int]]],
                keys: dict[str, tuple[str, str]] | None = None) -> None:
        """Index the links of pages not indexed yet (a cold build), each page's as
        `link_counts` of its rows. `keys`: linkpath -> (lkey, nkey), filled as it goes; pass
        the same dict to each call of one build (at 50k pages there are more distinct
        linkpaths than the shared LRU caches hold, and churning them cost 1.2 s of a build)."""
        resolve = self.resolver.resolve
        if keys is None:
            keys = {}
        # A linkpath's answer depends only on the folder it is written in (resolve.py's
        # resolution_key; a blank one, never stored by the parser, on the page): each pair
        # is resolved once.
        answers: dict[tuple[str, str], str | None] = {}
        rows = []
        for source, counts in pages:
            folder = source[: source.rfind("/") + 1]
            for linkpath, n in counts.items():
                got = keys.get(linkpath)
                if got is None:
                    lkey = _link_key(linkpath)
                    got = keys[linkpath] = (lkey, _name_of_key(lkey))
                pair = (linkpath, folder if linkpath.strip() else source)
                if pair in answers:
                    target = answers[pair]
                else:
                    target = answers[pair] = resolve(linkpath, source)
                rows.append((source, linkpath, n, got[0], got[1], target))
        with self.store.transaction() as conn:
            conn.executemany("INSERT INTO links VALUES(?,?,?,?,?,?)", rows)

    def remove_source(self, source: str) -> None:
        with self.store.transaction() as conn:
            conn.execute("DELETE FROM links WHERE src=?", (source,))

    def reresolve_named(self, path: str) -> None:
        """A file named like `path` came or went: re-resolve the links naming it."""
        store = self.store
        with store.lock:
            rows = store.conn.execute(
                "SELECT src, linkpath, target FROM links WHERE nkey=?", (name_key(path),)
            ).fetchall()
            resolve = self.resolver.resolve
            changed = []
            for source, linkpath, old in rows:
                new = resolve(linkpath, source)
                if new != old:
                    changed.append((new, source, linkpath))
            if changed:
                with store.transaction() as conn:
                    conn.executemany("UPDATE links SET target=? WHERE src=? AND linkpath=?", changed)

    def affected_by_file(self, path: str) -> list[str]:
        """Pages whose links could change meaning when `path` appears or disappears."""
        return self._column("SELECT DISTINCT src FROM links WHERE nkey=?", (name_key(path),))

    # -- queries -----------------------------------------------------------------------------
    def targets_of(self, source: str, links: list[tuple],
                   found: dict[str, str | None] | None = None) -> list[str | None]:
        """The resolved path of each of `source`'s link rows (None: unresolved or external;
        a same-page link: `source`). `found`: its linkpaths' targets, when the caller read them
        in bulk (`targets_by_source`)."""
        if found is None:
            with self.store.lock:
                found = dict(self.store.conn.execute("SELECT linkpath, target FROM links WHERE src=?", (source,)))
        return [
            None if row[L_KIND] == "external" else found.get(row[L_TARGET]) if row[L_TARGET] else source
            for row in links
        ]

    def targets_by_source(self, sources: list[str]) -> dict[str, dict[str, str | None]]:
        """source -> {linkpath: target} for each of `sources` (one query for them all; a page
        without links is left out)."""
        out: dict[str, dict[str, str | None]] = {}
        with self.store.lock:
            for lo in range(0, len(sources), 500):
                part = sources[lo : lo + 500]
                sql = f"SELECT src, linkpath, target FROM links WHERE src IN ({','.join('?' * len(part))})"
                for source, linkpath, target in self.store.conn.execute(sql, part):
                    out.setdefault(source, {})[linkpath] = target
        return out

    def sources_linking(self, path: str) -> dict[str, int]:
        """source -> how many of its links resolve to `path`."""
        return self._pairs("SELECT src, sum(n) FROM links WHERE target=? GROUP BY src", (path,))

    def linked_targets(self, skip: Iterable[str] = ()) -> set[str]:
        """Every path some page links to, a page's links to itself and the links of `skip`
        (the listings) left out: one pass over the links, not a query per page."""
        skip = list(skip)
        marks = ",".join("?" * len(skip))
        sql = "SELECT DISTINCT target FROM links WHERE target IS NOT NULL AND src != target"
        with self.store.lock:
            rows = self.store.conn.execute(sql + (f" AND src NOT IN ({marks})" if skip else ""), skip)
            return {target for (target,) in rows}

    def resolved_from(self, source: str) -> dict[str, int]:
        """target -> how many of `source`'s links resolve to it."""
        return self._pairs(
            "SELECT target, sum(n) FROM links WHERE src=? AND target IS NOT NULL GROUP BY target", (source,)
        )

    def unresolved_sources(self, linkpath: str) -> dict[str, int]:
        """source -> how many unresolved links it holds to `linkpath` (compared lowercased)."""
        return self._pairs(
            "SELECT src, sum(n) FROM links WHERE target IS NULL AND lkey=? GROUP BY src", (link_key(linkpath),)
        )

    def has_unresolved(self) -> bool:
        """Does any page hold a link that resolves to nothing?"""
        with self.store.lock:
            return self.store.conn.execute("SELECT 1 FROM links WHERE target IS NULL LIMIT 1").fetchone() is not None

    def unresolved_by_key(self) -> dict[str, set[str]]:
        """lowercased linkpath -> the pages holding it unresolved."""
        out: dict[str, set[str]] = {}
        with self.store.lock:
            for key, source in self.store.conn.execute("SELECT lkey, src FROM links WHERE target IS NULL"):
                out.setdefault(key, set()).add(source)
        return out

    def resolved(self, pages: Iterable[str] = ()) -> dict[str, dict[str, int]]:
        """source -> {target: count} for every page (each of `pages` present, links or not)."""
        return self._by_source(
            "SELECT src, target, sum(n) FROM links WHERE target IS NOT NULL GROUP BY src, target",
            pages)

    def unresolved(self, pages: Iterable[str] = ()) -> dict[str, dict[str, int]]:
        """source -> {linkpath as written: count} for every page."""
        return self._by_source("SELECT src, linkpath, n FROM links WHERE target IS NULL", pages)

    def _by_source(self, sql: str, pages: Iterable[str]) -> dict[str, dict[str, int]]:
        """source -> {key: count} from (source, key, count) rows, each of `pages` present."""
        out: dict[str, dict[str, int]] = {p: {} for p in pages}
        with self.store.lock:
            for source, key, count in self.store.conn.execute(sql):
                out.setdefault(source, {})[key] = count
        return out

    def _pairs(self, sql: str, args: tuple) -> dict[str, int]:
        with self.store.lock:
            return dict(self.store.conn.execute(sql, args).fetchall())

    def _column(self, sql: str, args: tuple) -> list[str]:
        with self.store.lock:
            return [row[0] for row in self.store.conn.execute(sql, args)]


def link_counts(links: list[tuple]) -> dict[str, int]:
    """linkpath as written -> how often the page links it (external and same-page left out)."""
    counts: dict[str, int] = {}
    for row in links:
        linkpath = row[L_TARGET]
        if linkpath and row[L_KIND] != "external":
            counts[linkpath] = counts.get(linkpath, 0) + 1
    return counts


def _row(source: str, linkpath: str, n: int, target: str | None) -> tuple:
    return (source, linkpath, n, link_key(linkpath), name_key(linkpath), target)
