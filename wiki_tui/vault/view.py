"""`VaultView`: what the vault's query modules (lint, mentions, watch) read of a vault.

They are given the `Vault` at run time; typing them against this protocol instead of importing
`model` keeps the dependency one way: `model` imports them, they import nothing above the
index (store, links index, resolver, search). The underscored members are the vault's own
index parts, shared with these modules and nobody else.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any, Protocol

from wiki_tui.vault.indexing.index import LinkIndex
from wiki_tui.vault.indexing.resolve import Resolver
from wiki_tui.vault.parse.schema import Schema
from wiki_tui.vault.find.search import SearchIndex
from wiki_tui.vault.indexing.store import PageMap, Store


class VaultView(Protocol):
    root: Path
    pages: PageMap
    attachments: set[str]
    schema: Schema
    _index: LinkIndex
    _resolver: Resolver
    _store: Store
    _lock: threading.RLock

    def read_text(self, path: str) -> str: ...

    def resolve(self, target: str, from_path: str = "") -> str | None: ...

    def resolve_alias(self, name: str) -> str | None: ...

    def resolve_aliases(self, names: list[str]) -> dict[str, str]: ...

    def find(self, query: str, limit: int = 50) -> list[Any]: ...

    def refresh_file(self, path: str | os.PathLike[str]) -> None: ...

    def _search_index(self) -> SearchIndex: ...
