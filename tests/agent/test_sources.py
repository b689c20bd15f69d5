"""Which raw files an ingest takes (paths, folders, globs) and which count as ingested."""

from __future__ import annotations

import pytest

from wiki_tui.agent.context.sources import SourceError, ingested, resolve_sources
from wiki_tui.changes.apply.logmd import LogEntry, ingested_sources
from wiki_tui.vault import Vault


def _vault_with_raw(sample_vault):
    (sample_vault / "raw" / "notes").mkdir()
    (sample_vault / "raw" / "notes" / "b.md").write_text("# B\n", encoding="utf-8")
    (sample_vault / "raw" / "notes" / "a.txt").write_text("A\n", encoding="utf-8")
    (sample_vault / "raw" / "notes" / "scan.tiff").write_bytes(b"II*\0")
    (sample_vault / "raw" / "notes" / ".DS_Store").write_bytes(b"\0")
    return Vault.open(sample_vault)


def test_a_folder_gives_its_sources_sorted_and_names_what_it_skips(sample_vault):
    found = resolve_sources(_vault_with_raw(sample_vault), ["raw/notes/"])
    assert found.paths == ["raw/notes/a.txt", "raw/notes/b.md"]
    assert [p for p, _ in found.skipped] == ["raw/notes/scan.tiff"]  # hidden files: not named
    assert "not a format wiki-tui ingests" in found.skipped[0][1] and found.batch


def test_paths_globs_and_folders_keep_the_order_given_each_source_once(sample_vault):
    vault = _vault_with_raw(sample_vault)
    found = resolve_sources(vault, ["raw/notes/b.md", "raw/notes/*", "cook-and-k1.txt"])
    assert found.paths == ["raw/notes/b.md", "raw/notes/a.txt", "raw/cook-and-k1.txt"]


def test_a_path_from_the_current_folder_and_an_absolute_path_become_vault_paths(sample_vault):
    vault = _vault_with_raw(sample_vault)
    found = resolve_sources(vault, ["b.md", str(sample_vault / "raw/notes/a.txt")],
                            cwd=sample_vault / "raw" / "notes")
    assert found.paths == ["raw/notes/b.md", "raw/notes/a.txt"]


def test_a_glob_without_a_match_is_an_error(sample_vault):
    with pytest.raises(SourceError, match="no file matches"):
        resolve_sources(Vault.open(sample_vault), ["raw/*.docx"])


def test_ingested_reads_page_sources_and_log_entries(sample_vault):
    vault = _vault_with_raw(sample_vault)
    done = ingested(vault)
    # the sample vault's source pages name four raw files; french-chronometers is not ingested
    assert {"raw/harrison-sea-clocks.md", "raw/cook-and-k1.txt"} <= done
    assert "raw/french-chronometers.md" not in done
    log = sample_vault / "log.md"
    log.write_text(log.read_text(encoding="utf-8") + "\n"
                   + LogEntry("ingest", "B", "2026-11-25", source="raw/notes/b.md").render(),
                   encoding="utf-8")
    assert "raw/notes/b.md" in ingested(vault)
    new = resolve_sources(vault, [], new=True).paths
    assert new == ["raw/french-chronometers.md", "raw/notes/a.txt"]


def test_only_an_ingest_entry_source_line_counts():
    text = ("# Log\n\n## [2026-11-25] ingest | A\n- source: raw/a.md\n- created: [[x]]\n\n"
            "## [2026-11-25] instruct | mention\n- source: raw/b.md\n")
    assert ingested_sources(text) == {"raw/a.md"}


def test_a_pending_ingest_keeps_its_source_so_its_log_entry_names_it():
    from wiki_tui.changes.apply import pending
    from wiki_tui.changes.model import Changeset

    record = pending.new_pending(Changeset("ingest", "B", source="raw/notes/b.md"))
    back = pending.from_dict(record.name, pending.to_dict(record))
    assert back.changeset.source == "raw/notes/b.md"
    assert LogEntry("ingest", "B", "2026-11-25", source="raw/b.md").render() == (
        "## [2026-11-25] ingest | B\n- source: raw/b.md\n")

