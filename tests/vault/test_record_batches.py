"""Reading every page a batch at a time (Store.record_batches, PageMap.iter_records) and what
reads that way: the agent's page list (page_infos) and the MCP property query
(pages_by_property, which filters on the stored bytes in SQL first). Real vaults, real SQLite;
each answer compared with a plain read of every record."""

from __future__ import annotations

import sqlite3

import pytest

from benchmarks.gen_vault import generate
from wiki_tui.agent.context.pageinfo import PageInfo, page_infos
from wiki_tui.mcp_server.tools.pages import _matches, _plain, pages_by_property
from wiki_tui.vault import Vault
from wiki_tui.vault.indexing.cache import R_TITLE, record_cold

ODD_PAGES = {
    "odd/unicode key.md": "---\ntitle: Unicode\nключ: значение\n\"emoji 🦆\": quack\n---\nbody\n",
    "odd/spaces.md": "---\ntitle: Spaces\n\"key with spaces\": [a, B, c]\n---\n",
    "odd/value is a key.md": "---\ntitle: Echo\nalpha: beta\nbeta: 2\n---\n",
    "odd/nested.md": "---\ntitle: Nested\nouter:\n  inner: deep\nnumber: 7\nwhen: 2024-01-02\n---\n",
    "odd/body only.md": "---\ntitle: Body only\n---\nThe word onlyinbody is in the text, not the frontmatter.\n",
    "odd/no frontmatter.md": "# Plain\n\nstatus: not frontmatter\n",
    "odd/int key.md": "---\ntitle: Int key\n1: one\n---\n",
}


@pytest.fixture(scope="module")
def vault(tmp_path_factory):
    root = tmp_path_factory.mktemp("batches") / "vault"
    generate(root, 600)
    for rel, text in ODD_PAGES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    opened = Vault.open(root)
    yield opened
    opened.close()


def test_batches_hold_every_record_once_by_path(vault):
    everything = vault.pages.records()
    batches = list(vault.pages.store.record_batches(size=64))
    assert all(0 < len(batch) <= 64 for batch in batches) and len(batches) > 5
    rows = [row for batch in batches for row in batch]
    assert [path for path, _ in rows] == sorted(everything)
    assert dict(rows) == everything
    assert list(vault.pages.iter_records(size=7)) == sorted(everything.items())


def test_a_reader_that_stops_early_reads_no_further(vault):
    statements: list[str] = []
    conn = vault.pages.store.conn
    conn.set_trace_callback(statements.append)
    try:
        first = [info for _, info in zip(range(3), page_infos(vault))]
    finally:
        conn.set_trace_callback(None)
    assert [info.path for info in first] == sorted(vault.pages)[:3]
    assert sum("FROM pages" in s for s in statements) == 1  # one batch, not every page


def test_page_infos_match_the_pages_and_follow_an_edit(vault):
    def expected(path):
        page = vault.pages[path]
        return PageInfo(path, page.name, page.title, tuple(page.aliases or ()), page.type,
                        page.summary, tuple(page.sources or ()), tuple(page.tags or ()))

    infos = list(page_infos(vault))
    assert [i.path for i in infos] == sorted(vault.pages)
    for info in infos[::37] + [i for i in infos if i.path.startswith("odd/")]:
        assert info == expected(info.path)
    path = "odd/spaces.md"
    (vault.root / path).write_text("---\ntitle: Spaces again\ntags: [fresh]\n---\n", encoding="utf-8")
    vault.refresh_file(path)
    info = next(i for i in page_infos(vault) if i.path == path)
    assert info.title == "Spaces again" and info.tags == ("fresh",)


def brute_force(vault, key, value):
    wanted = value.strip().casefold() if value is not None else None
    rows = []
    for path, record in sorted(vault.pages.records().items()):
        frontmatter = record_cold(record).frontmatter
        if key in frontmatter and _matches(frontmatter[key], wanted):
            rows.append({"path": path, "title": record[R_TITLE],
                         "value": _plain(frontmatter[key])})
    return rows


KEYS = [("title", None), ("type", "concept"), ("type", "ENTITY"), ("tags", "draft"),
        ("aliases", None), ("summary", None), ("ключ", None), ("ключ", "значение"),
        ("emoji 🦆", "quack"), ("key with spaces", "b"), ("beta", None), ("alpha", "beta"),
        ("outer", None), ("inner", None), ("number", "7"), ("when", "2024-01-02"),
        ("onlyinbody", None), ("status", None), ("1", None), ("nothing at all", None),
        ("e", None), ("", None)]


@pytest.mark.parametrize("key,value", KEYS)
def test_pages_by_property_matches_a_full_scan(vault, key, value):
    if not key:
        with pytest.raises(Exception):
            pages_by_property(vault, key, value)
        return
    answer = pages_by_property(vault, key, value, limit=500)
    expected = brute_force(vault, key, value)
    assert answer["count"] == len(expected)
    assert answer["pages"] == expected[:500]


def test_a_record_that_does_not_load_is_read_again(tmp_path):
    root = tmp_path / "vault"
    generate(root, 40)
    opened = Vault.open(root)
    try:
        path = sorted(opened.pages)[5]
        before = dict(opened.pages.iter_records())[path]
        store = opened.pages.store
        with store.transaction() as conn:
            conn.execute("UPDATE pages SET record=? WHERE path=?", (sqlite3.Binary(b"garbage"), path))
        assert dict(next(store.record_batches()))[path] is None
        again = dict(opened.pages.iter_records())
        assert path in again and again[path][R_TITLE] == before[R_TITLE]
    finally:
        opened.close()
