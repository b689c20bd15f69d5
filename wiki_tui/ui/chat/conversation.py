"""The conversation pane: messages, a streaming reply, the progress line of a running operation,
the files being proposed, the input.

Streaming stays cheap however long the history is: every finished message is one `Static`
holding a Rich `Markdown` (its height is computed once and cached), and the live reply buffers
tokens and re-renders at most every FLUSH_SECONDS instead of once per token.

The view follows new output while the person is at the bottom, like every chat and log viewer:
scrolling up (or a focused message further up) stops it, with a "new output below" hint when
more arrives; being back at the bottom (scrolling, a click on the hint, ctrl+l) resumes it.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Callable

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from wiki_tui.ui.chat.progress import ProgressLine
from wiki_tui.ui.chat.standin import PromptStandIn

if TYPE_CHECKING:
    from wiki_tui.ui.chat.prompt import PromptInput

FLUSH_SECONDS = 0.12
# A live reply reserves its height in steps, so most flushes repaint only the reply itself;
# a layout of the whole (long) conversation happens once per step, not once per flush.
HEIGHT_STEP = 12
_FENCE = re.compile(r"^ {0,3}(```|~~~)", re.MULTILINE)


def settled_split(text: str) -> int:
    """Where the settled part of a streaming markdown text ends: the last blank line that is
    not inside a code fence. Only the part after it can still change as tokens arrive."""
    split = text.rfind("\n\n")
    if split <= 0:
        return 0
    fences = list(_FENCE.finditer(text, 0, split))
    if len(fences) % 2:  # the split is inside an open fence: settle only what precedes it
        return fences[-1].start()
    return split


_WIKILINK = re.compile(r"(?<!!)\[\[([^\[\]|#]+)(?:#[^\[\]|]*)?(?:\|[^\[\]]*)?\]\]")


# A lint reply's `FINDING: ...` lines, written one under the other, are one markdown paragraph:
# they ran together. Each is made a list item (one that already is one stays as it is).
_FINDING_LINE = re.compile(r"^(?P<indent>[ \t]{0,3})(?=(?:\*\*|__)?FINDING\b)", re.MULTILINE)


def one_finding_a_line(text: str) -> str:
    return _FINDING_LINE.sub(r"\g<indent>- ", text) if "FINDING" in text else text


def Markdown(text: str):  # noqa: N802 (stands in for the class)
    """rich's Markdown, imported on first use: markdown-it is not needed for the first paint."""
    from rich.markdown import Markdown as RichMarkdown

    return RichMarkdown(one_finding_a_line(text))


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


class ReplyText:
    """The text of a reply as tokens arrive (joined lazily: feeding is O(1) per token)."""

    def __init__(self) -> None:
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

    def targets(self) -> list[str]:
        return list(self.citations) or cited_targets(self.text)


class ReplyMessage(ReplyText, Message_):
    """A finished model reply: one Static holding its markdown (height computed once)."""

    BINDINGS = [
        Binding("enter,c", "citations", "Citations", id="conversation.citations"),
    ]

    class CitationsRequested(Message):
        def __init__(self, reply: "ReplyMessage") -> None:
            super().__init__()
            self.reply = reply

    def __init__(self, text: str = "", *, status: str = "done",
                 citations: tuple[str, ...] = ()) -> None:
        ReplyText.__init__(self)
        Message_.__init__(self, Markdown(text) if text.strip() else Text("(no reply)",
                                                                           style="dim"),
                          classes="message reply")
        self._text = text
        self.citations = tuple(citations)
        self.finished = True
        self.status = status
        if status != "done":
            self.add_class(f"-{status}")
            self.border_subtitle = status
        if self.targets():
            self.border_title = f"{len(self.targets())} cited · enter"

    def action_citations(self) -> None:
        if self.targets():
            self.post_message(self.CitationsRequested(self))
        else:
            self.notify("This message cites no pages.", timeout=3)


