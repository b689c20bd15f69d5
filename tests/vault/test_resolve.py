"""Obsidian's link resolution (shared/guide/obsidian-links.md), on tiny vault file sets."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from wiki_tui.vault.indexing.resolve import Resolver


def test_exact_vault_path_wins_from_any_folder():
    r = Resolver(["Note.md", "a/Note.md", "b/c/Note.md"])
    assert r.resolve("Note", "a/Other.md") == "Note.md"
    assert r.resolve("Note", "b/c/Other.md") == "Note.md"


def test_with_or_without_md():
    r = Resolver(["x/Page.md"])
    assert r.resolve("Page", "") == "x/Page.md"
    assert r.resolve("Page.md", "") == "x/Page.md"
    assert r.resolve("x/Page.md", "") == "x/Page.md"


def test_folder_path_from_root():
    r = Resolver(["Folder/Page.md", "Other/Folder/Page.md"])
    assert r.resolve("Folder/Page", "Other/x.md") == "Folder/Page.md"
    assert r.resolve("/Folder/Page", "") == "Folder/Page.md"


def test_own_folder_beats_shortest_path():
    r = Resolver(["a/Note.md", "long/folder/name/Note.md"])
    assert r.resolve("Note", "long/folder/name/Linker.md") == "long/folder/name/Note.md"


def test_ancestor_folders_count_for_nothing():
    r = Resolver(["a/Note.md", "zzzz/b/Note.md"])
    assert r.resolve("Note", "zzzz/b/c/Linker.md") == "a/Note.md"


def test_shortest_path_string():
    r = Resolver(["zzzz/Note.md", "a/b/Note.md"])
    assert r.resolve("Note", "q/Linker.md") == "a/b/Note.md"  # 11 chars beat 12


def test_tie_break_is_deterministic():
    assert Resolver(["b/Note.md", "a/Note.md"]).resolve("Note", "") == "a/Note.md"
    assert Resolver(["a/Note.md", "b/Note.md"]).resolve("Note", "") == "a/Note.md"


def test_partial_path_matches_as_suffix():
    r = Resolver(["a/b/Note.md", "c/Note.md"])
    assert r.resolve("b/Note", "x.md") == "a/b/Note.md"
    assert r.resolve("ab/Note", "x.md") is None  # suffix only at a folder boundary


def test_own_folder_with_partial_path():
    r = Resolver(["f/sub/Note.md", "sub/x/sub/Note.md"])
    assert r.resolve("sub/Note", "f/Linker.md") == "f/sub/Note.md"


def test_relative_paths():
    r = Resolver(["x/y.md", "x/z/w.md", "y.md"])
    assert r.resolve("../y", "x/z/w.md") == "x/y.md"
    assert r.resolve("./w", "x/z/Other.md") == "x/z/w.md"
    assert r.resolve("../y", "x/Linker.md") == "y.md"
    assert r.resolve("../../y", "x/Linker.md") is None  # outside the vault
    assert r.resolve("./missing", "x/z/w.md") is None


def test_case_insensitive():
    r = Resolver(["Log.md", "Ext.md", "img/Photo.PNG"])
    assert r.resolve("log", "") == "Log.md"
    assert r.resolve("Ext.MD", "") == "Ext.md"
    assert r.resolve("photo.png", "") == "img/Photo.PNG"


def test_exact_case_preferred_among_case_variants():
    r = Resolver(["a/note.md", "a/Note.md"])
    assert r.resolve("a/Note", "") == "a/Note.md"
    assert r.resolve("a/note", "") == "a/note.md"


def test_nfc_normalisation_both_sides():
    nfd = unicodedata.normalize("NFD", "Café")
    r = Resolver([f"c/{nfd}.md"])
    assert r.resolve("Café", "") == "c/Café.md"
    assert r.resolve(nfd, "") == "c/Café.md"
    assert "c/Café.md" in r


def test_attachments_need_their_extension():
    r = Resolver(["img/Figure 1.png", "doc.pdf"])
    assert r.resolve("Figure 1.png", "") == "img/Figure 1.png"
    assert r.resolve("Figure 1", "") is None
    assert r.resolve("doc", "") is None
    assert r.resolve("doc.pdf", "") == "doc.pdf"


def test_dotted_page_names():
    r = Resolver(["v1.2.md", "Dr. Who.md"])
    assert r.resolve("v1.2", "") == "v1.2.md"
    assert r.resolve("Dr. Who", "") == "Dr. Who.md"


def test_same_page_link_resolves_to_itself():
    r = Resolver(["a/Page.md"])
    assert r.resolve("", "a/Page.md") == "a/Page.md"


def test_unresolved_and_url_like_targets():
    r = Resolver(["Note.md"])
    assert r.resolve("Nope", "") is None
    assert r.resolve("https://x.y", "") is None


def test_aliases_are_not_targets():
    # the resolver only knows files; aliases belong to Vault.resolve_alias
    assert Resolver(["Artificial Intelligence.md"]).resolve("AI", "") is None


def test_incremental_add_remove_rename():
    r = Resolver(["a/Note.md"])
    r.add("Note.md")
    assert r.resolve("Note", "a/x.md") == "Note.md"
    r.remove("Note.md")
    assert r.resolve("Note", "a/x.md") == "a/Note.md"
    r.rename("a/Note.md", "b/Renamed.md")
    assert r.resolve("Note", "") is None
    assert r.resolve("Renamed", "") == "b/Renamed.md"
    r.remove("not/there.md")  # harmless
    assert len(r) == 1 and list(r) == ["b/Renamed.md"]


def test_candidates_list_every_match_best_first():
    r = Resolver(["zz/Note.md", "a/b/Note.md", "c/Note.md", "Other.md"])
    assert r.candidates("Note") == ["c/Note.md", "zz/Note.md", "a/b/Note.md"]
    assert r.candidates("Note", "zz/x.md")[0] == "zz/Note.md"  # own folder first
    assert r.candidates("b/Note") == ["a/b/Note.md"]
    assert r.candidates("Missing") == []


# -- properties over random file sets ---------------------------------------------------

_segment = st.sampled_from(["a", "b", "B", "Note", "note", "zz", "Café", "x y"])
_path = st.builds(
    lambda parts, ext: "/".join(parts) + ext,
    st.lists(_segment, min_size=1, max_size=3),
    st.sampled_from([".md", ".md", ".png", ".MD"]),
)
_paths = st.lists(_path, max_size=12, unique=True)


@settings(max_examples=60)
@given(_paths)
def test_every_file_resolves_to_itself_by_full_path(paths):
    r = Resolver(paths)
    for path in paths:
        assert r.resolve(path, "") == path
        if path.endswith(".md"):
            assert r.resolve(path[:-3], "some/where.md") == path


@settings(max_examples=60)
@given(_paths, _segment, st.sampled_from(["", "a/x.md", "b/B/x.md"]))
def test_resolution_is_one_of_the_candidates(paths, name, from_path):
    r = Resolver(paths)
    found = r.resolve(name, from_path)
    candidates = r.candidates(name, from_path)
    assert (found is None) == (not candidates)
    if found is not None:
        assert found == candidates[0]


@settings(max_examples=60)
@given(_paths, _paths, _segment, st.sampled_from(["", "a/x.md"]))
def test_incremental_updates_equal_a_fresh_build(first, second, name, from_path):
    r = Resolver(first)
    for path in first:
        if path not in second:
            r.remove(path)
    for path in second:
        r.add(path)
    fresh = Resolver(second)
    assert sorted(r) == sorted(fresh)
    assert r.resolve(name, from_path) == fresh.resolve(name, from_path)
    assert r.candidates(name, from_path) == fresh.candidates(name, from_path)


@settings(max_examples=80)
@given(_paths, _paths, _segment, st.sampled_from(["", "a/x.md", "b/B/x.md"]))
def test_a_changed_copy_resolves_as_a_fresh_build_and_leaves_the_original(first, second, name,
                                                                          from_path):
    r = Resolver(first)
    before = {(t, f): r.resolve(t, f) for t in (name, name + ".md", f"a/{name}") for f in
              ("", from_path)}
    gone = [p for p in first if p not in second]
    after = r.changed(gone, second)
    fresh = Resolver(second)
    assert sorted(after) == sorted(fresh)
    for target in (name, name + ".md", f"a/{name}", f"./{name}", ""):
        assert after.resolve(target, from_path) == fresh.resolve(target, from_path)
        assert after.candidates(target, from_path) == fresh.candidates(target, from_path)
    assert sorted(r) == sorted(Resolver(first))  # the original is untouched
    assert {(t, f): r.resolve(t, f) for t, f in before} == before
