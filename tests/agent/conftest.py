"""Fixtures of the agent tests."""

from __future__ import annotations

import pytest

from wiki_tui.agent.config import AgentSettings


@pytest.fixture
def offline() -> AgentSettings:
    return AgentSettings()


async def run_op(generator) -> list:
    """Every event of one operation."""
    return [event async for event in generator]
