"""Eval suite benchmark (prints JSON, medians).

    uv run python benchmarks/bench_eval.py [--runs N]

- offline_suite_s: the whole v1 suite (12 tasks) with the built-in offline engine, in process,
  litellm already imported (its import is timed apart: litellm_import_s);
- scripted_good_suite_s / scripted_sloppy_suite_s: the same suite against the local
  OpenAI-compatible test server (tests/support/llm_server.py) replaying the good and the
  sloppy model profiles of tests/eval/profiles.py, through litellm's real openai/ provider;
- cli_offline_s: `wiki-tui eval --model offline --json --no-save` as a fresh process (what CI
  pays for one run, the import of litellm included).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("OPENAI_API_KEY", "sk-bench")

from tests.eval import profiles  # noqa: E402
from tests.support.llm_server import LLMServer  # noqa: E402


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs

    from wiki_tui.agent.config import AgentSettings
    from wiki_tui.agent.llm import load_litellm
    from wiki_tui.eval.runner import run_eval
    from wiki_tui.eval.suite import load_suite

    suite = load_suite()
    names = [t.name for t in suite.tasks]
    out = {"suite": suite.name, "tasks": len(suite.tasks), "runs": runs,
           "litellm_import_s": round(_timed(load_litellm), 3)}
    out["offline_suite_s"] = _median(runs, lambda: run_eval(AgentSettings(), suite))
    with LLMServer() as server:
        for label, profile in (("good", profiles.GOOD), ("sloppy", profiles.SLOPPY)):
            def one(profile=profile):
                server.queue(*profiles.replies(profile, names))
                run = run_eval(server.settings(timeout=30.0), suite)
                assert not run.stopped, run.stopped
            out[f"scripted_{label}_suite_s"] = _median(runs, one)
    cmd = [str(Path(sys.executable).parent / "wiki-tui"), "eval", "--model", "offline",
           "--json", "--no-save"]
    out["cli_offline_s"] = _median(runs, lambda: subprocess.run(
        cmd, cwd=ROOT / "benchmarks", check=True, capture_output=True))
    print(json.dumps(out, indent=2))


def _median(runs: int, fn) -> float:
    return round(statistics.median(_timed(fn) for _ in range(runs)), 3)


if __name__ == "__main__":
    main()
