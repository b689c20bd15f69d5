"""Applying SEARCH/REPLACE edits: exact, whitespace drift, CRLF, ambiguity, absence, repeats."""

from __future__ import annotations

import pytest

from wiki_tui.changes.build.match import MatchError, apply_edits, apply_edits_report

PAGE = """---
title: John Harrison
type: entity
---
# John Harrison

Harrison built H4 in 1759.
It was tested at sea.

## See also
- [[H4]]
- [[Marine chronometer]]
"""


def test_exact_edit():
    out = apply_edits(PAGE, [("Harrison built H4 in 1759.\n", "Harrison finished H4 in 1759.\n")],
                      "e/JH.md")
    assert "Harrison finished H4 in 1759.\nIt was tested" in out
    assert out.count("\n") == PAGE.count("\n")


def test_several_edits_apply_in_order():
    out = apply_edits(PAGE, [("- [[H4]]\n", "- [[H4]]\n- [[Larcum Kendall]]\n"),
                             ("- [[Larcum Kendall]]\n", "- [[K1]]\n")], "p.md")
    assert "- [[H4]]\n- [[K1]]\n- [[Marine chronometer]]\n" in out


def test_all_or_nothing():
    with pytest.raises(MatchError) as exc:
        apply_edits(PAGE, [("# John Harrison\n", "# J. Harrison\n"), ("nope\n", "x\n")], "p.md")
    assert exc.value.edit_index == 1 and "edit 2 of 2" in str(exc.value)


def test_trailing_whitespace_drift():
    page = "alpha   \nbeta\t\ngamma\n"
    out = apply_edits(page, [("alpha\nbeta\n", "ALPHA\nBETA\n")], "p.md")
    assert out == "ALPHA\nBETA\ngamma\n"


def test_indentation_drift_reindents_replacement():
    page = "- list\n    - nested one\n    - nested two\n"
    out = apply_edits(page, [("  - nested one\n  - nested two\n",
                              "  - nested one\n  - nested 2\n    - deeper\n")], "p.md")
    assert out == "- list\n    - nested one\n    - nested 2\n      - deeper\n"


def test_inner_whitespace_drift():
    out = apply_edits("a  b   c\nnext\n", [("a b c\n", "abc\n")], "p.md")
    assert out == "abc\nnext\n"


def test_crlf_page_stays_crlf():
    page = PAGE.replace("\n", "\r\n")
    out = apply_edits(page, [("It was tested at sea.\n", "It was tested at sea\nin 1761.\n")],
                      "p.md")
    assert "It was tested at sea\r\nin 1761.\r\n" in out
    assert "\n" not in out.replace("\r\n", "")
    # a CRLF search against an LF page works too
    out = apply_edits(PAGE, [("# John Harrison\r\n", "# JH\r\n")], "p.md")
    assert "# JH\n" in out and "\r" not in out


def test_missing_final_newline_is_preserved():
    out = apply_edits("one\ntwo", [("two\n", "TWO\n")], "p.md")
    assert out == "one\nTWO"
    assert apply_edits("one\ntwo\n", [("two", "TWO")], "p.md") == "one\nTWO\n"


def test_bom_is_kept_and_ignored_for_matching():
    out = apply_edits("\ufeff---\ntitle: x\n---\n", [("---\ntitle: x\n", "---\ntitle: y\n")],
                      "p.md")
    assert out == "\ufeff---\ntitle: y\n---\n"


def test_blank_lines_around_search_are_noise():
    out = apply_edits(PAGE, [("\n\nIt was tested at sea.\n\n", "\n\nIt sailed.\n\n")], "p.md")
    assert "in 1759.\nIt sailed.\n\n## See also" in out


def test_fragment_of_one_line():
    out = apply_edits(PAGE, [("built H4", "completed H4")], "p.md")
    assert "Harrison completed H4 in 1759.\n" in out


def test_ambiguous_names_candidates():
    page = "x\n- item\ny\n- item\nz\n"
    with pytest.raises(MatchError) as exc:
        apply_edits(page, [("- item\n", "- thing\n")], "lists/Items.md")
    err = exc.value
    assert err.kind == "ambiguous" and err.candidates == [2, 4]
    msg = str(err)
    assert msg.startswith("lists/Items.md: the edit: the SEARCH text matches 2 places (lines 2, 4)")
    assert "Add neighbouring lines" in msg
    assert "lines 1-3:\n```\nx\n- item\ny\n```" in msg and "lines 3-5:\n```\ny\n- item\nz\n```" in msg


