"""A vault whose catalog lives elsewhere (`catalog: wiki-index.md` in AGENTS.md): index.md is the
person's home page, read, searched and linked like any page; the catalog is the listing."""

from __future__ import annotations

from tests.conftest import write_files
from wiki_tui.agent.tasks.backlinks import special_files
from wiki_tui.agent.context.prompts import system_prompt
from wiki_tui.changes.apply.index_md import render_index
from wiki_tui.vault import Vault

HOME = "# Welcome home\n\nStart with [[Alpha]], the zebrafish notes.\n"


def make(tmp_path, catalog="wiki-index.md"):
    pages = {
        "concepts/Alpha.md": "---\ntitle: Alpha\nsummary: About zebrafish fins.\n---\nZebrafish fins.\n",
        "concepts/Beta.md": "---\ntitle: Beta\nsummary: Other.\n---\nSee [[Alpha]].\n",
    }
    root = write_files(tmp_path / "v", {"AGENTS.md": f"---\ncatalog: {catalog}\n---\n# Rules\n",
                                        "index.md": HOME, **pages})
    vault = Vault.open(root, use_cache=False)
    (root / catalog).write_text(render_index(vault.pages, {}, catalog=catalog), encoding="utf-8")
    vault.close()
    return root


def test_the_home_page_is_a_page_and_the_catalog_a_listing(tmp_path):
    root = make(tmp_path)
    vault = Vault.open(root, use_cache=False)
    try:
        assert vault.catalog == "wiki-index.md" and vault.listing_pages == ("wiki-index.md", "log.md")
        # the home page: a backlink, a search hit, a prose summary, linted like a page
        sources = {b.source for b in vault.backlinks("concepts/Alpha.md")}
        assert "index.md" in sources and "wiki-index.md" not in sources
        assert "wiki-index.md" in {b.source for b in vault.backlinks("concepts/Alpha.md", include_listings=True)}
        hits = [h.path for h in vault.search("zebrafish")]
        assert "index.md" in hits and "wiki-index.md" not in hits
        assert vault.pages["index.md"].summary and "zebrafish" in vault.pages["index.md"].summary
        assert vault.pages["wiki-index.md"].summary is None  # its sentence is boilerplate
        codes = {(f.code, f.path) for f in vault.lint()}
        assert "- [[index|index]] — Start with Alpha, the zebrafish notes." in (root / "wiki-index.md").read_text()  # listed as a page
        assert not any(c.startswith("index-") for c, _ in codes)
        assert ("orphan", "concepts/Alpha.md") not in codes  # Beta and the home page link it
        # the agent: the catalog is never offered; the prompt says where it is
        assert "wiki-index.md" in special_files(vault) and "index.md" not in special_files(vault)
        prompt = system_prompt(vault, "ingest")
        assert "generated catalog is `wiki-index.md`" in prompt
    finally:
        vault.close()


def test_without_the_setting_index_md_is_the_catalog(tmp_path):
    root = make(tmp_path, catalog="index.md")
    vault = Vault.open(root, use_cache=False)
    try:
        assert vault.catalog == "index.md" and vault.listing_pages == ("index.md", "log.md")
        assert "index.md" not in [h.path for h in vault.search("Alpha")]
        assert "generated catalog is" not in system_prompt(vault, "ingest")
    finally:
        vault.close()
