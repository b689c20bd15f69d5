"""A cold build and an incremental one of the same vault leave identical tables.

The cold build (vault/model.py `_cold_build`, indexing/bulk.py) takes shortcuts the page-by-page
path does not: pages parsed in bulk (maybe in a forked child), link rows resolved in one pass,
secondary indexes made at the end. Whatever it does, the index it writes must be the one the
incremental path (`check_freshness` after pages came, went and changed) arrives at. Random
vaults: links of every shape (wiki, markdown, embeds, headings, relative, to attachments, to
missing pages, in frontmatter, in code), aliases, tags, headings and block ids, the same names in
several folders.
"""

from __future__ import annotations

import os
import random
import sqlite3

import pytest

from tests.conftest import write_files
from wiki_tui.vault import Vault
from wiki_tui.vault.model import INDEX_DB
from wiki_tui.vault.state import state_dir

FOLDERS = ["", "a/", "a/b/", "c/", "Ünï/"]
NAMES = ["Note", "Deep", "Other", "note", "Café", "Mixed Case", "x.y", "Plan 2"]


def _page(rng: random.Random, names: list[str]) -> str:
    def target() -> str:
        name = rng.choice(names + ["Missing", "img.png", "raw/src.md"])
        return rng.choice(["", "", "../", "./", "a/", "/"]) + name

    fm = []
    if rng.random() < 0.7:
        fm.append(f"title: {rng.choice(NAMES)} {rng.randrange(3)}")
        fm.append(f"aliases: [{', '.join(rng.sample(NAMES, rng.randrange(3)))}]")
        fm.append(f"tags: [{', '.join(rng.sample(['x', 'topic/sub', 'Y', 'y'], rng.randrange(3)))}]")
        if rng.random() < 0.5:
            fm.append(f'related: "[[{target()}]]"')
        if rng.random() < 0.2:
            fm.append("summary: a page, with a comma")
    lines = ["---", *fm, "---"] if fm else []
    for _ in range(rng.randrange(1, 12)):
        kind = rng.randrange(12)
        t = target()
        lines.append([
            f"See [[{t}]] and [[{t}#Head|shown]].",
            f"![[{t}|100]] and [label](<{t}.md>) and [x]({t.replace(' ', '%20')}).",
            f"# Heading {rng.randrange(5)}",
            f"A paragraph. ^blk{rng.randrange(9)}",
            "```\n[[InCode]]\n```",
            f"`[[Inline]]` %% [[Hidden]] %% #tag{rng.randrange(3)}",
            "    [[Indented code]]",
            f"- item [[{t}]]\n    [[In list]]",
            f"Setext {rng.randrange(3)}\n===",
            "[[]] [[#Self]] [[ ]] \\[[escaped]] [web](https://x.y)",
            f"#{rng.choice(['x', 'Y', 'topic/sub', '123'])} and a#b",
            "",
        ][kind])
    return "\n".join(lines) + "\n"


def _vault_files(seed: int) -> dict[str, str | bytes]:
    rng = random.Random(seed)
    paths = {f"{rng.choice(FOLDERS)}{rng.choice(NAMES)}.md" for _ in range(30)}
    stems = sorted({p.rsplit("/", 1)[-1][:-3] for p in paths})
    files: dict[str, str | bytes] = {p: _page(rng, stems) for p in sorted(paths)}
    files["AGENTS.md"] = "---\nrequired_fields: [title]\n---\nrules\n"
    files["img.png"] = b"\x89PNG"
    files["raw/src.md"] = "[[Note]] a source"
    files["index.md"] = "".join(f"- [[{p[:-3]}]]\n" for p in sorted(paths))
    return files


STAMP = 1_700_000_000 * 10**9  # every final file's mtime (ns): the records hold it


def _write(root, files, mtime_ns: int = STAMP) -> None:
    write_files(root, files)
    for rel in files:
        os.utime(root / rel, ns=(mtime_ns, mtime_ns))


