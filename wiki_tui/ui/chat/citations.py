"""A small chooser for the pages an answer cites; the chosen path opens in the browser."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option


class CitationsScreen(ModalScreen[str | None]):
    """Dismisses with the vault path of the chosen citation, or None."""

    CSS_PATH = Path(__file__).parent.parent / "modals.tcss"

    BINDINGS = [Binding("escape", "dismiss_none", "Close", id="citations.close")]

    def __init__(self, targets: list[tuple[str, str | None]]) -> None:
        super().__init__()
        self.targets = targets  # (page title or link as written, resolved path or None)

    def compose(self) -> ComposeResult:
        options = [
            Option(Text.assemble(shown, ("  " + path, "dim")) if path
                   else Text.assemble(shown, ("  not in the wiki", "dim italic")),
                   id=path or None, disabled=path is None)
            for shown, path in self.targets
        ]
        with Vertical(id="citations-box"):
            yield Label("Cited pages — enter opens", id="citations-title")
            yield OptionList(*options, id="citations-list")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
