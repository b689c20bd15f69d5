"""Headless commands exit when their work is done (prints JSON).

    uv run python benchmarks/bench_headless.py [--runs N] [--timeout S] [--cost-map-env]

Runs `wiki-tui query`, `ingest raw/X --yes` (each on a fresh git copy of the sample vault),
`lint` and `search` N times each as real subprocesses, in the vault folder as a person would,
with the offline engine and without LITELLM_LOCAL_MODEL_COST_MAP (people do not set it; the
program must). Per command: median and max wall time from launch to exit, and how many runs
were still alive after --timeout seconds (killed; must be 0), exited non-zero, or printed a
Python traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SOURCE = "raw/french-chronometers.md"
COMMANDS = {
    "query": ["query", "what is in this wiki"],
    "ingest": ["ingest", SOURCE, "--yes"],
    "lint": ["lint"],
    "search": ["search", "chronometer"],
}
# lint exits 1: the sample vault holds one deliberately unresolved link.
EXPECTED_CODES = {"lint": (0, 1)}


def wiki_tui_command() -> list[str]:
    """The installed `wiki-tui` script beside this interpreter, else the same entry point."""
    script = Path(sys.executable).with_name("wiki-tui")
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from wiki_tui.cli import main; sys.exit(main())"]


def clean_env(home: Path, cost_map_env: bool = False) -> dict[str, str]:
    """The environment of a new user: no model configured, no config, no litellm switches."""
    env = dict(os.environ)
    for name in ("WIKI_TUI_MODEL", "WIKI_TUI_API_BASE", "OPENAI_API_KEY",
                 "LITELLM_LOCAL_MODEL_COST_MAP", "PYTEST_CURRENT_TEST"):
        env.pop(name, None)
    env["HOME"] = str(home)
    env["XDG_CONFIG_HOME"] = str(home / ".config")
    if cost_map_env:
        env["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    return env


def fresh_vault(parent: Path) -> Path:
    """A new git copy of the sample vault (what `wiki-tui demo` makes)."""
    from wiki_tui.cli.app_commands import make_demo_vault

    vault = make_demo_vault(Path(tempfile.mkdtemp(dir=parent)) / "vault")
    for key, value in (("user.name", "bench"), ("user.email", "bench@wiki-tui.invalid")):
        subprocess.run(["git", "config", key, value], cwd=vault, check=True)  # HOME is isolated
    return vault


def run_once(args: list[str], vault: Path, env: dict[str, str], timeout: float
             ) -> tuple[float, int | None, str]:
    """(wall seconds to exit, exit code, stderr); the code is None when the run was killed at
    `timeout` (its work may be done, but it did not exit)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        proc = subprocess.Popen([*wiki_tui_command(), *args], cwd=vault, env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        try:
            code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            code = None
        elapsed = time.perf_counter() - start
        err.seek(0)
        return elapsed, code, err.read()


def bench(runs: int, timeout: float, cost_map_env: bool) -> dict:
    result: dict = {"runs": runs, "timeout_s": timeout,
                    "LITELLM_LOCAL_MODEL_COST_MAP_set": cost_map_env}
    with tempfile.TemporaryDirectory() as tmp:
        parent = Path(tmp)
        env = clean_env(parent / "home", cost_map_env)
        shared = fresh_vault(parent)
        for name, argv in COMMANDS.items():
            times, timed_out, failed, tracebacks = [], 0, 0, 0
            for _ in range(runs):
                vault = fresh_vault(parent) if name == "ingest" else shared
                elapsed, code, stderr = run_once(argv, vault, env, timeout)
                times.append(elapsed)
                tracebacks += "Traceback" in stderr
                if code is None:
                    timed_out += 1
                elif code not in EXPECTED_CODES.get(name, (0,)):
                    failed += 1
            result[name] = {"median_s": round(statistics.median(times), 2),
                            "max_s": round(max(times), 2),
                            "timed_out": timed_out, "failed": failed,
                            "tracebacks": tracebacks}
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=40.0,
                        help="seconds a run may take before it counts as hung")
    parser.add_argument("--cost-map-env", action="store_true",
                        help="set LITELLM_LOCAL_MODEL_COST_MAP=True (a user would not)")
    options = parser.parse_args()
    print(json.dumps(bench(options.runs, options.timeout, options.cost_map_env), indent=2))


if __name__ == "__main__":
    main()