def _tables(root) -> dict[str, list[tuple]]:
    """Every row of the index, but the columns that say when a file was read or written."""
    db = sqlite3.connect(state_dir(root) / INDEX_DB)
    try:
        return {
            "pages": sorted(db.execute(
                "SELECT path, mtime, size, title, type, summary, aliases, record FROM pages")),
            "files": sorted(db.execute("SELECT path, mtime, size FROM files")),
            "links": sorted(db.execute("SELECT src, linkpath, n, lkey, nkey, target FROM links"),
                            key=repr),
            "names": sorted(db.execute("SELECT key, path FROM names")),
            "tags": sorted(db.execute("SELECT key, seq, tag, path FROM tags")),
        }
    finally:
        db.close()


@pytest.mark.parametrize("seed", range(6))
def test_cold_and_incremental_builds_give_identical_tables(tmp_path, seed):
    files = _vault_files(seed)
    cold_root, inc_root = tmp_path / "cold", tmp_path / "inc"
    _write(cold_root, files)
    Vault.open(cold_root).close()

    # The same vault reached page by page: a first half indexed, then the rest written, some
    # pages written wrong first and corrected, a page that comes and goes again.
    rng = random.Random(seed + 100)
    paths = list(files)
    rng.shuffle(paths)
    first = [*paths[: len(paths) // 2], "AGENTS.md"]  # adopted from the start: one state dir
    earlier = STAMP - 10**12
    _write(inc_root, {p: files[p] for p in first}, earlier)
    _write(inc_root, {"Gone.md": "[[Note]] #x\n"}, earlier)
    for path in rng.sample(first, min(4, len(first))):
        if path.endswith(".md"):
            _write(inc_root, {path: "---\ntitle: wrong\n---\n[[Wrong]] #wrong\n"}, earlier)
    vault = Vault.open(inc_root)
    _write(inc_root, files)
    os.remove(inc_root / "Gone.md")
    vault.check_freshness()
    vault.close()

    assert _tables(inc_root) == _tables(cold_root)


def test_forked_cold_build_writes_the_same_tables(tmp_path, monkeypatch):
    from wiki_tui.vault.indexing import bulk

    files = _vault_files(42)
    forked, serial = tmp_path / "forked", tmp_path / "serial"
    _write(forked, files)
    _write(serial, files)
    monkeypatch.setattr(bulk, "MIN_PAGES_TO_FORK", 4)
    Vault.open(forked).close()
    monkeypatch.setenv("WIKI_TUI_NO_FORK", "1")
    Vault.open(serial).close()
    assert _tables(forked) == _tables(serial)


def test_a_page_given_twice_in_one_write_does_not_fail():
    """names and tags are keyed by (path, key) and (path, seq): a second row for the same key
    replaces the first instead of failing the whole write."""
    from wiki_tui.vault.indexing.cache import page_to_record
    from wiki_tui.vault.indexing.store import Store
    from wiki_tui.vault.parse.page import parse_page

    store = Store(None)
    old = page_to_record(parse_page("a.md", "---\naliases: [x]\ntags: [t, u]\n---\n"))
    new = page_to_record(parse_page("a.md", "---\naliases: [y]\ntags: [t]\n---\n"))
    store.put_pages([("a.md", old, (1, 1), 0), ("a.md", new, (2, 2), 0)], new=True)
    conn = store.conn
    assert sorted(conn.execute("SELECT key, path FROM names")) == [("a", "a.md"), ("x", "a.md"), ("y", "a.md")]
    assert sorted(conn.execute("SELECT key, seq FROM tags")) == [("t", 0), ("u", 1)]
    store.put_pages([("a.md", new, (3, 3), 0)])  # an update replaces the page's rows
    assert sorted(conn.execute("SELECT key FROM names")) == [("a",), ("y",)]
    assert sorted(conn.execute("SELECT key, seq FROM tags")) == [("t", 0)]
