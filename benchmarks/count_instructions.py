"""Instructions executed by the knowledge benchmarks, counted by valgrind; prints JSON.

    uv run python benchmarks/count_instructions.py --dir VAULT [--against OTHER_CHECKOUT]

CPU milliseconds on these machines swing 1.5-2x from one minute to the next (the same commit
measured 189 ms quietly and 300-400 ms an hour later); the number of instructions a piece of
work executes does not. This counts them for bench_knowledge.py's two workloads, the knowledge
diff of a 50-file changeset and the parse + build + diff of a 1 MB reply, each as the difference
between a run doing the work twice and a run doing it not at all (vault opening, reply making
and imports cancel out), under `valgrind --tool=cachegrind --cache-sim=no`. With `--against`,
the same is counted in another checkout of the project (its own code, this script's workload)
and the ratio printed: a commit whose milliseconds were measured on a quiet machine anchors
what this code would take there. Kernel time (system calls) is not counted.

The vault is opened with its index on disk (open it once beforehand so it exists). Needs
valgrind; about a minute a count.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKLOADS = {"knowledge_diff_50_files": "50", "parse_build_diff_1mb": "1mb"}


def _child(workload: str, times: int, vault: str) -> None:
    """The workload `times` times, after everything it needs is made (run under valgrind, in
    the checkout counted: its bench_knowledge makes the same 50 files and 1 MB reply)."""
    import random

    sys.path.insert(0, str(Path.cwd() / "benchmarks"))  # the checkout counted
    from bench_knowledge import Vault, build_changeset, fifty_files, judge, one_mb_reply, parse_reply

    with Vault.open(Path(vault), use_cache=True) as opened:
        rng = random.Random(7)
        changeset = fifty_files(opened, rng)
        if workload == "50":
            judge(opened, changeset)
            for _ in range(times):
                judge(opened, changeset)
            return
        reply = one_mb_reply(opened, rng)
        build = lambda: build_changeset(opened, parse_reply(reply), operation="apply",  # noqa: E731
                                        title="bench")
        build()
        opened.settle()
        for _ in range(times):
            build()


def _count(checkout: Path, workload: str, times: int, vault: str) -> int:
    python = checkout / ".venv" / "bin" / "python"
    if not python.exists():
        python = Path(sys.executable)
    proc = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         str(python), __file__, "--child", workload, str(times), vault],
        cwd=checkout, capture_output=True, text=True, timeout=1800,
        env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(checkout)})
    counts = re.findall(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    if proc.returncode != 0 or not counts:
        raise RuntimeError(f"valgrind run failed in {checkout}:\n{proc.stderr[-2000:]}")
    return int(counts[-1].replace(",", ""))  # (the last: the Python process itself)


def per_run(checkout: Path, workload: str, vault: str) -> float:
    """Millions of instructions one run of the workload executes."""
    return round((_count(checkout, workload, 2, vault) - _count(checkout, workload, 0, vault))
                 / 2 / 1e6, 1)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", type=Path, required=True, help="a vault (not changed)")
    parser.add_argument("--against", type=Path, default=None, help="another checkout")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print(json.dumps({"error": "valgrind is not installed"}))
        raise SystemExit(2)
    vault, here = str(args.dir.resolve()), HERE.parent
    out: dict = {"vault": vault}
    for name, workload in WORKLOADS.items():
        mine = per_run(here, workload, vault)
        row: dict = {"million_instructions": mine}
        if args.against is not None:
            other = per_run(args.against.resolve(), workload, vault)
            row.update({"against_million_instructions": other, "ratio": round(mine / other, 3)})
        out[name] = row
    if args.against is not None:
        commit = subprocess.run(["git", "-C", str(args.against), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
        out["against"] = {"path": str(args.against), "commit": commit}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