class LiveReply(ReplyText, Widget):
    """The reply being streamed. Renders through the line API from cached strips: the settled
    part of the markdown is rendered once, only the last block again on each flush, and only
    the visible lines are painted. Its height is reserved in steps, so most flushes repaint
    this widget alone instead of laying out the whole conversation."""

    DEFAULT_CSS = "LiveReply { height: auto; }"

    def __init__(self, title: str = "", *, reserve: int = 0) -> None:
        ReplyText.__init__(self)
        Widget.__init__(self, classes="message reply -live")
        self.title = title
        self._strips: list[Strip] = []
        self._reserved = reserve
        if reserve:  # laid out once, when mounted, at this height
            self.styles.height = reserve
        self._settled_text = ""  # the settled part already rendered, at _settled_width
        self._settled_lines: list[list[Segment]] = []
        self._settled_width = 0

    def flush(self) -> bool:
        if not self._dirty or self.finished:
            return False
        width = self.size.width - self.styles.gutter.width
        if width <= 0:  # not laid out yet; try again on the next flush
            return False
        self._dirty = False
        lines = self._live_lines(self.text, width)
        self._strips = [Strip(line).adjust_cell_length(width) for line in lines]
        if len(lines) > self._reserved:
            # the reservation doubles, so a long reply re-lays out the pane only a few times
            self._reserved = len(lines) + max(HEIGHT_STEP, len(lines))
            self.styles.height = self._reserved  # one layout per step
        else:
            self.refresh()  # same height: repaint this widget only
        return True

    def render_line(self, y: int) -> Strip:
        if y < len(self._strips):
            return self._strips[y]
        return Strip.blank(max(0, self.size.width - self.styles.gutter.width))

    def _live_lines(self, text: str, width: int) -> list[list[Segment]]:
        console = self.app.console
        options = console.options.update_width(width)
        split = settled_split(text)
        head, tail = text[:split], text[split:]
        if width != self._settled_width or not head.startswith(self._settled_text):
            self._settled_width, self._settled_text, self._settled_lines = width, "", []
        if len(head) > len(self._settled_text):
            part = head[len(self._settled_text):]
            if part.strip():
                rendered = console.render_lines(Markdown(part), options, pad=False)
                if self._settled_lines:
                    self._settled_lines.append([])  # the blank line between blocks
                self._settled_lines.extend(rendered)
            self._settled_text = head
        tail_lines = (console.render_lines(Markdown(tail), options, pad=False)
                      if tail.strip() else [[Segment("…", Style(dim=True))]])
        gap = [[]] if self._settled_lines else []
        return self._settled_lines + gap + tail_lines


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
        if self.files:
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
        self.live: LiveReply | None = None
        self.following = True  # new output scrolls into view (the person is at the bottom)
        self.last_flush_lag = 0.0

    def compose(self) -> ComposeResult:
        # Finished messages live in #history; the live reply sits after it, so a layout caused
        # by the live reply reuses #history's cached arrangement instead of redoing it.
        with VerticalScroll(id="messages", can_focus=False):
            yield Vertical(id="history")
        yield Static("▼ new output below — ctrl+l or click", id="new-below")
        yield ProgressLine()
        yield ProposedFiles()
        yield Static("", id="completions")
        # The input itself (a TextArea) takes this place right after the first frame.
        yield PromptStandIn(id="prompt-standin")

    def on_mount(self) -> None:
        self.query_one("#completions").display = False
        self.query_one("#new-below").display = False
        self.call_after_refresh(self.query_one(PromptStandIn).hand_over, self._make_prompt)
        self.set_interval(FLUSH_SECONDS, self.flush)
        self.messages.anchor()
        self.watch(self.messages, "scroll_y", self._scrolled, init=False)

    @property
    def messages(self) -> VerticalScroll:
        return self.query_one("#messages", VerticalScroll)

    def _make_prompt(self) -> PromptInput:
        from wiki_tui.ui.chat.prompt import PromptInput

        return PromptInput(self._history, self._raw_files, id="prompt")

    @property
    def prompt(self) -> PromptInput:
        """The input (from just after the first frame: see PromptStandIn)."""
        return self.query_one("#prompt")  # type: ignore[return-value]

    def focus_input(self) -> None:
        """The focus to the input, or to its stand-in while the first frame is on screen."""
        for widget in self.query("#prompt, #prompt-standin"):
            if widget.display:
                widget.focus()
                return

    @property
    def proposed(self) -> ProposedFiles:
        return self.query_one(ProposedFiles)

    @property
    def progress(self) -> ProgressLine:
        return self.query_one(ProgressLine)

    def now(self) -> float:
        """The app's clock (a test's own, when it gives one)."""
        return getattr(self.app, "clock", time.monotonic)()

    # -- adding content --------------------------------------------------------------------
    def _append(self, widget: Static) -> Static:
        history = self.query_one("#history")
        if history.is_attached and not self.app._exit:  # late notes while closing are dropped
            history.mount(widget)
            self._new_output()
        return widget

    # -- following the newest output -------------------------------------------------------
    def _new_output(self) -> None:
        if not self.following:
            self.query_one("#new-below").display = True
        elif self.live is None:
            self.messages.anchor()  # also after Textual released it (a message got the focus)

    def _scrolled(self, old: float, new: float) -> None:
        """The view moved: up, away from the bottom, stops following; back at it resumes. (A
        layout pass can move it down from Textual's negative anchored offset while the bottom
        moves further: that is not the person leaving.)"""
        at_bottom = self._at_bottom()
        if at_bottom and not self.following:
            self.following = True
            self.query_one("#new-below").display = False
            if self.live is None:
                self.messages.anchor()
        elif not at_bottom and self.following and new < old:
            self.following = False

    def _at_bottom(self) -> bool:
        return _scroll_top(self.messages) >= self._bottom_y() - 1

    def _bottom_y(self) -> int:
        """Where the view shows the newest output: the end, or while a reply streams, its last
        line of text (it reserves blank lines below, never shown)."""
        messages = self.messages
        live = self.live
        if live is None or not live._strips:
            return messages.max_scroll_y
        top = messages.virtual_size.height - live.outer_size.height
        target = top + len(live._strips) - messages.scrollable_content_region.height + 1
        return max(0, min(target, messages.max_scroll_y))

    def show_newest(self) -> None:
        """Back to the bottom; following resumes."""
        messages = self.messages
        messages.scroll_to(y=self._bottom_y(), animate=False, immediate=True)
        self._scrolled(messages.scroll_y, messages.scroll_y)

    def on_click(self, event) -> None:
        if getattr(event.widget, "id", None) == "new-below":
            self.show_newest()

    def add_user(self, text: str) -> UserMessage:
        return self._append(UserMessage(text))

    def add_markdown(self, text: str) -> ReplyMessage:
        return self._append(ReplyMessage(text))

    def add_note(self, text: str, kind: str = "info") -> NoteLine:
        return self._append(NoteLine(text, kind))

    def start_reply(self, title: str = "") -> LiveReply:
        self.finish_reply("done")
        messages = self.messages
        # The live reply reserves blank lines below its text, so instead of the anchor (which
        # would show the blank end) the view follows the last line of text while following.
        messages.anchor(False)
        # Reserve two screenfuls from the start: the reply grows without re-laying out the
        # pane until it is longer than that (the blank end is never shown: see _follow).
        self.live = LiveReply(title, reserve=max(HEIGHT_STEP, 2 * messages.size.height))
        messages.mount(self.live)
        return self.live

    def feed(self, chunk: str) -> None:
        if self.live is None:
            self.start_reply()
        self.live.feed(chunk)

    def finish_reply(self, status: str = "done") -> ReplyMessage | None:
        """End the live reply: its final text moves into the history as one Static."""
        live, self.live = self.live, None
        self.proposed.flush()
        if live is None:
            return None
        live.finished = True
        final = self._append(ReplyMessage(live.text, status=status, citations=live.citations))
        live.remove()
        return final

    def flush(self) -> None:
        live = self.live
        if live is not None and live.flush():
            if self.following:
                self._follow(live)
                # when the reservation grew, the new height is known only after the layout
                self.call_after_refresh(self._follow, live)
            else:
                self._new_output()
        self.proposed.flush()
        self.progress.tick(self.now())

    def _follow(self, live: "LiveReply") -> None:
        """Keep the last line of the live text at the bottom of the view (no layout needed)."""
        if live is self.live and self.following:
            self.messages.scroll_to(y=self._bottom_y(), animate=False, immediate=True)

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
        self.focus_input()
        if not self.following:
            self.show_newest()

    def action_focus_last_reply(self) -> None:
        replies = self.replies()
        if replies:
            replies[-1].focus()
            self.messages.scroll_to_widget(replies[-1])


def _scroll_top(view: Widget) -> int:
    """The view's scroll offset. Textual's anchor keeps content shorter than the view at its
    bottom with a negative offset; that is the top (0) for deciding who scrolled."""
    return max(view.scroll_y, 0)

