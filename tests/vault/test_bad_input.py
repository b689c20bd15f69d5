"""Bad input never crashes the scan and loses nothing."""

from __future__ import annotations

import os

import pytest

from wiki_tui.vault import Vault, VaultError
from wiki_tui.vault import model
from wiki_tui.vault.layout import clean_path

from .test_index import write

BAD_UTF8 = b"---\ntitle: Caf\xe9\n---\nbody with \xff\xfe bytes [[Good]]\n"


@pytest.fixture
def root(tmp_path):
    return write(tmp_path / "v", {
        "Good.md": "fine [[Latin]] [[Binary]]\n",
        "Latin.md": BAD_UTF8,
        "Binary.md": b"\x00\x01\x02PNG[[Good]]\x00",
        "Yaml.md": "---\ntitle: [unclosed\ntags: {\n---\nstill [[Good]]\n",
        "Empty.md": "",
        "Only fm.md": "---\ntitle: x\n---",
        # 5 MB: 140,000 lines, a link on every 1,000th.
        "Big.md": "# Big\n" + (("lorem ipsum dolor sit amet, consectetur\n" * 999) + "see [[Good]]\n") * 140
                  + "the needle line\n",
    })


def test_open_lint_and_search_survive(root):
    vault = Vault.open(root, use_cache=False)
    assert len(vault.pages) == 7
    latin = vault.pages["Latin.md"]
    assert "\ufffd" in vault.read_text("Latin.md")
    assert any("UTF-8" in w for w in latin.warnings)
    assert vault.resolved_links["Latin.md"] == {"Good.md": 1}
    assert any("binary" in w for w in vault.pages["Binary.md"].warnings)
    assert vault.pages["Yaml.md"].warnings and vault.resolved_links["Yaml.md"] == {"Good.md": 1}
    assert vault.pages["Empty.md"].links == []
    assert vault.resolved_links["Big.md"] == {"Good.md": 140}
    warned = {f.path for f in vault.lint() if f.code == "page-warning"}
    assert warned >= {"Latin.md", "Binary.md", "Yaml.md"}
    hit = vault.search("needle")[0]
    assert (hit.path, hit.line) == ("Big.md", 140_002)
    assert vault.find("big")[0].path == "Big.md"
    vault.unlinked_mentions("Good.md")
    vault.close()
    # Nothing was rewritten.
    assert (root / "Latin.md").read_bytes() == BAD_UTF8
    assert (root / "Binary.md").read_bytes() == b"\x00\x01\x02PNG[[Good]]\x00"


def test_symlinks_out_of_the_vault_are_not_followed(tmp_path):
    outside = write(tmp_path / "outside", {"Secret.md": "secret", "dir/Deep.md": "deep"})
    root = write(tmp_path / "v", {"Home.md": "[[Secret]] [[Inner]]", "real/Inner.md": "x"})
    os.symlink(outside / "Secret.md", root / "Secret.md")
    os.symlink(outside / "dir", root / "linked")
    os.symlink(root / "real", root / "alias-dir")  # inside: followed
    os.symlink(root / "missing", root / "Dangling.md")
    os.symlink(root, root / "real" / "loop")  # a cycle: visited once
    vault = Vault.open(root, use_cache=False)
    assert sorted(vault.pages) == ["Home.md", "alias-dir/Inner.md", "real/Inner.md"]
    assert vault.unresolved_links["Home.md"] == {"Secret": 1}
    with pytest.raises(VaultError):
        vault.read_text("Secret.md")
    with pytest.raises(VaultError):
        vault.read_text("../outside/Secret.md")
    with pytest.raises(VaultError):
        vault.refresh_file(str(outside / "Secret.md"))
    with pytest.raises(VaultError, match="symlink"):
        vault.refresh_file("Secret.md")


def test_file_vanishing_mid_scan_is_skipped(tmp_path, monkeypatch):
    root = write(tmp_path / "v", {"Stay.md": "[[Gone]]", "Gone.md": "x"})
    real_scan = model.scan_tree

    def scan_then_delete(path):
        tree = real_scan(path)
        (root / "Gone.md").unlink()
        return tree

    monkeypatch.setattr(model, "scan_tree", scan_then_delete)
    vault = Vault.open(root, use_cache=False)
    assert sorted(vault.pages) == ["Stay.md"]
    assert vault.unresolved_links["Stay.md"] == {"Gone": 1}


def test_refresh_of_unreadable_or_missing_paths(tmp_path):
    root = write(tmp_path / "v", {"A.md": "x"})
    vault = Vault.open(root, use_cache=False)
    vault.refresh_file("never/existed.md")
    assert sorted(vault.pages) == ["A.md"]
    with pytest.raises(VaultError):
        vault.refresh_file("")
    with pytest.raises(VaultError):
        vault.outgoing("nope.md")


def test_missing_vault_folder(tmp_path):
    with pytest.raises(VaultError, match="does not exist"):
        Vault.open(tmp_path / "nothing")
    (tmp_path / "file").write_text("x")
    with pytest.raises(VaultError, match="not a folder"):
        Vault.open(tmp_path / "file")


def test_nfd_file_names_are_nfc_paths_and_still_readable(tmp_path):
    import unicodedata

    nfd = unicodedata.normalize("NFD", "Café.md")
    root = write(tmp_path / "v", {nfd: "accent [[Home]]", "Home.md": "[[Café]]"})
    vault = Vault.open(root, use_cache=False)
    assert "Café.md" in vault.pages and vault.read_text("Café.md") == "accent [[Home]]"
    assert vault.resolved_links["Home.md"] == {"Café.md": 1}
    (root / nfd).write_text("changed [[Home]] [[Else]]")
    vault.refresh_file(nfd)  # as a watcher reports it
    assert vault.unresolved_links["Café.md"] == {"Else": 1}
    (root / nfd).unlink()
    vault.refresh_file(nfd)
    assert "Café.md" not in vault.pages


def test_many_paths_cleaned_at_once_refuse_links_out_as_one_at_a_time(tmp_path):
    """clean_path with the folders' real paths remembered (a changeset's files cleaned
    together) answers each path as it does alone: a folder or a file linking out is refused,
    a folder linking inside is followed, a path under a link out is refused every time."""
    outside = write(tmp_path / "outside", {"Secret.md": "secret", "dir/Deep.md": "deep"})
    root = write(tmp_path / "v", {"Home.md": "x", "real/Inner.md": "x"})
    os.symlink(outside / "Secret.md", root / "real" / "Secret.md")
    os.symlink(outside / "dir", root / "linked")
    os.symlink(root / "real", root / "alias-dir")
    real_root, folders = os.path.realpath(root), {}
    paths = ["real/Inner.md", "real/Secret.md", "linked/Deep.md", "linked/New.md",
             "alias-dir/Inner.md", "alias-dir/Secret.md", "real/New.md", "Home.md",
             "new/folder/Page.md", "./real/../Home.md"]
    for path in paths * 2:  # the second time from the remembered folders
        try:
            alone = clean_path(root, path)
        except VaultError:
            alone = None
        try:
            together = clean_path(root, path, real_root=real_root, real_folders=folders)
        except VaultError:
            together = None
        assert together == alone, path
    assert clean_path(root, "alias-dir/Inner.md", real_folders=folders) == "alias-dir/Inner.md"
    with pytest.raises(VaultError, match="symlink"):
        clean_path(root, "linked/New.md", real_root=real_root, real_folders=folders)
