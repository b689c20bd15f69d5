"""Line-based three-way merge (diff3 style) for re-basing a proposal on a file changed on disk.

`base` is what the model saw, `theirs` what is on disk now, `mine` what the model proposed.
Regions changed on one side only are taken from that side; regions both changed the same way
are taken once; regions both changed differently are conflicts, written with markers so the
person sees both versions and resolves them by hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from wiki_tui.changes.lines import matching_runs, split_lines

MARK_THEIRS = "<<<<<<< on disk"
MARK_SEP = "======="
MARK_MINE = ">>>>>>> proposed"


@dataclass
class MergeResult:
    text: str
    conflicts: int  # number of regions marked with conflict markers

    @property
    def clean(self) -> bool:
        return self.conflicts == 0


def _matches(a: list[str], b: list[str]) -> list[tuple[int, int, int]]:
    """Runs of equal lines (i, j, n), in order, ending with a (len(a), len(b), 0) sentinel.

    The same patience diff the review uses, so merged hunks line up with displayed ones.
    """
    ids: dict[str, int] = {}
    a_ids = [ids.setdefault(x, len(ids)) for x in a]
    b_ids = [ids.setdefault(x, len(ids)) for x in b]
    return [*matching_runs(a_ids, b_ids), (len(a), len(b), 0)]


def _sync_regions(base: list[str], theirs: list[str], mine: list[str]):
    """Regions (base, theirs, mine start/end) unchanged on both sides, ending with a sentinel."""
    regions = []
    t_blocks = _matches(base, theirs)
    m_blocks = _matches(base, mine)
    ti = mi = 0
    while ti < len(t_blocks) and mi < len(m_blocks):
        tb, tt, tn = t_blocks[ti]
        mb, mm, mn = m_blocks[mi]
        lo = max(tb, mb)
        hi = min(tb + tn, mb + mn)
        if lo < hi:
            regions.append((lo, hi, tt + lo - tb, tt + hi - tb, mm + lo - mb, mm + hi - mb))
        if tb + tn < mb + mn:
            ti += 1
        else:
            mi += 1
    regions.append((len(base), len(base), len(theirs), len(theirs), len(mine), len(mine)))
    return regions


def _ensure_newline(lines: list[str]) -> list[str]:
    if lines and not lines[-1].endswith("\n"):
        return [*lines[:-1], lines[-1] + "\n"]
    return lines


def merge3(base: str, theirs: str, mine: str) -> MergeResult:
    """Merge `mine` (the proposal) onto `theirs` (the disk), both derived from `base`."""
    if theirs == base or theirs == mine:
        return MergeResult(mine, 0)
    if mine == base:
        return MergeResult(theirs, 0)
    b, t, m = split_lines(base), split_lines(theirs), split_lines(mine)
    out: list[str] = []
    conflicts = 0
    bi = ti = mi = 0
    for b1, b2, t1, t2, m1, m2 in _sync_regions(b, t, m):
        old, th, mn = b[bi:b1], t[ti:t1], m[mi:m1]
        if th == old:
            out.extend(mn)
        elif mn == old or th == mn:
            out.extend(th)
        else:
            conflicts += 1
            out.append(MARK_THEIRS + "\n")
            out.extend(_ensure_newline(th))
            out.append(MARK_SEP + "\n")
            out.extend(_ensure_newline(mn))
            out.append(MARK_MINE + "\n")
        out.extend(b[b1:b2])
        bi, ti, mi = b2, t2, m2
    return MergeResult("".join(out), conflicts)
