"""A WRITE over an existing page that drops most of it, changes its title, or puts another
subject at that path. Shown with a warning in the review; held (not applied by `--yes` alone)
unless the reply marked it `@@@ WRITE path (rewrite)`. An ordinary whole-page update is not."""

from __future__ import annotations

from pathlib import Path

from tests.corpus.case import (APPLIED, H4, REFUSED, REPAIRED, Case)

_VAULT = Path(__file__).resolve().parents[2] / "sample_vault"
_H4 = (_VAULT / H4).read_text(encoding="utf-8")
_FM = _H4.split("---\n# H4\n", 1)[0] + "---\n"
SHORT = _FM + "# H4\n\nHarrison's fourth timekeeper, finished in 1759 ([[John Harrison]]).\n"
ESCAPEMENT = ("---\ntitle: Escapement\ntype: concept\nsummary: The part of a clock that releases "
              "its power in equal steps.\n---\n# Escapement\n\nUsed in [[H4]].\n")
RETITLED = _H4.replace("title: H4", "title: Harrison's H4").replace("# H4\n", "# Harrison's H4\n")


def _write(path: str, text: str, marker: str = "") -> str:
    return f"@@@ WRITE {path}{marker}\n{text}@@@ END\n"


CASES = [
    Case("write-drops-most-of-the-page", "rewrite", _write(H4, SHORT), REFUSED, {H4: SHORT},
         message=(H4, "rewrites the whole page", "% of its lines go", "(rewrite)"),
         retry=_write(H4, SHORT, " (rewrite)"),
         note="a model 'updates' a page from memory and loses most of it"),
    Case("write-marked-as-rewrite", "rewrite", _write(H4, SHORT, " (rewrite)"), APPLIED,
         {H4: SHORT}),
    Case("write-another-subject-over-a-page", "rewrite", _write(H4, ESCAPEMENT), REFUSED,
         {"concepts/Escapement.md": ESCAPEMENT},
         message=(H4, "replaces an unrelated page", "'H4' → 'Escapement'"),
         retry=_write("concepts/Escapement.md", ESCAPEMENT),
         note="a model reuses the path of the page it just read for a new page"),
    Case("write-changes-the-title", "rewrite", _write(H4, RETITLED), REFUSED, {H4: RETITLED},
         message=(H4, "changes the page's title", "'H4' → \"Harrison's H4\""),
         retry=_write(H4, RETITLED, " (rewrite)")),
    Case("write-whole-page-small-update", "rewrite",
         _write(H4, _H4.replace("## Copies\n", "## Copies\n\nK1 followed in 1769.\n")), APPLIED,
         {H4: _H4.replace("## Copies\n", "## Copies\n\nK1 followed in 1769.\n")},
         note="the common, harmless whole-page update: no warning, no hold"),
    Case("write-rewrite-marker-in-other-case", "rewrite", _write(H4, SHORT, " (Rewrite)"),
         APPLIED, {H4: SHORT}),
    Case("write-rewrite-marker-after-a-path-without-md", "rewrite",
         _write("entities/H4", SHORT, " (full rewrite)"), REPAIRED, {H4: SHORT},
         repair="read the path 'entities/H4.md' from 'entities/H4'"),
]
