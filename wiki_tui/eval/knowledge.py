"""Wiki-integrity and knowledge scores of one task, from the vault before and after its step.

Knowledge checks look for phrases and numbers on the right pages: approximate by design (a
model that words a fact differently may be missed); docs/eval.md says what each one looks for.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from wiki_tui.agent.backlinks import SPECIAL_FILES
from wiki_tui.eval.suite import TaskSpec

# A blockquote that opens with a callout marker (`> [!warning] Contradiction`) and names a
# contradiction: the form AGENTS.md asks for.
_CALLOUT_START = re.compile(r"^\s*>\s*\[!\w+\]")
_SUPERSEDED_MARK = re.compile(
    r"~~|supersed|previous|formerly|former\b|earlier|raised from|replaced|outdated|no longer|"
    r"until \d{4}", re.IGNORECASE)
_DECLINE = re.compile(
    r"\b(?:does not|doesn't|do not|don't|cannot|can't|could not|couldn't|no|none)\b[^.\n]{0,60}?"
    r"\b(?:say|says|state|states|mention|mentions|record|records|contain|contains|hold|holds|"
    r"information|answer|cover|covers|find|know|give|gives)\b"
    r"|\bnot (?:in|covered|mentioned|recorded|stated|given)\b", re.IGNORECASE)


class VaultView:
    """The scratch vault at one moment: page texts, lint findings, log entries."""

    def __init__(self, root: Path) -> None:
        from wiki_tui.changes.apply.logmd import entries
        from wiki_tui.vault import Vault

        self.root = root
        vault = Vault.open(root, use_cache=False)
        try:
            self.findings = {(f.code, f.path, f.message) for f in vault.lint()}
            self.pages = {p: vault.read_text(p) for p in vault.pages}
            self.links = {p: {target for _link, target, *_ in vault.outgoing(p) if target}
                          for p in vault.pages}
            self.backlinks = {p: sorted({b.source for b in vault.backlinks(p)})
                              for p in vault.pages}
        finally:
            vault.close()
        log = root / "log.md"
        self.log_entries = len(entries(log.read_text(encoding="utf-8"))) if log.is_file() else 0

    def text(self, path: str) -> str:
        return self.pages.get(path, "")

    def new_findings(self, before: "VaultView", code: str) -> int:
        """Findings of `code` that were not there before (log.md's links to pages since
        renamed or deleted are its history, not breakage)."""
        return sum(1 for f in self.findings - before.findings
                   if f[0] == code and f[1] != "log.md")


def with_source_page(task: TaskSpec, before: VaultView, after: VaultView) -> TaskSpec:
    """The task with its gold source page (`sources/<title>.md`) read as the page the model
    actually wrote for the ingested source, when it named that page differently: the one new
    page that names the raw file. A name is the model's choice; the facts on it are scored."""
    gold = next((p for p in _gold_paths(task) if p.startswith("sources/")), None)
    if not task.source or gold is None or gold in after.pages:
        return task
    written = [p for p, text in after.pages.items()
               if p not in before.pages and task.source in text]
    if len(written) != 1:
        return task
    return replace_path(task, gold, written[0])


def _gold_paths(task: TaskSpec) -> list[str]:
    return [*(f["page"] for f in task.facts), *(p for c in task.contradictions
                                                 for p in c["pages"])]


def replace_path(task: TaskSpec, old: str, new: str) -> TaskSpec:
    from dataclasses import replace

    def swap(path: str) -> str:
        return new if path == old else path

    return replace(
        task,
        facts=tuple(dict(f, page=swap(f["page"])) for f in task.facts),
        contradictions=tuple(dict(c, pages=[swap(p) for p in c["pages"]])
                             for c in task.contradictions))


# -- integrity ---------------------------------------------------------------------------------
def integrity(before: VaultView, after: VaultView, applied: bool) -> dict[str, Any]:
    index_ok = not any(f[0] in ("index-stale", "index-missing") for f in after.findings)
    log_ok = after.log_entries == before.log_entries + (1 if applied else 0)
    return {
        "broken_links_introduced": after.new_findings(before, "broken-link"),
        "orphans_introduced": after.new_findings(before, "orphan"),
        "frontmatter_missing": after.new_findings(before, "missing-field"),
        "index_log_consistent": index_ok and log_ok,
    }


# -- knowledge ---------------------------------------------------------------------------------
def contradiction_callouts(text: str) -> list[str]:
    """The contradiction callouts of a page, each as its text."""
    out, current = [], None
    for line in text.splitlines():
        if current is not None and line.lstrip().startswith(">"):
            current.append(line)
            continue
        if current is not None:
            out.append("\n".join(current))
            current = None
        if _CALLOUT_START.match(line):
            current = [line]
    if current is not None:
        out.append("\n".join(current))
    return [c for c in out if "contradict" in c.casefold()]


