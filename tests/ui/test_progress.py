"""The progress line: a long operation shows, in the conversation, one line that updates (its
phase, files and tokens so far, seconds) from the moment it starts until it ends."""

from __future__ import annotations

import asyncio

import pytest

from tests.support.clock import FakeClock
from tests.ui.conftest import drain, wait_for
from tests.ui.test_app import settle
from wiki_tui.agent import events as ev
from wiki_tui.ui.app import WikiApp


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def shown(app) -> str:
    line = app.conversation.progress
    return str(line.render()) if line.display else ""


async def test_the_line_follows_a_long_ingest_and_goes_when_it_ends(git_vault):
    clock = FakeClock()
    steps = [asyncio.Event() for _ in range(4)]

    async def ingest():
        await steps[0].wait()  # a slow start (an import, a big source being read)
        yield ev.Started("ingest", "raw/big.md", "offline", offline=True)
        yield ev.ToolActivity("read_source", "read raw/big.md")
        await steps[1].wait()
        yield ev.Token("I read the source. " * 20)  # 380 characters: ~95 tokens
        yield ev.FileProposed("concepts/Alpha.md", "write")
        yield ev.FileProposed("concepts/Beta.md", "write")
        await steps[2].wait()
        yield ev.Retry("the model was busy", 1)
        await steps[3].wait()
        yield ev.Done()

    app = WikiApp(git_vault, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.run_operation("ingest", ingest)
        await drain(pilot)
        assert shown(app).startswith("⟳ ingest · starting · 0 s")  # before any event
        clock.advance(7)
        await drain(pilot)
        assert "· 7 s" in shown(app)  # the seconds move while nothing else does
        steps[0].set()
        await wait_for(pilot, lambda: "read raw/big.md" in shown(app))
        steps[1].set()
        await wait_for(pilot, lambda: "2 files" in shown(app))
        line = shown(app)
        assert "writing concepts/Beta.md" in line and "~95 tokens" in line
        assert line.endswith("esc cancels")
        steps[2].set()
        await wait_for(pilot, lambda: "retry 1" in shown(app))
        steps[3].set()
        await wait_for(pilot, lambda: not app.operation_running)
        await drain(pilot)
        assert shown(app) == ""


async def test_an_agent_progress_event_shows_its_stage_and_count(git_vault):
    """The agent reports its own progress (a stage, done of total): the line shows it."""
    gate = asyncio.Event()

    async def ingest():
        yield ev.Started("ingest", "raw/big.md", "offline", offline=True)
        yield ev.Progress("finding names", 12, 40)
        await gate.wait()
        yield ev.Progress("part 2 of 5 of raw/big.md", 1, 5)  # the stage says the count
        await asyncio.sleep(3600)  # cancelled below
        yield ev.Done()

    app = WikiApp(git_vault, clock=FakeClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.run_operation("ingest", ingest)
        await wait_for(pilot, lambda: "finding names 12/40" in shown(app))
        gate.set()
        await wait_for(pilot, lambda: "part 2 of 5 of raw/big.md ·" in shown(app))
        assert "1/5" not in shown(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.operation_running)
