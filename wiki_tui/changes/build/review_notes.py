"""Notes the person must see with a file before accepting it, read from the vault as it is now:
uncommitted hand edits in a file's base (git), any edit of the schema (AGENTS.md, also held from
`--yes`), and hand-written text in index.md that the apply will replace.

Called when a changeset is built (changeset.py) and when a conflicting file is re-diffed
against the disk (apply/journal.py). Reads only; a failing git read costs the note, never the
review.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wiki_tui.changes.build.guards import SCHEMA_HOLD
from wiki_tui.changes.gitops import GitError, GitRepo
from wiki_tui.changes.model import FileChange
from wiki_tui.vault.layout import hand_written_lines

SCHEMA_PATH = "AGENTS.md"
SCHEMA_WARNING = ("this edits AGENTS.md, the vault's schema: the conventions every later prompt "
                  "is built from. Read it closely; a source must not rewrite the model's rules.")
HAND_WARNING = ("{path} has uncommitted edits not written by wiki-tui (it differs from git's "
                "last commit); applying commits them first, on their own, so this change and "
                "its undo leave them as they are")
INDEX_WARNING = ("index.md holds text wiki-tui does not generate (written by hand?); applying "
                 "regenerates index.md from the pages and replaces it: {lines}. Keep notes in "
                 "a page of their own (the edit stays in git's history)")
_INDEX_FILE = "index.md"  # apply/index_md.py generates it


def hand_written_index_lines(root: Path) -> list[str]:
    """Lines of index.md that its generator never writes: text a person added, which the next
    regeneration replaces."""
    try:
        data = (root / _INDEX_FILE).read_bytes()
    except FileNotFoundError:
        return []
    return hand_written_lines(data.decode("utf-8", "surrogateescape"))


def mark_review_notes(vault: Any, files: list[FileChange]) -> None:
    """Warnings (and holds) the person must see with a file: uncommitted hand edits in its
    base, any edit of the schema, and (on the first file) hand-written text in index.md that
    the apply will replace. Called when a changeset is built or a file re-diffed."""
    root = Path(vault) if isinstance(vault, (str, Path)) else Path(vault.root)
    if files and (hand := hand_written_index_lines(root)):
        shown = "; ".join(f"“{line.strip()[:60]}”" for line in hand[:3])
        files[0].warn(INDEX_WARNING.format(lines=shown + (" …" if len(hand) > 3 else "")))
    for change in files:
        if SCHEMA_PATH in (change.path, change.old_path):
            change.warn(SCHEMA_WARNING)
            change.hold = change.hold or SCHEMA_HOLD
    sources = {c.source: c for c in files if c.base_text is not None}
    if not sources:
        return
    repo = GitRepo.open(root)
    if repo is None:
        return
    try:
        if repo.head() is None:
            return
        dirty = repo.dirty(sorted(sources))
    except GitError:
        return  # a review note is not worth failing the review for
    finally:
        repo.close()
    for path in dirty:
        if path in sources:
            sources[path].warn(HAND_WARNING.format(path=path))
