"""Headless command line: `wiki-tui COMMAND ...`.

Each layer's commands live in their own module and register themselves here; nothing on this
path imports litellm at module top level (start-up stays fast).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wiki_tui.cli.common import CliError, console_err

# Modules that add subcommands (each exposes `register(subparsers)`), with the commands each
# adds: a command line loads and builds only its own module's parsers (`wiki-tui VAULT`, the
# app, starts ~3 ms sooner). tests/test_cli_commands.py keeps these names true.
_COMMAND_MODULES = {
    "wiki_tui.cli.vault_commands": ("init", "links", "backlinks", "find", "search", "lint"),
    "wiki_tui.cli.change_commands": ("apply", "undo"),
    "wiki_tui.cli.agent_commands": ("ingest", "query", "ask", "dismiss"),
    "wiki_tui.cli.app_commands": ("open", "demo"),
}
_APP_MODULE = "wiki_tui.cli.app_commands"


def build_parser(modules=tuple(_COMMAND_MODULES)) -> argparse.ArgumentParser:
    import importlib

    parser = argparse.ArgumentParser(
        prog="wiki-tui",
        description="Keep an LLM-maintained markdown wiki; every edit is reviewed as a diff.",
    )
    parser.add_argument(
        "--vault",
        type=Path,
        default=None,
        help="vault folder (default: the current folder)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a layer not built yet
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def _command_at(argv: list[str]) -> int:
    """Index of the first token after the global options (`--vault DIR`); len(argv) if none."""
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--vault":
            i += 2
        elif token.startswith("--vault="):
            i += 1
        else:
            break
    return min(i, len(argv))


def _modules_for(argv: list[str]) -> tuple[str, ...]:
    """The command modules this command line needs: all for help, else the one naming the
    command, else the app's (`wiki-tui [VAULT]`)."""
    i = _command_at(argv)
    first = argv[i] if i < len(argv) else None
    if first in ("-h", "--help"):
        return tuple(_COMMAND_MODULES)
    for module, commands in _COMMAND_MODULES.items():
        if first in commands:
            return (module,)
    return (_APP_MODULE,)


def _default_to_open(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """`wiki-tui [--model M] [VAULT]` with no command means `wiki-tui open ...`."""
    choices = parser._subparsers._group_actions[0].choices if parser._subparsers else {}
    if "open" not in choices:
        return argv
    i = _command_at(argv)
    if i < len(argv) and (argv[i] in ("-h", "--help") or argv[i] in choices):
        return argv
    return [*argv[:i], "open", *argv[i:]]


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the program itself (tests pass argv and keep their collector)
        import atexit
        import gc

        # The interpreter's last collection walks every object litellm made (~200 MB):
        # 1-2 s after the work was done on a busy machine. Frozen objects are skipped.
        atexit.register(gc.freeze)
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_modules_for(argv))
    args = parser.parse_args(_default_to_open(parser, argv))
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except CliError as exc:
        console_err.print(f"[bold red]error:[/] {exc}", highlight=False)
        return exc.code
    except KeyboardInterrupt:
        console_err.print("interrupted")
        return 130


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
