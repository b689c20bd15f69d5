"""Settings resolution: --model, WIKI_TUI_MODEL, vault config, user config, offline default."""

from __future__ import annotations

import pytest

from wiki_tui.agent.config import (
    OFFLINE_MODEL, ConfigError, load_config, resolve_settings, user_config_dir,
)


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_nothing_configured_means_the_offline_engine(tmp_path):
    s = resolve_settings(tmp_path)
    assert s.offline and s.model == OFFLINE_MODEL
    assert "not a language model" in s.label and s.source == "no model configured"


def test_order_cli_env_vault_user(tmp_path, monkeypatch):
    write(user_config_dir() / "config.toml", 'model = "openai/user"\napi_base = "http://u/v1"\n'
          "temperature = 0.5\n[ui]\ntheme = 'x'\n")
    assert resolve_settings(tmp_path).model == "openai/user"
    assert resolve_settings(tmp_path).api_base == "http://u/v1"
    write(tmp_path / ".wiki-tui" / "config.toml",
          'model = "ollama/llama3.1"\n[ui]\nsend_key = "enter"\n')
    s = resolve_settings(tmp_path)
    assert (s.model, s.offline, s.temperature) == ("ollama/llama3.1", False, 0.5)
    assert s.source.endswith(".wiki-tui/config.toml")
    monkeypatch.setenv("WIKI_TUI_MODEL", "anthropic/claude-sonnet-4-5")
    assert resolve_settings(tmp_path).source == "WIKI_TUI_MODEL"
    s = resolve_settings(tmp_path, cli_model="offline")
    assert s.offline and s.source == "--model"
    assert load_config(tmp_path)["ui"] == {"theme": "x", "send_key": "enter"}


def test_bad_config_is_a_precise_error(tmp_path):
    write(tmp_path / ".wiki-tui" / "config.toml", "model = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        resolve_settings(tmp_path)
    write(tmp_path / ".wiki-tui" / "config.toml", 'context_tokens = "lots"\n')
    with pytest.raises(ConfigError, match="context_tokens"):
        resolve_settings(tmp_path)


def test_api_key_never_in_repr():
    from wiki_tui.agent.config import AgentSettings

    assert "sk-secret" not in repr(AgentSettings(api_key="sk-secret"))
