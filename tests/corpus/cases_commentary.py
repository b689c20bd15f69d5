"""Commentary inside blocks: a note to the person written between pairs, at the end of a REPLACE
or of a page, or before the first SEARCH. Lines outside any pair are ignored (visibly); a note
inside a REPLACE or a page is refused, because those sections hold any markdown and a page line
must never be dropped on a guess. The adversarial cases are page lines that read like prose."""

from __future__ import annotations

from tests.corpus.case import (APPLIED, ESC, ESC_PATH, H4, NEW, REFUSED, REPAIRED, Case,
                               adversarial_twins_are_well_formed, edited, new_page)

WRITE_ESC = f"@@@ WRITE {ESC_PATH}\n{ESC}@@@ END\n"
OLD, NEW_LINE = "# H4\n", "# H4 (the Sea Watch)\n"
_TRIAL_TAIL = " ([[sources/Board of Longitude|Board of Longitude entry]])."
TRIAL_OLD = "- Barbados, 1764: confirmed the first result" + _TRIAL_TAIL  # whole lines only
TRIAL_NEW = "- Barbados, 1764: confirmed the first result, 39 seconds off" + _TRIAL_TAIL
PAIR1 = f"@@@ SEARCH\n{OLD}@@@ REPLACE\n{NEW_LINE}"
PAIR2 = f"@@@ SEARCH\n{TRIAL_OLD}\n@@@ REPLACE\n{TRIAL_NEW}\n"
TWO = f"@@@ EDIT {H4}\n{PAIR1}{PAIR2}@@@ END\n"
TWO_RESULT = {H4: edited(H4, OLD, NEW_LINE).replace(TRIAL_OLD, TRIAL_NEW)}
ONE = f"@@@ EDIT {H4}\n{PAIR1}@@@ END\n"
ONE_RESULT = {H4: edited(H4, OLD, NEW_LINE)}


def with_replace_tail(tail: str) -> tuple[str, dict[str, str | None]]:
    """An edit whose REPLACE ends with `tail` (page text), and the page it meant."""
    reply = f"@@@ EDIT {H4}\n@@@ SEARCH\n{OLD}@@@ REPLACE\n{NEW_LINE}\n{tail}\n@@@ END\n"
    return reply, {H4: edited(H4, OLD, f"{NEW_LINE}\n{tail}\n")}


ALSO_SEE = with_replace_tail("Also see:")
THEN_BOARD = with_replace_tail("Then the Board asked for copies.")
STEP = with_replace_tail("Step 2: wind the clock.")
QUOTE_NOTE = with_replace_tail("> I'll be back, said the clock.")
LET_ME_PAGE = new_page("Escapement", "Let me show the parts in order.\n\n"
                       "## Parts\n\nThe anchor and the escape wheel.")
ENDS_WITH_THEN = new_page("Escapement", "Then the Board paid him.")


