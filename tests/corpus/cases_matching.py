"""SEARCH text that is not the page's text byte for byte: retyped typography, line numbers
copied from an error quote or a file viewer, a re-wrapped paragraph; and the edits that must
still be refused (a typo, an ambiguous tolerant match, a REPLACE equal to its SEARCH)."""

from __future__ import annotations

from pathlib import Path

from tests.corpus.case import (H4, REFUSED, REPAIRED, Case)

_VAULT = Path(__file__).resolve().parents[2] / "sample_vault"
_H4 = (_VAULT / H4).read_text(encoding="utf-8")

# A page typed with a word processor's characters: curly quotes, dashes, no-break spaces, '…'.
MUDGE = "entities/Thomas Mudge.md"
_MUDGE = """---
title: Thomas Mudge
type: entity
summary: "London watchmaker who invented the lever escapement."
---
# Thomas Mudge

Mudge called H4 \u201cthe finest watch ever made\u201d and wrote that Harrison\u2019s design \u2014 \
however clever \u2014 could not be copied cheaply.
He served the Board 1761\u201362 as an examiner of H4.
His own timekeepers cost \u00a3500\u00a0each\u2026 and took years to make.
"""
_PAGES = {MUDGE: _MUDGE}
TWICE = "concepts/Twice.md"
_TWICE = "# Twice\n\nHe said \u201cyes\u201d.\nLater:\nHe said \u201dyes\u201d.\n"


def _edit(path: str, *pairs: tuple[str, str]) -> str:
    body = "".join(f"@@@ SEARCH\n{s}@@@ REPLACE\n{r}" for s, r in pairs)
    return f"@@@ EDIT {path}\n{body}@@@ END\n"


def _mudge(old: str, new: str) -> dict[str, str | None]:
    assert old in _MUDGE
    return {MUDGE: _MUDGE.replace(old, new, 1)}


def _h4(old: str, new: str) -> dict[str, str | None]:
    assert old in _H4
    return {H4: _H4.replace(old, new, 1)}


_QUOTE_LINE = ("Mudge called H4 \u201cthe finest watch ever made\u201d and wrote that Harrison\u2019s "
               "design \u2014 however clever \u2014 could not be copied cheaply.\n")
_TYPED = ("Mudge called H4 \"the finest watch ever made\" and wrote that Harrison's design - "
          "however clever - could not be copied cheaply.\n")
_JAMAICA = "- Jamaica, aboard HMS *Deptford*, 1761-62: 5.1 seconds slow on arrival\n"
_WRAPPED = ("The fourth and decisive timekeeper of [[John Harrison]], completed in 1759: a watch "
            "about thirteen\ncentimetres across with a fast-beating balance, unlike the large "
            "brass clocks H1-H3.\n")
_ONE_LINE = _WRAPPED.replace("thirteen\ncentimetres", "thirteen centimetres")
_H4_LINES = _H4.splitlines(keepends=True)
_TRIALS_AT = _H4_LINES.index("## Trials\n") + 1  # 1-based line number of '## Trials'


def _numbered(fmt: str, first: int, lines: list[str]) -> str:
    return "".join(fmt.format(n=first + k) + line for k, line in enumerate(lines))


