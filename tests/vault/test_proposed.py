"""`Proposed`: the vault as proposed texts would leave it, on a copy of sample_vault/."""

from __future__ import annotations

from wiki_tui.vault import Vault
from wiki_tui.vault.indexing.resolve import Resolver
from wiki_tui.vault.proposed import Proposed

H4 = "entities/H4.md"


def test_files_links_and_texts_as_the_change_leaves_them(sample_vault):
    with Vault.open(sample_vault, use_cache=False) as vault:
        text = "---\ntitle: Sea clock\n---\n# Sea clock\n\nSee [[H4]] and [[John Harrison]].\n"
        proposed = Proposed(vault, {H4: None, "concepts/Sea clock.md": text,
                                    "./concepts/../concepts/Dead reckoning.md": "# Dead\n"})
        assert set(proposed.files) == {H4, "concepts/Sea clock.md", "concepts/Dead reckoning.md"}
        assert H4 not in proposed and "concepts/Sea clock.md" in proposed
        assert "entities/John Harrison.md" in proposed
        assert proposed.resolve("H4", "concepts/x.md") is None  # deleted
        assert vault.resolve("H4", "concepts/x.md") == H4  # the vault itself is unchanged
        assert proposed.resolve("Sea clock", "entities/x.md") == "concepts/Sea clock.md"
        assert proposed.resolve("John Harrison", "") == "entities/John Harrison.md"
        page = proposed.parse("concepts/Sea clock.md", text)
        assert [link.target for link in page.links] == ["H4", "John Harrison"]
        assert proposed.parse("concepts/Sea clock.md", text) is page  # read once


def test_resolution_equals_a_resolver_built_from_the_files_after(sample_vault):
    with Vault.open(sample_vault, use_cache=False) as vault:
        files = {H4: None, "entities/h4.md": "# h4\n", "people/H4.md": "# H4\n",
                 "concepts/Longitude problem.md": None}
        proposed = Proposed(vault, files)
        fresh = Resolver(sorted(proposed.paths))
        for target in ("H4", "h4", "entities/H4", "people/H4", "Longitude problem",
                       "Dead reckoning", "./H4", "../entities/h4", "Missing"):
            for source in ("", "entities/James Cook.md", "people/x.md"):
                assert proposed.resolve(target, source) == fresh.resolve(target, source), \
                    (target, source)


def test_the_lint_reads_the_change_through_a_given_proposed(sample_vault):
    with Vault.open(sample_vault, use_cache=False) as vault:
        files = {H4: None}
        alone = vault.lint_changes(files)
        shared = Proposed(vault, files)
        assert vault.lint_changes(files, proposed=shared) == alone
        assert any(f.code == "broken-link" for f in alone)
