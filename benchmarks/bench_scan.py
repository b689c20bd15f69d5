"""Micro-benchmark of vault-core: scan + parse time per page over a 10,000-page vault.

    uv run python benchmarks/bench_scan.py [--pages 10000] [--rounds 5] [--vault DIR]

Without --vault it generates the synthetic vault of benchmarks/gen_vault.py in a temporary
folder. Prints JSON: medians over the rounds, in CPU seconds of this process (the machine
is shared; wall time swings with its load), plus one wall-clock cold read+parse.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_vault import generate  # noqa: E402

from wiki_tui.vault.parse.links import scan_links  # noqa: E402
from wiki_tui.vault.parse.page import parse_page, read_page_text  # noqa: E402
from wiki_tui.vault.indexing.resolve import Resolver  # noqa: E402


def run(root: Path, rounds: int) -> dict:
    files = sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    )
    all_paths = [p.relative_to(root).as_posix() for p in files]
    md = [p for p in files if p.suffix == ".md" and p.relative_to(root).parts[0] != "raw"]

    def read_and_parse() -> list:
        out = []
        for f in md:
            text, _ = read_page_text(f)
            out.append(parse_page(f.relative_to(root).as_posix(), text))
        return out

    def timed(fn) -> float:
        runs = []
        for _ in range(rounds):
            t0 = time.process_time()
            fn()
            runs.append(time.process_time() - t0)
        return statistics.median(runs)

    t0 = time.perf_counter()
    pages = read_and_parse()
    cold_wall = time.perf_counter() - t0
    texts = [(p.path, read_page_text(root / p.path)[0]) for p in pages]
    n = len(texts)
    read_parse_s = timed(read_and_parse)
    scan_s = timed(lambda: [scan_links(t) for _, t in texts])
    parse_s = timed(lambda: [parse_page(p, t) for p, t in texts])
    build_s = timed(lambda: Resolver(all_paths))
    resolver = Resolver(all_paths)
    links = [(link.target, page.path) for page in pages for link in page.links]
    resolve_s = timed(lambda: [resolver.resolve(t, f) for t, f in links])
    return {
        "clock": "process_time (CPU s, median of rounds) unless named wall",
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "pages": n,
        "files": len(all_paths),
        "avg_page_bytes": round(sum(len(t.encode()) for _, t in texts) / n),
        "links": len(links),
        "read_and_parse_wall_first_s": round(cold_wall, 4),
        "read_and_parse_s": round(read_parse_s, 4),
        "scan_links_s": round(scan_s, 4),
        "scan_links_per_page_ms": round(scan_s / n * 1000, 4),
        "parse_page_s": round(parse_s, 4),
        "parse_page_per_page_ms": round(parse_s / n * 1000, 4),
        "resolver_build_s": round(build_s, 4),
        "resolve_all_links_s": round(resolve_s, 4),
        "resolve_per_link_us": round(resolve_s / max(1, len(links)) * 1e6, 3),
        "unresolved_links": sum(1 for t, f in links if resolver.resolve(t, f) is None),
        "pages_with_warnings": sum(1 for p in pages if p.warnings),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--vault", type=Path, default=None, help="an existing vault to read")
    args = ap.parse_args()
    if args.vault:
        result = run(args.vault, args.rounds)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            generate(Path(tmp), args.pages)
            result = run(Path(tmp), args.rounds)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
