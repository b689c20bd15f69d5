"""Twin page names: two paths a person reads as one page.

A model that writes `concepts/Dead_reckoning.md`, `concepts/Dead%20reckoning.md`,
`entity/H4.md`, `wiki/entities/H4.md`, `entities/Н4.md` (a Cyrillic Н) or `entities/ｈ４.md`
(full width) means the existing `concepts/Dead reckoning.md` or `entities/H4.md`; applied
literally, each creates a second page beside the first, and links keep reaching only one.

`twin_key` is the comparison form: Unicode compatibility form (NFKC: full width, no-break
spaces, ligatures), look-alike Cyrillic and Greek letters read as Latin, case folded, `%XX`
decoded, spaces, underscores and dashes alike, trailing dots and spaces off each name, folder
names singular (`entities/` is `entity/`), `.md` off (and `.markdown`, `.mkd`... under it). `TwinIndex` keys a vault's pages once;
`of(path)` lists the existing pages a new path twins, also with a leading folder that does not
exist taken off (`wiki/entities/X.md`: the vault's own name, or any other wrapper).
page_paths.py aims a block at the one twin, or refuses naming several; build.py refuses a
reply that creates two twins itself.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from urllib.parse import unquote

# Cyrillic and Greek letters drawn like Latin ones (the ones fonts render alike).
_LOOKALIKE = str.maketrans({
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i", "ј": "j",
    "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "к": "k", "м": "m", "т": "t",
    "в": "b", "н": "h",
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
    "Т": "T", "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ι": "i", "ν": "v", "α": "a",
})
_SEPARATORS = re.compile(r"[\s_\-\u2010-\u2015]+")
# Other spellings of a markdown file's extension: `H4.markdown` (read as `H4.markdown.md`) is H4.
_MARKDOWN_EXTENSIONS = (".markdown", ".mdown", ".mkdn", ".mkd", ".mdwn", ".mdx")


def _no_extension(name: str) -> str:
    """A case-folded name without `.md`, and without another markdown extension under it."""
    if name.endswith(".md"):
        name = name[:-3]
    if name.endswith(_MARKDOWN_EXTENSIONS):
        name = name[: name.rfind(".")]
    return name


def _singular(folder: str) -> str:
    if folder.endswith("ies") and len(folder) > 4:
        return folder[:-3] + "y"
    if folder.endswith("ses") and len(folder) > 4:
        return folder[:-2] + "is"  # syntheses -> synthesis, analyses -> analysis
    if folder.endswith("s") and not folder.endswith("ss") and len(folder) > 2:
        return folder[:-1]
    return folder


def _part_key(part: str) -> str:
    part = _SEPARATORS.sub(" ", part).strip(" .")
    return part


def twin_key(path: str) -> str:
    """The form in which twin names are equal (see the module docstring)."""
    if "%" in path:
        path = unquote(path)
    path = unicodedata.normalize("NFKC", path.translate(_LOOKALIKE)).casefold()
    path = _no_extension(path.strip().rstrip(". "))
    parts = [_part_key(p) for p in path.split("/")]
    parts = [p for p in parts if p]
    if not parts:
        return ""
    return "/".join([*(_singular(p) for p in parts[:-1]), parts[-1]])


def differs_by(path: str, twin: str) -> str:
    """How two twin names differ, in a few words for the repair note."""
    if path.casefold() == twin.casefold():
        return "letter case"
    if path.casefold().removesuffix(".md").endswith(_MARKDOWN_EXTENSIONS):
        return "the file extension"
    if unquote(path) == twin:
        return "%-escapes"
    if unicodedata.normalize("NFKC", path) == twin:
        return "full-width or compatibility characters"
    if path.translate(_LOOKALIKE) != path:
        return "look-alike letters"
    a, b = path.rpartition("/")[0], twin.rpartition("/")[0]
    if a != b:
        return "folder name"
    return "spaces, underscores or dashes"


_NOT_ALNUM = re.compile(r"[\W_]+")


def _bucket(name: str) -> str:
    """A cheap key twins always share: the file name's letters and digits, compatibility form,
    look-alikes read as Latin, case folded (twin_key then decides among the few that share it)."""
    if "%" in name:
        name = unquote(name)
    if not name.isascii():
        name = unicodedata.normalize("NFKC", name.translate(_LOOKALIKE))
    name = _no_extension(name.rsplit("/", 1)[-1].casefold())
    return _NOT_ALNUM.sub("", name)


class TwinIndex:
    """The pages of a vault by the letters of their file name (built once; one regex per page),
    so that a new path is compared in full (`twin_key`) only with the few pages it could twin."""

    def __init__(self, paths: Iterable[str]) -> None:
        self._by_bucket: dict[str, list[str]] = {}
        self._folders: set[str] = set()
        for path in paths:
            self.add(path)

    def add(self, path: str) -> None:
        self._by_bucket.setdefault(_bucket(path), []).append(path)
        if "/" in path:
            self._folders.add(path.split("/", 1)[0].casefold())

    def of(self, path: str) -> list[str]:
        """Existing pages `path` twins (never `path` itself), shortest first."""
        near = [p for p in self._by_bucket.get(_bucket(path), ()) if p != path]
        if not near:
            return []
        key = twin_key(path)
        found = [p for p in near if twin_key(p) == key]
        first, _, rest = key.partition("/")
        if not found and rest and first not in self._folders and \
                path.split("/", 1)[0].casefold() not in self._folders:
            found = [p for p in near if twin_key(p) == rest]
        return sorted(found, key=lambda p: (len(p), p))
