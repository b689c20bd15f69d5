"""Theme files: built-ins load, a broken user theme falls back with a notice, choice persists.
(Every theme's contrast, in truecolor and 256 colours: tests/ui/test_contrast.py.)"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.chat.conversation import NoteLine
from wiki_tui.ui.frame.themes import BUILTIN_THEMES_DIR, ThemeFileError, load_theme_dir, parse_theme


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def saved_theme(tmp_path: Path, name: str) -> Path:
    """The state file as the app leaves it, with `name` as the chosen theme."""
    state = tmp_path / "state" / "wiki-tui"
    state.mkdir(parents=True)
    (state / "state.json").write_text(json.dumps({"theme": name}))
    return state


def user_themes() -> Path:
    folder = Path(os.environ["XDG_CONFIG_HOME"]) / "wiki-tui" / "themes"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_builtin_themes_parse():
    themes, notices = load_theme_dir(BUILTIN_THEMES_DIR)
    assert notices == []
    names = {t.name for t in themes}
    assert {"wiki-dark", "wiki-light", "wiki-high-contrast"} <= names
    assert any(not t.dark for t in themes)


@pytest.mark.parametrize("text, message", [
    ('name = "x"\nprimary = "#zzzzzz"\n', "not a colour"),
    ('name = "x"\n', "'primary' is required"),
    ('name = "x"\nprimary = "#ffffff"\ncolour = "#000000"\n', "unknown keys colour"),
    ('name = "x\nprimary = 1', "not valid TOML"),
])
def test_broken_theme_files_are_named_precisely(text, message):
    with pytest.raises(ThemeFileError, match=message):
        parse_theme(text, "mine.toml")


async def test_broken_user_theme_falls_back_with_notice(git_vault, tmp_path):
    folder = user_themes()
    (folder / "broken.toml").write_text('name = "broken"\nprimary = "not-a-colour"\n')
    (folder / "mine.toml").write_text('name = "mine"\nprimary = "#ff8700"\ndark = true\n')
    state = saved_theme(tmp_path, "broken")
    app = WikiApp(git_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.theme == "wiki-dark"
        assert "mine" in app.available_themes
        lines = [str(n.render()) for n in app.query(NoteLine)]
        assert any("broken.toml" in n and "not a colour" in n for n in lines)
        assert any("theme 'broken' not found" in n for n in lines)
        app.theme = "wiki-light"
        await pilot.pause()
    assert json.loads((state / "state.json").read_text())["theme"] == "wiki-light"
    again = WikiApp(git_vault)
    async with again.run_test(size=(100, 30)) as pilot:
        assert again.theme == "wiki-light"


async def test_app_runs_in_256_colours(git_vault, monkeypatch):
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "256")
    app = WikiApp(git_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for name in ("wiki-light", "wiki-high-contrast"):
            app.theme = name
            await pilot.pause()
        assert app.theme == "wiki-high-contrast"


async def test_theme_chosen_at_start_styles_the_first_frame_and_a_switch_restyles(git_vault, tmp_path):
    # The start-up theme's variables go to the stylesheet before any CSS is parsed, and the
    # refresh Textual queues for that first change is skipped: later switches must still restyle.
    saved_theme(tmp_path, "wiki-light")
    app = WikiApp(git_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        light, dark = app.get_theme("wiki-light"), app.get_theme("wiki-dark")
        assert app.has_class("-light-mode") and app.has_class("-theme-wiki-light")
        assert app.screen.styles.background.hex.lower() == light.background.lower()
        app.theme = "wiki-dark"
        await pilot.pause()
        assert app.has_class("-dark-mode")
        assert app.screen.styles.background.hex.lower() == dark.background.lower()
