"""How long naming a contradiction's pages takes (agent/context/quotes.py), on a synthetic vault; JSON.

    uv run python benchmarks/bench_quotes.py [--pages 10000] [--dir DIR] [--runs 20]

The findings screen looks up, in a worker, the page of each quote of the focused contradiction:
a phrase search, then the candidate pages read. Quotes are real sentences of random pages (found)
and made-up ones (on no page). "cpu" is process CPU time, meaningful on a shared machine. The
first lookup includes building the search index (once per session, as in the app). Target: a
warm lookup of two quotes well under 100 ms at 10,000 pages.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


def sentences(vault, rng: random.Random, n: int) -> list[tuple[str, str]]:
    """(path, a sentence of its body) for n random pages."""
    paths = sorted(p for p in vault.pages if p not in ("index.md", "log.md"))
    out = []
    while len(out) < n:
        path = rng.choice(paths)
        body = vault.read_text(path).split("\n---", 2)[-1]
        lines = [line.strip() for line in body.splitlines()
                 if len(line.split()) >= 8 and not line.lstrip().startswith(("#", "`", "-", "|"))]
        if lines:
            words = rng.choice(lines).split()[:10]
            out.append((path, " ".join(words)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=10_000)
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args(argv)
    import gen_vault

    from wiki_tui.agent.context.quotes import contradiction_pages
    from wiki_tui.vault import Vault

    root = args.dir or Path(tempfile.mkdtemp()) / "vault"
    if not (root / "index.md").exists():
        gen_vault.generate(root, args.pages)
    vault = Vault.open(root, use_cache=False)
    rng = random.Random(7)
    pairs = sentences(vault, rng, 2 * args.runs)
    wall, cpu, found = [], [], 0
    first = None
    for i in range(args.runs):
        (path, one), (_other, two) = pairs[2 * i], pairs[2 * i + 1]
        quotes = [one, two] if i % 4 else [one, "a claim no page of this vault has ever made"]
        t, c = time.perf_counter(), time.process_time()
        pages = contradiction_pages(vault, path, quotes)
        elapsed, used = time.perf_counter() - t, time.process_time() - c
        if first is None:
            first = {"wall_s": round(elapsed, 3), "cpu_s": round(used, 3)}
            continue
        wall.append(elapsed * 1000)
        cpu.append(used * 1000)
        found += pages[0] == path
    vault.close()
    print(json.dumps({
        "pages": len(vault.pages), "runs": args.runs - 1,
        "first_lookup_with_index_build": first,
        "two_quotes_ms": {"wall_median": round(statistics.median(wall), 1),
                          "wall_max": round(max(wall), 1),
                          "cpu_median": round(statistics.median(cpu), 1)},
        "first_quote_on_its_page": f"{found}/{args.runs - 1}",
    }, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
