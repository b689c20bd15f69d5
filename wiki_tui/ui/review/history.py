"""HistoryScreen: the vault's log (log.md entries with their git commits), newest first; undo.

The app pushes `HistoryScreen(vault)` with a callback: it dismisses with the vault path of a
page to open (enter), or None (Esc). `u` undoes the last wiki-tui change after a confirmation
(journal.undo_last in a worker); a refusal is shown with its reason. After an undo the screen
posts `HistoryScreen.Undone(result)` so the app can refresh what it shows.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from wiki_tui.changes.apply import journal
from wiki_tui.ui.frame.keybar import KeyBar
from wiki_tui.ui.frame.markup import counted, readable
from wiki_tui.ui.review.confirm import ConfirmScreen
from wiki_tui.ui.review.history_data import Commit, Entry, History, load_history

class HistoryScreen(Screen[str | None]):
    CSS_PATH = Path(__file__).with_name("history.tcss")

    BINDINGS = [
        Binding("escape", "close", "Close", id="history.close"),
        Binding("j", "move(1)", "Down", id="history.down", show=False),
        Binding("k", "move(-1)", "Up", id="history.up", show=False),
        Binding("g", "edge(0)", "First", id="history.first", show=False),
        Binding("G", "edge(-1)", "Last", id="history.last", show=False),
        Binding("tab", "switch_list", "Entries/pages", id="history.switch"),
        Binding("u", "undo", "Undo last change", id="history.undo"),
        Binding("f5", "reload", "Reload", id="history.reload", show=False),
    ]

    class Undone(Message):
        """An undo was committed (the app may refresh its views)."""

        def __init__(self, result: Any) -> None:
            super().__init__()
            self.result = result

    def __init__(self, vault: Any) -> None:
        super().__init__()
        self.vault = vault
        self.history: History | None = None
        self.busy = False
        self._flash = ""  # the outcome of the last undo, shown before the summary

    def compose(self) -> ComposeResult:
        yield Static(Text(" History ", "reverse bold") + Text("  log.md and wiki-tui's commits"),
                     id="history-title")
        with Horizontal(id="history-body"):
            yield OptionList(id="history-entries")
            with Vertical(id="history-side"):
                yield Static("Pages", id="history-pages-title")
                yield OptionList(id="history-pages")
        yield Static("Loading the history…", id="history-status")
        yield KeyBar()

    @property
    def entries_list(self) -> OptionList:
        return self.query_one("#history-entries", OptionList)

    @property
    def pages_list(self) -> OptionList:
        return self.query_one("#history-pages", OptionList)

    def on_mount(self) -> None:
        self.entries_list.focus()
        self.action_reload()

    def say(self, message: str) -> None:
        self.query_one("#history-status", Static).update(message)

    # -- loading ---------------------------------------------------------------------------
    def action_reload(self) -> None:
        self._load()

    @work(thread=True, exclusive=True, group="history-load", exit_on_error=False)
    def _load(self) -> None:
        try:
            history = load_history(self.vault)
        except Exception as exc:  # show what went wrong instead of an empty screen
            self.app.call_from_thread(self.say, f"The history could not be read: {exc}")
            return
        self.app.call_from_thread(self._loaded, history)

    def _loaded(self, history: History) -> None:
        self.history = history
        options: list[Option] = []
        for i, entry in enumerate(history.entries):
            options.append(Option(entry_text(entry), id=f"e{i}"))
        for i, commit in enumerate(history.orphans):
            options.append(Option(commit_text(commit), id=f"c{i}"))
        keep = self.entries_list.highlighted
        self.entries_list.set_options(options)
        if options:
            self.entries_list.highlighted = min(keep or 0, len(options) - 1)
        target = history.undo_target()
        parts = [self._flash] if self._flash else []
        self._flash = ""
        parts.append(counted(len(history.entries), "log entry", "log entries"))
        parts.append(f"u undoes “{target.title}” ({target.sha[:7]})" if target
                     else "nothing wiki-tui made is left to undo at the top of git history")
        if history.notice:
            parts.append(history.notice)
        self.say(" · ".join(parts))
        self._show_pages()

    # -- pages of the focused entry --------------------------------------------------------
    def _focused_entry(self) -> Entry | None:
        index = self.entries_list.highlighted
        if self.history is None or index is None or index >= len(self.history.entries):
            return None
        return self.history.entries[index]

    def _paths(self, entry: Entry | None) -> list[str]:
        if entry is None:
            return []
        paths = []
        for target in entry.targets:
            path = self._resolve(target)
            if path not in paths:
                paths.append(path)
        return paths

    def _resolve(self, target: str) -> str:
        resolve = getattr(self.vault, "resolve", None)
        path = resolve(target) if resolve is not None else None
        return path or (target if target.lower().endswith(".md") else target + ".md")

    @on(OptionList.OptionHighlighted, "#history-entries")
    def _show_pages(self) -> None:
        paths = self._paths(self._focused_entry())
        self.pages_list.set_options([Option(p, id=f"p{i}") for i, p in enumerate(paths)])

    @on(OptionList.OptionSelected, "#history-entries")
    def _open_entry(self) -> None:
        paths = self._paths(self._focused_entry())
        if paths:
            self.dismiss(paths[0])
        else:
            self.say("This entry names no page that still exists to open.")

    @on(OptionList.OptionSelected, "#history-pages")
    def _open_page(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(str(event.option.prompt))

    # -- keys ------------------------------------------------------------------------------
    def _list(self) -> OptionList:
        return self.pages_list if self.pages_list.has_focus else self.entries_list

    def action_move(self, step: int) -> None:
        (self._list().action_cursor_down if step > 0 else self._list().action_cursor_up)()

    def action_edge(self, where: int) -> None:
        (self._list().action_first if where == 0 else self._list().action_last)()

    def action_switch_list(self) -> None:
        target = self.entries_list if self.pages_list.has_focus else self.pages_list
        if target is self.pages_list and not self.pages_list.option_count:
            return
        target.focus()
        if target.highlighted is None and target.option_count:
            target.highlighted = 0

    def action_close(self) -> None:
        self.dismiss(None)

    # -- undo ------------------------------------------------------------------------------
    def action_undo(self) -> None:
        if self.busy:
            return
        target = self.history.undo_target() if self.history is not None else None
        if target is None:  # let the journal say precisely why nothing can be undone
            self.busy = True
            self._undo()
            return
        detail = (f"Commit {target.sha[:7]} from {target.date} is reverted by a new commit, and "
                  "log.md gets an “undo” entry. Refused if its files changed since.")
        self.app.push_screen(ConfirmScreen(f"Undo “{target.title}”?", detail),
                             callback=self._confirmed)

    def _confirmed(self, yes: bool | None) -> None:
        if yes:
            self.busy = True
            self._undo()
        else:
            self.say("Undo cancelled: nothing changed.")

    @work(thread=True, exclusive=True, group="history-undo", exit_on_error=False)
    def _undo(self) -> None:
        self.app.call_from_thread(self.say, "undoing…")
        try:
            result = journal.undo_last(self.vault)
        except journal.UndoError as exc:
            self.app.call_from_thread(self._undo_done, None, f"Not undone: {exc.reason}")
            return
        except Exception as exc:  # a bug below must show, not kill the screen
            self.app.call_from_thread(self._undo_done, None, f"Not undone: {exc}")
            return
        message = (f"Undone “{result.title}”: commit {result.commit[:7]} reverts "
                   f"{result.reverted[:7]}")
        if result.notice:
            message += f" ({result.notice})"
        self.app.call_from_thread(self._undo_done, result, message)

    def _undo_done(self, result: Any, message: str) -> None:
        self.busy = False
        self.say(message)
        if result is not None:
            self._flash = message  # kept in front of the reloaded summary
            self.post_message(self.Undone(result))
            self._load()


def entry_text(entry: Entry) -> Table:
    """An entry: date, operation, title, its commit, then its lines (links shown by name)."""
    body = Text()
    body.append(f"{entry.operation} ", "bold")
    body.append(entry.title, "bold")
    if entry.commit is not None:
        body.append(f"  {entry.commit.sha[:7]}", "dim")
        if entry.commit.undone:
            body.append("  undone", "italic")
    for line in entry.lines:
        body.append("\n" + readable(line)[0], "dim")
    return _row(entry.date, body)


def commit_text(commit: Commit) -> Table:
    body = Text()
    body.append(f"{commit.operation or ''} ", "bold")
    body.append(commit.title, "bold")
    body.append(f"  {commit.sha[:7]}  (a wiki-tui commit without a log.md entry)", "dim")
    return _row(commit.date, body)


def _row(date: str, body: Text) -> Table:
    grid = Table.grid(padding=(0, 1), expand=True)
    grid.add_column(no_wrap=True, width=10)
    grid.add_column(ratio=1)
    grid.add_row(Text(date, "bold"), body)
    return grid
