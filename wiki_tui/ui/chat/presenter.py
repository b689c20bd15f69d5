"""Shows one operation's event stream in the conversation and remembers its outcome.

The app's worker feeds every event from the agent's async generator to `handle`; nothing here
touches disk or the model.
"""

from __future__ import annotations

from wiki_tui.agent import events as ev
from wiki_tui.changes.reply.blocks import BlockIncomplete, BlockStarted, Prose
from wiki_tui.changes.reply.stream import StreamParser
from wiki_tui.ui.chat.conversation import Conversation, LiveReply
from wiki_tui.ui.findings import FindingsReported, findings_key, note_text

# How a proposed block reads in the reply: its content belongs to the review, not the chat.
_BLOCK_LINE = {"write": "writes", "edit": "edits", "delete": "deletes", "rename": "renames"}
def progress_of(event: ev.Progress) -> tuple[str, tuple[int, int] | None]:
    """(phase, (done, total) or None) of the agent's Progress: the count is added unless the
    stage already says it ("part 2 of 5 of raw/x.md")."""
    stage = event.stage or "working"
    if event.total and f"of {event.total}" not in stage:
        return stage, (event.done, event.total)
    return stage, None


class EventPresenter:
    def __init__(self, conversation: Conversation, operation: str) -> None:
        self.conversation = conversation
        self.operation = operation
        self.reply: LiveReply | None = None
        self.answer: str = ""
        self.changeset = None
        self.failed: ev.Failed | None = None
        self.usage: ev.Usage | None = None  # the tokens of the operation, once it is done
        self.findings: ev.Findings | None = None  # what lint found (reported when it ends)
        self.finished = False
        self.offline = False
        # The reply streams prose only; edit blocks become one line each (the review shows them).
        self._parser = StreamParser()
        self._partial = ""  # the unfinished last line of the reply
        self._shown = ""  # how much of it is already on screen

    def _reply(self) -> LiveReply:
        if self.reply is None:
            self.reply = self.conversation.start_reply(self.operation)
        return self.reply

    def handle(self, event: object) -> None:
        conv = self.conversation
        progress = conv.progress
        if isinstance(event, ev.Started):
            self.offline = event.offline
            model = "offline engine" if event.offline else event.model
            conv.add_note(f"{event.operation}: {event.title} · {model}", "tool")
            conv.proposed.clear()
            progress.set_phase("reading" if event.offline else "waiting for the model")
        elif isinstance(event, ev.Token):
            progress.streamed(event.text)
            self._token(event.text)
        elif isinstance(event, ev.ToolActivity):
            conv.add_note(f"  {event.tool}: {event.detail}", "tool")
            progress.set_phase(event.detail)
        elif isinstance(event, ev.Retry):
            wait = f", waiting {event.wait_seconds:.0f}s" if event.wait_seconds else ""
            conv.add_note(f"  retry {event.attempt}: {event.reason}{wait}", "retry")
            progress.set_phase(f"retry {event.attempt}")
        elif isinstance(event, ev.Progress):
            progress.set_phase(*progress_of(event))
        elif isinstance(event, ev.FileProposed):
            progress.file(event.path)
            conv.proposed.propose(event.path, event.kind)
        elif isinstance(event, ev.FileProgress):
            conv.proposed.progress(event.path, len(event.text))
        elif isinstance(event, ev.FileReady):
            change = event.change
            conv.proposed.propose(change.path, f"{change.kind} ✓")
        elif isinstance(event, ev.ChangesetReady):
            self.changeset = event.changeset
            progress.set_phase("checking the changes")
        elif isinstance(event, ev.Findings):
            self.findings = event
        elif isinstance(event, ev.Answer):
            self.answer = event.text
            reply = self._reply()
            reply.set_text(event.text)  # the clean answer replaces the raw stream
            reply.citations = tuple(event.citations)
        elif isinstance(event, ev.Done):
            self._show(self._parser.close())
            if not self.answer:
                self.answer = event.reply
            self._finish("done")
            # The findings screen opens by itself only when no review of fixes is about to.
            self._report_findings(show=self.changeset is None)
            usage = self.usage = event.usage
            if usage.prompt_tokens or usage.completion_tokens:
                priced = usage.cost_usd is not None and not self.offline
                cost = f" · ${usage.cost_usd:.4f}" if priced else ""
                conv.add_note(f"  {usage.prompt_tokens:,} + {usage.completion_tokens:,} "
                              f"tokens{cost}", "tool")
            notice = getattr(event, "notice", None)
            if notice:
                conv.add_note(notice, "warning")
        elif isinstance(event, ev.Failed):
            self.failed = event
            if event.partial_reply and (self.reply is None or not self.reply.text):
                self._reply().set_text(event.partial_reply)
            cancelled = event.kind == "cancelled"
            self._finish("cancelled" if cancelled else "failed")
            conv.add_note(("cancelled — nothing written" if cancelled else event.reason),
                          "warning" if cancelled else "error")
            if not cancelled:
                self._report_findings(show=False)

    def _report_findings(self, *, show: bool) -> None:
        """One line in the conversation; the app keeps the findings (and may show them)."""
        findings, self.findings = self.findings, None
        if findings is None:
            return
        conv = self.conversation
        conv.add_note(note_text(findings, findings_key(conv.app)),
                      "warning" if findings.items else "success")
        conv.post_message(FindingsReported(findings, show))

    def _token(self, text: str) -> None:
        self._show(self._parser.feed(text))
        newline = text.rfind("\n")
        self._partial = text[newline + 1:] if newline >= 0 else self._partial + text
        # Prose streams as it comes; a line that could still turn out to be a block marker
        # (or a fence wrapping one) waits until it is complete.
        if not self._parser.in_block and self._partial.lstrip()[:1] not in ("", "@", "`", "~"):
            self._reply().feed(self._partial[len(self._shown):])
            self._shown = self._partial

    def _show(self, parsed: list) -> None:
        for item in parsed:
            if isinstance(item, Prose):
                text, shown = item.text, self._shown
                self._shown = ""
                self._reply().feed(text[len(shown):] if text.startswith(shown) else text)
            elif isinstance(item, BlockStarted):
                verb = _BLOCK_LINE.get(item.kind, item.kind)
                self._reply().feed(f"\n`✎ {verb} {item.path}`\n\n")
            elif isinstance(item, BlockIncomplete):
                self._reply().feed(f"\n`✎ {item.block.path}: cut off, not applied`\n\n")

    def cancelled(self) -> None:
        """The worker was cancelled (Esc): keep the partial reply, marked."""
        if self.finished:
            return
        self.changeset = None
        self._finish("cancelled")
        self.conversation.proposed.clear()
        self.conversation.proposed.flush()
        self.conversation.add_note("cancelled — nothing written", "warning")

    def _finish(self, status: str) -> None:
        self.finished = True
        if self.reply is not None and self.conversation.live is self.reply:
            self.conversation.finish_reply(status)
