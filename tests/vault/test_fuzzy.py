"""Fuzzy finder ranking: exact, prefix, word, initials, abbreviations; limits."""

from __future__ import annotations

from wiki_tui.vault.find.fuzzy import MAX_RESULTS, FuzzyIndex, subsequence_score

PAGES = [
    ("meetings/Review Meeting.md", "Review Meeting", ["RM"]),
    ("Review.md", "Review", []),
    ("Reviewer Guide.md", "Reviewer Guide", []),
    ("Peer Review.md", "Peer Review", ["Code Review"]),
    ("River Valley Walk.md", "River Valley Walk", []),
    ("concepts/Marine chronometer.md", "Marine chronometer", ["chronometer"]),
    ("misc/Remote Work.md", "Remote Work", []),
]


def index(pages=PAGES) -> FuzzyIndex:
    fi = FuzzyIndex()
    fi.build(pages)
    return fi


def paths(hits):
    return [h.path for h in hits]


def test_exact_then_prefix_then_word():
    hits = index().find("review")
    assert paths(hits)[:4] == ["Review.md", "meetings/Review Meeting.md", "Reviewer Guide.md", "Peer Review.md"]
    assert hits[0].score > hits[1].score >= hits[2].score > hits[3].score


def test_abbreviation_finds_review_meeting():
    hits = index().find("rvw mtg")
    assert paths(hits)[0] == "meetings/Review Meeting.md"
    assert hits[0].field == "title"


def test_initials_and_alias():
    assert paths(index().find("rm"))[0] == "meetings/Review Meeting.md"  # alias RM, exact
    hit = index().find("code rev")[0]
    assert (hit.path, hit.field, hit.matched) == ("Peer Review.md", "alias", "Code Review")
    # Exact initials beat a looser abbreviation of a single word.
    assert paths(index().find("rvw"))[:2] == ["River Valley Walk.md", "Review.md"]


def test_paths_need_a_slash_and_match_folders():
    assert paths(index().find("meetings/"))[0] == "meetings/Review Meeting.md"
    assert paths(index().find("cncpt/chr"))[0] == "concepts/Marine chronometer.md"


def test_one_letter_and_nothing():
    fi = index()
    assert {h.path for h in fi.find("r")} >= {"Review.md", "River Valley Walk.md", "misc/Remote Work.md"}
    assert fi.find("") == [] and fi.find("   ") == []
    assert fi.find("qqqzzz") == []


def test_at_most_fifty_results_deduplicated_by_page():
    pages = [(f"p/Page {i}.md", f"Page {i}", [f"Page alias {i}"]) for i in range(300)]
    hits = index(pages).find("page", limit=500)
    assert len(hits) == MAX_RESULTS
    assert len({h.path for h in hits}) == MAX_RESULTS


def test_incremental_add_remove_matches_build():
    fi = index(PAGES[:3])
    for page in PAGES[3:]:
        fi.add_page(*page)
    fi.add_page("Review.md", "Renamed Thing", [])
    fi.remove_page("Reviewer Guide.md")
    fresh = index([p for p in PAGES if p[0] != "Reviewer Guide.md" and p[0] != "Review.md"]
                  + [("Review.md", "Renamed Thing", [])])
    fi.add_page("Zq.md", "Zqxj Ökonomie", [])  # letters no page had before
    fresh.add_page("Zq.md", "Zqxj Ökonomie", [])
    assert paths(fi.find("zxj ök")) == ["Zq.md"]
    for query in ("r", "rev", "rvw mtg", "thing", "walk", "x", "zxj"):
        assert paths(fi.find(query)) == paths(fresh.find(query)), query


def test_subsequence_score_prefers_word_starts():
    assert subsequence_score("rm", "review meeting") > subsequence_score("rm", "farm")
    assert subsequence_score("xyz", "review") == -1


def test_sorted_keys_keep_ids_in_order_among_equal_keys():
    from wiki_tui.vault.find.fuzzy import SortedKeys

    keys = SortedKeys()
    keys.fill([("of", 7), ("b", 1), ("of", 2)])
    keys.add("of", 5)
    keys.add("oz", 3)
    keys.add("of", 9)
    keys.add("ofa", 4)
    assert list(keys.prefixed("o")) == [(2, 2), (2, 5), (2, 7), (2, 9), (3, 4), (2, 3)]
    keys.remove("of", 5)
    keys.remove("of", 4)  # not there: nothing happens
    keys.remove("zz", 1)
    assert list(keys.prefixed("of")) == [(2, 2), (2, 7), (2, 9), (3, 4)]
    assert list(keys.prefixed("o", cap=2)) == [(2, 2), (2, 7)]
    assert list(keys.prefixed("og")) == [] and list(keys.prefixed("a")) == []
    assert list(keys.prefixed("b")) == [(1, 1)]
    assert len(keys) == 6


def test_the_finder_keeps_no_object_per_word():
    """A bulk build makes a str per word and per initials; kept, they stayed scattered among
    the build's freed temporaries and pinned ~20 MB of the allocator's arenas at 50k pages
    (issue 21). What lives on after a build does not grow with the number of distinct words."""
    import gc
    import tracemalloc

    from wiki_tui.vault.find.fuzzy import FuzzyIndex

    def lasting_blocks(pages: int) -> int:
        rows = [(f"notes/p{i}.md", f"Topic{i} word{i * 7} Thing{i % 13}", [f"alias{i} extra{i}"])
                for i in range(pages)]
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.take_snapshot()
            index = FuzzyIndex()
            index.build(rows)
            gc.collect()
            after = tracemalloc.take_snapshot()
        finally:
            tracemalloc.stop()
        assert index.find("topic12")[0].path == "notes/p12.md"
        assert index.find("alias7 extra7")[0].path == "notes/p7.md"
        return sum(stat.count_diff for stat in after.compare_to(before, "filename"))

    small, big = lasting_blocks(500), lasting_blocks(4000)
    assert big - small < 1000  # ~10,000 more distinct words in the bigger one


