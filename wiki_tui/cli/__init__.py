"""Headless command line: `wiki-tui COMMAND ...`.

Each layer's commands live in their own module and register themselves here; nothing on this
path imports litellm at module top level (start-up stays fast).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wiki_tui.cli.common import CliError, console_err

# Modules that add subcommands: each exposes `register(subparsers)`.
_COMMAND_MODULES = (
    "wiki_tui.cli.vault_commands",
    "wiki_tui.cli.change_commands",
    "wiki_tui.cli.agent_commands",
    "wiki_tui.cli.app_commands",
)


def build_parser() -> argparse.ArgumentParser:
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
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a layer not built yet
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def _default_to_open(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """`wiki-tui [--model M] [VAULT]` with no command means `wiki-tui open ...`."""
    choices = parser._subparsers._group_actions[0].choices if parser._subparsers else {}
    if "open" not in choices:
        return argv
    i = 0
    while i < len(argv):  # skip the global options
        token = argv[i]
        if token in ("-h", "--help"):
            return argv
        if token == "--vault":
            i += 2
        elif token.startswith("--vault="):
            i += 1
        else:
            break
    if i < len(argv) and argv[i] in choices:
        return argv
    return [*argv[:i], "open", *argv[i:]]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
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
