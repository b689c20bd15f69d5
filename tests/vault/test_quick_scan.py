"""quick.py's regex-first scan gives exactly the reference pass's answers (links.reference_scan):
links with their lines, columns, kinds and extents, prose spans, headings, block ids, tags.

Checked on generated families of markdown (the characters that matter to the scanner, and
whole pages made of the constructs the generated vault uses), and on every page of a
generated vault, where the quick pass must also be the one that runs (else a cold build
gains nothing)."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from wiki_tui.vault.parse.frontmatter import split_frontmatter
from wiki_tui.vault.parse.links import reference_scan, scan
from wiki_tui.vault.parse.quick import quick_scan

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from gen_vault import generate  # noqa: E402


def _answers(result) -> tuple:
    return (result.links, result.external, result.spans, result.headings, result.block_ids,
            result.tags)


def _same(text: str, start: int = 0) -> bool:
    """Assert the quick pass (where it answers) equals the reference; True if it answered."""
    for kind, meta in (("wiki", True), ("frontmatter", False)):
        quick = quick_scan(text, start, kind, meta)
        if quick is None:
            return False
        assert _answers(quick) == _answers(reference_scan(text, start=start, kind=kind, meta=meta)), text
    return True


# The characters and pieces that matter to either scanner.
_pieces = st.sampled_from([
    "[", "]", "[[", "]]", "(", ")", "!", "|", "\\", "#", "##", "^", "^b1", "`", "``", "```",
    "````", "%%", "<", ">", "\n", "\n\n", "  ", " ", "- ", "> ", "a", "Page", ".md", "%20",
    "http://x", "---\n", "===", "é", ":", '"', "x.png", "#tag", " #t/x", "#123", "[x](y)",
    "[[A|b]]", "[[A#H]]", "![[i.png]]", "(<a b.md>)", '(a "t")', "`[[C]]`", "%% [[D]] %%",
    "\n```\n", "\n```py\n", "\n# H\n", "\n## H ##\n", " ^id-1\n",
])
markdownish = st.lists(_pieces, max_size=80).map("".join)

_line = st.sampled_from([
    "Prose with [[Page]] and [[Other|alias]] here.", "See [x](<a b.md>) and [y](c.md#Sub).",
    "Inline `[[Not]]` code, ``a ` b`` and ```x``` #tag.", "%% a [[Hidden]] comment %%",
    "%% open comment", "close %% then [[After]]", "```python", "```", "````", "x = '[[Fake]]'",
    "# Title", "## Details", "### Deep ###", "#notheading", "text ^b12", "a^b", "",
    "- item [[L]]", "1. step #t/sub", "> quote [[Q]]", "![[img.png|100]] ![e](http://x.y)",
    "[[#Heading]] [[^blk]] [[a#b#c]]", "[[]] [[ ]] [x]() [[a]]] [[[b]]", "#123 #a-b/c x#y",
    "`unclosed tick", "| t | [[T\\|x]] |", "[[a](b)]] [a [b](c)", "<!-- [[html]] -->",
])
pages = st.lists(_line, max_size=40).map("\n".join)


@settings(max_examples=400, deadline=None)
@given(markdownish)
@example("##`x` a\n")
@example("  ```\nx")
@example("[[x](y)[[A|b]]")
@example(" ^id-1\n===`[[C]]`")
@example("a `b\nc` [[d]]")
@example("[[a]]%%\n```\n[[b]]\n```\n%% [[c]]")
def test_quick_equals_reference_on_markdownish_text(text):
    _same(text)


@settings(max_examples=400, deadline=None)
@given(pages, st.booleans())
def test_quick_equals_reference_on_page_like_text(body, front):
    text = ("---\ntitle: T\n---\n" if front else "") + body
    start = split_frontmatter(text)[2]
    _same(text, start)


@settings(max_examples=200, deadline=None)
@given(pages, st.integers(0, 400))
def test_quick_equals_reference_from_any_start(body, start):
    start = min(start, len(body))
    assert _answers(scan(body, start=start)) == _answers(reference_scan(body, start=start))


def test_line_offset_shifts_the_quick_answers():
    text = "# H\n\nSee [[A]] and [b](c.md).\n"
    assert quick_scan(text, 0, "wiki", True) is not None
    shifted = scan(text, line_offset=10)
    assert [link.line for link in shifted.links] == [13, 13]
    assert [h.line for h in shifted.headings] == [11]


def test_every_page_of_a_generated_vault(tmp_path):
    generate(tmp_path, 400, seed=3)
    taken = total = 0
    for path in sorted(tmp_path.rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        total += 1
        taken += _same(text, split_frontmatter(text)[2])
    assert total > 400
    assert taken >= 0.95 * total  # the quick pass is the one that runs on such pages


@settings(max_examples=300, deadline=None)
@given(st.one_of(markdownish, pages), st.integers(0, 200), st.integers(0, 200))
def test_quick_links_equal_the_reference_finder(text, a, length):
    from wiki_tui.vault.parse.blocks import LineIndex
    from wiki_tui.vault.parse.links import _LinkFinder
    from wiki_tui.vault.parse.quick import quick_links

    a = min(a, len(text))
    b = min(a + length, len(text))
    quick = quick_links(text, a, b, "frontmatter")
    if quick is not None:
        reference: list = []
        _LinkFinder(text, LineIndex(text), "frontmatter").run(a, b, reference, [], [])
        assert quick == reference


def test_every_page_of_the_sample_vault_and_the_docs():
    """Hand-written markdown: the sample vault (the real-vault fixture) and the project's docs."""
    root = Path(__file__).resolve().parents[2]
    files = [*sorted((root / "sample_vault").rglob("*.md")), *sorted((root / "docs").rglob("*.md")),
             root / "README.md"]
    taken = 0
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        taken += _same(text, split_frontmatter(text)[2])
    assert len(files) > 20 and taken > len(files) // 2
