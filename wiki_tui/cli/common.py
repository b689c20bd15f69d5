"""Helpers shared by the CLI command modules."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

console = Console(highlight=False)
console_err = Console(stderr=True, highlight=False)
# Output to a pipe or a file is not wrapped at rich's 80-column default: whole lines for
# scripts and pagers.
for _console in (console, console_err):
    _console.soft_wrap = not _console.is_terminal


class CliError(Exception):
    """A user-facing error: printed without a traceback, exits with `code`."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


# Any of these makes a folder a vault; a folder without them is refused before anything
# (.wiki-tui/ above all) is written there.
VAULT_MARKERS = ("AGENTS.md", "index.md", ".obsidian")


def vault_root(args: Any) -> Path:
    """The vault folder named by --vault (or the current folder)."""
    root = Path(getattr(args, "vault", None) or Path.cwd())
    if not root.exists():
        raise CliError(f"no vault at {root}: the folder does not exist", 2)
    if not root.is_dir():
        raise CliError(f"no vault at {root}: not a folder", 2)
    return require_vault(root.resolve())


def require_vault(root: Path) -> Path:
    """`root`, when it is a vault; else a CliError that says how to make one."""
    if not any((root / marker).exists() for marker in VAULT_MARKERS):
        import shlex

        raise CliError(f"{root} is not a wiki-tui vault (no AGENTS.md, index.md or .obsidian): "
                       f"run `wiki-tui init {shlex.quote(str(root))}` to make one, or pass "
                       "--vault DIR", 2)
    return root


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


def report_recovery(vault: Any) -> None:
    """Finish or roll back an apply a crash interrupted (and clear what its killed git left),
    or say what is in the way; every command that opens a vault calls this."""
    from wiki_tui.changes.vault_state import recovery_pending

    if not recovery_pending(Path(vault.root)):
        return  # the usual case: no journal or git code imported
    from rich.markup import escape

    from wiki_tui.changes.apply.journal import recover

    message = recover(vault)
    if message:
        console_err.print(f"[yellow]recovered:[/] {escape(message)}")


def diff_text(diff: str):
    """A unified diff coloured line by line (a Text: never cropped, wrapped only on a
    terminal)."""
    from rich.text import Text

    out = Text()
    for line in diff.splitlines():
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("@@"):
            style = "cyan"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        else:
            style = ""
        out.append(line + "\n", style=style)
    return out
