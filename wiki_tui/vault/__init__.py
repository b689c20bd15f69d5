"""The knowledge base on disk: layout, pages, links, backlinks, tags, fuzzy and full-text
search, structural lint, watching for outside edits. No UI, no model.

The names below load on first use (PEP 562): importing one small module of the package
(`wiki_tui.vault.layout`, which the app needs before its first paint) does not import the
index, SQLite, rapidfuzz and YAML with it (~40 ms of a ~0.3 s start); the vault itself
loads in a worker after the first paint.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

_WHERE = {
    "Backlink": "wiki_tui.vault.find.mentions",
    "FindHit": "wiki_tui.vault.find.fuzzy",
    "Finding": "wiki_tui.vault.lint",
    "Link": "wiki_tui.vault.parse.links",
    "Mention": "wiki_tui.vault.find.mentions",
    "Page": "wiki_tui.vault.parse.page",
    "Schema": "wiki_tui.vault.parse.schema",
    "SearchHit": "wiki_tui.vault.find.search",
    "Vault": "wiki_tui.vault.model",
    "VaultError": "wiki_tui.vault.layout",
    "init_vault": "wiki_tui.vault.create",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # once: later look-ups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_WHERE})


if TYPE_CHECKING:  # what type checkers and readers see
    from wiki_tui.vault.create import init_vault
    from wiki_tui.vault.find.fuzzy import FindHit
    from wiki_tui.vault.find.mentions import Backlink, Mention
    from wiki_tui.vault.find.search import SearchHit
    from wiki_tui.vault.layout import VaultError
    from wiki_tui.vault.lint import Finding
    from wiki_tui.vault.model import Vault
    from wiki_tui.vault.parse.links import Link
    from wiki_tui.vault.parse.page import Page
    from wiki_tui.vault.parse.schema import Schema
