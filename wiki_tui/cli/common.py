"""Helpers shared by the CLI command modules."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

console = Console(highlight=False)
console_err = Console(stderr=True, highlight=False)


class CliError(Exception):
    """A user-facing error: printed without a traceback, exits with `code`."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def vault_root(args: Any) -> Path:
    """The vault folder named by --vault (or the current folder)."""
    root = Path(getattr(args, "vault", None) or Path.cwd())
    if not root.exists():
        raise CliError(f"no vault at {root}: the folder does not exist", 2)
    if not root.is_dir():
        raise CliError(f"no vault at {root}: not a folder", 2)
    return root.resolve()


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def report_recovery(vault: Any) -> None:
    """Finish or roll back an apply a crash interrupted (and clear what its killed git left),
    or say what is in the way; every command that opens a vault calls this."""
    from wiki_tui.changes.vault_state import recovery_pending

    if not recovery_pending(Path(vault.root)):
        return  # the usual case: no journal or git code imported
    from rich.markup import escape

    from wiki_tui.changes.journal import recover

    message = recover(vault)
    if message:
        console_err.print(f"[yellow]recovered:[/] {escape(message)}")
