"""`Proposed`: the vault as a set of proposed file texts would leave it, read once for all.

A changeset is judged twice against the vault it would change: its lint (lint.py) and its
knowledge diff (changes/build/knowledge/diff.py). Both ask the same questions of the same texts:
which files exist afterwards, what each link reaches now and then, what each page holds. One
`Proposed` per changeset answers them once: the file set after the change, a resolver over it
(the vault's table copied with the changes applied, not rebuilt file by file), each distinct
link resolved once as the vault is and as it will be (`reach`, remembered by `resolution_key`;
a linkpath whose file name the change leaves alone reaches the same file both times, so it is
resolved once), each page's links resolved once for both readers (`links`), and each page text
parsed once (`parse`, memoised by text, so a base text and its proposed text are each read
once; the prose spans that scan found are kept, `prose`, so that the knowledge diff reads
the sentences without scanning the text again).

Built for one pass while nothing is written: it does not follow the vault afterwards.
"""

from __future__ import annotations

import os
from functools import cached_property
from typing import TYPE_CHECKING

from wiki_tui.vault.indexing.resolve import Resolver, file_name_key, names_read, resolution_key
from wiki_tui.vault.layout import clean_path
from wiki_tui.vault.parse.links import Link
from wiki_tui.vault.parse.page import Page, parse_page_spans

if TYPE_CHECKING:
    from wiki_tui.vault.view import VaultView

Reach = tuple["str | None", "str | None"]  # (the file reached now, the file reached after)


class Proposed:
    """`files`: path -> proposed text, None for a file the change removes."""

    def __init__(self, vault: "VaultView", files: dict[str, str | None]) -> None:
        real_root, real_folders = os.path.realpath(vault.root), {}
        self.files = {clean_path(vault.root, p, real_root=real_root, real_folders=real_folders):
                      text for p, text in files.items()}
        gone = [p for p, t in self.files.items() if t is None]
        kept = [p for p, t in self.files.items() if t is not None]
        self._vault, self._gone, self._kept = vault, gone, kept
        with vault._lock:  # the watcher may be feeding changes in meanwhile: one snapshot
            self._before: Resolver = vault._resolver.changed()  # a copy: ~0.2 ms at 10k
        self._resolver: Resolver = self._before.changed(gone, kept)
        # the file names whose answers the change may alter (every other name: now == after)
        self._touched = frozenset(map(file_name_key, self.files))
        self._answers: dict[tuple[str, str], Reach] = {}
        self._links: dict[tuple[str, int], tuple[Page, list[tuple[Link, str | None, str | None]]]] = {}
        self._pages: dict[tuple[str, str], Page] = {}
        self._prose: dict[str, tuple[int, list[tuple[int, int]]]] = {}

    def parse(self, path: str, text: str) -> Page:
        """The page `text` read from `path` makes, parsed once."""
        page = self._pages.get((path, text))
        if page is None:
            page, spans = parse_page_spans(path, text)
            self._pages[path, text] = page
            self._prose[text] = (page.body_start, spans)
        return page

    def prose(self, text: str) -> tuple[int, list[tuple[int, int]]] | None:
        """(where the body starts, the body's prose spans) of a text `parse` has read (None:
        not read), for the knowledge diff's reading of its sentences without scanning again."""
        return self._prose.get(text)

    def reach(self, target: str, from_path: str = "") -> Reach:
        """(now, after): the file the linkpath `target` written in `from_path` reaches as the
        vault is and as it will be (None: nothing)."""
        key = resolution_key(target, from_path)
        found = self._answers.get(key)
        if found is None:
            found = self._answers[key] = self._reach(target, from_path)
        return found

    def _reach(self, target: str, from_path: str) -> Reach:
        now = self._before.resolve(target, from_path)
        names = names_read(target)
        if names is not None and names[0] not in self._touched and names[1] not in self._touched:
            return now, now
        return now, self._resolver.resolve(target, from_path)

    def resolve(self, target: str, from_path: str = "") -> str | None:
        """The file `target` written in `from_path` reaches after the change."""
        return self.reach(target, from_path)[1]

    def links(self, path: str, page: Page) -> list[tuple[Link, str | None, str | None]]:
        """(link, now, after) for each link of `page` (read from `path`) but external ones:
        what it reaches as the vault is and as it will be. Worked out once per page."""
        memo = (path, id(page))
        held = self._links.get(memo)
        if held is not None and held[0] is page:
            return held[1]
        answers = self._answers
        folder = resolution_key("x", path)[1]  # resolution_key of a non-blank linkpath here
        out = []
        for link in page.links:
            if link.kind == "external":
                continue
            target = link.target  # (isspace: strip's test, without making a string)
            key = (target, folder) if target and not target.isspace() else (target, path)
            found = answers.get(key)
            if found is None:
                found = answers[key] = self._reach(target, path)
            out.append((link, found[0], found[1]))
        self._links[memo] = (page, out)
        return out

    @cached_property
    def paths(self) -> set[str]:
        """Every file after the change (made on first use: the knowledge diff never asks)."""
        vault = self._vault
        with vault._lock:
            return (set(vault.pages) | set(vault.attachments)).difference(self._gone).union(
                self._kept)

    def __contains__(self, path: str) -> bool:
        """Whether a file is at `path` after the change."""
        return path in self.paths


__all__ = ["Proposed"]
