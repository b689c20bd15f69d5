"""The vault index on small fixture vaults: links in Obsidian's shape, backlinks, mentions,
tags/folders/types, and incremental updates that equal a full rebuild."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import write_files as write
from wiki_tui.vault import Vault

BASIC = {
    "AGENTS.md": "---\nrequired_fields: [title]\n---\nrules\n",
    "Note.md": "root note\n",
    "a/Note.md": "in a\n",
    "a/b/Deep.md": "See [[Note]] and [[Deep]] and [[../Note]].\n",
    "zzzz/Other.md": "---\naliases: [AI, Artificial]\ntags: [x, topic/sub]\n---\n"
                     "[[Note]] [[Missing]] [[missing]] ![[img.png|100]] [t](<a/Note.md>) #inline\n"
                     "```\n[[InCode]]\n```\n`[[Inline]]` %% [[Hidden]] %%\n",
    "c/User.md": '---\ntitle: User Page\nrelated: "[[Other]]"\ntype: concept\n---\n'
                 "[[AI]] and [[Other#Heading|shown]] and [[#Self]].\n",
    "img.png": b"\x89PNG",
    ".obsidian/Hidden.md": "[[Note]]",
    "raw/source.md": "[[Note]] raw is not a page",
}


def test_layout_pages_attachments_and_hidden(tmp_path):
    vault = Vault.open(write(tmp_path, BASIC), use_cache=False)
    assert sorted(vault.pages) == [
        "AGENTS.md", "Note.md", "a/Note.md", "a/b/Deep.md", "c/User.md", "zzzz/Other.md",
    ]
    assert "img.png" in vault.attachments and "raw/source.md" in vault.attachments
    assert vault.is_raw("raw/source.md") and not vault.is_page("raw/source.md")
    assert vault.schema.required_fields == ["title"]


def test_links_in_obsidians_shape(tmp_path):
    vault = Vault.open(write(tmp_path, BASIC), use_cache=False)
    # Exact path beats own folder; ../ is relative to the linking page.
    assert vault.resolved_links["a/b/Deep.md"] == {"Note.md": 1, "a/b/Deep.md": 1, "a/Note.md": 1}
    assert vault.resolved_links["zzzz/Other.md"] == {"Note.md": 1, "img.png": 1, "a/Note.md": 1}
    # Unresolved links keep their text; code, inline code and comments never count.
    assert vault.unresolved_links["zzzz/Other.md"] == {"Missing": 1, "missing": 1}
    # Frontmatter links count; aliases are not targets ([[AI]] stays unresolved).
    assert vault.resolved_links["c/User.md"] == {"zzzz/Other.md": 2}
    assert vault.unresolved_links["c/User.md"] == {"AI": 1}


def test_outgoing_marks_alias_resolution_apart(tmp_path):
    vault = Vault.open(write(tmp_path, BASIC), use_cache=False)
    rows = {link.raw: (target, via) for link, target, via in vault.outgoing("c/User.md")}
    assert rows["[[AI]]"] == ("zzzz/Other.md", True)
    assert rows["[[Other#Heading|shown]]"] == ("zzzz/Other.md", False)
    assert rows["[[#Self]]"] == ("c/User.md", False)
    assert vault.resolve("AI") is None
    assert vault.resolve_alias("ai") == "zzzz/Other.md"


def test_backlinks_with_line_and_context(tmp_path):
    vault = Vault.open(write(tmp_path, BASIC), use_cache=False)
    back = vault.backlinks("zzzz/Other.md")
    assert [(b.source, b.line, b.via_alias) for b in back] == [
        ("c/User.md", 3, False), ("c/User.md", 6, False), ("c/User.md", 6, True),
    ]
    assert back[0].context == 'related: "[[Other]]"'
    assert back[2].link.raw == "[[AI]]"
    assert [b.source for b in vault.backlinks("Note.md")] == ["a/b/Deep.md", "zzzz/Other.md"]


def test_unlinked_mentions_skip_links_code_frontmatter_and_self(tmp_path):
    files = {
        "Review Meeting.md": "---\naliases: [RM]\n---\nThis Review Meeting page.\n",
        "One.md": "---\ntitle: Review Meeting notes\n---\nWe had a review meeting. See [[Review Meeting]].\n"
                  "`review meeting` in code\n```\nreview meeting\n```\nThe RM went fine; RMS is not it.\n",
        "Two.md": "Nothing relevant, reviewing meetings.\n",
    }
    vault = Vault.open(write(tmp_path, files), use_cache=False)
    mentions = vault.unlinked_mentions("Review Meeting.md")
    # line 4 links the page: a linked mention, not counted again as unlinked
    assert [(m.source, m.line, m.text) for m in mentions] == [("One.md", 9, "RM")]
    assert mentions[0].context.startswith("The RM went fine")


def test_tags_folders_types(tmp_path):
    vault = Vault.open(write(tmp_path, BASIC), use_cache=False)
    tags = vault.tags()
    assert tags["x"] == ["zzzz/Other.md"] and tags["inline"] == ["zzzz/Other.md"]
    assert "topic/sub" in tags
    assert vault.by_folder()["a/b"] == ["a/b/Deep.md"]
    assert vault.by_type()["concept"] == ["c/User.md"]


def test_page_lookup_by_path_name_title_alias(tmp_path):
    vault = Vault.open(write(tmp_path, BASIC), use_cache=False)
    assert vault.page("c/User.md").title == "User Page"
    assert vault.page("c/User").path == "c/User.md"
    assert vault.page("Deep").path == "a/b/Deep.md"
    assert vault.page("user page").path == "c/User.md"
    assert vault.page("artificial").path == "zzzz/Other.md"
    assert vault.page("nothing") is None


def _snapshot(vault: Vault):
    return (
        sorted(vault.pages),
        {k: dict(v) for k, v in vault.resolved_links.items()},
        {k: dict(v) for k, v in vault.unresolved_links.items()},
        {p: [(b.source, b.line, b.via_alias) for b in vault.backlinks(p)] for p in sorted(vault.pages)},
        [(h.path, h.field) for h in vault.find("n")],
        [h.path for h in vault.search("note")],
    )


def test_refresh_and_rename_equal_a_rebuild(tmp_path):
    root = write(tmp_path / "v", BASIC)
    vault = Vault.open(root, use_cache=False)
    vault.find("x"), vault.search("x")  # build finder and search so they are kept up to date too
    (root / "a/b/Note.md").write_text("now [[Deep]] has a closer Note\n")
    vault.refresh_file("a/b/Note.md")
    (root / "Note.md").unlink()
    vault.refresh_file("Note.md")
    (root / "zzzz/Other.md").rename(root / "c/Renamed.md")
    vault.rename_file("zzzz/Other.md", "c/Renamed.md")
    (root / "Missing.md").write_text("I exist now\n")
    vault.refresh_file(str(root / "Missing.md"))  # absolute paths inside the vault work too
    # Note.md is gone: [[Note]] now finds the linking page's own folder.
    assert vault.resolved_links["a/b/Deep.md"] == {"a/b/Note.md": 1, "a/b/Deep.md": 1, "a/Note.md": 1}
    assert "Missing" not in vault.unresolved_links.get("c/Renamed.md", {})
    assert _snapshot(vault) == _snapshot(Vault.open(root, use_cache=False))


NAMES = ["Note", "a/Note", "b/Note", "Deep", "a/Deep", "Alias", "x/y/Note"]
page_text = st.lists(
    st.sampled_from(["[[Note]]", "[[a/Note]]", "[[Deep]]", "[[Alias]]", "[[../Note]]", "[[Nope]]", "plain Note",
                     "---\naliases: [Alias]\n---\n", "`[[Note]]`", "![[img.png]]"]),
    max_size=5,
).map(lambda parts: " ".join(parts) + "\n")
operations = st.lists(
    st.tuples(st.sampled_from(["write", "delete", "rename"]), st.sampled_from(NAMES), st.sampled_from(NAMES), page_text),
    min_size=1, max_size=8,
)


@settings(max_examples=25)
@given(ops=operations)
def test_incremental_updates_equal_full_rebuild(tmp_path_factory, ops):
    root = tmp_path_factory.mktemp("prop")
    write(root, {"Note.md": "[[Deep]]\n", "a/Deep.md": "[[Note]] [[Alias]]\n", "img.png": b"x"})
    vault = Vault.open(root, use_cache=False)
    vault.find("n"), vault.search("note")
    for op, name, other, text in ops:
        path, new = f"{name}.md", f"{other}.md"
        if op == "write":
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
            vault.refresh_file(path)
        elif op == "delete" and (root / path).exists():
            (root / path).unlink()
            vault.refresh_file(path)
        elif op == "rename" and (root / path).exists() and not (root / new).exists():
            (root / new).parent.mkdir(parents=True, exist_ok=True)
            (root / path).rename(root / new)
            vault.rename_file(path, new)
    assert _snapshot(vault) == _snapshot(Vault.open(root, use_cache=False))
    vault.close()


def test_folder_removed_and_added(tmp_path):
    root = write(tmp_path, {"a/One.md": "[[Two]]", "a/Two.md": "x", "Top.md": "[[One]] [[Two]]"})
    vault = Vault.open(root, use_cache=False)
    (root / "a").rename(root / "b")
    vault.refresh_file("a")
    vault.refresh_file("b")
    assert sorted(vault.pages) == ["Top.md", "b/One.md", "b/Two.md"]
    assert vault.resolved_links["Top.md"] == {"b/One.md": 1, "b/Two.md": 1}
