"""Full-text search: BM25 ranking with the title weighted, snippets, staleness, rebuild, and
queries people type that FTS5 would reject."""

from __future__ import annotations

import os
import sqlite3

import pytest

from wiki_tui.vault import Vault
from wiki_tui.vault.find.search import SearchIndex, cut_snippet, parse_query

from .test_index import write

FILES = {
    "Harrison.md": "---\ntitle: John Harrison\n---\nA clockmaker from Yorkshire.\n",
    "Clocks.md": "---\ntitle: Sea clocks\n---\nHarrison built clocks. Harrison again. Harrison.\n",
    "Other.md": "Nothing here but water.\n",
    "Long.md": "x\n" * 50 + "The word " + "filler " * 100 + "needle sits here " + "filler " * 100 + "\n",
}


@pytest.fixture
def vault(tmp_path):
    v = Vault.open(write(tmp_path / "v", FILES), use_cache=False)
    yield v
    v.close()


def test_title_weighted_above_body(vault):
    hits = vault.search("harrison")
    assert [h.path for h in hits[:2]] == ["Harrison.md", "Clocks.md"]
    assert hits[0].score > hits[1].score


def test_snippet_line_and_highlights(vault):
    hit = vault.search("clockmaker")[0]
    assert hit.line == 4 and hit.snippet == "A clockmaker from Yorkshire."
    assert [hit.snippet[a:b] for a, b in hit.highlights] == ["clockmaker"]
    long = vault.search("needle")[0]
    assert long.line == 51 and long.snippet.startswith("…") and long.snippet.endswith("…")
    assert "needle" in long.snippet and len(long.snippet) <= 170


def test_prefix_while_typing_and_phrases(vault):
    assert vault.search("clockm")[0].path == "Harrison.md"
    assert vault.search("clockm ") == []  # a finished word is a whole word
    assert [h.path for h in vault.search('"sea clocks"')] == ["Clocks.md"]
    assert {h.path for h in vault.search("yorkshire OR water")} == {"Harrison.md", "Other.md"}
    assert [h.path for h in vault.search("harrison -yorkshire")] == ["Clocks.md"]


@pytest.mark.parametrize("query", ['"', 'foo"', "AND", "OR OR", "NOT", "(", ")", "a*", "*", "-", "col:x",
                                   'harrison" AND (', "NEAR(a b)", "^", "\x00", "''", "{}", "a:b:c"])
def test_odd_queries_never_raise(vault, query):
    vault.search(query)


def test_parse_query_quotes_every_term():
    assert parse_query("foo bar").fts == '("foo" "bar"*)'
    assert parse_query("  ") is None and parse_query("AND OR") is None
    assert parse_query('col:x "yes').fts == '("col" "x" "yes"*)'


def test_db_in_state_dir_and_stale_rows_refreshed(tmp_path):
    root = write(tmp_path / "v", FILES)
    v = Vault.open(root)
    v.search("harrison")
    v.close()
    assert (v.state_dir / "search.sqlite").exists()  # the user cache: this folder is not adopted
    assert not (root / ".wiki-tui").exists()
    (root / "Other.md").write_text("Now about Harrison too\n")
    os.utime(root / "Other.md", ns=(1, 1))  # a different stamp even on coarse clocks
    (root / "Clocks.md").unlink()
    v = Vault.open(root)
    assert {h.path for h in v.search("harrison")} == {"Harrison.md", "Other.md"}
    v.close()


def test_corrupt_database_is_rebuilt(tmp_path):
    root = write(tmp_path / "v", FILES)
    (root / ".wiki-tui").mkdir()
    (root / ".wiki-tui" / "search.sqlite").write_bytes(b"this is not sqlite" * 100)
    v = Vault.open(root)
    assert v.search("harrison")[0].path == "Harrison.md"
    v.close()


def test_refresh_updates_search(vault):
    vault.search("x")
    (vault.root / "New.md").write_text("quetzalcoatl\n")
    vault.refresh_file("New.md")
    assert [h.path for h in vault.search("quetzalcoatl")] == ["New.md"]
    (vault.root / "New.md").unlink()
    vault.refresh_file("New.md")
    assert vault.search("quetzalcoatl") == []


def test_cut_snippet_prefers_body_and_handles_no_match():
    text = "---\ntitle: Alpha\n---\n# Alpha\nThe alpha body line.\n"
    snippet, line, _ = cut_snippet(text, ["alpha"])
    assert (snippet, line) == ("The alpha body line.", 5)
    assert cut_snippet(text, ["zzz"])[1] == 0


