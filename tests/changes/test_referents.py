"""A name put out of a sentence for a description (knowledge/referents.py): held unless the
description plainly means the same one — the page's subject, or a description the page gives."""

from __future__ import annotations

import pytest

from wiki_tui.changes.build.knowledge.referents import (described_elsewhere, names_described,
                                                         subject_words)

PAGE = ("Thomas Mudge, Harrison's rival, built three timekeepers.\n\n"
        "Mudge received £2,500 from the Board in 1777.\n\n"
        "John Arnold sold his chronometers cheaply to the navy.\n")


@pytest.mark.parametrize("then, now, pair, elsewhere", [
    ("Mudge received", "The astronomer received", ("Mudge", "The astronomer"), False),
    ("Mudge received", "His rival received", ("Mudge", "His rival"), True),
    ("Mudge received", "Harrison's rival received", ("Mudge", "Harrison's rival"), True),
    ("John Arnold sold", "His rival sold", ("John Arnold", "His rival"), False),
    ("John Arnold sold", "The famous maker sold", ("John Arnold", "The famous maker"), False),
    ("from the Board in", "from the old commissioners in", None, None),  # no name went
    ("Mudge received", "He received", None, None),  # a pronoun: the reader's to resolve
    ("Mudge received", "Mudge's son received", None, None),  # the name stays
    ("cheaply to the navy", "cheaply to the Navy Board", None, None),  # a name came, none went
])
def test_a_name_put_out_for_a_description_is_found(then, now, pair, elsewhere):
    found = names_described(PAGE, PAGE.replace(then, now))
    assert found == ([pair] if pair else [])
    if pair:
        assert described_elsewhere(PAGE, *pair) is elsewhere


def test_the_page_subject_is_named_by_its_file_title_and_aliases():
    text = "---\ntitle: John Harrison\naliases: [Harrison of Foulby]\nsummary: Mudge's rival\n---\n"
    assert subject_words("entities/J. Harrison.md", text, len(text)) == {"John", "Harrison",
                                                                         "Foulby", "J"}


def test_a_noun_inside_another_word_does_not_describe():
    assert not described_elsewhere("Mudge's arrival was late.\n", "Mudge", "the rival")
