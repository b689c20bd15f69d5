"""Benchmark: nothing is lost whoever else touches the vault; prints JSON.

    uv run python benchmarks/bench_faults.py [--kills 2] [--aimed 30] [--races 10]

On copies of sample_vault/ made git repositories (real files, real git, real subprocesses):

- kills: an apply (a created, an updated and a deleted page; the updated page carries an
  uncommitted hand edit, so the "handedits" step commits too) in a subprocess, SIGKILLed at every
  step boundary of the transaction (`on_step`), `--kills` times per boundary, killing the
  process alone and the whole process group (as closing a terminal does); then `aimed` kills of
  the group a random 0-40 ms into the `stage`/`commit`/`handedits` steps, while git runs and may
  hold .git/index.lock. After each, the next command recovers (`recover()`), and a further apply
  must succeed. Outcomes: all_old (files as before, the hand edit still on disk, perhaps now
  committed on its own; git status shows nothing else), all_new (applied whole, status clean),
  stuck (the later apply failed or recovery raised), other. stuck and other must be 0.
- races: two subprocesses open the vault, then apply at the same instant (one creates a page, the
  other creates one and deletes one); index.md of each of the two commits is checked against that
  commit's tree. wrong must be 0.
- outside_edits: a pending MODIFY and a pending DELETE, then another program changes the file
  (content, CRLF, delete, rename, chmod, atomic replace, touch) before the apply: the outcome
  of each (conflict = not written and reported; applied) and whether the outside bytes survived.
- hand_edits: uncommitted edits of the person to a page, log.md, index.md, an untracked page, and
  an outside edit merged in review: are the person's bytes there after the apply and after undo.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wiki_tui.changes.apply.index_md import NOT_LISTED  # noqa: E402
from wiki_tui.changes.apply.journal import apply_changeset, rebase_conflict, recover, undo_last
from wiki_tui.changes.apply.logmd import link_target  # noqa: E402
from wiki_tui.changes.model import CREATE, DELETE, MODIFY, Changeset, FileChange  # noqa: E402
from wiki_tui.changes.apply.transaction import STEPS, journal_path  # noqa: E402
from wiki_tui.vault import Vault  # noqa: E402

DEAD = "concepts/Dead reckoning.md"
GONE = "entities/Scilly naval disaster of 1707.md"
NEW = "concepts/Gnomon.md"
HAND = b"A line the person wrote by hand.\n"
PAGE = "---\ntitle: {t}\ntype: concept\nsummary: A bench page.\n---\n# {t}\n\nText.\n"


def git(root: Path, *args: str, check: bool = True) -> str:
    return subprocess.run(["git", *args], cwd=root, check=check, capture_output=True,
                          text=True).stdout


def make_template(base: Path) -> Path:
    root = base / "template"
    shutil.copytree(ROOT / "sample_vault", root)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "bench@example.invalid")
    git(root, "config", "user.name", "bench")
    git(root, "config", "commit.gpgsign", "false")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "initial vault")
    return root


def fresh(template: Path, base: Path, name: str) -> Path:
    root = base / name
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(template, root, symlinks=True)
    return root


def open_vault(root: Path) -> Vault:
    return Vault.open(root, use_cache=False)


def text(root: Path, rel: str) -> str:
    return (root / rel).read_bytes().decode("utf-8")


def three_files(root: Path) -> Changeset:
    cs = Changeset("ingest", "Bench change", "bench/model", [
        FileChange(NEW, CREATE, None, PAGE.format(t="Gnomon")),
        FileChange(DEAD, MODIFY, text(root, DEAD), text(root, DEAD) + "Model line.\n"),
        FileChange(GONE, DELETE, text(root, GONE), None)])
    cs.accept_all()
    return cs


# -- kills --------------------------------------------------------------------------------------
_KILL_CHILD = textwrap.dedent("""
    import os, random, signal, sys, threading, time
    from pathlib import Path
    sys.path.insert(0, sys.argv[5])
    from benchmarks.bench_faults import open_vault, three_files
    from wiki_tui.changes.apply.journal import apply_changeset
    root, step, mode, delay = Path(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
    def die():
        if mode == "group":
            os.killpg(0, signal.SIGKILL)
        os.kill(os.getpid(), signal.SIGKILL)
    def fault(name):
        if name != step:
            return
        if delay <= 0:
            die()
        threading.Timer(delay, die).start()  # mid-step: git may be running
    vault = open_vault(root)
    apply_changeset(vault, three_files(root), on_step=fault)
    time.sleep(5)  # a late timer must still fire: an apply that ends first is "all new"
""")


def _snapshot(root: Path) -> dict[str, bytes | None]:
    paths = [NEW, DEAD, GONE, "log.md", "index.md"]
    return {p: (root / p).read_bytes() if (root / p).exists() else None for p in paths}


STUCK: list[str] = []  # why, for the report
LOCKS_LEFT: list[str] = []  # kills that left git's index.lock behind (the step)


def classify_kill(root: Path, before: dict, before_head: str) -> str:
    try:
        recover(root)
    except Exception as exc:  # noqa: BLE001 - a traceback for the person: stuck
        STUCK.append(f"recover: {exc!r}"[:300])
        return "stuck"
    after = _snapshot(root)
    subject = git(root, "log", "-1", "--format=%s").strip()
    if journal_path(root).exists():
        return "other"
    head = git(root, "rev-parse", "HEAD").strip()
    hand_commit_only = (subject.startswith("hand edits before")
                        and git(root, "rev-parse", "HEAD^").strip() == before_head)
    status = set(git(root, "status", "--porcelain", "-uall").splitlines())
    if after == before and (head == before_head or hand_commit_only) \
            and status <= {f' M "{DEAD}"', f" M {DEAD}"}:
        outcome = "all_old"  # the person's edit may now be committed on its own: not lost
    elif (after[NEW] is not None and after[GONE] is None and after[DEAD] is not None
          and after[DEAD].endswith(HAND + b"Model line.\n")
          and (after["log.md"] or b"").count(b"ingest | Bench change") == 1
          and subject == "ingest: Bench change" and not status):
        outcome = "all_new"
    else:
        return "other"
    try:  # the next write must work (no index.lock left in the way)
        cs = Changeset("ingest", "After", "bench/model",
                       [FileChange("concepts/After.md", CREATE, None, PAGE.format(t="After"))])
        cs.accept_all()
        if not apply_changeset(open_vault(root), cs).commit:
            STUCK.append("the next apply made no commit")
            return "stuck"
    except Exception as exc:  # noqa: BLE001
        STUCK.append(f"next apply: {exc!r}"[:300])
        return "stuck"
    return outcome


def kill_trial(template: Path, base: Path, step: str, mode: str, delay: float) -> str:
    root = fresh(template, base, "kill")
    (root / DEAD).write_bytes((root / DEAD).read_bytes() + HAND)
    before, before_head = _snapshot(root), git(root, "rev-parse", "HEAD").strip()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", _KILL_CHILD, str(root), step, mode, str(delay),
                           str(ROOT)], cwd=ROOT, env=env, capture_output=True, timeout=120,
                          start_new_session=True)
    if proc.returncode != -9:
        return "other"
    if (root / ".git/index.lock").exists():
        LOCKS_LEFT.append(step)
    return classify_kill(root, before, before_head)


def run_kills(template: Path, base: Path, per_step: int, aimed: int, rng: random.Random) -> dict:
    table: dict[str, dict[str, int]] = {}
    total: Counter = Counter()
    for step in [*STEPS, "end"]:
        for mode in ("process", "group"):
            counts = Counter(kill_trial(template, base, step, mode, 0) for _ in range(per_step))
            table[f"{step}/{mode}"] = dict(counts)
            total.update(counts)
    aimed_counts: Counter = Counter()
    for n in range(aimed):
        step = ("stage", "commit", "handedits")[n % 3]
        outcome = kill_trial(template, base, step, "group", rng.uniform(0.0, 0.04))
        aimed_counts[outcome] += 1
        total[outcome] += 1
    return {"per_boundary": table, "aimed_group_kills": dict(aimed_counts),
            "total": {k: total.get(k, 0) for k in ("all_old", "all_new", "stuck", "other")},
            "kills_that_left_index_lock": len(LOCKS_LEFT), "stuck_reasons": STUCK[:5]}


# -- races --------------------------------------------------------------------------------------
_RACE_CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    sys.path.insert(0, sys.argv[4])
    from benchmarks.bench_faults import PAGE, GONE, open_vault, text
    from wiki_tui.changes.apply.journal import apply_changeset
    from wiki_tui.changes.model import CREATE, DELETE, Changeset, FileChange
    root, n, go = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    vault = open_vault(root)
    files = [FileChange(f"concepts/Race {n}.md", CREATE, None, PAGE.format(t=f"Race {n}"))]
    if n == "1":
        files.append(FileChange(GONE, DELETE, text(root, GONE), None))
    cs = Changeset("ingest", f"race {n}", "bench/model", files)
    cs.accept_all()
    (go.parent / f"ready-{n}").write_text("")
    while not go.exists():
        time.sleep(0.002)
    apply_changeset(vault, cs)
""")


