"""Edges of the agent commands: an unknown finding id, a saved answer's sources."""

from __future__ import annotations

from tests.agent.conftest import run_op
from tests.support.llm_server import Reply
from wiki_tui.agent import operations
from wiki_tui.agent.tasks.dismissed import load_dismissed, remember_findings
from wiki_tui.agent.events import ChangesetReady, LintItem
from wiki_tui.cli import main as cli_main
from wiki_tui.vault import Vault


def test_dismissing_an_id_no_run_showed_fails(git_vault, capsys):
    assert cli_main(["--vault", str(git_vault), "dismiss", "deadbeef"]) == 2
    assert "no finding with id deadbeef" in capsys.readouterr().err
    assert load_dismissed(git_vault) == {}


def test_a_model_finding_from_an_earlier_run_can_be_dismissed(git_vault):
    item = LintItem("0123456789abcdef", "contradiction", "entities/H4.md", "two dates",
                    source="model")
    remember_findings(git_vault, [item])
    assert cli_main(["--vault", str(git_vault), "dismiss", item.id]) == 0
    assert load_dismissed(git_vault)[item.id]["code"] == "contradiction"


async def test_a_saved_answer_lists_the_pages_it_cites(git_vault, llm_server):
    page = ("@@@ WRITE answers/Almanac.md\n---\ntitle: Almanac\ntype: answer\n"
            "summary: When the Almanac began.\nsources: []\n---\n# Almanac\n\nIn 1766.\n@@@ END\n")
    llm_server.queue(Reply(page))
    settings = llm_server.settings()
    vault = Vault.open(git_vault, use_cache=False)
    events = await run_op(operations.save_answer(
        vault, "When was the Almanac first published?",
        "In 1766 ([[Nautical Almanac]]), computed from [[Tobias Mayer]]'s tables.", settings))
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    text = changeset.file("answers/Almanac.md").proposed_text
    assert 'sources: ["[[Nautical Almanac]]", "[[Tobias Mayer]]"]' in text
