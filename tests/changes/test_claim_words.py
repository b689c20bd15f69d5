"""claim_words: what a sentence's claim rests on — figures with what they count, names,
opposites, facts trading places — compared so that the same claim in other words is equal."""

from __future__ import annotations

import pytest

from wiki_tui.changes.build import claim_words as cw
from wiki_tui.changes.build.knowledge_text import polarity_flips


@pytest.mark.parametrize("a, b", [
    ("over three years", "over 3 years"),
    ("in 1761-62", "in 1761–62"),
    ("the fourth watch", "the 4th watch"),
    ("twenty-five guineas", "25 guineas"),
    ("the thirty-first day", "the 31st day"),
    ("18 Nov 1761", "18 November 1761"),
    ("2,500 `pounds`", "`2,500` pounds"),
    ("paid on 1765-10-28", "paid on 28 October 1765"),
    ("a 12% rise", "a 12 per cent rise"),
])
def test_the_same_figure_in_other_words_compares_equal(a, b):
    assert cw.figures(a) == cw.figures(b)


@pytest.mark.parametrize("a, b", [
    ("5.1 seconds slow", "5.1 minutes slow"),
    ("2.5 million pounds", "2.5 billion pounds"),
    ("the 19th century", "the 18th century"),
    ("about thirteen centimetres", "about thirty centimetres"),
    ("£450", "$450"),
    ("in the 1760s", "in the 1770s"),
    ("paid on 1765-10-28", "paid on 28 November 1765"),
    ("a 5km walk", "a 5mi walk"),
])
def test_a_figure_that_counts_something_else_differs(a, b):
    assert cw.figures(a) != cw.figures(b)


def test_one_and_first_alone_are_not_figures():
    assert not cw.figures("an erratic one; the first result")
    assert cw.figures("twenty-one guns") == cw.figures("21 guns")


@pytest.mark.parametrize("old, new", [
    ("H4 ran 5.1 seconds slow on arrival at Jamaica", "H4 ran 5.1 seconds fast on arrival at Jamaica"),
    ("The Barbados trial confirmed the first result", "The Barbados trial contradicted the first result"),
    ("The copy proved reliable over three years", "The copy proved unreliable over three years"),
    ("H4 went to Jamaica in 1761 and to Barbados in 1764", "H4 went to Jamaica in 1764 and to Barbados in 1761"),
    ("Harrison beat Maskelyne to the prize money", "Maskelyne beat Harrison to the prize money"),
    ("Parliament paid him a further sum in 1773", "Parliament reportedly paid him a further sum in 1773"),
    ("Harrison was born in c. 1693 at Foulby in Yorkshire", "Harrison was born in 1693 at Foulby in Yorkshire"),
])
def test_a_sentence_turned_around_is_found(old, new):
    assert polarity_flips(old, new) == [(old, new)]


@pytest.mark.parametrize("old, new", [
    ("Designs by John Arnold and Thomas Earnshaw made them common",
     "Designs by Thomas Earnshaw and John Arnold made them common"),
    ("Cook, Wales and Bayly took K1 and three more watches", "Wales, Cook and Bayly took K1 and three more watches"),
    ("H3 took nearly nineteen years to finish", "H3 took almost nineteen years to finish"),
    ("The watch was tested at sea in 1761", "The watch was tried at sea in 1761"),
])
def test_the_same_sentence_reworded_is_not_turned_around(old, new):
    assert polarity_flips(old, new) == []
