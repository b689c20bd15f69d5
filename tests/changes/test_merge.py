"""Three-way merge for re-basing a proposal on a file changed on disk."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wiki_tui.changes.build.merge import merge3

BASE = "".join(f"line {i}\n" for i in range(10))


def test_non_overlapping_changes_merge_cleanly():
    theirs = BASE.replace("line 1\n", "line 1 (disk)\n")
    mine = BASE.replace("line 8\n", "line 8 (model)\n")
    result = merge3(BASE, theirs, mine)
    assert result.clean
    assert result.text == BASE.replace("line 1\n", "line 1 (disk)\n").replace("line 8\n", "line 8 (model)\n")


def test_same_change_on_both_sides_is_taken_once():
    both = BASE.replace("line 4\n", "same\n")
    assert merge3(BASE, both, both).text == both
    theirs = both.replace("line 0\n", "top\n")
    result = merge3(BASE, theirs, both)
    assert result.clean and result.text == theirs


def test_overlapping_changes_are_marked():
    theirs = BASE.replace("line 5\n", "disk five\n")
    mine = BASE.replace("line 5\n", "model five\n")
    result = merge3(BASE, theirs, mine)
    assert result.conflicts == 1
    assert "<<<<<<< on disk\ndisk five\n=======\nmodel five\n>>>>>>> proposed\n" in result.text
    assert result.text.startswith("line 0\n") and result.text.endswith("line 9\n")


def test_insertions_at_the_same_place_conflict():
    theirs = BASE.replace("line 3\n", "line 3\ndisk\n")
    mine = BASE.replace("line 3\n", "line 3\nmodel\n")
    assert merge3(BASE, theirs, mine).conflicts == 1


def test_missing_final_newline_inside_a_conflict():
    result = merge3("a\nb", "a\nB", "a\nbee")
    assert result.text == "a\n<<<<<<< on disk\nB\n=======\nbee\n>>>>>>> proposed\n"


lines = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "d\n", "e\n"]), max_size=12).map("".join)


@given(lines, lines)
def test_one_sided_changes_are_taken_as_they_are(base, other):
    assert merge3(base, base, other).text == other
    assert merge3(base, other, base).text == other
    assert merge3(base, other, other).text == other


@given(lines, lines, lines)
def test_clean_merges_keep_each_sides_lines(base, theirs, mine):
    result = merge3(base, theirs, mine)
    if result.clean:
        # Every line added by either side is in the result.
        for added in set(theirs.splitlines()) - set(base.splitlines()):
            assert added in result.text.splitlines()
        for added in set(mine.splitlines()) - set(base.splitlines()):
            assert added in result.text.splitlines()
