"""A task suite as data: `suite_vN/suite.json` (the tasks and their gold answers), `vault/` (the
eval vault every task starts from) and `NAME_overlay/` folders (files laid over it for the
tasks whose `vault` is NAME: `lint` in v1; `lint`, `sourced` and `notes` in v2).

Each task starts from a fresh scratch copy, so its scores do not depend on how earlier tasks
went; the copy lives in a temporary folder, never in the person's vault.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wiki_tui.vault.layout import git_commit_files

SUITES_DIR = Path(__file__).resolve().parent
DEFAULT_SUITE = "v2"
KINDS = ("ingest", "query", "lint", "instruct")


class SuiteError(Exception):
    """A suite that does not exist or cannot be read."""


@dataclass(frozen=True)
class TaskSpec:
    name: str
    kind: str  # ingest | query | lint | instruct
    vault: str = "base"  # base | NAME (the base vault with NAME_overlay/ laid over it)
    source: str = ""  # ingest: raw/FILE
    question: str = ""  # query
    instruction: str = ""  # instruct
    answer: tuple[dict, ...] = ()  # query: claims {"value", "kind", "about"} it must assert
    cite: tuple[str, ...] = ()  # query: pages a good answer cites (any of them)
    unanswerable: bool = False  # query: the wiki cannot answer; the right reply says so
    asks: dict = field(default_factory=dict)  # unanswerable: {"kind", "about"} of the value asked
    facts: tuple[dict, ...] = ()  # {"page", "value", "kind", "about"}: asserted after the step
    contradictions: tuple[dict, ...] = ()  # {"pages": [a, b], "claims": [x, y]}
    superseded: tuple[dict, ...] = ()  # {"page", "old", "new"}
    missing_pages: tuple[dict, ...] = ()  # lint: {"name", "path", "mentioned_on"}
    missing_links: tuple[dict, ...] = ()  # lint: {"page", "target"}
    moves: dict = field(default_factory=dict)  # instruct: old path -> new path (rename, merge)
    cites: tuple[dict, ...] = ()  # {"page", "sources": [paths]}: pages it must link to
    keep_pages: bool = False  # the source asks for deletions: the right outcome deletes none

    @property
    def title(self) -> str:
        """What the task is about, in one line (for the progress display)."""
        return self.source or self.question or self.instruction or self.kind


@dataclass(frozen=True)
class Suite:
    name: str
    root: Path
    tasks: tuple[TaskSpec, ...]
    description: str = ""

    def prepare(self, task: TaskSpec, dest: Path) -> Path:
        """A scratch copy of the task's starting vault at `dest` (which must not exist), made
        its own git repository so an apply commits as it does in a person's vault."""
        shutil.copytree(self.root / "vault", dest)
        if task.vault != "base":
            shutil.copytree(self.root / f"{task.vault}_overlay", dest, dirs_exist_ok=True)
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=dest, check=True,
                       capture_output=True)  # its own, even when the temp folder is in a repo
        git_commit_files(dest, ["."], "eval: the task's starting vault")
        return dest


def available_suites() -> list[str]:
    return sorted(p.name.removeprefix("suite_") for p in SUITES_DIR.glob("suite_*")
                  if (p / "suite.json").is_file())


def load_suite(name: str = DEFAULT_SUITE) -> Suite:
    root = SUITES_DIR / f"suite_{name}"
    if not (root / "suite.json").is_file():
        raise SuiteError(f"no eval suite {name!r} (suites: {', '.join(available_suites())})")
    data = json.loads((root / "suite.json").read_text(encoding="utf-8"))
    tasks = tuple(_task(raw) for raw in data["tasks"])
    for task in tasks:
        if task.vault != "base" and not (root / f"{task.vault}_overlay").is_dir():
            raise SuiteError(f"task {task.name!r}: no {task.vault}_overlay/ in suite {name}")
    return Suite(str(data.get("name", name)), root, tasks, str(data.get("description", "")))


def _task(raw: dict[str, Any]) -> TaskSpec:
    from wiki_tui.eval.claims.check import Claim

    if raw.get("kind") not in KINDS:
        raise SuiteError(f"task {raw.get('name')!r}: kind must be one of {', '.join(KINDS)}")
    values = dict(raw)
    for key in ("answer", "cite", "facts", "contradictions", "superseded", "missing_pages",
                "missing_links", "cites"):
        values[key] = tuple(values.get(key, ()))
    try:  # every gold claim must read as its kind before any task runs
        for claim in [*values["answer"], *values["facts"], *([raw["asks"]] if "asks" in raw
                                                              else [])]:
            Claim.from_json(claim)
        return TaskSpec(**values)
    except (ValueError, TypeError) as exc:
        raise SuiteError(f"task {raw.get('name')!r}: {exc}") from None
