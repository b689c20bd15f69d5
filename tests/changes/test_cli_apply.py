"""`wiki-tui apply` and `wiki-tui undo` end to end (in-process main(), real vault, real git)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from tests.changes.journal_support import disk_state, full_state, git, head, read
from wiki_tui.cli import main

REPLY = """Here is the new page and a fix.

@@@ WRITE concepts/Gnomon.md
---
title: Gnomon
type: concept
summary: The part of a sundial that casts the shadow.
---
# Gnomon

Used with [[Dead reckoning]] checks at noon.
@@@ END

@@@ EDIT concepts/Dead reckoning.md
@@@ SEARCH
{line}
@@@ REPLACE
{line}
Added by the reply.
@@@ END

Done.
"""


def _reply(vault: Path) -> str:
    body = read(vault, "concepts/Dead reckoning.md").split("\n---\n", 1)[1]
    line = next(ln for ln in body.splitlines() if len(ln) > 30)
    return REPLY.format(line=line)


def _flat(text: str) -> str:
    """Console output without rich's line wrapping."""
    return " ".join(text.split())


def _write_reply(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "reply.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_yes_applies_and_prints_files_and_commit(git_vault: Path, tmp_path: Path, capsys):
    reply = _write_reply(tmp_path, _reply(git_vault))
    code = main(["--vault", str(git_vault), "apply", str(reply), "--yes", "--title", "Gnomon page"])
    out = capsys.readouterr().out
    assert code == 0
    assert "created  concepts/Gnomon.md" in out and "updated  concepts/Dead reckoning.md" in out
    assert f"commit   {head(git_vault)}" in out
    assert "+Added by the reply." in out  # the diff was shown first
    assert git(git_vault, "log", "-1", "--format=%s").strip() == "apply: Gnomon page"
    assert "Model: external" in git(git_vault, "log", "-1", "--format=%B")
    assert "## [" in read(git_vault, "log.md") and "apply | Gnomon page" in read(git_vault, "log.md")
    assert "Added by the reply." in read(git_vault, "concepts/Dead reckoning.md")


def test_dry_run_shows_and_writes_nothing(git_vault: Path, tmp_path: Path, capsys):
    before = full_state(git_vault)
    reply = _write_reply(tmp_path, _reply(git_vault))
    assert main(["--vault", str(git_vault), "apply", str(reply), "--dry-run"]) == 0
    captured = capsys.readouterr()
    assert "create concepts/Gnomon.md" in captured.out and "+Added by the reply." in captured.out
    assert "dry run" in captured.err
    assert full_state(git_vault) == before


def test_stdin_without_yes_only_shows(git_vault: Path, monkeypatch, capsys):
    before = full_state(git_vault)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(_reply(git_vault).encode())))
    assert main(["--vault", str(git_vault), "apply", "-"]) == 0
    assert "re-run with --yes" in _flat(capsys.readouterr().err)
    assert full_state(git_vault) == before


def test_stdin_with_yes_applies(git_vault: Path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(_reply(git_vault).encode())))
    assert main(["--vault", str(git_vault), "apply", "-", "--yes", "--operation", "instruct"]) == 0
    assert git(git_vault, "log", "-1", "--format=%s").strip() == "instruct: changes from stdin"


def test_match_error_applies_nothing(git_vault: Path, tmp_path: Path, capsys):
    before = full_state(git_vault)
    bad = _reply(git_vault) + ("\n@@@ EDIT entities/H4.md\n@@@ SEARCH\nThis line is not in the "
                               "page.\n@@@ REPLACE\nx\n@@@ END\n")
    code = main(["--vault", str(git_vault), "apply", str(_write_reply(tmp_path, bad)), "--yes"])
    captured = capsys.readouterr()
    assert code == 1
    assert "entities/H4.md" in captured.out and "not applied" in captured.err
    assert full_state(git_vault) == before


def test_guard_refusal_applies_nothing(git_vault: Path, tmp_path: Path, capsys):
    before = full_state(git_vault)
    bad = "@@@ WRITE raw/evil.md\nno\n@@@ END\n"
    assert main(["--vault", str(git_vault), "apply", str(_write_reply(tmp_path, bad)), "--yes"]) == 1
    assert "raw/" in _flat(capsys.readouterr().out)
    assert full_state(git_vault) == before


@pytest.mark.parametrize("content,message", [
    (None, "no such file"), (b"just prose, no blocks\n", "no edit blocks"),
    (b"\xff\xfe bad bytes", "not UTF-8")])
def test_bad_reply_files(git_vault: Path, tmp_path: Path, capsys, content, message):
    before = full_state(git_vault)
    path = tmp_path / "reply.txt"
    if content is not None:
        path.write_bytes(content)
    code = main(["--vault", str(git_vault), "apply", str(path), "--yes"])
    assert code != 0 and message in _flat(capsys.readouterr().err)
    assert full_state(git_vault) == before


