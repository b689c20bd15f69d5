"""The status bar: vault, model, git branch, pending reviews, and what is running."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static


def git_branch(root: Path) -> str:
    """The checked-out branch, read from .git/HEAD (no subprocess on the start-up path)."""
    git = root / ".git"
    try:
        if git.is_file():  # a worktree: "gitdir: /path"
            git = Path(git.read_text(encoding="utf-8").split(":", 1)[1].strip())
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
    except (OSError, IndexError, UnicodeDecodeError):
        return "no git"
    if head.startswith("ref: refs/heads/"):
        return head.removeprefix("ref: refs/heads/")
    return f"detached {head[:8]}"


class StatusBar(Static):
    vault_name: reactive[str] = reactive("")
    model: reactive[str] = reactive("")
    branch: reactive[str] = reactive("")
    pending_reviews: reactive[int] = reactive(0)
    activity: reactive[str] = reactive("")

    def render(self) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f" {self.vault_name} ", style="bold")
        text.append("│ ", style="dim")
        text.append(self.model or "…")
        text.append(" │ ", style="dim")
        text.append(f"⎇ {self.branch}")
        text.append(" │ ", style="dim")
        reviews = self.pending_reviews
        text.append(f"{reviews} pending review{'s' if reviews != 1 else ''}",
                    style="bold" if reviews else "dim")
        if reviews:
            text.append(" ^r", style="dim")
        if self.activity:
            text.append(" │ ", style="dim")
            text.append(self.activity, style="italic")
        return text
