"""Lines of a page, the way the changes layer counts them, and a line diff with bounded cost.

Lines are split at '\\n' only: str.splitlines would also split at form feeds, U+2028 and a lone
CR, which pages may contain as text. Each line keeps its ending, so joining gives the text back.
"""

from __future__ import annotations

import difflib
from bisect import bisect_left


def split_lines(text: str) -> list[str]:
    """Lines with their endings ('\\n' or '\\r\\n'); the last may have none."""
    if not text:
        return []
    lines = text.split("\n")
    last = lines.pop()
    out = [ln + "\n" for ln in lines]
    if last:
        out.append(last)
    return out


def line_body(line: str) -> str:
    """A line without its ending."""
    if line.endswith("\n"):
        line = line[:-1]
        if line.endswith("\r"):
            line = line[:-1]
    return line


def newline_style(text: str) -> str:
    """'\\r\\n' when most line endings are CRLF, else '\\n'."""
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"


# -- diff --------------------------------------------------------------------------------------
# Patience diff: lines unique in both sides of a region anchor it (longest increasing run of
# them), the gaps between anchors are diffed the same way, and a gap with no unique line falls
# back to difflib. difflib alone (autojunk=False) takes tens of seconds on a 100 KB page full of
# repeated lines (tables, lists, blank lines); the fallback is bounded by _EXACT_BUDGET.

_EXACT_BUDGET = 400_000  # gap size product diffed by difflib without junk heuristics
_RARE_MAX = 64  # the most occurrences a line may have to serve as an anchor


def _lis(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Longest run of `pairs` (sorted by first) increasing in second (patience sorting)."""
    tails: list[int] = []  # second value at the end of the best run of each length
    tail_idx: list[int] = []
    back: list[int] = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        pos = bisect_left(tails, j)
        if pos == len(tails):
            tails.append(j)
            tail_idx.append(k)
        else:
            tails[pos] = j
            tail_idx[pos] = k
        back[k] = tail_idx[pos - 1] if pos else -1
    out = []
    k = tail_idx[-1] if tail_idx else -1
    while k >= 0:
        out.append(pairs[k])
        k = back[k]
    out.reverse()
    return out


def _rare_anchors(a: list[int], b: list[int], alo: int, ahi: int, blo: int, bhi: int,
                  count_a: dict[int, int]) -> list[tuple[int, int]]:
    """No line is unique: anchor on the rarest lines that occur equally often on both sides,
    pairing their k-th occurrences (histogram-diff style), then keep an increasing run."""
    count_b: dict[int, int] = {}
    for x in b[blo:bhi]:
        count_b[x] = count_b.get(x, 0) + 1
    k = min((n for x, n in count_b.items() if count_a.get(x) == n), default=0)
    if not k or k > _RARE_MAX:
        return []
    pos_a: dict[int, list[int]] = {}
    for i in range(alo, ahi):
        if count_a[a[i]] == k and count_b.get(a[i]) == k:
            pos_a.setdefault(a[i], []).append(i)
    pos_b: dict[int, list[int]] = {}
    for j in range(blo, bhi):
        if b[j] in pos_a:
            pos_b.setdefault(b[j], []).append(j)
    pairs = sorted(p for x, ia in pos_a.items() for p in zip(ia, pos_b[x]))
    return _lis(pairs)


def _fallback(a: list[int], b: list[int], alo: int, ahi: int, blo: int, bhi: int,
              out: list[tuple[int, int, int]]) -> None:
    if set(a[alo:ahi]).isdisjoint(b[blo:bhi]):
        return  # nothing in common (a rewrite): one replace, found in linear time
    exact = (ahi - alo) * (bhi - blo) <= _EXACT_BUDGET
    sm = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=not exact)
    for i, j, n in sm.get_matching_blocks():
        if n:
            out.append((alo + i, blo + j, n))


def matching_runs(a: list[int], b: list[int]) -> list[tuple[int, int, int]]:
    """(i, j, n) runs where a[i:i+n] == b[j:j+n], increasing in i and j."""
    out: list[tuple[int, int, int]] = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        alo, ahi, blo, bhi = stack.pop()
        start_a, start_b = alo, blo
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            alo += 1
            blo += 1
        if alo > start_a:
            out.append((start_a, start_b, alo - start_a))
        end = 0
        while alo < ahi - end and blo < bhi - end and a[ahi - 1 - end] == b[bhi - 1 - end]:
            end += 1
        if end:
            out.append((ahi - end, bhi - end, end))
            ahi, bhi = ahi - end, bhi - end
        if alo == ahi or blo == bhi:
            continue
        if ahi - alo <= 64 and set(a[alo:ahi]).isdisjoint(b[blo:bhi]):
            continue  # a small region with no line in common: one replace (the common case)
        count_a: dict[int, int] = {}
        for x in a[alo:ahi]:
            count_a[x] = count_a.get(x, 0) + 1
        pos_b: dict[int, int] = {}
        for j in range(blo, bhi):
            x = b[j]
            if count_a.get(x) == 1:
                pos_b[x] = -1 if x in pos_b else j
        pairs = [(i, pos_b[a[i]]) for i in range(alo, ahi)
                 if count_a[a[i]] == 1 and pos_b.get(a[i], -1) >= 0]
        anchors = _lis(pairs) if pairs else _rare_anchors(a, b, alo, ahi, blo, bhi, count_a)
        if not anchors:
            _fallback(a, b, alo, ahi, blo, bhi, out)
            continue
        pa, pb = alo, blo
        for i, j in anchors:
            stack.append((pa, i, pb, j))
            out.append((i, j, 1))
            pa, pb = i + 1, j + 1
        stack.append((pa, ahi, pb, bhi))
    out.sort()
    return out


def diff_opcodes(a_lines: list[str], b_lines: list[str]) -> list[tuple[str, int, int, int, int]]:
    """difflib-style opcodes (tag, i1, i2, j1, j2) for two lists of lines, non-equal only."""
    if not a_lines or not b_lines:  # a new page or an emptied one: one block, nothing to match
        if not a_lines and not b_lines:
            return []
        return [("insert" if b_lines else "delete", 0, len(a_lines), 0, len(b_lines))]
    ids: dict[str, int] = {}
    a = [ids.setdefault(x, len(ids)) for x in a_lines]
    b = [ids.setdefault(x, len(ids)) for x in b_lines]
    ops = []
    i = j = 0
    for mi, mj, n in [*matching_runs(a, b), (len(a), len(b), 0)]:
        if mi > i or mj > j:
            tag = "replace" if mi > i and mj > j else ("delete" if mi > i else "insert")
            ops.append((tag, i, mi, j, mj))
        i, j = mi + n, mj + n
    return ops
