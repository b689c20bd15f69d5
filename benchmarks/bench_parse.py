"""Benchmarks for the changes core; prints JSON with medians (milliseconds).

    uv run python benchmarks/bench_parse.py [--runs 7]

- parse_200kb_4char_ms: a 200 KB reply (prose + WRITE and EDIT blocks with fences and
  frontmatter) fed to StreamParser in 4-character chunks, plus close().  Target <= 50 ms.
- diff_100kb_ms: compute_hunks on a 100 KB page with 40 scattered edits.  Target <= 50 ms.
- diff_100kb_rewrite_ms: the same page against a heavy rewrite (every 3rd line changed).
- diff_100kb_repetitive_ms: a 100 KB page made of repeated lines (lists, tables, fences, blank
  lines: no line unique) with every 7th line edited; plain difflib took ~32 s on it.
- apply_edits_100kb_ms: 20 search/replace edits applied to the 100 KB page.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wiki_tui.changes.build.match import apply_edits  # noqa: E402
from wiki_tui.changes.model import compute_hunks  # noqa: E402
from wiki_tui.changes.reply.stream import StreamParser  # noqa: E402

WORDS = ("longitude chronometer harrison board almanac lunar distance sea clock navigation "
         "error degree minute observatory greenwich voyage ship captain tables").split()


def make_page(rng: random.Random, size: int) -> str:
    lines = ["---", "title: A page", "type: concept", "summary: one line", "---", "# A page", ""]
    n = 0
    while sum(len(x) + 1 for x in lines) < size:
        n += 1
        if n % 25 == 0:
            lines += ["```python", "def f(x):", "    return x  # ---", "```"]
        elif n % 17 == 0:
            lines += ["", f"## Section {n}", ""]
        else:
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14)))
            lines.append(f"Line {n}: {words} [[{rng.choice(WORDS).title()}]].")
    return "\n".join(lines) + "\n"


def make_reply(rng: random.Random, size: int) -> str:
    parts = []
    i = 0
    while sum(map(len, parts)) < size:
        i += 1
        parts.append(f"I will update page {i}; here is why, in a sentence or two.\n\n")
        if i % 3:
            parts.append(f"@@@ WRITE concepts/Page {i}.md\n{make_page(rng, 6000)}@@@ END\n\n")
        else:
            parts.append(f"@@@ EDIT concepts/Page {i}.md\n@@@ SEARCH\nold line {i}\n"
                         f"@@@ REPLACE\nnew line {i}\nmore\n@@@ END\n\n")
    return "".join(parts)[:size]


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return round(statistics.median(times), 2)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(7)

    reply = make_reply(rng, 200_000)
    chunks = [reply[i : i + 4] for i in range(0, len(reply), 4)]

    def parse() -> None:
        p = StreamParser()
        feed = p.feed
        for c in chunks:
            feed(c)
        p.close()

    page = make_page(rng, 100_000)
    lines = page.split("\n")
    scattered = list(lines)
    for k in range(40):
        j = 10 + k * (len(lines) - 20) // 40
        scattered[j] = scattered[j] + " (edited)"
        if k % 4 == 0:
            scattered.insert(j, "An inserted line.")
    scattered_text = "\n".join(scattered)
    rewrite = "\n".join(x + " !" if i % 3 == 0 else x for i, x in enumerate(lines))

    rows: list[str] = []
    while sum(len(x) + 1 for x in rows) < 100_000:
        rows += rng.choice([["- item", "", "---"], ["```", "x = 1", "```", ""],
                            ["| a | b |", "|---|---|"], [f"text line {rng.randint(0, 50)}"]])
    repetitive = "\n".join(rows) + "\n"
    repetitive_edit = "\n".join(x + " x" if i % 7 == 0 else x for i, x in enumerate(rows)) + "\n"

    edits = []
    for k in range(20):
        j = 12 + k * (len(lines) - 30) // 20
        if lines[j].startswith("Line"):
            edits.append((lines[j] + "\n", lines[j] + " (changed)\n"))

    results = {
        "load_average_1min": round(os.getloadavg()[0], 2),  # wall times inflate on a busy box
        "reply_bytes": len(reply.encode()),
        "chunks": len(chunks),
        "parse_200kb_4char_ms": median_ms(parse, args.runs),
        "parse_target_ms": 50,
        "page_bytes": len(page.encode()),
        "diff_100kb_ms": median_ms(lambda: compute_hunks(page, scattered_text), args.runs),
        "diff_100kb_hunks": len(compute_hunks(page, scattered_text)),
        "diff_100kb_rewrite_ms": median_ms(lambda: compute_hunks(page, rewrite), args.runs),
        "diff_100kb_repetitive_ms": median_ms(lambda: compute_hunks(repetitive, repetitive_edit),
                                              args.runs),
        "diff_target_ms": 50,
        "apply_edits_100kb_ms": median_ms(lambda: apply_edits(page, edits, "p.md"), args.runs),
        "apply_edits_count": len(edits),
    }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
