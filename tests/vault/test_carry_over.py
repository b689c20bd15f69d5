"""A folder read before it was adopted kept its index in the user cache; once adopted, its index
is carried into `.wiki-tui/` instead of being built again: the same answers as a cold build,
pages changed in between re-read, and a cached file that is no database simply not carried."""

from __future__ import annotations

import os

from wiki_tui.vault import Vault
from wiki_tui.vault.state import cache_state_dir


def _folder(root):
    (root / "notes").mkdir(parents=True)
    for n in range(6):
        (root / "notes" / f"N{n}.md").write_text(f"# N{n}\n\n[[N{(n + 1) % 6}]] [[Nowhere]]\n", encoding="utf-8")
    for path in root.rglob("*.md"):  # written a while ago (a just-written file is re-read anyway)
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - 60_000_000_000))
    return root


def _answers(vault) -> tuple:
    lint = sorted((f.code, f.path, f.line, f.message) for f in vault.lint())
    back = {p: sorted(b.source for b in vault.backlinks(p)) for p in sorted(vault.pages)}
    return lint, back, sorted(h.path for h in vault.search("N3"))


def test_an_adopted_folder_carries_its_cached_index_over(tmp_path):
    root = _folder(tmp_path / "notes-folder")
    with Vault.open(root) as read:  # only read: the index goes to the user cache
        assert read.load_stats["cold"] and not (root / ".wiki-tui").exists()
        read.search("N1")  # the search database too
    assert (cache_state_dir(root) / "index.sqlite").is_file()
    changed = root / "notes" / "N2.md"  # edited before the folder is adopted
    changed.write_text("# N2\n\n[[N5]] only now\n", encoding="utf-8")
    (root / "AGENTS.md").write_text("# Conventions\n", encoding="utf-8")  # adopted
    with Vault.open(root) as carried:
        assert carried.load_stats["cold"] is False  # not built again
        assert (root / ".wiki-tui" / "index.sqlite").is_file()
        got = _answers(carried)
    assert (root / ".wiki-tui" / "search.sqlite").is_file()
    for name in ("index.sqlite", "search.sqlite"):
        (root / ".wiki-tui" / name).unlink()
    with Vault.open(root, use_cache=False) as cold:
        assert _answers(cold) == got
    assert "notes/N2.md" in dict(got[1])["notes/N5.md"]


def test_a_cached_file_that_is_no_database_is_not_carried(tmp_path):
    root = _folder(tmp_path / "notes-folder")
    cache = cache_state_dir(root)
    cache.mkdir(parents=True)
    (cache / "index.sqlite").write_bytes(b"not a database at all" * 100)
    (root / "AGENTS.md").write_text("# Conventions\n", encoding="utf-8")
    with Vault.open(root) as vault:
        assert vault.load_stats["cold"] is True
        assert sorted(b.source for b in vault.backlinks("notes/N1.md")) == ["notes/N0.md"]
    assert not [p for p in (root / ".wiki-tui").iterdir() if ".carrying-" in p.name]
