"""The budget table of issue 21: bench_vault, bench_app and bench_apply at each vault size, one
JSON table of every budget row with its anchor beside it.

    uv run python benchmarks/bench_table.py [--sizes 1000,10000,50000,100000]
        [--dirs 50000=/path/v50k,...] [--runs 2] [--raw] [--partial FILE]

Each size's vault is made with gen_vault.py --git in a temp folder, or copied (`cp -a`) from
the folder --dirs gives for that size: the benchmarks write into the vault (the index, commits,
edited and renamed pages), so the given folder is never touched. Order per size: bench_apply
(needs a clean git tree), bench_app --skip-sample (first paint with the vault, app RSS),
bench_vault (cold and warm opening, fuzzy, full text, outside edits), then this script's own
anchors, in fresh processes: RSS of a bare Textual app, and a plain rapidfuzz extract of the 50
best titles (the fuzzy anchor). The copy is deleted after its size is done.

Rows (issue 21 budgets at 50k pages, reported at every size so the growth shows):
  cold build x read floor (CPU) <= 5; warm start <= 0.5 s; fuzzy p95 <= 10 ms, one-letter
  queries too; full-text p95 with snippets <= 10 ms; one outside edit <= 20 ms worst; app RSS
  <= 150 MB; accept 3 files with a new page x bare git add+commit <= 2; first paint x bare App
  <= 1.3 (7 or more pairs of fresh processes; the CPU-time ratio and the median of the pairs'
  ratios beside it). `ok` says whether the figure is within its budget; the load average beside each size
  says how busy the machine was (wall times inflate on a busy machine, CPU figures less).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def _json_out(stdout: str) -> dict:
    """The JSON object a benchmark printed last (indented or on one line)."""
    start = stdout.find("\n{")
    text = stdout[start + 1:] if start >= 0 else stdout[stdout.find("{"):]
    return json.loads(text)


def _run(script: str, *args: str, timeout: float = 7200) -> dict:
    proc = subprocess.run([sys.executable, str(HERE / script), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        return {"error": f"{script} exited {proc.returncode}: {proc.stderr.strip()[-600:]}"}
    try:
        return _json_out(proc.stdout)
    except ValueError:
        return {"error": f"{script} printed no JSON: {proc.stdout[-300:]}"}


def _child(mode: str, *args: str) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--child", mode, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=1800)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip()[-600:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# -- anchors (children) ---------------------------------------------------------------------

def child_bare_rss() -> dict:
    """RSS of a bare Textual app with one Static, painted (the app RSS row's anchor)."""
    from textual.app import App
    from textual.widgets import Static

    from bench_vault import rss_kb

    result: dict = {}

    class Bare(App):
        def compose(self):
            yield Static("bare")

        def on_mount(self) -> None:
            self.set_timer(0.3, self._measure)

        def _measure(self) -> None:
            result["rss_mb"] = round(rss_kb() / 1024, 1)
            self.exit()

    Bare().run(headless=True, size=(120, 40))
    return result


def child_fuzzy_anchor(vault_dir: str) -> dict:
    """rapidfuzz's extract of the 50 best titles over the vault's titles and aliases, the same
    keystrokes bench_vault types (the fuzzy rows' anchor)."""
    from rapidfuzz import fuzz, process

    from bench_vault import KEYSTROKES
    from wiki_tui.vault import Vault

    vault = Vault.open(Path(vault_dir))
    names = []
    for _path, title, aliases in vault.pages.titles():
        names.append(title)
        names.extend(aliases)
    vault.close()
    times, one_letter = [], []
    for _ in range(5):
        for query in KEYSTROKES:
            times.append(_wall(process.extract, query, names, scorer=fuzz.QRatio, limit=50))
    for letter in "abcdefghijklmnopqrstuvwxyz":
        one_letter.append(_wall(process.extract, letter, names, scorer=fuzz.QRatio, limit=50))
    return {"names": len(names), "p95_ms": _p95(times), "one_letter_p95_ms": _p95(one_letter)}


def _wall(fn, *args, **kwargs) -> float:
    start = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - start


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000, 3)


# -- the table ------------------------------------------------------------------------------

def _get(data: dict, *keys, default=None):
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return default
        data = data[key]
    return data


