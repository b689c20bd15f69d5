"""Benchmark: the knowledge diff of a changeset, and what its invariants hold; prints JSON.

    uv run python benchmarks/bench_knowledge.py [--dir VAULT] [--pages 10000] [--runs 7]

On a synthetic vault (benchmarks/gen_vault.py, made in a temp folder unless --dir names one),
times in CPU milliseconds (time.process_time: they hold on a loaded machine):

- knowledge_diff_50_files_ms: knowledge diff + invariants (build/outcome.judge) of a changeset of
  50 files: 40 pages edited (a sentence added with a link, a line reworded, one link dropped),
  5 created, 3 deleted, 2 renamed. Target <= 50 ms (median).
- parse_build_diff_1mb_ms: a 1 MB reply (new pages written whole, and EDITs of existing pages)
  parsed, built into a changeset (guards, matching, lint, knowledge diff, invariants). Target
  <= 200 ms (median).
- knowledge_diff_of_1mb_reply_ms: the knowledge diff + invariants alone, of that changeset (the
  share of parse_build_diff_1mb_ms this stage adds; the rest is parsing, guards, lint).
- corpus: the outcome corpus on sample_vault (tests/corpus/outcome.py): how many intended
  changes `--yes` would hold (must stay near zero) and how many damaging ones it holds.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wiki_tui.changes.build.changeset import build_changeset  # noqa: E402
from wiki_tui.changes.build.outcome import judge  # noqa: E402
from wiki_tui.changes.model import CREATE, DELETE, MODIFY, RENAME, Changeset, FileChange  # noqa: E402
from wiki_tui.changes.reply.stream import parse_reply  # noqa: E402
from wiki_tui.vault import Vault  # noqa: E402
from benchmarks.bench_robustness import median_cpu_ms as median_ms  # noqa: E402


def make_vault(pages: int) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="bench-knowledge-")) / "vault"
    subprocess.run([sys.executable, str(ROOT / "benchmarks/gen_vault.py"), str(folder),
                    "--pages", str(pages)], check=True, capture_output=True)
    return folder


def _edited(text: str, rng: random.Random, other: str) -> str:
    lines = text.splitlines(keepends=True)
    body = [i for i, line in enumerate(lines) if line.strip() and not line.startswith(("---", "#"))]
    if body:
        i = rng.choice(body)
        lines[i] = lines[i].replace("the ", "a ", 1)
    lines.append(f"\nA new sentence about [[{Path(other).stem}]].\n")
    return "".join(lines).replace("]]", "]] ", 1)


def fifty_files(vault: Vault, rng: random.Random) -> Changeset:
    pages = sorted(p for p in vault.pages.records() if "/" in p)
    chosen = rng.sample(pages, 50)
    files = []
    for path in chosen[:40]:
        text = (vault.root / path).read_text(encoding="utf-8")
        files.append(FileChange(path, MODIFY, text, _edited(text, rng, rng.choice(pages))))
    for k in range(5):
        files.append(FileChange(f"concepts/Bench new {k}.md", CREATE, None,
                                f"---\ntitle: Bench new {k}\n---\n# New\n\nSee "
                                f"[[{Path(rng.choice(pages)).stem}]].\n"))
    for path in chosen[40:43]:
        files.append(FileChange(path, DELETE, (vault.root / path).read_text(encoding="utf-8"),
                                None))
    for k, path in enumerate(chosen[43:45]):
        text = (vault.root / path).read_text(encoding="utf-8")
        files.append(FileChange(f"moved/{Path(path).stem} {k}.md", RENAME, text, text,
                                old_path=path))
    return Changeset("apply", "bench", files=files)


def one_mb_reply(vault: Vault, rng: random.Random) -> str:
    pages = sorted(p for p in vault.pages.records() if "/" in p)
    parts, size, i = [], 0, 0
    while size < 1_000_000:
        i += 1
        if i % 4:
            body = "\n".join(f"Line {n} about [[{Path(rng.choice(pages)).stem}]] and more words "
                             "to fill a realistic line of prose." for n in range(60))
            block = (f"Writing a page.\n\n@@@ WRITE concepts/Bench reply {i}.md\n---\n"
                     f"title: Bench reply {i}\ntype: concept\nsummary: s\n---\n# Bench reply "
                     f"{i}\n\n{body}\n@@@ END\n\n")
        else:
            path = rng.choice(pages)
            line = next((x for x in (vault.root / path).read_text(encoding="utf-8").splitlines()
                         if x.startswith("# ")), None)
            if line is None:
                continue
            block = (f"@@@ EDIT {path}\n@@@ SEARCH\n{line}\n@@@ REPLACE\n{line}\n\nAdded.\n"
                     "@@@ END\n\n")
        parts.append(block)
        size += len(block)
    return "".join(parts)



def corpus() -> dict:
    from tests.corpus.outcome import outcome_report

    report = outcome_report()
    intended, damaging = report["outcome-intended"], report["outcome-damaging"]
    return {"intended": intended["replies"], "intended_held": intended["held"],
            "damaging": damaging["replies"], "damaging_held": damaging["held_naming_the_damage"],
            "damaging_passed": damaging["passed"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--pages", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    made = args.dir is None
    root = make_vault(args.pages) if made else args.dir
    rng = random.Random(7)
    try:
        with Vault.open(root, use_cache=False) as vault:
            changeset = fifty_files(vault, rng)
            judge(vault, changeset)  # warm: page records, resolver
            diff_ms = median_ms(lambda: judge(vault, changeset), args.runs)
            reply = one_mb_reply(vault, rng)
            build = lambda: build_changeset(vault, parse_reply(reply), operation="apply",  # noqa: E731
                                            title="bench")
            changes, errors = build()
            build_ms = median_ms(build, max(5, args.runs))
            judge_1mb_ms = median_ms(lambda: judge(vault, changes), max(3, args.runs // 2))
        print(json.dumps({
            "pages": args.pages,
            "knowledge_diff_50_files_ms": diff_ms, "target_knowledge_diff_ms": 50,
            "parse_build_diff_1mb_ms": build_ms, "target_parse_build_diff_ms": 200,
            "knowledge_diff_of_1mb_reply_ms": judge_1mb_ms,
            "reply_bytes": len(reply.encode()), "reply_files": len(changes.files),
            "reply_errors": len(errors),
            "corpus": corpus(),
            "loadavg": [round(x, 2) for x in os.getloadavg()],
        }, indent=1))
    finally:
        if made:
            shutil.rmtree(root.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
