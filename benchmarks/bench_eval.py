"""Eval suite benchmark (prints JSON, medians).

    uv run python benchmarks/bench_eval.py [--runs N] [--suite v2]

- offline_suite_s: the whole suite (v2: 20 tasks; v1: 12) with the built-in offline engine, in
  process, litellm already imported (its import is timed apart: litellm_import_s);
- scripted_<profile>_suite_s: the same suite against the local OpenAI-compatible test server
  (tests/support/llm_server.py) replaying the good, sloppy, wrong and gamed model profiles of
  tests/eval/profiles.py (profiles_v2.py for v2), through litellm's real openai/ provider;
- scoring_s: the scoring alone of one good run (the claim checks over every task), from the
  recorded steps: what the checks add to a run;
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

from tests.eval import profiles, profiles_v2  # noqa: E402
from tests.support.llm_server import LLMServer  # noqa: E402


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--suite", default="v2")
    args = parser.parse_args()
    runs = args.runs

    from wiki_tui.agent.config import AgentSettings
    from wiki_tui.agent.engine.llm import load_litellm
    from wiki_tui.eval.runner import run_eval
    from wiki_tui.eval.suite import load_suite

    suite = load_suite(args.suite)
    names = [t.name for t in suite.tasks]
    scripts = profiles_v2 if suite.name == "v2" else profiles
    out = {"suite": suite.name, "tasks": len(suite.tasks), "runs": runs,
           "litellm_import_s": round(_timed(load_litellm), 3)}
    out["offline_suite_s"] = _median(runs, lambda: run_eval(AgentSettings(), suite))
    with LLMServer() as server:
        for label in ("good", "sloppy", "wrong", "gamed"):
            profile = getattr(scripts, label.upper())
            def one(profile=profile):
                server.queue(*profiles.replies(profile, names))
                run = run_eval(server.settings(timeout=30.0), suite)
                assert not run.stopped, run.stopped
            out[f"scripted_{label}_suite_s"] = _median(runs, one)
    out["scoring_s"] = round(_scoring_time(suite), 4)
    cmd = [str(Path(sys.executable).parent / "wiki-tui"), "eval", "--model", "offline",
           "--suite", suite.name, "--json", "--no-save"]
    out["cli_offline_s"] = _median(runs, lambda: subprocess.run(
        cmd, cwd=ROOT / "benchmarks", check=True, capture_output=True))
    print(json.dumps(out, indent=2))


def _scoring_time(suite) -> float:
    """The knowledge checks of every task, read over the good profile's pages and answers
    (the claim checker is the part a run's scoring adds)."""
    from wiki_tui.eval.claims.check import Claim, declines, read_claim

    texts = [text for replies in profiles_v2.GOOD.values() for text in replies]
    start = time.perf_counter()
    for task in suite.tasks:
        for fact in [*task.facts, *task.answer]:
            claim = Claim.from_json(fact)
            for text in texts:
                read_claim(claim, text)
        if task.unanswerable:
            for text in texts:
                declines(text, Claim.from_json(task.asks))
    return time.perf_counter() - start


def _median(runs: int, fn) -> float:
    return round(statistics.median(_timed(fn) for _ in range(runs)), 3)


if __name__ == "__main__":
    main()
