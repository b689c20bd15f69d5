"""`wiki-tui mcp [VAULT]`: serve the vault to other agents over MCP (stdio).

stdout carries the protocol, so nothing else may print there; errors go to stderr.
"""

from __future__ import annotations

from pathlib import Path

from wiki_tui.cli.common import vault_root


def register(subparsers) -> None:
    mcp = subparsers.add_parser(
        "mcp", help="serve the vault to other agents over MCP (stdio)",
        description="Serve VAULT over the Model Context Protocol on stdin/stdout: search, "
                    "read_page, backlinks, list_pages, lint, recent_log, and propose_changes "
                    "(kept as a pending review; nothing is written until you accept it).")
    mcp.add_argument("path", nargs="?", type=Path, default=None, metavar="VAULT")
    mcp.set_defaults(func=run_mcp)


def run_mcp(args) -> int:
    if args.path is not None:
        args.vault = args.path
    root = vault_root(args)  # refuses a folder that is not a vault, before serving anything
    from wiki_tui.cli.common import report_recovery  # messages go to stderr
    from wiki_tui.mcp_server.server import serve

    serve(root, on_open=report_recovery)
    return 0
