"""The knowledge base on disk: layout, pages, links, backlinks, tags, fuzzy and full-text
search, structural lint, watching for outside edits. No UI, no model."""

from wiki_tui.vault.find.fuzzy import FindHit
from wiki_tui.vault.create import init_vault
from wiki_tui.vault.layout import VaultError
from wiki_tui.vault.parse.links import Link
from wiki_tui.vault.lint import Finding
from wiki_tui.vault.find.mentions import Backlink, Mention
from wiki_tui.vault.model import Vault
from wiki_tui.vault.parse.page import Page
from wiki_tui.vault.parse.schema import Schema
from wiki_tui.vault.find.search import SearchHit

__all__ = [
    "Backlink", "FindHit", "Finding", "Link", "Mention", "Page", "Schema", "SearchHit", "Vault",
    "VaultError", "init_vault",
]
