"""The input's stand-in for the first frame: it looks like the empty, focused input and keeps
every key typed at it, until the real input (a TextArea: its module, CSS and set-up cost ~25 ms
before the first paint) takes its place right after that frame; the keys are then typed again,
in order, as if they came from the terminal now (so enter sends, tab completes and up recalls
the history as they would have).

It shows the input's bindings (same keys, same ids: the key bar reads the same and a keymap
applies), but runs none: every key is kept.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

# The input's bindings (PromptInput's own). priority: TextArea itself would take enter as a
# newline before normal bindings run.
PROMPT_BINDINGS = [
    Binding("enter", "submit", "Send", id="conversation.send", priority=True),
    Binding("ctrl+j", "newline", "Newline", id="conversation.newline", priority=True,
            show=False),
    Binding("tab", "complete", "Complete", id="conversation.complete", priority=True,
            show=False),
]


class PromptStandIn(Static, can_focus=True):
    """Until `hand_over` has run: the keys typed at it, as (key, character), oldest first.
    After: whatever still reaches it goes on the same way, and it removes itself."""

    # shown, never run (not priority: the keys reach on_key)
    BINDINGS = [replace(binding, priority=False) for binding in PROMPT_BINDINGS]
    COMPONENT_CLASSES = {"prompt-standin--cursor"}
    DEFAULT_CSS = """
    PromptStandIn {  /* as TextArea's own CSS draws the input */
        color: $foreground;
        background: $surface;
        & .prompt-standin--cursor { text-style: $input-cursor-text-style; }
        &:dark .prompt-standin--cursor {
            color: $input-cursor-foreground;
            background: $input-cursor-background;
        }
        &:light .prompt-standin--cursor {
            color: $text 90%;
            background: $foreground 70%;
        }
    }
    """

    class _HandOver(Message):
        def __init__(self, make: Callable[[], Widget]) -> None:
            super().__init__()
            self.make = make

    def __init__(self, **kwargs) -> None:
        super().__init__("", **kwargs)
        self.typed: list[tuple[str, str | None]] = []
        self.successor: Widget | None = None  # the input, once it is mounted

    def render(self) -> Text:
        if not self.has_focus:
            return Text("")
        return Text(" ", style=self.get_component_rich_style("prompt-standin--cursor"))

    def hand_over(self, make: Callable[[], Widget]) -> None:
        """Mount `make()` (the input) in this place, once the keys already queued here are
        kept; give it the focus if this had it; type the kept keys again."""
        self.post_message(self._HandOver(make))

    async def on_prompt_stand_in__hand_over(self, message: _HandOver) -> None:
        message.stop()
        if self.successor is not None or self.parent is None or self.app._exit:
            return  # (already done, or the app closes before its first frame is done)
        successor = message.make()
        await self.parent.mount(successor, after=self)
        # From here on nothing awaits until the kept keys are queued, so no key typed now
        # can come before them.
        self.successor = successor
        if self.screen.focused is self:
            self.screen.set_focus(successor, scroll_visible=False)
        for key, character in self.typed:
            self._type_again(key, character)
        self.typed.clear()
        self.display = False
        self.call_later(self.remove)  # after the keys still queued here (they go on)

    def _type_again(self, key: str, character: str | None) -> None:
        """Queued for the app as from the terminal: its bindings, then the focused input's."""
        self.app.post_message(events.Key(key, character))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if self.successor is not None:
            self._type_again(event.key, event.character)
        else:
            self.typed.append((event.key, event.character))

    def type_key(self, key: str, character: str | None) -> None:
        """A key meant for the input that reached another screen first (see PromptInput)."""
        self._forward_event(events.Key(key, character))
