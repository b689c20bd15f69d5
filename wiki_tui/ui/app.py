"""WikiApp: the conversation beside a live wiki browser, over one vault.

Start-up stays fast: the first paint needs only config, themes and state (small files). The
vault index loads in a thread worker after the first paint, and litellm (seconds to import) is
warmed up after the first paint when a real model is configured (or one is chosen with /model);
the offline engine never imports it. Commands and operations live in `operations.py` (a mixin of this app).
"""

from __future__ import annotations

import gc
import os
import time
from pathlib import Path
from typing import Any, Callable

from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from wiki_tui.agent.config import AgentSettings, ConfigError, resolve_settings
from wiki_tui.ui.frame.config import load_ui_config, user_config_dir
from wiki_tui.ui.chat.conversation import Conversation, ReplyMessage
from wiki_tui.ui.chat.ingest_queue import IngestQueueMixin
from wiki_tui.ui.frame.keybar import KeyBar
from wiki_tui.ui.chat.operations import OperationsMixin
from wiki_tui.ui.frame.palette import ActionsProvider, PagesProvider
from wiki_tui.ui.frame.state import AppState
from wiki_tui.ui.frame.status import StatusBar, git_branch
from wiki_tui.ui.frame.themes import DEFAULT_THEME, load_themes

NARROW_WIDTH = 100  # below this many columns the panes stack
RAW_LIST_LIMIT = 5000
WELCOME = ("Ask the wiki a question, or /ingest raw/FILE, /lint, /help. "
           "F1 lists every key; ctrl+p every action.")


