"""The generated index.md read without the general scanner: its links follow from its lines.

index.md lists every page, one `- [[path|title]] — summary` line each (changes/apply/index_md.py
writes it). At 50,000 pages it is 6.5 MB, and re-reading it with the general markdown scanner
after every accepted change cost most of the accept. A generated catalog has a fixed shape,
so `parse_catalog` reads it line by line: the template, `## ` section headings, blank lines and
entries whose text holds none of the characters that could make anything else of them (links,
tags, code, comments, HTML, escapes, block ids, math). Anything else, anywhere, and it answers
None: the caller parses the file the general way. What it returns equals `parse_page`'s answer
for the same text (tests/vault/test_catalog.py checks that over many catalogs).

When an apply rewrites the catalog, its links need not be read again at all: `catalog_delta`
compares the old and new bytes line by line and gives the links gained and lost from the few
lines that differ (the vault adjusts its link rows by them, Vault.catalog_rewritten).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from wiki_tui.vault.layout import INDEX_TEMPLATE
from wiki_tui.vault.parse.links import Heading, Link
from wiki_tui.vault.parse.page import Page

CATALOG = "index.md"  # where the catalog is unless AGENTS.md's `catalog:` says otherwise
_PLAIN = r"[^\[\]|#^\\%`<>$*_~&!()\s](?:[^\[\]|#^\\%`<>$*_~&!()\n]*[^\[\]|#^\\%`<>$*_~&!()\s])?"
_ENTRY = re.compile(rf"- \[\[({_PLAIN})\|({_PLAIN})\]\] — ({_PLAIN}|⚠ no summary)")
_SECTION = re.compile(rf"## ({_PLAIN})")
_TEMPLATE_LINES = INDEX_TEMPLATE.splitlines()
_TEMPLATE_BYTES = INDEX_TEMPLATE.encode("utf-8")


def catalog_digest(data: bytes) -> bytes:
    """What identifies a catalog's bytes (the vault keeps the one its links were read from)."""
    return hashlib.sha1(data, usedforsecurity=False).digest()


def catalog_delta(old: bytes, new: bytes, lines: tuple[list[str], list[str]] | None = None
                  ) -> dict[str, int] | None:
    """linkpath -> how many more (or fewer) times `new` links it than `old`, both plain catalogs
    as `parse_catalog` reads them; `old` must be one (the caller knows: it read it that way).
    The lines both hold are not looked at: every line `new` adds or drops must be blank, an
    entry or a section heading, else None (the caller reads `new` the general way). `lines`:
    (dropped, added) when the writer knows them (every section heading of `new` among the
    added), so that the 50k lines need not be compared."""
    if not new.startswith(_TEMPLATE_BYTES) or b"\r" in new:
        return None
    if lines is not None:
        return _delta((line for line in lines[1]), (line for line in lines[0]))
    old_list, new_list = old.split(b"\n"), new.split(b"\n")
    old_lines, new_lines = set(old_list), set(new_list)
    if (len(old_list) - old_list.count(b"") != len(old_lines) - (b"" in old_lines)
            or len(new_list) - new_list.count(b"") != len(new_lines) - (b"" in new_lines)):
        return None  # a line twice over (a link counted twice): not for a set difference
    try:
        return _delta((raw.decode("utf-8") for raw in new_lines - old_lines),
                      (raw.decode("utf-8") for raw in old_lines - new_lines))
    except UnicodeDecodeError:
        return None


def _delta(added: Iterable[str], dropped: Iterable[str]) -> dict[str, int] | None:
    delta: dict[str, int] = {}
    for lines, sign in ((added, 1), (dropped, -1)):
        for line in lines:
            if not line:
                continue
            entry = _ENTRY.fullmatch(line)
            if entry is None:
                if sign > 0 and _SECTION.fullmatch(line) is None:
                    return None
                continue
            target = entry.group(1)
            if target.lower().endswith(".md"):
                return None
            delta[target] = delta.get(target, 0) + sign
    return {target: n for target, n in delta.items() if n}


def parse_catalog(path: str, text: str, *, mtime: float = 0.0) -> Page | None:
    """The catalog at `path` (index.md, or where AGENTS.md's `catalog:` puts it: the caller
    knows) as `parse_page` would read it, when it is the plain generated catalog; else None."""
    if not text.startswith(INDEX_TEMPLATE) or "\r" in text:
        return None
    lines = text.split("\n")
    if lines[: len(_TEMPLATE_LINES)] != _TEMPLATE_LINES or not lines[0].startswith("# "):
        return None
    headings = [Heading(1, lines[0][2:].strip(), 1)]
    links: list[Link] = []
    offset = len(lines[0]) + 1
    for number, line in enumerate(lines[1:], start=2):
        if number > len(_TEMPLATE_LINES) and line:
            entry = _ENTRY.fullmatch(line)
            if entry is not None:
                target, display = entry.group(1), entry.group(2)
                if target.lower().endswith(".md"):
                    return None  # the scanner has its own ideas about extensions: let it decide
                end = offset + 7 + len(target) + len(display)  # "- " then [[target|display]]
                links.append(Link(target, "", display, False, "wiki", number, 2, offset + 2, end,
                                  text[offset + 2 : end]))
            else:
                section = _SECTION.fullmatch(line)
                if section is None:
                    return None
                headings.append(Heading(2, section.group(1), number))
        offset += len(line) + 1
    return Page(
        path=path, name=(name := path.rsplit("/", 1)[-1][:-3]), title=name, aliases=[], tags=[], summary=None, type=None,
        sources=[], frontmatter={}, headings=headings, block_ids=[], links=links, warnings=[],
        size=len(text.encode("utf-8", "surrogatepass")), mtime=mtime, body_line=1, body_start=0,
        external_links=[],
    )
