"""agent.quotes: the page that holds a quoted claim, found by a phrase search and confirmed by
reading the page; quotes written the way models write them (links as text, curly quotes,
other case and spacing); a quote no page holds is None."""

from __future__ import annotations

import pytest

from wiki_tui.agent.context.quotes import contradiction_pages, page_quoting
from wiki_tui.vault import Vault

H4 = "entities/H4.md"
SOURCE = "sources/John Harrison and the Sea Clocks.md"


@pytest.fixture
def vault(git_vault):
    opened = Vault.open(git_vault, use_cache=False)
    yield opened
    opened.close()


@pytest.mark.parametrize("quote", [
    "The fourth and decisive timekeeper of John Harrison, completed in 1759",
    "the fourth and decisive   timekeeper of [[John Harrison]], completed in 1759",
    "“The Fourth and decisive timekeeper of John Harrison, completed in 1759.”",
])
def test_a_quote_is_found_on_its_page_however_it_was_written(vault, quote):
    assert page_quoting(vault, quote) == H4


def test_the_two_sides_of_a_contradiction(vault):
    pages = contradiction_pages(vault, H4, [
        "completed in 1759: a watch about thirteen",
        "H4 was completed in 1759; on the 1761-62 trial to Jamaica it was 5.1 seconds slow"])
    assert pages == [H4, SOURCE]


def test_a_made_up_quote_is_on_no_page(vault):
    assert contradiction_pages(vault, H4, ["H4 was built of solid gold in 1802 by the king",
                                           ""]) == [None, None]


def test_listing_pages_are_never_the_source(vault):
    # index.md repeats every page's summary: the page itself is the source
    assert page_quoting(vault, "Harrison's fourth marine timekeeper (1759)") == H4
