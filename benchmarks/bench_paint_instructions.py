"""First paint counted in instructions, not seconds: the same budget as bench_app's first paint
(WikiApp with a vault <= 1.3x a bare Textual App with one Static), measured in a way a busy
machine does not move. Prints JSON.

    uv run python benchmarks/bench_paint_instructions.py --vault DIR [--vault DIR...]

Each child runs under valgrind's cachegrind (no cache simulation) from its first line until the
first frame is on screen, where it stops at once (os._exit: the shutdown is not counted), with
PYTHONHASHSEED=0 and modules from a cached-bytecode folder of this run (one unmeasured start
of each kind fills it). The counts repeat to within a few hundred thousand instructions on a
machine at any load, where wall times to first paint varied 3x; instructions are not time
(an instruction that misses the cache costs more), so bench_app stays the budget's measure and
this one says where a change moved it. Needs valgrind (apt-get install valgrind); ~30 s a child.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(kind: str, vault: str) -> None:
    from bench_app import SIZE, first_paint_app  # the same two apps bench_app times

    app = first_paint_app(kind, vault)

    def painted() -> None:
        os._exit(0)

    app.call_after_refresh(painted)  # queued before mount: after the first refresh
    app.run(headless=True, size=SIZE)


def main() -> None:
    import argparse
    import json
    import re
    import shutil
    import subprocess
    import tempfile
    from concurrent.futures import ThreadPoolExecutor

    parser = argparse.ArgumentParser()
    parser.add_argument("--vault", type=Path, action="append", required=True)
    parser.add_argument("--jobs", type=int, default=2, help="children counted at once")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench_paint_instructions: valgrind is not installed")
    scratch = Path(tempfile.mkdtemp(prefix="bench-paint-instr-"))
    env = {**os.environ, "PYTHONHASHSEED": "0", "TEXTUAL_COLOR_SYSTEM": "truecolor",
           "PYTHONPYCACHEPREFIX": str(scratch / "pycache"),
           "XDG_STATE_HOME": str(scratch / "state"), "XDG_CONFIG_HOME": str(scratch / "config")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("WIKI_TUI_MODEL", None)
    me = [sys.executable, __file__, "--child"]

    def count(kind: str, vault: str) -> int:
        out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no",
                              "--cachegrind-out-file=/dev/null", *me, kind, vault],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
        found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
        if found is None:
            raise RuntimeError(f"no count for {kind} {vault}:\n{out.stderr[-3000:]}")
        return int(found.group(1).replace(",", ""))

    try:
        runs = [("bare", str(args.vault[0]))] + [("wiki", str(v)) for v in args.vault]
        for kind, vault in runs:  # fill the bytecode cache: not counted
            subprocess.run([*me, kind, vault], cwd=ROOT, env=env, capture_output=True,
                           timeout=600)
        with ThreadPoolExecutor(args.jobs) as pool:
            counts = list(pool.map(lambda run: count(*run), runs))
        bare = counts[0]
        report = {"bare_textual_instructions": bare, "target_ratio": 1.3, "vaults": [
            {"vault": vault, "wiki_app_instructions": n, "ratio": round(n / bare, 3)}
            for (_kind, vault), n in zip(runs[1:], counts[1:])],
            "load_average_1min": round(os.getloadavg()[0], 2)}
        print(json.dumps(report, indent=2))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], sys.argv[3])
    else:
        main()
