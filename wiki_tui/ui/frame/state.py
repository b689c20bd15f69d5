"""App-written state (chosen theme, input history) in `$XDG_STATE_HOME/wiki-tui/state.json`.

The person never edits this file; a damaged one is set aside rather than trusted or lost.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

HISTORY_LIMIT = 500


def state_path() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "wiki-tui" / "state.json"


class AppState:
    """A small JSON document; every change is written at once (atomically)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or state_path()
        self.notice: str | None = None
        self.data: dict[str, Any] = self._load()

    def _load(self) -> dict[str, Any]:
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            self.notice = f"could not read {self.path}: {exc.strerror}"
            return {}
        try:
            data = json.loads(raw)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            # Keep the damaged file for inspection; start afresh.
            aside = self.path.with_suffix(".json.bad")
            try:
                os.replace(self.path, aside)
            except OSError:
                pass
            self.notice = f"state file was damaged ({exc}); moved to {aside.name}"
            return {}
        return data

    def save(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".state-", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.data, handle, ensure_ascii=False, indent=1)
            os.replace(tmp, self.path)
        except OSError as exc:
            self.notice = f"could not save {self.path}: {exc.strerror}"

    @property
    def theme(self) -> str | None:
        value = self.data.get("theme")
        return value if isinstance(value, str) else None

    @theme.setter
    def theme(self, name: str) -> None:
        if self.data.get("theme") != name:
            self.data["theme"] = name
            self.save()

    @property
    def history(self) -> list[str]:
        value = self.data.get("history")
        return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []

    def add_history(self, entry: str) -> None:
        history = [item for item in self.history if item != entry]
        history.append(entry)
        self.data["history"] = history[-HISTORY_LIMIT:]
        self.save()
