"""Other edit formats models slip into: aider's SEARCH/REPLACE markers, unified diffs, OpenAI's
apply_patch, JSON tool calls, aider's whole-file fence, and other verbs (CREATE, UPDATE, MOVE,
RENAME a to b, REPLACE WITH). Accepted where the meaning is unambiguous (with a repair note),
otherwise refused with what to send; plus pages that merely contain such text."""

from __future__ import annotations

from tests.corpus.case import (APPLIED, ESC, ESC_PATH, H4, NEW, REFUSED, REPAIRED, Case,
                               adversarial_twins_are_well_formed, edited, new_page, vault_page)

WRITE_ESC = f"@@@ WRITE {ESC_PATH}\n{ESC}@@@ END\n"
OLD, NEW_LINE = "# H4\n", "# H4 (the Sea Watch)\n"
H4_RESULT = {H4: edited(H4, OLD, NEW_LINE)}
H4_EDIT = f"@@@ EDIT {H4}\n@@@ SEARCH\n{OLD}@@@ REPLACE\n{NEW_LINE}@@@ END\n"
AIDER_PAIR = f"<<<<<<< SEARCH\n{OLD}=======\n{NEW_LINE}>>>>>>> REPLACE\n"
_TRIAL_TAIL = " ([[sources/Board of Longitude|Board of Longitude entry]])."
TRIAL_OLD = "- Barbados, 1764: confirmed the first result" + _TRIAL_TAIL  # whole lines only
TRIAL_NEW = "- Barbados, 1764: confirmed the first result, 39 seconds off" + _TRIAL_TAIL
TWO_RESULT = {H4: edited(H4, OLD, NEW_LINE).replace(TRIAL_OLD, TRIAL_NEW)}
DR = "concepts/Dead reckoning.md"

GIT_PAGE = new_page("Merge conflicts", "A conflict looks like this:\n\n```\n<<<<<<< SEARCH\n"
                    "ours\n=======\ntheirs\n>>>>>>> REPLACE\n```\n\nand a diff like this:\n\n"
                    "```diff\n--- a/notes.md\n+++ b/notes.md\n@@ -1 +1 @@\n-old\n+new\n```\n\n"
                    'A tool call: {"path": "concepts/A.md", "content": "x"}')
UDIFF = (f"```diff\n--- a/{H4}\n+++ b/{H4}\n@@ -8,3 +8,3 @@\n ---\n-# H4\n+# H4 (the Sea Watch)\n"
         " \n```\n")


