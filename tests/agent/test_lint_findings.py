"""Model-checked lint findings read from real-shaped replies: each reply of the corpus below is
laid out the way models write lint reports, and every one must give the same findings."""

from __future__ import annotations

import pytest

from tests.agent.conftest import run_op
from tests.support.llm_server import Reply
from wiki_tui.agent import operations
from wiki_tui.agent.tasks.lint_findings import model_findings
from wiki_tui.agent.context.prompts import TASKS
from wiki_tui.vault import Vault

H4_YEAR = ("contradiction", "entities/H4.md", "completed in 1759")
KENDALL = ("missing-link", "entities/Larcum Kendall.md", "Kendall copied H4 as K1")
EXPECTED = [H4_YEAR, KENDALL]

CORPUS = {
    "canonical": '''I checked the pages.

FINDING: contradiction | entities/H4.md | The completion year differs from the source page. | "completed in 1759"
FINDING: missing-link | entities/Larcum Kendall.md | K1 is not linked to H4. | "Kendall copied H4 as K1"
''',
    "numbered": '''Here is what I found:

1. FINDING: contradiction | entities/H4.md | The completion year differs. | "completed in 1759"
2. FINDING: missing-link | entities/Larcum Kendall.md | K1 is not linked. | "Kendall copied H4 as K1"
''',
    "bold bullets, links and curly quotes": '''## Findings

- **FINDING:** contradiction | [[H4]] | The completion year differs. | “completed in 1759”
* **FINDING**: Missing link | `entities/Larcum Kendall.md` | K1 is not linked. | “Kendall copied H4 as K1”
''',
    "extra prose after the quote": '''FINDING: contradiction | entities/H4.md | The year differs. | "completed in 1759" — the source page says 1761, which is when the trial sailed.
FINDING: missing-link | Larcum Kendall | K1 is not linked. | "Kendall copied H4 as K1" (I would add [[H4]] here).

These are the only problems I could quote.
''',
    "markdown table": '''| # | Code | Page | Finding | Evidence |
|---|------|------|---------|----------|
| 1 | contradiction | entities/H4.md | The completion year differs. | "completed in 1759" |
| 2 | missing_link | [[Larcum Kendall]] | K1 is not linked to H4. | "Kendall copied H4 as K1" |

I will fix the link below.
''',
    "fenced, with an edit block holding the word": '''```
FINDING: contradiction | entities/H4.md | The completion year differs. | "completed in 1759"
FINDING: missing-link | entities/Larcum Kendall.md | K1 is not linked. | "Kendall copied H4 as K1"
```

@@@ WRITE concepts/Lint notes.md
FINDING: superseded | entities/Nowhere.md | not a finding: inside a block | "x"
@@@ END
''',
}


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_every_real_shaped_reply_gives_the_findings(sample_vault, name):
    vault = Vault.open(sample_vault)
    items = model_findings(CORPUS[name], vault.resolve)
    assert [(i.code, i.path, i.evidence) for i in items] == EXPECTED, name
    assert all(i.source == "model" and i.message for i in items)


def test_a_contradiction_quoting_both_claims_keeps_both():
    reply = ('FINDING: contradiction | entities/H4.md | The years differ. | "completed in 1759" '
             'vs "finished in 1761" — see the source.')
    (item,) = model_findings(reply)
    assert item.evidence == '"completed in 1759" vs "finished in 1761"'


def test_lines_that_are_not_findings_give_nothing():
    reply = ("FINDING: contradiction only two | fields\n"
             "| Page | Note |\n|---|---|\n| entities/H4.md | fine |\n"
             "No findings: the wiki is consistent.")
    assert model_findings(reply) == []


def test_the_lint_prompt_asks_for_quoted_evidence():
    text = TASKS["lint"]
    assert "FINDING: <code> | <page path> | <one sentence>" in text
    assert "evidence is required" in text and "word for word" in text
    assert "quote both claims" in text


async def test_lint_reads_a_table_reply_through_the_model(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply(CORPUS["markdown table"]))
    events = await run_op(operations.lint(vault, llm_server.settings(), fix=False))
    findings = next(e for e in events if type(e).__name__ == "Findings")
    model = [(i.code, i.path, i.evidence) for i in findings.items if i.source == "model"]
    assert model == EXPECTED
