"""Refusals that lead somewhere right, and habits nobody listed before (issue 19).

Paths written as links or in a sentence, a page that holds marker lines, log.md under a wrong
folder; and what models do around blocks: CRLF mixed into a reply, a block sent twice, more
blocks after "I'll stop here", HTML-escaped paths, a path written as a heading, tabs for
spaces, emoji sequences in a SEARCH, a SEARCH copied from the rendered page."""

from __future__ import annotations

from tests.corpus.case import (APPLIED, H4, REFUSED, REPAIRED, Case,
                               adversarial_twins_are_well_formed, edited, new_page)

OLD, NEW_LINE = "# H4\n", "# H4 (the Sea Watch)\n"
H4_RESULT = {H4: edited(H4, OLD, NEW_LINE)}


def _edit(path_text: str, old: str = OLD, new: str = NEW_LINE) -> str:
    return f"@@@ EDIT {path_text}\n@@@ SEARCH\n{old}@@@ REPLACE\n{new}@@@ END\n"


H4_EDIT = _edit(H4)
PROTO = "concepts/Edit protocol.md"
PROTO_PAGE = new_page("Edit protocol", "A block is closed by a line of its own:\n\n@@@ END\n\n"
                      "and a pair starts with\n\n@@@ SEARCH\n")
QA = "concepts/Q&A.md"
QA_PAGE = new_page("Q&A")
FAMILY = "concepts/Families.md"
_FAMILY = new_page("Families", "The \U0001F468\u200d\U0001F469\u200d\U0001F467 emoji shows a "
                   "family.")
TABS = "concepts/Tables.md"
_TABS = new_page("Tables", "- level one\n    - level two, four spaces")
RENDERED = "concepts/Rendered.md"
_RENDERED = new_page("Rendered", "The **Sea Watch** is [[H4|Harrison's H4]].")