CASES = [
    # aider's SEARCH/REPLACE
    Case("aider-markers-inside-edit", "formats", f"@@@ EDIT {H4}\n{AIDER_PAIR}@@@ END\n",
         REPAIRED, H4_RESULT, repair="aider", note="aider's diff format inside our block"),
    Case("aider-block-path-before-fence", "formats",
         f"I'll retitle the page.\n\n{H4}\n```markdown\n{AIDER_PAIR}```\n", REPAIRED, H4_RESULT,
         repair="read an aider '<<<<<<< SEARCH' block", note="aider's 'diff' format as is"),
    Case("aider-diff-fenced", "formats", f"```\n{H4}\n{AIDER_PAIR}```\n", REPAIRED, H4_RESULT,
         repair="aider", note="aider's diff-fenced format (Gemini)"),
    Case("aider-bold-path-two-blocks", "formats",
         f"**{H4}**\n```markdown\n{AIDER_PAIR}```\n\n```markdown\n<<<<<<< SEARCH\n{TRIAL_OLD}\n"
         f"=======\n{TRIAL_NEW}\n>>>>>>> REPLACE\n```\n", REPAIRED, TWO_RESULT, repair="aider",
         note="the second block repeats no path"),
    Case("aider-block-without-path", "formats",
         f"Change the heading:\n\n```\n{AIDER_PAIR}```\n", REFUSED, H4_RESULT,
         message=("without a page path", "@@@ EDIT"), retry=H4_EDIT),
    Case("aider-second-divider-ambiguous", "formats",
         f"@@@ EDIT {H4}\n<<<<<<< SEARCH\n{OLD}=======\nbetween\n=======\n{NEW_LINE}"
         ">>>>>>> REPLACE\n@@@ END\n", REFUSED, H4_RESULT, message=(H4, "second '======='"),
         retry=H4_EDIT),
    Case("aider-replace-without-divider", "formats",
         f"@@@ EDIT {H4}\n<<<<<<< SEARCH\n{OLD}>>>>>>> REPLACE\n@@@ END\n", REFUSED, H4_RESULT,
         message=(H4, "without '======='"), retry=H4_EDIT),
    Case("cline-replace-in-file", "formats",
         f"<replace_in_file>\n<path>{H4}</path>\n<diff>\n{AIDER_PAIR}</diff>\n"
         "</replace_in_file>\n", REPAIRED, H4_RESULT, repair="aider",
         note="Cline / Roo Code tool call written as XML"),
    Case("end-after-each-pair", "formats",
         f"{H4_EDIT}\n@@@ SEARCH\n{TRIAL_OLD}\n@@@ REPLACE\n{TRIAL_NEW}\n@@@ END\n", REPAIRED,
         TWO_RESULT, repair="read '@@@ SEARCH' after '@@@ END' (line 8) as another pair"),
    Case("search-colon-words", "formats",
         f"@@@ EDIT {H4}\nSEARCH:\n{OLD}REPLACE:\n{NEW_LINE}@@@ END\n", REFUSED, H4_RESULT,
         message=(H4, "write the marker lines '@@@ SEARCH' and '@@@ REPLACE'"), retry=H4_EDIT),
    Case("search-words-without-markers", "formats",
         f"**{H4}**\n\nSEARCH:\n{OLD}\nREPLACE:\n{NEW_LINE}", REFUSED, H4_RESULT,
         message=("without the '@@@' marker lines", f"'@@@ EDIT {H4}'"), retry=H4_EDIT),
    Case("diff-inside-edit-block", "formats",
         f"@@@ EDIT {H4}\n```diff\n-# H4\n+# H4 (the Sea Watch)\n```\n@@@ END\n", REFUSED,
         H4_RESULT, message=(H4, "a diff is not a pair"), retry=H4_EDIT),
    # adversarial: conflict markers, diffs and JSON inside pages are page text
    Case("page-with-conflict-markers-diff-json", "formats",
         f"@@@ WRITE concepts/Merge conflicts.md\n{GIT_PAGE}@@@ END\n", APPLIED,
         {"concepts/Merge conflicts.md": GIT_PAGE}),
    Case("replace-with-divider-line", "formats",
         f"@@@ EDIT {H4}\n@@@ SEARCH\n{OLD}@@@ REPLACE\n{OLD}=======\n@@@ END\n", APPLIED,
         {H4: edited(H4, OLD, OLD + "=======\n")}, note="a setext underline, not a divider"),
    Case("diff-in-prose-beside-its-block", "formats", f"The change:\n\n{UDIFF}\n{H4_EDIT}",
         APPLIED, H4_RESULT, note="a diff shown as illustration of a block that is there"),
    # refused: other formats, each with what to send
    Case("unified-diff", "formats", f"Here is the patch:\n\n{UDIFF}", REFUSED, H4_RESULT,
         message=("unified diff", H4, "@@@ EDIT"), retry=H4_EDIT, note="aider's udiff habit"),
    Case("bare-hunk-without-headers", "formats",
         f"In {H4}:\n\n```diff\n@@ -8,1 +8,1 @@\n-# H4\n+# H4 (the Sea Watch)\n```\n", REFUSED,
         H4_RESULT, message=("unified diff", "@@@ EDIT"), retry=H4_EDIT),
    Case("apply-patch", "formats",
         f"*** Begin Patch\n*** Update File: {H4}\n@@\n-# H4\n+# H4 (the Sea Watch)\n"
         "*** End Patch\n", REFUSED, H4_RESULT, message=("apply_patch", H4), retry=H4_EDIT,
         note="OpenAI's apply_patch tool format"),
    Case("json-write-call", "formats",
         '```json\n{"name": "write_file", "arguments": {"path": "concepts/Escapement.md", '
         '"content": "---\\ntitle: Escapement\\n---"}}\n```\n', REFUSED, NEW,
         message=("JSON tool call", ESC_PATH, "@@@ WRITE"), retry=WRITE_ESC),
    Case("json-edit-call-multiline", "formats",
         '{\n  "tool": "str_replace",\n  "file_path": "entities/H4.md",\n  "old_string": "# H4",'
         '\n  "new_string": "# H4 (the Sea Watch)"\n}\n', REFUSED, H4_RESULT,
         message=("JSON tool call", H4), retry=H4_EDIT),
    Case("cline-write-to-file", "formats",
         f"<write_to_file>\n<path>{ESC_PATH}</path>\n<content>\n{ESC}</content>\n"
         "</write_to_file>\n", REFUSED, NEW, message=("XML tool call", ESC_PATH, "@@@ WRITE"),
         retry=WRITE_ESC),
    Case("xml-function-call-str-replace", "formats",
         '<function_calls>\n<invoke name="str_replace_editor">\n<parameter name="command">'
         'str_replace</parameter>\n<parameter name="path">entities/H4.md</parameter>\n'
         '<parameter name="old_str"># H4</parameter>\n<parameter name="new_str"># H4 (the Sea '
         'Watch)</parameter>\n</invoke>\n</function_calls>\n', REFUSED, H4_RESULT,
         message=("XML function call", H4, "@@@ EDIT"), retry=H4_EDIT,
         note="a function call written out as text, as tool-trained models do without tools"),
    Case("xml-function-call-create", "formats",
         f'<invoke name="create_file">\n<parameter name="path">{ESC_PATH}</parameter>\n'
         f'<parameter name="file_text">{ESC}</parameter>\n</invoke>\n', REFUSED, NEW,
         message=("XML function call", ESC_PATH, "@@@ WRITE"), retry=WRITE_ESC),
    Case("xml-element-holding-a-page", "formats",
         f'<write path="{ESC_PATH}">\n{ESC}</write>\n', REFUSED, NEW,
         message=("XML element holding a page", ESC_PATH, "@@@ WRITE"), retry=WRITE_ESC,
         note="a page as one XML element naming its file, as some chat tools ask for"),
    Case("xml-element-editing-a-page", "formats",
         f"<edit file='{H4}'>\n# H4 (the Sea Watch)\n</edit>\n", REFUSED, H4_RESULT,
         message=("XML element holding a page", H4, "@@@ EDIT"), retry=H4_EDIT),
    Case("shell-here-document", "formats",
         f"Run this:\n\ncat > '{ESC_PATH}' <<'EOF'\n{ESC}EOF\n", REFUSED, NEW,
         message=("shell here-document", ESC_PATH, "@@@ WRITE"), retry=WRITE_ESC,
         note="a coding agent's habit: the page written by the shell"),
    Case("whole-file-in-fence-after-path", "formats",
         f"{ESC_PATH}\n```markdown\n{ESC}```\n", REFUSED, NEW,
         message=("whole page in a code fence", "@@@ WRITE " + ESC_PATH), retry=WRITE_ESC,
         note="aider's whole format"),
    # other verbs
    Case("create-verb", "formats", f"@@@ CREATE {ESC_PATH}\n{ESC}@@@ END\n", REPAIRED, NEW,
         repair="read '@@@ CREATE' as '@@@ WRITE'"),
    Case("new-verb-lower-case", "formats", f"@@@ new {ESC_PATH}\n{ESC}@@@ end\n", REPAIRED, NEW,
         repair="as '@@@ WRITE'"),
    Case("update-with-whole-page", "formats",
         f"@@@ UPDATE {H4}\n{vault_page(H4).replace(OLD, NEW_LINE)}@@@ END\n", REPAIRED,
         H4_RESULT, repair="read '@@@ UPDATE' as '@@@ WRITE'"),
    Case("update-with-pairs", "formats",
         f"@@@ UPDATE {H4}\n@@@ SEARCH\n{OLD}@@@ REPLACE\n{NEW_LINE}@@@ END\n", REPAIRED,
         H4_RESULT, repair="read '@@@ UPDATE' as '@@@ EDIT'"),
    Case("update-with-fragment", "formats", f"@@@ UPDATE {H4}\n{NEW_LINE}@@@ END\n", REFUSED,
         H4_RESULT, message=(H4, "not a whole page", "@@@ EDIT"), retry=H4_EDIT,
         note="a fragment must not replace the page"),
    Case("modify-verb-with-pairs", "formats",
         f"@@@ MODIFY {H4}\n@@@ SEARCH\n{OLD}@@@ REPLACE\n{NEW_LINE}@@@ END\n", REPAIRED,
         H4_RESULT, repair="as '@@@ EDIT'"),
    Case("rename-a-to-b", "formats", f"@@@ RENAME {DR} to concepts/Reckoning.md\n", REPAIRED,
         {DR: None, "concepts/Reckoning.md": vault_page(DR)}, repair="read 'to'"),
    Case("move-verb", "formats", f"@@@ MOVE {DR} -> concepts/Reckoning.md\n", REPAIRED,
         {DR: None, "concepts/Reckoning.md": vault_page(DR)}, repair="as '@@@ RENAME'"),
    Case("remove-verb", "formats", "@@@ REMOVE syntheses/Clock versus Moon.md\n", REPAIRED,
         {"syntheses/Clock versus Moon.md": None}, repair="as '@@@ DELETE'"),
    Case("replace-with", "formats",
         f"@@@ EDIT {H4}\n@@@ SEARCH FOR:\n{OLD}@@@ REPLACE WITH:\n{NEW_LINE}@@@ END\n", REPAIRED,
         H4_RESULT, repair="as '@@@ REPLACE'"),
    Case("unknown-verb-patch", "formats", f"@@@ PATCH {H4}\n-# H4\n+# H4 (the Sea Watch)\n",
         REFUSED, H4_RESULT, message=(f"unknown marker '@@@ PATCH {H4}'",), retry=H4_EDIT),
]
CASES = adversarial_twins_are_well_formed(CASES)
