"""The offline engine's answers: the sentence that answers first, cited; no made-up answer.

Real vaults (the sample and small ones written here), the real query operation."""

from __future__ import annotations

import re

import pytest

from tests.agent.conftest import run_op
from tests.conftest import git, write_files
from wiki_tui.agent import operations
from wiki_tui.agent.events import Answer
from wiki_tui.agent.offline.answer import MAX_CHARS, NO_ANSWER
from wiki_tui.agent.offline.rank import best_sentences, question_kinds
from wiki_tui.agent.offline.sentences import sentences, stem
from wiki_tui.cli import main as cli_main
from wiki_tui.vault import Vault


async def ask(vault, question: str, offline) -> Answer:
    events = await run_op(operations.query(vault, question, offline))
    return next(e for e in events if isinstance(e, Answer))


def first_line(text: str) -> str:
    return text.strip().splitlines()[0]


@pytest.mark.parametrize("question, says, page", [
    ("Who made K1 and when?", "made K1 in 1769", "entities/H4.md"),
    ("How much did Tobias Mayer's widow receive?", "£3,000", "entities/Tobias Mayer.md"),
    ("When was the Board of Longitude abolished?", "abolished in 1828",
     "entities/Board of Longitude.md"),
    ("Where were Shovell's warships wrecked?", "Isles of Scilly",
     "entities/Scilly naval disaster of 1707.md"),
    ("What is dead reckoning?", "starts from a known position", "concepts/Dead reckoning.md"),
    ("How many degrees does the Earth turn in an hour?", "15 degrees every hour",
     "concepts/Longitude and time.md"),
])
async def test_the_answer_leads_with_the_sentence_that_answers_cited(sample_vault, offline,
                                                                   question, says, page):
    vault = Vault.open(sample_vault)
    answer = await ask(vault, question, offline)
    lead = first_line(answer.text)
    assert says in lead, answer.text
    name = page.rsplit("/", 1)[-1][:-3]
    assert re.search(rf"— \[\[(?:[\w ]+/)?{re.escape(name)}\]\]$", lead)  # cited to its page
    assert page in answer.citations
    assert len(answer.text) <= MAX_CHARS and "not a language model" in answer.text


@pytest.mark.parametrize("question", [
    "What is the capital of Peru?", "Who invented the telephone?",
    "How much did the Eiffel Tower cost to build?", "zebra quantum blockchain", "?", "the of",
    "x" * 5000, "When " * 400 + "?",
])
async def test_a_question_the_wiki_cannot_answer_is_said_so_and_cites_nothing(
        sample_vault, offline, question):
    vault = Vault.open(sample_vault)
    answer = await ask(vault, question, offline)
    assert answer.text.startswith(NO_ANSWER) and answer.citations == ()
    assert len(answer.text) <= MAX_CHARS


async def test_open_questions_headings_and_listings_never_lead(tmp_path, offline):
    root = write_files(tmp_path / "v", {
        "notes/Open questions.md": "# Open questions\n\nWhen was the Tay bridge finished?\n\n"
                                   "## When was the Tay bridge finished\n\nNobody here knows.\n",
        "notes/Tay Bridge.md": "---\ntitle: Tay Bridge\n---\n# Tay Bridge\n\nThe first Tay "
                               "bridge was finished in 1878 and fell in 1879.\n",
        "index.md": "# Index\n\n- [[Tay Bridge]]: the Tay bridge, finished in 1878.\n",
        "log.md": "# Log\n\n## [2026-01-01] ingest | Tay bridge finished in 1878\n"})
    vault = Vault.open(root)
    answer = await ask(vault, "When was the Tay bridge finished?", offline)
    assert first_line(answer.text).startswith("The first Tay bridge was finished in 1878")
    assert "index.md" not in answer.citations and "log.md" not in answer.citations
    assert "?" not in first_line(answer.text)


async def test_many_matching_pages_still_give_a_short_answer(tmp_path, offline):
    long = " ".join(["The lighthouse keeper logged the lamp oil every night."] * 40)
    root = write_files(tmp_path / "v", {f"p/Page {i}.md": f"# Page {i}\n\n{long}\n"
                                        for i in range(30)})
    answer = await ask(Vault.open(root), "How much lamp oil did the keeper log?", offline)
    assert len(answer.text) <= MAX_CHARS


def test_cli_query_save_files_a_short_cited_page(git_vault, capsys):
    assert cli_main(["--vault", str(git_vault), "query", "How much did K1 cost?", "--save",
                     "--yes"]) == 0
    out = capsys.readouterr().out
    assert "£450" in first_line(out)
    page = (git_vault / "answers/How much did K1 cost.md").read_text(encoding="utf-8")
    assert len(page) < 2000 and "£450" in page
    assert "sources: [" in page and "[[Clock versus Moon]]" in page.split("---")[1]
    assert "Answered by the offline engine" in page
    assert git(git_vault, "log", "-1", "--format=%s").startswith("save")


def test_a_page_is_read_as_sentences_a_person_would_see():
    text = ("---\ntitle: X\n---\n# X\n\nSt. Helena lies far out. It was visited in\n1761. "
            "Dr. Maskelyne went (see p. 3). %% a note %%\n\n```\nCode. Not prose.\n```\n\n"
            "| Machine | Year |\n| --- | --- |\n| H4 | 1759 |\n\n- An item. Two parts.\n\n"
            "Tagged line. #tag/sub\n\n<!-- hidden. -->\n")
    got = [(s.text, s.kind) for s in sentences(text)]
    assert got == [
        ("St. Helena lies far out.", "prose"),
        ("It was visited in 1761.", "prose"),
        ("Dr. Maskelyne went (see p. 3).", "prose"),
        ("Machine: H4; Year: 1759.", "row"),
        ("An item.", "item"), ("Two parts.", "item"),
        ("Tagged line.", "prose"),
    ]
    assert sentences(text)[0].line == 6  # lines count from the file's first


def test_question_kinds_and_stems():
    assert question_kinds("Who made K1 and when?") == ("who", "when")
    assert question_kinds("How much did it cost?") == ("amount",)
    assert question_kinds("What is a lunar distance?") == ("define",)
    assert {stem(w) for w in ("tried", "trials", "try")} == {"tri"}
    assert stem("received") == stem("receive") and stem("Kendall's") == "kendall"


def test_best_sentences_is_a_function_others_can_rank_with(sample_vault):
    ranking = best_sentences(Vault.open(sample_vault), "Who made K1 and when?", limit=3)
    assert ranking.answered and len(ranking.sentences) == 3
    top = ranking.sentences[0]
    assert top.path == "entities/H4.md" and top.kind_fits and top.cover >= 0.5
    assert [r.score for r in ranking.sentences] == sorted(
        (r.score for r in ranking.sentences), reverse=True)
