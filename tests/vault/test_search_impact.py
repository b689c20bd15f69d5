"""Impact lists (the pages where each common word weighs most): a search ranked from them gives
FTS5's own bm25 answer, before and after pages change, on real SQLite; and the queries they do
not serve (phrases, OR, column filters, rare words) still find the right pages.

The lists serve words held by COMMON_DOCS pages and keep LIST_SIZE each; both are lowered here
so that a vault of a few hundred pages exercises them as 50,000 pages would.
"""

from __future__ import annotations

import random

import pytest

from wiki_tui.vault import Vault
from wiki_tui.vault.find import impact
from wiki_tui.vault.find.search import BODY_WEIGHT, TITLE_WEIGHT, SearchIndex, build_expression, parse_query

from .test_index import write

WORDS = "river glacier budget policy review meeting harbor bridge ledger signal noise kernel".split()
FILLER = "the of and a to in is that it for as was with on by".split()


@pytest.fixture(autouse=True)
def small_lists(monkeypatch):
    monkeypatch.setattr(impact, "COMMON_DOCS", 40)
    monkeypatch.setattr(impact, "LIST_SIZE", 24)


def page(rng: random.Random) -> tuple[str, str]:
    """A title of 1-4 words and a body of a few sentences, words drawn unevenly (the first ones
    common, the last ones rarer), sometimes with an accent, a capital, a suffix or a prefix
    glued on, as real pages do."""
    weights = [1 / (i + 1) for i in range(len(WORDS))]
    title = " ".join(w.capitalize() for w in rng.choices(WORDS, weights, k=rng.randint(1, 4)))
    body = []
    for _ in range(rng.randint(1, 12)):
        word = rng.choices(WORDS, weights)[0]
        form = rng.random()
        if form < 0.05:
            word = word + "s"  # a different token: must not count
        elif form < 0.08:
            word = "x" + word  # nor this
        elif form < 0.12:
            word = word.upper()
        elif form < 0.14 and "e" in word:
            word = word.replace("e", "é", 1)  # folded by the tokenizer: counts
        body.append(word)
        body += rng.choices(FILLER, k=rng.randint(0, 6))
    return title, f"# {title}\n\n" + " ".join(body) + ".\n"


def build(rng: random.Random, n: int) -> tuple[SearchIndex, dict[str, tuple[str, str]]]:
    pages = {f"p{i}.md": page(rng) for i in range(n)}
    index = SearchIndex(None)
    index.sync({p: (1, 1) for p in pages}, pages.get)
    return index, pages


def fts5(index: SearchIndex, group, excluded) -> dict[int, float]:
    expr = build_expression((tuple(group),), excluded)
    return dict(index._conn.execute(
        f"SELECT rowid, bm25(docs, {TITLE_WEIGHT}, {BODY_WEIGHT}) FROM docs WHERE docs MATCH ?", (expr,)))


def check(index: SearchIndex, group, excluded=(), limit: int = 10) -> bool:
    """The lists' answer (when they give one) is FTS5's: the same scores, best first, and each
    page scored as FTS5 scores it. True when the lists answered."""
    got = index._impacts.rank(index._conn, tuple(group), tuple(excluded), limit)
    if got is None:
        return False
    truth = fts5(index, group, excluded)
    best = sorted(truth.values())[:limit]
    assert [s for _, s in got] == pytest.approx(best, rel=1e-9), (group, excluded)
    for rowid, score in got:
        assert truth[rowid] == pytest.approx(score, rel=1e-9)
    return True


def queries(rng: random.Random) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    out = [((f'"{w}"',), ()) for w in WORDS[:6]]
    out += [((f'"{w[:3]}"*',), ()) for w in WORDS[:4]]  # typing in progress
    for _ in range(16):
        a, b, c = rng.sample(WORDS[:6], 3)
        out.append(((f'"{a}"', f'"{b}"'), ()))
        out.append(((f'"{a}"',), (c,)))
        out.append(((f'"{a}"', f'"{b[:3]}"*'), ()))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_ranking_from_lists_is_fts5s_own(seed):
    rng = random.Random(seed)
    index, _ = build(rng, 400)
    answered = sum(check(index, group, excluded) for group, excluded in queries(rng))
    assert answered >= 20  # the lists did serve (not every query falling back to FTS5)
    index.close()


