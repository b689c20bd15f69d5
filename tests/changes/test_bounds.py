"""Figures read with the words that bound them (build/knowledge/bounds.py): the same number
under another bound is a claim changed; the same bound in other words is not."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wiki_tui.changes.build.knowledge import bounds
from wiki_tui.changes.build.knowledge.bounds import bounded, bounds_changed


def test_each_number_is_read_with_its_bound():
    assert bounded("tested at least 5 times, up to 12 runs, c. 1760, 3 trials or more") == [
        ("≥", "5", "at least"), ("≤", "12", "up to"), ("~", "1760", "c."), ("≥", "3", "or more")]
    assert bounded("in 1765 and exactly 4") == [("=", "1765", ""), ("=", "4", "")]


@pytest.mark.parametrize("then, now", [
    ("tested at least 5 times", "tested 5 times"),
    ("more than 5 ships", "fewer than 5 ships"),
    ("at least 5", "at most 5"),
    ("13 cm across", "about 13 cm across"),
    ("nearly 19 years", "over 19 years"),
    ("met before 1737", "met after 1737"),
    ("1,000 ships", "over 1,000 ships"),
    ("it sailed 5 days later", "it sailed 5 days earlier"),
    ("kept secret until 1765", "kept secret after 1765"),
])
def test_a_number_kept_under_another_bound_is_named(then, now):
    assert bounds_changed(then, now) != []


@pytest.mark.parametrize("then, now", [
    ("tested at least 5 times", "tested no fewer than 5 times"),
    ("5 or more trials", "at least 5 trials"),
    ("at most 3", "no more than 3"),
    ("about 13 cm", "roughly 13 cm"),
    ("exactly 4 watches", "4 watches"),
    ("in 1765, he", "In 1765 he"),
    ("5 trials", "6 trials"),  # the figure itself changed: claim_words says so, not this
    ("no numbers here", "none here either"),
    ("it sailed after 5 days", "it sailed 5 days later"),
    ("3 years before the trial", "3 years earlier than the trial"),
    ("kept until 1765", "kept before 1765"),
    ("finished in 1759 before the trial", "finished in 1759, ahead of the trial"),
])
def test_the_same_bound_in_other_words_or_another_figure_is_not(then, now):
    assert bounds_changed(then, now) == []


def test_the_note_shows_the_bounds_as_written():
    assert bounds_changed("at least 5 runs", "up to 5 runs") == ["“at least 5” → “up to 5”"]


_PIECES = ["at least", "No fewer than", "5", "13", "1,234", "2.5", "or more", "or", "more",
           "exactly", "About", "c.", "ca.", "H4", "v1.2", "before", "After", "AT MOST", "up to",
           "Over", "x", "  ", "\n", "times", "cm", "just under", "under", "some", "prior to",
           "in excess of", "1761", "\t", "or fewer", "a little over", "slightly more than",
           "days", "Years", "later", "earlier", "until", "Till", "week"]


# The reference: the same pattern as a plain IGNORECASE alternation of the phrases.
_PLAIN = re.compile(
    r"(?<![\w.])(?:(" + "|".join(re.escape(p) for p in bounds._BEFORE) + r")\s+)?"
    r"(?:exactly\s+|precisely\s+)?(" + bounds._NUMBER + r")(?![\d])"
    r"(?:(?:\s+\w+)?\s+(" + "|".join(re.escape(p) for p in bounds._AFTER) + r")\b|"
    + bounds._SPAN + ")?", re.IGNORECASE)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=12), st.sampled_from([" ", "", "\n"]))
def test_property_the_lowered_tree_pattern_reads_what_the_ignorecase_pattern_reads(pieces, sep):
    # an ASCII text is read lower-cased with the phrases as a tree: the same answers
    text = sep.join(pieces)
    expected = []
    for m in _PLAIN.finditer(text):
        if m.group(4) and not m.group(1):
            expected.append((bounds._LATER[m.group(4).lower()], m.group(2), m.group(4).lower()))
            continue
        phrase = (m.group(1) or m.group(3) or "").lower()
        expected.append((bounds._SIGN.get(" ".join(phrase.split()), "="), m.group(2), phrase))
    assert bounds.bounded(text) == expected