CASES = [
    # -- typography ------------------------------------------------------------------------
    Case("straight-quotes-for-curly", "matching",
         _edit(MUDGE, (_TYPED, _TYPED.replace("cheaply", "cheaply or quickly"))), REPAIRED,
         _mudge(_QUOTE_LINE, _TYPED.replace("cheaply", "cheaply or quickly")), pages=_PAGES,
         repair="typography",
         note="models retype “ ” ’ — as ASCII when they copy a line; the changed line is theirs"),
    Case("curly-quotes-for-straight", "matching",
         _edit(H4, ("summary: \u201cHarrison\u2019s fourth marine timekeeper (1759), a large watch "
                    "that passed the Jamaica trial of 1761\u201362.\u201d\n",
                    "summary: \"Harrison's fourth marine timekeeper (1759), a large watch that "
                    "passed the Jamaica trial of 1761-62 and the Barbados trial of 1764.\"\n")),
         REPAIRED, _h4("1761-62.\"\n", "1761-62 and the Barbados trial of 1764.\"\n"),
         repair="typography", note="a model 'smartens' quotes and dashes it copies"),
    Case("hyphen-for-en-dash", "matching",
         _edit(MUDGE, ("He served the Board 1761-62 as an examiner of H4.\n",
                       "He served the Board 1761\u201362 as an examiner of H4 and K1.\n")),
         REPAIRED, _mudge("examiner of H4.", "examiner of H4 and K1."), pages=_PAGES,
         repair="typography"),
    Case("plain-space-for-nbsp-and-dots-for-ellipsis", "matching",
         _edit(MUDGE, ("His own timekeepers cost \u00a3500 each... and took years to make.\n",
                       "His own timekeepers cost \u00a3500 each and took years to make.\n")),
         REPAIRED, _mudge("\u00a3500\u00a0each\u2026 and", "\u00a3500 each and"), pages=_PAGES,
         repair="typography", note="NBSP and … are invisible or look alike in a reply"),
    Case("context-line-keeps-the-page-typography", "matching",
         _edit(MUDGE, (_TYPED + "He served the Board 1761-62 as an examiner of H4.\n",
                       _TYPED + "He served the Board 1761-62 as an examiner of H4.\n"
                       "He later made a chronometer of his own.\n")),
         REPAIRED, _mudge("examiner of H4.\n", "examiner of H4.\nHe later made a chronometer of "
                          "his own.\n"), pages=_PAGES, repair="typography",
         note="the repeated context lines must not lose the page's “ ” — –"),
    Case("typographic-match-in-two-places", "matching",
         _edit(TWICE, ("He said \"yes\".\n", "He said \"no\".\n")), REFUSED,
         {TWICE: _TWICE.replace("He said \u201cyes\u201d.", "He said \"no\".", 1)},
         pages={TWICE: _TWICE}, message=(TWICE, "matches 2 places", "lines 3, 5"),
         retry=_edit(TWICE, ("He said \u201cyes\u201d.\nLater:\n", "He said \"no\".\nLater:\n"))),
    # -- line numbers copied in ------------------------------------------------------------
    Case("line-numbers-pipe", "matching",
         _edit(H4, (_numbered("{n} | ", _TRIALS_AT, ["## Trials\n", "\n", _JAMAICA]),
                    "## Trials\n\n- London, 1761: set going before the voyage.\n" + _JAMAICA)),
         REPAIRED, _h4("## Trials\n\n", "## Trials\n\n- London, 1761: set going before the "
                       "voyage.\n"), repair="line numbers",
         note="models copy the numbered lines of an error message or a file viewer"),
    Case("line-numbers-colon-in-search-and-replace", "matching",
         _edit(H4, (_numbered("{n}: ", _TRIALS_AT, ["## Trials\n"]),
                    _numbered("{n}: ", _TRIALS_AT, ["## Trials at sea\n"]))),
         REPAIRED, _h4("## Trials\n", "## Trials at sea\n"), repair="line numbers"),
    Case("line-numbers-arrow", "matching",
         _edit(H4, (_numbered("    {n}\u2192", _TRIALS_AT + 2, [_JAMAICA]),
                    _JAMAICA.replace("5.1 seconds", "5.1 s"))),
         REPAIRED, _h4("5.1 seconds", "5.1 s"), repair="line numbers",
         note="a coding agent's file view prefixes '  12→'"),
    Case("line-numbers-tab", "matching",
         _edit(H4, (_numbered("{n}\t", _TRIALS_AT + 2, [_JAMAICA]),
                    _JAMAICA.replace("*Deptford*", "*Deptford* (50 guns)"))),
         REPAIRED, _h4("*Deptford*", "*Deptford* (50 guns)"), repair="line numbers",
         note="cat -n output"),
    # -- re-wrapped paragraphs -------------------------------------------------------------
    Case("paragraph-joined-onto-one-line", "matching",
         _edit(H4, (_ONE_LINE, _ONE_LINE.replace("completed in 1759", "finished in 1759"))),
         REPAIRED, {H4: _H4.replace(_WRAPPED, _ONE_LINE.replace("completed in 1759",
                                                                "finished in 1759"))},
         repair="re-wrapped", note="models unwrap hard-wrapped paragraphs they quote"),
    Case("paragraph-wrapped-differently", "matching",
         _edit(H4, ("The fourth and decisive timekeeper of [[John Harrison]],\ncompleted in 1759: "
                    "a watch about thirteen centimetres across\nwith a fast-beating balance, "
                    "unlike the large brass clocks H1-H3.\n",
                    "The fourth timekeeper of [[John Harrison]], completed in 1759.\n")),
         REPAIRED, {H4: _H4.replace(_WRAPPED, "The fourth timekeeper of [[John Harrison]], "
                                    "completed in 1759.\n")}, repair="re-wrapped"),
    # -- still refused ---------------------------------------------------------------------
    Case("typo-in-search-points-at-the-column", "matching",
         _edit(H4, (_JAMAICA.replace("5.1", "5.7"), _JAMAICA.replace("slow", "slow (5.1 s)"))),
         REFUSED, _h4("slow on", "slow (5.1 s) on"),
         message=(H4, "differs at column", "the page has '1', the SEARCH has '7'"),
         retry=_edit(H4, (_JAMAICA, _JAMAICA.replace("slow", "slow (5.1 s)")))),
    Case("first-and-last-line-only", "matching",
         _edit(H4, ("## Trials\n\n- Jamaica, aboard a ship, 1761: slow\n  ([[John Harrison and "
                    "the Sea Clocks]]).\n", "## Trials\n\nGone.\n")),
         REFUSED, _h4("## Trials\n\n" + _JAMAICA + "  ([[John Harrison and the Sea Clocks]]).\n",
                      "## Trials\n\nGone.\n"),
         message=(H4, "was not found"),
         retry=_edit(H4, ("## Trials\n\n" + _JAMAICA + "  ([[John Harrison and the Sea "
                          "Clocks]]).\n", "## Trials\n\nGone.\n")),
         note="an anchor matcher would have replaced the lines between (opencode #2433)"),
    Case("replace-equals-search", "matching",
         _edit(H4, ("## Copies\n", "## Copies\n")), REFUSED, _h4("## Copies\n", "## Copies and "
                                                                  "successors\n"),
         message=(H4, "changes nothing: its REPLACE equals its SEARCH"),
         retry=_edit(H4, ("## Copies\n", "## Copies and successors\n")),
         note="a model 'confirms' a line or forgets to make its change"),
    Case("one-no-op-pair-among-real-ones", "matching",
         _edit(H4, ("## Trials\n", "## Trials at sea\n"), ("## Copies\n", "## Copies\n")),
         REFUSED, _h4("## Trials\n", "## Trials at sea\n"),
         message=(H4, "edit 2 of 2", "changes nothing"),
         retry=_edit(H4, ("## Trials\n", "## Trials at sea\n"))),
]
