"""The vault's index on disk (SQLite): warm starts re-parse only what changed and equal a cold
build; a damaged, foreign or crafted database means a cold build (or a page read again)."""

from __future__ import annotations

import os
import pickle
import sqlite3

from wiki_tui.vault import Vault
from wiki_tui.vault.indexing.cache import page_to_record, record_to_page
from wiki_tui.vault.model import INDEX_DB
from wiki_tui.vault.parse.page import parse_page
from wiki_tui.vault.indexing.store import PageMap

from .test_index import BASIC, _snapshot, write


def test_record_round_trip():
    page = parse_page("a/Note.md", '---\ntitle: T\naliases: [x]\nrelated: "[[B]]"\n---\n# H\n[[A#h|s]] ^blk\n')
    again = record_to_page(page_to_record(page))
    assert again == page
    pages = PageMap()
    pages.put(page)
    assert "a/Note.md" in pages and pages["a/Note.md"] is page and list(pages) == ["a/Note.md"]
    pages._objects.clear()  # built again from the stored record
    assert pages["a/Note.md"] == page and pages.record("a/Note.md") == page_to_record(page)


def age(root, seconds=3600):
    """Backdate every file: files written within 2 s of being indexed are re-read ("racy")."""
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink() and ".wiki-tui" not in path.parts:
            stamp = path.stat().st_mtime - seconds
            os.utime(path, (stamp, stamp))


def test_warm_start_reuses_the_index_and_reparses_only_changes(tmp_path):
    root = write(tmp_path / "v", BASIC)
    age(root)
    cold = Vault.open(root)
    assert cold.load_stats["cold"] is True
    cold_snapshot = _snapshot(cold)
    cold.close()
    assert (root / ".wiki-tui" / INDEX_DB).exists()
    assert (root / ".wiki-tui" / ".gitignore").read_text().strip().endswith("*")
    warm = Vault.open(root)
    assert warm.load_stats == {"cold": False, "parsed": 0, "removed": 0}
    assert _snapshot(warm) == cold_snapshot
    warm.close()
    (root / "a/Note.md").write_text("changed [[Deep]]\n")
    os.utime(root / "a/Note.md", ns=(10**9, 10**9))
    (root / "Note.md").unlink()
    (root / "New.md").write_text("[[Note]]\n")
    (root / "img.png").unlink()
    warm = Vault.open(root)
    assert warm.load_stats == {"cold": False, "parsed": 2, "removed": 1}
    assert _snapshot(warm) == _snapshot(Vault.open(root, use_cache=False))
    assert "img.png" in warm.unresolved_links["zzzz/Other.md"]
    warm.close()
    (root / "img.png").write_bytes(b"png")  # comes back while no wiki-tui runs
    again = Vault.open(root)
    assert "img.png" in again.resolved_links["zzzz/Other.md"]
    assert _snapshot(again) == _snapshot(Vault.open(root, use_cache=False))
    again.close()


def test_damaged_or_foreign_index_means_a_cold_build(tmp_path):
    root = write(tmp_path / "v", BASIC)
    state = root / ".wiki-tui"
    state.mkdir()
    for junk in (b"", b"garbage" * 100, pickle.dumps({"version": "other"})):
        (state / INDEX_DB).write_bytes(junk)
        vault = Vault.open(root)
        assert vault.load_stats["cold"] is True and len(vault.pages) == 6
        vault.close()


def test_read_only_state_dir_does_not_fail(tmp_path):
    root = write(tmp_path / "v", BASIC)
    (root / ".wiki-tui").write_text("a file where the folder should be")
    vault = Vault.open(root)
    assert vault.save_cache() is False  # the index lives in memory this time
    assert vault.search("note")  # search falls back to an in-memory database
    assert vault.backlinks("Note.md")
    vault.close()


def test_forked_parse_equals_serial(tmp_path, monkeypatch):
    from wiki_tui.vault.indexing import bulk

    root = write(tmp_path / "v", {f"d{i % 7}/Page {i}.md": f"[[Page {i + 1}]] #t{i % 3}\n" for i in range(60)})
    monkeypatch.setattr(bulk, "MIN_PAGES_TO_FORK", 10)
    forked = Vault.open(root, use_cache=False)
    monkeypatch.setenv("WIKI_TUI_NO_FORK", "1")
    serial = Vault.open(root, use_cache=False)
    assert forked.pages.records() == serial.pages.records()
    assert _snapshot(forked) == _snapshot(serial)


class _Boom:
    def __reduce__(self):
        return (os.system, ("echo pwned > pwned.txt",))


def test_a_crafted_record_cannot_run_code(tmp_path, monkeypatch):
    root = write(tmp_path / "v", BASIC)
    age(root)
    Vault.open(root).close()
    db = sqlite3.connect(root / ".wiki-tui" / INDEX_DB)
    db.execute("UPDATE pages SET record=?", (pickle.dumps((_Boom(),)),))
    db.commit()
    db.close()
    monkeypatch.chdir(tmp_path)
    vault = Vault.open(root)
    assert vault.load_stats["cold"] is False
    assert vault.page("c/User.md").title == "User Page"  # read again from the file
    assert {b.source for b in vault.backlinks("Note.md")} == {"a/b/Deep.md", "zzzz/Other.md"}
    assert len(vault.pages.records()) == 6 and vault.lint() is not None
    assert not (tmp_path / "pwned.txt").exists()
    vault.close()


def test_racy_files_are_read_again(tmp_path):
    root = write(tmp_path / "v", {"A.md": "x", "B.md": "y"})
    age(root)
    (root / "B.md").write_text("z")  # written just now: its mtime cannot be trusted yet
    Vault.open(root).close()
    assert Vault.open(root).load_stats == {"cold": False, "parsed": 1, "removed": 0}


def test_frontmatter_dates_survive_the_index(tmp_path):
    root = write(tmp_path / "v", {"A.md": "---\ncreated: 2024-01-02\nwhen: 2024-01-02T03:04:05+01:00\n---\nx\n"})
    age(root)
    Vault.open(root).close()
    warm = Vault.open(root)
    assert warm.load_stats["cold"] is False
    assert str(warm.pages["A.md"].frontmatter["created"]) == "2024-01-02"
    assert str(warm.properties("A.md")["created"]) == "2024-01-02"


def test_index_of_the_right_version_but_odd_content(tmp_path):
    root = write(tmp_path / "v", BASIC)
    age(root)
    Vault.open(root).close()
    db = sqlite3.connect(root / ".wiki-tui" / INDEX_DB)
    db.executescript("DROP TABLE links; CREATE TABLE links(x);")
    db.close()
    vault = Vault.open(root)
    assert vault.load_stats["cold"] is True and len(vault.pages) == 6
    assert vault.backlinks("Note.md")
    vault.close()


def test_two_processes_share_the_index(tmp_path):
    """Another wiki-tui on the same vault (the CLI beside the app) writes the same rows."""
    root = write(tmp_path / "v", BASIC)
    age(root)
    first, second = Vault.open(root), Vault.open(root)
    (root / "Fresh.md").write_text("[[Note]] #new\n")
    first.refresh_file("Fresh.md")
    second.refresh_file("Fresh.md")
    assert "Fresh.md" in {b.source for b in first.backlinks("Note.md")}
    assert first.pages_tagged("#NEW") == ["Fresh.md"] == second.pages_tagged("new")
    first.close()
    second.close()