@pytest.mark.parametrize("seed", range(3))
def test_lists_stay_exact_as_pages_change(seed):
    """Edits, new pages, deletions and renames, one at a time (kept in step) and in bulk
    (lists dropped and rebuilt), after the lists were built by searching."""
    rng = random.Random(100 + seed)
    index, pages = build(rng, 400)
    asked = queries(rng)
    for group, excluded in asked:
        check(index, group, excluded)
    assert index._conn.execute("SELECT count(*) FROM impact_lists").fetchone()[0] > 0
    stamp = 2
    for step in range(60):
        path = rng.choice(sorted(pages))
        action = rng.random()
        if action < 0.5:  # an edit: often a title word made common in the body, or a page emptied
            title, text = page(rng)
            if rng.random() < 0.3:
                text += " ".join([rng.choice(WORDS[:3])] * rng.randint(5, 30))
            if rng.random() < 0.1:
                text = ""
            pages[path] = (title, text)
            assert index.sync_one(path, (stamp, len(text)), pages[path])
        elif action < 0.7:
            del pages[path]
            assert index.remove(path)
        elif action < 0.85:
            new = f"n{step}.md"
            pages[new] = page(rng)
            assert index.sync_one(new, (stamp, 1), pages[new])
        else:
            new = f"moved{step}.md"
            pages[new] = pages.pop(path)
            index.rename(path, new)
        stamp += 1
        if step % 10 == 9:
            for group, excluded in rng.sample(asked, 12):
                check(index, group, excluded)
    for group, excluded in asked:
        check(index, group, excluded)
    # many pages rewritten at once: a sync that drops the lists, then rebuilds them
    for path in rng.sample(sorted(pages), 120):
        pages[path] = page(rng)
    index.sync({p: ((stamp, 9) if i % 3 else (1, 1)) for i, p in enumerate(pages)}, pages.get)
    assert index._conn.execute("SELECT count(*) FROM impact_lists").fetchone()[0] == 0
    assert sum(check(index, group, excluded) for group, excluded in asked) >= 20
    index.close()


def test_search_results_match_fts5_through_the_vault(tmp_path):
    """The vault's own search, with snippets, gives FTS5's pages in FTS5's order; an outside
    edit, a rename and a delete through the vault keep it so."""
    rng = random.Random(7)
    files = {}
    for i in range(300):
        title, text = page(rng)
        files[f"notes/p{i}.md"] = f"---\ntitle: {title}\n---\n{text}"
    vault = Vault.open(write(tmp_path / "v", files), use_cache=False)
    index = vault._search_index()

    def same(query: str) -> None:
        parsed = parse_query(query)
        hits = vault.search(query, limit=8, include_listings=False)
        truth = index._bm25(parsed.fts, 8)
        assert [h.score for h in hits] == pytest.approx([-s for _, s in truth], rel=1e-9), query
        assert all(h.snippet for h in hits)

    queries = ("ledger", "harbor bridge", "ledger -noise", "sig", "kernel signal ")
    for query in queries:  # (words in under half the pages: the vault ranks the rest its own way)
        same(query)
    assert index._conn.execute("SELECT count(*) FROM impact_lists").fetchone()[0] >= 2
    target = vault.root / "notes/p3.md"
    target.write_text("---\ntitle: Ledger Ledger\n---\n" + "ledger " * 40 + "\n", encoding="utf-8")
    vault.refresh_file("notes/p3.md")
    hits = vault.search("ledger", limit=3)
    assert hits[0].path == "notes/p3.md"  # joined the list it now leads
    (vault.root / "notes/p3.md").rename(vault.root / "notes/p3 moved.md")
    vault.rename_file("notes/p3.md", "notes/p3 moved.md")
    assert vault.search("ledger", limit=3)[0].path == "notes/p3 moved.md"
    (vault.root / "notes/p3 moved.md").unlink()
    vault.refresh_file("notes/p3 moved.md")
    assert all(h.path != "notes/p3 moved.md" for h in vault.search("ledger", limit=50))
    for query in queries:
        same(query)
    vault.close()


