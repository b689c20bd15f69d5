"""Property-based tests for the scanner: any input is fine, time stays linear, code is code."""

from __future__ import annotations

import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wiki_tui.vault.parse.links import prose_spans, scan, scan_links
from wiki_tui.vault.parse.page import parse_page

# Text made of the characters that matter to the scanner, so examples hit the rules.
_pieces = st.sampled_from(
    [
        "[",
        "]",
        "[[",
        "]]",
        "(",
        ")",
        "!",
        "|",
        "\\",
        "#",
        "^",
        "`",
        "```",
        "~~~",
        "%%",
        "<",
        ">",
        "\n",
        "\n\n",
        "    ",
        "\t",
        " ",
        "- ",
        "> ",
        "a",
        "Page",
        ".md",
        "%20",
        "http://x",
        "---\n",
        "é",
        "\r\n",
        ":",
        '"',
        "x.png",
    ]
)
markdownish = st.lists(_pieces, max_size=60).map("".join)
any_text = st.one_of(st.text(max_size=300), markdownish)


@given(any_text)
def test_scan_never_crashes_and_links_are_consistent(text):
    result = scan(text)
    for link in result.links + result.external:
        assert 0 <= link.start < link.end <= len(text)
        assert text[link.start : link.end] == link.raw
        assert link.line == text.count("\n", 0, link.start) + 1
        assert link.col == link.start - (text.rfind("\n", 0, link.start) + 1)
        assert link.kind in ("wiki", "markdown", "external")
        assert link.target or link.subpath
        assert link.target == link.target.strip()
    spans = result.spans
    for (a, b), (c, _d) in zip(spans, spans[1:], strict=False):
        assert a < b <= c
    for link in result.links:  # a link lies inside one prose span
        assert any(a <= link.start and link.end <= b for a, b in spans)


@given(any_text)
def test_parse_page_never_raises(text):
    page = parse_page("folder/Page.md", text)
    assert page.name == "Page"
    for link in page.links:
        assert text[link.start : link.end] == link.raw


@given(markdownish, st.sampled_from(["```", "~~~", "````"]), markdownish)
def test_nothing_inside_a_fence_is_a_link(before, fence, inside):
    inside = inside.replace(fence[0] * 3, "")  # no closing fence inside
    before = before.replace("`", "").replace("~", "")  # no fence opened before ours
    text = f"{before}\n\n{fence}\n[[Inside]] {inside}\n"
    targets = [link.target for link in scan_links(text)]
    assert "Inside" not in targets


@given(st.text(alphabet="ab [](|#!", max_size=30), st.integers(1, 3))
def test_nothing_in_inline_code_is_a_link(inside, ticks):
    fence = "`" * ticks
    inside = inside.replace("`", "")
    text = f"x {fence}[[In{inside}]]{fence} y"
    assert scan_links(text) == []


@given(any_text)
def test_prose_spans_within_text(text):
    for a, b in prose_spans(text):
        assert 0 <= a < b <= len(text)


PATHOLOGICAL = [
    "[",
    "[[",
    "]]",
    "[]",
    "[x](",
    "[x](a(",
    '[x](a "',
    "[x](<",
    "![[a",
    "[[a|",
    "`",
    "``",
    "`\n``\n",
    "a `\n",
    "%%",
    "#",
    "^a ",
    "\n```",
    "\n    x\n",
    "- a\n\n    b\n",
    "\n    b\n",  # after one list item at the top: a very long list
    "> ```\n",
    "\n\t",
]


@pytest.mark.parametrize("unit", PATHOLOGICAL)
def test_scan_time_is_linear(unit):
    """4x the input may take at most ~4x the time (allowing a generous factor for noise)."""

    def cost(n: int) -> float:
        text = ("- a\n" if unit == "\n    b\n" else "") + unit * n
        best = float("inf")
        for _ in range(3):
            t0 = time.process_time()
            scan(text)
            best = min(best, time.process_time() - t0)
        return best

    small = max(cost(2_000), 1e-4)
    large = cost(8_000)
    assert large < small * 12 + 0.05, (unit, small, large)


def test_forty_thousand_brackets_are_fast():
    for text in ("[" * 40_000, "[[" * 20_000 + "]]", "[" * 1_000_000):
        t0 = time.process_time()
        scan(text)
        assert time.process_time() - t0 < 0.5


def test_mixed_brackets_are_fast():
    text = "[[a]b[c](d[[e|f]](g)!" * 10_000  # ~200 KB, 30,000 links
    t0 = time.process_time()
    scan(text)
    assert time.process_time() - t0 < 1.0
