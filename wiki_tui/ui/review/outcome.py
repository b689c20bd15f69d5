"""What a changeset does to the wiki, as the review shows it: its knowledge diff and breaches.

The title bar says how many files an invariant holds from `--yes` (`⚑ 2 held`); the notes
column opens with the whole changeset's outcome in one line, then the focused file's breaches
(held, or declared by the reply with its reason) and what else its change does (links added,
fields changed...). Data from build/outcome.py; nothing is computed here.
"""

from __future__ import annotations

from rich.text import Text

from wiki_tui.changes.model import Changeset, FileChange


def held_count(changeset: Changeset) -> int:
    """Files an undeclared breach holds (what `--yes` alone would refuse)."""
    return sum(1 for fc in changeset.files if any(b.holds for b in fc.breaches))


def title_mark(changeset: Changeset) -> str:
    n = held_count(changeset)
    return f"  ⚑ {n} held" if n else ""


def outcome_text(changeset: Changeset, change: FileChange | None) -> Text:
    """The outcome block of the notes column (empty when the changeset was not judged)."""
    text = Text()
    diff = changeset.knowledge
    if diff is None:
        return text
    text.append("What it does: ", "bold")  # one line: at 80x24 the notes have three or four
    text.append(f"{diff.summary()}\n")
    for label, pages in diff.spread.items():
        text.append(f"⚑ {label} on {len(pages)} pages\n", "bold")
    if change is None:
        return text
    page = diff.page(change.path)
    if change.breaches:
        text.append(f"{change.path}\n", "bold")
    for breach in change.breaches:
        if breach.holds:
            text.append(f"⚑ {breach.code}: {breach.message}\n", "bold")
        else:
            text.append(f"✓ {breach.code} (declared: {breach.declared}): {breach.message}\n")
    said = {b.code for b in change.breaches}
    for note in (page.notes() if page is not None else []):
        if not said or not any(word in note for word in ("removed", "broken", "changed inside",
                                                          "invisible", "rewritten", "twins")):
            text.append(f"· {note}\n", "dim")
    return text
