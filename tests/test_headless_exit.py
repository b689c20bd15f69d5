"""Headless commands exit when their work is done (issue 11): no import may race the
interpreter's shutdown. benchmarks/bench_headless.py runs the same loop 20 times per command."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from benchmarks.bench_headless import COMMANDS, clean_env, fresh_vault, run_once
from tests.conftest import git

# A hang never ends; a busy machine takes a while: the bound tells the two apart, it does not
# time the command (benchmarks/bench_headless.py does).
EXIT_WITHIN_S = 120.0


# Each run imports litellm (~4 s of CPU, twice that on a busy machine): one run per command
# here (the hang struck 5 runs in 6 before the fix); benchmarks/bench_headless.py runs 20.
# test_the_readmes_local_server_recipe covers a query through a real HTTP model.
@pytest.mark.parametrize("command", ["query", "ingest"])
def test_headless_runs_exit_when_done(command, tmp_path):
    env = clean_env(tmp_path / "home")  # a new user's: no LITELLM_LOCAL_MODEL_COST_MAP either
    vault = fresh_vault(tmp_path)
    elapsed, code, stderr = run_once(COMMANDS[command], vault, env, EXIT_WITHIN_S)
    assert code is not None, f"{command} still running after {elapsed:.1f} s"
    assert code == 0 and "Traceback" not in stderr, stderr
    if command == "ingest":  # the work was done, not only the exit
        assert git(vault, "log", "--oneline").count("\n") == 2


def test_a_command_that_fails_before_the_model_imports_no_litellm(tmp_path):
    # Nothing imports litellm in the background: an early failure neither waits for it nor
    # races the interpreter's shutdown with an import (-X importtime lists every import).
    vault = fresh_vault(tmp_path)
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c",
                           "import sys; from wiki_tui.cli import main; sys.exit(main())",
                           "ingest", "raw/nope.md", "--yes"], cwd=vault,
                          env=clean_env(tmp_path / "home"), capture_output=True, text=True,
                          timeout=EXIT_WITHIN_S)
    assert proc.returncode == 1 and "no such file" in proc.stderr
    assert not re.search(r"\|\s+litellm", proc.stderr) and "Traceback" not in proc.stderr
