"""Micro-benchmark: scan + parse time per page over 10,000 generated pages (in memory).

Prints JSON with medians over a few rounds. Run:
    uv run python benchmarks/bench_scan.py [--pages 10000] [--rounds 5] [--vault DIR]

With --vault (e.g. made by benchmarks/gen_vault.py) it also times reading every page from
disk with read_page_text plus parse_page: the vault-core share of a cold index build.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time

from wiki_tui.vault.links import scan_links
from wiki_tui.vault.page import parse_page, read_page_text
from wiki_tui.vault.resolve import Resolver

WORDS = (
    "model agent wiki page link graph review change index search vault token stream "
    "source entity concept claim evidence summary note folder the a of and to in is "
    "that for with as on by this it from be are was"
).split()
TYPES = ["source", "entity", "concept", "synthesis", "answer"]
FOLDERS = {
    "source": "sources",
    "entity": "entities",
    "concept": "concepts",
    "synthesis": "syntheses",
    "answer": "answers",
}


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def make_page(rng: random.Random, i: int, names: list[str]) -> tuple[str, str]:
    kind = TYPES[i % len(TYPES)]
    name = names[i]
    path = f"{FOLDERS[kind]}/{name}.md"

    def link() -> str:
        target = rng.choice(names)
        form = rng.random()
        if form < 0.6:
            return f"[[{target}]]"
        if form < 0.8:
            return f"[[{target}|{sentence(rng, 2)}]]"
        if form < 0.9:
            return f"[[{target}#{sentence(rng, 2).title()}]]"
        return f"[{sentence(rng, 2)}]({target.replace(' ', '%20')}.md)"

    fm = [
        "---",
        f"title: {name}",
        f"type: {kind}",
        f"summary: {sentence(rng, 12)}",
        f"aliases: [{sentence(rng, 1).title()} {i}]",
        f"tags: [{rng.choice(WORDS)}, topic/{rng.choice(WORDS)}]",
    ]
    if rng.random() < 0.5:
        fm += ["sources:", f'  - "[[{rng.choice(names)}]]"']
    if rng.random() < 0.3:
        fm.append(f"created: 2025-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}")
    fm.append("---")
    body = [f"# {name}", ""]
    for _ in range(rng.randint(1, 6)):
        body.append(f"{sentence(rng, 14)} {link()} {sentence(rng, 10)}.")
        body.append("")
    body.append(f"## {sentence(rng, 3).title()}")
    body.append(f"- {sentence(rng, 8)} #{rng.choice(WORDS)}")
    body.append(f"- {sentence(rng, 8)} `inline [[not a link]]` ^item-{i}")
    if rng.random() < 0.3:
        body += ["", "```python", "x = '[[not a link]]'", "```"]
    body.append("")
    body.append(sentence(rng, 30) + ".")
    return path, "\n".join(fm + body) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--vault", type=str, default=None)
    args = ap.parse_args()
    rng = random.Random(1)
    names = [f"{sentence(rng, 2).title()} {i}" for i in range(args.pages)]
    pages = [make_page(rng, i, names) for i in range(args.pages)]
    total_bytes = sum(len(t.encode()) for _, t in pages)

    def timed(fn) -> float:
        # CPU time of this process: the machine is shared, wall time swings with load
        runs = []
        for _ in range(args.rounds):
            t0 = time.process_time()
            fn()
            runs.append(time.process_time() - t0)
        return statistics.median(runs)

    scan_s = timed(lambda: [scan_links(t) for _, t in pages])
    parsed: list = []
    parse_s = timed(lambda: parsed.__setitem__(slice(None), [parse_page(p, t) for p, t in pages]))
    paths = [p for p, _ in pages]
    build_s = timed(lambda: Resolver(paths))
    resolver = Resolver(paths)
    links = [(link.target, page.path) for page in parsed for link in page.links]
    resolve_s = timed(lambda: [resolver.resolve(t, f) for t, f in links])
    disk: dict = {}
    if args.vault:
        import pathlib

        root = pathlib.Path(args.vault)
        files = [
            p
            for p in root.rglob("*.md")
            if not any(part.startswith(".") for part in p.relative_to(root).parts)
        ]

        def read_and_parse() -> None:
            for f in files:
                text, _ = read_page_text(f)
                parse_page(f.relative_to(root).as_posix(), text)

        t0 = time.perf_counter()
        read_and_parse()
        disk = {
            "vault_pages": len(files),
            "vault_read_parse_wall_first_s": round(time.perf_counter() - t0, 4),
            "vault_read_parse_cpu_s": round(timed(read_and_parse), 4),
        }
    print(
        json.dumps(
            {
                "clock": "process_time (CPU seconds, median of rounds)",
                "load_avg_1m": os.getloadavg()[0],
                "pages": args.pages,
                "avg_page_bytes": round(total_bytes / args.pages),
                "links": len(links),
                "scan_links_total_s": round(scan_s, 4),
                "scan_links_per_page_ms": round(scan_s / args.pages * 1000, 4),
                "parse_page_total_s": round(parse_s, 4),
                "parse_page_per_page_ms": round(parse_s / args.pages * 1000, 4),
                "resolver_build_s": round(build_s, 4),
                "resolve_all_links_s": round(resolve_s, 4),
                "resolve_per_link_us": round(resolve_s / max(1, len(links)) * 1e6, 3),
                "unresolved": sum(1 for t, f in links if resolver.resolve(t, f) is None),
                **disk,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
