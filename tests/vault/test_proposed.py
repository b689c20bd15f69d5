"""`Proposed`: the vault as proposed texts would leave it, on a copy of sample_vault/."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


# -- reach: now and after from one resolution, checked against resolvers built from scratch ---
_NAMES = ["H4", "h4", "H4.md", "John Harrison", "Dead reckoning", "Longitude problem",
          "Sea clock", "Cafe\u0301", "Caf\u00e9", "Missing", "index", "raw"]
_FOLDERS = ["", "entities/", "concepts/", "people/", "/", "./", "../", "../entities/",
            "nowhere/", "ENTITIES/"]
_SOURCES = ["", "entities/James Cook.md", "people/x.md", "concepts/Deep/one.md"]
_CHANGES = [{H4: None}, {"entities/h4.md": "# h4\n"}, {"people/H4.md": "# H4\n"},
            {"concepts/Longitude problem.md": None}, {"concepts/Caf\u00e9.md": "# Café\n"},
            {"Sea clock.md": "# Sea clock\n"}, {"entities/John Harrison.md": "# changed\n"}]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.sampled_from(_CHANGES), min_size=1, max_size=4),
       targets=st.lists(st.tuples(st.sampled_from(_FOLDERS), st.sampled_from(_NAMES),
                                  st.sampled_from(["", " ", ".md", "/"])), min_size=1,
                        max_size=12),
       source=st.sampled_from(_SOURCES))
def test_reach_is_both_resolutions_from_scratch(sample_vault, changes, targets, source):
    """Whatever the change and linkpath (relative, rooted, case and Unicode variants, a name
    the change leaves alone or one it adds or removes), `reach` gives what a resolver built
    from the files before and one built from the files after would: the shortcut that resolves
    an untouched name once must never answer for a name the change touches."""
    files: dict[str, str | None] = {}
    for change in changes:
        files.update(change)
    with Vault.open(sample_vault, use_cache=False) as vault:
        proposed = Proposed(vault, files)
        before = Resolver(sorted(set(vault.pages) | set(vault.attachments)))
        after = Resolver(sorted(proposed.paths))
        for folder, name, tail in targets:
            target = folder + name + tail
            assert proposed.reach(target, source) == (before.resolve(target, source),
                                                      after.resolve(target, source)), target


def test_links_of_a_page_are_resolved_once_for_both_readers(sample_vault):
    with Vault.open(sample_vault, use_cache=False) as vault:
        text = ("See [[H4]], [[h4#Trials]], [[./John Harrison]], [[Sea clock]], [[]] and "
                "[a site](https://example.org).\n")
        proposed = Proposed(vault, {H4: None, "concepts/Sea clock.md": "# Sea clock\n",
                                    "concepts/Notes.md": text})
        page = proposed.parse("concepts/Notes.md", text)
        rows = proposed.links("concepts/Notes.md", page)
        assert all(link.kind != "external" for link, _n, _a in rows)
        by_raw = {link.raw: (now, after) for link, now, after in rows}
        assert by_raw["[[H4]]"] == (H4, None)  # deleted by the change
        assert by_raw["[[Sea clock]]"] == (None, "concepts/Sea clock.md")  # made by it
        assert proposed.links("concepts/Notes.md", page) is rows  # worked out once
