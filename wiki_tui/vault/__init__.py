"""The knowledge base on disk: layout, pages, links, backlinks, tags, fuzzy and full-text
search, structural lint, watching for outside edits. No UI, no model."""

from .fuzzy import FindHit
from .create import init_vault
from .layout import VaultError
from .links import Link
from .lint import Finding
from .mentions import Backlink, Mention
from .model import Vault
from .page import Page
from .schema import Schema
from .search import SearchHit

__all__ = [
    "Backlink", "FindHit", "Finding", "Link", "Mention", "Page", "Schema", "SearchHit", "Vault",
    "VaultError", "init_vault",
]
