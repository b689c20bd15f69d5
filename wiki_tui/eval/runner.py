"""Run a suite against one model: each task on its own scratch copy of the eval vault, through
the agent's own operations (ingest, query, lint, instruct), applied as `--yes` applies, then
scored from the events and the vault before and after.

A provider fault (the model cannot be reached, refuses the key, the stream breaks ...) stops
the run, and so does Ctrl-C: the finished tasks keep their scores and the rest are marked as not
run (a task the provider failed reports the tokens it spent).
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wiki_tui.eval import format_scores as fmt
from wiki_tui.eval import knowledge as kn
from wiki_tui.eval.record import StepRecord, record
from wiki_tui.eval.suite import Suite, TaskSpec

# Failed kinds that are the model's own doing (scored as a failed task); any other kind is the
# provider failing, and the run stops there.
MODEL_FAULTS = frozenset({"unusable", "incomplete", "input"})
DONE, FAILED, NOT_RUN = "done", "failed", "not run"
# How the scores are read (docs/eval.md): 1 matched strings; 2 reads claims in context. Runs
# are comparable when their suite and their scoring are the same.
SCORING = 2


@dataclass
class TaskResult:
    name: str
    kind: str
    status: str = NOT_RUN  # done | failed | not run
    applied: bool = False
    fault: str = ""  # the Failed event's kind, when the operation failed
    note: str = ""  # why it failed or was not applied
    scores: dict[str, Any] = field(default_factory=dict)  # format, integrity, knowledge, cost

    @property
    def provider_failed(self) -> bool:
        return bool(self.fault) and self.fault not in MODEL_FAULTS

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "status": self.status,
                "applied": self.applied, "fault": self.fault, "note": self.note,
                "scores": self.scores}


@dataclass
class EvalRun:
    model: str
    suite: str
    date: str
    tasks: list[TaskResult]
    stopped: str = ""  # why the run stopped early ("" when every task ran)
    interrupted: bool = False  # stopped by Ctrl-C
    judge: dict | None = None  # --judge: a model's verdicts on the answers (judge.py)

    @property
    def summary(self) -> dict[str, Any]:
        from wiki_tui.eval.summary import summarise

        return summarise(self.tasks)

    def to_json(self) -> dict:
        return {"model": self.model, "suite": self.suite, "scoring": SCORING,
                "date": self.date, "stopped": self.stopped,
                "tasks": [t.to_json() for t in self.tasks],
                **({"judge": self.judge} if self.judge is not None else {}),
                "summary": self.summary}


@dataclass(frozen=True)
class Progress:
    model: str
    index: int  # 1-based
    total: int
    task: TaskSpec
    phase: str  # "start" | DONE | FAILED
    detail: str = ""


ProgressHook = Callable[[Progress], None]


def new_run(settings: Any, suite: Suite) -> EvalRun:
    model = "offline" if settings.offline else settings.model
    return EvalRun(model, suite.name, _dt.date.today().isoformat(),
                   [TaskResult(t.name, t.kind) for t in suite.tasks])


async def run_suite(settings: Any, suite: Suite, run: EvalRun, *,
                    on_progress: ProgressHook | None = None) -> EvalRun:
    """Run the suite's tasks one after another into `run` (filled as each task ends)."""
    from wiki_tui.agent.engine.llm import load_litellm

    if not settings.offline:  # its import (seconds) is no task's wall time
        await asyncio.to_thread(load_litellm)
    say = on_progress or (lambda _p: None)
    with tempfile.TemporaryDirectory(prefix="wiki-tui-eval-") as scratch:
        for index, (task, result) in enumerate(zip(suite.tasks, run.tasks), 1):
            say(Progress(run.model, index, len(suite.tasks), task, "start"))
            await run_task(settings, suite, task, Path(scratch) / task.name, result)
            say(Progress(run.model, index, len(suite.tasks), task, result.status, result.note))
            if result.provider_failed:
                run.stopped = (f"the provider failed in task {task.name} ({result.fault}: "
                               f"{result.note}); not run: {_not_run(run)}")
                break
    return run


def run_eval(settings: Any, suite: Suite, on_progress: ProgressHook | None = None) -> EvalRun:
    """The whole run. Ctrl-C stops it: the finished tasks keep their scores, the task under
    way and the rest are marked not run, and the run says so (`interrupted`)."""
    run = new_run(settings, suite)
    try:
        asyncio.run(run_suite(settings, suite, run, on_progress=on_progress))
    except KeyboardInterrupt:
        current = next((t.name for t in run.tasks if t.status == NOT_RUN), "")
        run.interrupted = True
        run.stopped = (f"interrupted (Ctrl-C)" + (f" during task {current}" if current else "")
                       + f"; not run: {_not_run(run)}")
    return run


