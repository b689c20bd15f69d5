"""Opening from the index on disk without listing the vault (`Vault.open(check=False)`, the
app's warm start) and the freshness check that follows: until it runs the vault answers from
the index as it was; after it, exactly as a vault opened with a full listing (and as a cold
build). Commands that need an exact index (apply's sync) run the check themselves."""

from __future__ import annotations

import os
import unicodedata

from wiki_tui.vault import Vault

from .test_cache import age
from .test_index import BASIC, _snapshot, write


def _indexed(root):
    vault = Vault.open(root)
    vault.close()


def test_unchecked_open_answers_from_the_index_then_the_check_catches_up(tmp_path):
    root = write(tmp_path / "v", BASIC)
    age(root)
    _indexed(root)
    # outside changes while no wiki-tui runs: an edit, a new page, a deleted page and file
    (root / "a/Note.md").write_text("changed [[Deep]] #fresh\n")
    (root / "New.md").write_text("[[Note]] [[Missing]]\n")
    (root / "Note.md").unlink()
    (root / "img.png").unlink()
    (root / "att.pdf").write_bytes(b"%PDF")
    for name in ("a/Note.md", "New.md", "att.pdf"):  # past the racy window, newer than the index
        stamp = (root / name).stat().st_mtime - 60
        os.utime(root / name, (stamp, stamp))

    vault = Vault.open(root, check=False)
    assert not vault.checked and vault.load_stats == {"cold": False, "parsed": 0, "removed": 0}
    # the index as it was: nothing on disk was listed or read
    assert "Note.md" in vault.pages and "New.md" not in vault.pages
    assert "img.png" in vault.resolved_links["zzzz/Other.md"]
    assert vault.pages_tagged("fresh") == []

    changes = vault.check_freshness()
    assert vault.checked
    assert sorted(changes) == [
        ("added", "New.md"), ("added", "att.pdf"), ("deleted", "Note.md"),
        ("deleted", "img.png"), ("modified", "a/Note.md"),
    ]
    assert vault.load_stats == {"cold": False, "parsed": 2, "removed": 1}
    assert vault.pages_tagged("fresh") == ["a/Note.md"]
    exact = Vault.open(root, use_cache=False)
    assert _snapshot(vault) == _snapshot(exact)
    assert vault.tags() == exact.tags() and vault.page_rows() == exact.page_rows()
    assert vault.check_freshness() == []  # nothing changed since
    vault.close()
    exact.close()


def test_a_check_with_nothing_changed_reports_nothing(tmp_path):
    root = write(tmp_path / "v", BASIC)
    age(root)
    _indexed(root)
    vault = Vault.open(root, check=False)
    before = _snapshot(vault)
    assert vault.check_freshness() == []
    assert _snapshot(vault) == before
    vault.close()


def test_sync_with_disk_runs_the_check_first(tmp_path):
    """apply syncs with disk under the vault lock: on an unchecked vault that is the full
    check, even when log.md did not change (its stamp says nothing about other files)."""
    root = write(tmp_path / "v", {**BASIC, "log.md": "# Log\n"})
    age(root)
    _indexed(root)
    (root / "Later.md").write_text("[[Note]]\n")
    vault = Vault.open(root, check=False)
    assert "Later.md" not in vault.pages
    assert vault.sync_with_disk() == 1
    assert vault.checked and "Later.md" in vault.pages
    assert vault.linking_to("Note.md").get("Later.md") == 1
    assert vault.sync_with_disk() == 0  # checked now: log.md's stamp decides again
    vault.close()


