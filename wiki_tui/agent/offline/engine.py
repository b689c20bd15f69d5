"""The offline engine's answers (placeholder until the vault and protocol layers land)."""

from __future__ import annotations

from typing import Any


def respond(task: Any, messages: list) -> str:
    return "offline engine — not a language model\n"