def index_matches_tree(root: Path, rev: str) -> bool:
    tree = git(root, "ls-tree", "-r", "--name-only", "-z", rev).split("\0")
    pages = {link_target(p) for p in tree if p.endswith(".md") and p not in NOT_LISTED
             and not p.startswith("raw/")}
    index = git(root, "show", f"{rev}:index.md")
    return {ln[4:].split("|", 1)[0] for ln in index.splitlines() if ln.startswith("- [[")} == pages


def race_trial(template: Path, base: Path) -> tuple[bool, bool]:
    """(both applied, both commits' index.md right)."""
    root = fresh(template, base, "race")
    sync = Path(tempfile.mkdtemp(dir=base))
    go = sync / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    kids = [subprocess.Popen([sys.executable, "-c", _RACE_CHILD, str(root), n, str(go), str(ROOT)],
                             cwd=ROOT, env=env, stderr=subprocess.DEVNULL) for n in ("1", "2")]
    deadline = time.monotonic() + 120
    while not all((sync / f"ready-{n}").exists() for n in ("1", "2")):
        if time.monotonic() > deadline or any(k.poll() is not None for k in kids):
            break
        time.sleep(0.005)
    go.write_text("")
    codes = [k.wait(timeout=120) for k in kids]
    applied = codes == [0, 0] and git(root, "log", "-2", "--format=%s").count("race") == 2
    right = applied and index_matches_tree(root, "HEAD") and index_matches_tree(root, "HEAD~1")
    return applied, right