class IndexProgress(Message):
    """How far indexing in bulk has come (posted from the load thread)."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done, self.total = done, total


class WikiApp(IngestQueueMixin, OperationsMixin, App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "wiki-tui"
    COMMANDS = App.COMMANDS | {ActionsProvider, PagesProvider}

    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        Binding("ctrl+p", "command_palette", "Palette", id="app.command_palette",
                priority=True, show=False),  # the footer shows it on its right already
        Binding("f1", "help", "Keys", id="app.help"),
        Binding("f2", "toggle_maximise", "Maximise", id="app.maximise"),
        # Esc twice over: a priority key that cancels a running operation wherever the focus
        # is (check_action enables it only then), else the ladder after the focused widget's
        # own Esc (a browser panel goes back to its page first).
        Binding("escape", "cancel", "Cancel", id="app.cancel", show=False, priority=True),
        Binding("escape", "escape", "Back", id="app.back", show=False),
        Binding("ctrl+o", "jump", "Jump", id="wiki.jump", priority=True),
        Binding("ctrl+f", "search", "Search", id="wiki.search", priority=True),
        Binding("ctrl+t", "tags", "Tags", id="wiki.tags", priority=True, show=False),
        Binding("ctrl+r", "review", "Review", id="app.review", priority=True),
        Binding("f3", "history", "History", id="app.history"),
        Binding("f4", "findings", "Findings", id="app.findings", show=False),
        Binding("ctrl+l", "focus_prompt", "Input", id="app.focus_prompt", show=False),
        Binding("ctrl+w", "focus_browser", "Wiki", id="app.focus_browser", show=False,
                priority=True),
    ]

    maximised: reactive[str] = reactive("")  # "" | "conversation" | "browser"
    _themes_ready = False  # (until _load_themes: App.__init__ runs before it)

    def __init__(self, vault_root: Path, *, settings: AgentSettings | None = None,
                 model: str | None = None, state: AppState | None = None,
                 demo: bool = False, clock: Callable[[], float] = time.monotonic) -> None:
        # Everything imported so far (Textual, rich, our modules) lives as long as the process:
        # out of the cyclic GC's reach, the full collection that start-up triggers walks only
        # the new widgets (~12 ms less before the first paint).
        gc.freeze()
        super().__init__()
        self.vault_root = Path(vault_root).resolve()
        self.vault: Any = None  # wiki_tui.vault.Vault once loaded
        self.notices: list[str] = []
        self.demo = demo  # a copy of the sample vault: say where it is, it is not the cwd
        self.state = state or AppState()
        if self.state.notice:
            self.notices.append(self.state.notice)
        self.ui_config = load_ui_config(self.vault_root)
        self.notices.extend(self.ui_config.notices)
        self.settings = settings or self._resolve_settings(model)
        self.pending_changesets: list[Any] = []  # oldest first
        self.pending_records: dict[int, Any] = {}  # changeset id -> changes.apply.pending.Pending
        self.last_question = ""
        self.last_answer = ""
        self.exchanges: list[tuple[str, str]] = []  # (question, answer) sent back as context
        self.raw_files: list[str] = []
        self._browser: Any = None
        self._index_activity = ""  # the status line on_index_progress last set
        self._skip_css_refresh = False
        self._warm_started = False
        # The app's clock (monotonic seconds): when keys were typed, a review's grace period.
        # Tests pass their own, so nothing they assert depends on how busy the machine is.
        self.clock = clock
        self.last_key_at = float("-inf")  # when the person last pressed a key (self.clock)
        self.keys_typed = 0  # keys pressed so far (an operation remembers the count it began at)
        self._load_themes()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            self.last_key_at = self.clock()  # a review does not open over typing
            self.keys_typed += 1
        await super().on_event(event)

    # -- set-up ----------------------------------------------------------------------------
    def _resolve_settings(self, model: str | None) -> AgentSettings:
        try:
            return resolve_settings(self.vault_root, model)
        except ConfigError as exc:
            self.notices.append(f"{exc} — using the offline engine")
            return AgentSettings()

    def _load_themes(self) -> None:
        themes, notices = load_themes(user_config_dir() / "themes")
        for theme in themes:
            self.register_theme(theme)
        self.notices.extend(notices)
        wanted = self.state.theme or self.ui_config.theme or DEFAULT_THEME
        if wanted not in self.available_themes:
            self.notices.append(f"theme {wanted!r} not found; using {DEFAULT_THEME}")
            wanted = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        if wanted != self.theme:
            self.theme = wanted
            # The refresh Textual queued for the change is skipped (it parsed every sheet
            # twice): no CSS is parsed yet, and the stylesheet takes the variables below.
            self._skip_css_refresh = True
        self._themes_ready = True
        self.stylesheet.set_variables(self.get_css_variables())

    def get_css_variables(self) -> dict[str, str]:
        # App.__init__ asks first, for Textual's default theme, before ours are registered:
        # nothing is parsed with them, so they are not worked out (a theme's colour system
        # costs ~2-4 ms); _load_themes gives the stylesheet those of the theme in use.
        if not self._themes_ready:
            return {}
        return super().get_css_variables()

    def refresh_css(self, animate: bool = True) -> None:
        if self._skip_css_refresh:
            self._skip_css_refresh = False
            return
        super().refresh_css(animate)

    def _configured_keymap(self) -> dict[str, str]:
        keymap: dict[str, str] = {}
        if self.ui_config.send_key == "ctrl+j":
            keymap = {"conversation.send": "ctrl+j", "conversation.newline": "enter"}
        keymap.update(self.ui_config.keys)
        return keymap

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield Conversation(self.state.history, lambda: self.raw_files, id="conversation")
            with Container(id="browser-pane"):
                yield Static("Opening the vault…", id="browser-placeholder")
        yield StatusBar(id="status")
        yield KeyBar()

    def on_load(self) -> None:
        # Until the first frame is on screen, no cyclic collection: parsing the CSS, composing
        # and the first layout make tens of thousands of objects, nearly all of them kept, and
        # the collector walked them over and over (~15 ms before the first paint). It runs
        # again right after that frame (on_mount's first after-refresh call).
        gc.disable()

    def on_mount(self) -> None:
        self.call_after_refresh(gc.enable)
        status = self.status_bar
        status.vault_name = self.vault_root.name
        status.model = self.settings_label
        status.branch = git_branch(self.vault_root)
        self._apply_keymap()
        self._update_layout_class(self.size.width)
        self.conversation.focus_input()
        self.call_after_refresh(self._show_start_notes)  # not needed for the first paint
        # After the first paint: the index build in its thread would compete for the GIL.
        self.call_after_refresh(self.load_vault)
        if not self.settings.offline:
            self.call_after_refresh(self.start_warm_up)

    def _show_start_notes(self) -> None:
        if self.demo:
            self.conversation.add_note(f"demo vault (a copy of the sample, yours to change): "
                                       f"{self.vault_root}", "success")
        self.conversation.add_note(WELCOME)
        for notice in self.notices:
            self.conversation.add_note(notice, "warning")

    def _apply_keymap(self) -> None:
        keymap = self._configured_keymap()
        if not keymap:
            return
        from wiki_tui.ui.frame.help import binding_rows

        known = {row[0] for row in binding_rows(self, self._screen_classes())}
        unknown = sorted(set(self.ui_config.keys) - known)
        if unknown:
            self.conversation.add_note(f"config [keys]: unknown binding ids {', '.join(unknown)}"
                                       " (F1 lists them)", "warning")
        self.set_keymap(keymap)

    @property
    def settings_label(self) -> str:
        return "offline engine" if self.settings.offline else self.settings.model

    @property
    def conversation(self) -> Conversation:
        return self.query_one(Conversation)

    @property
    def status_bar(self) -> StatusBar:
        return self.query_one(StatusBar)

    @property
    def operation_running(self) -> bool:
        return any(w.group == "operation" and w.is_running for w in self.workers)

    # -- vault, watcher, warm-up -----------------------------------------------------------
    @work(thread=True, exclusive=True, group="vault", exit_on_error=False)
    def load_vault(self) -> None:
        from wiki_tui.heap import give_back, return_big_blocks

        return_big_blocks()  # before the load's big temporaries (see heap.py: -43 MB at 50k)
        raw = self._list_raw()
        self.call_from_thread(setattr, self, "raw_files", raw)
        from wiki_tui.changes.apply.journal import recover
        from wiki_tui.vault import Vault, VaultError

        try:
            # answers from the index on disk at once; the listing of every file comes below
            vault = Vault.open(self.vault_root, check=False, on_progress=self._index_progress)
            vault.show_listings = self.ui_config.show_listings
        except (VaultError, OSError) as exc:
            self.call_from_thread(self.conversation.add_note, f"vault not opened: {exc}", "error")
            return
        try:
            message = recover(vault)
        except Exception as exc:  # recovery trouble must be shown, not crash the app
            message = f"recovering an interrupted apply failed: {exc}"
        self.call_from_thread(self._vault_loaded, vault, message)
        self._restore_pending(vault)
        try:
            vault.start_watching(self._watch_callback)
        except Exception as exc:
            self.call_from_thread(self.conversation.add_note,
                                  f"not watching the vault for outside changes: {exc}", "warning")
        # What changed while wiki-tui was not running (the watcher, started first, sees what
        # changes from now on): re-indexed, then shown like any outside change.
        try:
            changes = [] if vault.checked else vault.check_freshness()  # checked: a cold build
        except Exception as exc:  # an index that cannot be brought up to date must not stop the app
            changes = []
            self.call_from_thread(self.conversation.add_note,
                                  f"the vault's index may be out of date: {exc}", "warning")
        if changes:
            self._watch_callback(changes)
        # The finder and the search database, so the first jump or search is instant.
        vault.prepare()
        vault.release_memory()  # the load's full scans filled SQLite's page caches
        give_back()  # what the load freed in this thread's heap (see heap.py)

    def _index_progress(self, done: int, total: int) -> None:
        """From the load thread: how far indexing in bulk has come (a vault's first opening, or
        many pages changed since the last session). Posted, not waited for: a freshness check
        reports with the vault's lock held, which a query on the event loop may be waiting for."""
        self.post_message(IndexProgress(done, total))

    def on_index_progress(self, message: IndexProgress) -> None:
        done, total = message.done, message.total
        placeholder = self.query("#browser-placeholder")
        if placeholder:  # the first opening: nothing to browse until the index is built
            placeholder.first(Static).update(
                f"Indexing the vault for the first time: {done:,} of {total:,} pages.\n\n"
                "The index is kept on disk: later starts open at once.")
            return
        status = self.status_bar  # later: the browser answers meanwhile, from the old index
        if status.activity not in ("", self._index_activity):
            return  # an operation's line: it stays
        self._index_activity = "" if done >= total else f"re-indexing changed pages: {done:,} of {total:,}"
        status.activity = self._index_activity

    def _restore_pending(self, vault: Any) -> None:
        """Reviews kept on disk by an earlier session, each base re-checked (a file changed
        since shows as changed on disk in the review)."""
        from wiki_tui.changes.apply import pending
        from wiki_tui.changes.apply.journal import check_conflicts

        try:
            records, problems = pending.load_all(self.vault_root)
            for record in records:
                check_conflicts(vault, record.changeset)
        except Exception as exc:  # pending work that cannot be read must not stop the app
            records, problems = [], [str(exc)]
        if records or problems:
            self.call_from_thread(self.pending_restored, records, problems)

    def _list_raw(self) -> list[str]:
        """Files under raw/ for /ingest completion (a plain walk: no index needed)."""
        raw_dir = self.vault_root / "raw"
        found: list[str] = []
        if raw_dir.is_dir():
            for path in sorted(raw_dir.rglob("*")):
                if path.is_file() and not path.name.startswith("."):
                    found.append(path.relative_to(self.vault_root).as_posix())
                    if len(found) >= RAW_LIST_LIMIT:
                        break
        return found

    def _vault_loaded(self, vault: Any, message: str | None) -> None:
        self.vault = vault
        self.watch_pending_folder()
        if message:
            self.conversation.add_note(message, "warning")
        self._mount_browser()
        self.call_after_refresh(self._freeze_start_up_heap)
        self.call_after_refresh(self.run_held_request)

    @staticmethod
    def _freeze_start_up_heap() -> None:
        """What is alive once the vault is open (Textual, the index, the first page) stays for
        the whole session: move it out of the cyclic GC's reach. A full collection then walks
        only what came later, so one that lands mid-stream costs ~10-20 ms instead of ~80-100 ms
        (a visible stall in a streamed reply). The few start-up objects that later become
        cyclic garbage wait until the app closes; reference counting still frees the rest."""
        gc.collect()
        gc.freeze()

    def _mount_browser(self) -> None:
        pane = self.query_one("#browser-pane")
        try:
            from wiki_tui.ui.browser import WikiBrowser
        except ImportError:
            self.query_one("#browser-placeholder", Static).update(
                f"{len(self.vault.pages):,} pages — the wiki browser is not available yet.")
            return
        self._browser = WikiBrowser(self.vault, id="browser")
        pane.query("#browser-placeholder").remove()
        pane.mount(self._browser)

    def _watch_callback(self, changes: list) -> None:
        """Runs on the watcher thread after the vault index is updated."""
        try:
            self.call_from_thread(self._files_changed, changes)
        except RuntimeError:  # the app is shutting down
            pass

    def _files_changed(self, changes: list) -> None:
        if any(str(path).startswith("raw/") for _change, path in changes):
            self.raw_files = self._list_raw()
        self.status_bar.branch = git_branch(self.vault_root)
        if self._browser is not None:
            self._browser.files_changed(changes)
        from wiki_tui.ui.review import ReviewScreen

        for screen in self.screen_stack:  # an open review notices when its bases change
            if isinstance(screen, ReviewScreen):
                screen.files_changed(changes)

    def start_warm_up(self) -> None:
        if not self._warm_started:
            self._warm_started = True
            self.warm_up()

    @work(thread=True, group="warmup", exit_on_error=False)
    def warm_up(self) -> None:
        """Import litellm (seconds) off the event loop so the first model call starts at once."""
        try:
            from wiki_tui.agent.engine.llm import warm_up
        except ImportError:
            os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
            import litellm

            litellm.suppress_debug_info = True
            return
        warm_up()

    async def action_quit(self) -> None:
        """Pending reviews are on disk already; their latest decisions are saved and the
        person is told they come back."""
        count = len(self.pending_changesets)
        if not count:
            self.exit()
            return
        for changeset in self.pending_changesets:
            self._save_pending(changeset)
        from wiki_tui.changes.apply.pending import pending_dir

        self.exit(message=f"{count} pending review{'s' if count != 1 else ''} kept in "
                  f"{pending_dir(self.vault_root)}: "
                  f"{'they come' if count != 1 else 'it comes'} back when wiki-tui opens "
                  "this vault again.")

    def on_unmount(self) -> None:
        gc.enable()  # (a run that ends before its first frame)
        gc.unfreeze()  # the session is over: what it froze may be collected again
        if self.vault is not None:
            for method in ("stop_watching", "close"):
                try:
                    getattr(self.vault, method)()
                except Exception:
                    pass

    MAIN_SCREEN_ACTIONS = {"jump", "search", "tags", "review", "focus_prompt", "focus_browser",
                           "toggle_maximise", "escape", "cancel"}

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        """The app's pane and picker keys belong to the main screen; over a review or a picker
        they stand aside so the screen on top gets the key."""
        if action in self.MAIN_SCREEN_ACTIONS and self.screen is not self.screen_stack[0]:
            return False
        if action == "cancel":  # else the key goes on to the focused widget and the ladder
            return self.operation_running or self.ingest_queue is not None or self.held_request is not None
        return True

    # -- layout ----------------------------------------------------------------------------
    def on_resize(self, event) -> None:
        self._update_layout_class(event.size.width)

    def _update_layout_class(self, width: int) -> None:
        self.screen.set_class(width < NARROW_WIDTH, "-narrow")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Stacked panes: the one with the focus is the taller (app.tcss, -browsing)."""
        main = self.screen_stack[0] if self.screen_stack else None
        if main is None or event.widget.screen is not main:
            return
        browser = self._browser
        main.set_class(browser is not None and (event.widget is browser
                                                or browser in event.widget.ancestors),
                       "-browsing")

    def watch_maximised(self, value: str) -> None:
        self.screen.set_class(value == "conversation", "-max-conversation")
        self.screen.set_class(value == "browser", "-max-browser")

    def action_toggle_maximise(self) -> None:
        """Maximise the pane that has the focus; again restores both."""
        if self.maximised:
            self.maximised = ""
            return
        focused = self.focused
        browser = self._browser
        in_browser = browser is not None and focused is not None and (
            focused is browser or browser in focused.ancestors)
        self.maximised = "browser" if in_browser else "conversation"

    def action_focus_prompt(self) -> None:
        if self.maximised == "browser":
            self.maximised = ""
        self.conversation.action_focus_input()

    def action_focus_browser(self) -> None:
        if self._browser is None:
            return
        if self.maximised == "conversation":
            self.maximised = ""
        self._browser.focus()

    def watch_theme(self, name: str) -> None:
        if self._themes_ready:
            self.state.theme = name

    # -- keys ------------------------------------------------------------------------------
    def _screen_classes(self) -> tuple[type, ...]:
        """Screens pushed later, so F1 and keymap checks know their bindings too."""
        classes: list[type] = []
        from wiki_tui.ui.chat.citations import CitationsScreen
        from wiki_tui.ui.findings import FindingsScreen
        from wiki_tui.ui.frame.help import HelpScreen

        classes += [HelpScreen, CitationsScreen, ReplyMessage, FindingsScreen]
        from wiki_tui.ui import browser, review
        from wiki_tui.ui.review.confirm import ConfirmScreen
        from wiki_tui.ui.review.form_preview import FormPreviewScreen
        from wiki_tui.ui.review.pending import PendingScreen

        classes += [browser.PageJumpScreen, browser.SearchScreen, browser.TagsScreen,
                    browser.WikiBrowser, review.ReviewScreen, review.HistoryScreen, ConfirmScreen,
                    PendingScreen, FormPreviewScreen]
        return tuple(classes)

    def action_help(self) -> None:
        from wiki_tui.ui.frame.help import HelpScreen, binding_rows

        if isinstance(self.screen, HelpScreen):
            return
        rows = binding_rows(self, self._screen_classes())
        here = type(self.screen).__name__  # the keys of the screen on top come first
        rows.sort(key=lambda row: row[3] != here)
        self.push_screen(HelpScreen(rows))

    def action_cancel(self) -> None:
        self.cancel_operation()

    def action_escape(self) -> None:
        """Esc ladder (after a side panel's own step back to its page): cancel the running
        operation (when app.cancel is on another key), else restore the layout, else the input."""
        if self.operation_running or self.ingest_queue is not None or self.held_request is not None:
            self.cancel_operation()
        elif self.maximised:
            self.maximised = ""
        else:
            self.conversation.focus_input()

    def cancel_operation(self) -> None:
        if self.drop_held_request():  # nothing runs yet: the request waiting for the vault
            return
        if self.stop_queue():  # an ingest queue stops after the current source first
            return
        self.workers.cancel_group(self, "operation")

    def _push_browser_screen(self, name: str) -> None:
        if self.vault is None:
            self.notify("The vault is still loading.", timeout=3)
            return
        from wiki_tui.ui import browser

        self.push_screen(getattr(browser, name)(self.vault), callback=self._maybe_open)

    def _maybe_open(self, result: Any) -> None:
        if isinstance(result, str) and result:
            # after the modal screen is gone: the browser pauses its rendering under modals
            self.call_after_refresh(self.read_page, result)

    def action_jump(self) -> None:
        self._push_browser_screen("PageJumpScreen")

    def action_search(self) -> None:
        self._push_browser_screen("SearchScreen")

    def action_tags(self) -> None:
        self._push_browser_screen("TagsScreen")

    def action_history(self) -> None:
        """log.md entries with their commits; undo from there."""
        if self.vault is None:
            self.notify("The vault is still loading.", timeout=3)
            return
        from wiki_tui.ui.review import HistoryScreen

        if not isinstance(self.screen, HistoryScreen):
            self.push_screen(HistoryScreen(self.vault), callback=self._maybe_open)

    def read_page(self, path: str) -> None:
        """A page picked to be read (jump, search, tags, palette, history, citations,
        findings): open it and give it the focus, so the keys scroll and follow its links
        (ctrl+l goes back to the input)."""
        self.open_page(path)
        self.action_focus_browser()

    def open_page(self, path: str) -> None:
        if self._browser is None:
            self.notify(f"{path} (the wiki browser is not available yet)", timeout=3)
            return
        if self.maximised == "conversation":
            self.maximised = ""
        self._browser.open_page(path)

    # -- palette ---------------------------------------------------------------------------
    def palette_actions(self) -> list[tuple[str, str, Callable[[], Any]]]:
        from wiki_tui.ui.frame.help import binding_rows

        keys_by_id = {row[0]: row[1] for row in binding_rows(self)}

        def key(action_id: str) -> str:
            return f" ({keys_by_id[action_id]})" if action_id in keys_by_id else ""

        def run(text: str) -> Callable[[], None]:
            return lambda: self.submit(text)

        def prefill(text: str) -> Callable[[], None]:
            def go() -> None:
                self.action_focus_prompt()
                prompt = self.conversation.prompt
                prompt.text = text
                prompt.move_cursor(prompt.document.end)
            return go

        return [
            ("Ask the wiki a question", "type it in the conversation input" + key("app.focus_prompt"),
             self.action_focus_prompt),
            ("Ingest a source from raw/", "/ingest PATH", prefill("/ingest raw/")),
            ("Save the last answer as a page", "/save", run("/save")),
            ("Lint the wiki", "/lint: check and propose fixes", run("/lint")),
            ("Lint findings", "the last /lint run's findings, with evidence; dismiss for good"
             + key("app.findings"), self.action_findings),
            ("Undo the last applied change", "/undo", run("/undo")),
            ("Show the model", "/model [NAME] switches", run("/model")),
            ("Switch model", "/model NAME", prefill("/model ")),
            ("Conversation commands", "/help", run("/help")),
            ("Cancel the running operation", "nothing is written" + key("app.cancel"),
             self.cancel_operation),
            ("Pending reviews", "open, apply or drop a changeset waiting" + key("app.review"),
             self.action_review),
            ("History and undo", "log.md entries and their commits" + key("app.history"),
             self.action_history),
            ("Jump to page", "fuzzy page jump" + key("wiki.jump"), self.action_jump),
            ("Search the wiki", "full-text search" + key("wiki.search"), self.action_search),
            ("Tags", "pages by tag" + key("wiki.tags"), self.action_tags),
            ("Maximise / restore pane", "the pane with the focus" + key("app.maximise"),
             self.action_toggle_maximise),
            ("Focus the wiki browser", key("app.focus_browser").strip(), self.action_focus_browser),
            ("Keys", "every key binding and its id" + key("app.help"), self.action_help),
        ]
