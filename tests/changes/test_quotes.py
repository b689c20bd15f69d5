"""Quotations (knowledge/quotes.py): a source's words may be moved, re-wrapped, re-marked and
re-spaced, never reworded; a callout or code is not a quotation."""

from __future__ import annotations

import pytest

from wiki_tui.changes.build.knowledge.quotes import may_quote, quotations, quotes_reworded

PAGE = ('---\ntitle: Q\ntype: concept\nsummary: "a quoted summary of words"\n---\n# Q\n\n'
        'Cook wrote that the watch was "our faithful guide through all the vicissitudes of '
        'climates" ([[James Cook]]).\n\n'
        "Maskelyne called it 'a very good watch, but no more' in 1766; Harrison's reply is lost.\n\n"
        "> The watch has exceeded the expectations of its most zealous advocate.\n> — Cook, 1775\n\n"
        '> [!note] Aside\n> The page says "this and that thing" here.\n\n'
        '```\nprint("a b c d")\n```\n\n    x = "one two three"\n')


def test_each_quotation_of_three_words_or_more_is_read_once():
    shown = [s for _w, s in quotations(PAGE)]
    assert shown == ["our faithful guide through all the vicissitudes of climates",
                     "a very good watch, but no more",
                     "The watch has exceeded the expectations of its most zealous advocate. "
                     "— Cook, 1775"]


@pytest.mark.parametrize("then, now", [
    ("faithful guide", "trusty guide"),  # a word swapped
    (" through all the vicissitudes of climates", ""),  # shortened
    ("of climates", "of climates and seas"),  # lengthened
    ("a very good watch, but no more", "no more than a very good watch"),  # reordered
    ("through all the", "through … the"),  # an ellipsis put in
    ("most zealous advocate", "most ardent advocate"),  # a block quote
    ("'a very good watch, but no more'", "‘a good watch, but no more’"),  # curled and cut
])
def test_a_quotation_whose_words_change_is_named(then, now):
    assert then in PAGE
    found = quotes_reworded(PAGE, PAGE.replace(then, now, 1))
    assert len(found) == 1 and " → " in found[0]


@pytest.mark.parametrize("then, now", [
    ('"our faithful guide through all the vicissitudes of climates"',
     "“our faithful guide through all the vicissitudes of climates”"),  # marks curled
    ("vicissitudes of", "vicissitudes\nof"),  # re-wrapped
    ("its most zealous", "its\n> most zealous"),  # a block quote re-wrapped
    ("through all the", "through  all   the"),  # spacing
    ("Cook wrote that the watch was", "In his journal Cook called the watch"),  # sentence reworded
    ("'a very good watch, but no more'", '"a very good watch, but no more"'),  # other marks
    ("> The watch has exceeded the expectations of its most zealous advocate.\n> — Cook, 1775",
     'Cook: "The watch has exceeded the expectations of its most zealous advocate. — Cook, '
     '1775"'),  # a block quote turned inline
    ("Maskelyne called it 'a very good watch, but no more' in 1766; Harrison's reply is lost.\n\n",
     ""),  # removed with its sentence: the other readings judge that
    ("in 1766;", 'in 1766, and "the best of all watches made" later;'),  # a new quotation
    ("this and that thing", "this and another thing"),  # a callout is the wiki's own words
    ("a b c d", "a b c e"),  # code
    ("one two three", "one two four"),  # indented code
    ("a quoted summary of words", "a quoted summary of other words"),  # frontmatter
])
def test_a_quotation_kept_in_its_words_is_not(then, now):
    assert then in PAGE
    assert quotes_reworded(PAGE, PAGE.replace(then, now, 1)) == []


@pytest.mark.parametrize("gone, expected", [
    ('He said "yes it is".\n', True), ("He said “yes”.\n", True), ("> A quote\n", True),
    ("it was 'the best' then\n", True), ("Harrison's watch\n", False), ("a < b > c\n", False),
    ("Plain words, nothing quoted.\n", False),
])
def test_only_lines_that_can_hold_a_quotation_are_read(gone, expected):
    assert may_quote(gone) is expected
