"""Hostile sources: time and peak memory to refuse each; prints JSON.

    uv run python benchmarks/bench_hostile.py

Each file is made in a temporary vault (tests/support/hostile.py: a DOCX zip bomb expanding to
1 GB, a 1,000,000-row XLSX, a 40 MB one-line CSV, a 48 MB HTML page) and converted by
`convert_source` in a fresh child process; the report gives, per file, its size on disk, the
seconds until the refusal, the peak resident memory (MB) of that process and of any converter
child it started, and the first words of the message. The budget: each refused within
seconds, in at most 1 GB.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests.support import hostile  # noqa: E402

RUN = """
import resource, sys, json
from wiki_tui.agent.convert import ConversionError, convert_source
try:
    convert_source(sys.argv[1], sys.argv[2])
    outcome = "converted"
except ConversionError as exc:
    outcome = str(exc)
print(json.dumps(outcome))
"""

MAKERS = {
    "bomb.docx": lambda p: hostile.docx_bomb(p, expands_mb=1024),
    "rows.xlsx": lambda p: hostile.xlsx_rows(p, rows=1_000_000),
    "line.csv": lambda p: hostile.one_line_csv(p, size_mb=40),
    "page.html": lambda p: hostile.big_html(p, size_mb=48),
}


def measure(root: Path, name: str) -> dict:
    path = root / "raw" / name
    MAKERS[name](path)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", RUN, str(root), f"raw/{name}"],
                          capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # the largest child so far (KB)
    outcome = json.loads(done.stdout) if done.stdout.strip() else done.stderr[-200:]
    return {"file": name, "size_mb": round(path.stat().st_size / 1024 / 1024, 1),
            "seconds": round(seconds, 2), "peak_rss_mb_so_far": round(usage.ru_maxrss / 1024, 1),
            "outcome": outcome[:120]}


def main() -> int:
    report = {"load_average": [round(x, 2) for x in os.getloadavg()], "files": []}
    with tempfile.TemporaryDirectory(prefix="wiki-bench-hostile-") as tmp:
        root = Path(tmp)
        (root / "raw").mkdir()
        for name in MAKERS:
            report["files"].append(measure(root, name))
    report["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
