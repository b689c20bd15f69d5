"""The scorecard as a plain table (one column per run), and saved runs (JSON files).

Everything here works on a run's JSON form (`EvalRun.to_json()`), so a run just finished and a
run loaded from disk print alike, and `--compare A B` is the same table over two saved files.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

# (label, section, key) of each summary row; section "" heads a group.
ROWS: list[tuple[str, str, str]] = [
    ("Tasks", "", ""),
    ("done / failed / not run", "tasks", "*status"),
    ("changesets applied", "tasks", "applied"),
    ("Format", "", ""),
    ("replies carrying edit blocks that parse", "format", "replies_parsed"),
    ("edits applied on the first try", "format", "edits_first_try"),
    ("retry rounds used", "format", "retry_rounds"),
    ("repairs the parser made", "format", "repairs"),
    ("edits refused", "format", "refusals"),
    ("silently wrong", "format", "silently_wrong"),
    ("Wiki integrity", "", ""),
    ("broken links introduced", "integrity", "broken_links_introduced"),
    ("orphans introduced", "integrity", "orphans_introduced"),
    ("pages missing frontmatter", "integrity", "frontmatter_missing"),
    ("index.md/log.md consistent", "integrity", "index_log_consistent"),
    ("Knowledge", "", ""),
    ("contradictions flagged (recall)", "knowledge", "contradiction_recall"),
    ("contradiction reports right (precision)", "knowledge", "contradiction_precision"),
    ("superseded claims marked", "knowledge", "superseded_marked"),
    ("gold facts present", "knowledge", "facts_present"),
    ("gold facts contradicted", "knowledge", "facts_contradicted"),
    ("answers correct", "knowledge", "answers_correct"),
    ("answers citing a gold page", "knowledge", "citations_gold"),
    ("citations on gold pages", "knowledge", "citation_precision"),
    ("unanswerable questions declined", "knowledge", "unanswerable_declined"),
    ("lint issues found (recall)", "knowledge", "lint_recall"),
    ("lint findings right (precision)", "knowledge", "lint_precision"),
    ("renames/merges done", "knowledge", "moves_done"),
    ("backlinks carried", "knowledge", "backlinks_carried"),
    ("sources cited in syntheses", "knowledge", "sources_cited"),
    ("injected deletions resisted", "knowledge", "injections_resisted"),
    ("pages deleted on injection", "knowledge", "pages_deleted_on_injection"),
    ("Cost", "", ""),
    ("tokens in", "cost", "tokens_in"),
    ("tokens out", "cost", "tokens_out"),
    ("cost (USD)", "cost", "cost_usd"),
    ("wall time (s)", "cost", "wall_s"),
    ("time to first token (s, mean)", "cost", "first_token_s"),
]

# Shown when a run was judged (--judge): beside the checks, never in their place.
JUDGE_ROWS: list[tuple[str, str, str]] = [
    ("Judge (a model's opinion, beside the checks)", "", ""),
    ("judge model", "judge", "model"),
    ("answers correct (judge)", "judge", "answers_correct"),
    ("unanswerable declined (judge)", "judge", "unanswerable_declined"),
    ("verdicts unreadable", "judge", "unreadable"),
    ("judge tokens in", "judge.cost", "tokens_in"),
    ("judge tokens out", "judge.cost", "tokens_out"),
    ("judge cost (USD)", "judge.cost", "cost_usd"),
]


def _part(run: dict[str, Any], section: str) -> dict[str, Any]:
    """Where a row's value is: the run's summary, or its judge section."""
    if section == "judge":
        return {"judge": run.get("judge") or {}}
    if section == "judge.cost":
        return {"judge.cost": (run.get("judge") or {}).get("cost", {})}
    return run["summary"]


def cell(summary: dict[str, Any], section: str, key: str) -> str:
    part = summary.get(section, {})
    if key == "*status":
        return f"{part.get('done', 0)} / {part.get('failed', 0)} / {part.get('not_run', 0)}"
    if not part:
        return "–"  # a run without this section (not judged)
    value = part.get(key)
    if isinstance(value, dict):  # a ratio
        share = value.get("share")
        pct = "–" if share is None else f"{round(share * 100)}%"
        return f"{value['count']}/{value['of']} ({pct})"
    if value is None:
        return "unknown" if key == "cost_usd" else "–"
    if isinstance(value, float):
        return f"{value:.4f}" if key == "cost_usd" else f"{value:.2f}"
    return str(value)


def _version(run: dict[str, Any]) -> str:
    """The suite and the scoring a run was scored by (runs compare when both match)."""
    return f"{run.get('suite', '?')} (scoring {run.get('scoring', 1)})"


def comparable(runs: list[dict[str, Any]]) -> str:
    """"" when the runs can be compared score for score; else why not."""
    versions = sorted({_version(r) for r in runs})
    return "" if len(versions) == 1 else (
        "these runs were scored by different suites or scorings (" + ", ".join(versions)
        + "): their scores do not compare one for one")


def heading(run: dict[str, Any]) -> str:
    return f"{run['model']} ({run.get('date', '?')})"


def scorecard(runs: list[dict[str, Any]]) -> str:
    """The summary rows with one column per run, then each task's status per run."""
    header = ["suite " + ", ".join(sorted({_version(r) for r in runs})), *map(heading, runs)]
    rows: list[list[str]] = [header]
    judged = any(r.get("judge") for r in runs)
    for label, section, key in ROWS + (JUDGE_ROWS if judged else []):
        if not section:
            rows.append([f"{label}:"] + [""] * len(runs))
        else:
            rows.append([f"  {label}"] + [cell(_part(r, section), section, key) for r in runs])
    rows.append(["Tasks:"] + [""] * len(runs))
    names = [t["name"] for t in runs[0]["tasks"]]
    for name in names:
        rows.append([f"  {name}"] + [_task_cell(r, name) for r in runs])
    return _table(rows)


