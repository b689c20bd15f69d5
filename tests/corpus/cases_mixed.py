"""Two protocols in one reply (issue 19): another tool's edit written beside or inside our own
blocks. Read as meant where the meaning is certain (an aider pair inside an @@@ EDIT), refused
naming the line otherwise (an edit left out of the blocks is never dropped silently), prose
where it only shows a block of the reply."""

from __future__ import annotations

from tests.corpus.case import (APPLIED, H4, REFUSED, REPAIRED, Case,
                               adversarial_twins_are_well_formed, edited, new_page, vault_page)

OLD, NEW_LINE = "# H4\n", "# H4 (the Sea Watch)\n"
T_OLD = ("- Barbados, 1764: confirmed the first result ([[sources/Board of Longitude|Board of "
         "Longitude entry]]).\n")
T_NEW = T_OLD.replace("first result", "first result, 39 seconds off")
H4_EDIT = f"@@@ EDIT {H4}\n@@@ SEARCH\n{OLD}@@@ REPLACE\n{NEW_LINE}@@@ END\n"
H4_RESULT = {H4: edited(H4, OLD, NEW_LINE)}
BOTH = {H4: edited(H4, OLD, NEW_LINE).replace(T_OLD, T_NEW)}
LP = "concepts/Longitude problem.md"
LP_OLD = vault_page(LP).split("\n# ", 1)[1].split("\n", 1)[0]  # its heading's text
LP_RESULT = {LP: edited(LP, f"# {LP_OLD}\n", f"# {LP_OLD} (1714-1773)\n")}
LP_EDIT = f"@@@ EDIT {LP}\n@@@ SEARCH\n# {LP_OLD}\n@@@ REPLACE\n# {LP_OLD} (1714-1773)\n@@@ END\n"
ESC = new_page("Escapement")

CASES = adversarial_twins_are_well_formed([
    Case("aider-pair-after-at-pair", "mixed-protocols",
         f"@@@ EDIT {H4}\n@@@ SEARCH\n{OLD}@@@ REPLACE\n{NEW_LINE}<<<<<<< SEARCH\n{T_OLD}"
         f"=======\n{T_NEW}>>>>>>> REPLACE\n@@@ END\n", REPAIRED, BOTH,
         repair="as the start of another pair",
         note="issue 19: the aider pair became REPLACE text (conflict markers in the page)"),
    Case("at-pair-after-aider-pair", "mixed-protocols",
         f"@@@ EDIT {H4}\n<<<<<<< SEARCH\n{OLD}=======\n{NEW_LINE}>>>>>>> REPLACE\n"
         f"@@@ SEARCH\n{T_OLD}@@@ REPLACE\n{T_NEW}@@@ END\n", REPAIRED, BOTH, repair="aider"),
    Case("aider-whole-file-beside-block", "mixed-protocols",
         f"{H4_EDIT}\nAnd the new page:\n\nconcepts/Escapement.md\n```markdown\n{ESC}```\n",
         REFUSED, {**H4_RESULT, "concepts/Escapement.md": ESC},
         message=("concepts/Escapement.md", "whole page in a code fence",
                  "'@@@ WRITE concepts/Escapement.md'"),
         retry=f"{H4_EDIT}\n@@@ WRITE concepts/Escapement.md\n{ESC}@@@ END\n",
         note="issue 19: aider's whole-file format beside @@@ blocks was dropped"),
    Case("search-words-beside-block", "mixed-protocols",
         f"{H4_EDIT}\nIn **{LP}**:\n\nSEARCH:\n# {LP_OLD}\nREPLACE:\n# {LP_OLD} (1714-1773)\n",
         REFUSED, {**H4_RESULT, **LP_RESULT}, message=(LP, "'@@@ EDIT"),
         retry=H4_EDIT + LP_EDIT, note="issue 19: SEARCH:/REPLACE: prose beside blocks"),
    Case("bare-hunk-beside-block", "mixed-protocols",
         f"{H4_EDIT}\nAnd the trial line:\n\n```diff\n@@ -19 +19 @@\n-{T_OLD}+{T_NEW}```\n",
         REFUSED, BOTH, message=("unified diff", "@@@ EDIT"),
         retry=f"{H4_EDIT}@@@ EDIT {H4}\n@@@ SEARCH\n{T_OLD}@@@ REPLACE\n{T_NEW}@@@ END\n",
         note="issue 19: a bare @@ hunk beside @@@ blocks was dropped"),
    Case("apply-patch-beside-block", "mixed-protocols",
         f"{H4_EDIT}\n*** Begin Patch\n*** Update File: {LP}\n@@\n-# {LP_OLD}\n"
         f"+# {LP_OLD} (1714-1773)\n*** End Patch\n", REFUSED, {**H4_RESULT, **LP_RESULT},
         message=(LP, "apply_patch"), retry=H4_EDIT + LP_EDIT),
    # adversarial: the same shapes showing a block of the reply, or a page's own text
    Case("block-shown-again-as-a-diff", "mixed-protocols",
         f"{H4_EDIT}\nIn diff form:\n\n```diff\n@@ -10 +10 @@\n-{OLD}+{NEW_LINE}```\n",
         APPLIED, H4_RESULT, note="a hunk of a block's own pair is an illustration"),
    Case("written-page-shown-under-its-path", "mixed-protocols",
         f"@@@ WRITE concepts/Escapement.md\n{ESC}@@@ END\n\nThe page now reads:\n\n"
         f"concepts/Escapement.md\n```markdown\n{ESC}```\n", APPLIED,
         {"concepts/Escapement.md": ESC}),
    Case("source-quoted-in-a-fence", "mixed-protocols",
         f"{H4_EDIT}\nThe source raw/notes.md says:\n\n```\nH4 was tested in 1761.\n```\n",
         APPLIED, H4_RESULT, note="a path and a fence that are no page"),
])
