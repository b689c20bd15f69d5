"""Is a saved answer in the form that was asked for? (`query --save --as FORM`, `/save --as`)

Each check reads the changeset the model's reply built and returns what is missing, as
(path, message) pairs the save operation sends back to the model for another round, like any
refused edit. The chart spec and the canvas format are checked below this layer, for every
operation (changes/build/form_files.py); here only the form itself:

- table: a page whose markdown table has rows, each row citing a page ([[...]]);
- slides: a page that is a Marp deck (`marp: true` in its frontmatter) of two slides or more;
- chart: a page with a ```chart block;
- canvas: a `.canvas` file.
"""

from __future__ import annotations

import re
from typing import Any

from wiki_tui.forms import FORMS
from wiki_tui.forms.chart_spec import find_chart_blocks
from wiki_tui.forms.slides import is_deck, slides

_ROW = re.compile(r"^\s*\|.*\|\s*$")
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")


class FormError(ValueError):
    """An unknown form name (the message lists the forms)."""


def check_form_name(form: str) -> str:
    name = (form or "page").strip().lower()
    if name not in FORMS:
        raise FormError(f"unknown form {form!r}: one of {', '.join(FORMS)}")
    return name


def form_problems(form: str, changeset: Any) -> list[tuple[str, str]]:
    """What keeps the changeset from being the asked form ([] when it is, or for `page`)."""
    files = [f for f in changeset.files if f.proposed_text is not None and not f.rendered_from]
    pages = [f for f in files if f.path.endswith(".md")]
    if form == "page" or not files:
        return []
    if form == "canvas":
        if any(f.path.endswith(".canvas") for f in files):
            return []
        return [(files[0].path, f"{files[0].path}: a canvas was asked for: write the answer as "
                 "one `.canvas` file of JSON Canvas (answers/<Title>.canvas), not as a page")]
    if not pages:
        return [(files[0].path, f"{files[0].path}: a {form} was asked for: write it as a "
                 "markdown page (.md)")]
    problems = {"table": _table, "slides": _slides, "chart": _chart}[form]
    found = [problems(f.path, f.proposed_text) for f in pages]
    if any(not p for p in found):  # one page in the form is enough
        return []
    return [(f.path, p) for f, p in zip(pages, found)]


def _table(path: str, text: str) -> str:
    lines = text.splitlines()
    for i in range(1, len(lines)):
        if _SEPARATOR.match(lines[i]) and _ROW.match(lines[i - 1]):
            rows = []
            j = i + 1
            while j < len(lines) and _ROW.match(lines[j]):
                rows.append((j + 1, lines[j]))
                j += 1
            if not rows:
                return f"{path}: line {i}: the table has a header but no rows"
            bare = [n for n, row in rows if "[[" not in row]
            if bare:
                return (f"{path}: line(s) {', '.join(map(str, bare[:8]))}: every row of the "
                        "table cites the page its facts come from, as [[Page]] in a Sources "
                        "column")
            return ""
    return (f"{path}: a comparison table was asked for, and the page has no markdown table "
            "(a header row, a `| --- |` separator row, then one row per thing compared)")


def _slides(path: str, text: str) -> str:
    if not is_deck(text):
        return (f"{path}: a Marp deck was asked for: its frontmatter must hold `marp: true` "
                "(beside title, type, summary, sources)")
    if len(slides(text)) < 2:
        return f"{path}: the deck has one slide; separate its slides by lines holding only `---`"
    return ""


def _chart(path: str, text: str) -> str:
    if find_chart_blocks(text):
        return ""
    return (f"{path}: a chart was asked for, and the page has no ```chart block: write the "
            "declarative spec (kind, title, x, y, series with pages and data) in a fenced "
            "```chart block")
