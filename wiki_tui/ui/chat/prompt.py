"""The conversation's input: multi-line, enter sends (remappable), history on up/down,
and completion of commands and `raw/` paths on tab."""

from __future__ import annotations

from typing import Callable

from textual import events
from textual.message import Message
from textual.widgets import TextArea

from wiki_tui.ui.chat.commands import completions
from wiki_tui.ui.chat.standin import PROMPT_BINDINGS


class PromptInput(TextArea):
    BINDINGS = PROMPT_BINDINGS  # (shared with its stand-in of the first frame)

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class _Queued(Message):
        """An action that must run after the keys already queued for this input."""

        def __init__(self, action: Callable[[], None]) -> None:
            super().__init__()
            self.action = action

    class CompletionsChanged(Message):
        def __init__(self, options: list[str]) -> None:
            super().__init__()
            self.options = options

    def __init__(self, history: list[str] | None = None,
                 raw_files: Callable[[], list[str]] | None = None, **kwargs) -> None:
        super().__init__(soft_wrap=True, show_line_numbers=False, tab_behavior="focus",
                         compact=True, highlight_cursor_line=False, **kwargs)
        self.entries: list[str] = list(history or [])
        self._history_index: int | None = None  # None: editing a new entry
        self._draft = ""
        self._raw_files = raw_files or (lambda: [])
        self._options: list[str] = []

    # -- sending ---------------------------------------------------------------------------
    # enter/ctrl+j are priority bindings (TextArea would take them first), and priority bindings
    # run as soon as the app reads the key, while the characters typed before it may still wait
    # in this widget's queue: a fast burst (a paste, tmux, SSH) would send half a line. So the
    # actions queue themselves behind those keys.
    def action_submit(self) -> None:
        self.post_message(self._Queued(self._submit))

    def action_newline(self) -> None:
        self.post_message(self._Queued(lambda: self.insert("\n")))

    def type_key(self, key: str, character: str | None) -> None:
        """A key typed for this input that reached another screen first (a review that
        stepped aside): it goes through the same path as a key pressed here, in order."""
        bindings = self._bindings.copy()
        bindings.apply_keymap(self.app._keymap)  # the configured send/newline keys
        for binding in bindings.key_to_bindings.get(key, []):
            if binding.priority:  # enter, ctrl+j, tab: the app runs these before the widget
                getattr(self, f"action_{binding.action}")()
                return
        self._forward_event(events.Key(key, character))

    def on_prompt_input__queued(self, message: _Queued) -> None:
        message.stop()
        message.action()

    def _submit(self) -> None:
        text = self.text
        if not text.strip():
            return
        if not self.entries or self.entries[-1] != text:
            self.entries.append(text)
        self._history_index = None
        self._draft = ""
        self.clear()
        self.post_message(self.Submitted(text))

    # -- history ---------------------------------------------------------------------------
    def action_cursor_up(self, select: bool = False) -> None:
        if select or self.cursor_location[0] > 0 or not self.entries:
            super().action_cursor_up(select)
            return
        if self._history_index is None:
            self._draft = self.text
            self._history_index = len(self.entries)
        if self._history_index > 0:
            self._history_index -= 1
            self._show(self.entries[self._history_index])

    def action_cursor_down(self, select: bool = False) -> None:
        last_row = self.document.line_count - 1
        if select or self.cursor_location[0] < last_row or self._history_index is None:
            super().action_cursor_down(select)
            return
        self._history_index += 1
        if self._history_index >= len(self.entries):
            self._history_index = None
            self._show(self._draft)
        else:
            self._show(self.entries[self._history_index])

    def _show(self, text: str) -> None:
        self.text = text
        self.move_cursor(self.document.end)

    # -- completion ------------------------------------------------------------------------
    def _on_text_area_changed(self, event: TextArea.Changed) -> None:
        options = completions(self.text, self._raw_files()) if self.text.startswith("/") else []
        if options != self._options:
            self._options = options
            self.post_message(self.CompletionsChanged(options))

    def action_complete(self) -> None:
        if not self._options:
            self.screen.focus_next()
            return
        choice = self._options[0]
        if choice.startswith("/") and " " not in choice:
            choice += " "
        self._show(choice)
