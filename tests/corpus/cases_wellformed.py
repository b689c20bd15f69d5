"""Replies written exactly to the protocol: the baseline every other family is measured against."""

from __future__ import annotations

from pathlib import Path

from tests.corpus.case import APPLIED, Case

_VAULT = Path(__file__).resolve().parents[2] / "sample_vault"
_H4 = (_VAULT / "entities/H4.md").read_text(encoding="utf-8")

NEW_PAGE = """---
title: Escapement
type: concept
summary: The part of a clock that releases its power in equal steps.
---
# Escapement

Used in [[H4]].
"""

CASES = [
    Case("write-new-page", "well-formed", f"@@@ WRITE concepts/Escapement.md\n{NEW_PAGE}@@@ END\n",
         APPLIED, {"concepts/Escapement.md": NEW_PAGE}, well_formed=True),
    Case("edit-one-line", "well-formed",
         "@@@ EDIT entities/H4.md\n@@@ SEARCH\n# H4\n@@@ REPLACE\n# H4 (the Sea Watch)\n@@@ END\n",
         APPLIED, {"entities/H4.md": _H4.replace("# H4\n", "# H4 (the Sea Watch)\n", 1)},
         well_formed=True),
    Case("delete-page", "well-formed", "@@@ DELETE syntheses/Clock versus Moon.md\n", APPLIED,
         {"syntheses/Clock versus Moon.md": None}, well_formed=True),
]
