"""`wiki-tui mcp [VAULT]`: serve the vault to other agents over MCP, on stdio (the default) or
over streamable HTTP (`--transport streamable-http`, http://127.0.0.1:PORT/mcp).

Over stdio, stdout carries the protocol, so nothing else may print there; errors go to stderr.
"""

from __future__ import annotations

import os
from pathlib import Path

from wiki_tui.cli.common import CliError, vault_root
from wiki_tui.mcp_server import TOKEN_ENV


def register(subparsers) -> None:
    mcp = subparsers.add_parser(
        "mcp", help="serve the vault to other agents over MCP (stdio or HTTP)",
        description="Serve VAULT over the Model Context Protocol, on stdin/stdout or over "
                    "streamable HTTP: search, read pages and sections, links, tags, properties, "
                    "history, lint, raw sources, and propose_changes (kept as a pending review; "
                    "nothing is written until you accept it).")
    mcp.add_argument("path", nargs="?", type=Path, default=None, metavar="VAULT")
    mcp.add_argument("--transport", choices=("stdio", "streamable-http"), default="stdio",
                     help="stdio (default: the client starts the server) or streamable-http "
                          "(a server clients connect to at http://HOST:PORT/mcp)")
    mcp.add_argument("--host", default="127.0.0.1",
                     help="address to bind for HTTP (default 127.0.0.1; any other needs a token)")
    mcp.add_argument("--port", type=int, default=8765, help="port for HTTP (default 8765; 0: any "
                                                            "free port, printed on stderr)")
    mcp.add_argument("--token", default=None,
                     help=f"bearer token clients must send over HTTP (better: the {TOKEN_ENV} "
                          "environment variable, which other users cannot see in `ps`)")
    mcp.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                     help="a host name clients use to reach the server (Host/Origin check "
                          "against DNS rebinding); repeatable")
    mcp.set_defaults(func=run_mcp)


def run_mcp(args) -> int:
    if args.path is not None:
        args.vault = args.path
    root = vault_root(args)  # refuses a folder that is not a vault, before serving anything
    from wiki_tui.cli.common import report_recovery  # messages go to stderr
    from wiki_tui.mcp_server.server import serve

    if args.transport == "stdio":
        serve(root, on_open=report_recovery)
        return 0
    from wiki_tui.mcp_server.transport.http import HttpOptions, HttpSetupError

    http = HttpOptions(host=args.host, port=args.port,
                       token=args.token or os.environ.get(TOKEN_ENV) or None,
                       allowed_hosts=tuple(args.allow_host))
    try:
        serve(root, on_open=report_recovery, http=http)
    except HttpSetupError as exc:
        raise CliError(str(exc), 2) from None
    return 0
