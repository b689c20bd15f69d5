"""A real `wiki-tui mcp VAULT` subprocess and the official SDK's client session over its stdio
or over streamable HTTP."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, AsyncIterator, Iterator

from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import Implementation

WIKI_TUI = str(Path(sys.executable).parent / "wiki-tui")
AGENT = Implementation(name="test-agent", version="1.0")


@asynccontextmanager
async def mcp_session(vault: Path, client: Implementation = AGENT, errlog: Any = None,
                      **session: Any) -> AsyncIterator[ClientSession]:
    """`session`: more ClientSession arguments (a message_handler, say)."""
    params = StdioServerParameters(command=WIKI_TUI, args=["mcp", str(vault)],
                                   env={"LITELLM_LOCAL_MODEL_COST_MAP": "True"})
    kwargs = {"errlog": errlog} if errlog is not None else {}
    async with stdio_client(params, **kwargs) as (read, write):
        async with ClientSession(read, write, client_info=client, **session) as opened:
            await opened.initialize()
            yield opened


@contextmanager
def http_server(vault: Path, *args: str, token: str | None = None
                ) -> Iterator[tuple[str, subprocess.Popen]]:
    """`wiki-tui mcp VAULT --transport streamable-http --port 0 ARGS` (token in the environment
    when given): its URL, read from the line it prints on stderr once it listens, and the
    process. On the way out: SIGTERM, and the server must exit 0 on its own."""
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    env.pop("WIKI_TUI_MCP_TOKEN", None)
    if token is not None:
        env["WIKI_TUI_MCP_TOKEN"] = token
    proc = subprocess.Popen([WIKI_TUI, "mcp", str(vault), "--transport", "streamable-http",
                             "--port", "0", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        seen = []
        for line in proc.stderr:  # blocks until the server says where it listens (or dies)
            seen.append(line.decode())
            found = re.search(r"at (http://\S+/mcp) ", seen[-1])
            if found:
                break
        else:
            raise AssertionError("the server ended before listening: " + "".join(seen))
        yield found.group(1), proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    assert out == b""


@asynccontextmanager
async def mcp_http_session(url: str, headers: dict[str, str] | None = None,
                           client: Implementation = AGENT) -> AsyncIterator[ClientSession]:
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
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