CASES = adversarial_twins_are_well_formed([
    # refusals and paths
    Case("edit-path-as-markdown-link", "habits", _edit("[H4](entities/H4.md)"), REPAIRED,
         H4_RESULT, repair="read the path 'entities/H4.md'",
         note="issue 19: told to WRITE the mangled path"),
    Case("edit-path-as-heading-link", "habits", _edit("[[H4#Trials]]"), REPAIRED, H4_RESULT,
         repair="entities/H4.md", note="issue 19: told to WRITE '[[H4#Trials]].md'"),
    Case("edit-path-with-full-stop", "habits", _edit("entities/H4.md."), REPAIRED, H4_RESULT,
         repair="read the path 'entities/H4.md'", note="issue 19: told to WRITE 'H4.md..md'"),
    Case("edit-log-under-a-folder", "habits", _edit("wiki/log.md", "# Log\n", "# Timeline\n"),
         REFUSED, {}, message=("wiki/log.md", "written by wiki-tui itself"),
         note="issue 19: told to edit log.md, which a model may not touch"),
    Case("page-holding-marker-lines", "habits", f"@@@ WRITE {PROTO}\n{PROTO_PAGE}@@@ END\n",
         REFUSED, {PROTO: PROTO_PAGE}, message=(PROTO, f"'@@@@ WRITE {PROTO}'"),
         retry=f"@@@@ WRITE {PROTO}\n{PROTO_PAGE}@@@@ END\n",
         note="issue 19: refused as 'not closed', so the retry failed the same way"),
    Case("page-holding-marker-lines-long-run", "habits",
         f"@@@@ WRITE {PROTO}\n{PROTO_PAGE}@@@@ END\n", APPLIED, {PROTO: PROTO_PAGE}),
    # habits around blocks
    Case("crlf-mixed-into-reply", "habits",
         f"I'll retitle it.\r\n\r\n@@@ EDIT {H4}\r\n@@@ SEARCH\r\n# H4\r\n@@@ REPLACE\n"
         "# H4 (the Sea Watch)\r\n@@@ END\r\n", APPLIED, H4_RESULT,
         note="a reply assembled from CRLF and LF pieces"),
    Case("block-sent-twice", "habits", f"{H4_EDIT}\nTo be sure:\n\n{H4_EDIT}", APPLIED,
         H4_RESULT, note="the second copy is already applied, never doubled"),
    Case("blocks-after-i-will-stop-here", "habits",
         f"{H4_EDIT}\nI'll stop here.\n\nActually, one more page:\n\n@@@ WRITE concepts/X.md\n"
         f"{new_page('X')}@@@ END\n", APPLIED, {**H4_RESULT, "concepts/X.md": new_page("X")}),
    Case("html-escaped-path", "habits", f"@@@ WRITE concepts/Q&amp;A.md\n{QA_PAGE}@@@ END\n",
         REPAIRED, {QA: QA_PAGE}, repair="read the path 'concepts/Q&A.md'",
         note="a path HTML-escaped by a chat front end"),
    Case("path-written-as-heading", "habits", _edit(f"## {H4}"), REPAIRED, H4_RESULT,
         repair="read the path 'entities/H4.md'"),
    Case("tabs-for-spaces-in-search", "habits",
         f"@@@ EDIT {TABS}\n@@@ SEARCH\n\t- level two, four spaces\n@@@ REPLACE\n"
         "\t- level two, four spaces (a tab in the reply)\n@@@ END\n", REPAIRED,
         {TABS: _TABS.replace("four spaces", "four spaces (a tab in the reply)")},
         pages={TABS: _TABS}, repair="ignoring indentation"),
    Case("emoji-zwj-sequence-kept-in-search", "habits",
         _edit(FAMILY, _FAMILY.splitlines(keepends=True)[-1],
               "The family emoji is one glyph.\n"), APPLIED,
         {FAMILY: _FAMILY.rsplit("The ", 1)[0] + "The family emoji is one glyph.\n"},
         pages={FAMILY: _FAMILY}),
    Case("emoji-zwj-dropped-from-search", "habits",
         _edit(FAMILY, "The \U0001F468\U0001F469\U0001F467 emoji shows a family.\n",
               "The family emoji is one glyph.\n"), REFUSED,
         {FAMILY: _FAMILY.rsplit("The ", 1)[0] + "The family emoji is one glyph.\n"},
         pages={FAMILY: _FAMILY}, message=(FAMILY, "not found", "closest lines"),
         retry=_edit(FAMILY, _FAMILY.splitlines(keepends=True)[-1],
                     "The family emoji is one glyph.\n"),
         note="a tokenizer drops the zero-width joiners"),
    Case("search-copied-from-rendered-view", "habits",
         _edit(RENDERED, "The Sea Watch is Harrison's H4.\n", "The Sea Watch is H4.\n"),
         REFUSED, {RENDERED: _RENDERED.replace("[[H4|Harrison's H4]]", "[[H4]]")},
         pages={RENDERED: _RENDERED}, message=(RENDERED, "not found"),
         retry=_edit(RENDERED, "The **Sea Watch** is [[H4|Harrison's H4]].\n",
                     "The **Sea Watch** is [[H4]].\n"),
         note="bold and link markup lost when a model reads the rendered page"),
    # the chat a model closes a reply with, written into the page, and a note above a page
    Case("chat-closing-a-replace", "habits",
         _edit(H4, OLD, NEW_LINE + "\nI hope this helps! Let me know if you need anything else.\n"),
         REFUSED, H4_RESULT, message=("note to the person", "I hope this helps"), retry=H4_EDIT,
         note="a chat model's sign-off inside the REPLACE"),
    Case("model-speaking-of-itself-in-a-replace", "habits",
         _edit(H4, OLD, NEW_LINE + "\nAs an AI language model, I cannot verify the date.\n"),
         REFUSED, H4_RESULT, message=("note to the person", "As an AI language model"),
         retry=H4_EDIT),
    Case("note-above-a-new-page", "habits",
         "@@@ WRITE concepts/Escapement.md\nSure! Here is the new page:\n\n"
         + new_page("Escapement") + "@@@ END\n", REPAIRED,
         {"concepts/Escapement.md": new_page("Escapement")}, repair="above the page's frontmatter"),
    # adversarial: a page whose own first line speaks, without frontmatter under it
    Case("page-opening-with-here-is-and-no-frontmatter", "habits",
         "@@@ WRITE concepts/Escapement.md\nHere is how an escapement works.\n\nIt ticks.\n@@@ END\n",
         APPLIED, {"concepts/Escapement.md": "Here is how an escapement works.\n\nIt ticks.\n"}),
])
