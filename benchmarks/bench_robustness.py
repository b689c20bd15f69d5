"""How the edit pipeline copes with replies written the way models misbehave; prints JSON.

    uv run python benchmarks/bench_robustness.py [--runs 5]

- families: per corpus family (tests/corpus, every `cases_*.py` module), how many replies ended
  applied as meant, refused clearly, repaired visibly, refused unclearly, silently wrong, or in
  a crash. Targets: silently_wrong == 0 and crashes == 0. new_families: those added for issue
  19 (two protocols in one reply, examples, matching places, habits nobody listed, and the
  outcome corpus, tests/corpus/outcome.py).
- outcome-intended / outcome-damaging: the outcome corpus, judged by what each change does to
  the wiki. Intended changes `--yes` would hold are listed under `held` (target: near zero,
  totals.intended_held); a damaging change applied without its invariant naming the damage is
  silently wrong (target 0, counted in totals.silently_wrong).
- usable_after_one_retry: the share of replies that are not well-formed which end applied as
  meant or repaired, either at once or after one retry round (the case's scripted `retry`, what a
  model that follows the refusal message sends). Target >= 0.90. usable_first_try: the same
  without the retry (the rest were refused clearly, on purpose).
- parse_match_1mb_ms: median CPU time of parse_reply + build_changeset (guards, matching,
  diffs) for a 1 MB reply of WRITE blocks (new pages, ~3 KB each with fences and a few links)
  and EDIT blocks (every sample_vault page) against a copy of sample_vault. Budget <= 200 ms.
  parse_1mb_ms is the parser alone; parse_match_lint_1mb_ms adds the vault lint of the
  changeset that build_changeset also runs (vault/lint.py's cost, not the protocol's).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.corpus.runner import (  # noqa: E402
    AS_MEANT,
    CLEAR,
    CRASH,
    REPAIRED_OK,
    SAMPLE_VAULT,
    SILENT,
    UNCLEAR,
    all_cases,
    run_case,
)
from tests.corpus.outcome import outcome_report  # noqa: E402
from wiki_tui.changes.build.changeset import build_changeset  # noqa: E402
from wiki_tui.changes.reply.stream import parse_reply  # noqa: E402
from wiki_tui.vault import Vault  # noqa: E402

_KEYS = {AS_MEANT: "applied_as_meant", CLEAR: "refused_clearly", REPAIRED_OK: "repaired_visibly",
         UNCLEAR: "refused_unclearly", SILENT: "silently_wrong", CRASH: "crashes"}
_USABLE = (AS_MEANT, REPAIRED_OK)
# Families added for issue 19 (trust by outcome): named apart so a reader sees what is new.
NEW_FAMILIES = ("mixed-protocols", "examples", "matching-places", "habits", "outcome-intended",
                "outcome-damaging")


def corpus_report() -> dict:
    families: dict[str, Counter] = {}
    usable = first_try = total = 0
    bad: list[str] = []
    for case in all_cases():
        first, second = run_case(case)
        counts = families.setdefault(case.family, Counter())
        counts["replies"] += 1
        counts[_KEYS[first.outcome]] += 1
        if first.outcome in (SILENT, CRASH, UNCLEAR):
            bad.append(f"{case.family}/{case.name}: {first.outcome}")
        if not case.well_formed:
            total += 1
            first_try += first.outcome in _USABLE
            usable += first.outcome in _USABLE or (second is not None
                                                   and second.outcome in _USABLE)
    order = ["replies", *_KEYS.values()]
    report = {f: {k: c.get(k, 0) for k in order} for f, c in sorted(families.items())}
    outcome = outcome_report()  # judged by what the change does, not how the reply reads
    report.update(outcome)
    totals = {k: sum(c.get(k, 0) for c in families.values()) for k in order}
    totals["replies"] += sum(f["replies"] for f in outcome.values())
    totals["applied_as_meant"] += outcome["outcome-intended"]["applied_as_meant"]
    totals["silently_wrong"] += outcome["outcome-damaging"]["silently_wrong"]
    totals["intended_held"] = len(outcome["outcome-intended"]["held"])
    totals["damaging_held"] = outcome["outcome-damaging"]["held_naming_the_damage"]
    return {
        "families": report,
        "new_families": [f for f in NEW_FAMILIES if f in report],
        "totals": totals,
        "not_well_formed": total,
        "usable_first_try": round(first_try / total, 3) if total else None,  # repaired or as meant
        "usable_after_one_retry": round(usable / total, 3) if total else None,
        "usable_target": 0.90,
        "not_ok": bad,
    }


def big_reply(vault_root: Path, size: int) -> str:
    """A reply of about `size` bytes: one EDIT per existing page (its heading retitled) and
    WRITE blocks of new pages with fences and frontmatter."""
    parts = []
    for page in sorted(vault_root.rglob("*.md")):
        rel = page.relative_to(vault_root).as_posix()
        if rel.startswith("raw/") or rel in ("index.md", "log.md", "AGENTS.md"):
            continue
        heading = next((ln for ln in page.read_text(encoding="utf-8").splitlines()
                        if ln.startswith("# ")), None)
        if heading:
            parts.append(f"Retitling {rel}.\n@@@ EDIT {rel}\n@@@ SEARCH\n{heading}\n"
                         f"@@@ REPLACE\n{heading} (revised)\n@@@ END\n\n")
    body = "".join(f"Paragraph {k}: the chronometer kept time at sea"
                   + (", see [[H4]] and [[John Harrison]]" if k % 6 == 0 else "") + ".\n\n"
                   + ("```python\nprint('tick')\n```\n\n" if k % 9 == 0 else "")
                   for k in range(60))
    i = 0
    while sum(map(len, parts)) < size:
        i += 1
        parts.append(f"A new page {i}.\n@@@ WRITE generated/Page {i}.md\n---\ntitle: Page {i}\n"
                     f"type: concept\nsummary: Generated page {i}.\n---\n# Page {i}\n\n{body}"
                     "@@@ END\n\n")
    return "".join(parts)


class _NoLint:
    """The vault as build_changeset sees it, minus lint_changes: times parse + guards + match +
    diff alone (the vault lint of ~300 new pages is the vault's cost, reported beside it)."""

    def __init__(self, vault: Vault) -> None:
        self.root = vault.root


def median_cpu_ms(fn, runs: int) -> float:
    """Median CPU milliseconds of `fn` over `runs` calls (bench_knowledge uses it too)."""
    times = []
    for _ in range(runs):
        t = time.process_time()  # CPU time: the numbers hold on a shared, loaded machine
        fn()
        times.append((time.process_time() - t) * 1000)
    return round(statistics.median(times), 1)


def time_big_reply(runs: int, size: int = 1_000_000) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-robust-") as tmp:
        root = Path(tmp) / "vault"
        shutil.copytree(SAMPLE_VAULT, root)
        reply = big_reply(root, size)
        vault = Vault.open(root, use_cache=False)
        try:
            changeset, errs = build_changeset(vault, parse_reply(reply), operation="apply",
                                              title="bench", model="bench")

            def parse_match(target) -> None:
                build_changeset(target, parse_reply(reply), operation="apply", title="bench",
                                model="bench")

            out = {"reply_bytes": len(reply.encode()), "files": len(changeset.files),
                   "errors": len([e for e in errs if e.retry]),
                   "parse_1mb_ms": median_cpu_ms(lambda: parse_reply(reply), runs),
                   "parse_match_1mb_ms": median_cpu_ms(lambda: parse_match(_NoLint(vault)), runs),
                   "parse_match_budget_ms": 200,
                   "parse_match_lint_1mb_ms": median_cpu_ms(lambda: parse_match(vault), runs)}
        finally:
            vault.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    result = {"load_average_1min": round(os.getloadavg()[0], 2), **corpus_report(),
              **time_big_reply(args.runs)}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
