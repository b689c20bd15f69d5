"""Run a corpus case through the real parser, matcher, guards and changeset build.

Outcomes: applied-as-meant, refused-clearly, repaired-visibly, refused-unclearly (refused, but the
message does not name what it must), silently-wrong (no blocking error, and the result is not
what the reply meant, or a reply that had to be refused was used), crash.

A held file (`FileChange.hold`: shown in the review, but `--yes` alone does not apply it) counts
as a refusal, its reason as the message: the corpus measures what an unattended `--yes` does.
"""

from __future__ import annotations

import shutil
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path

from tests.corpus.case import REFUSED, Case

SAMPLE_VAULT = Path(__file__).resolve().parents[2] / "sample_vault"

AS_MEANT, CLEAR, REPAIRED_OK = "applied-as-meant", "refused-clearly", "repaired-visibly"
UNCLEAR, SILENT, CRASH = "refused-unclearly", "silently-wrong", "crash"
OUTCOMES = (AS_MEANT, CLEAR, REPAIRED_OK, UNCLEAR, SILENT, CRASH)


@dataclass
class Outcome:
    outcome: str
    detail: str = ""
    errors: tuple[str, ...] = ()
    repairs: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.outcome in (AS_MEANT, CLEAR, REPAIRED_OK)


def make_vault(case: Case, root: Path) -> Path:
    vault = root / "vault"
    shutil.copytree(SAMPLE_VAULT, vault)
    for path, text in case.pages.items():
        target = vault / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8", newline="")
    return vault


def evaluate(case: Case, vault_root: Path, reply: str) -> Outcome:
    """What the pipeline makes of `reply` on the vault at `vault_root` (nothing is written)."""
    from wiki_tui.changes.build.changeset import build_changeset
    from wiki_tui.changes.reply.stream import parse_reply
    from wiki_tui.vault import Vault

    try:
        vault = Vault.open(vault_root, use_cache=False)
        try:
            changeset, errors = build_changeset(vault, parse_reply(reply), operation="apply",
                                                title=case.name, model="corpus")
        finally:
            vault.close()
    except Exception:
        return Outcome(CRASH, traceback.format_exc(limit=6))
    blocking = tuple(str(e) for e in errors if getattr(e, "retry", True))
    blocking += tuple(f"{f.path}: {f.hold}" for f in changeset.files if f.hold)
    repairs = tuple([*changeset.repairs, *(r for f in changeset.files for r in f.repairs)])
    if blocking:
        text = "\n".join(blocking)
        wanted = case.message or _default_message(case)
        missing = [m for m in wanted if m.lower() not in text.lower()]
        if case.expect == REFUSED or not case.result:
            return Outcome(UNCLEAR if missing else CLEAR,
                           f"missing {missing!r} in: {text}" if missing else "", blocking, repairs)
        # a reply that could have been used was refused: clear, but not as meant
        return Outcome(UNCLEAR if missing else CLEAR, "refused although usable: " + text,
                       blocking, repairs)
    changeset.accept_all()
    got = {f.path: f.result_text() for f in changeset.files}
    for f in changeset.files:
        if f.old_path and f.old_path != f.path:
            got[f.old_path] = None
    if case.expect == REFUSED and not case.result:
        return Outcome(SILENT, f"used a reply that had to be refused: {sorted(got)}", (), repairs)
    if got != case.result:
        return Outcome(SILENT, _diff(case.result, got), (), repairs)
    if repairs:
        if case.repair and not any(case.repair.lower() in r.lower() for r in repairs):
            return Outcome(REPAIRED_OK, f"repair note lacks {case.repair!r}: {repairs}", (),
                           repairs)
        return Outcome(REPAIRED_OK, "", (), repairs)
    return Outcome(AS_MEANT, "", (), repairs)


def run_case(case: Case) -> tuple[Outcome, Outcome | None]:
    """The first outcome, and (when it was refused and the case has a retry) the retry's."""
    with tempfile.TemporaryDirectory(prefix="corpus-") as tmp:
        vault = make_vault(case, Path(tmp))
        first = evaluate(case, vault, case.reply)
        second = None
        if first.outcome in (CLEAR, UNCLEAR) and case.retry is not None:
            second = evaluate(case, vault, case.retry)
        return first, second


def _default_message(case: Case) -> tuple[str, ...]:
    """A refusal must at least name the file the reply was about."""
    return tuple(p for p in list(case.result)[:1])


def _diff(want: dict[str, str | None], got: dict[str, str | None]) -> str:
    import difflib

    out = []
    for path in sorted(set(want) | set(got)):
        a, b = want.get(path, "<unchanged>"), got.get(path, "<unchanged>")
        if a == b:
            continue
        out.append(f"{path}:")
        out.extend(difflib.unified_diff(str(a).splitlines(), str(b).splitlines(), "meant",
                                        "got", lineterm="", n=1))
    return "\n".join(out)[:4000]


def all_cases() -> list[Case]:
    import importlib
    import pkgutil

    import tests.corpus as pkg

    cases: list[Case] = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        if info.name.startswith("cases_"):
            cases.extend(importlib.import_module(f"tests.corpus.{info.name}").CASES)
    return cases
