"""An operation's tokens and cost reach its log.md entry and commit trailers (litellm's real
openai/ provider against the local scripted server)."""

from __future__ import annotations

from tests.agent.conftest import run_op
from tests.agent.test_operations_model import NEW_PAGE_BLOCK, SOURCE
from tests.conftest import git
from tests.support.llm_server import Reply
from wiki_tui.agent import operations
from wiki_tui.agent.events import ChangesetReady, Done
from wiki_tui.changes.apply.journal import apply_changeset
from wiki_tui.changes.usage import totals
from wiki_tui.vault import Vault

USAGE = {"prompt_tokens": 1200, "completion_tokens": 300, "total_tokens": 1500}


async def _ingest_and_apply(llm_server, vault, reply):
    llm_server.queue(reply)
    events = await run_op(operations.ingest(vault, SOURCE, llm_server.settings()))
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    changeset.accept_all()
    apply_changeset(vault, changeset, date="2026-11-25")
    return changeset, events[-1]


async def test_tokens_and_cost_go_into_the_log_entry_and_the_commit(llm_server, git_vault):
    vault = Vault.open(git_vault)
    # A model litellm has a price for: the cost is computed and recorded.
    changeset, done = await _ingest_and_apply(llm_server, vault, Reply(NEW_PAGE_BLOCK, usage=USAGE, model="gpt-4o-mini"))
    assert isinstance(done, Done) and done.usage.cost_usd and done.usage.cost_usd > 0
    spend = changeset.spend
    assert (spend.model, spend.tokens_in, spend.tokens_out) == ("openai/test-model", 1200, 300)
    assert spend.cost_usd == done.usage.cost_usd
    log = (git_vault / "log.md").read_text()
    assert log.endswith(f"{spend.log_line()}\n") and "1200 tokens in, 300 tokens out, cost $" in log
    message = git(git_vault, "log", "-1", "--format=%B")
    assert "Tokens-In: 1200\nTokens-Out: 300\nCost-USD: " in message
    # A model without a known price: tokens recorded, cost "unknown", no Cost-USD trailer.
    (git_vault / "sources/The French Chronometer Makers.md").unlink()
    git(git_vault, "commit", "-qam", "remove the page again")
    vault.close()
    vault = Vault.open(git_vault)
    await _ingest_and_apply(llm_server, vault, Reply(NEW_PAGE_BLOCK, usage=USAGE, model="no-such-model-xyz"))
    vault.close()
    assert (git_vault / "log.md").read_text().rstrip().endswith("300 tokens out, cost unknown")
    assert "Cost-USD" not in git(git_vault, "log", "-1", "--format=%B")
    found = totals((git_vault / "log.md").read_text()).to_dict()["total"]
    assert (found["operations"], found["tokens_in"], found["cost_unknown"]) == (2, 2400, 1)
