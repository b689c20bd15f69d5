"""FTS5 table and query options for full-text search, each against today's ranking; prints JSON.

    uv run python benchmarks/bench_fts_options.py --dir VAULT [--runs 5] [--seed 7] [--scratch DIR]

Reads the pages from the vault's own search database (`.wiki-tui/search.sqlite`, built by opening
the vault and searching once if missing), copies them into option tables in a scratch folder
(deleted at the end) and runs one query set against each:

- base: today's table (`unicode61 remove_diacritics 2`, `prefix='3'`), `ORDER BY bm25(docs, 10, 1)`
  — the reference ranking (what `bench_vault` calls raw bm25).
- rank: the same table with its `rank` set to `bm25(10.0, 1.0)` and `ORDER BY rank`.
- no_prefix / detail_column / detail_none / contentless: the table built with that option
  (detail=column and detail=none cannot run phrase queries; a contentless table keeps no text,
  so snippets would have to read the page files).
- candidates_K: the base table; the pages holding a term in their title are ranked in full, the
  rest of the ranking looks only at the first K matches (by rowid) before bm25.
- app: `SearchIndex._ranked_rows` as the app runs it today (terms in over half the pages are
  left out of an AND query's scoring; common words ranked from impact lists, built on the first
  run of each query, which is not timed, as for every option).

For each: build CPU seconds, file size, query CPU p50/p95 (ms, every query `--runs` times), and
the top-10 overlap with base (mean, worst, how many queries differ). CPU time, not wall: the
machines these run on are shared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_vault import SEARCHES  # noqa: E402

TOKENIZE = "tokenize = 'unicode61 remove_diacritics 2'"
TABLES = {
    "base": f"{TOKENIZE}, prefix = '3'",
    "no_prefix": TOKENIZE,
    "detail_column": f"{TOKENIZE}, prefix = '3', detail = column",
    "detail_none": f"{TOKENIZE}, prefix = '3', detail = none",
    "contentless": f"{TOKENIZE}, prefix = '3', content = ''",
}
CANDIDATES = (500, 2000)
TOP = 10
LIMIT = 20


def search_db(vault: Path) -> Path:
    db = vault / ".wiki-tui" / "search.sqlite"
    if not db.exists():
        from wiki_tui.vault import Vault

        Vault.open(vault).search("review")
    return db


def query_set(conn: sqlite3.Connection, seed: int) -> list[str]:
    """bench_vault's searches, words drawn from every band of how common they are, pairs of them
    and three-letter prefixes (typing in progress)."""
    conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, 'docs', 'row')")
    words = [w for w, _ in conn.execute("SELECT term, doc FROM v WHERE length(term) > 3 ORDER BY doc DESC")
             if w.isalpha()]
    rng = random.Random(seed)
    bands = [words[: len(words) // 100 or 1], words[len(words) // 100: len(words) // 10],
             words[len(words) // 10:]]
    picked = [rng.choice(band) for band in bands for _ in range(8)]
    pairs = [f"{rng.choice(bands[0] + bands[1])} {rng.choice(bands[1] + bands[2])}" for _ in range(8)]
    prefixes = [rng.choice(bands[0] + bands[1])[:3] for _ in range(6)]
    return list(dict.fromkeys(SEARCHES + picked + pairs + prefixes))


def build(scratch: Path, name: str, options: str, rows: list[tuple]) -> tuple[sqlite3.Connection, dict]:
    path = scratch / f"{name}.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA cache_size=-16384")
    conn.execute(f"CREATE VIRTUAL TABLE docs USING fts5(title, body, {options})")
    cpu = time.process_time()
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO docs(rowid, title, body) VALUES(?,?,?)", rows)
    conn.execute("COMMIT")
    conn.execute("INSERT INTO docs(docs) VALUES('optimize')")  # one segment, as after a settled sync
    built = time.process_time() - cpu
    if name == "base":
        conn.execute("INSERT INTO docs(docs, rank) VALUES('rank', 'bm25(10.0, 1.0)')")
    return conn, {"build_cpu_s": round(built, 2), "file_mb": round(path.stat().st_size / 2**20, 1)}


def ranked(conn: sqlite3.Connection, expr: str, order: str = "bm25(docs, 10.0, 1.0)") -> list[int]:
    return [r[0] for r in conn.execute(
        f"SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY {order} LIMIT {LIMIT}", (expr,))]


def candidates(conn: sqlite3.Connection, expr: str, k: int) -> list[int]:
    titled = [r[0] for r in conn.execute(  # (scored on the title alone: a column filter's bm25)
        f"SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 10.0, 1.0) LIMIT {LIMIT}",
        (f"title : ({expr})",))]
    first = conn.execute(
        f"SELECT rowid, r FROM (SELECT rowid, bm25(docs, 10.0, 1.0) AS r FROM docs WHERE docs MATCH ? "
        f"LIMIT {k}) ORDER BY r LIMIT {LIMIT}", (expr,)).fetchall()
    best = dict(first)
    if titled:
        best.update(_scores(conn, expr, titled))
    return sorted(best, key=best.__getitem__)[:LIMIT]


def measure(run, queries: list[str], runs: int) -> tuple[dict, dict[str, list[int] | None]]:
    samples, results = [], {}
    for query in queries:
        try:
            results[query] = run(query)
        except sqlite3.OperationalError:  # e.g. a phrase on a detail=column table
            results[query] = None
            continue
        for _ in range(runs):
            cpu = time.process_time()
            run(query)
            samples.append(time.process_time() - cpu)
    ordered = sorted(samples) or [0.0]
    timing = {"cpu_p50_ms": round(statistics.median(ordered) * 1000, 3),
              "cpu_p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 3),
              "cpu_max_ms": round(ordered[-1] * 1000, 3)}
    return timing, results


def overlap(base: sqlite3.Connection, exprs: dict[str, str], reference: dict, results: dict) -> dict:
    """Share of base's top 10 that the option's top 10 holds. Pages tied in score with base's
    10th count as held: bm25 gives many pages the same score (a word in every page has idf ~0),
    and which of those come first is arbitrary."""
    shares, differ, unsupported = [], [], 0
    for query, ref in reference.items():
        if not ref:
            continue
        got = results.get(query)
        if got is None:
            unsupported += 1
            continue
        wanted = min(TOP, len(ref))
        cut = _scores(base, exprs[query], ref[:wanted])[ref[wanted - 1]]
        scores = _scores(base, exprs[query], got[:TOP])
        share = min(1.0, sum(1 for s in scores.values() if s <= cut + 1e-9) / wanted)
        shares.append(share)
        if share < 1:
            differ.append(query)
    return {"top10_overlap_mean": round(statistics.mean(shares), 3) if shares else None,
            "top10_overlap_worst": round(min(shares), 3) if shares else None,
            "queries_differing": len(differ), "differing": differ[:8], "unsupported_queries": unsupported}


def _scores(base: sqlite3.Connection, expr: str, rowids: list[int]) -> dict[int, float]:
    marks = ",".join("?" * len(rowids))
    return dict(base.execute(f"SELECT rowid, bm25(docs, 10.0, 1.0) FROM docs WHERE docs MATCH ? "
                             f"AND rowid IN ({marks})", (expr, *rowids)))


def main() -> None:
    from wiki_tui.vault.find.impact import SCHEMA as IMPACT_SCHEMA
    from wiki_tui.vault.find.impact import Impacts
    from wiki_tui.vault.find.search import SearchIndex, parse_query

    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--scratch", type=Path, default=None, help="where the option tables go")
    args = parser.parse_args()

    source = search_db(args.dir)
    scratch = Path(tempfile.mkdtemp(prefix="bench-fts-", dir=args.scratch))
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        rows = src.execute("SELECT rowid, title, body FROM docs").fetchall()
        queries = query_set(src, args.seed)
        src.close()
        parsed = {q: parse_query(q) for q in queries}
        queries = [q for q in queries if parsed[q] is not None]
        report: dict = {"pages": len(rows), "queries": len(queries), "runs": args.runs,
                        "load_average_1min": round(os.getloadavg()[0], 2), "options": {}}
        conns = {}
        for name, options in TABLES.items():
            conns[name], report["options"][name] = build(scratch, name, options, rows)
        del rows

        def expr(q: str) -> str:
            return parsed[q].fts  # type: ignore[union-attr]

        base = conns["base"]
        timing, reference = measure(lambda q: ranked(base, expr(q)), queries, args.runs)
        report["options"]["base"].update(timing)
        report["options"]["base"]["queries_with_hits"] = sum(1 for r in reference.values() if r)
        runs = {
            "rank": lambda q: ranked(base, expr(q), "rank"),
            **{name: (lambda q, c=conns[name]: ranked(c, expr(q)))
               for name in TABLES if name != "base"},
            **{f"candidates_{k}": (lambda q, k=k: candidates(base, expr(q), k)) for k in CANDIDATES},
        }
        index = SearchIndex.__new__(SearchIndex)  # today's ranking code over the base table
        index._conn = base
        index._impacts = Impacts((10.0, 1.0))
        base.executescript(IMPACT_SCHEMA)
        base.execute("CREATE TABLE files(path TEXT PRIMARY KEY, id INTEGER UNIQUE NOT NULL, mtime, size)")
        base.execute("INSERT INTO files SELECT rowid, rowid, 0, 0 FROM docs")
        base.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, 'docs', 'row')")
        runs["app"] = lambda q: [r for r, _ in index._ranked_rows(parsed[q], LIMIT)]
        for name, run in runs.items():
            timing, results = measure(run, queries, args.runs)
            entry = report["options"].setdefault(name, {})
            entry.update(timing)
            entry.update(overlap(base, {q: expr(q) for q in queries}, reference, results))
        for conn in conns.values():
            conn.close()
        print(json.dumps(report, indent=2))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
