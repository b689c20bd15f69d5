"""Does the offline engine answer? Ten questions about sample_vault (prints JSON).

    uv run python benchmarks/bench_offline_quality.py [--questions FILE] [--show]

Each question of benchmarks/data/offline_questions.json comes with the sentence of the wiki that
answers it (any of its `answers`). For each, the offline `query` runs on a copy of sample_vault
through the real operation, and the answer is judged:
- leads: the answering sentence starts within the first 200 characters of the answer (links,
  emphasis and quote marks read as plain text; the engine's "not a language model" note is not
  counted); `first` says whether it is the very first sentence;
- cited: the answer cites ([[link]]) the page that sentence is on;
- short: the answer is at most 1,500 characters.
A question passes when all three hold. The unanswerable questions pass when the answer cites no
page (the engine says the wiki holds no answer instead of quoting something).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LEAD_CHARS = 200
MAX_CHARS = 1500
_NOTE = re.compile(r"_\(offline engine[^)]*\)_\s*")


def plain(text: str) -> str:
    """Markdown read as plain words: link targets or shown text, no emphasis or quote marks."""
    text = _NOTE.sub("", text)
    text = re.sub(r"\[\[([^\]|]+)\|([^\]]+)\]\]", r"\2", text)
    text = re.sub(r"\[\[([^\]]+)\]\]",
                  lambda m: m.group(1).split("#", 1)[0].rsplit("/", 1)[-1], text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"(?m)^\s*>\s?", "", text)
    text = re.sub(r"[*_`]", "", text)
    return " ".join(text.split()).casefold()


async def answer(vault, question: str) -> tuple[str, tuple[str, ...]]:
    from wiki_tui.agent.config import AgentSettings
    from wiki_tui.agent.events import Answer, Failed
    from wiki_tui.agent.operations import query

    async for event in query(vault, question, AgentSettings()):
        if isinstance(event, Answer):
            return event.text, tuple(event.citations)
        if isinstance(event, Failed):
            return f"(failed: {event.reason})", ()
    return "", ()


def judge(text: str, cited: tuple[str, ...], answers: list[dict]) -> dict:
    said = plain(text)
    best = {"leads": False, "first": False, "cited": False, "at": -1}
    for expected in answers:
        at = said.find(plain(expected["sentence"]))
        verdict = {"leads": 0 <= at <= LEAD_CHARS, "first": 0 <= at <= 2,
                   "cited": expected["page"] in cited, "at": at}
        if (verdict["leads"], verdict["first"], verdict["cited"]) > (
                best["leads"], best["first"], best["cited"]):
            best = verdict
    best["short"] = len(text) <= MAX_CHARS
    best["chars"] = len(text)
    best["pass"] = best["leads"] and best["cited"] and best["short"]
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", default=str(ROOT / "benchmarks/data/offline_questions.json"))
    parser.add_argument("--show", action="store_true", help="print each answer to stderr")
    args = parser.parse_args()
    data = json.loads(Path(args.questions).read_text(encoding="utf-8"))
    from wiki_tui.vault import Vault

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "vault"
        shutil.copytree(ROOT / "sample_vault", root)
        vault = Vault.open(root)
        rows, declined = [], []
        for item in data["questions"]:
            text, cited = asyncio.run(answer(vault, item["question"]))
            verdict = judge(text, cited, item["answers"])
            rows.append({"question": item["question"], **verdict})
            if args.show:
                print(f"\n## {item['question']}\n{text}\n{verdict}", file=sys.stderr)
        for question in data.get("unanswerable", []):
            text, cited = asyncio.run(answer(vault, question))
            declined.append({"question": question, "pass": not cited, "chars": len(text)})
            if args.show:
                print(f"\n## {question}\n{text}", file=sys.stderr)
        vault.close() if hasattr(vault, "close") else None
    print(json.dumps({
        "answered_first_cited_short": sum(r["pass"] for r in rows),
        "answering_sentence_first": sum(r["first"] and r["cited"] for r in rows),
        "questions": len(rows),
        "declined_unanswerable": sum(r["pass"] for r in declined),
        "unanswerable": len(declined),
        "rows": rows, "unanswerable_rows": declined,
    }, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
