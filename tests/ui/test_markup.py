"""Quoted markdown lines shown as text, with highlight spans kept on the right words."""

from __future__ import annotations

import pytest

from wiki_tui.ui.frame.markup import readable


def shown_spans(line: str, spans) -> tuple[str, list[str]]:
    text, moved = readable(line, spans)
    return text, [text[a:b] for a, b in moved]


@pytest.mark.parametrize("line, text", [
    ("- created [[entities/john-harrison|John Harrison]]", "created John Harrison"),
    ("See [[entities/h4]] and [[Lunar Distances]].", "See h4 and Lunar Distances."),
    ("## The **Board** of `Longitude`", "The Board of Longitude"),
    ("> 1. [ ] a [link](https://example.org) here", "a link here"),
    (r"a table cell \| with an escape", "a table cell | with an escape"),
    ("![[diagram.png]] embedded", "diagram.png embedded"),
    ("plain line, nothing to do", "plain line, nothing to do"),
    ("…partial [[a|b]] cut", "…partial b cut"),
    ("created: H4, [[entiti…", "created: H4, entiti…"),
    (r"| Champion | [[John Harrison\|Harrison]] | x |", "| Champion | Harrison | x |"),
])
def test_markup_goes(line, text):
    assert readable(line)[0] == text


def test_spans_follow_the_words():
    line = "## **Harrison** built [[entities/h4|H4]] for the Board"
    a = line.index("Harrison")
    b = line.index("Board")
    text, words = shown_spans(line, ((a, a + 8), (b, b + 5)))
    assert text == "Harrison built H4 for the Board"
    assert words == ["Harrison", "Board"]


def test_a_match_in_a_hidden_target_shows_the_target():
    line = "built [[entities/marine-chronometer|the clock]] at sea"
    a = line.index("marine")
    text, words = shown_spans(line, ((a, a + 6),))
    assert text == "built entities/marine-chronometer at sea"
    assert words == ["marine"]


def test_a_match_in_markers_only_is_dropped():
    line = "a **b** c"
    text, moved = readable(line, ((2, 5),))  # "**b": only the shown part stays
    assert text == "a b c" and [text[x:y] for x, y in moved] == ["b"]
    assert readable(line, ((2, 4),))[1] == ()  # the markers alone


def test_a_span_over_the_whole_link_marks_what_is_shown():
    line = "  - the [[entities/h4|H4]] trials"
    a = line.index("[[")
    text, words = shown_spans(line, ((a, line.index("]]") + 2),))
    assert text == "the H4 trials" and words == ["H4"]


def test_limit_cuts_and_clips_spans():
    line = "word " * 60 + "[[far|end]]"
    text, moved = readable(line, ((0, 4), (line.index("[["), len(line))), limit=50)
    assert len(text) == 50 and text.endswith("…")
    assert [text[a:b] for a, b in moved] == ["word"]
    _text, moved = readable(line, ((45, 60),), limit=50)  # across the cut: stops before "…"
    assert moved == ((45, 49),)


def test_in_a_table_the_escaped_pipe_is_not_shown():
    line = r"| [[entities/John Harrison\|Harrison]] |"
    a = line.index("John")
    text, words = shown_spans(line, ((a, a + 4),))  # only in the target: the target shows
    assert text == "| entities/John Harrison |" and words == ["John"]
    b = line.index("|Harrison") + 1
    text, words = shown_spans(line, ((a + 5, a + 13), (b, b + 8)))  # in both: the alias shows
    assert text == "| Harrison |" and words == ["Harrison"]
