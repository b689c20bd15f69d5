"""Matching that cannot pick the wrong place (issue 19): a cut-short SEARCH, an exact hit in a
code fence or comment beside the prose line meant, pairs of one EDIT that meet text an earlier
pair wrote or each other, and a typography match that must not retarget a link."""

from __future__ import annotations

from tests.corpus.case import (APPLIED, H4, REFUSED, REPAIRED, Case,
                               adversarial_twins_are_well_formed, edited, vault_page)

T_OLD = ("- Barbados, 1764: confirmed the first result ([[sources/Board of Longitude|Board of "
         "Longitude entry]]).\n")
T_NEW = T_OLD.replace("first result", "first result, 39 seconds off")
RATES = "concepts/Rates.md"
_RATES = ("---\ntitle: Rates\ntype: concept\nsummary: How a watch's rate is stated.\n---\n"
          "# Rates\n\nThe rate is 2 seconds a day.  \n\nIn the log file it is written:\n\n"
          "```text\nThe rate is 2 seconds a day.\n```\n")
PAGES = {RATES: _RATES}
MUDGE = "entities/Thomas Mudge.md"
_MUDGE = ("---\ntitle: Thomas Mudge\ntype: entity\nsummary: \"London watchmaker.\"\n---\n"
          "# Thomas Mudge\n\nMudge\u2019s \u201cpraise\u201d of [[Harrison's H4|the watch]] was "
          "measured.\n")


def _edit(path: str, *pairs: tuple[str, str]) -> str:
    return (f"@@@ EDIT {path}\n" + "".join(f"@@@ SEARCH\n{s}@@@ REPLACE\n{r}" for s, r in pairs)
            + "@@@ END\n")


CASES = adversarial_twins_are_well_formed([
    Case("cut-short-one-line-search", "matching-places",
         _edit(H4, ("- Barbados, 1764: confirmed the first result\n",
                    "- Barbados, 1764: confirmed the first result, 39 seconds off.\n")),
         REFUSED, {H4: edited(H4, T_OLD, T_NEW)},
         message=(H4, "only part of line 19", "Copy the whole line"),
         retry=_edit(H4, (T_OLD, T_NEW)),
         note="issue 19: the new line was spliced in and the old tail kept"),
    Case("exact-hit-in-fence-beside-prose-line", "matching-places",
         _edit(RATES, ("The rate is 2 seconds a day.\n", "The rate is 3 seconds a day.\n")),
         REFUSED, {RATES: _RATES.replace("is 2 seconds a day.  ", "is 3 seconds a day.")},
         pages=PAGES, message=(RATES, "inside a code block", "lines 8, 13"),
         retry=_edit(RATES, ("# Rates\n\nThe rate is 2 seconds a day.\n",
                             "# Rates\n\nThe rate is 3 seconds a day.\n")),
         note="issue 19: the fenced copy won over the prose line (trailing spaces)"),
    Case("second-pair-meets-the-first-pairs-copy", "matching-places",
         _edit(H4, ("## Trials\n", "## Trials\n\n" + T_OLD), (T_OLD, T_NEW)), APPLIED,
         {H4: edited(H4, "## Trials\n", "## Trials\n\n" + T_OLD).replace(
             T_OLD + "\nHow", T_NEW + "\nHow")},
         note="issue 19: the second pair rewrote the line the first had just inserted"),
    Case("overlapping-pairs", "matching-places",
         _edit(H4, ("## Trials\n\n", "## Trials at sea\n\n"),
               ("## Trials\n", "## Sea trials\n")), REFUSED,
         {H4: edited(H4, "## Trials\n", "## Sea trials\n")},
         message=(H4, "both change", "Merge them"),
         retry=_edit(H4, ("## Trials\n", "## Sea trials\n"))),
    Case("pair-repeated-word-for-word", "matching-places",
         _edit(H4, ("# H4\n", "# H4 (the Sea Watch)\n"), ("# H4\n", "# H4 (the Sea Watch)\n")),
         APPLIED, {H4: edited(H4, "# H4\n", "# H4 (the Sea Watch)\n")},
         note="a model that repeats a pair means it once"),
    Case("chained-pairs", "matching-places",
         _edit(H4, ("## Copies\n", "## Copies\n\nK1 was the first.\n"),
               ("K1 was the first.\n", "K1 was the first copy.\n")), REPAIRED,
         {H4: edited(H4, "## Copies\n", "## Copies\n\nK1 was the first copy.\n")},
         repair="matched lines an earlier pair of the same EDIT wrote"),
    Case("typography-match-keeps-link-target", "matching-places",
         _edit(MUDGE, ("Mudge's \"praise\" of [[Harrison's H4|the watch]] was measured.\n",
                       "Mudge\u2019s \u201chigh praise\u201d of [[Harrison\u2019s H4|the "
                       "watch]] was measured.\n")), REPAIRED,
         {MUDGE: _MUDGE.replace("\u201cpraise\u201d", "\u201chigh praise\u201d")},
         pages={MUDGE: _MUDGE}, repair="typography",
         note="issue 19: the repair wrote \u2019 into a wikilink (a broken link)"),
    Case("pair-editing-inside-a-fence-alone", "matching-places",
         _edit(RATES, ("```text\nThe rate is 2 seconds a day.\n",
                       "```text\nThe rate is 3 seconds a day.\n")), APPLIED,
         {RATES: _RATES.replace("```text\nThe rate is 2", "```text\nThe rate is 3")},
         pages=PAGES, note="a SEARCH that names the fence means the fenced line"),
])
assert vault_page(H4).count(T_OLD) == 1
