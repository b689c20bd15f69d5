"""ReviewScreen: accept or reject a changeset per file and per hunk, then apply it.

Pushed by the app as `ReviewScreen(vault, changeset)`; dismisses with the journal's
ApplyResult after an apply, or None when the person leaves (the changeset stays pending, with
its decisions), or HANDED_BACK when it opened by itself and the person was typing. Nothing is
written unless enter applies. Keys are ignored for GRACE_SECONDS after the screen opens, so
typing that was meant for the prompt cannot approve anything; a review that opened by itself
(`hand_back` given) steps aside at the first such key and passes it, and every key after it,
to `hand_back`, so the typed text lands where it was meant to. The grace period is read off
`clock` (the app's; `time.monotonic` by default), so a test decides when it is over instead of
racing it on a busy machine.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Iterable

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from wiki_tui.changes.apply import journal
from wiki_tui.changes.model import (ACCEPTED, CONFLICT, PENDING, REJECTED, RENAME, Changeset,
                                    FileChange)
from wiki_tui.ui.review.diff_view import DiffView
from wiki_tui.ui.chat.editor import EditorError, edit_text
from wiki_tui.ui.frame.keybar import KeyBar
from wiki_tui.ui.review.file_list import describe, file_row, notes_text, summary
from wiki_tui.ui.review.form_preview import FormPreviewScreen, change_views, form_hint
from wiki_tui.ui.review.outcome import outcome_text, title_mark

GRACE_SECONDS = 0.5
HANDED_BACK = "handed back"  # the dismiss result of a review that stepped aside for typing
ALL_REJECTED = "all rejected"  # enter on a review whose every file was rejected: it is closed
SPLIT_WIDTH = 160  # side by side from this many columns (s toggles)
STACK_WIDTH = 100  # below this many columns the file list sits above the diff, full width


class FileList(OptionList, can_focus=False):
    """The changeset's files; never focused, so every key reaches the screen (enter applies)."""