def run_races(template: Path, base: Path, trials: int) -> dict:
    results = [race_trial(template, base) for _ in range(trials)]
    return {"trials": trials, "both_applied": sum(a for a, _ in results),
            "index_right_in_both_commits": sum(r for _, r in results),
            "wrong": sum(1 for a, r in results if a and not r),
            "failed": sum(1 for a, _ in results if not a)}


# -- outside edits ------------------------------------------------------------------------------
def _outside(root: Path, rel: str, case: str) -> None:
    path = root / rel
    data = path.read_bytes()
    if case == "content":
        path.write_bytes(data + b"Outside line.\n")
    elif case == "crlf":
        path.write_bytes(data.replace(b"\n", b"\r\n"))
    elif case == "delete":
        path.unlink()
    elif case == "rename":
        path.rename(path.with_name("Moved away.md"))
    elif case == "chmod":
        path.chmod(0o600)
    elif case == "atomic_replace":  # an editor's save: a new file renamed over the old
        tmp = path.with_name(".save.tmp")
        tmp.write_bytes(data.replace(b"# ", b"# Edited: ", 1))
        os.replace(tmp, path)
    elif case == "touch":
        os.utime(path, (time.time() + 5, time.time() + 5))


def outside_case(template: Path, base: Path, case: str, kind: str) -> dict:
    root = fresh(template, base, "outside")
    vault = open_vault(root)
    rel = DEAD if kind == "modify" else GONE
    change = (FileChange(rel, MODIFY, text(root, rel), text(root, rel) + "Model line.\n")
              if kind == "modify" else FileChange(rel, DELETE, text(root, rel), None))
    cs = Changeset("ingest", "Outside", "bench/model", [change])
    cs.accept_all()
    _outside(root, rel, case)
    outside = (root / rel).read_bytes() if (root / rel).exists() else None
    result = apply_changeset(vault, cs)
    now = (root / rel).read_bytes() if (root / rel).exists() else None
    outcome = "conflict" if rel in result.conflicts else "applied"
    row = {"outcome": outcome, "outside_bytes_kept": now == outside if outcome == "conflict"
           else None}
    if case == "chmod" and outcome == "applied" and now is not None:
        row["mode_kept"] = oct((root / rel).stat().st_mode & 0o777) == "0o600"
    return row


