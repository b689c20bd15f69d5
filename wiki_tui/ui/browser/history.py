"""Browser-style history: back and forward over visited locations, with scroll positions."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Visit:
    path: str
    scroll_y: float = 0.0


class History:
    def __init__(self, limit: int = 200) -> None:
        self._visits: list[Visit] = []
        self._index = -1
        self._limit = limit

    @property
    def current(self) -> Visit | None:
        return self._visits[self._index] if self._index >= 0 else None

    @property
    def can_back(self) -> bool:
        return self._index > 0

    @property
    def can_forward(self) -> bool:
        return self._index < len(self._visits) - 1

    def visit(self, path: str) -> Visit:
        """A new location: drops the forward entries, like a browser (the same page again is
        not a new entry)."""
        if self.current is not None and self.current.path == path:
            return self.current
        del self._visits[self._index + 1 :]
        self._visits.append(Visit(path))
        if len(self._visits) > self._limit:
            del self._visits[0]
        self._index = len(self._visits) - 1
        return self._visits[self._index]

    def back(self) -> Visit | None:
        if not self.can_back:
            return None
        self._index -= 1
        return self._visits[self._index]

    def forward(self) -> Visit | None:
        if not self.can_forward:
            return None
        self._index += 1
        return self._visits[self._index]

    def recent(self, limit: int = 20) -> list[str]:
        """Distinct visited paths, most recent first."""
        seen: dict[str, None] = {}
        for visit in reversed(self._visits[: self._index + 1]):
            seen.setdefault(visit.path, None)
        return list(seen)[:limit]