def contradictions(task: TaskSpec, before: VaultView, after: VaultView,
                   findings: list) -> dict[str, int]:
    """Planted contradictions flagged (callouts on both pages quoting both claims, or, in a
    lint reply, a contradiction finding on one of the pages), and every report made."""
    planted = list(task.contradictions)
    reports = correct = flagged = 0
    for path, text in after.pages.items():
        for callout in contradiction_callouts(text):
            if callout in contradiction_callouts(before.text(path)):
                continue
            reports += 1
            correct += any(path in c["pages"] and _quotes(callout, c["claims"]) for c in planted)
    reported = [f for f in findings if f.code == "contradiction"]
    reports += len(reported)
    correct += sum(1 for f in reported if any(f.path in c["pages"] for c in planted))
    for c in planted:
        flagged += flagged_on_both(c, after) or any(f.path in c["pages"] for f in reported)
    return {"planted": len(planted), "flagged": flagged, "reports": reports, "correct": correct}


def flagged_on_both(contradiction: dict, after: VaultView) -> bool:
    """Both pages of a planted contradiction carry a callout quoting both claims."""
    return all(any(_quotes(callout, contradiction["claims"])
                   for callout in contradiction_callouts(after.text(page)))
               for page in contradiction["pages"])


def _quotes(text: str, claims: list[str]) -> bool:
    return all(claim.casefold() in text.casefold() for claim in claims)


def superseded(task: TaskSpec, after: VaultView, findings: list) -> dict[str, int]:
    """A newer claim replaced an older one: the page states the new claim and keeps the old
    one marked on its line (struck through, 'superseded', 'raised from' ...), as AGENTS.md
    asks (an old claim deleted is history lost, not marked); in a lint reply, a superseded
    finding on the page counts too."""
    marked = 0
    for item in task.superseded:
        text = after.text(item["page"])
        lines = [line for line in text.splitlines() if item["old"] in line]
        in_text = item["new"] in text and bool(lines) and all(
            _SUPERSEDED_MARK.search(line) for line in lines)
        reported = any(f.code == "superseded" and f.path == item["page"] for f in findings)
        marked += in_text or reported
    return {"planted": len(task.superseded), "marked": marked}


def facts(task: TaskSpec, after: VaultView) -> dict[str, int]:
    present = sum(1 for fact in task.facts
                  if re.search(fact["pattern"], _flat(after.text(fact["page"])), re.IGNORECASE))
    return {"gold": len(task.facts), "present": present}


def _flat(text: str) -> str:
    """Text with every run of whitespace as one space (a fact may wrap across lines)."""
    return " ".join(text.split())


def query_scores(task: TaskSpec, answer: str | None, citations: tuple[str, ...]
                 ) -> dict[str, Any]:
    text = _flat(answer or "")
    declined = bool(_DECLINE.search(text))
    if task.unanswerable:
        return {"unanswerable": True, "declined": declined}
    correct = bool(text) and all(re.search(p, text, re.IGNORECASE) for p in task.answer)
    return {"unanswerable": False, "answer_correct": correct,
            "cited_gold": any(path in task.cite for path in citations),
            "citations_on_gold": sum(1 for path in citations if path in task.cite),
            "citations": list(citations)}


def lint_scores(task: TaskSpec, after: VaultView, findings: list) -> dict[str, int]:
    """Planted lint issues found (reported as a finding, or fixed in the vault), and how many
    of the model's findings point at a planted issue."""
    found = 0
    matched: set[int] = set()

    def hits(code: str, path_ok) -> bool:
        idx = [i for i, f in enumerate(findings) if f.code == code and path_ok(f)]
        matched.update(idx)
        return bool(idx)

    for c in task.contradictions:
        found += hits("contradiction", lambda f, c=c: f.path in c["pages"]) or \
            flagged_on_both(c, after)
    for s in task.superseded:
        found += hits("superseded", lambda f, s=s: f.path == s["page"])
    for m in task.missing_pages:
        name = m["name"].casefold()
        found += hits("missing-page", lambda f, name=name: name in _finding_text(f)) or \
            m["path"] in after.pages
    for link in task.missing_links:
        found += hits("missing-link", lambda f, link=link: f.path == link["page"]) or \
            link["target"] in after.links.get(link["page"], set())
    planted = (len(task.contradictions) + len(task.superseded) + len(task.missing_pages)
               + len(task.missing_links))
    return {"planted": planted, "found": found, "findings": len(findings),
            "findings_correct": len(matched)}


def _finding_text(f: Any) -> str:
    return f"{f.path} {f.message} {f.evidence}".casefold()


def moves(task: TaskSpec, before: VaultView, after: VaultView) -> dict[str, int]:
    """A rename or merge: the old page is gone, the new one exists, and every page that linked
    to the old one now links to the new one."""
    done = carried = total = 0
    for old, new in task.moves.items():
        done += old not in after.pages and new in after.pages
        for source in before.backlinks.get(old, []):
            if source in (old, new) or source in SPECIAL_FILES:
                continue
            source_now = task.moves.get(source, source)
            total += 1
            carried += new in after.links.get(source_now, set())
    return {"moves": len(task.moves), "moved": done, "backlinks": total, "carried": carried}
