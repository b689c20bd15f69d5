"""Paths that name no page, written the way models name pages: by file name alone, in another
letter case, by an alias, with the vault's folder name in front, in the wrong folder. The page
meant is found through the vault (shown as a repair), or the block is refused naming the
candidates; nothing ever creates a twin of an existing page at the vault root."""

from __future__ import annotations

from pathlib import Path

from tests.corpus.case import (APPLIED, H4, REFUSED, REPAIRED, Case)

_VAULT = Path(__file__).resolve().parents[2] / "sample_vault"
_H4 = (_VAULT / H4).read_text(encoding="utf-8")
KENDALL = "entities/Larcum Kendall.md"
BOARD_SOURCE = "sources/Board of Longitude.md"
BOARD = "entities/Board of Longitude.md"
_BOARD = (_VAULT / BOARD).read_text(encoding="utf-8")
_PAIR = "@@@ SEARCH\n## Copies\n@@@ REPLACE\n## Copies and successors\n@@@ END\n"
_EDITED = _H4.replace("## Copies\n", "## Copies and successors\n", 1)
ESCAPEMENT = ("---\ntitle: Escapement\ntype: concept\nsummary: The part of a clock that releases "
              "its power in equal steps.\n---\n# Escapement\n\nUsed in [[H4]].\n")
_UPDATED = _H4 + "\nK1 followed in 1769.\n"
_BOARD_LINE = next(x for x in _BOARD.splitlines() if x.startswith("# "))


def _edit(path: str) -> str:
    return f"@@@ EDIT {path}\n{_PAIR}"


def _repaired(name: str, path: str, repair: str, note: str = "") -> Case:
    return Case(name, "paths", _edit(path), REPAIRED, {H4: _EDITED}, repair=repair, note=note)


CASES = [
    _repaired("edit-bare-file-name", "H4.md", H4, "models name pages as links do: [[H4]]"),
    _repaired("edit-wikilink-as-path", "[[H4]]", H4),
    _repaired("edit-other-letter-case", "Entities/h4.md", "letter case"),
    _repaired("edit-by-alias", "Sea Watch.md", "alias", "the alias is 'the Sea Watch'"),
    _repaired("edit-by-title-alias", "Harrison's H4.md", "alias"),
    _repaired("edit-vault-name-in-front", "vault/entities/H4.md", "vault's own folder name",
              "the model sees the vault as a folder called 'vault' (or 'wiki')"),
    Case("edit-wrong-folder", "paths", _edit("concepts/H4.md"), REFUSED, {H4: _EDITED},
         message=("concepts/H4.md", H4), retry=_edit(H4),
         note="a guess across folders is the model's to confirm"),
    Case("edit-name-two-pages-share", "paths",
         f"@@@ EDIT Board of Longitude.md\n@@@ SEARCH\n{_BOARD_LINE}\n@@@ REPLACE\n"
         f"{_BOARD_LINE} (1714-1828)\n@@@ END\n", REFUSED,
         {BOARD: _BOARD.replace(_BOARD_LINE + "\n", _BOARD_LINE + " (1714-1828)\n", 1)},
         message=("Board of Longitude.md", BOARD, BOARD_SOURCE),
         retry=f"@@@ EDIT {BOARD}\n@@@ SEARCH\n{_BOARD_LINE}\n@@@ REPLACE\n"
               f"{_BOARD_LINE} (1714-1828)\n@@@ END\n"),
    Case("delete-name-two-pages-share", "paths", "@@@ DELETE Board of Longitude.md\n", REFUSED,
         {BOARD_SOURCE: None}, message=("Board of Longitude.md", BOARD, BOARD_SOURCE),
         retry=f"@@@ DELETE {BOARD_SOURCE}\n"),
    Case("delete-by-alias-is-not-guessed", "paths", "@@@ DELETE Kendall.md\n", REFUSED,
         {KENDALL: None}, message=("Kendall.md", KENDALL), retry=f"@@@ DELETE {KENDALL}\n",
         note="a deletion is not worth a guess"),
    Case("delete-bare-file-name", "paths", "@@@ DELETE Larcum Kendall.md\n", REPAIRED,
         {KENDALL: None}, repair=KENDALL),
    Case("edit-missing-page-in-a-folder", "paths", _edit("concepts/Escapement.md"), REFUSED,
         {"concepts/Escapement.md": ESCAPEMENT},
         message=("concepts/Escapement.md", "does not exist",
                  "'@@@ WRITE concepts/Escapement.md'"),
         retry=f"@@@ WRITE concepts/Escapement.md\n{ESCAPEMENT}@@@ END\n"),
    Case("edit-missing-page-at-the-root", "paths", _edit("Escapement.md"), REFUSED,
         {"concepts/Escapement.md": ESCAPEMENT},
         message=("Escapement.md", "does not exist", "in the folder its type uses"),
         retry=f"@@@ WRITE concepts/Escapement.md\n{ESCAPEMENT}@@@ END\n",
         note="the old message told the model to WRITE a root page"),
    Case("write-bare-name-of-an-existing-page", "paths", f"@@@ WRITE H4.md\n{_UPDATED}@@@ END\n",
         REPAIRED, {H4: _UPDATED}, repair="instead of creating a twin"),
    Case("write-other-letter-case", "paths", f"@@@ WRITE entities/h4.md\n{_UPDATED}@@@ END\n",
         REPAIRED, {H4: _UPDATED}, repair="letter case",
         note="a twin that differs in case is the same file on macOS and Windows: the WRITE "
              "goes to the existing page"),
    Case("write-named-after-an-alias", "paths", f"@@@ WRITE Sea Watch.md\n{_UPDATED}@@@ END\n",
         REFUSED, {H4: _UPDATED}, message=("Sea Watch.md", H4, "near-twin"),
         retry=f"@@@ WRITE {H4}\n{_UPDATED}@@@ END\n"),
    Case("write-new-page-vault-name-in-front", "paths",
         f"@@@ WRITE vault/concepts/Escapement.md\n{ESCAPEMENT}@@@ END\n", REPAIRED,
         {"concepts/Escapement.md": ESCAPEMENT}, repair="vault's own folder name"),
    Case("rename-from-bare-name", "paths", "@@@ RENAME H4.md -> entities/H4 watch.md\n",
         REPAIRED, {H4: None, "entities/H4 watch.md": _H4}, repair=H4),
    Case("write-then-edit-a-new-page", "paths",
         f"@@@ WRITE concepts/Escapement.md\n{ESCAPEMENT}@@@ END\n@@@ EDIT concepts/Escapement.md"
         "\n@@@ SEARCH\nUsed in [[H4]].\n@@@ REPLACE\nUsed in [[H4]] and [[Larcum Kendall|K1]].\n"
         "@@@ END\n", APPLIED,
         {"concepts/Escapement.md": ESCAPEMENT.replace("[[H4]].", "[[H4]] and [[Larcum Kendall|"
                                                       "K1]].")}),
]