def test_short_queries_from_the_prefix_index_equal_the_full_walk(monkeypatch):
    """One- and two-letter queries stop after `limit` pages in the prefix index; they must give
    exactly what ranking every prefix match would, also after pages come and go."""
    import random

    from wiki_tui.vault.find import fuzzy

    rng = random.Random(7)
    syllables = ["ca", "co", "c", "r", "re", "x", "a", "ab", "b", "mi", "Ma", "ç", "é"]

    def name():
        return " ".join("".join(rng.choice(syllables) for _ in range(rng.randint(1, 4)))
                        for _ in range(rng.randint(1, 3)))

    pages = [(f"d{i % 5}/{name()} {i}.md", name(), [name() for _ in range(rng.randint(0, 2))])
             for i in range(600)]
    pages += [("C.md", "C", []), ("x/Co.md", "co", ["C"])]
    fast = index(pages)
    for path, title, aliases in pages[:40]:
        fast.remove_page(path)
    for path, title, aliases in pages[:20]:
        fast.add_page(path, title.upper(), aliases)
    monkeypatch.setattr(fuzzy, "SHORT", 0)  # the reference: every prefix match ranked
    full = index(pages)
    for path, title, aliases in pages[:40]:
        full.remove_page(path)
    for path, title, aliases in pages[:20]:
        full.add_page(path, title.upper(), aliases)
    queries = ["c", "C", "co", "ca", "r", "re", "x", "a", "ab", "m", "ma", "é", "e", "z", "c ", " c"]
    for q in queries:
        for limit in (1, 5, 50):
            monkeypatch.setattr(fuzzy, "SHORT", 2)
            got = fast.find(q, limit)
            monkeypatch.setattr(fuzzy, "SHORT", 0)
            assert got == fast.find(q, limit) == full.find(q, limit), (q, limit)


def test_pages_without_a_path_entry_are_kept_and_removed():
    """A page is found by its path entry; one with a blank file name at the root has none (and
    with a blank title too, no entry at all): counted, titled and removed all the same."""
    fi = index([(" .md", "Spaced", ["Other"]), ("  .md", "  ", []), ("a/ .md", "In a", []),
                ("Note.md", "Note", [])])
    assert len(fi) == 3  # the bulk build skips a page with no entry, as before
    assert fi.title_for(" .md") == "Spaced" and fi.title_for("  .md") is None
    assert fi.title_for("a/ .md") == "In a"
    assert [(h.path, h.title) for h in fi.find("other")] == [(" .md", "Spaced")]
    fi.add_page("  .md", " ", [])
    fi.add_page("   .md", "", ["Alias only"])
    assert len(fi) == 5 and fi.title_for("  .md") == "  " and fi.title_for("   .md") == "   "
    assert [(h.path, h.title) for h in fi.find("alias only")] == [("   .md", "   ")]
    for path in (" .md", "  .md", "   .md", "a/ .md", "Note.md", "missing.md"):
        fi.remove_page(path)
    assert len(fi) == 0 and fi.find("other") == [] and fi.find("note") == [] and fi.find("in a") == []
    assert fi.title_for(" .md") is None
    fi.add_page("Note.md", "Note", ["N2"])
    fi.add_page("Note.md", "Renamed", [])  # re-added: the old entries are gone
    assert len(fi) == 1 and fi.title_for("Note.md") == "Renamed" and fi.find("n2") == []


def test_a_page_added_again_with_the_same_names_is_left_as_is_and_new_names_replace_old():
    fi = index()
    before = [(h.path, h.field, h.score) for h in fi.find("review")]
    for path, title, aliases in PAGES:  # an outside edit of each page's body: same names
        fi.add_page(path, title, list(aliases))
    assert [(h.path, h.field, h.score) for h in fi.find("review")] == before
    assert len(fi) == len(PAGES)
    fi.add_page("Peer Review.md", "Peer Review", [])  # an alias dropped
    assert "Peer Review.md" not in paths(fi.find("code review"))[:1]
    fi.add_page("Peer Review.md", "Peer Assessment", ["Code Review"])  # the title changed
    assert "Peer Review.md" in paths(fi.find("assessment"))
    assert paths(fi.find("code review"))[0] == "Peer Review.md"


def test_bit_chunks_give_every_set_bit_in_order_in_lists_of_the_size():
    import random

    from wiki_tui.vault.find.fuzzy import _bit_chunks

    rng = random.Random(7)
    for n in (0, 1, 5, 4095, 4096, 4097, 8193, 20000):
        for density in (0.0, 0.01, 0.5, 1.0):
            bits = sum(1 << i for i in range(n) if rng.random() < density)
            for size in (1, 3, 1024):
                chunks = list(_bit_chunks(bits, size))
                assert [i for c in chunks for i in c] == [i for i in range(n) if bits >> i & 1]
                assert all(len(c) == size for c in chunks[:-1]) and all(0 < len(c) <= size for c in chunks)
