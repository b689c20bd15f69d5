"""claim_words: what a sentence's claim rests on — figures with what they count, names,
opposites, facts trading places — compared so that the same claim in other words is equal."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wiki_tui.changes.build.knowledge import claim_words as cw
from wiki_tui.changes.build.knowledge.text import polarity_flips


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


_MUDGE = "Mudge failed to win the Board's approval, and the Board refused to pay him in full"
_PRIZE = "Harrison never received the full prize from the Board of Longitude"


@pytest.mark.parametrize("then, now", [
    ("failed to win", "won"), ("failed to win", "managed to win"),
    ("failed to win", "succeeded in winning"), ("refused to pay", "paid"),
    ("refused to pay", "agreed to pay"), ("never received", "received"),
    ("never received", "was awarded"), ("never received", "was granted"),
])
def test_a_phrase_of_denial_turned_into_its_claim_is_found(then, now):
    old = _MUDGE if then in _MUDGE else _PRIZE
    assert polarity_flips(old, old.replace(then, now)) == [(old, old.replace(then, now))]


@pytest.mark.parametrize("then, now", [
    ("failed to win", "did not win"), ("failed to win", "never won"),
    ("failed to win", "did not manage to win"), ("refused to pay", "would not pay"),
    ("refused to pay", "declined to pay"), ("refused to pay", "was unwilling to pay"),
    ("never received", "did not receive"), ("never received", "was denied"),
    ("never received", "was refused"), ("never received", "lacked"),
])
def test_a_denial_said_in_other_words_is_not_turned_around(then, now):
    old = _MUDGE if then in _MUDGE else _PRIZE
    assert polarity_flips(old, old.replace(then, now)) == []


def test_losing_to_a_rival_turned_into_beating_them_is_found():
    old = "Harrison lost the prize to the astronomers after the trial of 1764"
    new = "Harrison beat the astronomers to the prize after the trial of 1764"
    assert polarity_flips(old, new) == [(old, new)]


# -- figures_changed: only what differs read, the same answer as reading both texts whole --------
_PIECES = ["5", "5.1", "£20", "$", "H4", "v1.2", "twenty", "-five", "twenty-five", "first",
           "seconds", "`seconds`", "*million*", "per cent", "%", "1765-10-28", "October", "Nov",
           "thirteen", "İ", "ſix", "K", "the watch", "\u00a0", " ", "  ", "\t", "\n", "\n\n",
           "`", "*", "_", ".", ",", "–", "19th", "1760s", "km", "e", "s"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30),
       st.lists(st.tuples(st.integers(0, 30), st.lists(st.sampled_from(_PIECES), max_size=6)),
                max_size=4))
def test_figures_changed_reads_what_differs_as_the_whole_texts_read(then, edits):
    """A family of texts and edits of them (units on the next line, after blank lines and
    markup, currency and glued letters at a line's edge, a letter whose lower case is longer):
    figures_changed agrees with figures read over both texts whole."""
    now = list(then)
    for at, inserted in edits:
        now[at:at + 1] = inserted
    a, b = "".join(then), "".join(now)
    whole_then, whole_now = cw.figures(a), cw.figures(b)
    assert cw.figures_changed(a, b) == (whole_then - whole_now, whole_now - whole_then)


def test_figures_changed_reads_a_unit_on_the_next_line_with_its_figure():
    then = "The watch lost 5\n`seconds` in the trial.\nIt sailed in 1761.\n"
    now = "The watch lost 5\n`minutes` in the trial.\nIt sailed in 1761.\n"
    assert cw.figures_changed(then, now) == ({"5 seconds": 1}, {"5 minutes": 1})


@pytest.mark.parametrize("unit", cw._UNIT_WORDS)
def test_every_unit_spelling_is_read_as_its_unit_in_any_case(unit):
    """Written out or abbreviated, in any case, a unit is read by one name: "5.1 s" and
    "5.1 seconds" say the same, "5.1 minutes" does not."""
    name = cw.UNIT_OF[unit]
    read = {"hundred": "500", "thousand": "5000", "million": "5,000,000",
            "billion": "5,000,000,000", "trillion": "5,000,000,000,000", "pounds": "£5",
            "dollars": "$5", "euros": "€5"}.get(name, f"5 {name}")
    for written in (unit, unit.upper(), unit.title()):
        assert cw.figures(f"paid 5 {written} then") == {read: 1}
    assert cw.figures(f"paid 5 {unit}x then") == {"5": 1}  # a longer word is no unit


def test_units_written_out_abbreviated_or_glued_compare_equal_and_others_do_not():
    same = [("5.1 s slow", "5.1 seconds slow"), ("5 km away", "5km away"),
            ("5 kilometres", "5 kilometers"), ("3 hrs", "3 hours"), ("12%", "12 per cent"),
            ("30g of", "30 grams of"), ("2 h", "two hours"), ("£20,000", "20,000 pounds"),
            ("£20,000", "£20 000"), ("2.5 million", "2,500,000"), ("£10,000", "ten thousand pounds"),
            ("£5m", "£5 million"), ("1761-62", "1761–1762"), ("1,000 men", "1000 men"),
            ("a 5-second error", "a 5 second error"), ("3 May", "May 3rd"),
            ("3 May", "the 3rd of May"), ("at −40 °C", "at -40°C")]
    for a, b in same:
        assert cw.figures(a) == cw.figures(b), (a, b)
    differ = [("5.1 s slow", "5.1 min slow"), ("5 km", "5 miles"), ("1760s", "1760 seconds"),
              ("5 m", "5 mm"), ("half a degree", "a quarter of a degree"),
              ("£20,000", "£2,000"), ("1761-62", "1761-63"), ("2.5 million", "2.5 billion"),
              ("£5", "$5"), ("3rd place", "3 place"), ("at 40 °C", "at 40 °F"),
              ("at 40 degrees", "at -40 degrees"), ("at 40 °C", "at −40 °C"), ("5 s", "<5 s")]
    for a, b in differ:
        assert cw.figures(a) != cw.figures(b), (a, b)
    # one letter is a unit only in lower case: "1764 M. Le Roy" names no metres
    assert cw.figures("in 1764 M. Le Roy") == {"1764": 1}
    assert cw.figures("£5m") == {"£5,000,000": 1}  # after a currency sign, m is millions
    assert cw.figures("5m") == {"5m": 1}  # alone, metres or millions: read as written


def test_a_citation_traded_to_another_claim_is_found_and_one_added_or_reflowed_is_not():
    then = ("- Jamaica, 1761-62: 5.1 seconds slow\n  ([[Sea Clocks]]).\n"
            "- Barbados, 1764: confirmed the first result ([[Board entry]]).\n")
    traded = then.replace("[[Sea Clocks]]", "@").replace("[[Board entry]]", "[[Sea Clocks]]") \
                 .replace("@", "[[Board entry]]")
    moved = cw.citations_moved(then, traded)
    assert {cite for _claim, cite in moved} == {"[[Sea Clocks]]", "[[Board entry]]"}
    assert any(claim.startswith("- Jamaica") for claim, _cite in moved)
    added = then.replace("([[Board entry]])", "([[Board entry]]; [[Sea Clocks]])")
    assert cw.citations_moved(then, added) == []  # a second source beside the first
    reflowed = then.replace("slow\n  ([[Sea", "slow ([[Sea")
    assert cw.citations_moved(then, reflowed) == []
    lines = then.splitlines(keepends=True)
    reordered = lines[2] + lines[0] + lines[1]  # the items trade places with their citations
    assert cw.citations_moved(then, reordered) == []


def test_a_citation_taken_off_its_claim_and_put_beside_another_is_found():
    then = ("The watch was small and fast, unlike the clocks.\n\n"
            "- Jamaica, 1761-62: 5.1 seconds slow\n  ([[Sea Clocks]]).\n")
    moved_off = ("The watch was small and fast, unlike the clocks ([[Sea Clocks]]).\n\n"
                 "- Jamaica, 1761-62: 5.1 seconds slow.\n")
    assert cw.citations_moved(then, moved_off) == [
        ("- Jamaica, 1761-62: 5.1 seconds slow ([[Sea Clocks]]).", "[[Sea Clocks]]")]
    dropped = then.replace("\n  ([[Sea Clocks]])", "")  # gone, not moved: links say so
    assert cw.citations_moved(then, dropped) == []
    also = then.replace("unlike the clocks.", "unlike the clocks ([[Sea Clocks]]).")
    assert cw.citations_moved(then, also) == []  # the claim keeps its own: a second use


def test_facts_trading_places_is_told_apart_from_a_sentence_built_anew():
    assert cw.swapped("Harrison beat Mudge in 1765.", "Mudge beat Harrison in 1765.")
    assert cw.swapped("| H1 | 1735 | 1736 |", "| H1 | 1736 | 1735 |")
    assert not cw.swapped("Harrison received £10,000 in 1765, after",
                          "In 1765 Harrison received £10,000, after")
    assert not cw.swapped("Harrison beat Mudge.", "Mudge was beaten by Harrison.")


def test_degree_words_on_other_steps_are_opposed_and_on_one_step_are_not():
    assert cw.opposed(Counter(["most"]), Counter(["some"]))
    assert cw.opposed(Counter(["usually"]), Counter(["rarely"]))
    assert cw.opposed(Counter(["nearly"]), Counter(["over"]))
    assert cw.opposed(Counter(["costly"]), Counter(["cheap"]))
    assert not cw.opposed(Counter(["often"]), Counter(["frequently"]))
    assert not cw.opposed(Counter(["nearly"]), Counter(["almost"]))


def test_a_name_with_a_digit_counts_even_opening_a_sentence():
    assert cw.names_swapped("H1 was the machine he showed.", "H2 was the machine he showed.")
    assert not cw.names_swapped("The machine he showed.", "A machine he showed.")


def test_figures_trading_places_between_two_lines_are_found_and_a_reworded_line_is_not():
    gone = "| H1 | 1735 | linked balances |\n| H4 | 1759 | a large watch |\n"
    came = "| H1 | 1759 | linked balances |\n| H4 | 1735 | a large watch |\n"
    assert len(cw.figures_moved(gone, came)) == 2
    assert cw.figures_moved(gone, gone.replace("a large", "a big")) == []  # same figures
    assert cw.figures_moved("H3 took nearly nineteen years to build.\n",
                            "H3 took nearly 19 years to build.\n") == []  # the same value
    assert cw.figures_moved("- Jamaica, 1761-62: slow on arrival\n",
                            "The watch reached Jamaica in 1764 after a long voyage out.\n") == []


_CLAIM_WORDS = st.lists(st.sampled_from("the watch lost gained time at sea in trial board paid "
                                        "harrison kendall copy voyage".split()),
                        min_size=3, max_size=8)


@settings(max_examples=150, deadline=None)
@given(st.lists(_CLAIM_WORDS, min_size=2, max_size=6, unique_by=tuple), st.randoms())
def test_items_reordered_with_their_citations_never_move_one_and_traded_ones_always_do(
        claims, rnd):
    """Independent of the reader: each item cites its own source [[S<i>]]. Reordering the
    items (each carrying its citation) moves none; trading two items' citations moves both."""
    items = [f"- {' '.join(words)} ([[S{i}]])." for i, words in enumerate(claims)]
    then = "\n".join(items) + "\n"
    shuffled = items[:]
    rnd.shuffle(shuffled)
    assert cw.citations_moved(then, "\n".join(shuffled) + "\n") == []
    a, b = rnd.sample(range(len(items)), 2)
    traded = items[:]
    traded[a] = items[a].replace(f"[[S{a}]]", f"[[S{b}]]")
    traded[b] = items[b].replace(f"[[S{b}]]", f"[[S{a}]]")
    moved = cw.citations_moved(then, "\n".join(traded) + "\n")
    assert sorted(cite for _claim, cite in moved) == sorted([f"[[S{a}]]", f"[[S{b}]]"])


def test_a_word_opening_a_sentence_put_in_anothers_place_is_offered_with_the_rest_kept():
    assert cw.openers_swapped("Harrison built H4 in 1759.\n", "Mudge built H4 in 1759.\n") == \
        [("Harrison", "Mudge")]
    assert cw.openers_swapped("It was paid in 1765. Harrison went home.\n",
                              "It was paid in 1765. Mudge went home.\n") == [("Harrison", "Mudge")]
    assert cw.openers_swapped("## Harrison at sea\n", "## Mudge at sea\n") == [("Harrison", "Mudge")]
    # common openers, words inside a sentence, and lines reworded further are not offered
    assert cw.openers_swapped("The watch ran.\n", "This watch ran.\n") == []
    assert cw.openers_swapped("Harrison built H4.\n", "He built H4.\n") == []
    assert cw.openers_swapped("It went to Harrison then.\n", "It went to Mudge then.\n") == []
    assert cw.openers_swapped("Harrison built H4.\n", "Mudge made H5.\n") == []


def test_codes_are_names_written_with_a_number_or_a_regnal_numeral():
    assert cw.codes("Kendall made K1 in 1769 after H4; George III paid. I was there in 1760s.") == \
        Counter({"K1": 1, "H4": 1, "III": 1})


def test_a_clause_cut_with_nothing_in_its_place_is_found_and_one_reworded_is_not():
    line = ("Harrison received the money in 1765 after explaining the mechanism to a sceptical "
            "panel of experts, and later retired to London.")
    cut = line.replace(" after explaining the mechanism to a sceptical panel of experts,", "")
    found = cw.clauses_cut(line, cut, cut)
    assert found and found[0][1] == "after explaining mechanism sceptical panel experts"
    said = line.replace("after explaining the mechanism to a sceptical panel of experts",
                        "once he had shown a doubtful committee how the mechanism worked")
    assert cw.clauses_cut(line, said, said) == []
    moved = cut + "\nHe had explained the mechanism to a sceptical panel of experts."
    assert cw.clauses_cut(line, moved, moved) == []  # the words stand elsewhere on the page


@pytest.mark.parametrize("old, new", [
    ("Some sailors distrusted the watch at first and kept the lunar tables",
     "Sailors distrusted the watch at first and kept the lunar tables"),
    ("H4 was one of the first watches to keep time at sea for weeks",
     "H4 was the first watch to keep time at sea for weeks"),
    ("The prize money came largely from Parliament rather than the Board",
     "The prize money came from Parliament rather than the Board"),
    ("Historians credit Harrison with solving the longitude problem",
     "Many historians credit Harrison with solving the longitude problem"),
])
def test_a_word_limiting_a_claim_to_part_dropped_or_added_is_found(old, new):
    assert polarity_flips(old, new) == [(old, new)]


@pytest.mark.parametrize("old, new", [
    ("Navigators often checked the watch against lunar distances", "Navigators frequently "
     "checked the watch against lunar distances"),
    ("He spent most of his life building timekeepers", "He spent the greater part of his life "
     "building timekeepers"),
    ("H4 was one of the first watches to keep time at sea", "H4 was among the first watches to "
     "keep time at sea"),
])
def test_a_limit_said_in_other_words_is_not(old, new):
    assert polarity_flips(old, new) == []


def test_a_sentence_wrapped_anew_is_read_as_the_same_sentence():
    from wiki_tui.changes.build.knowledge.text import polarity_flips

    gone = ("Latitude can be found from the Sun at noon. Longitude cannot:\n"
            "it depends on knowing the time at a reference meridian at that moment\n")
    rewrapped = ("Latitude can be found from the Sun at noon.\n"
                 "Longitude cannot: it depends on knowing the time at a reference meridian at "
                 "that instant\n")
    assert polarity_flips(gone, rewrapped) == []  # wrapped anew, one word changed
    turned = rewrapped.replace("cannot:", "can:")
    assert polarity_flips(gone, turned) != []  # and a short sentence turned around is seen
    one_line = "Longitude cannot: it is hard.\n"
    assert polarity_flips(one_line, "Longitude can: it is hard.\n") != []
    rows = "| H1 | not tested at sea. It sank. | Ok |\n"
    assert polarity_flips(rows, "| H1 | tested at sea. It sank. | Ok |\n") != []  # one unit


@pytest.mark.parametrize("old, new, turned", [
    ("Harrison received £10,000 in 1765 from the Board.",
     "Did Harrison receive £10,000 in 1765 from the Board?", True),
    ("Harrison received £10,000 in 1765 from the Board.",
     "Did Harrison receive £10,000 in 1765 from the Board", True),  # cut short, still asks
    ("Did the Board ever pay the second half to him?",
     "The Board did pay the second half to him.", True),  # what the page asked, now claimed
    ("Was the watch tested at sea before 1761?", "Was the watch tested at sea before 1761 ?",
     False),
    ("It was tested at sea by the Board.", "It was tested at sea by the Board, twice.", False),
    ("Was made in 1759 by Harrison himself.", "It was made in 1759 by Harrison himself.", False),
])
def test_a_claim_made_a_question_or_a_question_a_claim_is_turned_around(old, new, turned):
    assert (polarity_flips(old, new) != []) is turned