def test_in_memory_index_works_without_a_folder():
    index = SearchIndex(None)
    index.sync({"a.md": (1, 1)}, lambda p: ("A", "hello world"))
    assert index.search("hello")[0].path == "a.md"
    index.close()
    with pytest.raises(sqlite3.ProgrammingError):
        index.search("hello")


def test_terms_in_most_pages_do_not_cost_a_full_ranking(tmp_path):
    files = {f"p{i}.md": f"the page {i} of the vault\n" for i in range(250)}
    files["Rare.md"] = "the rare zebra\n"
    files["The Title.md"] = "---\ntitle: The Title\n---\nthe body\n"
    vault = Vault.open(write(tmp_path / "v", files), use_cache=False)
    # "the" is in every page: dropped from an AND query, it changes nothing...
    assert [h.path for h in vault.search("the zebra")] == ["Rare.md"]
    # ...and alone it ranks title matches first, then fills up.
    hits = vault.search("the ", limit=5)
    assert hits[0].path == "The Title.md" and len(hits) == 5
    vault.close()


def test_a_database_locked_by_another_process_is_waited_for_not_deleted(tmp_path, monkeypatch):
    from wiki_tui.vault.find import search

    monkeypatch.setattr(search, "BUSY_TIMEOUT", 0.2)
    root = write(tmp_path / "v", FILES)
    first = Vault.open(root)
    first.search("harrison")
    db = first.state_dir / "search.sqlite"
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another wiki-tui writing right now
    try:
        (root / "New.md").write_text("harrison again\n")
        first.refresh_file("New.md")  # cannot write the row now; must not raise
        assert first.search("clockmaker")[0].path == "Harrison.md"
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert db.exists()
    assert "New.md" in {h.path for h in first.search("harrison")}  # caught up once unlocked
    first.close()


def test_index_and_log_are_no_hits_unless_asked_then_after_the_pages(tmp_path):
    files = {
        "index.md": "# Index\n\n- [[Chronometer]] — the chronometer, chronometer trials\n",
        "log.md": "# Log\n\n## [2026-01-01] ingest | chronometer notes\n",
        "Chronometer.md": "A clock for longitude at sea; the chronometer.\n",
        "Notes.md": "Some notes on the chronometer.\n",
    }
    v = Vault.open(write(tmp_path / "v", files), use_cache=False)
    try:
        assert [h.path for h in v.search("chronometer")] == ["Chronometer.md", "Notes.md"]
        paths = [h.path for h in v.search("chronometer", include_listings=True)]
        assert paths == ["Chronometer.md", "Notes.md", "log.md"]  # index.md is never searched
        assert [h.path for h in v.search("chronometer", limit=2, include_listings=True)] == [
            "Chronometer.md", "Notes.md"]
        assert v.search("trials") == []  # only index.md says it
    finally:
        v.close()


def test_pages_edited_one_by_one_answer_as_a_fresh_build_without_automerge(tmp_path):
    """One edit never pays FTS5's automerge (search._no_automerge): the segments written one
    page at a time stay unmerged, up to the crisis merge; what search answers is the same."""
    import random

    rng = random.Random(3)
    words = ["harbor", "lantern", "ledger", "river", "glacier", "compass", "signal", "tower"]
    root = tmp_path / "v"
    for i in range(40):
        write(root, {f"notes/N{i}.md": f"---\ntitle: Note {i}\n---\n" + " ".join(rng.choices(words, k=30))})
    vault = Vault.open(root)
    vault.search("harbor")
    conn = vault._search._conn
    assert conn.execute("SELECT v FROM docs_config WHERE k='automerge'").fetchone() == (0,)
    for n in range(60):  # more single-page writes than a level holds before its crisis merge
        path = f"notes/N{rng.randrange(40)}.md"
        (root / path).write_text(f"---\ntitle: Edited {n}\n---\n" + " ".join(rng.choices(words, k=30)),
                                 encoding="utf-8")
        vault.refresh_file(path)
    fresh_root = tmp_path / "fresh"
    for p in (root / "notes").iterdir():
        write(fresh_root, {f"notes/{p.name}": p.read_text(encoding="utf-8")})
    fresh = Vault.open(fresh_root)
    for query in [*words, "harbor lantern", '"river glacier"', "edited", "note"]:
        got = sorted((round(h.score, 9), h.path) for h in vault.search(query, 40))  # ties: by row id,
        assert got == sorted((round(h.score, 9), h.path) for h in fresh.search(query, 40)), query  # new per edit
    assert conn.execute("SELECT v FROM docs_config WHERE k='automerge'").fetchone() == (0,)
    vault.close()
    fresh.close()