def test_queries_the_lists_do_not_serve_find_the_right_pages():
    """Phrases, OR, NOT, prefixes and column filters on a vault where every word is common."""
    pages = {f"p{i}.md": ("Plain", f"river glacier budget {i}\n") for i in range(200)}
    pages["phrase.md"] = ("Phrase", "the glacier river meets the budget\n")
    pages["title.md"] = ("River Budget", "glacier\n")
    pages["only.md"] = ("Only", "policy alone\n")
    index = SearchIndex(None)
    index.sync({p: (1, 1) for p in pages}, pages.get)
    paths = lambda q, n=500: {h.path for h in index.search(q, limit=n)}  # noqa: E731
    assert paths('"glacier river"') == {"phrase.md"}
    assert paths("policy OR phrase") == {"only.md", "phrase.md"}
    assert paths("river -meets") == set(pages) - {"phrase.md", "only.md"}
    assert "only.md" in paths("pol") and paths("poli ") == set()
    assert index.paths_matching('title : "budget"') == ["title.md"]
    assert index.search("river budget", limit=1)[0].path == "title.md"
    index.close()


def test_a_prefix_only_one_word_starts_with_uses_that_words_list():
    """Typing "kern", "kerne", "kernel": while "kernel" is the only indexed word so starting, each
    prefix is ranked from the one list of "kernel", as FTS5 ranks the prefix; once "kernels" is
    written, the prefix is that word's alone no more."""
    rng = random.Random(3)
    index, pages = build(rng, 300)
    kernel = [p for p, (t, x) in pages.items() if "kernel" in (t + x).lower()]
    for path in kernel:  # no "kernels" or "xkernel" (nor an accented one) in this vault
        title, text = pages[path]
        pages[path] = (title, text.replace("kernels", "kernel").replace("xkernel", "kernel"))
    index.sync({p: (2, 2) for p in pages}, pages.get)
    assert len(kernel) >= 40  # common enough for a list
    for typed in ("ker", "kern", "kerne", "kernel"):
        assert check(index, (f'"{typed}"*',))
    tokens = [t for (t,) in index._conn.execute("SELECT token FROM impact_lists")]
    assert tokens == ['"kernel"']
    index.sync_one("new.md", (3, 3), ("New", "kernels everywhere"))
    assert check(index, ('"kern"*',))
    assert '"kern"*' in [t for (t,) in index._conn.execute("SELECT token FROM impact_lists")]
    index.close()


def test_a_list_is_used_unstored_while_another_process_writes(tmp_path):
    """Another wiki-tui holding the database for a write: the search neither waits for it (the
    connection would wait an hour, past the suite's timeout) nor fails; the list is built, used,
    and stored by a later search."""
    import sqlite3

    rng = random.Random(5)
    pages = {f"p{i}.md": page(rng) for i in range(300)}
    index = SearchIndex(tmp_path / "search.sqlite")
    index.sync({p: (1, 1) for p in pages}, pages.get)
    index._conn.execute("PRAGMA busy_timeout = 3600000")
    other = sqlite3.connect(tmp_path / "search.sqlite", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    assert check(index, ('"river"',))
    assert index._conn.execute("SELECT count(*) FROM impact_lists").fetchone()[0] == 0
    assert index._conn.execute("PRAGMA busy_timeout").fetchone()[0] == 3600000  # (restored)
    other.execute("ROLLBACK")
    other.close()
    assert check(index, ('"river"',))
    assert index._conn.execute("SELECT count(*) FROM impact_lists").fetchone()[0] == 1
    index.close()
