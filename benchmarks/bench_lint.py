"""Linting a big vault: the structural checks, and `/lint` with the offline engine (the checks,
its suggestions and its mechanical fixes as a changeset); prints JSON (seconds, medians).

    uv run python benchmarks/bench_lint.py --dir VAULT [--runs 3]

The vault is copied to a temporary folder and opened once (its index built, or taken from the
copy); each run then times, in this process: `structural_s` (Vault.lint: every link resolved,
orphans, fields, duplicates, suggestions for dangling links) and `offline_lint_s` (the lint
operation with the offline engine, from its start to its changeset, nothing applied). Both
with the fuzzy finder already built, as in the app. CPU seconds beside wall seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def timed(fn) -> tuple[float, float, object]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.environ.pop("WIKI_TUI_MODEL", None)
    from wiki_tui.agent.config import resolve_settings
    from wiki_tui.agent.events import ChangesetReady
    from wiki_tui.agent.operations import lint
    from wiki_tui.vault import Vault

    tmp = Path(tempfile.mkdtemp(prefix="bench-lint-"))
    try:
        root = tmp / "vault"
        shutil.copytree(args.dir, root, symlinks=True)
        vault = Vault.open(root)
        vault.find("a")  # the finder, built as the app builds it after opening
        settings = resolve_settings(root, "offline", None)

        async def offline_lint() -> int:
            files = 0
            async for event in lint(vault, settings, fix=True):
                if isinstance(event, ChangesetReady):
                    files = len(event.changeset.files)
            return files

        structural, offline = [], []
        for _ in range(args.runs):
            structural.append(timed(vault.lint))
            offline.append(timed(lambda: asyncio.run(offline_lint())))
        vault.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def row(runs) -> dict:
        return {"wall": round(statistics.median(r[0] for r in runs), 2),
                "cpu": round(statistics.median(r[1] for r in runs), 2)}

    print(json.dumps({
        "load_average_1min": round(os.getloadavg()[0], 2), "pages": len(vault.pages), "runs": args.runs,
        "findings": len(structural[0][2]), "structural_s": row(structural),
        "offline_lint_s": row(offline), "offline_lint_changeset_files": offline[0][2],
    }, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