def _cell(value, anchor=None, *, budget, ratio_budget=False, extra=None) -> dict:
    """One figure beside its anchor: `ratio_budget` means the budget bounds value / anchor."""
    cell: dict = {"value": value, "anchor": anchor}
    if ratio_budget and isinstance(value, (int, float)) and isinstance(anchor, (int, float)) and anchor:
        cell["ratio"] = round(value / anchor, 2)
        cell["ok"] = cell["ratio"] <= budget
    elif isinstance(value, (int, float)) and not ratio_budget:
        cell["ok"] = value <= budget
    else:
        cell["ok"] = None  # not measured
    if extra:
        cell.update(extra)
    return cell


ROWS = (
    ("cold build x read floor (CPU s)", "walk + read every .md + link regex", "<= 5x"),
    ("warm start (s)", "read floor (wall s)", "<= 0.5 s"),
    ("fuzzy p95 (ms)", "rapidfuzz extract, 50 best", "<= 10 ms"),
    ("fuzzy one-letter p95 (ms)", "rapidfuzz extract, 50 best, one letter", "<= 10 ms"),
    ("full-text p95 with snippets (ms)", "raw FTS5 bm25, top 20", "<= 10 ms"),
    ("one outside edit, worst (ms)", "p95", "<= 20 ms"),
    ("app RSS, vault loaded, no model (MB)", "bare Textual app", "<= 150 MB"),
    ("accept 3 files with a new page x bare git (ms)", "git add + git commit", "<= 2x"),
    ("first paint x bare App (s)", "bare App with one Static", "<= 1.3x"),
)


def cells(size: dict) -> list[dict]:
    v, a, p = size.get("vault", {}), size.get("app", {}), size.get("apply", {})
    fuzzy, bare = size.get("fuzzy_anchor", {}), size.get("bare_app", {})
    return [
        _cell(_get(v, "cold_build_s", "cpu"), _get(v, "read_floor_s", "cpu"), budget=5,
              ratio_budget=True, extra={"cold_wall_s": _get(v, "cold_build_s", "wall"),
                                        "index_on_disk_mb": _get(v, "index_on_disk_mb")}),
        _cell(_get(v, "warm_start_s", "wall"), _get(v, "read_floor_s", "wall"), budget=0.5,
              extra={"cpu_s": _get(v, "warm_start_s", "cpu"),
                     "freshness_check_s": _get(v, "freshness_check_s", "wall"),
                     "exact_s": _get(v, "warm_start_exact_s", "wall")}),
        _cell(_get(v, "fuzzy_ms", "repeated", "wall", "p95"), _get(fuzzy, "p95_ms"), budget=10,
              extra={"first_use_p95": _get(v, "fuzzy_ms", "first_use", "wall", "p95"),
                     "cpu_p95": _get(v, "fuzzy_ms", "repeated", "cpu", "p95")}),
        _cell(_get(v, "fuzzy_ms", "one_letter", "wall", "p95"), _get(fuzzy, "one_letter_p95_ms"),
              budget=10, extra={"cpu_p95": _get(v, "fuzzy_ms", "one_letter", "cpu", "p95")}),
        _cell(_get(v, "fulltext_ms", "wall", "p95"), _get(v, "raw_fts5_bm25_ms", "wall", "p95"),
              budget=10, extra={"cpu_p95": _get(v, "fulltext_ms", "cpu", "p95"),
                                "first_use_p95": _get(v, "fulltext_ms", "first_use", "wall", "p95")}),
        _cell(_get(v, "refresh_one_file_ms", "wall", "max"),
              _get(v, "refresh_one_file_ms", "wall", "p95"), budget=20,
              extra={"cpu_max": _get(v, "refresh_one_file_ms", "cpu", "max")}),
        _cell(_get(a, "memory", "rss_mb"), _get(bare, "rss_mb"), budget=150),
        _cell(_get(p, "with_create_apply_ms"), _get(p, "with_create_bare_git_add_commit_ms"),
              budget=2, ratio_budget=True,
              extra={"of_which_vault_refresh_ms": _get(p, "with_create_of_which_vault_refresh_ms")}),
        _cell(_get(a, "first_paint_vault", "wiki_app_s"), _get(a, "first_paint_vault", "bare_textual_s"),
              budget=1.3, ratio_budget=True,
              extra={"pair_ratio_median": _get(a, "first_paint_vault", "pair_ratio_median"),
                     "cpu_ratio": _get(a, "first_paint_vault", "cpu_ratio")}),
    ]


