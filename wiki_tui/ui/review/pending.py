"""The pending reviews, one row each: enter opens one, d drops one (after a question), esc closes.

Dismisses with ("open", changeset), ("drop", changeset) or None; the app does the rest.
"""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from wiki_tui.changes.model import CONFLICT
from wiki_tui.ui.frame.keybar import KeyBar
from wiki_tui.ui.review.file_list import summary


def pending_row(changeset: Any, created: str, agent: str | None = None) -> Text:
    """`ingest | Title` then the files' decisions, who proposed it (another agent, over MCP)
    and when, and files changed on disk."""
    row = Text(f"{changeset.operation} | {changeset.title}", style="bold")
    row.append(f"\n  {summary(changeset)}", style="")
    if agent:
        row.append(" · proposed by ", style="dim")
        row.append(agent, style="bold")
    if created:
        row.append(f" · {'' if agent else 'proposed '}{_local(created)}", style="dim")
    stale = [f.path for f in changeset.files if f.status == CONFLICT]
    if stale:
        row.append(f" · changed on disk: {', '.join(stale)}", style="bold")
    return row


def _local(created: str) -> str:
    """An ISO time (UTC as stored) as local `YYYY-MM-DD HH:MM`."""
    try:
        return f"{_dt.datetime.fromisoformat(created).astimezone():%Y-%m-%d %H:%M}"
    except ValueError:
        return created


class PendingScreen(ModalScreen[tuple[str, Any] | None]):
    CSS_PATH = Path(__file__).parent.parent / "modals.tcss"

    BINDINGS = [
        Binding("enter", "choose('open')", "Open", id="pending.open"),
        Binding("d", "choose('drop')", "Drop", id="pending.drop"),
        Binding("escape", "close", "Close", id="pending.close"),
    ]

    def __init__(self, items: list[tuple[Any, str, str | None]]) -> None:
        super().__init__()
        self.items = items  # (changeset, created, proposing agent or None), oldest first

    def compose(self) -> ComposeResult:
        options = [Option(pending_row(*item), id=str(i)) for i, item in enumerate(self.items)]
        with Vertical(id="pending-box"):
            yield Label(f"Pending reviews ({len(self.items)}): enter opens, d drops. "
                        "Nothing is written until applied in its review.", id="pending-title")
            yield OptionList(*options, id="pending-list")
        yield KeyBar()

    def on_mount(self) -> None:
        listing = self.query_one(OptionList)
        listing.highlighted = len(self.items) - 1  # the newest, as ctrl+r opened before
        listing.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_choose("open")

    def action_choose(self, what: str) -> None:
        index = self.query_one(OptionList).highlighted
        if index is not None:
            self.dismiss((what, self.items[index][0]))

    def action_close(self) -> None:
        self.dismiss(None)
