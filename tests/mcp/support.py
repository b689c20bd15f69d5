"""A real `wiki-tui mcp VAULT` subprocess and the official SDK's client session over its stdio."""

from __future__ import annotations

import json
import sys
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import Implementation

WIKI_TUI = str(Path(sys.executable).parent / "wiki-tui")
AGENT = Implementation(name="test-agent", version="1.0")


@asynccontextmanager
async def mcp_session(vault: Path, client: Implementation = AGENT,
                      errlog: Any = None) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=WIKI_TUI, args=["mcp", str(vault)],
                                   env={"LITELLM_LOCAL_MODEL_COST_MAP": "True"})
    kwargs = {"errlog": errlog} if errlog is not None else {}
    async with stdio_client(params, **kwargs) as (read, write):
        async with ClientSession(read, write, client_info=client) as session:
            await session.initialize()
            yield session


async def call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """A tool's answer (its JSON), asserting the call succeeded."""
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text
    assert result.structured_content is not None
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


async def call_error(session: ClientSession, tool: str, **arguments: Any) -> str:
    """The error text of a call that must fail."""
    result = await session.call_tool(tool, arguments)
    assert result.is_error, result.structured_content
    return result.content[0].text


async def call_refused(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """The answer (its JSON) of a call refused as an error (`isError: true`) that still says
    everything in its structured content."""
    result = await session.call_tool(tool, arguments)
    assert result.is_error, result.content[0].text
    assert result.structured_content is not None
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content
