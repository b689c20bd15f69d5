"""Chart rendering benchmark (prints JSON).

    uv run python benchmarks/bench_forms.py [--runs 5]

- import_s: importing what render_svg imports (matplotlib's Figure and SVG canvas), once;
- first_render_s: the first chart after that (matplotlib builds its font list the first time);
- render_1000_s: median seconds to draw each kind of chart with 1,000 points (a timeline: 200
  events) to SVG after matplotlib is imported (budget: 300 ms), and the SVG's size;
  render_1000_cpu_s the same in CPU seconds of this process (what a loaded machine cannot
  inflate);
- text_1000_s: the same specs drawn as text for the terminal (forms/chart_text.py);
- parse_1000_s: reading and checking the spec of 1,000 points from its YAML text.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wiki_tui.forms.chart_spec import parse_spec  # noqa: E402
from wiki_tui.forms.chart_text import render_text  # noqa: E402

BUDGET_S = 0.3


def spec_text(kind: str, points: int) -> str:
    rng = random.Random(7)
    if kind == "bar":
        data = [[f"item {i}", round(rng.uniform(0, 100), 2)] for i in range(points)]
    elif kind == "timeline":
        data = [[1700 + i // 2, f"event {i}"] for i in range(points)]
    else:
        data = [[i, round(rng.gauss(0, 10), 3)] for i in range(points)]
    return (f"kind: {kind}\ntitle: {points} points\nx: x\ny: y\nseries:\n  - name: one\n"
            f"    pages: [\"[[H4]]\"]\n    data: {json.dumps(data)}\n")


def median(fn, runs: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(runs):
        start = clock()
        fn()
        times.append(clock() - start)
    return round(statistics.median(times), 4)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    start = time.perf_counter()
    from matplotlib.backends.backend_svg import FigureCanvasSVG  # noqa: F401
    from matplotlib.figure import Figure  # noqa: F401

    import_s = time.perf_counter() - start
    from wiki_tui.forms.chart_svg import render_svg

    small = parse_spec(spec_text("line", 10))
    start = time.perf_counter()
    render_svg(small)
    first = time.perf_counter() - start
    out = {"import_s": round(import_s, 3), "first_render_s": round(first, 3),
           "budget_s": BUDGET_S, "render_1000_s": {}, "render_1000_cpu_s": {}, "svg_bytes": {},
           "text_1000_s": {}, "parse_1000_s": {}}
    for kind in ("line", "scatter", "bar", "timeline"):
        n = 200 if kind == "timeline" else 1000
        text = spec_text(kind, n)
        spec = parse_spec(text)
        out["parse_1000_s"][kind] = median(lambda: parse_spec(text), args.runs)
        out["render_1000_s"][kind] = median(lambda: render_svg(spec), args.runs)
        out["render_1000_cpu_s"][kind] = median(lambda: render_svg(spec), args.runs,
                                                time.process_time)
        out["svg_bytes"][kind] = len(render_svg(spec).encode())
        out["text_1000_s"][kind] = median(lambda: render_text(spec, 100, 20), args.runs)
    out["within_budget"] = all(v <= BUDGET_S for v in out["render_1000_s"].values())
    out["within_budget_cpu"] = all(v <= BUDGET_S for v in out["render_1000_cpu_s"].values())
    out["load_average"] = [round(x, 2) for x in __import__("os").getloadavg()]
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