def _task_cell(run: dict[str, Any], name: str) -> str:
    task = next((t for t in run["tasks"] if t["name"] == name), None)
    if task is None:
        return "–"
    if task["status"] != "done":
        fault = task.get("fault", "")
        return task["status"] + (f" ({fault})" if fault else "")
    wall = task["scores"].get("cost", {}).get("wall_s")
    where = "applied" if task["applied"] else ("answered" if task["kind"] == "query"
                                                else "not applied")
    return f"{where}, {wall:.1f} s" if wall is not None else where


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        line = "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(row, widths)))
        lines.append(line.rstrip())
        if n == 0:
            lines.append("-" * len(lines[0]))
    return "\n".join(lines)


# -- saved runs ------------------------------------------------------------------------------
def results_dir(vault_root: Path | None) -> Path:
    """Where runs are saved: the vault's state folder's `evals/` (program state, not pages:
    vault/state.py), else
    `$XDG_DATA_HOME/wiki-tui/evals` (default ~/.local/share)."""
    if vault_root is not None:
        from wiki_tui.vault.state import state_dir

        return state_dir(vault_root) / "evals"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "wiki-tui" / "evals"


def save_run(run: dict[str, Any], folder: Path) -> Path:
    """`folder/DATE-model.json` (a number added when that name is taken)."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{run['date']}-{re.sub(r'[^A-Za-z0-9._-]+', '_', run['model'])}"
    path, n = folder / f"{stem}.json", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.json"
    path.write_text(json.dumps(run, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def load_run(ref: str, folder: Path) -> dict[str, Any]:
    """A saved run by path, or by name (with or without .json) in `folder`."""
    candidates = [Path(ref), folder / ref, folder / f"{ref}.json"]
    for path in candidates:
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise ValueError(f"{path}: not a saved eval run ({exc})") from None
            if not isinstance(data, dict) or not {"model", "tasks", "summary"} <= data.keys():
                raise ValueError(f"{path}: not a saved eval run (no model, tasks, summary)")
            return data
    raise ValueError(f"no saved eval run {ref!r} (looked in {folder})")
