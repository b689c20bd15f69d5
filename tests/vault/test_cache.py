"""The on-disk index cache: warm starts re-parse only what changed and equal a cold build."""

from __future__ import annotations

import os
import pickle

from wiki_tui.vault import Vault
from wiki_tui.vault.cache import CACHE_FILE, PageMap, page_to_record, record_to_page
from wiki_tui.vault.page import parse_page

from .test_index import BASIC, _snapshot, write


def test_record_round_trip():
    page = parse_page("a/Note.md", '---\ntitle: T\naliases: [x]\nrelated: "[[B]]"\n---\n# H\n[[A#h|s]] ^blk\n')
    again = record_to_page(page_to_record(page))
    assert again == page
    pages = PageMap()
    pages.put(page)
    assert "a/Note.md" in pages and pages["a/Note.md"] is page and list(pages) == ["a/Note.md"]


def age(root, seconds=3600):
    """Backdate every file: files written within 2 s of a cache save are re-read ("racy")."""
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            stamp = path.stat().st_mtime - seconds
            os.utime(path, (stamp, stamp))


def test_warm_start_reuses_cache_and_reparses_only_changes(tmp_path):
    root = write(tmp_path / "v", BASIC)
    age(root)
    cold = Vault.open(root)
    assert cold.load_stats["cold"] is True
    cold.close()
    assert (root / ".wiki-tui" / CACHE_FILE).exists()
    assert (root / ".wiki-tui" / ".gitignore").read_text().strip().endswith("*")
    warm = Vault.open(root)
    assert warm.load_stats == {"cold": False, "parsed": 0, "removed": 0}
    assert _snapshot(warm) == _snapshot(cold)
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


def test_damaged_or_foreign_cache_means_a_cold_build(tmp_path):
    root = write(tmp_path / "v", BASIC)
    state = root / ".wiki-tui"
    state.mkdir()
    for junk in (b"", b"garbage", pickle.dumps({"version": "other"}), pickle.dumps([1, 2])):
        (state / CACHE_FILE).write_bytes(junk)
        vault = Vault.open(root)
        assert vault.load_stats["cold"] is True and len(vault.pages) == 6


def test_read_only_state_dir_does_not_fail(tmp_path):
    root = write(tmp_path / "v", BASIC)
    (root / ".wiki-tui").write_text("a file where the folder should be")
    vault = Vault.open(root)
    assert vault.save_cache() is False
    assert vault.search("note")  # search falls back to an in-memory database
    vault.close()


def test_forked_parse_equals_serial(tmp_path, monkeypatch):
    from wiki_tui.vault import bulk

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


def test_a_crafted_cache_cannot_run_code(tmp_path, monkeypatch):
    root = write(tmp_path / "v", BASIC)
    (root / ".wiki-tui").mkdir()
    (root / ".wiki-tui" / CACHE_FILE).write_bytes(pickle.dumps({"version": None, "x": _Boom()}))
    monkeypatch.chdir(tmp_path)
    vault = Vault.open(root)
    assert vault.load_stats["cold"] is True
    assert not (tmp_path / "pwned.txt").exists()


def test_racy_files_are_read_again(tmp_path):
    root = write(tmp_path / "v", {"A.md": "x", "B.md": "y"})
    age(root)
    (root / "B.md").write_text("z")  # written just now: its mtime cannot be trusted yet
    Vault.open(root).close()
    assert Vault.open(root).load_stats == {"cold": False, "parsed": 1, "removed": 0}


def test_frontmatter_dates_survive_the_cache(tmp_path):
    root = write(tmp_path / "v", {"A.md": "---\ncreated: 2024-01-02\nwhen: 2024-01-02T03:04:05+01:00\n---\nx\n"})
    age(root)
    Vault.open(root).close()
    warm = Vault.open(root)
    assert warm.load_stats["cold"] is False
    assert str(warm.pages["A.md"].frontmatter["created"]) == "2024-01-02"


def test_cache_with_the_right_version_but_odd_content(tmp_path):
    from wiki_tui.vault.cache import VERSION

    root = write(tmp_path / "v", BASIC)
    (root / ".wiki-tui").mkdir()
    (root / ".wiki-tui" / CACHE_FILE).write_bytes(
        pickle.dumps({"version": VERSION, "root": str(root.resolve()), "pages": {}, "stamps": 3})
    )
    vault = Vault.open(root)
    assert vault.load_stats["cold"] is True and len(vault.pages) == 6
