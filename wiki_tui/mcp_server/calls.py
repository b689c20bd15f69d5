"""How one tool call runs: in a worker thread, under a time limit, with the vault first brought
in step with applies made elsewhere; an agent's mistake (ToolInputError, VaultError) becomes a
tool error in its own words. The calling agent's name comes from its client's handshake."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import BaseModel

from wiki_tui.mcp_server.tools.common import ToolInputError
from wiki_tui.vault import Vault, VaultError

CALL_SECONDS = 10.0  # the most one call may take before it is answered with an error
UNNAMED_AGENT = "an MCP client"  # a client that sent no clientInfo name


def answers(vault: Vault, fn: Callable[..., dict[str, Any]], out: type[BaseModel] | None,
            seconds: float = CALL_SECONDS) -> Callable[..., Awaitable[Any]]:
    """`fn(vault, ...)` as a tool body, its answer as the model `out` (so the text and the
    structured content say the same; None: the dict as is). A call that takes more than
    `seconds` is answered with a ToolError, and the server goes on serving; its thread is left
    to finish on its own, bounded by the limits on what one call may ask."""
    what = fn.__name__

    def run(*args: Any, **kwargs: Any) -> Any:
        vault.sync_with_disk()  # one stat of log.md when nothing was applied meanwhile
        answer = fn(vault, *args, **kwargs)
        return answer if out is None else out.model_validate(answer)

    @functools.wraps(fn)
    async def call(*args: Any, **kwargs: Any) -> Any:
        try:
            with anyio.fail_after(seconds):
                return await anyio.to_thread.run_sync(
                    functools.partial(run, *args, **kwargs), abandon_on_cancel=True)
        except TimeoutError:
            raise ToolError(f"{what} took longer than {seconds:g} s and was stopped: ask for "
                            "less (fewer words, a smaller limit, one folder)") from None
        except (ToolInputError, VaultError) as exc:
            raise ToolError(str(exc)) from None
    return call


def agent_name(ctx: Context | None) -> str:
    """The connected client's name and version from its initialize request's clientInfo."""
    params = getattr(getattr(ctx, "session", None), "client_params", None) if ctx else None
    info = getattr(params, "client_info", None)
    name = (getattr(info, "name", "") or "").strip()
    if not name:
        return UNNAMED_AGENT
    version = (getattr(info, "version", "") or "").strip()
    return f"{name} {version}" if version else name
