"""The generated index.md read line by line equals the general scanner's reading, or is left
to it (parse_catalog answers None)."""

from __future__ import annotations

import random

from wiki_tui.vault.indexing.catalog import parse_catalog
from wiki_tui.vault.layout import INDEX_TEMPLATE
from wiki_tui.vault.parse.page import parse_page

PLAIN = ["Alpha", "Beta gamma", "Ünïcode café", "x", "Review Meeting 12", "K1's log", "a.b.c", "1984"]
ODD = ["with #tag", "a [[link]] in it", "`code`", "%% note %%", "<b>html</b>", "escape \\ here",
       "block ^id", "math $x$", "under_score", "star*", "(paren)", "ends with space ", "a|pipe",
       "[md](link.md)", "https://example.org", "x.md", "tab\there", "  lead"]


def catalog(rng: random.Random, odd_share: float) -> str:
    lines = [INDEX_TEMPLATE.rstrip("\n")]
    for folder in ("sources", "entities", "concepts"):
        lines += ["", f"## {folder.capitalize()}", ""]
        for i in range(rng.randint(0, 6)):
            pick = (lambda: rng.choice(ODD)) if rng.random() < odd_share else (lambda: rng.choice(PLAIN))
            title, summary = pick(), rng.choice([pick(), "⚠ no summary"])
            lines.append(f"- [[{folder}/{pick()} {i}|{title}]] — {summary}")
    return "\n".join(lines) + "\n"


def test_plain_catalogs_are_read_line_by_line_exactly():
    rng = random.Random(3)
    fast = 0
    for _ in range(300):
        text = catalog(rng, 0.0)
        page = parse_catalog("index.md", text, mtime=5.0)
        assert page is not None
        assert page == parse_page("index.md", text, mtime=5.0)
        fast += 1
    assert fast == 300


def test_anything_else_is_left_to_the_general_scanner():
    rng = random.Random(4)
    for _ in range(400):
        text = catalog(rng, 0.3)
        page = parse_catalog("index.md", text)
        if page is not None:  # no odd text drawn, or odd text that reads the same
            assert page == parse_page("index.md", text)
    text = catalog(random.Random(1), 0.0)
    # the caller says which file is the catalog (AGENTS.md's `catalog:`): any path reads alike
    assert parse_catalog("meta/wiki-index.md", text) == parse_page("meta/wiki-index.md", text)
    assert parse_catalog("index.md", "# My own index\n\n- [[A|B]] — c\n") is None
    assert parse_catalog("index.md", text.replace("\n", "\r\n")) is None
    assert parse_catalog("index.md", text + "A person's line.\n") is None
    assert parse_catalog("index.md", text + "- [[A|B]] — see [[C]]\n") is None
