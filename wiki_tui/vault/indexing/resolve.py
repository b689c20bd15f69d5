"""Link resolution exactly as Obsidian does it (``getFirstLinkpathDest``, observed in 1.13.7).

Order, for a linkpath written in the note ``from_path``:
0. ``./x`` and ``../x`` are relative to the linking note's folder; nothing else is tried;
1. an exact vault path wins (``Note`` -> ``Note.md`` at the root, from any folder);
2. else the linkpath taken from the linking note's own folder (``folder/linkpath``);
3. else every file whose path ends with the linkpath (at a ``/`` boundary): the
   shortest path string wins (ties: the lexicographically smaller path, so the answer
   never depends on the order files were added).

Matching ignores case (extensions too) and compares NFC forms. ``.md`` may be left out;
other files need their extension. Aliases are not targets here (see Vault.resolve_alias).
Every lookup is a dict access by lowercase file name: O(1) per link plus the handful of
files sharing that name. That one table is all the resolver holds (a second one by full
lowercase path cost ~7 MB more at 50k files and saved nothing measurable).
"""

from __future__ import annotations

import posixpath
import unicodedata
from collections.abc import Iterable

__all__ = ["Resolver", "normalize_path", "link_key", "resolution_key", "file_name_key", "names_read"]


def normalize_path(path: str) -> str:
    """NFC form of a vault path (file systems may hand back NFD, e.g. macOS)."""
    if path.isascii() or unicodedata.is_normalized("NFC", path):
        return path
    return unicodedata.normalize("NFC", path)


def link_key(path: str) -> str:
    """The comparison form: NFC and lower case."""
    return normalize_path(path).lower()


def resolution_key(target: str, from_path: str) -> tuple[str, str]:
    """All a link's resolution depends on, given the files: its linkpath and the folder of the
    page it is written in (the page itself, for a link to its own headings)."""
    return (target, from_path if not target.strip() else _folder(from_path))


def file_name_key(path: str) -> str:
    """The resolver's table key of a file: its lowercase NFC file name."""
    return _basename(normalize_path(path).lower())


def names_read(target: str) -> tuple[str, str] | None:
    """The table keys a resolve of `target` reads, from whichever page it is written in: its
    last component and that plus `.md` (every rule below looks up only those). None for a
    linkpath whose file name the rules may change (`./x`, `../x`, `.`) or an empty one (the
    page itself): its answer must be worked out in full. Two resolvers whose tables agree on
    these keys give `target` the same answer."""
    path = target.strip()
    if not path.isascii():
        path = normalize_path(path)
    path = path.lstrip("/")
    if not path or path[0] == ".":
        return None
    name = path[path.rfind("/") + 1 :].lower()  # lower() never makes a "/"
    return name, name + ".md"


def _basename(path: str) -> str:
    return path[path.rfind("/") + 1 :]


def _folder(path: str) -> str:
    slash = path.rfind("/")
    return path[:slash] if slash != -1 else ""


def _add(table: dict[str, str | tuple[str, ...]], key: str, path: str) -> None:
    held = table.get(key)
    if held is None:
        table[key] = path
    elif isinstance(held, tuple):
        table[key] = (*held, path)
    else:
        table[key] = (held, path)


def _discard(table: dict[str, str | tuple[str, ...]], key: str, path: str) -> None:
    held = table.get(key)
    if held == path:
        del table[key]
    elif isinstance(held, tuple) and path in held:
        rest = tuple(p for p in held if p != path)
        table[key] = rest if len(rest) > 1 else rest[0]


def _all(held: str | tuple[str, ...] | None) -> tuple[str, ...]:
    if held is None:
        return ()
    return held if isinstance(held, tuple) else (held,)


def _pick(held: str | tuple[str, ...] | None, key: str, path: str) -> str | None:
    """Of the files sharing a name, the one at `path` (exact case first, else the smallest of
    its case variants). The stored string, not the equal one built here: the link index keeps
    one per link, and shared they cost nothing (~4 MB on a 10k-page vault)."""
    if held is None:
        return None
    if held.__class__ is str:  # nearly every name: one file
        return held if held == path or held.lower() == key else None
    if path in held:
        return held[held.index(path)]
    variants = [p for p in held if p.lower() == key]
    return min(variants) if variants else None


