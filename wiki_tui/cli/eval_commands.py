"""`wiki-tui eval`: score models on the wiki's own work (wiki_tui/eval, docs/eval.md).

    wiki-tui eval --model M [--model M2 ...] [--suite v2] [--judge J] [--json]
    wiki-tui eval --compare RUN_A RUN_B

Each model runs the whole suite on scratch copies of the bundled eval vault (the vault it was
started in is never touched; none is needed, but `--vault DIR`, or starting in a vault, reads
its config like every other command). Runs are saved as DATE-model.json. Exit codes: 0 every
task ran; 1 a provider failed mid-run (the finished tasks are scored and saved); 2 misuse (no
model, an unknown suite, a saved run that cannot be read, --vault not a vault); 130 Ctrl-C (the
finished tasks are scored and saved).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from wiki_tui.cli.common import VAULT_MARKERS, CliError, console, console_err, vault_root


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "eval", help="score models on the wiki's own work (a fixed task suite, side by side)",
        description="Run the eval suite against each --model on a scratch copy of a bundled "
                    "vault and print a scorecard (docs/eval.md defines every score).")
    parser.add_argument("--model", action="append", default=None, metavar="MODEL",
                        help="litellm model string; repeat to compare models side by side "
                             "('offline' scores the built-in offline engine)")
    parser.add_argument("--api-base", default=None, help="the model server's URL")
    parser.add_argument("--suite", default=None,
                        help="the task suite (default: v2; v1 is kept for comparison)")
    parser.add_argument("--json", action="store_true",
                        help="print the run as one JSON object (a list for several models)")
    parser.add_argument("--compare", nargs=2, metavar=("RUN_A", "RUN_B"), default=None,
                        help="show two saved runs side by side (file paths or names)")
    parser.add_argument("--results", type=Path, default=None, metavar="DIR",
                        help="where runs are saved (default: the vault's .wiki-tui/evals, "
                             "else $XDG_DATA_HOME/wiki-tui/evals)")
    parser.add_argument("--no-save", action="store_true", help="do not save the runs")
    parser.add_argument("--judge", default=None, metavar="MODEL",
                        help="also have MODEL grade each answer against a rubric (shown beside "
                             "the scores, never in their place; its own cost line)")
    parser.add_argument("--judge-api-base", default=None, metavar="URL",
                        help="the judge's server (default: --api-base, else the config's)")
    parser.set_defaults(func=run_eval_command)


def _vault_or_none(args) -> Path | None:
    """The vault whose config the models come from: `--vault DIR` (read as every reading
    command reads it), else the current folder when it is one, adopted (`AGENTS.md` or
    `.wiki-tui/`) or marked as a vault (a vault is optional)."""
    from wiki_tui.vault.state import is_adopted

    if getattr(args, "vault", None) is not None:
        return vault_root(args)
    root = Path.cwd().resolve()
    return root if is_adopted(root) or any((root / m).exists() for m in VAULT_MARKERS) else None


def run_eval_command(args) -> int:
    from wiki_tui.eval import report

    vault = _vault_or_none(args)
    folder = args.results or report.results_dir(vault)
    if args.compare:
        try:
            runs = [report.load_run(ref, folder) for ref in args.compare]
        except ValueError as exc:
            raise CliError(str(exc), 2) from None
        why = report.comparable(runs)
        if why:
            console_err.print(f"[yellow]note:[/] {why}", highlight=False)
        _print(args, runs)
        return 0
    suite = _suite(args.suite)
    judge = _judge_settings(args, vault)
    runs, code = [], 0
    for settings in _settings(args, vault):
        run = _run_one(settings, suite)
        if judge is not None and not run.interrupted:
            run.judge = _judged(judge, suite, run)
        data = run.to_json()
        runs.append(data)
        if not args.no_save:
            path = report.save_run(data, folder)
            console_err.print(f"saved {path}", markup=False, highlight=False)
        if run.stopped:
            code = 130 if run.interrupted else 1
            console_err.print(f"[bold red]stopped:[/] {run.stopped}", highlight=False)
        if run.interrupted:
            break  # Ctrl-C stops every model still to run
    _print(args, runs)
    return code


def _suite(name: str | None):
    from wiki_tui.eval.suite import DEFAULT_SUITE, SuiteError, load_suite

    try:
        return load_suite(name or DEFAULT_SUITE)
    except SuiteError as exc:
        raise CliError(str(exc), 2) from None


def _settings(args, vault: Path | None) -> list:
    from wiki_tui.agent.config import ConfigError, resolve_settings

    models = args.model if isinstance(args.model, list) else [args.model] if args.model else []
    try:
        if not models:
            settings = resolve_settings(vault, None, args.api_base)
            if settings.source == "no model configured":
                raise CliError("no model configured (" + _looked_at(vault) + "): pass --model "
                               "MODEL (repeat it to compare models), set WIKI_TUI_MODEL, or "
                               "pass --model offline to score the built-in offline engine", 2)
            return [settings]
        return [resolve_settings(vault, m, args.api_base) for m in models]
    except ConfigError as exc:
        raise CliError(str(exc), 2) from None


def _judge_settings(args, vault: Path | None):
    """The judge's settings (--judge MODEL), resolved as a model's are; None without one."""
    if not args.judge:
        return None
    from wiki_tui.agent.config import ConfigError, resolve_settings

    try:
        settings = resolve_settings(vault, args.judge, args.judge_api_base or args.api_base)
    except ConfigError as exc:
        raise CliError(str(exc), 2) from None
    if settings.offline:
        raise CliError("--judge offline: the offline engine is no language model and cannot "
                       "judge answers; pass a model", 2)
    return settings


def _judged(judge, suite, run) -> dict:
    from wiki_tui.eval.judge import run_judge

    console_err.print(f"judging the answers with {judge.model} at {judge.server} ...",
                      markup=False, highlight=False)
    try:
        verdicts = run_judge(judge, suite, run)
    except KeyboardInterrupt:  # the run's scores stand and are saved; nothing more runs
        run.interrupted = True
        run.stopped = run.stopped or "interrupted (Ctrl-C) while judging"
        verdicts = {"model": judge.model, "stopped": "interrupted (Ctrl-C)", "verdicts": []}
    if verdicts["stopped"]:
        console_err.print(f"[yellow]judge:[/] {verdicts['stopped']}", highlight=False)
    return verdicts


def _looked_at(vault: Path | None) -> str:
    """Where a model was looked for."""
    from wiki_tui.agent.config import user_config_path, vault_config_path

    where = ["--model", "WIKI_TUI_MODEL"]
    if vault is not None:
        where.append(str(vault_config_path(vault)))
    where.append(str(user_config_path()))
    return "looked at " + ", ".join(where)


def _run_one(settings, suite):
    from wiki_tui.eval.runner import run_eval

    who = "offline engine" if settings.offline else f"{settings.model} at {settings.server}"
    console_err.print(f"eval suite {suite.name}: {len(suite.tasks)} tasks with {who}",
                      markup=False, highlight=False)
    return run_eval(settings, suite, on_progress=_progress)


def _progress(p) -> None:
    """One line per task as it starts and ends (stderr: --json output stays clean)."""
    if p.phase == "start":
        console_err.print(f"[{p.index}/{p.total}] {p.model}: {p.task.kind} {p.task.name} ...",
                          markup=False, highlight=False)
    elif p.phase != "done":
        console_err.print(f"[{p.index}/{p.total}] {p.task.name} {p.phase}: {p.detail}",
                          markup=False, highlight=False)


def _print(args, runs: list[dict]) -> None:
    from wiki_tui.eval.report import scorecard

    if args.json:
        data = runs[0] if len(runs) == 1 else runs
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return
    console.print(scorecard(runs), markup=False, highlight=False, soft_wrap=True)
