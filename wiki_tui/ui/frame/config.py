"""The person's configuration as the UI needs it: theme, send key, key remaps.

Reading and merging the TOML files belongs to `wiki_tui.agent.config.load_config`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wiki_tui.agent.config import load_config, user_config_dir  # noqa: F401 (re-exported)


@dataclass
class UiConfig:
    theme: str | None = None
    send_key: str = "enter"  # "enter" (ctrl+j = newline) or "ctrl+j" (enter = newline)
    keys: dict[str, str] = field(default_factory=dict)  # binding id -> "key[,key...]"
    show_listings: bool = False  # index.md and log.md among backlinks, mentions, search hits
    notices: list[str] = field(default_factory=list)

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "UiConfig":
        ui = config.get("ui") if isinstance(config.get("ui"), dict) else {}
        result = cls()
        notices = result.notices
        theme = ui.get("theme", config.get("theme"))
        if theme is not None:
            if isinstance(theme, str):
                result.theme = theme
            else:
                notices.append("config: [ui] theme must be a string; ignored")
        send_key = ui.get("send_key", config.get("send_key"))
        if send_key is not None:
            if send_key in ("enter", "ctrl+j"):
                result.send_key = send_key
            else:
                notices.append(f'config: send_key must be "enter" or "ctrl+j", not {send_key!r}')
        show_listings = ui.get("show_listings")
        if show_listings is not None:
            if isinstance(show_listings, bool):
                result.show_listings = show_listings
            else:
                notices.append("config: [ui] show_listings must be true or false; ignored")
        keys = config.get("keys", {})
        if isinstance(keys, dict):
            for binding_id, value in keys.items():
                if isinstance(value, list):
                    value = ",".join(str(v) for v in value)
                if isinstance(value, str) and value.strip():
                    result.keys[str(binding_id)] = ",".join(k.strip() for k in value.split(","))
                else:
                    notices.append(f"config: [keys] {binding_id} must be a key string; ignored")
        else:
            notices.append("config: [keys] must be a table; ignored")
        return result


def load_ui_config(vault_root: Path) -> UiConfig:
    try:
        config = load_config(vault_root)
    except Exception as exc:  # a broken config file must not stop the app
        ui = UiConfig()
        ui.notices.append(f"config not loaded: {exc}")
        return ui
    return UiConfig.from_config(config)
