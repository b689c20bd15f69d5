"""`wiki-tui ingest PATH... | --new`: one ingest operation per source, in a stable order.

Each source gets its own changeset, review, commit and log.md entry, and is applied (with --yes)
before the next starts, so the next sees the pages it wrote. A source's changeset is applied
whole or not at all (see agent_commands). The batch stops at the first source that fails
(exit 1) or is not applied (exit 3: no --yes and no terminal, the person said no, a held
schema edit), naming it and the sources not run; with --keep-going it runs the rest and exits 1
if any failed, else 3 if any was not applied. Ctrl+C always stops it (the current source is
not applied; the ones before it stay applied).

Progress goes to stderr: a line per source when stderr is not a terminal, a bar on a terminal.
With --json each event carries `"source"`, and a batch adds `Skipped`, `SourceDone` and
`BatchDone` events.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wiki_tui.cli.agent_commands import consume_events, review_and_apply, json_line
from wiki_tui.cli.common import CliError, console_err

_STATUS = {0: "applied", 1: "failed", 3: "not applied"}


@dataclass
class SourceResult:
    path: str
    code: int  # the exit code of this source alone: 0, 1 or 3
    status: str  # applied | no changes | failed | not applied
    tokens: int
    seconds: float
    interrupted: bool = False


def run_batch(args: Any, vault: Any, settings: Any) -> int:
    from wiki_tui.agent.context.sources import SourceError, resolve_sources

    try:
        found = resolve_sources(vault, args.sources, new=args.new, cwd=Path.cwd())
    except SourceError as exc:
        raise CliError(str(exc), 2) from None
    for path, why in found.skipped:
        _say(args, f"skipped {path}: {why}", {"event": "Skipped", "source": path, "reason": why})
    if not found.paths:
        why = "every source named is ingested already" if args.new else "no source named"
        _say(args, f"nothing to ingest: {why}", {"event": "BatchDone", "applied": [],
                                                  "failed": [], "not_applied": [],
                                                  "not_run": []})
        return 0
    return asyncio.run(_ingest_all(args, vault, settings, found.paths, found.batch))


async def _ingest_all(args: Any, vault: Any, settings: Any, paths: list[str],
                      batch: bool) -> int:
    progress = Progress(len(paths), shown=batch)
    results: list[SourceResult] = []
    for number, path in enumerate(paths, 1):
        progress.start(number, path)
        result = await _ingest_one(args, vault, settings, path)
        results.append(result)
        progress.finish(number, result)
        if batch and args.json:
            json_line(args, {"event": "SourceDone", "number": number, "total": len(paths),
                             "status": result.status, "exit": result.code,
                             "tokens": result.tokens, "seconds": round(result.seconds, 3)})
        if result.interrupted or (result.code and not args.keep_going):
            break
    args.json_tag = {}
    return _summary(args, paths, results) if batch else results[0].code


async def _ingest_one(args: Any, vault: Any, settings: Any, path: str) -> SourceResult:
    """One source: its operation, then its review and apply, before the next source starts."""
    from wiki_tui.agent.operations import ingest

    args.json_tag = {"source": path}
    started = time.monotonic()
    outcome = await consume_events(args, ingest(vault, path, settings))
    code = 1 if outcome.get("failed") else 0
    changeset = outcome.get("changeset")
    if not code and changeset is not None:
        try:
            code = review_and_apply(args, vault, changeset)
        except CliError as exc:  # the apply failed: nothing of this changeset was written
            console_err.print(str(exc), markup=False, soft_wrap=True)
            code = exc.code
    usage = outcome.get("usage")
    tokens = usage.prompt_tokens + usage.completion_tokens if usage else 0
    status = _STATUS.get(code, "failed")
    if code == 0 and changeset is None:
        status = "no changes"
    return SourceResult(path, code, status, tokens, time.monotonic() - started,
                        bool(outcome.get("interrupted")))


def _summary(args: Any, paths: list[str], results: list[SourceResult]) -> int:
    failed = [r.path for r in results if r.code == 1]
    not_applied = [r.path for r in results if r.code == 3]
    done = [r.path for r in results if r.code == 0]
    not_run = paths[len(results):]
    line = f"ingested {len(done)} of {len(paths)} source(s)"
    if failed:
        line += f"; failed: {', '.join(failed)}"
    if not_applied:
        line += f"; not applied: {', '.join(not_applied)}"
    if not_run:
        line += f"; not run: {', '.join(not_run)}"
    _say(args, line, {"event": "BatchDone", "applied": done, "failed": failed,
                      "not_applied": not_applied, "not_run": not_run})
    return 1 if failed else 3 if not_applied else 0


def _say(args: Any, line: str, event: dict) -> None:
    """A batch message: a JSON event with --json, a line on stderr otherwise."""
    if args.json:
        json_line(args, event)
    else:
        console_err.print(line, markup=False, soft_wrap=True, highlight=False)


class Progress:
    """Where the batch is, on stderr: `[3/12] raw/x.md` lines, or a bar on a terminal (printed
    once per source, not redrawn: the model's reply and the diffs scroll between them)."""

    def __init__(self, total: int, *, shown: bool = True) -> None:
        self.total = total
        self.shown = shown
        self.tokens = 0
        self.bar = console_err.is_terminal

    def start(self, number: int, path: str) -> None:
        if not self.shown:
            return
        head = f"[{number}/{self.total}] {path}"
        if self.tokens:
            head += f" · {self.tokens:,} tokens so far"
        self._show(number - 1, head)

    def finish(self, number: int, result: SourceResult) -> None:
        self.tokens += result.tokens
        if not self.shown:
            return
        self._show(number, f"[{number}/{self.total}] {result.path}: {result.status} in "
                           f"{result.seconds:.1f} s · {self.tokens:,} tokens so far")

    def _show(self, completed: int, text: str) -> None:
        if not self.bar:
            console_err.print(text, markup=False, highlight=False, soft_wrap=True)
            return
        from rich.progress_bar import ProgressBar
        from rich.table import Table

        row = Table.grid(padding=(0, 1))
        row.add_row(ProgressBar(total=self.total, completed=completed, width=24), text)
        console_err.print(row)
