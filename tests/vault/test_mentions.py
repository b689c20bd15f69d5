"""Unlinked mentions: one per line, none on a line that links the page, none in the generated
catalog (index.md) or the log (log.md), which name every page."""

from __future__ import annotations

from tests.conftest import write_files as write
from wiki_tui.vault import Vault

FILES = {
    "Sandglass.md": "---\ntitle: Sandglass\naliases: [half-minute glass]\n---\nA glass.\n",
    "Log line.md": "The sandglass timed it; a sandglass, the half-minute glass.\n"
                   "See [[Sandglass]]; the sandglass again.\n"
                   "Later the sandglass was replaced.\n",
    "index.md": "# Index\n\n- [[Sandglass]] — the sandglass used with the log line.\n"
                "- [[Log line]] — how a sandglass timed it.\n",
    "log.md": "# Log\n\n## [2026-11-20] ingest | Sandglass\n- created: sandglass page\n",
}


def test_one_mention_per_line_none_where_the_line_links_it(tmp_path):
    vault = Vault.open(write(tmp_path, FILES), use_cache=False)
    mentions = vault.unlinked_mentions("Sandglass.md")
    assert [(m.source, m.line) for m in mentions] == [("Log line.md", 1), ("Log line.md", 3)]
    assert mentions[0].text == "sandglass"  # the first on its line
    assert [(b.source, b.line) for b in vault.backlinks("Sandglass.md")
            if b.source == "Log line.md"] == [("Log line.md", 2)]


def test_catalog_and_log_are_not_mentions(tmp_path):
    vault = Vault.open(write(tmp_path, FILES), use_cache=False)
    sources = {m.source for m in vault.unlinked_mentions("Sandglass.md")}
    assert sources.isdisjoint({"index.md", "log.md"})
    assert {m.source for m in vault.unlinked_mentions("Log line.md")} == set()


def test_listings_are_not_backlinks_unless_asked(tmp_path):
    vault = Vault.open(write(tmp_path, FILES), use_cache=False)
    try:
        assert {b.source for b in vault.backlinks("Sandglass.md")} == {"Log line.md"}
        shown = {b.source for b in vault.backlinks("Sandglass.md", include_listings=True)}
        assert shown == {"Log line.md", "index.md"}
        assert {m.source for m in vault.unlinked_mentions("Sandglass.md", include_listings=True)} == {
            "Log line.md", "log.md"}  # index.md is not searched, so never a mention
        vault.show_listings = True  # the [ui] show_listings toggle
        assert {b.source for b in vault.backlinks("Sandglass.md")} == shown
    finally:
        vault.close()
