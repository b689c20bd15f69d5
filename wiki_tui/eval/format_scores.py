"""Format scores of one editing step: how well the replies kept to the edit protocol, and
whether anything landed on disk other than what the reply meant (silently wrong).

Every count is computed from the recorded replies with the project's own parser and from the
changeset and disk after the apply; docs/eval.md defines each.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wiki_tui.eval.record import StepRecord

BOOKKEEPING = ("index.md", "log.md")  # written by the program, not by the reply


def format_scores(rec: StepRecord, root: Path, applied: bool) -> dict[str, Any]:
    from wiki_tui.changes.reply.stream import parse_reply

    parsed = [parse_reply(text) for text in rec.rounds]
    clean = sum(1 for p in parsed if not p.errors and not p.incomplete)
    first = parsed[0]
    proposed = len(first.blocks) + len(first.errors) + len(first.incomplete)
    leftover = _left_over(rec, parsed[-1])
    refused_first = rec.refused_per_round[0] if rec.refused_per_round else leftover
    changeset = rec.changeset
    repairs = 0
    if changeset is not None:
        repairs = len(changeset.repairs) + sum(len(f.repairs) for f in changeset.files)
    return {
        "replies": len(parsed),
        "replies_parsed": clean,
        "edits_proposed_first": proposed,
        "edits_first_try": max(0, proposed - refused_first),
        "retry_rounds": len(rec.refused_per_round),
        "repairs": repairs,
        "refusals": sum(rec.refused_per_round) + leftover,
        "silently_wrong": silently_wrong(rec, parsed, root) if applied else 0,
    }


def _left_over(rec: StepRecord, last: Any) -> int:
    """Edits still refused after the last round: the changeset's errors, or every edit of the
    last reply when none could be used."""
    if rec.changeset is not None:
        return len(rec.changeset.errors)
    if rec.failed is not None and rec.failed.kind == "unusable":
        return max(1, len(last.blocks) + len(last.errors) + len(last.incomplete))
    return 0


def silently_wrong(rec: StepRecord, parsed: list, root: Path) -> int:
    """Applied files whose text on disk is not what the reply meant, with no repair saying why:
    (a) disk differs from the reviewed result (the apply wrote something else), or (b) the
    reviewed result differs from the reply's own block for that file (a WRITE's page, an
    EDIT's REPLACE text) and the file carries no repair note."""
    from wiki_tui.changes.build.changeset import conform_newlines, read_base_text
    from wiki_tui.changes.model import ACCEPTED, RENAME
    from wiki_tui.changes.reply.blocks import EDIT, WRITE

    latest = _latest_blocks(parsed)
    wrong = 0
    for fc in rec.changeset.files:
        if fc.status != ACCEPTED or fc.path in BOOKKEEPING:
            continue
        on_disk = read_base_text(root, fc.path)
        gone = fc.kind == RENAME and fc.old_path and (root / fc.old_path).exists()
        if on_disk != fc.result_text() or gone:
            wrong += 1
            continue
        if fc.repairs:
            continue  # read as meant, and said so in the review
        meant = latest.get(fc.path, [])
        proposed = fc.proposed_text or ""
        writes = [b for b in meant if b.kind == WRITE]
        if writes and meant[-1].kind == WRITE and \
                conform_newlines(writes[-1].content or "", fc.base_text) != proposed:
            wrong += 1
        elif any(replace.strip() and replace.strip() not in proposed
                 for b in meant if b.kind == EDIT for _search, replace in b.edits):
            wrong += 1
    return wrong


def _latest_blocks(parsed: list) -> dict[str, list]:
    """Per page, the blocks of the latest reply that wrote to it (a retry resends the blocks
    of refused pages only; earlier good blocks were kept)."""
    out: dict[str, list] = {}
    for reply in parsed:
        this_round: dict[str, list] = {}
        for block in reply.blocks:
            this_round.setdefault(block.new_path or block.path, []).append(block)
        out.update(this_round)
    return out