def run_outside(template: Path, base: Path) -> dict:
    cases = ("content", "crlf", "delete", "rename", "chmod", "atomic_replace", "touch")
    return {case: {kind: outside_case(template, base, case, kind) for kind in ("modify", "delete")}
            for case in cases}


# -- hand edits ---------------------------------------------------------------------------------
def _has(root: Path, rel: str, data: bytes) -> bool:
    return (root / rel).exists() and data in (root / rel).read_bytes()


def hand_case(template: Path, base: Path, case: str) -> dict:
    root = fresh(template, base, "hand")
    mine = b"Mine: " + case.encode() + b".\n"
    target = {"page": DEAD, "log_md": "log.md", "index_md": "index.md",
              "untracked_page": "concepts/Loose.md", "merged_in_review": DEAD}[case]
    if case == "untracked_page":
        (root / target).write_bytes(b"# Loose\n\n" + mine)
    elif case != "merged_in_review":
        (root / target).write_bytes((root / target).read_bytes() + mine)
    vault = open_vault(root)
    edited = target if target.startswith("concepts/") else DEAD
    change = FileChange(edited, MODIFY, text(root, edited), text(root, edited) + "Model line.\n")
    cs = Changeset("ingest", "Hand", "bench/model", [change])
    cs.accept_all()
    if case == "merged_in_review":  # an outside edit lands during review; re-diffed, merged
        (root / target).write_bytes(mine + (root / target).read_bytes())
        apply_changeset(vault, cs)
        fresh_change = rebase_conflict(vault, cs.files[0])
        fresh_change.accept()
        cs = Changeset("ingest", "Hand", "bench/model", [fresh_change])
        cs.accept_all()
    result = apply_changeset(vault, cs)
    after_apply = _has(root, target, mine)
    separate = git(root, "log", "-1", "--format=%s", "HEAD~1").startswith("hand edits before")
    swept = "\n+" + mine.strip().decode() in git(root, "show", "--format=", "HEAD")
    in_git = mine.strip().decode() in git(root, "show", f"HEAD~1:{target}", check=False)
    undo_last(vault)
    return {"kept_after_apply": after_apply, "kept_after_undo": _has(root, target, mine),
            "committed_apart": separate, "kept_in_git": in_git, "in_the_change_commit": swept,
            "said": bool(result.notice and "committed first" in result.notice)}


def run_hand(template: Path, base: Path) -> dict:
    return {case: hand_case(template, base, case)
            for case in ("page", "log_md", "index_md", "untracked_page", "merged_in_review")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=2, help="kills per step boundary and mode")
    parser.add_argument("--aimed", type=int, default=30, help="group kills mid git step")
    parser.add_argument("--races", type=int, default=10, help="concurrent apply trials")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="bench-faults-"))
    started = time.monotonic()
    try:
        template = make_template(base)
        out = {
            "kills": run_kills(template, base, args.kills, args.aimed, random.Random(args.seed)),
            "races": run_races(template, base, args.races),
            "outside_edits": run_outside(template, base),
            "hand_edits": run_hand(template, base),
        }
        out["seconds"] = round(time.monotonic() - started, 1)
        print(json.dumps(out, indent=1))
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
