"""WikiBrowser: the page view with its title bar and side panels, history and live refresh.

The app mounts `WikiBrowser(vault)`, calls `open_page(target_or_path)` for jumps and citations and
`files_changed(changes)` from the vault watcher, and listens for the messages below. Loading and
rendering happen in workers; everything here runs on the event loop and stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Iterable

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical
from textual.message import Message
from textual.widgets import Static, TabbedContent, TabPane
from textual.worker import get_current_worker

from wiki_tui.ui.browser.document import LinkRef, PageDocument, find_subpath_line, load_document
from wiki_tui.ui.chat.editor import EditorError, run_editor
from wiki_tui.ui.browser.history import History
from wiki_tui.ui.browser.page_view import PageView, is_lite
from wiki_tui.ui.browser.panels import (
    BacklinksPanel,
    LocationSelected,
    OutlinePanel,
    PageTree,
)

CSS_FILE = Path(__file__).with_name("browser.tcss")
NARROW_WIDTH = 90  # below this the side panel is hidden until asked for, then stacked
MENTIONS_LIMIT = 200
TEXT_SUFFIXES = (".md", ".markdown", ".txt")
START_HEAD = 64 * 1024  # the start page shows this much of itself until asked for the rest
AUTO_MENTIONS_PAGES = 2000  # above this many pages unlinked mentions are found on request


class PageLocation(str):
    """A page path that also carries the line to show (a search hit); still a plain str."""

    line: int | None

    def __new__(cls, path: str, line: int | None = None) -> "PageLocation":
        value = super().__new__(cls, path)
        value.line = line
        return value


@dataclass(frozen=True)
class _LoadRequest:
    """One page load: where to show the page once it is read."""

    path: str
    subpath: str = ""
    line: int | None = None
    scroll_y: float | None = None
    keep_position: bool = False  # a new version of the page on screen: stay where the reader is
    head: int | None = None  # show only this many characters of a long page (the start page)


class WikiBrowser(Container):
    """The wiki side of the app: one page at a time, browsed like a web page."""

    DEFAULT_CSS = CSS_FILE.read_text(encoding="utf-8")
    SCOPED_CSS = False  # the selectors in browser.tcss name their widgets explicitly

    BINDINGS = [
        Binding("alt+left,b", "back", "Back", id="browser.back"),
        Binding("alt+right,f", "forward", "Forward", id="browser.forward"),
        Binding("e", "edit", "Edit", id="browser.edit"),
        Binding("a", "read_all", "All of page", id="browser.read_all"),
        Binding("s", "toggle_panel", "Panel", id="browser.toggle_panel"),
        Binding("l", "show_panel('links')", "Backlinks", show=False, id="browser.backlinks"),
        Binding("o", "show_panel('outline')", "Outline", show=False, id="browser.outline"),
        Binding("t", "show_panel('pages')", "Pages", show=False, id="browser.tree"),
        Binding("escape", "focus_page", "To page", show=False, id="browser.focus_page"),
    ]

    # -- messages upward ----------------------------------------------------
    class PageOpened(Message):
        """A page is shown (after a jump, a followed link, back/forward, a tree pick)."""

        def __init__(self, browser: "WikiBrowser", path: str) -> None:
            super().__init__()
            self.browser = browser
            self.path = path

    class CreatePageRequested(Message):
        """An unresolved link was followed: the app may offer to create the page (via review)."""

        def __init__(self, browser: "WikiBrowser", target: str, from_path: str | None) -> None:
            super().__init__()
            self.browser = browser
            self.target = target
            self.from_path = from_path

    class PageEdited(Message):
        """The page was edited in $EDITOR and re-indexed."""

        def __init__(self, browser: "WikiBrowser", path: str) -> None:
            super().__init__()
            self.browser = browser
            self.path = path

    def __init__(self, vault, *, name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.vault = vault
        self.history = History()
        self.current_path: str | None = None
        self.document: PageDocument | None = None
        self._panel_choice: bool | None = None  # None: open when wide, closed when narrow
        self._backlinks_shown_for: str | None = None  # backlinks shown in full (panel seen)
        self._backlinks_counted_for: str | None = None  # linked ones loaded (the tab's count)
        self._finder_warm = False
        self.last_render: PageView.Rendered | None = None
        # Loads run in threads and may finish out of order: only the newest one is shown.
        self._load_seq = 0
        self._pending_load: _LoadRequest | None = None  # the newest load, until it is shown

    def compose(self) -> ComposeResult:
        with Vertical(id="page-column"):
            yield Static("", id="page-title")
            yield PageView(id="page-view")
        with TabbedContent(id="side-panel", initial="links"):
            with TabPane("Backlinks", id="links"):
                yield BacklinksPanel(id="backlinks")
            with TabPane("Outline", id="outline"):
                yield OutlinePanel(id="outline-list")
            with TabPane("Pages", id="pages"):
                yield PageTree(id="page-tree")

    def on_mount(self) -> None:
        self._update_title()
        self.query_one(PageTree).build(self.vault.pages)
        if self.current_path is None:
            start = self._start_page()
            if start:
                self._navigate(start, head=START_HEAD)

    def _start_page(self) -> str | None:
        pages = self.vault.pages
        # index.md: the catalog, or the person's home page when the catalog lives elsewhere
        catalog = getattr(self.vault, "catalog", "index.md")
        for candidate in ("index.md", catalog, "README.md"):
            if candidate in pages:
                return candidate
        return min(pages, key=str.casefold) if pages else None

    @property
    def page_view(self) -> PageView:
        return self.query_one("#page-view", PageView)

    def focus(self, scroll_visible: bool = True) -> "WikiBrowser":
        """Focusing the browser focuses the page (the app's focus key lands here)."""
        self.page_view.focus(scroll_visible)
        return self

    # -- layout -------------------------------------------------------------
    def on_resize(self) -> None:
        self._update_layout()

    def _update_layout(self) -> None:
        narrow = self.size.width < NARROW_WIDTH
        if narrow != self.has_class("-narrow"):
            self._panel_choice = None  # back to the default for the new width
        self.set_class(narrow, "-narrow")
        self.set_class(not self.panel_visible, "-panel-closed")
        self._refresh_backlinks()

    @property
    def panel_visible(self) -> bool:
        if self._panel_choice is None:
            return not self.has_class("-narrow")
        return self._panel_choice

    def action_toggle_panel(self) -> None:
        self._panel_choice = not self.panel_visible
        self._update_layout()
        if not self.panel_visible:
            self.page_view.focus()

    def action_show_panel(self, tab: str) -> None:
        self._panel_choice = True
        tabs = self.query_one(TabbedContent)
        tabs.active = tab
        self._update_layout()
        widget = {"links": "#backlinks", "outline": "#outline-list", "pages": "#page-tree"}[tab]
        self.query_one(widget).focus()

    @on(TabbedContent.TabActivated)
    def _tab_activated(self) -> None:
        self._refresh_backlinks()

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "read_all":
            return bool(self.document and self.document.partial)
        if action == "focus_page":
            # On the page itself Esc belongs to the app (cancel, restore layout, input).
            return not self.page_view.has_focus
        return True

    def action_focus_page(self) -> None:
        if self.has_class("-narrow"):
            self._panel_choice = False
            self._update_layout()
        self.page_view.focus()

    # -- opening pages ------------------------------------------------------
    def open_page(self, target_or_path: str, *, line: int | None = None) -> bool:
        """Open a vault path, or resolve a link target (`Page`, `[[Page#Heading|x]]`) like a link.

        A `PageLocation` carries its line. Returns False (and tells the reader) when nothing
        matches; an unresolved target also posts CreatePageRequested.
        """
        if line is None:
            line = getattr(target_or_path, "line", None)
        target = str(target_or_path).strip()
        if target.startswith("[[") and target.endswith("]]"):
            target = target[2:-2]
        target = target.split("|", 1)[0].strip()
        path, subpath = self._resolve_target(target)
        if path is None:
            name = target.split("#", 1)[0]
            self.notify(f"No page named “{name}” yet.", severity="warning", timeout=4)
            self.post_message(self.CreatePageRequested(self, name, self.current_path))
            return False
        if not self._viewable(path):
            self.notify(f"Attachment: {path}", timeout=4)
            return False
        self._navigate(path, subpath=subpath, line=line)
        return True

    def _viewable(self, path: str) -> bool:
        """Pages, and text files such as raw/ sources (shown read-only like a page)."""
        return self.vault.is_page(path) or path.lower().endswith(TEXT_SUFFIXES)

    def _resolve_target(self, target: str) -> tuple[str | None, str]:
        vault = self.vault
        if target in vault.pages or target in getattr(vault, "attachments", ()):
            return target, ""
        base, _, sub = target.partition("#")
        subpath = "#" + sub if sub else ""
        if base in vault.pages:
            return base, subpath
        if not base:
            return self.current_path, subpath
        path = vault.resolve(base, self.current_path or "")
        if path is None:
            path = vault.resolve_alias(base)
        return path, subpath

    def _navigate(self, path: str, *, subpath: str = "", line: int | None = None,
                  scroll_y: float | None = None, record: bool = True, head: int | None = None) -> None:
        self._remember_scroll()
        if record:
            self.history.visit(path)
        self.current_path = path
        self._update_title(loading=True)
        self._start_load(_LoadRequest(path, subpath, line, scroll_y, head=head))

    def _remember_scroll(self) -> None:
        visit = self.history.current
        if visit is not None and visit.path == self.current_path:
            visit.scroll_y = self.page_view.scroll_y

    @property
    def loading(self) -> bool:
        """A page load is under way (its page is not shown yet)."""
        return self._pending_load is not None

    def _start_load(self, request: _LoadRequest) -> None:
        self._load_seq += 1
        self._pending_load = request
        self._load(self._load_seq, request)

    @work(thread=True, group="page-load", exit_on_error=False)
    def _load(self, seq: int, request: _LoadRequest) -> None:
        line = request.line
        try:
            doc = load_document(self.vault, request.path, head=request.head)
            if request.subpath and line is None:
                line = find_subpath_line(doc, request.subpath)
        except Exception as error:  # unreadable, vanished, outside the vault
            self.app.call_from_thread(self._load_failed, seq, request.path, error)
            return
        self.app.call_from_thread(self._show, seq, request, doc, line)

    def _load_failed(self, seq: int, path: str, error: Exception) -> None:
        if seq != self._load_seq:
            return
        self._pending_load = None
        self._update_title()
        self.notify(f"Cannot open {path}: {error}", severity="error", timeout=6)

    def _show(self, seq: int, request: _LoadRequest, doc: PageDocument, line: int | None) -> None:
        if seq != self._load_seq:
            # A newer load was asked for: another page, or this one again (a reload or a
            # second jump). Showing this older one now would undo it (older text, or the top of
            # the page after the reader scrolled).
            return
        self._pending_load = None
        self.document = doc
        self.page_view.show(self.vault, doc, scroll_y=request.scroll_y, line=line,
                            keep_position=request.keep_position)
        self._update_title()
        self.query_one(OutlinePanel).show(doc.headings)
        self._refresh_backlinks(force=True)
        if not self._finder_warm:
            self._finder_warm = True
            self.set_timer(0.5, partial(warm_finder, self, self.vault))
        self.post_message(self.PageOpened(self, doc.path))

    def _update_title(self, loading: bool = False) -> None:
        title = self.query_one("#page-title", Static)
        if self.current_path is None:
            title.update(Text("No page open — ctrl+o jumps to a page", style="italic"))
            return
        doc = self.document if self.document and self.document.path == self.current_path else None
        name = doc.title if doc else self.current_path.rsplit("/", 1)[-1].removesuffix(".md")
        text = Text.assemble(
            ("◀ " if self.history.can_back else "  ", "bold"),
            ("▶ " if self.history.can_forward else "  ", "bold"),
            (name, "bold"), "  ", (self.current_path, "dim"),
        )
        if loading:
            text.append("  loading…", "italic")
        elif doc is not None and doc.partial:
            text.append(f"  first {len(doc.text) // 1024} KB of {doc.full_length // 1024} KB: "
                        "a reads it all", "italic")
        elif doc is not None and is_lite(doc):
            text.append(f"  {doc.size / 1024 / 1024:.1f} MB: simplified view (markdown source)",
                        "italic")
        title.update(text)

    # -- history --------------------------------------------------------------
    def action_back(self) -> None:
        self._go(self.history.back)

    def action_forward(self) -> None:
        self._go(self.history.forward)

    def _go(self, move) -> None:
        self._remember_scroll()
        visit = move()
        if visit is None:
            self.app.bell()
            return
        self._navigate(visit.path, scroll_y=visit.scroll_y, record=False)

    # -- following links and panel picks ------------------------------------------
    @on(PageView.LinkActivated)
    def _follow(self, event: PageView.LinkActivated) -> None:
        event.stop()
        self.follow(event.ref)

    def follow(self, ref: LinkRef) -> None:
        if ref.kind in ("page", "alias") and ref.path:
            if ref.path == self.current_path and ref.subpath:
                self._scroll_to_subpath(ref.subpath)
            else:
                self._navigate(ref.path, subpath=ref.subpath)
        elif ref.kind == "anchor":
            self._scroll_to_subpath(ref.subpath)
        elif ref.kind == "attachment" and ref.path and self._viewable(ref.path):
            self._navigate(ref.path)
        elif ref.kind == "attachment":
            self.notify(f"Attachment: {ref.path}", timeout=4)
        elif ref.kind == "external":
            self.app.copy_to_clipboard(ref.target)
            self.notify(f"External link copied to the clipboard: {ref.target}", timeout=5)
        else:
            self.notify(f"No page named “{ref.target}” yet.", severity="warning", timeout=4)
            self.post_message(self.CreatePageRequested(self, ref.target, self.current_path))

    def _scroll_to_subpath(self, subpath: str) -> None:
        if self.document is None:
            return
        line = find_subpath_line(self.document, subpath)
        if line is None:
            self.notify(f"{subpath} not found on this page.", severity="warning", timeout=3)
        else:
            self.page_view.scroll_to_line(line)

    @on(PageView.Rendered)
    def _rendered(self, event: PageView.Rendered) -> None:
        self.last_render = event  # wall and CPU seconds of the last render (benchmarks)

    @on(LocationSelected)
    def _open_location(self, event: LocationSelected) -> None:
        event.stop()
        location = event.location
        if location.path == self.current_path and location.line:
            self.page_view.scroll_to_line(location.line)
        else:
            self._navigate(location.path, line=location.line)
        self.page_view.focus()

    @on(OutlinePanel.HeadingSelected)
    def _open_heading(self, event: OutlinePanel.HeadingSelected) -> None:
        event.stop()
        self.page_view.scroll_to_line(event.line)

    # -- backlinks ------------------------------------------------------------
    def _refresh_backlinks(self, *, force: bool = False) -> None:
        """Load backlinks and mentions (a scan of every page) only when the reader can see them;
        hidden, only the linked ones (an index lookup), so the tab's count is never stale."""
        path = self.current_path
        if path is None or not self.is_mounted:
            return
        if force:
            self._backlinks_shown_for = self._backlinks_counted_for = None
        visible = self.panel_visible and self.query_one(TabbedContent).active == "links"
        if visible and self._backlinks_shown_for != path:
            self._backlinks_shown_for = self._backlinks_counted_for = path
            self.query_one(BacklinksPanel).show_loading()
            self._load_backlinks(path)
        elif not visible and self._backlinks_counted_for != path:
            self._backlinks_counted_for = path
            self._load_backlinks(path, mentions=False)

    @on(BacklinksPanel.MentionsRequested)
    def _mentions_requested(self, event: BacklinksPanel.MentionsRequested) -> None:
        event.stop()
        if self.current_path is not None:
            self.query_one(BacklinksPanel).show_loading()
            self._load_backlinks(self.current_path, mentions=True)

    @work(thread=True, group="backlinks", exclusive=True, exit_on_error=False)
    def _load_backlinks(self, path: str, mentions: bool | None = None) -> None:
        """Linked mentions are an index lookup; unlinked ones scan page text, so in a big vault
        they wait until the reader asks (as Obsidian keeps them collapsed)."""
        vault = self.vault
        if mentions is None:
            mentions = len(vault.pages) <= AUTO_MENTIONS_PAGES
        try:
            linked = vault.backlinks(path)
            unlinked = vault.unlinked_mentions(path, limit=MENTIONS_LIMIT) if mentions else None
        except Exception as error:
            self.app.call_from_thread(self.notify, f"Backlinks: {error}", severity="error")
            return
        titles = page_titles(vault, (entry.source for entry in [*linked, *(unlinked or ())]))
        if not get_current_worker().is_cancelled:  # a newer load replaced this one
            self.app.call_from_thread(self._show_backlinks, path, titles, linked, unlinked)

    def _show_backlinks(self, path: str, titles, linked, unlinked) -> None:
        if path == self.current_path:
            self.query_one(BacklinksPanel).show(titles, linked, unlinked)
            self.query_one("#side-panel", TabbedContent).get_tab("links").label = \
                f"Backlinks {len(linked)}"

    # -- editing ----------------------------------------------------------------
    def action_edit(self) -> None:
        """Edit the open page in $EDITOR, then re-index it and show it again."""
        path = self.current_path
        if path is None:
            return
        try:
            run_editor(self.app, Path(self.vault.root) / path)
        except EditorError as error:
            self.notify(str(error), title="Cannot edit", severity="error", timeout=6)
            return
        self.vault.refresh_file(path)
        self.reload()
        self.post_message(self.PageEdited(self, path))

    # -- live updates ----------------------------------------------------------------
    def reload(self) -> None:
        """Show the open page again from disk, keeping the reading position."""
        if self.current_path is None:
            return
        if not (Path(self.vault.root) / self.current_path).is_file():
            self._load_seq += 1  # a load still under way must not show it again
            self._pending_load = None
            self.document = None
            self._update_title()
            self.query_one("#page-title", Static).update(
                Text(f"{self.current_path} was deleted or moved.", style="italic"))
            return
        pending = self._pending_load
        if pending is not None and pending.path == self.current_path:
            # The page is not shown yet: read it again, for the place that load was asked for.
            self._start_load(pending)
        else:
            # Where the reader is is decided when the new text is shown (they may scroll meanwhile).
            doc = self.document
            head = len(doc.text) if doc is not None and doc.partial and doc.path == self.current_path else None
            self._start_load(_LoadRequest(self.current_path, keep_position=True, head=head))

    def action_read_all(self) -> None:
        """Load the rest of a page shown only in part (the start page of a big vault)."""
        doc = self.document
        if doc is not None and doc.partial and doc.path == self.current_path:
            self._start_load(_LoadRequest(self.current_path, keep_position=True))

    def files_changed(self, changes: Iterable) -> None:
        """Vault watcher callback (on the event loop): changes are (change, path) or paths."""
        paths = set()
        for item in changes:
            path = item[1] if isinstance(item, (tuple, list)) else item
            path = str(path)
            root = str(self.vault.root)
            if path.startswith(root):
                path = Path(path).relative_to(root).as_posix()
            paths.add(path)
        trees = self.query(PageTree)
        if not paths or not trees:  # not composed yet: it will show the vault as it is by then
            return
        tree = trees.first()
        pages = self.vault.pages
        if any((p in pages) != (p in tree.paths) for p in paths):
            tree.build(pages)
        if self.current_path in paths:
            self.reload()
        else:
            self._refresh_backlinks(force=True)

    # -- screens -------------------------------------------------------------------
    def open_jump(self) -> None:
        from wiki_tui.ui.browser.screens import PageJumpScreen

        self.app.push_screen(PageJumpScreen(self.vault), callback=self._open_result)

    def open_search(self) -> None:
        from wiki_tui.ui.browser.screens import SearchScreen

        self.app.push_screen(SearchScreen(self.vault), callback=self._open_result)

    def open_tags(self) -> None:
        from wiki_tui.ui.browser.screens import TagsScreen

        self.app.push_screen(TagsScreen(self.vault), callback=self._open_result)

    def _open_result(self, result: str | None) -> None:
        if result:
            self.open_page(result)


def warm_finder(node, vault) -> None:
    """Build the fuzzy finder's index in a thread so the first jump keystroke is instant."""

    def build() -> None:
        try:
            vault.find("a", limit=1)
        except Exception:
            pass  # the jump screen reports real errors

    node.run_worker(build, thread=True, group="finder", exit_on_error=False)


def page_titles(vault, paths: Iterable[str]) -> dict[str, str]:
    """path -> title of each of `paths` that is a page; many at once from one read of the page
    table (no page is loaded), as thousands of backlinks or a tag's pages need."""
    paths = list(dict.fromkeys(paths))
    rows = getattr(vault.pages, "rows", None)
    if rows is None or len(paths) < 200:
        return {p: vault.pages[p].title for p in paths if p in vault.pages}
    wanted = set(paths)
    found = {path: title or path for path, title, *_ in rows() if path in wanted}
    return {p: found[p] for p in paths if p in found}
