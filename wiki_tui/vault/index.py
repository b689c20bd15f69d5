"""The link graph of a vault, kept in the store's `links` table and queried there.

Shapes follow Obsidian's metadata cache: `resolved()[source] = {target path: count}` and
`unresolved()[source] = {linkpath as written: count}` (built on demand: a full read). Same-page
links (`[[#Heading]]`) are not counted (a page does not back-link itself); external links are
not stored. Aliases are not link targets (Obsidian-exact); `unresolved_sources` lets the vault
offer "resolved via alias" separately.

Queries: `sources_linking(path)` (backlinks: an index on `target`), `unresolved_sources(name)`,
`unresolved_by_key()`, `targets_of(source, rows)` (each link row's resolved path, aligned),
`resolved_from(source)`, `affected_by_file(path)`.

Incremental upkeep: when a file appears or disappears, only links whose last path segment
names that file can change meaning (own folder beats shortest path, a new file can resolve a
dangling link): `reresolve_named(path)` re-resolves just those rows (index.md links every page;
re-resolving all its links per change would be slow).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from .cache import L_KIND, L_TARGET
from .resolve import Resolver
from .resolve import link_key as _link_key
from .store import Store

link_key = lru_cache(maxsize=1 << 16)(_link_key)  # the same few thousand linkpaths, over and over


@lru_cache(maxsize=1 << 16)
def name_key(target: str) -> str:
    """The last path segment of a linkpath or file path, lowercase, without `.md`."""
    key = link_key(target).rstrip("/")
    key = key[key.rfind("/") + 1 :]
    return key[:-3] if key.endswith(".md") else key


class LinkIndex:
    def __init__(self, resolver: Resolver, store: Store) -> None:
        self.resolver = resolver
        self.store = store

    # -- upkeep ------------------------------------------------------------------------------
    def set_links(self, source: str, links: list[tuple]) -> None:
        """(Re)index one page's links (record rows)."""
        self.set_many([(source, links)])

    def set_many(self, pages: Iterable[tuple[str, list[tuple]]], *, new: bool = False) -> None:
        """(Re)index several pages' links (`new`: none of them is indexed yet)."""
        resolve = self.resolver.resolve
        sources, rows = [], []
        for source, links in pages:
            sources.append((source,))
            for seq, row in enumerate(links):
                linkpath = row[L_TARGET]
                if row[L_KIND] == "external" or not linkpath:
                    continue
                rows.append((source, seq, linkpath, link_key(linkpath), name_key(linkpath),
                             resolve(linkpath, source)))
        with self.store.transaction() as conn:
            if not new:
                conn.executemany("DELETE FROM links WHERE src=?", sources)
            conn.executemany("INSERT INTO links VALUES(?,?,?,?,?,?)", rows)

    def remove_source(self, source: str) -> None:
        with self.store.transaction() as conn:
            conn.execute("DELETE FROM links WHERE src=?", (source,))

    def reresolve_named(self, path: str) -> None:
        """A file named like `path` came or went: re-resolve the links naming it."""
        store = self.store
        with store.lock:
            rows = store.conn.execute(
                "SELECT src, seq, linkpath, target FROM links WHERE nkey=?", (name_key(path),)
            ).fetchall()
            resolve = self.resolver.resolve
            changed = []
            for source, seq, linkpath, old in rows:
                new = resolve(linkpath, source)
                if new != old:
                    changed.append((new, source, seq))
            if changed:
                with store.transaction() as conn:
                    conn.executemany("UPDATE links SET target=? WHERE src=? AND seq=?", changed)

    def affected_by_file(self, path: str) -> list[str]:
        """Pages whose links could change meaning when `path` appears or disappears."""
        return self._column("SELECT DISTINCT src FROM links WHERE nkey=?", (name_key(path),))

    # -- queries -----------------------------------------------------------------------------
    def targets_of(self, source: str, links: list[tuple]) -> list[str | None]:
        """The resolved path of each of `source`'s link rows (None: unresolved or external;
        a same-page link: `source`)."""
        with self.store.lock:
            found = dict(self.store.conn.execute("SELECT seq, target FROM links WHERE src=?", (source,)))
        return [
            found.get(seq) if row[L_TARGET] and row[L_KIND] != "external"
            else (source if row[L_KIND] != "external" else None)
            for seq, row in enumerate(links)
        ]

    def sources_linking(self, path: str) -> dict[str, int]:
        """source -> how many of its links resolve to `path`."""
        return self._counts("SELECT src, count(*) FROM links WHERE target=? GROUP BY src", (path,))

    def resolved_from(self, source: str) -> dict[str, int]:
        """target -> how many of `source`'s links resolve to it."""
        return self._counts(
            "SELECT target, count(*) FROM links WHERE src=? AND target IS NOT NULL GROUP BY target", (source,)
        )

    def unresolved_sources(self, linkpath: str) -> dict[str, int]:
        """source -> how many unresolved links it holds to `linkpath` (compared lowercased)."""
        return self._counts(
            "SELECT src, count(*) FROM links WHERE target IS NULL AND lkey=? GROUP BY src", (link_key(linkpath),)
        )

    def unresolved_by_key(self) -> dict[str, set[str]]:
        """lowercased linkpath -> the pages holding it unresolved."""
        out: dict[str, set[str]] = {}
        with self.store.lock:
            for key, source in self.store.conn.execute("SELECT lkey, src FROM links WHERE target IS NULL"):
                out.setdefault(key, set()).add(source)
        return out

    def resolved(self, pages: Iterable[str] = ()) -> dict[str, dict[str, int]]:
        """source -> {target: count} for every page (each of `pages` present, links or not)."""
        out: dict[str, dict[str, int]] = {p: {} for p in pages}
        with self.store.lock:
            for source, target, count in self.store.conn.execute(
                "SELECT src, target, count(*) FROM links WHERE target IS NOT NULL GROUP BY src, target"
            ):
                out.setdefault(source, {})[target] = count
        return out

    def unresolved(self, pages: Iterable[str] = ()) -> dict[str, dict[str, int]]:
        """source -> {linkpath as written: count} for every page."""
        out: dict[str, dict[str, int]] = {p: {} for p in pages}
        with self.store.lock:
            for source, linkpath, count in self.store.conn.execute(
                "SELECT src, linkpath, count(*) FROM links WHERE target IS NULL GROUP BY src, linkpath"
            ):
                out.setdefault(source, {})[linkpath] = count
        return out

    def _counts(self, sql: str, args: tuple) -> dict[str, int]:
        with self.store.lock:
            return dict(self.store.conn.execute(sql, args).fetchall())

    def _column(self, sql: str, args: tuple) -> list[str]:
        with self.store.lock:
            return [row[0] for row in self.store.conn.execute(sql, args)]
