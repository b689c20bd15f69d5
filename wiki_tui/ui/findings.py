"""What the last /lint found: the findings list, each with its quoted evidence; dismiss for good.

The presenter turns lint's `Findings` event into a note in the conversation and posts
`FindingsReported`; the app (its operations mixin) remembers the run as a `LintReport` and
opens `FindingsScreen` by itself only when no review is about to open. F4 (`app.findings`)
reopens it later. The screen dismisses with the page to open (a `PageLocation` carrying the
finding's line) or None; `d` records a dismissal in <vault>/.wiki-tui/dismissed.json (through
`agent.dismissed`), so later lint runs leave that finding out; `d` again on a finding dismissed
in this visit takes the dismissal back. Lint's suggestions of what to look into next
(`question`, `source`, `data-gap`) are not errors: they come after every error, marked `?`, and
`o` files those still open as the "Open questions" page, through the review. A contradiction's two
claims stand side by side, each under the page it is from (looked up in the vault:
`agent.quotes`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from wiki_tui.agent.events import Findings, LintItem
from wiki_tui.agent.tasks.open_questions import is_suggestion
from wiki_tui.ui.frame.elide import elide
from wiki_tui.ui.frame.keybar import KeyBar

# What breaks a reader's way through the wiki, or may be false, comes first; then by code.
CODE_RANK = {"broken-link": 0, "contradiction": 1, "superseded": 2, "missing-page": 3}
SUGGESTION_RANK = 100  # lint's suggestions (question, source, data-gap): after every error
CODE_WIDTH = 15  # the code column of a row (longer codes are cut)
LOCATION_SHARE = 0.35 # at most this much of a row for `path:line`
SOURCE_LINE_MAX = 300  # characters of a page line shown as context
SIDE_BY_SIDE_MIN = 60  # columns from which two quotes stand side by side (else one above)
LOOKING = "…"  # a quote's page while it is being looked up


@dataclass
class LintReport:
    """One lint run as the app remembers it: the findings (sorted) and what was dismissed."""

    items: tuple[LintItem, ...]
    dismissed_earlier: int = 0  # left out of this run because they were dismissed before
    dismissed_now: set[str] = field(default_factory=set)  # ids dismissed since the run

    @classmethod
    def from_findings(cls, findings: Findings) -> "LintReport":
        return cls(tuple(sorted(findings.items, key=sort_key)), findings.dismissed)

    def summary(self, *, codes: bool = True) -> str:
        suggestions = sum(1 for item in self.items if is_suggestion(item))
        errors = tuple(item for item in self.items if not is_suggestion(item))
        parts = [count_text(len(errors)) + (codes_text(errors) if codes else "")]
        if suggestions:
            parts.append(f"{suggestions} suggestion{'' if suggestions == 1 else 's'} to look "
                         "into")
        if self.dismissed_earlier:
            parts.append(f"{self.dismissed_earlier} dismissed earlier")
        if self.dismissed_now:
            parts.append(f"{len(self.dismissed_now)} dismissed now")
        return " · ".join(parts)


def sort_key(item: LintItem) -> tuple:
    rank = SUGGESTION_RANK if is_suggestion(item) else CODE_RANK.get(item.code, len(CODE_RANK))
    return (rank, item.code, item.path.casefold(), item.line, item.message)


def count_text(n: int) -> str:
    return f"{n} finding{'' if n == 1 else 's'}"


def codes_text(items: tuple[LintItem, ...]) -> str:
    """How many of each code, in list order: ' (1 broken-link, 3 ambiguous-link)'."""
    counts = Counter(item.code for item in sorted(items, key=sort_key))
    return f" ({', '.join(f'{n} {code}' for code, n in counts.items())})" if counts else ""


def note_text(findings: Findings, key: str | None) -> str:
    """The line the conversation shows when a lint run reports its findings."""
    report = LintReport.from_findings(findings)
    if not report.items:
        text = "lint: no findings"
        if report.dismissed_earlier:
            text += f" · {report.dismissed_earlier} dismissed earlier"
        return text
    text = "lint: " + report.summary()
    return text + (f" · {key} lists them" if key else "")


# -- evidence ---------------------------------------------------------------------------------
_QUOTE = re.compile(r'"([^"]*)"')
_CURLY = str.maketrans({"“": '"', "”": '"', "„": '"'})
GAP_MAX = 60  # text between two quotes longer than this is prose, not a separator


def split_evidence(evidence: str) -> list[tuple[str, str]]:
    """The evidence as ("quote" | "gap", text) parts: a contradiction quoting two sentences,
    `"A" vs "B"`, gives quote, gap, quote. Lint strips the outer quotes of the whole field
    (`A" vs "B` arrives), so they are put back before looking. Anything that does not read as
    a few quoted sentences stays one quote."""
    text = evidence.strip().translate(_CURLY)
    if not text:
        return []
    if '"' in text:
        candidate = text if text.startswith('"') else '"' + text
        if candidate.count('"') % 2:
            candidate += '"'
        parts: list[tuple[str, str]] = []
        end = 0
        for match in _QUOTE.finditer(candidate):
            gap = candidate[end:match.start()].strip()
            if gap:
                parts.append(("gap", gap))
            parts.append(("quote", match.group(1).strip()))
            end = match.end()
        tail = candidate[end:].strip()
        if tail:
            parts.append(("gap", tail))
        quotes = [t for kind, t in parts if kind == "quote"]
        gaps = [t for kind, t in parts if kind == "gap"]
        if (len(quotes) >= 2 and all(len(q.split()) >= 3 for q in quotes)
                and all(len(g) <= GAP_MAX for g in gaps)):
            return parts
    return [("quote", text.strip('"').strip())]


# -- one row of the list ----------------------------------------------------------------------
def location(item: LintItem) -> str:
    return f"{item.path}:{item.line}" if item.line else item.path


class FindingRow:
    """`code  path:line  message` on one line at any width, in columns: the location is
    elided in the middle (`elide`: the name's end and line number stay), the message cut at
    its end."""

    def __init__(self, item: LintItem, dismissed: bool = False, where_width: int = 0) -> None:
        self.item = item
        self.dismissed = dismissed
        self.where_width = where_width  # the longest location in the list: messages align

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        item, width = self.item, options.max_width
        room = min(max(self.where_width, 1), max(12, int(width * LOCATION_SHARE)))
        where = elide(location(item), room)
        code = ("? " if is_suggestion(item) else "") + item.code
        code = code if len(code) <= CODE_WIDTH else code[:CODE_WIDTH - 1] + "…"
        row = Text(no_wrap=True, overflow="ellipsis")
        row.append(f"{code:<{CODE_WIDTH}} ", "italic" if is_suggestion(item) else "bold")
        row.append(where)
        row.append(" " * (room - len(where) + 2))
        row.append("dismissed · " if self.dismissed else "", "italic")
        row.append(item.message.replace("\n", " "))
        if self.dismissed:
            row.stylize("dim strike", CODE_WIDTH + 1)
        row.truncate(width, overflow="ellipsis")
        yield row


class SideBySide:
    """Two (or more) quoted claims side by side, each under its page's name: the page title and
    path, "…" while it is looked up, or a warning when no page holds the quote. One above the
    other when the width is too small for columns."""

    def __init__(self, quotes: list[str], gaps: list[str], pages: list[tuple[str, str] | None | str],
                 styles: dict[str, str] | None = None) -> None:
        self.quotes, self.gaps, self.pages = quotes, gaps, pages
        self.styles = styles or {}

    def _head(self, i: int) -> Text:
        page = self.pages[i] if i < len(self.pages) else LOOKING
        if page == LOOKING:
            return Text("looking up its page…", style="italic dim")
        if page is None:
            return Text("on no page: check this quote", style=self.styles.get("missing", "bold"))
        title, path = page
        head = Text(title, style="bold")
        if title != path:
            head.append(f"\n{path}", style="dim")
        return head

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        quotes = [Text(f"“{quote}”") for quote in self.quotes]
        if options.max_width >= SIDE_BY_SIDE_MIN:
            table = Table.grid(expand=True, padding=(0, 1))
            cells: list[Text] = []
            heads: list[Text] = []
            for i, quote in enumerate(quotes):
                if i:
                    table.add_column(no_wrap=True, width=len(self._gap(i)))
                    heads.append(Text(""))
                    cells.append(Text(self._gap(i), style="italic dim"))
                table.add_column(ratio=1)
                heads.append(self._head(i))
                cells.append(quote)
            table.add_row(*heads)
            table.add_row(*cells)
            yield table
            return
        parts: list[Text] = []
        for i, quote in enumerate(quotes):
            if i:
                parts.append(Text(self._gap(i), style="italic dim"))
            parts += [self._head(i), quote]
        yield Group(*parts)

    def _gap(self, i: int) -> str:
        return self.gaps[i - 1] if i - 1 < len(self.gaps) and self.gaps[i - 1] else "vs"


# -- the screen -------------------------------------------------------------------------------
class FindingsScreen(Screen[str | None]):
    """Dismisses with the page to open (a PageLocation with the finding's line), or None."""

    CSS_PATH = Path(__file__).with_name("findings.tcss")

    BINDINGS = [
        Binding("escape,q", "close", "Close", id="findings.close"),
        Binding("j,down", "move(1)", "Down", id="findings.down", show=False),
        Binding("k,up", "move(-1)", "Up", id="findings.up", show=False),
        Binding("g,home", "edge(0)", "First", id="findings.first", show=False),
        Binding("G,end", "edge(-1)", "Last", id="findings.last", show=False),
        Binding("enter", "open", "Open page", id="findings.open", priority=True),
        Binding("d", "dismiss_finding", "Dismiss / take back", id="findings.dismiss"),
        Binding("o", "file_questions", "File open questions", id="findings.file_questions"),
    ]

    def __init__(self, report: LintReport, vault_root: Path | str, vault: Any = None) -> None:
        super().__init__()
        self.report = report
        self.vault_root = Path(vault_root)
        self.vault = vault  # for the page line a structural finding points at
        self._lines: dict[str, list[str]] = {}
        self._quote_pages: dict[str, list] = {}  # finding id -> each quote's (title, path)
        self._busy: set[str] = set()  # ids being written to dismissed.json

    def compose(self) -> ComposeResult:
        yield Static(id="findings-title")
        yield OptionList(*self._options(), id="findings-list")
        yield VerticalScroll(id="findings-detail")
        yield KeyBar()

    @property
    def findings_list(self) -> OptionList:
        return self.query_one("#findings-list", OptionList)

    def on_mount(self) -> None:
        self._update_title()
        listing = self.findings_list
        listing.focus()
        if listing.option_count:
            listing.highlighted = 0
        self._show_detail()

    def _options(self) -> list[Option]:
        gone = self.report.dismissed_now
        return [Option(FindingRow(item, item.id in gone, self._where_width), id=str(i))
                for i, item in enumerate(self.report.items)]

    @property
    def _where_width(self) -> int:
        return max((len(location(item)) for item in self.report.items), default=0)

    def _update_title(self) -> None:
        title = Text(" Lint findings ", "reverse bold")
        title.append("  " + self.report.summary(codes=False))
        self.query_one("#findings-title", Static).update(title)

    @property
    def focused_item(self) -> LintItem | None:
        index = self.findings_list.highlighted
        if index is None or not 0 <= index < len(self.report.items):
            return None
        return self.report.items[index]

    # -- the focused finding ---------------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#findings-list")
    def _show_detail(self) -> None:
        detail = self.query_one("#findings-detail", VerticalScroll)
        detail.remove_children()
        item = self.focused_item
        if item is None:
            detail.mount(Static("Nothing to show: lint found nothing (dismissed findings are "
                                "left out).", classes="finding-message"))
            return
        detail.mount_all(self._detail_widgets(item))
        detail.scroll_home(animate=False)

    def _detail_widgets(self, item: LintItem) -> list[Static]:
        head = Text()
        head.append(item.code, "bold")
        head.append("  ")
        head.append(location(item))
        if is_suggestion(item):
            head.append("  · a suggestion of what to look into, not an error (o files the "
                        "open ones as a page)", "italic")
        elif item.source == "model":
            head.append("  · model-checked: often wrong, check the quotes", "italic")
        widgets = [Static(head, classes="finding-head"),
                   Static(Text(item.message), classes="finding-message")]
        parts = split_evidence(item.evidence)
        quotes = [text for kind, text in parts if kind == "quote"]
        if len(quotes) > 1:  # a contradiction: the claims side by side, each page named
            widgets.append(Static(f"Evidence: {len(quotes)} quotes, side by side",
                                  classes="finding-label"))
            widgets.append(Static(self._side_by_side(item, parts), classes="finding-sides"))
        elif parts:
            widgets.append(Static("Evidence", classes="finding-label"))
            for kind, text in parts:
                if kind == "quote":
                    widgets.append(Static(Text(f"“{text}”"), classes="finding-quote"))
                else:
                    widgets.append(Static(Text(text), classes="finding-gap"))
        elif item.line:
            line = self._page_line(item.path, item.line)
            if line:
                widgets.append(Static(f"On the page, line {item.line}",
                                      classes="finding-label"))
                widgets.append(Static(Text(line), classes="finding-quote -page"))
        if item.suggestion:
            widgets.append(Static(Text.assemble(("Suggestion  ", "bold"), item.suggestion),
                                  classes="finding-suggestion"))
        if item.id in self.report.dismissed_now:
            widgets.append(Static("Dismissed: later lint runs leave it out.",
                                  classes="finding-dismissed"))
        return widgets

    def _side_by_side(self, item: LintItem, parts: list[tuple[str, str]]) -> SideBySide:
        quotes = [text for kind, text in parts if kind == "quote"]
        gaps, after_quote = [], False
        for kind, text in parts:  # the words between two quotes ("vs", "but", ...)
            if kind == "quote":
                if after_quote:
                    gaps.append("")
                after_quote = True
            elif after_quote:
                gaps.append(text)
                after_quote = False
        pages = self._quote_pages.get(item.id)
        if pages is None:
            self._quote_pages[item.id] = [LOOKING] * len(quotes)
            self._look_up_pages(item, quotes)
            pages = self._quote_pages[item.id]
        missing = self.app.theme_variables.get("text-warning", "yellow")
        return SideBySide(quotes, gaps, pages, {"missing": f"bold {missing}"})

    @work(thread=True, group="findings-quotes", exit_on_error=False)
    def _look_up_pages(self, item: LintItem, quotes: list[str]) -> None:
        """Which page holds each quote (a phrase search, then the pages read): off the loop."""
        from wiki_tui.agent.context.quotes import contradiction_pages

        vault = self.vault
        found: list[tuple[str, str] | None] = []
        try:
            paths = contradiction_pages(vault, item.path, quotes) if vault is not None else []
        except Exception:  # an index or a page that cannot be read: the quotes still show
            paths = []
        for i in range(len(quotes)):
            path = paths[i] if i < len(paths) else None
            page = vault.pages.get(path) if path and vault is not None else None
            found.append((page.title if page is not None else path, path) if path else None)
        self.app.call_from_thread(self._pages_found, item, found)

    def _pages_found(self, item: LintItem, pages: list) -> None:
        self._quote_pages[item.id] = pages
        if self.is_attached and self.focused_item is item:
            for sides in self.query(".finding-sides"):
                parts = split_evidence(item.evidence)
                sides.update(self._side_by_side(item, parts))

    def _page_line(self, path: str, line: int) -> str:
        """Line `line` (1-based) of the page, for context; "" when it cannot be read."""
        if path not in self._lines:
            try:
                text = self.vault.read_text(path) if self.vault is not None else ""
            except Exception:  # vanished, unreadable: the finding still shows
                text = ""
            self._lines[path] = text.splitlines()
        lines = self._lines[path]
        if not 1 <= line <= len(lines):
            return ""
        shown = lines[line - 1].strip()
        if shown in ("---", "..."):  # a frontmatter finding: its fence says nothing
            return ""
        return shown if len(shown) <= SOURCE_LINE_MAX else shown[:SOURCE_LINE_MAX - 1] + "…"

    # -- keys ------------------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        listing = self.findings_list
        (listing.action_cursor_down if step > 0 else listing.action_cursor_up)()

    def action_edge(self, where: int) -> None:
        listing = self.findings_list
        (listing.action_first if where == 0 else listing.action_last)()

    def action_open(self) -> None:
        item = self.focused_item
        if item is None:
            return
        from wiki_tui.ui.browser import PageLocation

        self.dismiss(PageLocation(item.path, item.line or None))

    @on(OptionList.OptionSelected, "#findings-list")
    def _selected(self) -> None:
        self.action_open()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_file_questions(self) -> None:
        """o: the suggestions not dismissed, filed as the "Open questions" page (a review)."""
        items = [i for i in self.report.items
                 if is_suggestion(i) and i.id not in self.report.dismissed_now]
        if not items:
            self.app.notify("No open suggestions (question, source, data-gap) to file.",
                            timeout=4)
            return
        if self.vault is None or "open-questions" in self._busy:
            return
        self._busy.add("open-questions")
        self._file_questions(items)

    @work(thread=True, group="findings-questions", exit_on_error=False)
    def _file_questions(self, items: list[LintItem]) -> None:
        from wiki_tui.agent.tasks.open_questions import open_questions_changeset

        try:
            changeset = open_questions_changeset(self.vault, items)
        except Exception as exc:  # an unreadable page: say so, change nothing
            self.app.call_from_thread(self._questions_failed, exc)
            return
        self.app.call_from_thread(self._questions_ready, changeset)

    def _questions_failed(self, exc: Exception) -> None:
        self._busy.discard("open-questions")
        self.app.notify(f"Open questions not filed: {exc}", severity="error", timeout=6)

    def _questions_ready(self, changeset: Any) -> None:
        self._busy.discard("open-questions")
        if changeset is None:
            self.app.notify("The open questions page already lists them all.", timeout=4)
            return
        self.dismiss(None)
        self.app.call_after_refresh(self.app.open_review, changeset)

    def action_dismiss_finding(self) -> None:
        """d dismisses the finding for good; d on one dismissed in this visit takes it back."""
        item = self.focused_item
        if item is None or item.id in self._busy:
            return
        self._busy.add(item.id)
        self._record(item, dismissed=item.id not in self.report.dismissed_now)

    @work(thread=True, group="findings-dismiss", exit_on_error=False)
    def _record(self, item: LintItem, dismissed: bool) -> None:
        """A small atomic write (with fsync): off the event loop."""
        from wiki_tui.agent.tasks.dismissed import dismiss, undismiss

        try:
            if dismissed:
                dismiss(self.vault_root, item)
            else:
                undismiss(self.vault_root, item.id)
        except Exception as exc:  # a full disk or a read-only vault: say so, change nothing
            self.app.call_from_thread(self._record_failed, item, dismissed, exc)
            return
        self.app.call_from_thread(self._recorded, item, dismissed)

    def _record_failed(self, item: LintItem, dismissed: bool, exc: Exception) -> None:
        self._busy.discard(item.id)
        self.app.notify(f"{'Not dismissed' if dismissed else 'Not taken back'}: {exc}",
                        severity="error", timeout=6)

    def _recorded(self, item: LintItem, dismissed: bool) -> None:
        self._busy.discard(item.id)
        # The app's report: F4 shows the same state next time too.
        if dismissed:
            self.report.dismissed_now.add(item.id)
            self.app.notify(f"Dismissed {item.code} in {item.path}: later lint runs leave it "
                            "out (d again takes it back).", timeout=4)
        else:
            self.report.dismissed_now.discard(item.id)
            self.app.notify(f"Taken back: later lint runs report {item.code} in {item.path} "
                            "again.", timeout=4)
        if not self.is_attached:  # closed while the file was written
            return
        index = self.report.items.index(item)
        listing = self.findings_list
        # The id leaves out the line: the same problem twice on a page goes with it.
        for i, other in enumerate(self.report.items):
            if other.id == item.id:
                listing.replace_option_prompt_at_index(i, FindingRow(other, dismissed,
                                                                     self._where_width))
        self._update_title()
        # On to the next finding still open: triage of a noisy list is d, d, j, d ...
        following = [i for i, other in enumerate(self.report.items)
                     if i > index and other.id not in self.report.dismissed_now]
        if dismissed and listing.highlighted == index and following:
            listing.highlighted = following[0]
        elif listing.highlighted == index:
            self._show_detail()


# -- the app's side ---------------------------------------------------------------------------
class FindingsReported(Message):
    """A lint run reported its findings; `show` asks for the screen now (no review follows)."""

    def __init__(self, findings: Findings, show: bool) -> None:
        super().__init__()
        self.findings = findings
        self.show = show


def findings_key(app: Any) -> str | None:
    """How the `app.findings` binding reads now (keymap applied), or None without it."""
    from wiki_tui.ui.frame.help import binding_rows

    for binding_id, keys, _description, _where in binding_rows(app):
        if binding_id == "app.findings":
            return keys.split(", ")[0]
    return None
