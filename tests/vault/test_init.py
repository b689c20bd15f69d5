"""init_vault: layout, schema, index, log, .gitignore, a git repository with one commit."""

from __future__ import annotations

import subprocess

import pytest

from wiki_tui.vault import VaultError, init_vault


def git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def test_new_vault_layout_and_commit(tmp_path):
    vault = init_vault(tmp_path / "v")
    root = vault.root
    assert (root / "raw").is_dir()
    assert vault.schema.found and vault.schema.required_fields == ["title", "type", "summary"]
    assert list(vault.schema.types) == ["source", "entity", "concept", "synthesis", "answer"]
    assert (root / "index.md").read_text().startswith("# Index")
    assert (root / "log.md").read_text() == "# Log\n"
    assert ".wiki-tui/" in (root / ".gitignore").read_text().splitlines()
    assert git(root, "log", "--oneline").count("\n") == 1
    assert git(root, "status", "--porcelain") == ""  # the cache in .wiki-tui/ stays untracked
    vault.close()
    assert git(root, "status", "--porcelain") == ""
    assert vault.lint() == []


def test_refuses_existing_vaults(tmp_path):
    init_vault(tmp_path / "v").close()
    before = sorted(p.name for p in (tmp_path / "v").iterdir())
    with pytest.raises(VaultError, match="already holds a vault"):
        init_vault(tmp_path / "v")
    assert sorted(p.name for p in (tmp_path / "v").iterdir()) == before
    (tmp_path / "file").write_text("x")
    with pytest.raises(VaultError, match="not a folder"):
        init_vault(tmp_path / "file")


def test_adopts_a_folder_of_notes_without_touching_them(tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "Mine.md").write_text("my note [[Other]]")
    (notes / ".gitignore").write_text("*.tmp")
    git(tmp_path, "init", "-q", "notes")
    git(notes, "config", "user.email", "t@example.invalid")
    git(notes, "config", "user.name", "t")
    vault = init_vault(notes)
    assert "Mine.md" in vault.pages
    assert (notes / ".gitignore").read_text() == "*.tmp\n.wiki-tui/\n"
    committed = git(notes, "show", "--name-only", "--format=", "HEAD").split()
    assert sorted(committed) == [".gitignore", "AGENTS.md", "index.md", "log.md", "raw/.gitkeep"]
    assert "?? Mine.md" in git(notes, "status", "--porcelain")  # the person's note stays theirs


def test_empty_existing_folder_is_fine(tmp_path):
    (tmp_path / "empty").mkdir()
    vault = init_vault(tmp_path / "empty")
    assert sorted(vault.pages) == ["AGENTS.md", "index.md", "log.md"]
