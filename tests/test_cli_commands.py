"""The command table: a command line builds only its own module's parsers, so the names listed
for each module must be the commands it registers."""

from __future__ import annotations

import argparse
import importlib

import pytest

from wiki_tui.cli import _COMMAND_MODULES, _modules_for, build_parser, main


def test_each_module_registers_exactly_its_listed_commands():
    for module, listed in _COMMAND_MODULES.items():
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(module).register(sub)
        assert set(sub.choices) == set(listed), module


@pytest.mark.parametrize("argv, wanted", [
    ([], ("wiki_tui.cli.app_commands",)),
    (["some/vault"], ("wiki_tui.cli.app_commands",)),
    (["--model", "m", "v"], ("wiki_tui.cli.app_commands",)),
    (["--vault", "v", "lint"], ("wiki_tui.cli.vault_commands",)),
    (["--vault=v", "dismiss", "x"], ("wiki_tui.cli.agent_commands",)),
    (["--model", "m", "--api-base", "u", "query", "q"], ("wiki_tui.cli.agent_commands",)),
    (["--vault", "v", "--json", "lint"], ("wiki_tui.cli.vault_commands",)),
    (["undo"], ("wiki_tui.cli.change_commands",)),
    (["-h"], tuple(_COMMAND_MODULES)),
])
def test_a_command_line_loads_only_its_module(argv, wanted):
    assert _modules_for(argv) == wanted


def test_help_still_lists_every_command(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for commands in _COMMAND_MODULES.values():
        for command in commands:
            assert command in out
    assert set(build_parser()._subparsers._group_actions[0].choices) == {
        c for commands in _COMMAND_MODULES.values() for c in commands}