def test_absent_shows_closest_lines():
    with pytest.raises(MatchError) as exc:
        apply_edits(PAGE, [("Harrison built H4 in 1760.\nIt was tested on land.\n", "x\n")],
                    "entities/John Harrison.md")
    msg = str(exc.value)
    assert exc.value.kind == "not_found"
    assert msg.startswith("entities/John Harrison.md: the edit: the SEARCH text was not found")
    assert ("The closest lines in entities/John Harrison.md are lines 6-9:\n```\n\n"
            "Harrison built H4 in 1759.\nIt was tested at sea.\n\n```") in msg
    assert "@@@ WRITE" in msg


def test_absent_with_nothing_similar():
    with pytest.raises(MatchError) as exc:
        apply_edits(PAGE, [("zzzz qqqq\n", "x\n")], "p.md")
    assert "No line of the page resembles it." in str(exc.value)


def test_never_matches_on_first_and_last_lines_alone():
    search = "# John Harrison\n\nSOMETHING ELSE ENTIRELY\nIt was tested at sea.\n"
    with pytest.raises(MatchError):
        apply_edits(PAGE, [(search, "x\n")], "p.md")


def test_blank_search_is_invalid():
    with pytest.raises(MatchError) as exc:
        apply_edits(PAGE, [("\n  \n", "x\n")], "p.md")
    assert exc.value.kind == "invalid"


def test_already_applied_replacement_is_not_doubled():
    edit = ("- [[H4]]\n", "- [[H4]]\n- [[Larcum Kendall]]\n")
    once = apply_edits(PAGE, [edit], "p.md")
    report = apply_edits_report(once, [edit], "p.md")
    assert report.text == once and report.already_applied == [0]


def test_already_applied_when_search_is_gone():
    edit = ("Harrison built H4 in 1759.\n", "Harrison finished H4 in 1759.\n")
    once = apply_edits(PAGE, [edit], "p.md")
    report = apply_edits_report(once, [edit], "p.md")
    assert report.text == once and report.already_applied == [0]


def test_deleting_lines_with_empty_replace():
    out = apply_edits(PAGE, [("It was tested at sea.\n", "")], "p.md")
    assert "It was tested" not in out and "in 1759.\n\n## See also" in out


def test_unicode_and_form_feed_lines():
    page = "Ünïcode ✓\nform\x0cfeed\nsep\u2028inside\nend\n"
    out = apply_edits(page, [("sep\u2028inside\n", "replaced\n")], "p.md")
    assert out == "Ünïcode ✓\nform\x0cfeed\nreplaced\nend\n"


def test_phrase_replaced_by_several_lines_and_phrase_already_applied():
    out = apply_edits(PAGE, [("built H4 in 1759.", "built H4\nin 1759.")], "p.md")
    assert "Harrison built H4\nin 1759.\nIt was tested" in out
    edit = ("built H4 in 1759", "completed H4 in 1759")
    report = apply_edits_report(apply_edits(PAGE, [edit], "p.md"), [edit], "p.md")
    assert report.already_applied == [0]


def test_ambiguous_only_past_trailing_whitespace_is_refused_not_a_crash():
    # found by hypothesis: two lines "b " and a SEARCH "b" (a KeyError naming the tier)
    with pytest.raises(MatchError) as exc:
        apply_edits("b \nb \n", [("b\n", "NEW\n")], "p.md")
    assert exc.value.kind == "ambiguous" and exc.value.candidates == [1, 2]
    assert "matches 2 places (lines 1, 2)" in str(exc.value)


def test_phrase_found_in_several_lines_is_ambiguous():
    with pytest.raises(MatchError) as exc:
        apply_edits(PAGE, [("Harrison", "Harrisson")], "p.md")
    assert exc.value.kind == "ambiguous" and exc.value.candidates == [2, 5, 7]


def test_closest_lines_for_a_big_page_are_cheap():
    import time

    page = "".join(f"Line {i}: some words about the sea and clocks.\n" for i in range(10000))
    t = time.perf_counter()
    with pytest.raises(MatchError) as exc:
        apply_edits(page, [("Line 2345: some words about the see and clock!\n", "x\n")], "p.md")
    assert time.perf_counter() - t < 3
    assert "Line 2345: some words" in str(exc.value)