def test_racy_files_are_read_again_by_the_check(tmp_path):
    """A file written within 2 s of its indexing may have changed again with the same stamp."""
    root = write(tmp_path / "v", {"A.md": "one [[B]]\n", "B.md": "b\n"})
    _indexed(root)  # not aged: written just now, so within the racy window
    stamp = (root / "A.md").stat()
    (root / "A.md").write_text("two [[C]]\n")  # same size
    os.utime(root / "A.md", ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    vault = Vault.open(root, check=False)
    assert vault.resolved_links["A.md"] == {"B.md": 1}
    assert ("modified", "A.md") in vault.check_freshness()
    assert vault.unresolved_links["A.md"] == {"C": 1}
    vault.close()


def test_names_stored_decomposed_on_disk_are_read_before_the_check(tmp_path):
    """An NFD file name (as macOS writes them) is known by its NFC path: the map between
    them is kept in the index, so an unchecked vault still reads the file."""
    nfd = unicodedata.normalize("NFD", "Café.md")
    root = write(tmp_path / "v", {"A.md": "[[Café]]\n"})
    (root / nfd).write_text("# Café\nbody\n")
    age(root)
    _indexed(root)
    vault = Vault.open(root, check=False)
    assert vault.read_text("Café.md") == "# Café\nbody\n"
    assert vault.page("Café.md") is not None
    assert vault.resolved_links["A.md"] == {"Café.md": 1}
    assert vault.check_freshness() == []
    vault.close()


def test_a_store_without_pages_means_a_cold_build_even_unchecked(tmp_path):
    root = write(tmp_path / "v", {"A.md": "[[B]]\n"})
    vault = Vault.open(root, check=False)  # no index yet: listed and built, so exact
    assert vault.checked and vault.load_stats["cold"] is True
    assert vault.unresolved_links["A.md"] == {"B": 1}
    vault.close()


def test_a_cold_build_cut_short_is_built_again(tmp_path, monkeypatch):
    """A cold build writes without the WAL and without syncing; the database carries no
    version until the build is complete, so one cut short is never taken for an index."""
    from wiki_tui.vault.indexing.index import LinkIndex

    root = write(tmp_path / "v", BASIC)
    age(root)

    def broken(self, pages, keys=None):
        raise OSError("disk full")

    with monkeypatch.context() as patch:
        patch.setattr(LinkIndex, "add_new", broken)
        try:
            Vault.open(root)
        except OSError:
            pass
        else:
            raise AssertionError("the build should have failed")
    vault = Vault.open(root, check=False)
    assert vault.load_stats["cold"] is True and vault.checked
    assert _snapshot(vault) == _snapshot(Vault.open(root, use_cache=False))
    vault.close()
    again = Vault.open(root, check=False)  # complete now: taken as it is, in WAL mode again
    assert again.load_stats["cold"] is False and not again.checked
    assert again._store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again.close()


def test_a_page_the_watcher_adds_during_the_listing_is_not_dropped(tmp_path, monkeypatch):
    """The watcher starts before the check: a page written after the listing was taken is
    already in the index by the time the check compares, and stays there."""
    import wiki_tui.vault.model as model

    root = write(tmp_path / "v", BASIC)
    age(root)
    _indexed(root)
    vault = Vault.open(root, check=False)
    real_scan = model.scan_tree

    def listing_then_a_new_page(path):
        tree = real_scan(path)
        (root / "Arrived.md").write_text("[[Note]]\n")
        vault.refresh_file("Arrived.md")  # what the watcher thread does
        return tree

    monkeypatch.setattr(model, "scan_tree", listing_then_a_new_page)
    changes = vault.check_freshness()
    assert ("deleted", "Arrived.md") not in changes
    assert "Arrived.md" in vault.pages and vault.linking_to("Note.md").get("Arrived.md") == 1
    vault.close()


def test_sync_reads_agents_md_again_when_another_process_changed_it(tmp_path):
    """sync_with_disk is the freshness check: AGENTS.md changed by another process (here, the
    catalog moved) is read again, before the pages, with log.md's stamp saying something ran."""
    root = write(tmp_path / "v", {**BASIC, "log.md": "# Log\n", "AGENTS.md": "# Rules\n"})
    age(root)
    vault = Vault.open(root)
    assert vault.catalog == "index.md"
    (root / "AGENTS.md").write_text("---\ncatalog: wiki-index.md\n---\n# Rules\n")
    (root / "wiki-index.md").write_text("# Index\n\n- [[Note]]\n")
    with open(root / "log.md", "a") as handle:  # what another process's apply leaves
        handle.write("\n## [2026-01-01] ingest | elsewhere\n")
    assert vault.sync_with_disk() == 3
    assert vault.catalog == "wiki-index.md" and "wiki-index.md" in vault.pages
    assert vault.sync_with_disk() == 0
    vault.close()
