"""`Proposed`: the vault as a set of proposed file texts would leave it, read once for all.

A changeset is judged twice against the vault it would change: its lint (lint.py) and its
knowledge diff (changes/build/knowledge.py). Both ask the same questions of the same texts:
which files exist afterwards, what each link reaches then, what each page holds. One
`Proposed` per changeset answers them once: the file set after the change, a resolver over it
(the vault's table copied with the changes applied, not rebuilt file by file) whose answers are
remembered by `resolution_key`, and each page text parsed once (`parse`, memoised by text, so a
base text and its proposed text are each read once).

Built for one pass while nothing is written: it does not follow the vault afterwards.
"""

from __future__ import annotations

import os
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Callable

from wiki_tui.vault.indexing.resolve import Resolver, memoised
from wiki_tui.vault.layout import clean_path
from wiki_tui.vault.parse.page import Page, parse_page

if TYPE_CHECKING:
    from wiki_tui.vault.view import VaultView


class Proposed:
    """`files`: path -> proposed text, None for a file the change removes."""

    def __init__(self, vault: "VaultView", files: dict[str, str | None]) -> None:
        real_root = os.path.realpath(vault.root)
        self.files = {clean_path(vault.root, p, real_root=real_root): text
                      for p, text in files.items()}
        gone = [p for p, t in self.files.items() if t is None]
        kept = [p for p, t in self.files.items() if t is not None]
        self._vault, self._gone, self._kept = vault, gone, kept
        with vault._lock:  # the watcher may be feeding changes in meanwhile
            resolver = vault._resolver.changed(gone, kept)
        self._resolver: Resolver = resolver
        self.resolve: Callable[[str, str], str | None] = memoised(resolver.resolve)
        self.parse: Callable[[str, str], Page] = lru_cache(maxsize=None)(parse_page)

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
