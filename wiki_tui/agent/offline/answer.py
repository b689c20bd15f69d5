"""The offline engine's answer to a question: the wiki's own sentences, the answering one first.

    text = answer(vault, "How much did K1 cost?")

The answer leads with the sentence that answers (ranked by offline/rank.py), cited to its page
(`— [[Larcum Kendall]]`); a second sentence joins the lead when the question asks two things
and the first holds only one (who *and* when). A few more sentences that match follow under
"Also in the wiki", each cited, within MAX_CHARS in all. When no sentence answers enough of the
question, it says so plainly and quotes nothing: the engine makes up no answer.
"""

from __future__ import annotations

from typing import Any

from wiki_tui.agent.tasks.backlinks import link_name, name_counts
from wiki_tui.agent.config import OFFLINE_LABEL
from wiki_tui.agent.offline.rank import Ranked, Ranking, best_sentences, fits

MAX_CHARS = 1500
_RELATED = 3  # sentences under "Also in the wiki"
_RELATED_MIN = 0.35  # of the lead's score
_SECOND_LEAD_MIN = 0.5  # of the lead's score, for a sentence holding what the lead lacks
NOTE = (f"_({OFFLINE_LABEL}: these are the wiki's own sentences that best match the question, "
        "quoted as written.)_")
NO_ANSWER = "The wiki does not hold an answer to this question"


def answer(vault: Any, question: str) -> str:
    """The answer's markdown (see the module doc)."""
    return compose(vault, best_sentences(vault, question))


def compose(vault: Any, ranking: Ranking) -> str:
    if not ranking.answered:
        closest = ""
        if ranking.sentences:
            closest = (f"; the closest page is `{ranking.sentences[0].title}`, which does not "
                       "say it")
        return (f"{NO_ANSWER}: no sentence in it holds enough of the question's words"
                f"{closest}.\n\n{NOTE}\n")
    counts = name_counts(vault)
    found = ranking.sentences
    lead = [found[0]]
    second = _second_lead(ranking, found)
    if second is not None:
        lead.append(second)
    parts = [" ".join(_quoted(vault, r, counts) for r in lead)]
    used = len(parts[0]) + len(NOTE) + 40
    related = []
    for r in found[1:]:
        if len(related) >= _RELATED or r in lead or r.score < _RELATED_MIN * found[0].score:
            continue
        line = f"- {_quoted(vault, r, counts)}"
        if used + len(line) + 1 > MAX_CHARS:
            continue
        related.append(line)
        used += len(line) + 1
    if related:
        parts.append("Also in the wiki:\n" + "\n".join(related))
    parts.append(NOTE)
    return "\n\n".join(parts) + "\n"


def _second_lead(ranking: Ranking, found: list[Ranked]) -> Ranked | None:
    """A sentence that holds what the first lacks, for a question that asks two things."""
    if len(ranking.kinds) < 2 or found[0].kind_fits:
        return None
    first = found[0]
    missing = [k for k in ranking.kinds if not fits(k, first.sentence.text, set())]
    for r in found[1:4]:
        if r.score >= _SECOND_LEAD_MIN * first.score and all(
                fits(k, r.sentence.text, set()) for k in missing):
            return r
    return None


def _quoted(vault: Any, ranked: Ranked, counts: dict[str, int]) -> str:
    text = ranked.sentence.text.strip()
    return f"{text} — [[{link_name(vault, ranked.path, counts)}]]"
