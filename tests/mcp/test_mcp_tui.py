"""A proposal made over MCP while the app has the vault open: it shows up in the running app,
announced and listed with the proposing agent's name; applied elsewhere, it leaves the list."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.types import Implementation

from tests.changes.journal_support import read
from tests.mcp.support import call, mcp_session
from tests.ui.conftest import wait_for
from tests.ui.test_app import settle
from wiki_tui.cli import main
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.chat.conversation import NoteLine
from wiki_tui.ui.review.pending import PendingScreen


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def _append_to(vault: Path, path: str, words: str) -> str:
    last = read(vault, path).rstrip("\n").splitlines()[-1]
    return f"@@@ EDIT {path}\n@@@ SEARCH\n{last}\n@@@ REPLACE\n{last}\n{words}\n@@@ END\n"


async def test_a_proposal_appears_in_the_running_app_with_the_agents_name(git_vault: Path):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        claude = Implementation(name="claude-code", version="2.1")
        async with mcp_session(git_vault, client=claude) as session:
            first = await call(session, "propose_changes", title="H4 note",
                               reply=_append_to(git_vault, "entities/H4.md", "From the agent."))
            await call(session, "propose_changes", title="Cook note",
                       reply=_append_to(git_vault, "entities/James Cook.md", "Also."))
        await wait_for(pilot, lambda: len(app.pending_changesets) == 2, timeout=90)
        notes = [str(n.render()) for n in app.query(NoteLine)]
        assert any("H4 note" in n and "proposed by claude-code 2.1" in n for n in notes)
        assert "2 pending reviews" in str(app.status_bar.render())

        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, PendingScreen))
        rows = [f"{cs.title} | {agent}" for cs, _created, agent in app.screen.items]
        assert rows == ["H4 note | claude-code 2.1", "Cook note | claude-code 2.1"]
        listing = app.screen.query_one("#pending-list")
        for index in range(2):
            assert "proposed by claude-code 2.1" in str(listing.get_option_at_index(index).prompt)
        await pilot.press("escape")

        # applied from another terminal: the app no longer lists it
        assert main(["--vault", str(git_vault), "apply", "--pending", first["pending_id"],
                     "--yes"]) == 0
        await wait_for(pilot, lambda: len(app.pending_changesets) == 1, timeout=90)
        assert [cs.title for cs in app.pending_changesets] == ["Cook note"]
        assert "From the agent." in read(git_vault, "entities/H4.md")