class ReviewScreen(Screen[Any]):
    CSS_PATH = Path(__file__).with_name("review.tcss")
    AUTO_FOCUS = None

    # In the order the key bar shows them (two lines at 80 columns, every key there): what
    # finishes a review first, then moving about; ? (or F1) lists them all, this screen's first.
    BINDINGS = [
        Binding("enter", "apply", "Apply", id="review.apply"),
        Binding("a", "accept_file", "Accept", id="review.accept_file"),
        Binding("r", "reject_file", "Reject", id="review.reject_file"),
        Binding("space", "toggle_hunk", "Hunk", id="review.toggle_hunk",
                tooltip="Accept or reject the focused hunk"),
        Binding("A", "accept_all", "Accept all", id="review.accept_all"),
        Binding("R", "reject_all", "Reject all", id="review.reject_all"),
        Binding("escape", "leave", "Leave", id="review.leave"),
        Binding("d", "rediff", "Re-diff", id="review.rediff"),  # in the footer on a stale file
        Binding("j,down", "move_file(1)", "Next file", id="review.next_file"),
        Binding("k,up", "move_file(-1)", "Prev file", id="review.prev_file"),
        Binding("n", "move_hunk(1)", "Next hunk", id="review.next_hunk"),
        Binding("p", "move_hunk(-1)", "Prev hunk", id="review.prev_hunk"),
        Binding("e", "edit", "Edit", id="review.edit"),
        Binding("s", "toggle_split", "Split", id="review.toggle_split"),
        Binding("v", "preview", "View", id="review.preview",
                tooltip="A deck slide by slide, a chart drawn, a canvas read"),
        Binding("question_mark", "app.help", "Keys", id="review.help"),
        Binding("g,home", "first_file", "First file", id="review.first_file", show=False),
        Binding("G,end", "last_file", "Last file", id="review.last_file", show=False),
        Binding("pagedown,ctrl+d", "scroll_diff(1)", "Scroll down", id="review.scroll_down",
                show=False),
        Binding("pageup,ctrl+u", "scroll_diff(-1)", "Scroll up", id="review.scroll_up",
                show=False),
    ]

    def __init__(self, vault: Any, changeset: Changeset, *, grace: float = GRACE_SECONDS,
                 hand_back: Callable[[str, str | None], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.vault = vault
        self.changeset = changeset
        self.grace = grace
        self.clock = clock
        self.hand_back = hand_back  # given when the review opened by itself, not on a key
        self._handing_back = False
        self.cursor = 0  # focused file
        self.hunk = 0  # focused hunk of the focused file
        self.stale: set[str] = set()  # files whose base changed on disk during the review
        self.busy = ""  # what a worker is doing ("" when idle): keys wait
        self.message = ""
        self._armed_at = float("inf")  # set on mount: keys count GRACE_SECONDS after that
        self._split_choice: bool | None = None  # None: by terminal width
        self._pending_warned = False

    # -- layout ----------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="review-title")
        with Horizontal(id="review-body"):
            with Vertical(id="review-side"):
                yield FileList(id="review-files")
                with VerticalScroll(id="review-notes", can_focus=False):
                    yield Static(id="review-notes-text")
            with Vertical(id="review-main"):
                yield Static(id="review-file-title")
                yield DiffView(id="review-diff")
        yield Static(id="review-status")
        yield KeyBar(max_rows=2)

    @property
    def files_list(self) -> FileList:
        return self.query_one(FileList)

    @property
    def diff(self) -> DiffView:
        return self.query_one(DiffView)

    @property
    def current(self) -> FileChange | None:
        files = self.changeset.files
        return files[self.cursor] if 0 <= self.cursor < len(files) else None

    @property
    def split(self) -> bool:
        if self._split_choice is not None:
            return self._split_choice
        return self.app.size.width >= SPLIT_WIDTH

    def on_mount(self) -> None:
        self._armed_at = self.clock() + self.grace
        self.set_class(self.app.size.width < STACK_WIDTH, "-stacked")
        cs = self.changeset
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(" Review ", "reverse bold")
        title.append(f" {cs.operation} | {cs.title}", "bold")
        title.append(f"  · {cs.model}")
        title.append(title_mark(cs), "bold")
        self.query_one("#review-title", Static).update(title)
        self._update_notes()
        self._fill_list()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._fill_list())  # row colours
        self._show_file(0)
        if self.grace > 0:
            self.message = f"keys active in {self.grace:g} s"
            if self.hand_back is not None:
                self.message += " (typing goes back to the input)"
            self.set_timer(self.grace, self._grace_over)
        self._update_status()

    def _grace_over(self) -> None:
        """The timer that clears "keys active in…" (the clock, not the timer, decides)."""
        if self.armed and self.message.startswith("keys active in"):
            self.message = ""
            self._update_status()

    @property
    def armed(self) -> bool:
        return self.clock() >= self._armed_at

    def on_resize(self) -> None:
        self.set_class(self.app.size.width < STACK_WIDTH, "-stacked")
        if self._split_choice is None and self.diff.split != self.split:
            self._show_diff(keep_scroll=False)

    # -- keys: the approval-trap guard ----------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        if self._handing_back or (self.hand_back is not None and not self.armed):
            event.stop()
            event.prevent_default()
            self._step_aside(event)
            return
        if not self.armed or self.busy:
            event.stop()
            event.prevent_default()
            if self.busy:
                self.message = f"{self.busy}…"
                self._update_status()
            return
        self._grace_over()  # the first key that counts clears the notice if the timer has not

    def _step_aside(self, event: events.Key) -> None:
        """The person was typing when this review opened by itself: leave (pending) and give
        the keys back. Keys already on their way here follow the first one, in order."""
        if not self._handing_back:
            self._handing_back = True
            self.dismiss(HANDED_BACK)
        assert self.hand_back is not None
        self.hand_back(event.key, event.character)

    def on_click(self, event: events.Click) -> None:
        if not self.armed:
            event.stop()
            event.prevent_default()

    # -- drawing ---------------------------------------------------------------------------
    def _fill_list(self) -> None:
        variables = self.app.theme_variables
        options = [Option(file_row(c, variables), id=str(i)) for i, c in enumerate(self.changeset.files)]
        self.files_list.set_options(options)
        if options:
            self.files_list.highlighted = self.cursor

    def _refresh_file(self, index: int | None = None) -> None:
        """Redraw a file's row (the focused one by default) and its diff after a decision.

        Decisions change statuses, not hunks: the diff's rows stay, only the screen repaints.
        """
        index = self.cursor if index is None else index
        change = self.changeset.files[index]
        self.files_list.replace_option_prompt_at_index(index, file_row(change, self.app.theme_variables))
        if index == self.cursor:
            self._update_file_title()
            self.diff.refresh()
        self._changed()

    def _show_file(self, index: int, hunk: int = 0) -> None:
        if not self.changeset.files:
            self.query_one("#review-file-title", Static).update("This changeset has no files.")
            self.diff.show(None, split=self.split)
            return
        self.cursor = max(0, min(index, len(self.changeset.files) - 1))
        self.files_list.highlighted = self.cursor
        change = self.current
        assert change is not None
        self.hunk = max(0, min(hunk, len(change.hunks) - 1))
        self._show_diff(keep_scroll=False)
        self._update_notes()

    def _update_notes(self) -> None:
        """The notes column: what the changeset (and the focused file) does, then lint, errors
        and repairs."""
        cs = self.changeset
        text = outcome_text(cs, self.current)
        text.append_text(notes_text(cs.findings, cs.errors, cs.repairs, operation=cs.operation))
        self.query_one("#review-notes-text", Static).update(text)

    def _show_diff(self, *, keep_scroll: bool) -> None:
        """Rebuild the focused file's diff (its hunks or the layout changed)."""
        change = self.current
        if change is None:
            return
        self._update_file_title()
        self.diff.show(change, split=self.split, focus_hunk=self.hunk, keep_scroll=keep_scroll)

    def _update_file_title(self) -> None:
        change = self.current
        if change is not None:
            title = describe(change, stale=self._is_stale(change))
            hint = form_hint(change)
            if hint:
                title = Text.assemble((f"[{hint}] ", "bold"), title, no_wrap=True,
                                      overflow="ellipsis")
            self.query_one("#review-file-title", Static).update(title)
        self.refresh_bindings()  # "d re-diff" shows only for a file changed on disk

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rediff":
            change = self.current
            return change is not None and self._is_stale(change)
        if action == "preview":
            change = self.current
            return change is not None and bool(form_hint(change))
        return True

    def action_preview(self) -> None:
        change = self.current
        if change is None or not form_hint(change):
            return
        page = self.changeset.file(change.rendered_from) if change.rendered_from else None
        self.app.push_screen(FormPreviewScreen(
            change.path, lambda width: change_views(change, page, width)))

    def _changed(self) -> None:
        self._pending_warned = False
        self._update_status()

    def say(self, message: str) -> None:
        self.message = message
        self._update_status()

    def _update_status(self) -> None:
        text = Text()  # wraps (up to three lines, see review.tcss): a message is read whole
        text.append(summary(self.changeset))
        if self.message:
            text.append("  —  ")
            text.append(self.message, "bold")
        self.query_one("#review-status", Static).update(text)

    # -- moving ----------------------------------------------------------------------------
    def action_move_file(self, step: int) -> None:
        self._show_file(self.cursor + step)

    def action_first_file(self) -> None:
        self._show_file(0)

    def action_last_file(self) -> None:
        self._show_file(len(self.changeset.files) - 1)

    def action_move_hunk(self, step: int) -> None:
        """Next/previous hunk, continuing into the next/previous file that has hunks."""
        change = self.current
        if change is None:
            return
        target = self.hunk + step
        if 0 <= target < len(change.hunks):
            self.hunk = target
            self.diff.set_focus_hunk(target)
            return
        files = self.changeset.files
        index = self.cursor + step
        while 0 <= index < len(files):
            if files[index].hunks:
                self._show_file(index, 0 if step > 0 else len(files[index].hunks) - 1)
                return
            index += step
        # No hunk further on: say so, and show the rest of a long one (a new page is one hunk:
        # n used to do nothing at all in a review of a single created page).
        diff = self.diff
        before = diff.scroll_y
        self.action_scroll_diff(step)
        moved = diff.scroll_y != before
        count = len(change.hunks)
        if not count:
            self.say(f"no hunks to move to: {change.path} is a rename (space decides it)")
            return
        where = "last" if step > 0 else "first"
        files_note = f" of {len(files)} files" if len(files) > 1 else ""
        self.say(f"{where} hunk: {self.hunk + 1} of {count} in {change.path}{files_note}"
                 + ("; scrolled" if moved else ""))

    def action_scroll_diff(self, pages: int) -> None:
        diff = self.diff
        diff.scroll_to(y=diff.scroll_y + pages * max(1, diff.size.height - 2), animate=False,
                       immediate=True)

    @on(OptionList.OptionHighlighted, "#review-files")
    def _clicked(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index != self.cursor:
            self._show_file(event.option_index)

    def action_toggle_split(self) -> None:
        self._split_choice = not self.split
        self._show_diff(keep_scroll=False)

    # -- deciding --------------------------------------------------------------------------
    def _decidable(self, change: FileChange) -> bool:
        if change.status != CONFLICT:
            return True
        if self._is_stale(change):
            self.say(f"{change.path} changed on disk: d re-diffs it against the new text first")
        else:
            self.say(f"{change.path}: {change.conflict or 'conflict'} (e edits it)")
        return False

    def _is_stale(self, change: FileChange) -> bool:
        """Changed on disk since proposed (needs a re-diff), as opposed to overlapping edits."""
        return change.path in self.stale or "after the change was proposed" in (change.conflict or "")

    def action_accept_file(self) -> None:
        change = self.current
        if change is not None and self._decidable(change):
            change.accept()
            self.message = f"accepted {change.path}"
            self._refresh_file()

    def action_reject_file(self) -> None:
        change = self.current
        if change is not None:
            change.reject()
            self.message = f"rejected {change.path}"
            self._refresh_file()

    def action_toggle_hunk(self) -> None:
        change = self.current
        if change is None or not self._decidable(change):
            return
        if not change.hunks:  # a pure rename: the file is the only thing to decide
            change.reject() if change.status == ACCEPTED else change.accept()
        else:
            change.toggle_hunk(self.hunk)
            self.message = f"hunk {self.hunk + 1} {change.hunks[self.hunk].status}"
        self._refresh_file()

    def action_accept_all(self) -> None:
        self.changeset.accept_all()
        self.message = "accepted every file" + (" (conflicts excepted)" if any(
            f.status == CONFLICT for f in self.changeset.files) else "")
        self._decided_all()

    def action_reject_all(self) -> None:
        self.changeset.reject_all()
        self.message = "rejected every file"
        self._decided_all()

    def _decided_all(self) -> None:
        self._fill_list()
        self._update_file_title()
        self.diff.refresh()
        self._changed()

    # -- editing by hand -------------------------------------------------------------------
    def action_edit(self) -> None:
        change = self.current
        if change is None:
            return
        text = change.proposed_text if change.proposed_text is not None else change.base_text or ""
        try:
            edited = edit_text(self.app, text, change.path)
        except EditorError as error:
            self.say(str(error))
            return
        if edited == text:
            self.say(f"{change.path}: no change made in the editor")
            return
        change.set_proposed(edited)
        change.conflict = None
        self.hunk = 0
        self.message = f"{change.path} edited by hand: re-diffed, decide its hunks again"
        self._refresh_file()
        self._show_diff(keep_scroll=False)

    # -- disk changes and conflicts --------------------------------------------------------
    def files_changed(self, paths: Iterable[Any]) -> None:
        """The app's watcher saw these vault paths change (strings or (change, path) pairs).
        While this review applies, the changes are its own writes: not a conflict (checking
        then marked every applied file "changed on disk", after the fact)."""
        if self.busy == "applying":
            return
        names = {p[1] if isinstance(p, tuple) else p for p in paths}
        touched = [c for c in self.changeset.files
                   if c.path in names or (c.kind == RENAME and c.old_path in names)]
        if touched:
            self._check_disk(touched)

    @work(thread=True, group="review-disk", exit_on_error=False)
    def _check_disk(self, changes: list[FileChange]) -> None:
        probe = Changeset(self.changeset.operation, self.changeset.title, files=changes)
        found = journal.check_conflicts(self.vault, probe)
        self.app.call_from_thread(self._marked_stale, found)

    def _marked_stale(self, found: list[FileChange]) -> None:
        if not found or self.busy == "applying":
            return
        for change in found:
            self.stale.add(change.path)
            if change in self.changeset.files:
                self._refresh_file(self.changeset.files.index(change))
        names = ", ".join(c.path for c in found)
        self.say(f"changed on disk: {names} — d re-diffs against the new text")

    def action_rediff(self) -> None:
        change = self.current
        if change is None:
            return
        if not self._is_stale(change):
            self.say(f"{change.path} has not changed on disk: nothing to re-diff")
            return
        self.busy = "re-diffing"
        self._rediff(self.cursor, change)

    @work(thread=True, group="review-disk", exit_on_error=False)
    def _rediff(self, index: int, change: FileChange) -> None:
        try:
            fresh = journal.rebase_conflict(self.vault, change)
        except Exception as exc:  # an unreadable file must be reported, not crash the review
            self.app.call_from_thread(self._rediffed, index, change, None, str(exc))
            return
        self.app.call_from_thread(self._rediffed, index, change, fresh, None)

    def _rediffed(self, index: int, old: FileChange, fresh: FileChange | None,
                  error: str | None) -> None:
        self.busy = ""
        if fresh is None:
            self.say(f"re-diff of {old.path} failed: {error}")
            return
        self.changeset.files[index] = fresh
        self.stale.discard(old.path)
        self.hunk = 0
        if fresh.status == CONFLICT:
            self.message = f"{fresh.path}: {fresh.conflict}"
        else:
            self.message = f"{fresh.path} re-diffed against the text on disk: decide it again"
        self._refresh_file(index)
        self._show_diff(keep_scroll=False)

    # -- applying --------------------------------------------------------------------------
    def action_apply(self) -> None:
        files = self.changeset.files
        if files and all(f.status == REJECTED for f in files):
            self.dismiss(ALL_REJECTED)  # decided: nothing to write, nothing left pending
            return
        if not any(f.status == ACCEPTED for f in files):
            self.say("Nothing accepted, nothing written: a accepts the file, A every file; "
                     "with every file rejected (R) enter closes the review; esc leaves it pending")
            return
        pending = [f for f in files if f.status == PENDING]
        if pending and not self._pending_warned:
            self._pending_warned = True
            self.say(f"{len(pending)} file{'s' if len(pending) != 1 else ''} still pending "
                     "will not be written: enter again applies the accepted ones")
            return
        self.busy = "applying"
        self.say("applying…")
        self._apply()

    @work(thread=True, exclusive=True, group="review-apply", exit_on_error=False)
    def _apply(self) -> None:
        found = journal.check_conflicts(self.vault, self.changeset, accepted_only=True)
        if found:  # tell the person before anything is written
            self.app.call_from_thread(self._conflicts_found, found)
            return
        try:
            result = journal.apply_changeset(self.vault, self.changeset)
        except journal.ApplyError as exc:
            self.app.call_from_thread(self._apply_failed, str(exc))
            return
        except Exception as exc:  # a bug below must show, not kill the review
            self.app.call_from_thread(self._apply_failed, f"{type(exc).__name__}: {exc}")
            return
        self.app.call_from_thread(self._applied, result)

    def _conflicts_found(self, found: list[FileChange]) -> None:
        self.busy = ""
        for change in found:
            self.stale.add(change.path)
        self._fill_list()
        self._show_diff(keep_scroll=True)
        names = ", ".join(c.path for c in found)
        self.say(f"Nothing written: {names} changed on disk since proposed. d re-diffs it; "
                 "enter applies the rest without it")

    def _apply_failed(self, reason: str) -> None:
        self.busy = ""
        self.say(f"Nothing written: {reason}")

    def _applied(self, result: Any) -> None:
        self.busy = ""
        if not result.applied:
            self._fill_list()
            self.say(result.notice or "nothing applied")
            return
        self.dismiss(result)

    def action_leave(self) -> None:
        self.dismiss(None)
