"""Full-text search on a vault: the app's search with snippets beside raw FTS5 bm25, and the
top-10 overlap of the app's ranking with full bm25; prints JSON (CPU milliseconds).

    uv run python benchmarks/bench_fulltext.py --dir VAULT [--runs 10]

Opens the vault (building its search database if missing, timed), runs bench_vault's SEARCHES
once (first use: the impact lists of their common words are built, unless an earlier run left
them in the database), then `--runs` times. Figures are process CPU time, which stays meaningful
on a shared machine. Also measured: the first search of a common word after a page changed (the
app keeps its candidate lists in step on writes), and one outside edit synced.

Overlap: the share of full bm25's top 10 (the parsed query, `ORDER BY bm25(docs, 10, 1)`) that
the app's top 10 holds, pages tied in score with the 10th counting as held (which of equal scores
comes first is arbitrary). The app leaves words found in over half the pages out of an AND query's
scoring, so queries like "of policy" differ from raw bm25 by design.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_vault import SEARCHES  # noqa: E402

TOP = 10


def cpu_ms(fn, *args) -> float:
    start = time.process_time()
    fn(*args)
    return (time.process_time() - start) * 1000


def summary(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {"p50": round(statistics.median(ordered), 3),
            "p95": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3),
            "max": round(ordered[-1], 3)}


def raw_rows(index, fts: str, limit: int) -> list[tuple[int, float]]:
    with index._lock:
        return index._conn.execute(
            "SELECT rowid, bm25(docs, 10.0, 1.0) AS r FROM docs WHERE docs MATCH ? ORDER BY r LIMIT ?",
            (fts, limit)).fetchall()


def overlap(index, parsed, got: list[int]) -> float | None:
    ref = raw_rows(index, parsed.fts, TOP)
    if not ref:
        return None
    cut = ref[-1][1]
    marks = ",".join("?" * len(got[:TOP])) or "NULL"
    with index._lock:
        scores = dict(index._conn.execute(
            f"SELECT rowid, bm25(docs, 10.0, 1.0) FROM docs WHERE docs MATCH ? AND rowid IN ({marks})",
            (parsed.fts, *got[:TOP])))
    return min(1.0, sum(1 for s in scores.values() if s <= cut + 1e-9) / len(ref))


def main() -> int:
    from wiki_tui.vault import Vault
    from wiki_tui.vault.find.search import parse_query

    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()

    vault = Vault.open(args.dir)
    build = cpu_ms(vault.search, "warm up")
    index = vault._search_index()
    first = [cpu_ms(vault.search, q) for q in SEARCHES]  # builds the lists of their common words
    app = [cpu_ms(vault.search, q) for _ in range(args.runs) for q in SEARCHES]
    per_query = {q: round(statistics.median(cpu_ms(vault.search, q) for _ in range(3)), 3) for q in SEARCHES}
    raw = []
    for _ in range(args.runs):
        for q in SEARCHES:
            parsed = parse_query(q)
            if parsed is not None:
                raw.append(cpu_ms(raw_rows, index, parsed.fts, 20))
    shares = {}
    for q in SEARCHES:
        parsed = parse_query(q)
        if parsed is None:
            continue
        with index._lock:
            got = [r[0] for r in index._ranked_rows(parsed, TOP)]
        share = overlap(index, parsed, got)
        if share is not None:
            shares[q] = round(share, 3)

    # A page changes (as an outside edit would), then the next searches.
    page = sorted(p for p in vault.pages if "/" in p)[len(vault.pages) // 2]
    path = args.dir / page
    text = path.read_text(encoding="utf-8")
    try:
        path.write_text(text + "\nA review of the budget.\n", encoding="utf-8")
        edit = cpu_ms(vault.refresh_file, page)
        after_edit = cpu_ms(vault.search, "review")
        again = cpu_ms(vault.search, "budget")
    finally:
        path.write_text(text, encoding="utf-8")
        vault.refresh_file(page)
    vault.close()
    report = {
        "load_average_1min": round(os.getloadavg()[0], 2),
        "pages": len(vault.pages),
        "runs": args.runs,
        "search_db_first_use_cpu_ms": round(build, 1),
        "fulltext_cpu_ms": {**summary(app), "first_use": summary(first), "target_p95": 10},
        "raw_fts5_bm25_cpu_ms": summary(raw),
        "per_query_cpu_ms": per_query,
        "top10_overlap": {"mean": round(statistics.mean(shares.values()), 3),
                          "worst": min(shares.values()),
                          "differing": {q: s for q, s in shares.items() if s < 1}},
        "after_one_edit_cpu_ms": {"refresh_file": round(edit, 3), "search_review": round(after_edit, 3),
                                  "search_budget": round(again, 3)},
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
