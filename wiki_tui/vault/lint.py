"""Structural lint (placeholder while being written)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    code: str
    path: str
    line: int
    message: str
    suggestion: str | None = None
    severity: str = "warning"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        text = f"{where}: {self.severity}: {self.message} [{self.code}]"
        return f"{text} (did you mean {self.suggestion}?)" if self.suggestion else text


def lint_vault(vault):
    return []


def lint_changes(vault, files):
    return []
