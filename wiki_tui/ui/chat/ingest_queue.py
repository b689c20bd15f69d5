"""`/ingest` with a folder, a glob, several paths or `--new`: a queue of ingests, one review
after the other.

Each source runs as its own operation once the review of the one before is closed (applied or
rejected), so it sees the pages accepted before it. The status bar shows where the queue is
(`ingest 3/12 raw/x.md · 4,210 tokens so far`). The type-ahead rule holds for every review: one
that becomes ready while the person types is announced and waits for ctrl+r. A review left with
esc keeps the queue: it waits, and goes on when that review is applied or rejected. Esc on the
main screen stops the queue after the current source (a second esc cancels the running one, as
ever). A source that fails is named and the queue goes on with the next (the person is there to
see it; the headless batch stops instead, see cli/batch.py).

A mixin of WikiApp beside OperationsMixin, which calls its hooks (`_operation_ended`,
`_review_done`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from textual.worker import WorkerState


@dataclass
class IngestQueue:
    paths: list[str]
    started: int = 0  # sources started so far; the current one is paths[started - 1]
    tokens: int = 0
    waiting: int | None = None  # id of the changeset whose review the queue waits for
    paused: bool = False  # that review was left (esc): told once
    stopped: bool = False  # esc: no source after the current one
    advance: bool = False  # start the next source when the running operation's worker ends
    outcomes: dict[str, list[str]] = field(default_factory=dict)  # applied/rejected/... -> paths

    @property
    def current(self) -> str:
        return self.paths[self.started - 1] if self.started else ""

    def start_next(self) -> str | None:
        if self.stopped or self.started >= len(self.paths):
            return None
        self.started += 1
        return self.current

    def record(self, outcome: str) -> None:
        self.outcomes.setdefault(outcome, []).append(self.current)

    def line(self) -> str:
        where = f"ingest {self.started}/{len(self.paths)} {self.current}"
        if self.tokens:
            where += f" · {self.tokens:,} tokens so far"
        if self.waiting is not None:
            where += " · review waiting (ctrl+r)"
        return where + (" — the queue stops after this one" if self.stopped
                        else " — esc stops the queue after this one")

    def summary(self) -> str:
        counts = [f"{len(paths)} {outcome}" for outcome, paths in self.outcomes.items()]
        text = f"ingest queue {'stopped' if self.stopped else 'done'}: " + (
            ", ".join(counts) or "nothing ingested")
        if failed := self.outcomes.get("failed"):
            text += f" (failed: {', '.join(failed)})"
        if not_run := self.paths[self.started:]:
            text += f"; not run: {', '.join(not_run)}"
        return text


def ingest_words(root: Path, arg: str) -> tuple[list[str], bool]:
    """`/ingest`'s argument as paths and the --new flag. A whole argument that names a file
    (`raw/My notes.md`) is one path; otherwise it is split like a shell line."""
    if (Path(root) / arg).exists() or (Path(root) / "raw" / arg).exists():
        return [arg], False
    import shlex  # (only when a line is typed)

    try:
        words = shlex.split(arg)
    except ValueError:
        words = arg.split()
    new = "--new" in words
    return [w for w in words if w != "--new"], new


class IngestQueueMixin:
    ingest_queue: IngestQueue | None = None

    def _command_ingest(self, arg: str) -> None:
        if not self._needs_vault():
            return
        from wiki_tui.agent.context.sources import SourceError, resolve_sources

        if self.ingest_queue is not None:
            self.conversation.add_note("an ingest queue is running — esc stops it", "warning")
            return
        words, new = ingest_words(self.vault_root, arg)
        try:
            found = resolve_sources(self.vault, words, new=new)
        except SourceError as exc:
            self.conversation.add_note(str(exc), "error")
            return
        for path, why in found.skipped:
            self.conversation.add_note(f"skipped {path}: {why}", "warning")
        if not found.paths:
            self.conversation.add_note("nothing to ingest: every source named is ingested "
                                       "already" if new else "nothing to ingest", "warning")
        elif not found.batch:
            self._ingest_one(found.paths[0])
        else:
            self.ingest_queue = IngestQueue(found.paths)
            self.conversation.add_note(
                f"{len(found.paths)} sources queued: one review after the other; esc stops "
                "the queue after the current one", "success")
            self._next_in_queue()

    def _ingest_one(self, path: str, activity: str = "") -> None:
        if not (self.vault_root / path).is_file():
            self.conversation.add_note(f"no file {path} in the vault", "error")
            if self.ingest_queue is not None:
                self.ingest_queue.record("failed")
                self._next_in_queue()
            return
        ops = self._operations()
        self.run_operation("ingest", lambda: ops.ingest(self.vault, path, self.settings),
                           activity=activity)

    def _next_in_queue(self) -> None:
        queue = self.ingest_queue
        if queue is None:
            return
        if self.operation_running:  # the worker that called us is ending: go on after it
            queue.advance = True
            return
        path = queue.start_next()
        if path is None:
            self._finish_queue()
            return
        self._ingest_one(path, activity=queue.line())

    def _finish_queue(self) -> None:
        queue, self.ingest_queue = self.ingest_queue, None
        if queue is None:
            return
        self.status_bar.activity = ""
        failed = bool(queue.outcomes.get("failed"))
        self.conversation.add_note(queue.summary(), "warning" if failed or queue.stopped
                                   else "success")

    def on_worker_state_changed(self, event: Any) -> None:
        queue = self.ingest_queue
        if (queue is not None and queue.advance and event.worker.group == "operation"
                and event.state in (WorkerState.SUCCESS, WorkerState.CANCELLED,
                                    WorkerState.ERROR)):
            queue.advance = False
            self._next_in_queue()

    # -- hooks called by OperationsMixin ------------------------------------------------------
    def _operation_ended(self, name: str, presenter: Any, *, cancelled: bool = False) -> None:
        queue = self.ingest_queue
        if queue is None or name != "ingest" or queue.waiting is not None:
            return
        usage = getattr(presenter, "usage", None)
        if usage is not None:
            queue.tokens += usage.prompt_tokens + usage.completion_tokens
        if cancelled:
            queue.record("cancelled")
            queue.stopped = True
            self._finish_queue()
        elif presenter.changeset is not None and presenter.failed is None:
            queue.waiting = presenter.changeset.id
            self.status_bar.activity = queue.line()
        else:
            queue.record("failed" if presenter.failed is not None else "without changes")
            self._next_in_queue()

    def _review_done(self, changeset: Any, result: Any) -> None:
        """A review closed: applied or rejected moves the queue on; left, it waits."""
        from wiki_tui.ui.review.screen import ALL_REJECTED, HANDED_BACK

        queue = self.ingest_queue
        if queue is None or queue.waiting != changeset.id:
            return
        if result is None or result == HANDED_BACK:
            if not queue.paused and result is None:
                self.conversation.add_note("the ingest queue waits for this review: ctrl+r "
                                           "reopens it; esc stops the queue")
            queue.paused = result is None
            return
        queue.waiting, queue.paused = None, False
        queue.record("rejected" if result == ALL_REJECTED else "applied")
        self._next_in_queue()

    def stop_queue(self) -> bool:
        """Esc with a queue: stop it after the current source (True: the key was used)."""
        queue = self.ingest_queue
        if queue is None:
            return False
        if queue.stopped and self.operation_running:
            return False  # esc again: cancel the running source itself
        queue.stopped = True
        if self.operation_running:
            left = len(queue.paths) - queue.started
            self.conversation.add_note(f"the ingest queue stops after {queue.current} "
                                       f"({left} not run); esc again cancels it", "warning")
            self.status_bar.activity = queue.line()
        else:  # waiting on a review: it stays pending, the queue ends
            self._finish_queue()
        return True
