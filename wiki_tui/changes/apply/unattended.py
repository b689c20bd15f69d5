"""Applying a changeset without a person: what `--yes` does, shared by the CLI and `eval`.

`--yes` applies an operation whole or not at all: a changeset with edits left out (refused or
cut off after the last retry round) is refused as partial, and a file that needs a person's
review (`FileChange.hold`: a rewrite, the schema; or a breach of an invariant on the knowledge
diff the reply did not declare, see build/knowledge/invariants.py) is refused as held. Otherwise every file is
accepted and applied with `apply_changeset`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wiki_tui.changes.build.guards import held, held_message
from wiki_tui.changes.model import Changeset

PARTIAL, HELD = "partial", "held"


@dataclass(frozen=True)
class Refusal:
    kind: str  # PARTIAL | HELD
    files: list = field(default_factory=list)  # the held FileChanges (HELD)
    left_out: list[str] = field(default_factory=list)  # pages left out (PARTIAL)
    refused: int = 0  # edits that could not be used (PARTIAL)
    allow: frozenset = frozenset()  # the --allow codes (HELD)

    @property
    def message(self) -> str:
        if self.kind == HELD:
            return held_message(self.files, self.allow)
        pages = ", ".join(self.left_out) or "see the errors"
        return (f"not applied: {self.refused} edit(s) of the reply could not be used after the "
                f"last retry round (left out: {pages}); applying the rest would apply the "
                "operation only in part, so nothing was written. Run it again, or without "
                "--yes on a terminal to review and apply the rest.")


def refusal(changeset: Changeset, *, allow_schema: bool = False,
            allow: frozenset[str] = frozenset()) -> Refusal | None:
    """Why `--yes` must not apply `changeset` (None: it may). `allow`: the invariant codes the
    person released with `--allow` (build/knowledge/invariants.py)."""
    if changeset.errors:
        return Refusal(PARTIAL, left_out=list(changeset.left_out),
                       refused=len(changeset.errors))
    if waiting := held(changeset, allow_schema=allow_schema, allow=allow):
        return Refusal(HELD, files=waiting, allow=allow)
    return None


def apply_unattended(vault: Any, changeset: Changeset, *, allow_schema: bool = False) -> Any:
    """Accept every file and apply, as `--yes` does after `refusal()` said it may (an
    ApplyResult; raises journal.ApplyError when nothing could be written)."""
    from wiki_tui.changes.apply.journal import apply_changeset

    changeset.accept_all()
    return apply_changeset(vault, changeset)
