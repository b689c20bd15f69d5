"""How low a cold build could go in Python: the least work an index of issue 21 must do, timed
beside the read floor; prints JSON (CPU seconds, medians of fresh processes).

    uv run python benchmarks/bench_cold_bound.py --dir VAULT [--runs 3]

The "bound" is a stripped build, not the product's: list the vault, read every page, read its
frontmatter (the fast reader, YAML where it gives up) and scan its body with the exact
scanner (links.scan: Obsidian's rules for code, comments, links, headings, tags), resolve each
distinct link, and insert the fewest rows the queries need (pages with stamps, title and
aliases, an empty record; links with their target; names; tags: the product's own tables,
store.py's schema), then make the same secondary indexes. It keeps no
page records, no headings or block ids on disk, no frontmatter links, no summaries and no
Page objects, so the product's build cannot cost less than it. Its ratio to the read floor
(bench_vault.read_floor: walk + read every .md + a link regex) is the least a build with this
scanner can reach; `parse_vs_floor` is the frontmatter and scan alone, before anything is
stored. The vault is only read; the database goes to a temporary folder.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

def bound(root: str, db: str) -> dict:
    """The stripped build, each stage's CPU seconds."""
    import sqlite3

    from wiki_tui.vault.indexing.resolve import Resolver
    from wiki_tui.vault.indexing.store import _INDEXES, _SCHEMA  # the product's own tables
    from wiki_tui.vault.parse.frontmatter import fast_load, split_frontmatter, yaml_frontmatter
    from wiki_tui.vault.parse.links import scan

    gc.disable()
    out: dict[str, float] = {}
    clock = time.process_time()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.process_time()
        out[name] = now - clock
        clock = now

    start = clock
    stamps = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if name.endswith(".md"):
                full = os.path.join(folder, name)
                st = os.stat(full)
                stamps.append((os.path.relpath(full, root), st.st_mtime_ns, st.st_size))
    lap("list")
    texts = []
    for path, _, _ in stamps:
        with open(os.path.join(root, path), "rb") as fh:
            texts.append(fh.read().decode("utf-8", "replace"))
    lap("read")
    parsed = []
    for (path, _, _), text in zip(stamps, texts):
        fm_text, _, body_start, _ = split_frontmatter(text)
        fm = {}
        if fm_text is not None:
            fm = fast_load(fm_text)
            if fm is None:
                fm = yaml_frontmatter(fm_text, first_line=2)[0]
        parsed.append((fm, scan(text, start=body_start)))
    lap("parse")
    resolver = Resolver([path for path, _, _ in stamps])
    pages, names, links, tags = [], [], [], []
    for (path, mtime, size), (fm, body) in zip(stamps, parsed):
        title = str(fm.get("title") or path.rsplit("/", 1)[-1][:-3])
        aliases = fm.get("aliases") or []
        pages.append((path, mtime, size, title,
                      "\x1f".join(map(str, aliases)) if isinstance(aliases, list) else str(aliases)))
        names.append((title.lower(), path))
        counts: dict[str, int] = {}
        for link in body.links:
            counts[link.target] = counts.get(link.target, 0) + 1
        for target, n in counts.items():
            links.append((path, target, n, target.lower(), target.rsplit("/", 1)[-1].lower(),
                          resolver.resolve(target, path)))
        tags.extend((tag.lower(), i, tag, path) for i, tag in enumerate(body.tags))
    lap("rows_and_resolution")
    conn = sqlite3.connect(db)
    conn.executescript("PRAGMA journal_mode=WAL; PRAGMA synchronous=OFF;" + _SCHEMA)
    with conn:
        conn.executemany("INSERT INTO pages(path, mtime, size, indexed_ns, title, aliases, record) "
                         "VALUES (?,?,?,0,?,?,x'')", pages)
        conn.executemany("INSERT OR REPLACE INTO links VALUES (?,?,?,?,?,?)", links)
        conn.executemany("INSERT OR IGNORE INTO names VALUES (?,?)", names)
        conn.executemany("INSERT OR IGNORE INTO tags VALUES (?,?,?,?)", tags)
    lap("store")
    conn.executescript(_INDEXES)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    lap("indexes")
    out["total"] = time.process_time() - start
    out["pages"] = len(stamps)
    out["links"] = len(links)
    return out


def child(mode: str, root: str) -> dict:
    if mode == "floor":
        from bench_vault import read_floor

        return {"total": read_floor(Path(root))["cpu_s"]}
    with tempfile.TemporaryDirectory(prefix="bench-bound-") as tmp:
        return bound(root, os.path.join(tmp, "index.sqlite"))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child")
    args = parser.parse_args()
    root = str(args.dir.resolve())
    if args.child:
        print(json.dumps(child(args.child, root)))
        return 0

    def run(mode: str) -> dict:
        proc = subprocess.run([sys.executable, __file__, "--child", mode, "--dir", root],
                              capture_output=True, text=True, check=True)
        return json.loads(proc.stdout.strip().splitlines()[-1])

    floors, bounds = [], []
    for _ in range(args.runs):  # interleaved: a machine that changes pace weighs on both
        floors.append(run("floor"))
        bounds.append(run("bound"))
    floor = statistics.median(f["total"] for f in floors)
    stages = {key: round(statistics.median(b[key] for b in bounds), 3)
              for key in ("list", "read", "parse", "rows_and_resolution", "store", "indexes", "total")}
    print(json.dumps({
        "load_average_1min": round(os.getloadavg()[0], 2),
        "pages": bounds[0]["pages"], "links_rows": bounds[0]["links"], "runs": args.runs,
        "read_floor_cpu_s": round(floor, 3),
        "bound_cpu_s": stages,
        "bound_vs_floor": round(stages["total"] / floor, 2),
        "parse_vs_floor": round(stages["parse"] / floor, 2),
        "target_ratio": 5.0,
    }, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
