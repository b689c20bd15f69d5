"""The offline engine's budgets (prints JSON, medians).

    uv run python benchmarks/bench_offline.py [--runs N]

- query_process_s: `wiki-tui query "..."` with the offline engine on a copy of sample_vault, a
  whole process from launch to exit; import_textual_s: `python -c "import textual"` in the same
  run; query_vs_textual: their ratio (budget <= 4);
- query_imports_litellm: whether that process imported litellm (`-X importtime`; must be false);
- ingest_10kb_s: the offline ingest of a 10 KB markdown source in a running process (the
  vault open, the engine's modules imported: after start-up), from the call to ChangesetReady
  (budget <= 1 s); ingest_10kb_pages: how many files its changeset holds.
The load average is printed beside the numbers: on a busy machine they are not the budget's.
"""

from __future__ import annotations

import argparse
import asyncio
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

QUESTION = "Who made K1 and when?"
_CLI = "import sys; from wiki_tui.cli import main; sys.exit(main())"


def clean_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("WIKI_TUI_MODEL", "WIKI_TUI_API_BASE", "PYTEST_CURRENT_TEST")}
    env["HOME"] = str(home)
    env["XDG_CONFIG_HOME"] = str(home / ".config")
    return env


def timed(cmd: list[str], cwd: Path, env: dict) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    return time.perf_counter() - start, done


def query_process(vault: Path, env: dict, runs: int) -> dict:
    query, textual, litellm = [], [], False
    for _ in range(runs):  # interleaved: both see the same load
        t, done = timed([sys.executable, "-c", "import textual"], vault, env)
        textual.append(t)
        t, done = timed([sys.executable, "-X", "importtime", "-c", _CLI, "query", QUESTION],
                        vault, env)
        if done.returncode != 0:
            raise SystemExit(f"query failed: {done.stderr[-500:]}")
        litellm = litellm or any(line.rstrip().endswith("| litellm")
                                 for line in done.stderr.splitlines())
        query.append(t)
    # a second set without -X importtime (which slows imports down) for the time itself
    plain = []
    for _ in range(runs):
        t, done = timed([sys.executable, "-c", _CLI, "query", QUESTION], vault, env)
        plain.append(t)
    q, x = statistics.median(plain), statistics.median(textual)
    return {"query_process_s": round(q, 3), "import_textual_s": round(x, 3),
            "query_vs_textual": round(q / x, 2), "query_imports_litellm": litellm}


def make_source(size: int = 10_000) -> str:
    """A 10 KB markdown source: sections of prose naming people, places and existing pages."""
    parts = ["# A Survey of Sea Clocks\n",
             "This survey follows the makers of sea clocks and the trials that judged them."]
    n = 0
    while sum(len(p) for p in parts) < size:
        n += 1
        parts.append(f"\n## Trial {n}\n\nIn 17{60 + n % 40} the Board of Longitude sent a "
                     f"timekeeper by Thomas Mudge to sea aboard HMS Tartar. The astronomer "
                     f"William Bayly compared it with the lunar distance method each day, and "
                     f"John Harrison's H4 was the standard it was judged against. The voyage "
                     f"went from Portsmouth to the West Indies and back; the error after "
                     f"{n * 7} days was {n % 9 + 1} minutes of time.\n")
    return "\n".join(parts)[:size]


def ingest_in_process(vault_root: Path, runs: int) -> dict:
    from wiki_tui.agent.config import AgentSettings
    from wiki_tui.agent.events import ChangesetReady, Failed
    from wiki_tui.agent.operations import ingest
    from wiki_tui.vault import Vault

    (vault_root / "raw/survey.md").write_text(make_source(), encoding="utf-8")
    vault = Vault.open(vault_root)

    async def once() -> tuple[float, int]:
        start = time.perf_counter()
        async for event in ingest(vault, "raw/survey.md", AgentSettings()):
            if isinstance(event, ChangesetReady):
                return time.perf_counter() - start, len(event.changeset.files)
            if isinstance(event, Failed):
                raise SystemExit(f"ingest failed: {event.reason}")
        raise SystemExit("no changeset")

    asyncio.run(once())  # warm: the first call imports the engine's modules (start-up)
    times, files = [], 0
    for _ in range(runs):
        t, files = asyncio.run(once())
        times.append(t)
    return {"ingest_10kb_s": round(statistics.median(times), 3), "ingest_10kb_pages": files,
            "ingest_source_bytes": len(make_source().encode())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-offline-") as tmp:
        vault = Path(tmp) / "vault"
        shutil.copytree(ROOT / "sample_vault", vault)
        env = clean_env(Path(tmp) / "home")
        result = {"load_average_before": [round(x, 2) for x in os.getloadavg()]}
        result.update(query_process(vault, env, args.runs))
        result.update(ingest_in_process(vault, args.runs))
        result["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
        result["budgets"] = {"query_vs_textual": 4.0, "ingest_10kb_s": 1.0}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
