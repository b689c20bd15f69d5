"""Benchmark: accepting a 3-file changeset vs a bare `git commit` of 3 files; prints JSON (ms).

    uv run python benchmarks/bench_apply.py [--dir VAULT] [--pages 10000] [--runs 9]

On a synthetic 10,000-page vault with ~10,000 tracked files (benchmarks/gen_vault.py --git,
made in a temp folder unless --dir names an existing git vault), each run measures, interleaved:

- bare_git_commit_ms: three pages edited in place, then `git commit -q -m ... -- a b c` (the git
  CLI, a subprocess), the commit alone timed;
- apply_3_files_ms: apply_changeset() of a changeset modifying three other pages: conflict
  check, crash journal, atomic writes, log.md append, index.md regenerated over all pages,
  `git commit -- paths` of the 3 pages + log.md + index.md, vault index refreshed.

ratio = apply / bare (medians); target <= 2. The variant with a new page is also reported in
CPU time (this process and the git processes it waited for), steadier on a busy machine. Also reported: index_render_ms (index.md text for
the whole vault) and first_apply_ms (the first apply after opening the vault: it rewrites the
generator's index.md and warms the entry memo).
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

from wiki_tui.changes.apply.index_md import render_index  # noqa: E402
from wiki_tui.changes.apply.journal import apply_changeset  # noqa: E402
from wiki_tui.changes.model import CREATE, MODIFY, Changeset, FileChange  # noqa: E402
from wiki_tui.vault import Vault  # noqa: E402


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                          text=True).stdout


def make_vault(pages: int) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="bench-apply-")) / "vault"
    subprocess.run([sys.executable, str(ROOT / "benchmarks/gen_vault.py"), str(folder),
                    "--pages", str(pages), "--git"], check=True, capture_output=True)
    return folder


def ensure_identity(root: Path) -> None:
    for key, value in (("user.name", "bench"), ("user.email", "bench@example.invalid")):
        if subprocess.run(["git", "config", key], cwd=root, capture_output=True).returncode:
            git(root, "config", key, value)


def changeset_for(root: Path, paths: list[str], n: int) -> Changeset:
    files = []
    for path in paths:
        base = (root / path).read_bytes().decode("utf-8")
        files.append(FileChange(path, MODIFY, base, base + f"\nBenchmark line {n}.\n"))
    cs = Changeset(operation="instruct", title=f"benchmark run {n}", model="bench", files=files)
    cs.accept_all()
    return cs


def cpu_ms() -> float:
    """CPU time of this process and of the children it waited for (git), in ms: on a busy
    machine it moves far less than wall time."""
    t = os.times()
    return (t.user + t.system + t.children_user + t.children_system) * 1000


def bare_commit(root: Path, paths: list[str], n: int, cpu: list[float] | None = None) -> float:
    for path in paths:
        with open(root / path, "a", encoding="utf-8") as handle:
            handle.write(f"\nBare line {n}.\n")
    start, spent = time.perf_counter(), cpu_ms()
    git(root, "commit", "-q", "-m", f"bare run {n}", "--", *paths)
    if cpu is not None:
        cpu[-1] += cpu_ms() - spent
    return (time.perf_counter() - start) * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--pages", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()

    root = args.dir.resolve() if args.dir else make_vault(args.pages)
    ensure_identity(root)
    tracked = len(git(root, "ls-files").splitlines())
    start = time.perf_counter()
    vault = Vault.open(root)
    open_ms = (time.perf_counter() - start) * 1000

    pages = sorted(p for p in vault.pages if p.count("/") >= 1 and not p.startswith("raw/"))
    picks = iter(pages[i] for i in range(0, len(pages), max(1, len(pages) // (12 * args.runs + 40))))

    def three() -> list[str]:
        return [next(picks) for _ in range(3)]

    start = time.perf_counter()
    apply_changeset(vault, changeset_for(root, three(), 0))
    first_ms = (time.perf_counter() - start) * 1000
    bare_commit(root, three(), 0)  # warm git's caches the same way

    bare, ours, render = [], [], []
    for n in range(1, args.runs + 1):
        order = (0, 1) if n % 2 else (1, 0)
        for which in order:
            if which == 0:
                bare.append(bare_commit(root, three(), n))
            else:
                cs = changeset_for(root, three(), n)
                start = time.perf_counter()
                result = apply_changeset(vault, cs)
                ours.append((time.perf_counter() - start) * 1000)
                assert result.commit and len(result.updated) == 3, result
        start = time.perf_counter()
        render_index(vault.pages, vault.schema.types)
        render.append((time.perf_counter() - start) * 1000)
    # Variant: one of the three files is a new page, so index.md changes too (its 10k-entry
    # rewrite is flushed and committed, and the vault re-indexes it).
    bare_new, ours_new, refresh_new = [], [], []
    bare_cpu, ours_cpu = [], []  # CPU ms, git's included
    real_refresh = vault.refresh_file
    spent = [0.0]

    def timed_refresh(path):  # how much of an apply is the vault re-indexing what was written
        start = time.perf_counter()
        try:
            return real_refresh(path)
        finally:
            spent[0] += (time.perf_counter() - start) * 1000

    vault.refresh_file = timed_refresh
    for n in range(args.runs + 1, args.runs + 1 + max(3, args.runs // 2)):
        paths = three()[:2]
        fresh = f"concepts/bench new {n}.md"
        (root / fresh).write_text(f"---\ntitle: bench new {n}\ntype: concept\nsummary: s\n---\n",
                                  encoding="utf-8")
        start, used = time.perf_counter(), cpu_ms()
        git(root, "add", "--", fresh)
        add_ms = (time.perf_counter() - start) * 1000
        bare_cpu.append(cpu_ms() - used)
        bare_new.append(add_ms + bare_commit(root, [*paths, fresh], n, bare_cpu))
        cs = changeset_for(root, three()[:2], n)
        cs.files.append(FileChange(f"concepts/bench page {n}.md", CREATE, None,
                                   f"---\ntitle: bench page {n}\ntype: concept\nsummary: s\n---\n"))
        cs.accept_all()
        spent[0] = 0.0
        start, used = time.perf_counter(), cpu_ms()
        apply_changeset(vault, cs)
        ours_new.append((time.perf_counter() - start) * 1000)
        ours_cpu.append(cpu_ms() - used)
        refresh_new.append(spent[0])
    assert git(root, "status", "--porcelain") == "", "the benchmark left the tree dirty"

    bare_ms, apply_ms = statistics.median(bare), statistics.median(ours)
    print(json.dumps({
        "pages": len(vault.pages),
        "tracked_files": tracked,
        "runs": args.runs,
        "bare_git_commit_ms": round(bare_ms, 1),
        "apply_3_files_ms": round(apply_ms, 1),
        "ratio": round(apply_ms / bare_ms, 2),
        "target_ratio": 2.0,
        "index_render_ms": round(statistics.median(render), 1),
        "with_create_bare_git_add_commit_ms": round(statistics.median(bare_new), 1),
        "with_create_apply_ms": round(statistics.median(ours_new), 1),
        "with_create_ratio": round(statistics.median(ours_new) / statistics.median(bare_new), 2),
        "with_create_of_which_vault_refresh_ms": round(statistics.median(refresh_new), 1),
        "with_create_cpu_ms": {"bare_git_add_commit": round(statistics.median(bare_cpu), 1),
                               "apply": round(statistics.median(ours_cpu), 1),
                               "ratio": round(statistics.median(ours_cpu) / statistics.median(bare_cpu), 2)},
        "load_average_1min": round(os.getloadavg()[0], 2),
        "first_apply_ms": round(first_ms, 1),
        "vault_open_ms": round(open_ms, 1),
    }, indent=2))
    vault.close()
    if not args.dir:
        shutil.rmtree(root.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
