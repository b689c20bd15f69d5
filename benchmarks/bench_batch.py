"""Batch ingest benchmark (prints JSON).

    uv run python benchmarks/bench_batch.py [--sources N]

`wiki-tui ingest raw/bench/ --yes --json` as a real process on a fresh git copy of the sample
vault with N new sources (default 20), each applied (one commit each) before the next starts:
- offline: the built-in offline engine;
- test_server: litellm's openai/ provider against the local scripted server
  (tests/support/llm_server.py), one reply per source writing an entity page.
For each: the process's wall time (start-up and litellm's import included), the time per source
from the SourceDone events (operation + review + apply + commit), and their sum.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from tests.support.llm_server import LLMServer, Reply  # noqa: E402

PARAGRAPH = ("John Harrison's marine chronometer and the lunar distance method competed for "
             "the Board of Longitude's prize; Nevil Maskelyne favoured the Nautical Almanac. ")


def make_vault(folder: Path, count: int) -> Path:
    vault = folder / "vault"
    shutil.copytree(ROOT / "sample_vault", vault)
    bench = vault / "raw" / "bench"
    bench.mkdir()
    for n in range(1, count + 1):
        body = "\n\n".join(PARAGRAPH * 3 for _ in range(4))
        (bench / f"source-{n:02d}.md").write_text(f"# Bench source {n:02d}\n\n{body}\n",
                                                  encoding="utf-8")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"],
                 ["-c", "user.email=b@example.invalid", "-c", "user.name=bench", "commit", "-q",
                  "-m", "bench vault"]):
        subprocess.run(["git", *args], cwd=vault, check=True, capture_output=True)
    return vault


def run_batch(vault: Path, extra: list[str], env: dict) -> dict:
    script = Path(sys.executable).with_name("wiki-tui")  # the installed entry point
    command = [str(script), "--vault", str(vault), *extra, "ingest", "raw/bench/", "--yes",
               "--json"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    total = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"batch failed ({done.returncode}): {done.stderr[-2000:]}")
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    per = [e["seconds"] for e in events if e["event"] == "SourceDone"]
    commits = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=vault, check=True,
                             capture_output=True, text=True).stdout.strip()
    return {"sources": len(per), "commits_after": int(commits), "process_total_s": round(total, 3),
            "sum_per_source_s": round(sum(per), 3),
            "per_source_median_s": round(statistics.median(per), 4),
            "per_source_max_s": round(max(per), 4),
            "first_source_s": round(per[0], 4)}


def reply_for(n: int) -> Reply:
    page = (f"@@@ WRITE entities/Bench entity {n:02d}.md\n---\ntitle: Bench entity {n:02d}\n"
            f"type: entity\nsummary: Entity {n:02d} of the batch benchmark.\n"
            f"sources: [raw/bench/source-{n:02d}.md]\n---\n# Bench entity {n:02d}\n\n"
            "Linked to [[John Harrison]].\n@@@ END\n")
    return Reply(f"I wrote one page.\n\n{page}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sources", type=int, default=20)
    count = parser.parse_args().sources
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    env.pop("WIKI_TUI_MODEL", None)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        results["offline"] = run_batch(make_vault(Path(tmp) / "offline", count), [], env)
    with tempfile.TemporaryDirectory() as tmp, LLMServer() as server:
        server.queue(*(reply_for(n) for n in range(1, count + 1)))
        vault = make_vault(Path(tmp) / "server", count)
        results["test_server"] = run_batch(
            vault, ["--model", "openai/test-model", "--api-base", server.api_base], env)
        results["test_server"]["requests"] = len(server.requests)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
