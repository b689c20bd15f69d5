"""The cold build of the vault index (no index on disk), split by stage; prints JSON.

    uv run python benchmarks/bench_cold.py --dir VAULT [--runs 3]

Issue 21's budget: the cold build costs <= 5x the read floor (walk + read every .md + a link
regex, in a fresh process), in CPU time. This prints the floor and the cold build as
bench_vault.py measures them (fresh processes, a forked parser half counted), the build with
the fork turned off (one core: the same work, no hand-over), and the build's stages, each timed
on its own in one process over the same pages (CPU seconds): listing, reading, parsing
(frontmatter; the scan as it runs, the regex-first pass alone (with how many pages it took) and
the reference pass alone; the rest of parse_page), records, link resolution, and the store (pages, links, the secondary indexes made
at the end). Stages are timed apart, so their sum is near but not equal to the whole build.
The vault is not changed: it is copied to a temporary folder first (`--dir` is only read).
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
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


def child(mode: str, root: Path) -> dict:
    """Run in a fresh interpreter. `cold`: Vault.open with the index in a fresh state folder."""
    import resource

    if mode == "floor":
        from bench_vault import read_floor

        return read_floor(root)
    from wiki_tui.vault import Vault

    wall, cpu = time.perf_counter(), time.process_time()
    vault = Vault.open(root)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = {"wall_s": time.perf_counter() - wall,
           "cpu_s": time.process_time() - cpu + children.ru_utime + children.ru_stime,
           "child_cpu_s": children.ru_utime + children.ru_stime, "pages": len(vault.pages)}
    vault.close()
    return out


def run_child(mode: str, root: Path, cache: Path, fork: bool = True) -> dict:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    if not fork:
        env["WIKI_TUI_NO_FORK"] = "1"
    shutil.rmtree(cache, ignore_errors=True)  # no index anywhere: in the copy or the cache
    shutil.rmtree(root / ".wiki-tui", ignore_errors=True)
    result = subprocess.run([sys.executable, __file__, "--child", mode, "--dir", str(root)],
                            capture_output=True, text=True, check=True, env=env)
    return json.loads(result.stdout.strip().splitlines()[-1])


def stages(root: Path, db_folder: Path) -> dict:
    """CPU seconds of each stage of the build, timed one at a time over all pages."""
    import gc

    from wiki_tui.vault.indexing.cache import link_rows, page_to_record
    from wiki_tui.vault.indexing.catalog import parse_catalog
    from wiki_tui.vault.indexing.index import LinkIndex, link_counts
    from wiki_tui.vault.indexing.resolve import Resolver
    from wiki_tui.vault.indexing.store import Store
    from wiki_tui.vault.layout import scan_tree
    from wiki_tui.vault.parse.frontmatter import fast_load, split_frontmatter
    from wiki_tui.vault.parse.links import reference_scan, scan
    from wiki_tui.vault.parse.quick import quick_scan
    from wiki_tui.vault.parse.page import parse_page, read_page_text

    gc.disable()  # as the build runs (model.py: no_gc)
    out: dict[str, float] = {}

    def timed(name, fn):
        cpu = time.process_time()
        result = fn()
        out[name] = round(time.process_time() - cpu, 3)
        return result

    tree = timed("list", lambda: scan_tree(root))
    paths = sorted(tree.pages)
    texts = timed("read", lambda: [read_page_text(os.path.join(root, p), tree.pages[p][1])[0] for p in paths])
    splits = [split_frontmatter(t) for t in texts]
    timed("parse.frontmatter", lambda: [fast_load(s[0]) for s in splits if s[0] is not None])
    taken = timed("parse.scan_quick", lambda: sum(
        quick_scan(t, s[2], "wiki", True) is not None for t, s in zip(texts, splits)))
    out["parse.scan_quick_pages"] = taken
    timed("parse.scan", lambda: [scan(t, start=s[2]) for t, s in zip(texts, splits)])
    timed("parse.scan_reference", lambda: [reference_scan(t, start=s[2]) for t, s in zip(texts, splits)])
    # the generated index.md is read line by line, as the build reads it (model._parse_file)
    pages = timed("parse_page", lambda: [parse_catalog(p, t) or parse_page(p, t) if p == "index.md"
                                         else parse_page(p, t) for p, t in zip(paths, texts)])
    rows = [link_rows(page) for page in pages]
    records = timed("records", lambda: [page_to_record(page, r) for page, r in zip(pages, rows)])
    counts = [link_counts(r) for r in rows]
    db = db_folder / "index.sqlite"
    store = Store(db)
    resolver = Resolver([*tree.pages, *tree.files])
    index = LinkIndex(resolver, store)
    cpu = time.process_time()
    with store.bulk():
        store.put_files(tree.files.items())
        timed("store.pages", lambda: store.put_pages(
            [(p, r, tree.pages[p], 0) for p, r in zip(paths, records)], new=True))
        timed("links.resolve_and_store", lambda: index.add_new(list(zip(paths, counts))))
        end = time.process_time()
    out["store.indexes_at_end"] = round(time.process_time() - end, 3)
    store.checkpoint()
    out["store.all"] = round(time.process_time() - cpu, 3)
    out["links"] = sum(len(c) for c in counts)
    out["index_on_disk_mb"] = round(sum(f.stat().st_size for f in db_folder.glob("index.sqlite*")) / 1e6, 1)
    store.close()
    out["parse_page_minus_parts"] = round(out["parse_page"] - out["parse.frontmatter"] - out["parse.scan"], 3)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child")
    args = parser.parse_args()
    root = args.dir.resolve()
    if args.child:
        print(json.dumps(child(args.child, root)))
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="bench-cold-"))
    try:
        work = tmp / "vault"
        shutil.copytree(root, work, ignore=shutil.ignore_patterns(".git", ".wiki-tui"), symlinks=True)
        cache = tmp / "cache"
        floor = [run_child("floor", work, cache) for _ in range(args.runs)]
        cold = [run_child("cold", work, cache) for _ in range(args.runs)]
        serial = [run_child("cold", work, cache, fork=False) for _ in range(args.runs)]
        (tmp / "db").mkdir()
        split = stages(work, tmp / "db")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    floor_cpu = statistics.median(f["cpu_s"] for f in floor)

    def row(runs):
        cpu = statistics.median(r["cpu_s"] for r in runs)
        return {"wall": round(statistics.median(r["wall_s"] for r in runs), 3), "cpu": round(cpu, 3),
                "cpu_vs_floor": round(cpu / floor_cpu, 2)}

    print(json.dumps({
        "load_average_1min": round(os.getloadavg()[0], 2),
        "pages": cold[0]["pages"],
        "read_floor_s": {"wall": round(statistics.median(f["wall_s"] for f in floor), 3),
                         "cpu": round(floor_cpu, 3)},
        "cold_build_s": {**row(cold), "target_ratio": 5.0},
        "cold_build_one_core_s": row(serial),
        "stages_cpu_s": split,
    }, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