CASES = [
    # notes outside any pair: ignored with a note (nothing there could be page text)
    Case("note-before-first-search", "commentary",
         f"@@@ EDIT {H4}\nI'll retitle the page and add the Barbados error.\n{PAIR1}{PAIR2}"
         "@@@ END\n", REPAIRED, TWO_RESULT, repair="ignored text outside the SEARCH/REPLACE pairs"),
    Case("heres-the-change-before-search", "commentary",
         f"@@@ EDIT {H4}\nHere's the updated heading:\n\n{PAIR1}@@@ END\n", REPAIRED, ONE_RESULT,
         repair="line 2: 'Here's the updated heading:'"),
    Case("note-between-aider-pairs", "commentary",
         f"@@@ EDIT {H4}\n<<<<<<< SEARCH\n{OLD}=======\n{NEW_LINE}>>>>>>> REPLACE\n\n"
         f"And the trial:\n\n<<<<<<< SEARCH\n{TRIAL_OLD}\n=======\n{TRIAL_NEW}\n"
         ">>>>>>> REPLACE\n@@@ END\n", REPAIRED, TWO_RESULT, repair="'And the trial:'"),
    Case("note-after-end-is-prose", "commentary",
         f"{ONE}\nThis makes the heading match the aliases. Let me know if you want more.\n",
         APPLIED, ONE_RESULT),
    # notes inside a REPLACE or a page: refused, naming the line
    Case("note-between-replace-and-next-search", "commentary",
         f"@@@ EDIT {H4}\n{PAIR1}\nNow let me update the Barbados trial:\n{PAIR2}@@@ END\n",
         REFUSED, TWO_RESULT, message=(H4, "Now let me update the Barbados trial:", "line 7"),
         retry=TWO, note="GPT-style running commentary"),
    Case("note-without-blank-line", "commentary",
         f"@@@ EDIT {H4}\n{PAIR1}Next, the trial list:\n{PAIR2}@@@ END\n", REFUSED, TWO_RESULT,
         message=(H4, "Next, the trial list:"), retry=TWO),
    Case("numbered-change-heading-between-pairs", "commentary",
         f"@@@ EDIT {H4}\n{PAIR1}\nChange 2: the Barbados trial\n{PAIR2}@@@ END\n", REFUSED,
         TWO_RESULT, message=(H4, "Change 2: the Barbados trial"), retry=TWO),
    Case("note-after-last-replace", "commentary",
         f"@@@ EDIT {H4}\n{PAIR1}\nThis edit makes the heading match the aliases.\n@@@ END\n",
         REFUSED, ONE_RESULT, message=(H4, "This edit makes"), retry=ONE),
    Case("ill-note-after-last-replace", "commentary",
         f"@@@ EDIT {H4}\n{PAIR1}\nI've kept the rest of the page unchanged.\n@@@ END\n",
         REFUSED, ONE_RESULT, message=(H4, "I've kept the rest"), retry=ONE),
    Case("note-at-end-of-page", "commentary",
         f"@@@ WRITE {ESC_PATH}\n{ESC}\nLet me know if you want more detail on the parts.\n"
         "@@@ END\n", REFUSED, NEW, message=(ESC_PATH, "Let me know"), retry=WRITE_ESC),
    Case("edit-holding-a-whole-page", "commentary",
         f"@@@ EDIT {ESC_PATH}\n{ESC}@@@ END\n", REFUSED, NEW,
         message=(ESC_PATH, "for a whole page use '@@@ WRITE'"), retry=WRITE_ESC),
    # adversarial: page lines that read like prose stay page lines
    Case("replace-ending-also-see", "commentary", ALSO_SEE[0], APPLIED, ALSO_SEE[1]),
    Case("replace-ending-then-sentence", "commentary", THEN_BOARD[0], APPLIED, THEN_BOARD[1]),
    Case("replace-ending-quote", "commentary", QUOTE_NOTE[0], APPLIED, QUOTE_NOTE[1]),
    Case("page-with-let-me-sentence", "commentary", f"@@@ WRITE {ESC_PATH}\n{LET_ME_PAGE}@@@ END\n",
         APPLIED, {ESC_PATH: LET_ME_PAGE}),
    Case("replace-ending-step-line", "commentary", STEP[0], APPLIED, STEP[1]),
    Case("page-ending-with-then", "commentary", f"@@@ WRITE {ESC_PATH}\n{ENDS_WITH_THEN}@@@ END\n",
         APPLIED, {ESC_PATH: ENDS_WITH_THEN}),
    Case("note-line-also-in-search-kept", "commentary",
         f"@@@ EDIT {H4}\n@@@ SEARCH\n{OLD}\nLet me explain.\n@@@ REPLACE\n{NEW_LINE}\n"
         "Let me explain.\n@@@ END\n", APPLIED,
         {H4: edited(H4, OLD, NEW_LINE + "\nLet me explain.\n")},
         pages={H4: edited(H4, OLD, OLD + "\nLet me explain.\n")},
         note="the line was in the page, so it is page text"),
]
CASES = adversarial_twins_are_well_formed(CASES)
