"""A held file (FileChange.hold) is never applied by `--yes` alone: `wiki-tui apply --yes`
refuses, naming the file and the reason, exits non-zero and leaves the vault untouched."""

from __future__ import annotations

import json
from pathlib import Path

from tests.changes.journal_support import disk_state, head
from wiki_tui.cli import main

H4 = "entities/H4.md"
SHORT = "---\ntitle: H4\ntype: entity\nsummary: A watch.\n---\n# H4\n\nA watch.\n"


def _reply(tmp_path: Path, marker: str = "") -> Path:
    path = tmp_path / "reply.txt"
    path.write_text(f"@@@ WRITE {H4}{marker}\n{SHORT}@@@ END\n", encoding="utf-8")
    return path


def test_yes_refuses_a_held_rewrite_and_writes_nothing(git_vault: Path, tmp_path: Path, capsys):
    before, commit = disk_state(git_vault), head(git_vault)
    code = main(["--vault", str(git_vault), "apply", str(_reply(tmp_path)), "--yes"])
    err = " ".join(capsys.readouterr().err.split())
    assert code != 0
    assert f"{H4}: rewrites the whole page" in err and "--yes alone does not apply" in err
    assert disk_state(git_vault) == before and head(git_vault) == commit


def test_json_says_why_it_was_held(git_vault: Path, tmp_path: Path, capsys):
    code = main(["--vault", str(git_vault), "apply", str(_reply(tmp_path)), "--yes", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code != 0 and out["applied"] is False
    assert out["files"][0]["hold"].startswith("rewrites the whole page")
    assert H4 in out["message"]


def test_a_rewrite_the_reply_marked_is_applied_by_yes(git_vault: Path, tmp_path: Path, capsys):
    code = main(["--vault", str(git_vault), "apply", str(_reply(tmp_path, " (rewrite)")), "--yes"])
    assert code == 0
    assert (git_vault / H4).read_text(encoding="utf-8") == SHORT


def test_the_agent_commands_yes_refuses_held_files_too(sample_vault: Path, capsys):
    from types import SimpleNamespace

    from wiki_tui.changes.build.changeset import build_changeset
    from wiki_tui.changes.reply.stream import parse_reply
    from wiki_tui.cli.agent_commands import review_and_apply
    from wiki_tui.vault import Vault

    before = disk_state(sample_vault)
    with Vault.open(sample_vault, use_cache=False) as vault:
        changeset, _ = build_changeset(vault, parse_reply(f"@@@ WRITE {H4}\n{SHORT}@@@ END\n"),
                                       operation="ingest", title="t")
        code = review_and_apply(SimpleNamespace(yes=True, json=False), vault, changeset)
    assert code == 3 and "rewrites the whole page" in " ".join(capsys.readouterr().err.split())
    assert disk_state(sample_vault) == before
