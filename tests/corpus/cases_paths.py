"""Paths on marker lines written the way models write them: a note after the path, a trailing
`@@@`, quotes, `[[links]]`, `./`, no `.md`. (Resolving a path against the vault's pages, for a
wrong folder or letter case, is tested in cases_paths_vault.py.)"""

from __future__ import annotations

from tests.corpus.case import (APPLIED, ESC, H4, NEW, REFUSED, REPAIRED, Case,
                               adversarial_twins_are_well_formed, edited, new_page, vault_page)

H4_EDIT = "@@@ SEARCH\n# H4\n@@@ REPLACE\n# H4 (the Sea Watch)\n@@@ END\n"
H4_RESULT = {H4: edited(H4, "# H4\n", "# H4 (the Sea Watch)\n")}
WELL_FORMED_WRITE = f"@@@ WRITE concepts/Escapement.md\n{ESC}@@@ END\n"
READ = "read the path 'concepts/Escapement.md'"


def write(path_text: str, note: str = "") -> str:
    return f"I'll add the page.\n\n@@@ WRITE {path_text}\n{ESC}@@@ END\n{note}"


CASES = [
    Case("write-note-new-page", "paths", write("concepts/Escapement.md (new page)"), REPAIRED,
         NEW, repair=READ, note="a parenthetical after the path"),
    Case("write-trailing-at-signs", "paths", write("concepts/Escapement.md @@@"), REPAIRED, NEW,
         repair=READ, note="the marker closed like a heading"),
    Case("write-em-dash-new-no-md", "paths", write("concepts/Escapement — new page"), REPAIRED,
         NEW, repair=READ, note="a dash note and no extension"),
    Case("write-paren-new-no-md", "paths", write("concepts/Escapement (new)"), REPAIRED, NEW,
         repair=READ),
    Case("write-dash-created-after-md", "paths", write("concepts/Escapement.md - created"),
         REPAIRED, NEW, repair=READ),
    Case("write-quoted", "paths", write('"concepts/Escapement.md"'), REPAIRED, NEW, repair=READ),
    Case("write-wikilink", "paths", write("[[concepts/Escapement]]"), REPAIRED, NEW, repair=READ,
         note="the page named as a link"),
    Case("write-wikilink-with-note", "paths", write("[[concepts/Escapement]] (new page)"),
         REPAIRED, NEW, repair=READ),
    Case("write-backticks-colon", "paths", write("`concepts/Escapement.md`:"), REPAIRED, NEW,
         repair=READ),
    Case("write-bold-path", "paths", write("**concepts/Escapement.md**"), REPAIRED, NEW,
         repair=READ),
    Case("write-dot-slash", "paths", write("./concepts/Escapement.md"), REPAIRED, NEW,
         repair=READ),
    Case("write-no-extension", "paths", write("concepts/Escapement"), REPAIRED, NEW, repair=READ),
    Case("edit-note-after-path", "paths", f"@@@ EDIT entities/H4.md (update the title)\n{H4_EDIT}",
         REPAIRED, H4_RESULT, repair="read the path 'entities/H4.md'"),
    Case("edit-dash-note-after-path", "paths",
         f"@@@ EDIT entities/H4.md — fix heading\n{H4_EDIT}",
         REPAIRED, H4_RESULT, repair="read the path 'entities/H4.md'"),
    Case("delete-note-after-path", "paths",
         "@@@ DELETE syntheses/Clock versus Moon.md (duplicate of Longitude problem)\n", REPAIRED,
         {"syntheses/Clock versus Moon.md": None}, repair="read the path"),
    Case("rename-notes-after-both-paths", "paths",
         "@@@ RENAME `concepts/Dead reckoning.md` -> concepts/Reckoning.md (shorter)\n", REPAIRED,
         {"concepts/Dead reckoning.md": None,
          "concepts/Reckoning.md": vault_page("concepts/Dead reckoning.md")},
         repair="read the path"),
    # adversarial: parentheses, dashes and dots that belong to the name stay in it
    Case("name-with-parens-kept", "paths",
         f"@@@ WRITE concepts/Clock (history).md\n{new_page('Clock (history)')}@@@ END\n",
         APPLIED, {"concepts/Clock (history).md": new_page("Clock (history)")}),
    Case("name-with-dash-kept", "paths",
         f"@@@ WRITE concepts/Escapement - new design.md\n{ESC}@@@ END\n", APPLIED,
         {"concepts/Escapement - new design.md": ESC}),
    Case("name-with-parens-no-md-kept", "paths",
         f"@@@ WRITE concepts/Clock (history)\n{new_page('Clock (history)')}@@@ END\n", REPAIRED,
         {"concepts/Clock (history).md": new_page("Clock (history)")},
         repair="read the path 'concepts/Clock (history).md'"),
    Case("name-with-md-inside-kept", "paths",
         f"@@@ WRITE concepts/Notes on .md files.md\n{ESC}@@@ END\n", APPLIED,
         {"concepts/Notes on .md files.md": ESC}),
    # refused: no usable path
    Case("write-without-path", "paths", f"@@@ WRITE\n{ESC}@@@ END\n", REFUSED, NEW,
         message=("needs a page path",), retry=WELL_FORMED_WRITE),
    Case("write-other-extension", "paths", write("concepts/Escapement.txt"), REFUSED, NEW,
         message=("concepts/Escapement.txt",), retry=WELL_FORMED_WRITE),
]
CASES = adversarial_twins_are_well_formed(CASES)
