"""The conversation pane: messages, a streaming reply, the files being proposed, the input.

Streaming stays cheap however long the history is: every finished message is one `Static`
holding a Rich `Markdown` (its height is computed once and cached), and the live reply buffers
tokens and re-renders at most every FLUSH_SECONDS instead of once per token.
"""

from __future__ import annotations

import re
import time
from typing import Callable

from rich.markdown import Markdown
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Static

from wiki_tui.ui.prompt import PromptInput

FLUSH_SECONDS = 0.12
_WIKILINK = re.compile(r"(?<!!)\[\[([^\[\]|#]+)(?:#[^\[\]|]*)?(?:\|[^\[\]]*)?\]\]")


def cited_targets(text: str) -> list[str]:
    """The [[link]] targets in an answer, in order, without repeats."""
    seen: dict[str, None] = {}
    for match in _WIKILINK.finditer(text):
        seen.setdefault(match.group(1).strip(), None)
    return list(seen)


class Message_(Static):
    """One finished message: a single cheap Static."""

    can_focus = True


class UserMessage(Message_):
    def __init__(self, text: str) -> None:
        super().__init__(Text(text), classes="message user")


class NoteLine(Static):
    """Compact dim line: tool activity, retries, results, errors."""

    def __init__(self, text: str, kind: str = "info") -> None:
        super().__init__(Text(text), classes=f"note -{kind}")


class ReplyMessage(Message_):
    """A model reply; streams while live, then holds its final markdown."""

    BINDINGS = [
        Binding("enter,c", "citations", "Citations", id="conversation.citations"),
    ]

    class CitationsRequested(Message):
        def __init__(self, reply: "ReplyMessage") -> None:
            super().__init__()
            self.reply = reply

    def __init__(self, title: str = "") -> None:
        super().__init__("", classes="message reply -live")
        self.title = title
        self.buffer: list[str] = []
        self._text = ""
        self._dirty = False
        self.citations: tuple[str, ...] = ()  # vault paths, when the agent named them
        self.finished = False

    @property
    def text(self) -> str:
        if self.buffer:
            self._text += "".join(self.buffer)
            self.buffer.clear()
        return self._text

    def feed(self, chunk: str) -> None:
        self.buffer.append(chunk)
        self._dirty = True

    def set_text(self, text: str) -> None:
        self.buffer.clear()
        self._text = text
        self._dirty = True

    def flush(self) -> bool:
        if not self._dirty:
            return False
        self._dirty = False
        text = self.text
        self.update(Markdown(text) if text.strip() else Text("…", style="dim"))
        return True

    def finish(self, status: str = "done") -> None:
        """status: "done" | "cancelled" | "failed"."""
        self.finished = True
        self._dirty = True
        self.flush()
        self.remove_class("-live")
        if status != "done":
            self.add_class(f"-{status}")
            self.border_subtitle = status
        if self.targets():
            self.border_title = f"{len(self.targets())} citations · enter"

    def targets(self) -> list[str]:
        return list(self.citations) or cited_targets(self.text)

    def action_citations(self) -> None:
        if self.targets():
            self.post_message(self.CitationsRequested(self))
        else:
            self.notify("This message cites no pages.", timeout=3)


class ProposedFiles(Static):
    """Live list of the files the model is proposing (path, kind, size so far)."""

    def __init__(self) -> None:
        super().__init__("", id="proposed")
        self.files: dict[str, tuple[str, int]] = {}
        self._dirty = False
        self.display = False

    def propose(self, path: str, kind: str) -> None:
        self.files[path] = (kind, self.files.get(path, (kind, 0))[1])
        self._dirty = True

    def progress(self, path: str, size: int) -> None:
        kind = self.files.get(path, ("write", 0))[0]
        self.files[path] = (kind, size)
        self._dirty = True

    def clear(self) -> None:
        self.files.clear()
        self._dirty = True

    def flush(self) -> None:
        if not self._dirty:
            return
        self._dirty = False
        self.display = bool(self.files)
        lines = Text("proposed files\n", style="bold")
        for path, (kind, size) in self.files.items():
            lines.append(f" {kind:<7} {path}  ", style="")
            lines.append(f"{size:,} chars\n" if size else "\n", style="dim")
        lines.rstrip()
        self.update(lines)


class Conversation(Vertical):
    """Messages above, proposed files, completions, input below. Talks upward with messages."""

    BINDINGS = [
        Binding("ctrl+l", "focus_input", "Input", id="conversation.focus_input", show=False),
        Binding("ctrl+up", "focus_last_reply", "Last reply", id="conversation.last_reply",
                show=False),
    ]

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, history: list[str] | None = None,
                 raw_files: Callable[[], list[str]] | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self._history = history
        self._raw_files = raw_files
        self.live: ReplyMessage | None = None
        self.last_flush_lag = 0.0

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="messages", can_focus=False)
        yield ProposedFiles()
        yield Static("", id="completions")
        yield PromptInput(self._history, self._raw_files, id="prompt")

    def on_mount(self) -> None:
        self.query_one("#completions").display = False
        self.set_interval(FLUSH_SECONDS, self.flush)
        self.messages.anchor()

    @property
    def messages(self) -> VerticalScroll:
        return self.query_one("#messages", VerticalScroll)

    @property
    def prompt(self) -> PromptInput:
        return self.query_one(PromptInput)

    @property
    def proposed(self) -> ProposedFiles:
        return self.query_one(ProposedFiles)

    # -- adding content --------------------------------------------------------------------
    def _append(self, widget: Static) -> Static:
        self.messages.mount(widget)
        return widget

    def add_user(self, text: str) -> UserMessage:
        return self._append(UserMessage(text))

    def add_markdown(self, text: str) -> ReplyMessage:
        reply = ReplyMessage()
        self._append(reply)
        reply.set_text(text)
        reply.finish()
        return reply

    def add_note(self, text: str, kind: str = "info") -> NoteLine:
        return self._append(NoteLine(text, kind))

    def start_reply(self, title: str = "") -> ReplyMessage:
        self.finish_reply("done")
        self.live = ReplyMessage(title)
        self._append(self.live)
        return self.live

    def feed(self, chunk: str) -> None:
        if self.live is None:
            self.start_reply()
        self.live.feed(chunk)

    def finish_reply(self, status: str = "done") -> ReplyMessage | None:
        reply, self.live = self.live, None
        if reply is not None:
            reply.finish(status)
        self.proposed.flush()
        return reply

    def flush(self) -> None:
        if self.live is not None:
            self.live.flush()
        self.proposed.flush()

    def replies(self) -> list[ReplyMessage]:
        return list(self.messages.query(ReplyMessage))

    # -- input -----------------------------------------------------------------------------
    def on_prompt_input_submitted(self, event: PromptInput.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted(event.text))

    def on_prompt_input_completions_changed(self, event: PromptInput.CompletionsChanged) -> None:
        event.stop()
        box = self.query_one("#completions", Static)
        box.display = bool(event.options)
        if event.options:
            shown = Text("tab: ", style="dim")
            shown.append("  ".join(event.options))
            box.update(shown)

    def action_focus_input(self) -> None:
        self.prompt.focus()

    def action_focus_last_reply(self) -> None:
        replies = self.replies()
        if replies:
            replies[-1].focus()
            self.messages.scroll_to_widget(replies[-1])