class Resolver:
    """Resolves linkpaths against the set of all vault files (pages and attachments).

    One table maps each lowercase file name to its path, or to a tuple when several share it
    (a list each would cost ~6 MB more at 50k files, where nearly every name has one path)."""

    __slots__ = ("_by_name",)

    def __init__(self, paths: Iterable[str] = ()):
        self._by_name: dict[str, str | tuple[str, ...]] = {}  # lower file name (with extension) -> paths
        for path in paths:
            self.add(path)

    # -- maintenance ---------------------------------------------------------
    def add(self, path: str) -> None:
        path = normalize_path(path)
        name = _basename(path.lower())
        if path in _all(self._by_name.get(name)):
            return
        _add(self._by_name, name, path)

    def remove(self, path: str) -> None:
        path = normalize_path(path)
        _discard(self._by_name, _basename(path.lower()), path)

    def rename(self, old: str, new: str) -> None:
        self.remove(old)
        self.add(new)

    def changed(self, gone: Iterable[str] = (), made: Iterable[str] = ()) -> "Resolver":
        """A resolver over these files without `gone` and with `made` (this one unchanged): the
        table is copied at once (its values are never mutated in place), not rebuilt per file."""
        copy = Resolver()
        copy._by_name = dict(self._by_name)
        for path in gone:
            copy.remove(path)
        for path in made:
            copy.add(path)
        return copy

    def __contains__(self, path: str) -> bool:
        path = normalize_path(path)
        return path in _all(self._by_name.get(_basename(path.lower())))

    def __len__(self) -> int:
        return sum(len(_all(v)) for v in self._by_name.values())

    def __iter__(self):
        for paths in self._by_name.values():
            yield from _all(paths)

    # -- lookups -------------------------------------------------------------
    def _exact(self, path: str) -> str | None:
        """A file at exactly ``path`` or ``path.md`` (case-insensitive; exact case first)."""
        key = path.lower()
        name = _basename(key)
        found = _pick(self._by_name.get(name), key, path)
        if found is None:
            found = _pick(self._by_name.get(name + ".md"), key + ".md", path + ".md")
        return found

    def resolve(self, target: str, from_path: str = "") -> str | None:
        """The file a linkpath means, or None (unresolved). ``""`` means the page itself."""
        if target and "/" not in target and target[0] != "." and target == target.strip():
            # A bare name, the usual link: when one file answers to it, every rule below picks
            # that file; when none does, none can (one file-name lookup instead of six).
            key = normalize_path(target).lower()
            named, dotted = self._by_name.get(key), self._by_name.get(key + ".md")
            if named is None or dotted is None:
                only = dotted if named is None else named
                if only is None or isinstance(only, str):
                    return only
        target = normalize_path(target.strip())
        if not target:
            return normalize_path(from_path) if from_path else None
        folder = _folder(normalize_path(from_path))
        if target.startswith(("./", "../")) or target in (".", ".."):
            joined = (
                posixpath.normpath(posixpath.join(folder, target))
                if folder
                else (posixpath.normpath(target))
            )
            if joined == ".." or joined.startswith("../") or joined == ".":
                return None  # outside the vault
            return self._exact(joined)
        target = target.lstrip("/")
        if not target:
            return None
        found = self._exact(target)
        if found is not None:
            return found
        if folder:
            found = self._exact(f"{folder}/{target}")
            if found is not None:
                return found
        matches = self._suffix_matches(target)
        if not matches:
            return None
        return min(matches, key=lambda p: (len(p), p.lower(), p))

    def _suffix_matches(self, target: str) -> list[str]:
        key = target.lower()
        out = []
        for suffix in (key, key + ".md"):
            paths = _all(self._by_name.get(_basename(suffix)))
            if not paths:
                continue
            tail = "/" + suffix
            for path in paths:
                lower = path.lower()
                if lower == suffix or lower.endswith(tail):
                    out.append(path)
        return out

    def candidates(self, target: str, from_path: str = "") -> list[str]:
        """Every file the linkpath could mean, best first (the first is what resolve picks
        unless the exact-path or own-folder rule applies). More than one: ambiguous."""
        target = normalize_path(target.strip())
        if not target:
            return []
        if target.startswith(("./", "../")):
            found = self.resolve(target, from_path)
            return [found] if found else []
        matches = self._suffix_matches(target.lstrip("/"))
        matches.sort(key=lambda p: (len(p), p.lower(), p))
        best = self.resolve(target, from_path)
        if best is not None and best in matches and matches[0] != best:
            matches.remove(best)
            matches.insert(0, best)
        return matches