# -- properties ---------------------------------------------------------------------------------
from hypothesis import assume, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_line = st.text(st.sampled_from("ab c-#`ü\t"), min_size=0, max_size=8)


@given(st.lists(_line, min_size=1, max_size=25), st.data())
def test_a_unique_exact_search_splices_exactly_there(rows, data):
    nl = data.draw(st.sampled_from(["\n", "\r\n"]))
    page = "".join(r + nl for r in rows)
    i = data.draw(st.integers(0, len(rows) - 1))
    j = data.draw(st.integers(i + 1, len(rows)))
    search_rows = rows[i:j]
    assume(any(r.strip() for r in search_rows))
    # unique even after every normalisation, so no tier can see two places
    norm = [" ".join(r.split()) for r in rows]
    want = norm[i:j]
    assume(sum(norm[k:k + len(want)] == want for k in range(len(rows))) == 1)
    assume(search_rows[0].strip() and search_rows[-1].strip())  # blank edges are trimmed
    replace_rows = data.draw(st.lists(_line.filter(lambda s: "#" not in s), max_size=4))
    assume([r.rstrip() for r in replace_rows] != [s.rstrip() for s in search_rows])  # a no-op
    edits = [("".join(r + "\n" for r in search_rows), "".join(r + "\n" for r in replace_rows))]
    report = apply_edits_report(page, edits, "p.md")
    if report.already_applied:
        return  # the replacement already surrounded the match: nothing changed
    assert report.text == "".join(r + nl for r in rows[:i] + replace_rows + rows[j:])


@given(st.lists(_line, min_size=1, max_size=20), st.data())
def test_matching_never_touches_lines_outside_some_single_run(rows, data):
    page = "".join(r + "\n" for r in rows)
    search = data.draw(st.lists(_line, min_size=1, max_size=3))
    try:
        out = apply_edits(page, [("".join(s + "\n" for s in search), "NEW\n")], "p.md")
    except MatchError as exc:
        assert str(exc).startswith("p.md: the edit: ")
        return
    if out == page:
        return
    before, after = page.split("\n")[:-1], out.split("\n")[:-1]
    # common prefix + common suffix cover everything but one contiguous region
    k = 0
    while k < min(len(before), len(after)) and before[k] == after[k]:
        k += 1
    m = 0
    while (m < min(len(before), len(after)) - k
           and before[len(before) - 1 - m] == after[len(after) - 1 - m]):
        m += 1
    changed = after[k:len(after) - m]
    assert "NEW" in "\n".join(changed) and len(changed) <= 2
    assert len(before) - k - m <= len(search)  # only the matched run (or one line) was replaced


def test_a_short_replacement_found_elsewhere_is_not_taken_as_applied():
    with pytest.raises(MatchError) as exc:
        apply_edits("## See also\nFoo\n", [("Fooo\n", "Foo\n")], "p.md")
    assert exc.value.kind == "not_found"


# -- tolerant tiers (typography, line numbers, re-wrapping), no-op edits, the column hint ---------

TYPO_PAGE = ("# H4\n\nHarrison\u2019s \u201csea watch\u201d\u2014a large watch\u00a0\u2026\n"
             "It was tested at sea.\n")


def test_typography_tier_matches_retyped_quotes_and_dashes_and_keeps_the_page_characters():
    search = "Harrison's \"sea watch\"-a large watch ...\nIt was tested at sea.\n"
    replace = "Harrison's \"sea watch\"-a large watch ...\nIt was tested at sea in 1761.\n"
    report = apply_edits_report(TYPO_PAGE, [(search, replace)], "e/H4.md")
    assert report.tiers == ["typography"]
    # the repeated line keeps the page's curly quotes, dash, no-break space and ellipsis
    assert report.text == TYPO_PAGE.replace("at sea.", "at sea in 1761.")
    assert report.notes == ["the edit matched ignoring typography (curly quotes, dashes, "
                            "non-breaking spaces, '…')"]


def test_exact_match_leaves_no_note_and_typography_is_not_tried_first():
    page = "a 'x' line\na \u2018x\u2019 line\n"
    report = apply_edits_report(page, [("a 'x' line\n", "changed\n")], "p.md")
    assert report.text == "changed\na \u2018x\u2019 line\n" and report.notes == []