def measure(pages: int, source: Path | None, runs: int, scratch: Path) -> dict:
    vault = scratch / f"v{pages}"
    began = time.perf_counter()
    if source is not None:
        subprocess.run(["cp", "-a", str(source), str(vault)], check=True)
    else:
        subprocess.run([sys.executable, str(HERE / "gen_vault.py"), str(vault), "--pages", str(pages),
                        "--git"], check=True, capture_output=True)
    out: dict = {"pages": pages, "source": str(source) if source else "gen_vault --git",
                 "prepare_s": round(time.perf_counter() - began, 1)}
    load = [os.getloadavg()[0]]
    out["apply"] = _run("bench_apply.py", "--dir", str(vault), "--runs", str(max(9, runs * 2)))
    load.append(os.getloadavg()[0])
    out["app"] = _run("bench_app.py", "--vault", str(vault), "--skip-sample", "--stream-runs", "0",
                      "--runs", str(max(7, runs)))
    load.append(os.getloadavg()[0])
    out["vault"] = _run("bench_vault.py", "--dir", str(vault), "--runs", str(runs))
    load.append(os.getloadavg()[0])
    out["fuzzy_anchor"] = _child("fuzzy", str(vault))
    out["bare_app"] = _child("bare")
    out["load_average_1min"] = round(statistics.mean(load), 2)
    out["seconds"] = round(time.perf_counter() - began, 1)
    shutil.rmtree(vault, ignore_errors=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000,50000,100000")
    parser.add_argument("--dirs", default="", help="SIZE=FOLDER,... vaults to copy instead of generating")
    parser.add_argument("--runs", type=int, default=2, help="runs of each measurement (see each script)")
    parser.add_argument("--raw", action="store_true", help="also print each benchmark's own JSON")
    parser.add_argument("--partial", type=Path, default=None,
                        help="write the table of the sizes done so far here after each size")
    parser.add_argument("--child", nargs="+", default=None)
    args = parser.parse_args()
    if args.child:
        mode, *rest = args.child
        sys.path[:0] = [str(ROOT), str(HERE)]
        result = child_bare_rss() if mode == "bare" else child_fuzzy_anchor(rest[0])
        print(json.dumps(result))
        return 0

    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    dirs = {}
    for item in filter(None, (s.strip() for s in args.dirs.split(","))):
        size, _, folder = item.partition("=")
        dirs[int(size)] = Path(folder).resolve()
    scratch = Path(tempfile.mkdtemp(prefix="bench-table-"))
    results: dict[int, dict] = {}
    try:
        for pages in sizes:
            results[pages] = measure(pages, dirs.get(pages), args.runs, scratch)
            print(f"[bench_table] {pages} pages done in {results[pages]['seconds']} s",
                  file=sys.stderr, flush=True)
            if args.partial:  # the sizes done so far, in case a bigger one never ends
                args.partial.write_text(json.dumps(report_of(results, args.raw), indent=2))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(json.dumps(report_of(results, args.raw), indent=2))
    return 0


def report_of(results: dict[int, dict], raw: bool) -> dict:
    sizes = list(results)
    table = []
    by_size = {pages: cells(result) for pages, result in results.items()}
    for i, (row, anchor, budget) in enumerate(ROWS):
        table.append({"row": row, "anchor": anchor, "budget": budget,
                      **{str(pages): by_size[pages][i] for pages in sizes}})
    report = {
        "sizes": sizes,
        "load_average_1min": {str(p): results[p]["load_average_1min"] for p in sizes},
        "cpus": os.cpu_count(),
        "seconds": {str(p): results[p]["seconds"] for p in sizes},
        "errors": {f"{p}/{k}": results[p][k]["error"] for p in sizes
                   for k in ("apply", "app", "vault", "fuzzy_anchor", "bare_app")
                   if "error" in results[p].get(k, {})},
        "rows": table,
    }
    if raw:
        report["raw"] = {str(p): results[p] for p in sizes}
    return report


if __name__ == "__main__":
    raise SystemExit(main())
