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
    "wiki_tui.cli.change_commands": ("apply", "undo", "usage"),
    "wiki_tui.cli.agent_commands": ("ingest", "query", "ask", "dismiss"),
    "wiki_tui.cli.app_commands": ("open", "demo"),
    "wiki_tui.cli.mcp_commands": ("mcp",),
    "wiki_tui.cli.eval_commands": ("eval",),
}
_APP_MODULE = "wiki_tui.cli.app_commands"


# Flags a person may put before or after the command name (`wiki-tui --vault V lint --json`
# and `wiki-tui lint --vault V --json` alike), with whether each takes a value.
_GLOBAL_FLAGS = {"--vault": True, "--model": True, "--api-base": True, "--json": False}


def build_parser(modules=tuple(_COMMAND_MODULES)) -> argparse.ArgumentParser:
    import importlib

    parser = argparse.ArgumentParser(
        prog="wiki-tui",
        description="Keep an LLM-maintained markdown wiki; every edit is reviewed as a diff.",
        epilog="--vault, --model, --api-base and --json may also follow the command name.",
    )
    # Parsed into global_* and merged by _merge_global_flags: a subparser's own default
    # would otherwise overwrite the value given before the command name.
    parser.add_argument("--vault", dest="global_vault", type=Path, default=None, metavar="DIR",
                        help="vault folder (default: the current folder)")
    parser.add_argument("--model", dest="global_model", default=None, metavar="MODEL",
                        help="litellm model string, for the commands that use a model")
    parser.add_argument("--api-base", dest="global_api_base", default=None, metavar="URL",
                        help="the model server's URL (default: WIKI_TUI_API_BASE, config)")
    parser.add_argument("--json", dest="global_json", action="store_true",
                        help="print JSON, for the commands that can")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # a layer not built yet
            if exc.name != name:
                raise
            continue
        module.register(sub)
    for command in sub.choices.values():
        if "vault" not in {action.dest for action in command._actions}:
            command.add_argument("--vault", type=Path, default=None,
                                 help="vault folder (default: the current folder)")
    return parser


def _merge_global_flags(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Give the command the global flags named before it; a flag after the command wins."""
    command = parser._subparsers._group_actions[0].choices.get(args.command)
    for flag in _GLOBAL_FLAGS:
        dest = flag[2:].replace("-", "_")
        value = getattr(args, f"global_{dest}")
        delattr(args, f"global_{dest}")
        if value in (None, False):
            continue
        if command is None or not hasattr(args, dest):
            parser.error(f"`{args.command or 'wiki-tui'}` takes no {flag}")
        if getattr(args, dest) == command.get_default(dest):
            setattr(args, dest, value)


def _command_at(argv: list[str]) -> int:
    """Index of the first token after the global flags (`--vault DIR`, `--json` ...);
    len(argv) if none."""
    i = 0
    while i < len(argv):
        name = argv[i].split("=", 1)[0]
        if name not in _GLOBAL_FLAGS:
            break
        i += 2 if _GLOBAL_FLAGS[name] and "=" not in argv[i] else 1
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


def parse_args(argv: list[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The command line as the command sees it (global flags merged in). Exits on misuse."""
    parser = build_parser(_modules_for(argv))
    args = parser.parse_args(_default_to_open(parser, argv))
    if getattr(args, "func", None):
        _merge_global_flags(parser, args)
    return parser, args


def main(argv: list[str] | None = None) -> int:
    if argv is None:  # the program itself (tests pass argv and keep their collector)
        import atexit
        import gc

        # The interpreter's last collection walks every object litellm made (~200 MB):
        # 1-2 s after the work was done on a busy machine. Frozen objects are skipped.
        atexit.register(gc.freeze)
    argv = list(sys.argv[1:] if argv is None else argv)
    parser, args = parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # here, so a closed pipe is caught below, not at interpreter exit
        return code
    except BrokenPipeError:  # `wiki-tui query --json | head`: the reader has gone
        _stdout_to_devnull()
        return 1
    except CliError as exc:
        console_err.print(f"[bold red]error:[/] {exc}", highlight=False)
        if getattr(args, "json", False):  # a script reading stdout learns why, too
            from wiki_tui.cli.common import print_json

            print_json({"error": str(exc), "exit": exc.code})
        return exc.code
    except KeyboardInterrupt:
        console_err.print("interrupted")
        return 130


def _stdout_to_devnull() -> None:
    """The Python docs' recipe for EPIPE: what is still buffered goes nowhere, quietly (the
    interpreter's own flush at exit would raise again)."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
