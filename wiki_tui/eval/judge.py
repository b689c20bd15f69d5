"""An optional second opinion (`wiki-tui eval --judge MODEL`): a judge model grades each query
answer of a run against a rubric, through the same llm layer as every model call.

The judge is reported beside the deterministic checks, never in their place: its verdicts
are a model's opinion (it can be gamed, or wrong, as any model can); the claim checks are the
scores. It has its own cost line. A verdict the judge does not write in the rubric's form is
counted as unreadable, not guessed.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from wiki_tui.eval.suite import Suite, TaskSpec

RUBRIC_VERSION = 1
RUBRIC = """You grade one answer written by an assistant that maintains a small wiki. You are
given the question, what the wiki holds (the reference), and the answer.

The answer is RIGHT when it states the reference's facts as its own answer: the same values
(numbers may be written differently: "£84,000" and "84,000 pounds" are one value), not
negated, contradicted, hedged into doubt or merely quoted as someone else's claim, and with no
other value given for the same fact. When the reference says the wiki cannot answer, the
answer is RIGHT only if it says the wiki does not hold the answer and offers no value, not even
as a guess. Otherwise the answer is WRONG. Judge the answer alone; do not answer the question.

Reply with exactly two lines:
VERDICT: RIGHT or WRONG
REASON: one sentence"""

_VERDICT = re.compile(r"verdict\W{0,4}(right|wrong|correct|incorrect)\b", re.IGNORECASE)
_REASON = re.compile(r"reason\W{0,4}(.+)", re.IGNORECASE)


def reference(task: TaskSpec) -> str:
    """What the wiki holds for a query task, in words for the judge."""
    if task.unanswerable:
        return "The wiki cannot answer this question: it holds no such information."
    return "The answer is: " + "; ".join(claim["value"] for claim in task.answer) + "."


def prompt(task: TaskSpec, answer: str) -> list[dict]:
    return [{"role": "system", "content": RUBRIC},
            {"role": "user", "content": f"# Question\n\n{task.question}\n\n# Reference\n\n"
                                        f"{reference(task)}\n\n# Answer\n\n{answer}"}]


def verdict(reply: str) -> tuple[str, str]:
    """("right" | "wrong" | "unreadable", the judge's reason)."""
    m = _VERDICT.search(reply or "")
    reason = _REASON.search(reply or "")
    why = reason.group(1).strip() if reason else ""
    if not m:
        return "unreadable", why or " ".join((reply or "").split())[:200]
    return ("right" if m.group(1).lower() in ("right", "correct") else "wrong"), why


async def judge_run(settings: Any, suite: Suite, run: Any) -> dict[str, Any]:
    """The judge's section of a run: a verdict per query answered, its counts and its cost.
    A judge that fails (its provider refuses, its stream breaks) stops there and says why."""
    from wiki_tui.agent.engine.llm import ChatResult, LLMError, stream_chat

    verdicts: list[dict[str, Any]] = []
    tokens_in = tokens_out = 0
    costs: list[float | None] = []
    stopped = ""
    for task, result in zip(suite.tasks, run.tasks):
        query = result.scores.get("knowledge", {}).get("query") if result.scores else None
        if task.kind != "query" or query is None:
            continue
        reply = None
        try:
            async for item in stream_chat(settings, prompt(task, query.get("answer", ""))):
                if isinstance(item, ChatResult):
                    reply = item
        except LLMError as exc:
            stopped = f"the judge failed on task {task.name} ({exc.kind}: {exc.reason})"
            break
        tokens_in += reply.usage.prompt_tokens
        tokens_out += reply.usage.completion_tokens
        costs.append(reply.usage.cost_usd)
        graded, why = verdict(reply.text)
        verdicts.append({"task": task.name, "unanswerable": task.unanswerable,
                         "verdict": graded, "reason": why})
    return summarise(settings.model, verdicts, tokens_in, tokens_out, costs, stopped)


def summarise(model: str, verdicts: list[dict], tokens_in: int, tokens_out: int,
              costs: list, stopped: str = "") -> dict[str, Any]:
    from wiki_tui.eval.summary import ratio

    answerable = [v for v in verdicts if not v["unanswerable"]]
    unanswerable = [v for v in verdicts if v["unanswerable"]]
    known = [c for c in costs if c is not None]
    return {
        "model": model, "rubric": RUBRIC_VERSION, "stopped": stopped,
        "answers_correct": ratio(sum(v["verdict"] == "right" for v in answerable),
                                 len(answerable)),
        "unanswerable_declined": ratio(sum(v["verdict"] == "right" for v in unanswerable),
                                       len(unanswerable)),
        "unreadable": sum(v["verdict"] == "unreadable" for v in verdicts),
        "cost": {"tokens_in": tokens_in, "tokens_out": tokens_out,
                 "cost_usd": round(sum(known), 6) if known and len(known) == len(costs)
                 else None},
        "verdicts": verdicts,
    }


def run_judge(settings: Any, suite: Suite, run: Any) -> dict[str, Any]:
    return asyncio.run(judge_run(settings, suite, run))
