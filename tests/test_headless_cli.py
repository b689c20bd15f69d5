"""The headless command line as the README shows it (issue 11): global flags on either side of
the command name, a vault folder checked before anything is written, pipes that close early,
piped output not wrapped, and which server a model's requests go to."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from benchmarks.bench_headless import clean_env, fresh_vault, run_once, wiki_tui_command
from tests.conftest import SAMPLE_VAULT
from wiki_tui.agent.config import resolve_settings, user_config_dir, vault_config_path
from wiki_tui.cli import main, parse_args


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


# -- flags before or after the command ---------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["--vault", "V", "--json", "lint"],
    ["lint", "--vault", "V", "--json"],
    ["--json", "lint", "--vault", "V"],
    ["--vault=V", "lint", "--json"],
])
def test_vault_and_json_work_before_or_after_the_command(argv):
    _, args = parse_args(argv)
    assert (args.command, str(args.vault), args.json) == ("lint", "V", True)


def test_model_and_api_base_work_before_the_command():
    _, args = parse_args(["--model", "openai/m", "--api-base", "http://h/v1", "query", "Q"])
    assert (args.command, args.model, args.api_base, args.question) == (
        "query", "openai/m", "http://h/v1", "Q")
    _, args = parse_args(["--model", "openai/m", "V"])  # no command: the app
    assert (args.command, args.model, str(args.path)) == ("open", "openai/m", "V")


def test_a_flag_after_the_command_wins_and_defaults_survive():
    _, args = parse_args(["--model", "a/x", "query", "Q", "--model", "b/y"])
    assert args.model == "b/y"
    _, args = parse_args(["apply", "reply.txt"])  # apply's own --model default is kept
    assert args.model == "external"


def test_a_global_flag_the_command_does_not_take_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        parse_args(["--model", "openai/m", "search", "x"])
    assert exc.value.code == 2 and "`search` takes no --model" in capsys.readouterr().err


def test_vault_before_json_lint_runs(sample_vault, capsys):
    assert main(["--vault", str(sample_vault), "--json", "lint"]) == 1  # one broken link
    assert any(f["code"] == "broken-link" for f in json.loads(capsys.readouterr().out))


# -- a folder that is not a vault --------------------------------------------------------------
def _tree(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


@pytest.mark.parametrize("argv", [["open", "--no-open"], ["lint"], ["search", "todo"],
                                  ["find", "todo"], ["links", "todo"], ["backlinks", "todo"]])
def test_a_folder_of_notes_is_read_and_left_untouched(argv, tmp_path, monkeypatch, capsys):
    folder = tmp_path / "notes"
    write(folder / "todo.md", "---\ndescription: What is left.\n---\n# Todo\n[[gone]]\n")
    write(folder / "sub" / "more.md", "# More\n")
    before = _tree(folder)
    monkeypatch.chdir(folder)
    assert main(argv) in (0, 1), capsys.readouterr().err  # lint: 1 for the broken link
    assert _tree(folder) == before  # no .wiki-tui/, nothing else either
    assert "not a wiki-tui vault" not in capsys.readouterr().err


def test_a_folder_not_adopted_keeps_its_state_in_the_user_cache(tmp_path, monkeypatch):
    from wiki_tui.vault.state import cache_state_dir, state_dir

    folder = tmp_path / "notes"
    write(folder / "todo.md", "# Todo\nharrison\n")
    assert main(["--vault", str(folder), "search", "harrison"]) == 0
    cache = cache_state_dir(folder)
    assert state_dir(folder) == cache and (cache / "search.sqlite").is_file()
    assert str(cache).startswith(os.environ["XDG_CACHE_HOME"]) and cache.name.endswith("-notes")
    other = tmp_path / "elsewhere" / "notes"  # same name, other path: its own folder
    write(other / "a.md", "# A\n")
    assert cache_state_dir(other) != cache
    (folder / "AGENTS.md").write_text("# Schema\n")  # adopted now: state beside the pages
    assert state_dir(folder) == folder / ".wiki-tui"


@pytest.mark.parametrize("argv", [["undo"], ["apply", "reply.txt", "--yes"], ["ingest", "x.md"],
                                  ["ask", "merge them"], ["query", "x", "--save"]])
def test_writing_into_a_folder_not_adopted_says_to_init(argv, tmp_path, monkeypatch, capsys):
    folder = tmp_path / "notes"
    write(folder / "todo.md", "# Todo\n")
    write(tmp_path / "reply.txt", "@@@ WRITE new.md\n# New\n@@@ END\n")
    write(tmp_path / "x.md", "# a source\n")
    monkeypatch.chdir(tmp_path)
    argv = [a if a not in ("reply.txt", "x.md") else str(tmp_path / a) for a in argv]
    assert main(["--vault", str(folder), *argv]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"{folder} is not a wiki-tui vault yet (no AGENTS.md): run `wiki-tui init {folder}`" in err
    assert "--vault DIR" not in err
    assert _tree(folder) == ["todo.md"]


def test_a_folder_without_markdown_is_refused(tmp_path, capsys):
    folder = tmp_path / "photos"
    write(folder / "a.jpg", "not really a photo")
    write(folder / ".hidden" / "x.md", "# not a page\n")
    write(folder / "raw" / "source.md", "# a source, not a page\n")
    assert main(["--vault", str(folder), "lint"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"{folder} holds no markdown pages" in err and f"wiki-tui init {folder}" in err
    assert _tree(folder) == [".hidden", ".hidden/x.md", "a.jpg", "raw", "raw/source.md"]


def test_home_and_the_root_folder_are_refused(tmp_path, capsys):
    home = Path(os.environ["HOME"])
    write(home / "notes.md", "# a note in home\n")
    assert main(["--vault", str(home), "search", "x"]) == 2
    assert "is your home folder, not a vault" in capsys.readouterr().err
    assert main(["--vault", "/", "lint"]) == 2
    assert "is the root folder, not a vault" in capsys.readouterr().err


def test_an_obsidian_vault_is_a_vault(tmp_path, capsys):
    (tmp_path / ".obsidian").mkdir()
    write(tmp_path / "note.md", "# Note\n")
    assert main(["--vault", str(tmp_path), "search", "note"]) == 0


# -- pipes -------------------------------------------------------------------------------------
def test_piped_output_is_not_wrapped_at_80_columns(tmp_path):
    out = subprocess.run([*wiki_tui_command(), "--vault", str(SAMPLE_VAULT), "lint"],
                         capture_output=True, text=True, env=clean_env(tmp_path), timeout=110)
    assert max(len(line) for line in out.stdout.splitlines()) > 100


def test_query_json_into_a_closed_pipe_ends_quietly(tmp_path):
    # `wiki-tui query --json | head -0`: the reader is gone before the first line.
    vault = fresh_vault(tmp_path)
    proc = subprocess.Popen([*wiki_tui_command(), "query", "what is in this wiki", "--json"],
                            cwd=vault, env=clean_env(tmp_path / "home"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=110) == 1
    assert "Traceback" not in err and "BrokenPipe" not in err, err


# -- which server the model's requests go to ---------------------------------------------------
def test_config_api_base_serves_a_model_flag_of_the_same_provider(tmp_path, monkeypatch):
    write(vault_config_path(tmp_path), 'model = "openai/gpt-4o-mini"\n'
                                       'api_base = "http://127.0.0.1:8080/v1"\n')
    s = resolve_settings(tmp_path, "openai/qwen2.5")
    assert (s.model, s.api_base, s.source) == ("openai/qwen2.5", "http://127.0.0.1:8080/v1",
                                               "--model")
    assert s.api_base_source == str(vault_config_path(tmp_path))
    monkeypatch.setenv("WIKI_TUI_MODEL", "openai/qwen2.5")
    assert resolve_settings(tmp_path).api_base == "http://127.0.0.1:8080/v1"


def test_config_api_base_alone_serves_any_model(tmp_path):
    write(user_config_dir() / "config.toml", 'api_base = "http://127.0.0.1:8080/v1"\n')
    assert resolve_settings(tmp_path, "qwen2.5").api_base == "http://127.0.0.1:8080/v1"


def test_config_api_base_for_another_provider_is_not_used_and_said(tmp_path):
    write(user_config_dir() / "config.toml", 'model = "openai/qwen2.5"\n'
                                             'api_base = "http://127.0.0.1:8080/v1"\n')
    s = resolve_settings(tmp_path, "anthropic/claude-sonnet-4-5")
    assert s.api_base is None and s.server == "anthropic's hosted API"
    assert "http://127.0.0.1:8080/v1" in s.server_note and "--api-base" in s.server_note


def test_api_base_flag_then_env_then_config(tmp_path, monkeypatch):
    write(vault_config_path(tmp_path), 'api_base = "http://config/v1"\n')
    monkeypatch.setenv("WIKI_TUI_API_BASE", "http://env/v1")
    s = resolve_settings(tmp_path, "openai/m", "http://flag/v1")
    assert (s.api_base, s.api_base_source) == ("http://flag/v1", "--api-base")
    s = resolve_settings(tmp_path, "openai/m")
    assert (s.api_base, s.api_base_source) == ("http://env/v1", "WIKI_TUI_API_BASE")
    assert resolve_settings(tmp_path, "offline").api_base is None


def test_the_readmes_local_server_recipe(llm_server, tmp_path):
    """`wiki-tui --model openai/qwen2.5 --vault ~/wiki` with api_base in the config, as a real
    process: the pages go to the config's server, even with a hosted provider's key set."""
    from tests.support.llm_server import Reply

    home = tmp_path / "home"
    env = clean_env(home) | {"OPENAI_API_KEY": "sk-would-reach-the-hosted-api"}
    write(home / ".config" / "wiki-tui" / "config.toml",
          f'model = "openai/gpt-4o-mini"\napi_base = "{llm_server.api_base}"\n')
    vault = fresh_vault(tmp_path)
    llm_server.queue(Reply("Chronometers, per [[Marine chronometer]]."))
    elapsed, code, err = run_once(["--model", "openai/qwen2.5", "--vault", str(vault), "query",
                                   "What is a marine chronometer?"], vault, env, 90)
    assert code == 0, err
    assert len(llm_server.requests) == 1
    assert llm_server.requests[0].body["model"] == "qwen2.5"
    assert f"model: openai/qwen2.5 at {llm_server.api_base}" in err
