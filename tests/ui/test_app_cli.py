"""`wiki-tui demo` and `wiki-tui open` (without starting the full-screen app)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT, git
from wiki_tui.cli import main


def test_demo_copies_sample_vault_into_a_git_repo(tmp_path, capsys):
    dest = tmp_path / "demo"
    assert main(["demo", "--dir", str(dest), "--no-open"]) == 0
    assert f"demo vault: {dest}" in capsys.readouterr().out
    assert (dest / "AGENTS.md").is_file() and (dest / "raw").is_dir()
    assert git(dest, "status", "--porcelain") == ""
    assert git(dest, "log", "--oneline").count("\n") == 1
    # the checkout stays pristine
    assert subprocess.run(["git", "status", "--porcelain", "sample_vault"], cwd=ROOT,
                          capture_output=True, text=True).stdout == ""


def test_demo_refuses_a_non_empty_folder(tmp_path, capsys):
    (tmp_path / "keep.txt").write_text("mine")
    assert main(["demo", "--dir", str(tmp_path), "--no-open"]) == 2
    assert "not empty" in " ".join(capsys.readouterr().err.split())  # rich wraps lines
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_open_missing_folder_is_a_clear_error(tmp_path, capsys):
    assert main([str(tmp_path / "nope")]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "does not exist" in err and "nope" in err


def test_open_defaults_to_the_current_folder(tmp_path, monkeypatch, capsys):
    (tmp_path / "AGENTS.md").write_text("# Schema\n")
    monkeypatch.chdir(tmp_path)
    assert main(["open", "--no-open"]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path.resolve())


def test_cli_start_path_does_not_import_litellm():
    code = ("import sys; from wiki_tui.cli import build_parser; build_parser(); "
            "import wiki_tui.ui.app; print('litellm' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == "False"


def test_start_path_and_form_checks_do_not_import_matplotlib():
    """matplotlib (~1 s to import, 60 MB) is imported only when a chart is drawn to SVG: not by
    the CLI, the app, the review's form views or the checks every changeset goes through."""
    code = ("import sys; from wiki_tui.cli import build_parser; build_parser(); "
            "import wiki_tui.ui.app, wiki_tui.ui.review.form_preview, wiki_tui.forms.preview, "
            "wiki_tui.changes.build.changeset, wiki_tui.agent.operations; "
            "from wiki_tui.forms.preview import views; "
            "views('a.md', '```chart\\nkind: bar\\ntitle: t\\nseries:\\n - pages: [A]\\n"
            "   data: [[a, 1]]\\n```\\n'); "
            "print('matplotlib' in sys.modules, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == "False False"


def test_app_start_path_leaves_the_vault_index_to_its_worker():
    """What the first frame does not need is not imported before it: the vault's index, SQLite,
    rapidfuzz and YAML load in the vault worker after the first paint (issue 21: ~40 ms of a
    ~0.3 s start). The package's names still resolve on use."""
    code = ("import sys; import wiki_tui.ui.app; "
            "heavy = ['wiki_tui.vault.model', 'sqlite3', 'rapidfuzz', 'yaml', 'wiki_tui.vault.lint']; "
            "print(sorted(m for m in heavy if m in sys.modules)); "
            "from wiki_tui.vault import Vault, VaultError, init_vault; "
            "import wiki_tui.vault as v; "
            "print(Vault.__module__, VaultError.__module__, 'Finding' in dir(v))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip().splitlines()
    assert out == ["[]", "wiki_tui.vault.model wiki_tui.vault.layout True"]
