"""What the conversation asks for: commands, operations run in workers, reviews, citations.

A mixin of WikiApp (it uses the app's conversation, status bar, vault and settings); kept
apart so the app module holds the shell (layout, keys, start-up) and this one the work.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any, AsyncIterator, Callable

from textual import events, work

from wiki_tui.ui.chat.commands import CommandError, help_text, parse_command
from wiki_tui.ui.chat.conversation import Conversation, ReplyMessage
from wiki_tui.ui.frame.markup import counted
from wiki_tui.ui.frame.status import git_branch

HISTORY_TURNS = 3  # earlier question/answer pairs sent with a query
# A key pressed this recently, after the operation began, means the person is at the keyboard: a
# review that becomes ready then does not open over what they are doing; it is announced and
# waits for ctrl+r. (The enter that started the operation does not count: that is what made
# save and lint reviews, quick to arrive, wait while slow ingests opened by themselves.)
TYPING_SECONDS = 1.5
PENDING_POLL_SECONDS = 1.0  # how soon a proposal from `wiki-tui mcp` shows up (one stat)


class OperationsMixin:
    # A request that needs the vault, made before it is open (a first opening indexes every
    # page): (the command's handler, its argument), run once the vault opens; esc drops it.
    held_request: tuple[Callable[[str], None], str] | None = None
    _submitting: tuple[Callable[[str], None], str] | None = None

    # -- the conversation ------------------------------------------------------------------
    def on_conversation_submitted(self, event: Conversation.Submitted) -> None:
        self.state.add_history(event.text)
        self.submit(event.text)

    def submit(self, text: str) -> None:
        conv = self.conversation
        conv.add_user(text)
        try:
            command = parse_command(text)
        except CommandError as exc:
            conv.add_note(str(exc), "error")
            return
        handler = getattr(self, f"_command_{command.name}")
        self._submitting = (handler, command.arg)
        try:
            handler(command.arg)
        finally:
            self._submitting = None

    def _command_help(self, _arg: str) -> None:
        self.conversation.add_markdown(help_text())

    def _command_model(self, arg: str) -> None:
        if not arg:
            self.conversation.add_note(f"model: {self.settings.label} ({self.settings.source})")
            return
        self.settings = self.settings.with_model(arg)
        self.status_bar.model = self.settings_label
        self.conversation.add_note(f"model switched to {self.settings_label} for this session")
        if not self.settings.offline:
            self.start_warm_up()

    def _needs_vault(self) -> bool:
        if self.vault is None:
            self._hold_for_vault()
            return False
        if self.operation_running:
            self.conversation.add_note("an operation is running — Esc cancels it", "warning")
            return False
        return True

    def _hold_for_vault(self) -> None:
        """The request being submitted waits for the vault to open, then runs (one waits at a
        time: a newer one takes its place)."""
        if self._submitting is None:
            self.conversation.add_note("the vault is still loading — try again in a moment", "warning")
            return
        replaced = self.held_request is not None
        self.held_request = self._submitting
        self.conversation.add_note(
            "the vault is still opening: this runs as soon as it is open"
            + (", instead of the request that waited" if replaced else "") + " — esc drops it",
            "warning")

    def run_held_request(self) -> None:
        """The vault is open: run what waited for it."""
        held, self.held_request = self.held_request, None
        if held is not None:
            handler, arg = held
            handler(arg)

    def drop_held_request(self) -> bool:
        """Esc while a request waits for the vault: it will not run. False: none waited."""
        if self.held_request is None:
            return False
        self.held_request = None
        self.conversation.add_note("dropped: the request that waited for the vault will not run")
        return True

    def _operations(self):
        from wiki_tui.agent import operations

        return operations

    def _command_query(self, question: str) -> None:
        if not self._needs_vault():
            return
        self.last_question = question
        ops = self._operations()
        history = [message for question_, answer in self.exchanges[-HISTORY_TURNS:]
                   for message in ({"role": "user", "content": question_},
                                   {"role": "assistant", "content": answer})]
        self.run_operation("query", lambda: ops.query(self.vault, question, self.settings,
                                                      history or None))

    def _command_save(self, form: str) -> None:
        if not self._needs_vault():
            return
        if not self.last_answer:
            self.conversation.add_note("no answer to save yet — ask a question first", "warning")
            return
        ops = self._operations()
        question, answer = self.last_question, self.last_answer
        self.run_operation("save", lambda: ops.save_answer(self.vault, question, answer,
                                                           self.settings,
                                                           form=form or "page"))

    def _command_lint(self, _arg: str) -> None:
        if not self._needs_vault():
            return
        ops = self._operations()
        self.run_operation("lint", lambda: ops.lint(self.vault, self.settings, fix=True))

    def _command_create(self, name: str) -> None:
        if not self._needs_vault():
            return
        ops = self._operations()
        instruction = (f"Create the wiki page [[{name}]]: other pages link to it but it does not "
                       f"exist yet. Follow AGENTS.md; use what the wiki and its sources say, "
                       f"and link it to the pages it relates to.")
        self.run_operation("instruct", lambda: ops.instruct(self.vault, instruction,
                                                            self.settings))

    def on_wiki_browser_create_page_requested(self, event) -> None:
        """An unresolved link was followed: offer (not run) a /create in the input."""
        prompt = self.conversation.prompt
        if self.maximised == "browser":
            self.maximised = ""
        prompt.text = f"/create {event.target}"
        prompt.move_cursor(prompt.document.end)
        self.conversation.add_note(f"[[{event.target}]] has no page yet: press enter in the "
                                   "input to have one drafted (you review it before it is "
                                   "written).")

    def _command_undo(self, _arg: str) -> None:
        if not self._needs_vault():
            return
        self.undo()

    @work(thread=True, group="operation", exclusive=True, exit_on_error=False)
    def undo(self) -> None:
        try:
            from wiki_tui.changes.apply.journal import UndoError, undo_last
        except ImportError:
            self.call_from_thread(self.conversation.add_note, "undo is not available yet",
                                  "warning")
            return
        try:
            result = undo_last(self.vault)
        except UndoError as exc:
            self.call_from_thread(self.conversation.add_note, f"nothing undone: {exc}", "warning")
            return
        parts = [f"undone: {result.title}"]
        if result.restored:
            parts.append(f"{len(result.restored)} restored")
        if result.removed:
            parts.append(f"{len(result.removed)} removed")
        parts.append(f"commit {result.commit[:8]}")
        self.call_from_thread(self.conversation.add_note, ", ".join(parts), "success")
        if result.notice:
            self.call_from_thread(self.conversation.add_note, result.notice, "warning")

    @work(group="operation", exclusive=True, exit_on_error=False)
    async def run_operation(self, name: str, factory: Callable[[], AsyncIterator[Any]],
                            activity: str = "") -> None:
        from wiki_tui.ui.chat.presenter import EventPresenter

        presenter = EventPresenter(self.conversation, name)
        self.keys_at_start = self.keys_typed  # keys typed from now on may hold a review back
        self.status_bar.activity = activity or f"{name} running — esc cancels"
        self.conversation.progress.start(name, self.clock())  # at once, before any event
        stream = None
        try:
            stream = factory()
            async for event in stream:
                presenter.handle(event)
        except asyncio.CancelledError:
            presenter.cancelled()
            self._operation_ended(name, presenter, cancelled=True)
            raise
        except Exception as exc:  # a bug below must show as a message, not kill the app
            from wiki_tui.agent.events import Failed

            presenter.handle(Failed(reason=f"{name} failed: {type(exc).__name__}: {exc}"))
        finally:
            if stream is not None:
                await stream.aclose()
            self.status_bar.activity = ""
            self.conversation.progress.stop()
            self.conversation.flush()
        if presenter.failed is None and name == "query" and presenter.answer:
            self.last_answer = presenter.answer
            self.exchanges.append((self.last_question, presenter.answer))
        if presenter.changeset is not None and presenter.failed is None:
            self.changeset_ready(presenter.changeset)
        self._operation_ended(name, presenter)  # an ingest queue moves on (ui/chat/ingest_queue.py)

    # -- review ----------------------------------------------------------------------------
    # One rule for every operation (ingest, save, lint, create, instructions): the review opens
    # by itself when the operation ends, unless the person is at the keyboard; then it is
    # announced and waits for ctrl+r. Type-ahead must never decide a review: one that opens by
    # itself steps aside at the first key of its grace period and hands the keys to the input
    # (see docs/tui.md).
    def changeset_ready(self, changeset: Any) -> None:
        self.bell()
        self._keep_pending(changeset)
        if self._at_the_keyboard():
            self._announce_review(changeset)
        else:
            self.open_review(changeset, by_itself=True)

    keys_at_start = 0  # App.keys_typed when the last operation began

    def _at_the_keyboard(self) -> bool:
        """Typing since the operation began (recently), a draft in the input, or another
        screen open: the person is busy with something else."""
        typing = (self.keys_typed > self.keys_at_start
                  and self.clock() - self.last_key_at < TYPING_SECONDS)
        return (typing or bool(self.conversation.prompt.text.strip())
                or self.screen is not self.screen_stack[0])

    # -- pending reviews: kept on disk (changes/apply/pending.py) until applied or dropped --------
    def _keep_pending(self, changeset: Any, record: Any = None) -> None:
        from wiki_tui.changes.apply import pending

        if changeset not in self.pending_changesets:
            self.pending_changesets.append(changeset)
        if changeset.id not in self.pending_records:
            self.pending_records[changeset.id] = record or pending.new_pending(changeset)
        if record is None:
            self._save_pending(changeset)
        self.status_bar.pending_reviews = len(self.pending_changesets)

    def _save_pending(self, changeset: Any) -> None:
        from wiki_tui.changes.apply import pending

        record = self.pending_records.get(changeset.id)
        if record is None:
            return
        try:
            pending.save(self.vault_root, record)
        except OSError as exc:
            self.conversation.add_note(f"could not keep the review on disk ({exc}); it is "
                                       "lost if the app quits before it is applied", "warning")

    def _forget_pending(self, changeset: Any) -> None:
        from wiki_tui.changes.apply import pending

        self.pending_changesets = [c for c in self.pending_changesets if c is not changeset]
        record = self.pending_records.pop(changeset.id, None)
        if record is not None:
            try:
                pending.discard(self.vault_root, record.name)
            except OSError as exc:
                self.conversation.add_note(f"could not remove {record.name}: {exc}", "warning")
        self.status_bar.pending_reviews = len(self.pending_changesets)

    def pending_restored(self, records: list[Any], problems: list[str]) -> None:
        """Reviews kept from an earlier session (their bases re-checked against disk)."""
        records = self._not_yet_kept(records)
        for record in records:
            self._keep_pending(record.changeset, record)
        if records:
            stale = sum(1 for r in records if any(f.status == "conflict" for f in r.changeset.files))
            count = len(records)
            self.conversation.add_note(
                f"{count} pending review{'s' if count != 1 else ''} kept from an earlier session"
                + (f" ({stale} with files changed on disk since)" if stale else "")
                + " — ctrl+r " + ("lists them" if count > 1 else "opens it"), "success")
        for problem in problems:
            self.conversation.add_note(f"a pending review could not be read: {problem}",
                                       "warning")

    # -- proposals from outside (`wiki-tui mcp`): the pending folder, looked at every second --
    def watch_pending_folder(self) -> None:
        self._pending_stamp = self._pending_folder_stamp()
        self.set_interval(PENDING_POLL_SECONDS, self._poll_pending_folder)

    def _pending_folder_stamp(self) -> int | None:
        from wiki_tui.changes.apply.pending import pending_dir

        try:
            return pending_dir(self.vault_root).stat().st_mtime_ns  # a file added or removed
        except OSError:
            return None

    def _poll_pending_folder(self) -> None:
        stamp = self._pending_folder_stamp()
        if stamp != self._pending_stamp and self.vault is not None:
            self._pending_stamp = stamp
            known = {record.name: cs_id for cs_id, record in self.pending_records.items()}
            self._load_outside_pending(self.vault, known)

    @work(thread=True, group="pending", exit_on_error=False)
    def _load_outside_pending(self, vault: Any, known: dict[str, int]) -> None:
        from wiki_tui.changes.apply import pending
        from wiki_tui.changes.apply.journal import check_conflicts

        records, _problems = pending.load_all(self.vault_root)  # read at start-up already
        new = [record for record in records if record.name not in known]
        for record in new:
            check_conflicts(vault, record.changeset)
        gone = set(known) - {record.name for record in records}
        self.call_from_thread(self._outside_pending_changed, new, gone)

    def _outside_pending_changed(self, new: list[Any], gone: set[str]) -> None:
        """Proposals another agent made meanwhile are kept and announced; an outside proposal
        whose file went away (applied with `wiki-tui apply --pending`) is no longer listed."""
        for changeset in list(self.pending_changesets):
            record = self.pending_records.get(changeset.id)
            if record is not None and record.agent and record.name in gone:
                self.pending_changesets.remove(changeset)
                del self.pending_records[changeset.id]
        new = self._not_yet_kept(new)
        for record in new:
            self._keep_pending(record.changeset, record)
            self._announce_review(record.changeset, f", proposed by {record.agent}"
                                  if record.agent else "")
        self.status_bar.pending_reviews = len(self.pending_changesets)
        if new:
            self.bell()

    def _not_yet_kept(self, records: list[Any]) -> list[Any]:
        """The start-up restore and the folder poll may both read a file that just arrived."""
        kept = {record.name for record in self.pending_records.values()}
        return [record for record in records if record.name not in kept]

    def _announce_review(self, changeset: Any, why: str = "") -> None:
        count = len(changeset.files)
        self.conversation.add_note(
            f"review ready: {changeset.operation} | {changeset.title}, {count} "
            f"file{'s' if count != 1 else ''}{why} — ctrl+r opens it", "success")

    def open_review(self, changeset: Any, *, by_itself: bool = False) -> None:
        from wiki_tui.ui.review import ReviewScreen

        self._keep_pending(changeset)
        hand_back = self._type_into_main_screen if by_itself else None
        self.push_screen(ReviewScreen(self.vault, changeset, hand_back=hand_back,
                                      clock=self.clock),
                         callback=partial(self._review_closed, changeset))

    def _type_into_main_screen(self, key: str, character: str | None) -> None:
        """A key typed while a review that opened by itself was in its grace period: it was
        meant for the main screen (the input, usually), so it goes there."""
        from wiki_tui.ui.chat.prompt import PromptInput

        target = self.screen_stack[0].focused
        if isinstance(target, PromptInput):
            target.type_key(key, character)
        elif target is not None:
            target._forward_event(events.Key(key, character))

    def action_review(self) -> None:
        reviews = self.pending_changesets
        if not reviews:
            self.notify("No pending reviews.", timeout=3)
        elif len(reviews) == 1:
            self.open_review(reviews[0])
        else:
            from wiki_tui.ui.review.pending import PendingScreen

            records = [self.pending_records.get(cs.id) for cs in reviews]
            items = [(cs, getattr(r, "created", ""), getattr(r, "agent", None))
                     for cs, r in zip(reviews, records)]
            self.push_screen(PendingScreen(items), callback=self._pending_chosen)

    def _pending_chosen(self, choice: Any) -> None:
        if choice is None:
            return
        what, changeset = choice
        if what == "open":
            self.open_review(changeset)
            return
        from wiki_tui.ui.review import ConfirmScreen

        count = len(changeset.files)
        self.push_screen(ConfirmScreen(
            f"Drop {changeset.operation} | {changeset.title}?",
            f"Its {count} proposed file{'s' if count != 1 else ''} are never written; "
            "the proposal is gone."), callback=partial(self._drop_confirmed, changeset))

    def _drop_confirmed(self, changeset: Any, yes: bool | None) -> None:
        if yes:
            from wiki_tui.ui.review.screen import ALL_REJECTED

            self._forget_pending(changeset)
            self.conversation.add_note(f"dropped: {changeset.operation} | {changeset.title} "
                                       "(nothing written)")
            self._review_done(changeset, ALL_REJECTED)

    def _review_closed(self, changeset: Any, result: Any) -> None:
        from wiki_tui.ui.review.screen import ALL_REJECTED, HANDED_BACK

        if result == HANDED_BACK:
            self._save_pending(changeset)
            self._announce_review(changeset, " (it stepped aside: you were typing)")
        elif result is None:
            self._save_pending(changeset)  # its decisions so far
            self.conversation.add_note("review left; the changes stay pending (ctrl+r reopens)")
        else:
            self._forget_pending(changeset)
            self.conversation.proposed.clear()
            self.conversation.proposed.flush()
            if result == ALL_REJECTED:
                self.conversation.add_note(f"review closed: every file of "
                                           f"{changeset.operation} | {changeset.title} "
                                           "rejected, nothing written")
            else:
                self.show_apply_result(result)
        self._review_done(changeset, result)  # an ingest queue moves on or waits

    def show_apply_result(self, result: Any) -> None:
        written = list(getattr(result, "written", []))
        deleted = list(getattr(result, "deleted", []))
        conflicts = list(getattr(result, "conflicts", []))
        commit = getattr(result, "commit", None)
        parts = [f"{len(written)} written"]
        if deleted:
            parts.append(f"{len(deleted)} deleted")
        if conflicts:
            parts.append(counted(len(conflicts), "conflict"))
        parts.append(f"commit {commit[:8]}" if commit else "no commit")
        self.conversation.add_note("applied: " + ", ".join(parts),
                                   "warning" if conflicts else "success")
        notice = getattr(result, "notice", None)
        if notice:
            self.conversation.add_note(notice, "warning")
        self.status_bar.branch = git_branch(self.vault_root)
        from wiki_tui.vault.layout import special_pages  # (its hashing is not for the first paint)

        special = special_pages(getattr(self.vault, "catalog", "index.md"))
        new_pages = [p for p in written if p.endswith(".md") and p not in special]
        if new_pages:
            self.open_page(new_pages[0])

    # -- citations -------------------------------------------------------------------------
    def on_reply_message_citations_requested(self, event: ReplyMessage.CitationsRequested) -> None:
        targets: list[tuple[str, str | None]] = []
        seen: set[str] = set()
        for target in event.reply.targets():
            path = self.vault.resolve(target) if self.vault is not None else None
            if path is not None and path in seen:
                continue
            seen.add(path or target)
            page = self.vault.pages.get(path) if path and self.vault is not None else None
            targets.append((page.title if page is not None else target, path))
        resolved = [path for _t, path in targets if path]
        if len(targets) == 1 and resolved:
            self.open_page(resolved[0])
            return
        from wiki_tui.ui.chat.citations import CitationsScreen

        self.push_screen(CitationsScreen(targets), callback=self._maybe_open)

    # -- lint findings -----------------------------------------------------------------------
    # (the findings module is imported when a lint run reports: not on the start-up path)
    last_findings: Any = None  # findings.LintReport of the last /lint run

    def on_findings_reported(self, message: Any) -> None:
        from wiki_tui.ui.findings import LintReport

        self.last_findings = LintReport.from_findings(message.findings)
        if message.show and self.last_findings.items and self.screen is self.screen_stack[0]:
            self._push_findings()

    def action_findings(self) -> None:
        from wiki_tui.ui.findings import FindingsScreen

        if isinstance(self.screen, FindingsScreen):  # the same key closes it
            self.screen.dismiss(None)
            return
        report = self.last_findings
        if report is None:
            self.notify("No lint run yet: /lint checks the wiki.", timeout=3)
        elif not report.items:
            self.notify("The last lint run found nothing.", timeout=3)
        else:
            self._push_findings()

    def _push_findings(self) -> None:
        from wiki_tui.ui.findings import FindingsScreen

        self.push_screen(FindingsScreen(self.last_findings, self.vault_root, self.vault),
                         callback=self._maybe_open)
