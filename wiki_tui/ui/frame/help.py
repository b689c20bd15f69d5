"""F1: every key binding of the app with its id (for remapping in config) and its key now."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Static


def binding_rows(app, extra_classes: tuple[type[DOMNode], ...] = ()) -> list[tuple[str, str, str, str]]:
    """(id, keys, description, where) for every binding with an id, keymap applied."""
    nodes: list[DOMNode] = [app]
    screen = app.screen_stack[0] if app.screen_stack else app.screen
    nodes.append(screen)
    nodes.extend(screen.query("*"))
    classes: dict[type, None] = {}
    for node in nodes:
        classes.setdefault(type(node), None)
    for cls in extra_classes:
        classes.setdefault(cls, None)
    by_id: dict[str, tuple[list[str], str, str]] = {}
    for cls in classes:
        bindings: BindingsMap = cls._merge_bindings().copy()
        if app._keymap:
            bindings.apply_keymap(app._keymap)
        for key, key_bindings in bindings.key_to_bindings.items():
            for binding in key_bindings:
                if not binding.id:
                    continue
                keys, description, where = by_id.setdefault(
                    binding.id, ([], binding.description or binding.action, cls.__name__))
                display = app.get_key_display(Binding(key, binding.action))
                if display not in keys:
                    keys.append(display)
    return sorted((bid, ", ".join(keys), desc, where) for bid, (keys, desc, where) in by_id.items())


class HelpScreen(ModalScreen[None]):
    CSS_PATH = Path(__file__).parent.parent / "modals.tcss"
    BINDINGS = [Binding("escape,f1,q", "dismiss", "Close", id="help.close")]

    def __init__(self, rows: list[tuple[str, str, str, str]]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        # Text, not str: Rich reads a str as markup, and "[keys]" vanished as a tag
        table = Table(title=Text("Keys — remap any id in config.toml under [keys]"), expand=True,
                      box=None, header_style="bold", title_justify="left")
        table.add_column("Key", no_wrap=True, style="bold")
        table.add_column("Action")
        table.add_column("Id", style="dim", no_wrap=True)
        for binding_id, keys, description, _where in self.rows:
            table.add_row(Text(keys), Text(description), Text(binding_id))
        with VerticalScroll(id="help-body"):
            yield Static(table)

    def action_dismiss(self) -> None:
        self.dismiss(None)
