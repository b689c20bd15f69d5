"""MCP over stdin/stdout, with every malformed line answered (envelope.py) instead of dropped.

The SDK's stdio transport reads the lines; this hands it only the sound ones and sends the
error for each other one back through the SDK's own writer, so replies never interleave
mid-line.
"""

from __future__ import annotations

import os
from typing import Any, AsyncIterator

import anyio
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError

from wiki_tui.mcp_server.transport.envelope import refusal


class _CheckedLines:
    """stdin's lines as the SDK reads them (`async for line in stdin`), minus the malformed
    ones, each answered with its error through the SDK's writer (`attach`) before the next line
    is read: the error is out before the server can see the end of its input."""

    def __init__(self, lines: Any) -> None:
        self._lines = lines
        self._write: Any = None
        self._attached = anyio.Event()

    def attach(self, write: Any) -> None:
        self._write = write
        self._attached.set()

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._lines:
            if not line.strip():
                continue  # a blank line between messages is not a message
            error = refusal(line)
            if error is None:
                yield line
                continue
            await self._attached.wait()
            try:
                await self._write.send(SessionMessage(JSONRPCError.model_validate(error)))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return


def _take_stdin() -> Any:
    """The wire, read from a private copy of fd 0; fd 0 itself then reads /dev/null, so a child
    (git) never takes a byte of the protocol. (The SDK does the same when it reads stdin.)"""
    wire = os.dup(0)
    quiet = os.open(os.devnull, os.O_RDONLY)
    os.dup2(quiet, 0)
    os.close(quiet)
    return anyio.wrap_file(open(wire, encoding="utf-8", errors="replace"))


async def serve_stdio(lowlevel: Any) -> None:
    """Run `lowlevel` (the SDK's low-level Server) on stdin/stdout until the client closes
    stdin."""
    lines = _CheckedLines(_take_stdin())
    async with stdio_server(stdin=lines) as (read, write):
        lines.attach(write)
        await lowlevel.run(read, write, lowlevel.create_initialization_options())
