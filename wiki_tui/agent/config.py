"""Which model to talk to, and how: settings resolved from flags, environment and config files.

Order (first wins): `--model`, `WIKI_TUI_MODEL`, `<vault>/.wiki-tui/config.toml`, the user's
`$XDG_CONFIG_HOME/wiki-tui/config.toml`. Nothing configured -> the built-in offline engine.
The server (api_base): `--api-base`, `WIKI_TUI_API_BASE`, else the config's `api_base` when the
model is of the provider the config wrote it for (see `_with_api_base`).

API keys are never read from config: litellm reads them from the environment itself
(OPENAI_API_KEY, ANTHROPIC_API_KEY, ...). `AgentSettings.api_key` exists only for programs and
tests that pass a key explicitly; it is never printed (repr=False) nor written anywhere.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

OFFLINE_MODEL = "wiki-offline/engine"
OFFLINE_LABEL = "offline engine — not a language model"
# Names a person may write in config to ask for the built-in engine explicitly.
_OFFLINE_NAMES = {"offline", "wiki-offline", OFFLINE_MODEL}


class ConfigError(Exception):
    """A config file that cannot be read: the message names the file and the fault."""


@dataclass(frozen=True)
class AgentSettings:
    model: str = OFFLINE_MODEL
    offline: bool = True
    api_base: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None  # reply length limit (None: the provider's default)
    context_tokens: int = 32_000  # budget for the prompt (schema, page list, pages)
    source: str = "no model configured"  # where the model choice came from, for the person
    api_key: str | None = field(default=None, repr=False)  # never from config; see module doc
    timeout: float = 120.0  # seconds without a byte from the model before giving up
    reply_limit: float = 900.0  # seconds one reply may stream in all, however it trickles
    max_retries: int = 4  # rate limit / server errors, before the first token
    retry_base_delay: float = 1.0  # backoff: base * 2**attempt (Retry-After wins when given)
    tools: bool | None = None  # None: offer tools, fall back when the provider refuses
    edit_rounds: int = 3  # protocol/match errors sent back to the model at most this often
    max_source_mb: float = 50.0  # a bigger source is refused naming its size
    vision: bool | None = None  # send a source's images: None asks litellm.supports_vision
    api_base_source: str = ""  # where api_base came from (--api-base, WIKI_TUI_API_BASE, a file)
    server_note: str = ""  # why a configured api_base was not used, for the person

    @property
    def server(self) -> str:
        """Where requests go, for the person: the api_base, or the provider's own server."""
        if self.offline:
            return "this process (no network)"
        if self.api_base:
            return self.api_base
        return f"{provider_of(self.model)}'s hosted API"

    @property
    def label(self) -> str:
        """How the UI names the model: the model string, or the offline engine's plain label."""
        return OFFLINE_LABEL if self.offline else self.model

    def with_model(self, model: str) -> "AgentSettings":
        offline = model in _OFFLINE_NAMES
        return replace(self, model=OFFLINE_MODEL if offline else model, offline=offline)


def user_config_dir() -> Path:
    """`$XDG_CONFIG_HOME/wiki-tui` (default ~/.config/wiki-tui)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "wiki-tui"


def user_config_path() -> Path:
    return user_config_dir() / "config.toml"


def vault_config_path(vault_root: Path | str) -> Path:
    return Path(vault_root) / ".wiki-tui" / "config.toml"


def _read_toml(path: Path) -> dict:
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror}") from exc


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def load_config(vault_root: Path | str | None = None) -> dict:
    """User config merged with the vault's (the vault's keys win; tables merge key by key)."""
    merged = _read_toml(user_config_path())
    if vault_root is not None:
        merged = _merge(merged, _read_toml(vault_config_path(vault_root)))
    return merged


_NUMBERS = {"temperature": float, "max_tokens": int, "context_tokens": int, "timeout": float,
            "reply_limit": float, "max_retries": int, "max_source_mb": float}


def resolve_settings(vault_root: Path | str | None, cli_model: str | None = None,
                     cli_api_base: str | None = None) -> AgentSettings:
    """The settings for this run; see the module doc for the order. Raises ConfigError."""
    user = _read_toml(user_config_path())
    vault = _read_toml(vault_config_path(vault_root)) if vault_root is not None else {}
    merged = _merge(user, vault)

    env_model = os.environ.get("WIKI_TUI_MODEL", "").strip()
    if cli_model:
        model, source = cli_model, "--model"
    elif env_model:
        model, source = env_model, "WIKI_TUI_MODEL"
    elif vault.get("model"):
        model, source = str(vault["model"]), str(vault_config_path(vault_root))
    elif user.get("model"):
        model, source = str(user["model"]), str(user_config_path())
    else:
        model, source = OFFLINE_MODEL, "no model configured"

    values: dict[str, Any] = {}
    for key, kind in _NUMBERS.items():
        if key in merged:
            try:
                values[key] = kind(merged[key])
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"config key {key!r}: expected a number, got "
                                  f"{merged[key]!r}") from exc
    for key in ("tools", "vision"):
        if key in merged:
            values[key] = bool(merged[key])
    settings = AgentSettings(source=source, **values).with_model(model.strip())
    if settings.offline:
        return settings
    return _with_api_base(settings, cli_api_base, _config_api_base(vault_root, vault, user))


def provider_of(model: str) -> str:
    """litellm's provider prefix of a model string ("openai" when there is none)."""
    return model.split("/", 1)[0] if "/" in model else "openai"


def _config_api_base(vault_root, vault: dict, user: dict) -> tuple[str, str | None, str] | None:
    """(api_base, the model it was written for or None, the file) from the most specific
    config file that names an api_base."""
    for config, path in ((vault, vault_root and vault_config_path(vault_root)),
                         (user, user_config_path())):
        if str(config.get("api_base") or "").strip():
            written_for = config.get("model") or vault.get("model") or user.get("model")
            return str(config["api_base"]).strip(), written_for and str(written_for), str(path)
    return None


def _with_api_base(settings: AgentSettings, cli_api_base: str | None,
                   config: tuple[str, str | None, str] | None) -> AgentSettings:
    """Where the model's requests go: --api-base, WIKI_TUI_API_BASE, else the config's
    api_base when it was written for a model of the same provider (or for none), so that
    `--model openai/qwen2.5` keeps the local server the config names. A config api_base for
    another provider is not used, and `server_note` says so: the pages go to that provider."""
    env_api_base = os.environ.get("WIKI_TUI_API_BASE", "").strip()
    if cli_api_base and cli_api_base.strip():
        return replace(settings, api_base=cli_api_base.strip(), api_base_source="--api-base")
    if env_api_base:
        return replace(settings, api_base=env_api_base, api_base_source="WIKI_TUI_API_BASE")
    if config is None:
        return settings
    api_base, written_for, path = config
    if written_for is None or provider_of(written_for) == provider_of(settings.model):
        return replace(settings, api_base=api_base, api_base_source=path)
    return replace(settings, server_note=(
        f"{path} sets api_base {api_base} for {written_for}; {settings.model} is another "
        f"provider's model, so it goes to {provider_of(settings.model)}'s own server "
        "(pass --api-base to choose the server)"))
