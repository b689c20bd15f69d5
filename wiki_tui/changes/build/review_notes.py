"""Notes the person must see with a file before accepting it, read from the vault as it is now:
uncommitted hand edits in a file's base (git) or a note git does not track yet, a change of a
note's properties alone (said as such), any edit of the schema (AGENTS.md, also held from
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
from wiki_tui.vault.frontmatter import load_frontmatter, split_frontmatter
from wiki_tui.vault.layout import hand_written_lines

SCHEMA_PATH = "AGENTS.md"
SCHEMA_WARNING = ("this edits AGENTS.md, the vault's schema: the conventions every later prompt "
                  "is built from. Read it closely; a source must not rewrite the model's rules.")
HAND_WARNING = ("{path} has uncommitted edits not written by wiki-tui (it differs from git's "
                "last commit); applying commits them first, on their own, so this change and "
                "its undo leave them as they are")
NEW_NOTE_NOTE = ("{path} is not in git yet (your note, never committed): applying commits it "
                 "first as it is now, on its own, so that undo returns it to your text")
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


def property_change(base: str | None, proposed: str | None) -> str | None:
    """"only its properties change: sources, tags" when the two texts differ in their
    frontmatter alone (an ingest adding `sources:` to a note); else None."""
    if base is None or proposed is None or base == proposed:
        return None
    old, new = split_frontmatter(base), split_frontmatter(proposed)
    if base[old[2]:] != proposed[new[2]:]:
        return None
    before = load_frontmatter(old[0])[0] if old[0] is not None else {}
    after = load_frontmatter(new[0])[0] if new[0] is not None else {}
    keys = [k for k in {**before, **after} if before.get(k) != after.get(k)]
    if not keys:
        return "only its properties change (their layout)"
    shown = ", ".join(f"{k} ({'added' if k not in before else 'removed' if k not in after else 'changed'})"
                      for k in keys[:6])
    return "only its properties change: " + shown + (" …" if len(keys) > 6 else "")


def mark_review_notes(vault: Any, files: list[FileChange]) -> None:
    """Warnings (and holds) the person must see with a file: uncommitted hand edits in its
    base, any edit of the schema, and (on the first file) hand-written text in index.md that
    the apply will replace. Called when a changeset is built or a file re-diffed."""
    root = Path(vault) if isinstance(vault, (str, Path)) else Path(vault.root)
    if files and (hand := hand_written_index_lines(root)):
        shown = "; ".join(f"“{line.strip()[:60]}”" for line in hand[:3])
        files[0].warn(INDEX_WARNING.format(lines=shown + (" …" if len(hand) > 3 else "")))
    for change in files:
        if (what := property_change(change.base_text, change.proposed_text)) is not None:
            change.warn(what)
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
        tracked = repo.index_entries(dirty) if dirty else {}
    except GitError:
        return  # a review note is not worth failing the review for
    finally:
        repo.close()
    for path in dirty:
        if path in sources:
            note = HAND_WARNING if path in tracked else NEW_NOTE_NOTE
            sources[path].warn(note.format(path=path))