def test_typography_tier_needs_a_unique_match():
    page = "said \u201cyes\u201d\nsaid \u201dyes\u201c\n"
    with pytest.raises(MatchError) as exc:
        apply_edits(page, [('said "yes"\n', "said no\n")], "p.md")
    assert exc.value.kind == "ambiguous" and exc.value.candidates == [1, 2]
    assert "typography" in str(exc.value)


@pytest.mark.parametrize("prefix", ["{n} | ", "{n}: ", "  {n}\u2192", "{n}\t", "L{n}: "])
def test_line_numbers_copied_into_search_and_replace_are_removed(prefix):
    search = "".join(prefix.format(n=n) + t + "\n" for n, t in
                     [(6, "Harrison built H4 in 1759."), (7, "It was tested at sea.")])
    replace = (prefix.format(n=6) + "Harrison built H4 in 1759.\n"
               + "It was tested at sea in 1761.\n")
    report = apply_edits_report(PAGE, [(search, replace)], "p.md")
    assert report.tiers == ["line numbers"]
    assert report.text == PAGE.replace("tested at sea.", "tested at sea in 1761.")
    assert "line numbers" in report.notes[0]


def test_numbers_that_do_not_count_up_are_page_text_not_prefixes():
    page = "1759: H4 finished\n1761: tested\n"
    with pytest.raises(MatchError):
        apply_edits(page, [("1759: H4 done\n1770: tested\n", "x\n")], "p.md")


def test_a_page_whose_lines_really_start_with_numbers_matches_exactly():
    page = "1: one\n2: two\n"
    report = apply_edits_report(page, [("1: one\n2: two\n", "1: uno\n2: two\n")], "p.md")
    assert report.tiers == ["exact"] and report.text == "1: uno\n2: two\n"


def test_a_rewrapped_paragraph_matches_and_the_replacement_takes_its_lines():
    page = ("# T\n\nThe fourth timekeeper of Harrison, completed in 1759:\na watch about "
            "thirteen centimetres across.\n\nNext paragraph.\n")
    search = ("The fourth timekeeper of Harrison, completed in 1759: a watch\n"
              "about thirteen centimetres across.\n")
    report = apply_edits_report(page, [(search, "H4, completed in 1759.\n")], "p.md")
    assert report.tiers == ["re-wrapped"]
    assert report.text == "# T\n\nH4, completed in 1759.\n\nNext paragraph.\n"
    assert "re-wrapped" in report.notes[0]


def test_rewrapping_never_crosses_a_paragraph_break():
    page = "one two\n\nthree four\n"
    with pytest.raises(MatchError):
        apply_edits(page, [("one two three four\n", "x\n")], "p.md")


def test_rewrapped_search_found_twice_is_ambiguous():
    page = "a b\nc d\n\na b c\nd\n"
    with pytest.raises(MatchError) as exc:
        apply_edits(page, [("a b c d\n", "x\n")], "p.md")
    assert exc.value.kind == "ambiguous" and exc.value.candidates == [1, 4]


def test_a_replace_equal_to_its_search_changes_nothing_and_says_so():
    with pytest.raises(MatchError) as exc:
        apply_edits(PAGE, [("# John Harrison\n", "# J.\n"), ("- [[H4]]\n", "- [[H4]]\n")],
                    "e/JH.md")
    assert exc.value.kind == "unchanged"
    assert "e/JH.md: edit 2 of 2: it changes nothing: its REPLACE equals its SEARCH" in str(
        exc.value)
    assert "already" not in str(exc.value)


def test_not_found_points_at_the_column_that_differs():
    page = "# T\n\n  Harrison completed H4 \u2014 in 1759.\nNext.\n"
    with pytest.raises(MatchError) as exc:
        apply_edits(page, [("Harrison completed H4 - in 1759!\nNext.\n", "x\n")], "p.md")
    assert ("Closest line 3 differs at column 25: the page has '\u2014', the SEARCH has '-'"
            in str(exc.value))


def test_column_hint_is_left_out_when_the_lines_differ_a_lot():
    page = "# T\nalpha beta gamma delta\n"
    with pytest.raises(MatchError) as exc:
        apply_edits(page, [("# T\nsomething else entirely here\n", "x\n")], "p.md")
    assert "differs at column" not in str(exc.value)


def test_a_time_is_not_a_line_number():
    page = "# Day\n30 lunch\n12:30 Lunch\n"  # read as "12: " + "30 lunch", line 2 would match
    with pytest.raises(MatchError):
        apply_edits(page, [("12:30 lunch\n", "x\n")], "p.md")
