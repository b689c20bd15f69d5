"""Backlinks (linked mentions) and unlinked mentions of a page.

Linked: links in other pages (frontmatter included) that resolve to the page, each with its
line and that line as context; then links that resolve only through one of the page's titles
or aliases (`via_alias`: Obsidian shows those unresolved).
Unlinked: whole-word, case-insensitive occurrences of the page's title, file name or aliases in
other pages' prose (not in links, code, comments or frontmatter), one per line, and none on a
line that links the page already (that line is a linked mention). The generated catalog and
the log (LISTING_PAGES) name every page: they are searched only with `include_listings`
(Vault.backlinks leaves their linked mentions out the same way). Full-text search narrows the
pages to read; only those are read and scanned.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wiki_tui.vault.indexing.cache import L_END, L_KIND, L_LINE, L_START, L_TARGET, R_ALIASES, R_BODY_START, R_NAME, R_TITLE, record_links
from wiki_tui.vault.layout import LISTING_PAGES, VaultError
from wiki_tui.vault.parse.links import Link, prose_spans
from wiki_tui.vault.indexing.resolve import link_key

if TYPE_CHECKING:
    from wiki_tui.vault.view import VaultView

_WORDS = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Backlink:
    source: str
    line: int
    context: str  # the source's line holding the link
    link: Link
    via_alias: bool = False  # unresolved in Obsidian; matches one of the page's titles/aliases

    def to_dict(self) -> dict:
        return {"source": self.source, "line": self.line, "context": self.context,
                "raw": self.link.raw, "via_alias": self.via_alias}


@dataclass(frozen=True)
class Mention:
    source: str
    line: int
    context: str
    text: str  # the name or alias as it appears

    def to_dict(self) -> dict:
        return {"source": self.source, "line": self.line, "context": self.context,
                "text": self.text}


def linked_mentions(vault: "VaultView", rel: str, *, context: bool = True) -> list[Backlink]:
    """Call with the vault's lock held. `context=False`: no file is read (empty contexts)."""
    index, pages = vault._index, vault.pages
    out: list[Backlink] = []
    lines_of: dict[str, list[str]] | None = {} if context else None
    for source in sorted(index.sources_linking(rel)):
        record = pages.record(source)
        if record is None or source == rel:
            continue
        rows = record_links(record)
        for row, target in zip(rows, index.targets_of(source, rows)):
            if target == rel and row[L_TARGET]:
                out.append(_backlink(vault, source, row, lines_of, False))
    page = pages.record(rel)
    if page is None:
        return out
    names = {link_key(a) for a in page[R_ALIASES]} | {link_key(page[R_TITLE])}
    for name in sorted(names):
        if vault.resolve_alias(name) != rel:
            continue  # another page owns this name
        for source in sorted(index.unresolved_sources(name)):
            record = pages.record(source)
            if source == rel or record is None:
                continue
            rows = record_links(record)
            for row, target in zip(rows, index.targets_of(source, rows)):
                if target is None and row[L_KIND] != "external" and link_key(row[L_TARGET]) == name:
                    out.append(_backlink(vault, source, row, lines_of, True))
    return out


def _backlink(vault: "VaultView", source: str, row: tuple, lines_of: dict | None, via_alias: bool) -> Backlink:
    if lines_of is None:
        return Backlink(source, row[L_LINE], "", Link(*row), via_alias)
    lines = lines_of.get(source)
    if lines is None:
        try:
            lines = vault.read_text(source).splitlines()
        except VaultError:
            lines = []
        lines_of[source] = lines
    line = row[L_LINE]
    context = lines[line - 1].strip() if 0 < line <= len(lines) else ""
    return Backlink(source, line, context, Link(*row), via_alias)


def unlinked_mentions(vault: "VaultView", rel: str, limit: int = 500, *,
                      include_listings: bool = False) -> list[Mention]:
    """Takes the vault's lock only while it reads the index, not while it reads files."""
    with vault._lock:
        record = vault.pages.record(rel)
        if record is None:
            return []
        names = {n.strip() for n in (record[R_TITLE], record[R_NAME], *record[R_ALIASES]) if n and n.strip()}
        search = vault._search_index()
    candidates: set[str] = set()
    for name in names:
        words = _WORDS.findall(name)
        if words:
            candidates.update(search.paths_matching('"' + " ".join(words) + '"'))
    pattern = re.compile(
        "|".join(r"(?<!\w)" + re.escape(n) + r"(?!\w)" for n in sorted(names, key=len, reverse=True)),
        re.IGNORECASE,
    )
    out: list[Mention] = []
    skipped = set() if include_listings else set(getattr(vault, "listing_pages", LISTING_PAGES))
    for source in sorted(candidates - {rel} - skipped):
        with vault._lock:
            rec = vault.pages.record(source)
            rows = record_links(rec) if rec is not None else []
            targets = vault._index.targets_of(source, rows)
        if rec is None:
            continue
        linked_lines = {row[L_LINE] for row, target in zip(rows, targets) if target == rel}
        try:
            text = vault.read_text(source)
        except VaultError:
            continue
        if _scan_mentions(source, text, rec, pattern, linked_lines, out, limit):
            break
    return out


def _scan_mentions(source: str, text: str, rec: tuple, pattern: re.Pattern, skip_lines: set[int],
                   out: list, limit: int) -> bool:
    """Append the mentions in one page, one per line and none on `skip_lines`; True once
    `limit` is reached."""
    links = sorted((row[L_START], row[L_END]) for row in record_links(rec))
    starts = [start for start, _ in links]
    seen = set(skip_lines)
    for a, b in prose_spans(text, start=rec[R_BODY_START]):
        for m in pattern.finditer(text, a, b):
            i = bisect_right(starts, m.start()) - 1
            if i >= 0 and m.start() < links[i][1]:
                continue  # inside a link
            line = text.count("\n", 0, m.start()) + 1
            if line in seen:
                continue
            seen.add(line)
            line_start = text.rfind("\n", 0, m.start()) + 1
            line_end = text.find("\n", m.start())
            context = text[line_start : line_end if line_end >= 0 else len(text)].strip()
            out.append(Mention(source, line, context, m.group()))
            if len(out) >= limit:
                return True
    return False
