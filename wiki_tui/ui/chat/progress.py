"""The progress line in the conversation: one line that updates while an operation runs.

A long operation (an ingest of a big source, offline or by a model) must not look frozen: from
the moment it starts until it ends, the line says what it is doing (its phase: the tool it
calls, the page it writes, a retry), how many files it has proposed, roughly how many tokens
have streamed, and for how long, with the key that cancels it. The presenter feeds it events;
it repaints on the conversation's flush timer, reading the time off the app's clock.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from wiki_tui.ui.frame.markup import counted

CHARS_PER_TOKEN = 4  # a rough rule for English prose: the count is shown as "~N tokens"


class ProgressLine(Static):
    def __init__(self) -> None:
        super().__init__("", id="progress")
        self.display = False
        self.operation = ""
        self.title = ""
        self.phase = ""
        self.files: set[str] = set()
        self.chars = 0
        self.step: tuple[int, int] | None = None  # (done, total) when the phase counts things
        self.started_at = 0.0
        self._shown = ""

    def start(self, operation: str, started_at: float) -> None:
        self.operation, self.title, self.phase = operation, "", "starting"
        self.files, self.chars, self.step = set(), 0, None
        self.started_at = started_at
        self.display = True
        self.tick(started_at)

    def set_phase(self, phase: str, step: tuple[int, int] | None = None) -> None:
        self.phase, self.step = phase, step

    def streamed(self, text: str) -> None:
        self.chars += len(text)
        if self.phase in ("starting", "waiting for the model"):
            self.phase = "writing the reply"

    def file(self, path: str) -> None:
        self.files.add(path)
        self.phase = f"writing {path}"

    def stop(self) -> None:
        self.display = False
        self._shown = ""

    def line(self, now: float) -> str:
        parts = [self.operation or "working"]
        phase = self.phase
        if self.step is not None:
            done, total = self.step
            phase += f" {done}/{total}" if total else f" {done}"
        parts.append(phase)
        if self.files:
            parts.append(counted(len(self.files), "file"))
        if self.chars:
            parts.append(f"~{max(1, self.chars // CHARS_PER_TOKEN):,} tokens")
        parts.append(f"{max(0, int(now - self.started_at))} s")
        return " · ".join(parts) + " — esc cancels"

    def tick(self, now: float) -> None:
        """Repaint if what the line says has changed (called on every conversation flush)."""
        if not self.display:
            return
        line = self.line(now)
        if line != self._shown:
            self._shown = line
            self.update(Text("⟳ " + line, no_wrap=True, overflow="ellipsis"))