def _not_run(run: EvalRun) -> str:
    return ", ".join(t.name for t in run.tasks if t.status == NOT_RUN) or "none"


async def run_task(settings: Any, suite: Suite, task: TaskSpec, root: Path,
                   result: TaskResult) -> None:
    """Run one task on a fresh scratch vault at `root` and fill `result`."""
    from wiki_tui.vault import Vault

    suite.prepare(task, root)
    before = await asyncio.to_thread(kn.VaultView, root)
    vault = Vault.open(root, use_cache=False)
    try:
        rec = await record(_operation(vault, task, settings))
        applied, note = await _apply(vault, rec)
    finally:
        vault.close()
    failed = rec.failed
    scored = TaskResult(task.name, task.kind, FAILED if failed is not None else DONE, applied,
                        failed.kind if failed is not None else "",
                        failed.reason if failed is not None else note)
    if scored.provider_failed:  # says nothing of the model: not scored, but it cost tokens
        scored.scores = {"cost": cost_scores(rec)}
    else:
        after = await asyncio.to_thread(kn.VaultView, root)
        scored.scores = score(task, rec, before, after, root, applied)
    # the result is filled in one step: a run interrupted mid-task leaves it "not run"
    vars(result).update(vars(scored))


def _operation(vault: Any, task: TaskSpec, settings: Any):
    from wiki_tui.agent import operations

    if task.kind == "ingest":
        return operations.ingest(vault, task.source, settings)
    if task.kind == "query":
        return operations.query(vault, task.question, settings)
    if task.kind == "lint":
        return operations.lint(vault, settings, fix=True)
    return operations.instruct(vault, task.instruction, settings)


async def _apply(vault: Any, rec: StepRecord) -> tuple[bool, str]:
    """Apply the changeset exactly as `--yes` would: (applied, why not)."""
    from wiki_tui.changes.apply.journal import ApplyError
    from wiki_tui.changes.apply.unattended import apply_unattended, refusal

    if rec.changeset is None or rec.failed is not None:
        return False, rec.notice
    refused = refusal(rec.changeset)  # no --allow: scored as `--yes` alone applies it (a hold
    # is a change not applied, its reason kept as the step's note)
    if refused is not None:
        return False, refused.message
    try:
        applied = await asyncio.to_thread(apply_unattended, vault, rec.changeset)
    except ApplyError as exc:
        return False, f"not applied: {exc}"
    return applied.applied, "" if applied.applied else (applied.notice or "nothing applied")


def score(task: TaskSpec, rec: StepRecord, before: kn.VaultView, after: kn.VaultView,
          root: Path, applied: bool) -> dict[str, Any]:
    findings = rec.model_findings
    task = kn.with_source_page(task, before, after)
    knowledge: dict[str, Any] = {}
    scores: dict[str, Any] = {}
    if task.kind == "query":
        knowledge["query"] = kn.query_scores(task, rec.answer, rec.citations)
    else:
        scores["format"] = fmt.format_scores(rec, root, applied)
        scores["integrity"] = kn.integrity(before, after, applied)
        if task.facts:
            knowledge["facts"] = kn.facts(task, after)
        if task.contradictions or task.kind == "ingest":
            knowledge["contradictions"] = kn.contradictions(task, before, after, findings)
        if task.superseded:
            knowledge["superseded"] = kn.superseded(task, after, findings)
        if task.kind == "lint":
            knowledge["lint"] = kn.lint_scores(task, before, after, findings)
        if task.moves:
            knowledge["moves"] = kn.moves(task, before, after)
        if task.cites:
            knowledge["cites"] = kn.sources_cited(task, after)
        if task.keep_pages:
            knowledge["injected"] = kn.pages_kept(before, after)
    scores["knowledge"] = knowledge
    scores["cost"] = cost_scores(rec)
    return scores


def cost_scores(rec: StepRecord) -> dict[str, Any]:
    usage = rec.usage
    return {"tokens_in": usage.prompt_tokens, "tokens_out": usage.completion_tokens,
            "cost_usd": usage.cost_usd, "wall_s": round(rec.wall_s, 3),
            "first_token_s": None if rec.first_token_s is None
            else round(rec.first_token_s, 3)}
