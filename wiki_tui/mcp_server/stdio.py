"""MCP over stdin/stdout, with every malformed line answered (envelope.py) instead of dropped.

The SDK's stdio transport reads the lines; this hands it only the sound ones and sends the
error for each other one back through the same writer, so replies never interleave mid-line.
"""

from __future__ import annotations

import os
from typing import Any, AsyncIterator

import anyio
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError

from wiki_tui.mcp_server.envelope import refusal


class _CheckedLines:
    """stdin's lines as the SDK reads them (`async for line in stdin`), minus the malformed
    ones, whose errors go to `refused` instead."""

    def __init__(self, lines: Any, refused: Any) -> None:
        self._lines = lines
        self._refused = refused

    async def __aiter__(self) -> AsyncIterator[str]:
        async with self._refused:
            async for line in self._lines:
                if not line.strip():
                    continue  # a blank line between messages is not a message
                error = refusal(line)
                if error is None:
                    yield line
                else:
                    await self._refused.send(error)


async def _forward(refused: Any, write: Any) -> None:
    async with refused:
        async for error in refused:
            try:
                await write.send(SessionMessage(JSONRPCError.model_validate(error)))
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
    send, receive = anyio.create_memory_object_stream[dict](16)
    async with stdio_server(stdin=_CheckedLines(_take_stdin(), send)) as (read, write):
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_forward, receive, write)
            await lowlevel.run(read, write, lowlevel.create_initialization_options())
            tasks.cancel_scope.cancel()
