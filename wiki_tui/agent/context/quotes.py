"""Which page says a quoted sentence: names the two sides of a contradiction.

A model-checked contradiction quotes two claims (`"A" vs "B"`) but names one page. Each quote is
looked up in the vault: a phrase search (SQLite FTS5) for its words, then the pages found are
read to confirm the quote is there (case, spacing and curly quotes aside). A quote no page
holds is reported as such: a claim the model made up is worth knowing about.
"""

from __future__ import annotations

import re
from typing import Any

LISTINGS = ("index.md", "log.md")  # they repeat other pages' summaries: never the source
PHRASE_WORDS = 12  # the words of a quote searched as a phrase (enough to be unique)
_WORD = re.compile(r"\w+")
_CURLY = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"})
_LINK = re.compile(r"\[\[(?:[^\]|]*\|)?([^\]]*)\]\]")  # [[target|shown]] reads shown
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)|`")


def _normal(text: str) -> str:
    """What a quote is compared by: the words as read ([[links]] and emphasis as their text),
    case, spacing and curly quotes aside."""
    text = _EMPHASIS.sub("", _LINK.sub(r"\1", text.translate(_CURLY)))
    return " ".join(text.casefold().split())


def page_quoting(vault: Any, quote: str, prefer: str = "", avoid: str = "") -> str | None:
    """The vault path of the page that holds `quote`: `prefer` when it does, else the best
    search hit other than `avoid` that does, else `avoid` when only it does; None if none."""
    wanted = _normal(quote).strip(" .\"'")
    words = _WORD.findall(wanted)
    if not words:
        return None
    candidates = [prefer] if prefer else []
    try:
        hits = vault.search('"' + " ".join(words[:PHRASE_WORDS]) + '"', limit=10)
    except Exception:  # an index that cannot answer: only the named page is checked
        hits = []
    listings = getattr(vault, "listing_pages", LISTINGS)  # the catalog wherever it lives
    candidates += [hit.path for hit in hits if hit.path not in listings]
    found = []
    for path in dict.fromkeys(candidates):
        try:
            text = _normal(vault.read_text(path))
        except Exception:  # gone since the lint: not its source
            continue
        if wanted in text:
            if path == prefer:
                return path
            found.append(path)
    others = [path for path in found if path != avoid]
    return (others or found or [None])[0]


def contradiction_pages(vault: Any, path: str, quotes: list[str]) -> list[str | None]:
    """The page of each quote of a contradiction found on `path`: the first claim is expected
    on `path` itself, the others elsewhere (the same page when it contradicts itself)."""
    pages: list[str | None] = []
    for i, quote in enumerate(quotes):
        if i == 0:
            pages.append(page_quoting(vault, quote, prefer=path))
        else:
            pages.append(page_quoting(vault, quote, avoid=path))
    return pages