def test_missing_vault_folder(tmp_path: Path, capsys):
    reply = _write_reply(tmp_path, "@@@ DELETE a.md\n")
    assert main(["--vault", str(tmp_path / "nope"), "apply", str(reply)]) == 2
    assert "does not exist" in _flat(capsys.readouterr().err)


def test_yes_and_dry_run_exclude_each_other(git_vault: Path, tmp_path: Path):
    with pytest.raises(SystemExit):
        main(["--vault", str(git_vault), "apply", "r.txt", "--yes", "--dry-run"])


def test_conflict_exit_code(git_vault: Path, tmp_path: Path, capsys, monkeypatch):
    """A file changed between proposal and apply: it is reported and the exit code is 1."""
    from wiki_tui.changes.apply import journal

    real = journal.apply_changeset

    def change_disk_first(vault, changeset, **kw):
        (git_vault / "concepts/Dead reckoning.md").write_text("edited meanwhile\n")
        return real(vault, changeset, **kw)

    monkeypatch.setattr(journal, "apply_changeset", change_disk_first)
    reply = _write_reply(tmp_path, _reply(git_vault))
    assert main(["--vault", str(git_vault), "apply", str(reply), "--yes"]) == 1
    captured = capsys.readouterr()
    assert "conflict:" in captured.err and "created  concepts/Gnomon.md" in captured.out
    assert read(git_vault, "concepts/Dead reckoning.md") == "edited meanwhile\n"


def test_undo_after_apply_and_refusal(git_vault: Path, tmp_path: Path, capsys):
    reply = _write_reply(tmp_path, _reply(git_vault))
    before = disk_state(git_vault)
    assert main(["--vault", str(git_vault), "apply", str(reply), "--yes"]) == 0
    capsys.readouterr()
    assert main(["--vault", str(git_vault), "undo"]) == 0
    out = capsys.readouterr().out
    assert "undid “changes from reply.txt”" in out and "removed  concepts/Gnomon.md" in out
    after = disk_state(git_vault)
    assert {k: v for k, v in after.items() if k != "log.md"} == \
        {k: v for k, v in before.items() if k != "log.md"}
    assert main(["--vault", str(git_vault), "undo"]) == 1
    assert "undo refused" in _flat(capsys.readouterr().err)


def test_the_installed_command_runs(git_vault: Path, tmp_path: Path):
    """The real entry point in a subprocess, reply piped on stdin."""
    entry = "import sys; from wiki_tui.cli import main; sys.exit(main())"
    proc = subprocess.run([sys.executable, "-c", entry, "--vault", str(git_vault),
                           "apply", "-", "--yes"], input=_reply(git_vault), text=True,
                          capture_output=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == 0, proc.stderr
    assert "commit" in proc.stdout and (git_vault / "concepts/Gnomon.md").exists()


@pytest.mark.parametrize("answer,code", [("y", 0), ("", 3)])
def test_terminal_prompt(git_vault: Path, tmp_path: Path, monkeypatch, capsys, answer, code):
    from wiki_tui.cli import change_commands

    reply = _write_reply(tmp_path, _reply(git_vault))
    before = head(git_vault)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    asked = []
    monkeypatch.setattr(change_commands.console, "input",
                        lambda prompt: asked.append(prompt) or answer)
    assert main(["--vault", str(git_vault), "apply", str(reply)]) == code
    assert asked == ["Apply 2 file(s)? [y/N] "]
    assert (head(git_vault) != before) == (answer == "y")


def test_json_output_for_programs(git_vault: Path, tmp_path: Path, capsys):
    import json

    reply = _write_reply(tmp_path, _reply(git_vault))
    assert main(["--vault", str(git_vault), "apply", str(reply), "--dry-run", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert not shown["applied"] and shown["message"] == "dry run: nothing written"
    assert [f["path"] for f in shown["files"]] == ["concepts/Gnomon.md", "concepts/Dead reckoning.md"]
    assert "+Added by the reply." in shown["files"][1]["diff"]
    assert main(["--vault", str(git_vault), "apply", str(reply), "--yes", "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert done["applied"] and done["result"]["commit"] == head(git_vault)
    assert done["result"]["created"] == ["concepts/Gnomon.md"]
    bad = _write_reply(tmp_path, "@@@ EDIT entities/H4.md\n@@@ SEARCH\nnot there\n@@@ REPLACE\nx\n@@@ END\n")
    assert main(["--vault", str(git_vault), "apply", str(bad), "--yes", "--json"]) == 1
    failed = json.loads(capsys.readouterr().out)
    assert not failed["applied"] and "entities/H4.md" in failed["errors"][0]
