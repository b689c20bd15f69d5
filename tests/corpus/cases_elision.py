"""Lazy elision: a model writes a placeholder line ("...", "rest of the section unchanged",
"<!-- existing content -->") where it means "the text stays as it was". Applied literally, the
text it stands for is deleted, so such a line is refused, quoted; an ellipsis inside a sentence,
in code, or a line the page (or the SEARCH) already had, is text."""

from __future__ import annotations

from pathlib import Path

from tests.corpus.case import (APPLIED, H4, REFUSED, Case)

_VAULT = Path(__file__).resolve().parents[2] / "sample_vault"
_H4 = (_VAULT / H4).read_text(encoding="utf-8")
_HEAD, _REST = _H4.split("## Trials\n", 1)
_FULL_UPDATE = _H4.replace("## Copies\n", "## Copies\n\nK1 was tested on Cook's second voyage.\n")
SEND_WHOLE = "Send the whole page"
SEND_SECTION = "Send the whole section"


def _write(path: str, text: str) -> str:
    return f"@@@ WRITE {path}\n{text}@@@ END\n"


def _edit(path: str, search: str, replace: str) -> str:
    return f"@@@ EDIT {path}\n@@@ SEARCH\n{search}@@@ REPLACE\n{replace}@@@ END\n"


def _lazy_write(name: str, placeholder: str, note: str = "") -> Case:
    """A WRITE of H4 that keeps the head, adds a line and elides the rest with `placeholder`."""
    reply = _write(H4, _HEAD + "## Trials\n\n" + placeholder + "\n\n## Copies\n\nK1 was tested on "
                   "Cook's second voyage.\n" + placeholder + "\n")
    return Case(name, "elision", reply, REFUSED, {H4: _FULL_UPDATE},
                message=(H4, "placeholder", repr(placeholder), SEND_WHOLE),
                retry=_write(H4, _FULL_UPDATE), note=note)


_TRIALS = ("## Trials\n\n- Jamaica, aboard HMS *Deptford*, 1761-62: 5.1 seconds slow on arrival\n")
_MORE = "- Portsmouth, 1761: set going before the voyage.\n"


def _lazy_replace(name: str, placeholder: str, note: str = "") -> Case:
    """An EDIT whose REPLACE adds a line and then stands in for the rest of the section."""
    reply = _edit(H4, _TRIALS, "## Trials\n\n" + _MORE + placeholder + "\n")
    return Case(name, "elision", reply, REFUSED,
                {H4: _H4.replace("## Trials\n\n", "## Trials\n\n" + _MORE, 1)},
                message=(H4, "placeholder", repr(placeholder), SEND_SECTION),
                retry=_edit(H4, _TRIALS, "## Trials\n\n" + _MORE + _TRIALS.split("\n\n")[1]),
                note=note)


POEM = "concepts/Sea shanty.md"
_POEM = "---\ntitle: Sea shanty\ntype: concept\nsummary: A song.\n---\n# Sea shanty\n\nHeave...\n...\nho!\n"
CODE_PAGE = ("---\ntitle: Chronometer rate\ntype: concept\nsummary: How a rate is computed.\n---\n"
             "# Chronometer rate\n\n```python\ndef rate(days):\n    ...\n```\n\nThe rate is the daily "
             "gain or loss... measured over weeks.\n[[Marine chronometer]]\n")

CASES = [
    _lazy_write("write-bare-ellipsis", "...", "the most common elision in whole-file edits"),
    _lazy_write("write-ellipsis-char", "\u2026"),
    _lazy_write("write-bracketed-ellipsis", "[...]"),
    _lazy_write("write-html-comment", "<!-- existing content -->",
                "a model hides the elision in a comment the preview does not show"),
    _lazy_write("write-remaining-unchanged", "(remaining content unchanged)"),
    _lazy_write("write-rest-of-section", "Rest of the section unchanged."),
    _lazy_replace("replace-slash-comment", "// unchanged", "a code-editing habit"),
    _lazy_replace("replace-rest-of-the-section", "rest of the section unchanged"),
    _lazy_replace("replace-list-item-ellipsis", "- ..."),
    _lazy_replace("replace-ellipsis-in-brackets", "[\u2026]"),
    Case("ellipsis-inside-sentences-is-text", "elision",
         _write("concepts/Chronometer rate.md", CODE_PAGE), APPLIED,
         {"concepts/Chronometer rate.md": CODE_PAGE},
         note="'...' in prose and in a code fence is page text"),
    Case("placeholder-the-page-already-had", "elision",
         _write(POEM, _POEM.replace("ho!", "ho, and away!")), APPLIED,
         {POEM: _POEM.replace("ho!", "ho, and away!")}, pages={POEM: _POEM}),
    Case("placeholder-line-kept-from-the-search", "elision",
         _edit(POEM, "Heave...\n...\nho!\n", "Heave...\n...\nho, and away!\n"), APPLIED,
         {POEM: _POEM.replace("ho!", "ho, and away!")}, pages={POEM: _POEM}),
]
