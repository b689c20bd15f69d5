"""The link graph of a vault: resolved and unresolved links per page, and the reverse maps.

Shapes follow Obsidian's metadata cache: `resolved[source] = {target path: count}` and
`unresolved[source] = {linkpath as written: count}`. Same-page links (`[[#Heading]]`) are not
counted (a page does not back-link itself). Aliases are not link targets (Obsidian-exact);
`unresolved_by_key` lets the vault offer "resolved via alias" separately.

Incremental upkeep: when a file appears or disappears, only the pages holding a link whose
last path segment names that file can change meaning (own folder beats shortest path, a new
file can resolve a dangling link), so `by_name` maps that segment to those pages.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from .cache import L_KIND, L_TARGET, Record, record_links
from .resolve import Resolver
from .resolve import link_key as _link_key

link_key = lru_cache(maxsize=1 << 16)(_link_key)  # the same few thousand linkpaths, over and over


@lru_cache(maxsize=1 << 16)
def name_key(target: str) -> str:
    """The last path segment of a linkpath or file path, lowercase, without `.md`."""
    key = link_key(target).rstrip("/")
    key = key[key.rfind("/") + 1 :]
    return key[:-3] if key.endswith(".md") else key


class LinkIndex:
    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.targets: dict[str, list[str | None]] = {}  # source -> resolved path per link (aligned)
        self.resolved: dict[str, dict[str, int]] = {}
        self.unresolved: dict[str, dict[str, int]] = {}
        self.back: dict[str, dict[str, int]] = {}  # target path -> {source: count}
        self.unresolved_by_key: dict[str, dict[str, int]] = {}  # lower linkpath -> {source: count}
        # name_key -> the source linking by that name: one path, or a set when several do
        # (most names are linked from one page; a set each would cost ~6 MB on 10k pages)
        self.by_name: dict[str, str | set[str]] = {}
        self.names_of: dict[str, tuple[str, ...]] = {}  # source -> its name_keys

    # -- state for the cache -----------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {
            "targets": self.targets,
            "resolved": self.resolved,
            "unresolved": self.unresolved,
            "back": self.back,
            "unresolved_by_key": self.unresolved_by_key,
            "by_name": self.by_name,
            "names_of": self.names_of,
        }

    @classmethod
    def from_state(cls, resolver: Resolver, state: dict[str, Any]) -> "LinkIndex":
        index = cls(resolver)
        for name, value in state.items():
            setattr(index, name, value)
        return index

    # -- upkeep ------------------------------------------------------------------------------
    def set_links(self, source: str, links: list[tuple]) -> None:
        """(Re)index one page's links (record rows)."""
        self.remove_source(source)
        resolve = self.resolver.resolve
        targets: list[str | None] = []
        resolved: dict[str, int] = {}
        unresolved: dict[str, int] = {}
        keys: dict[str, None] = {}
        for row in links:
            linkpath = row[L_TARGET]
            if row[L_KIND] == "external":
                targets.append(None)
                continue
            if not linkpath:  # same page
                targets.append(source)
                continue
            target = resolve(linkpath, source)
            targets.append(target)
            if target is None:
                unresolved[linkpath] = unresolved.get(linkpath, 0) + 1
            else:
                resolved[target] = resolved.get(target, 0) + 1
            keys[name_key(linkpath)] = None
        for key in keys:
            _add_source(self.by_name, key, source)
        self.names_of[source] = tuple(keys)
        self.targets[source] = targets
        self.resolved[source] = resolved
        self.unresolved[source] = unresolved
        for target, count in resolved.items():
            self.back.setdefault(target, {})[source] = count
        for linkpath, count in unresolved.items():
            bucket = self.unresolved_by_key.setdefault(link_key(linkpath), {})
            bucket[source] = bucket.get(source, 0) + count

    def remove_source(self, source: str) -> None:
        if source not in self.targets:
            return
        del self.targets[source]
        for target in self.resolved.pop(source, {}):
            _drop(self.back, target, source)
        for linkpath, count in self.unresolved.pop(source, {}).items():
            key = link_key(linkpath)
            bucket = self.unresolved_by_key.get(key)
            if bucket is not None and source in bucket:
                bucket[source] -= count
                if bucket[source] <= 0:
                    _drop(self.unresolved_by_key, key, source)
        for key in self.names_of.pop(source, ()):
            _discard_source(self.by_name, key, source)

    def reresolve(self, source: str, links: list[tuple], path: str) -> None:
        """A file named like `path` came or went: re-resolve just the links of `source` that
        name it (index.md links every page; re-resolving all its links per change would be slow)."""
        key = name_key(path)
        targets = self.targets.get(source)
        if targets is None or source not in _sources(self.by_name, key):
            return
        for i, row in enumerate(links):
            linkpath = row[L_TARGET]
            if not linkpath or row[L_KIND] == "external" or name_key(linkpath) != key:
                continue
            old = targets[i]
            new = self.resolver.resolve(linkpath, source)
            if new != old:
                targets[i] = new
                self._count(source, linkpath, old, -1)
                self._count(source, linkpath, new, +1)

    def _count(self, source: str, linkpath: str, target: str | None, delta: int) -> None:
        if target is None:
            _bump(self.unresolved.setdefault(source, {}), linkpath, delta)
            key = link_key(linkpath)
            bucket = self.unresolved_by_key.setdefault(key, {})
            _bump(bucket, source, delta)
            if not bucket:
                del self.unresolved_by_key[key]
        else:
            _bump(self.resolved.setdefault(source, {}), target, delta)
            bucket = self.back.setdefault(target, {})
            _bump(bucket, source, delta)
            if not bucket:
                del self.back[target]

    def affected_by_file(self, path: str) -> list[str]:
        """Pages whose links could change meaning when `path` appears or disappears."""
        return list(_sources(self.by_name, name_key(path)))

    def build(self, records: dict[str, Record]) -> None:
        for source, record in records.items():
            self.set_links(source, record_links(record))

    # -- queries -----------------------------------------------------------------------------
    def sources_linking(self, path: str) -> dict[str, int]:
        return self.back.get(path, {})

    def unresolved_sources(self, linkpath: str) -> dict[str, int]:
        return self.unresolved_by_key.get(link_key(linkpath), {})


def _bump(counts: dict[str, int], key: str, delta: int) -> None:
    value = counts.get(key, 0) + delta
    if value > 0:
        counts[key] = value
    else:
        counts.pop(key, None)


def _add_source(by_name: dict[str, str | set[str]], key: str, source: str) -> None:
    held = by_name.get(key)
    if held is None:
        by_name[key] = source
    elif isinstance(held, set):
        held.add(source)
    elif held != source:
        by_name[key] = {held, source}


def _discard_source(by_name: dict[str, str | set[str]], key: str, source: str) -> None:
    held = by_name.get(key)
    if held == source:
        del by_name[key]
    elif isinstance(held, set):
        held.discard(source)
        if len(held) == 1:
            by_name[key] = held.pop()


def _sources(by_name: dict[str, str | set[str]], key: str) -> tuple[str, ...] | set[str]:
    held = by_name.get(key)
    if held is None:
        return ()
    return held if isinstance(held, set) else (held,)


def _drop(mapping: dict[str, dict[str, int]], key: str, source: str) -> None:
    bucket = mapping.get(key)
    if bucket is not None:
        bucket.pop(source, None)
        if not bucket:
            del mapping[key]


def iter_link_rows(records: dict[str, Record]) -> Iterable[tuple[str, tuple]]:
    for source, record in records.items():
        for row in record_links(record):
            yield source, row
