"""Side panels of the browser: backlinks (linked, then unlinked mentions), outline, page tree.

Each panel only displays what it is given and posts a message when the reader picks an entry;
the WikiBrowser decides what opening means.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import partial
from typing import Iterable

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList, Tree
from textual.widgets.option_list import Option
from textual.widgets.tree import TreeNode

from wiki_tui.ui.browser.rows import Row, RowList
from wiki_tui.ui.frame.markup import readable

_LIST_BINDINGS = [
    Binding("j", "cursor_down", "Down", show=False, id="browser.list_down"),
    Binding("k", "cursor_up", "Up", show=False, id="browser.list_up"),
    Binding("g", "first", "First", show=False, id="browser.list_first"),
    Binding("G", "last", "Last", show=False, id="browser.list_last"),
]


@dataclass(frozen=True)
class Location:
    path: str
    line: int | None = None


class LocationSelected(Message):
    """The reader picked a place to open (a backlink, a mention, a tree leaf)."""

    def __init__(self, location: Location) -> None:
        super().__init__()
        self.location = location


class BacklinksPanel(RowList):
    """Linked mentions with their line of context, then unlinked mentions. A RowList: a page
    with thousands of backlinks shows at once, each entry's text made when it comes into view."""

    BINDINGS = _LIST_BINDINGS

    class MentionsRequested(Message):
        """The reader asked for the unlinked mentions (not searched automatically)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._locations: dict[str, Location] = {}

    def show_loading(self) -> None:
        self._locations = {}
        self.set_options([Row(Text("Finding backlinks…", style="italic"), disabled=True)])

    def show(self, titles: dict[str, str], linked: Iterable, unlinked: Iterable | None) -> None:
        """`linked`: Backlink(source, line, context, link); `unlinked`: Mention(source, line,
        context, text), or None when not searched yet (an entry offers to search)."""
        linked = list(linked)
        highlighted = self.highlighted
        locations: dict[str, Location] = {}
        rows: list[Row] = []
        sections = [("Linked mentions", linked)]
        if unlinked is not None:
            sections.append(("Unlinked mentions", list(unlinked)))
        for heading, entries in sections:
            rows.append(Row(Text(f"{heading} ({len(entries)})", style="bold"), disabled=True))
            if not entries:
                rows.append(Row(Text("  none", style="italic"), disabled=True))
            for n, entry in enumerate(entries):
                row_id = f"{heading[0]}{n}"
                locations[row_id] = Location(entry.source, entry.line)
                rows.append(Row(partial(_entry_text, titles, entry), row_id, height=2))
        if unlinked is None:
            rows.append(Row(Text("Unlinked mentions: enter to search", style="bold"),
                            "find-mentions"))
        self._locations = locations
        self.set_options(rows)
        if highlighted is not None and highlighted < self.option_count:
            self.highlighted = highlighted

    def on_row_list_option_selected(self, event: RowList.OptionSelected) -> None:
        event.stop()
        if event.option.id == "find-mentions":
            self.post_message(self.MentionsRequested())
            return
        location = self._locations.get(event.option.id or "")
        if location is not None:
            self.post_message(LocationSelected(location))


class OutlinePanel(OptionList):
    """Headings of the open page; selecting one scrolls the page to it."""

    BINDINGS = _LIST_BINDINGS

    class HeadingSelected(Message):
        def __init__(self, line: int) -> None:
            super().__init__()
            self.line = line

    def show(self, headings: Iterable) -> None:
        self.clear_options()
        options = [
            Option(Text("  " * (max(h.level, 1) - 1) + h.text), id=f"h{h.line}")
            for h in headings
        ]
        if not options:
            options = [Option(Text("No headings", style="italic"), disabled=True)]
        self.add_options(options)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id:
            self.post_message(self.HeadingSelected(int(event.option.id[1:])))


class SortedPaths:
    """Page paths in one sorted list (refs to the vault's own strings: 8 bytes a page; a set
    and a nested dict of folders held ~7 MB at 50k pages). A folder's pages are one run of it."""

    __slots__ = ("_paths",)

    def __init__(self, paths: Iterable[str] = ()) -> None:
        self._paths = sorted(paths)

    def __contains__(self, path: object) -> bool:
        paths = self._paths
        i = bisect_left(paths, path) if isinstance(path, str) else len(paths)
        return i < len(paths) and paths[i] == path

    def __len__(self) -> int:
        return len(self._paths)

    def __iter__(self):
        return iter(self._paths)

    def children(self, folder: str) -> tuple[list[str], list[tuple[str, str]]]:
        """Immediate subfolders ("name/") and pages ((name, path)) of `folder` ("" or
        "a/b/"), each sorted case-insensitively. A subfolder's run is skipped by bisecting, so
        listing the root of 50k pages in a handful of folders costs a handful of steps."""
        paths = self._paths
        i, end = bisect_left(paths, folder), _run_end(paths, folder)
        start = len(folder)
        folders, files = [], []
        while i < end:
            path = paths[i]
            slash = path.find("/", start)
            if slash < 0:
                files.append((path[start:], path))
                i += 1
            else:
                sub = path[: slash + 1]
                folders.append(sub[start:])
                i = _run_end(paths, sub, i)
        folders.sort(key=str.casefold)
        files.sort(key=lambda item: item[0].casefold())
        return folders, files


def _run_end(paths: list[str], prefix: str, lo: int = 0) -> int:
    """End of the run of `paths` (sorted) starting with `prefix`."""
    if not prefix:
        return len(paths)
    return bisect_left(paths, prefix[:-1] + chr(ord(prefix[-1]) + 1), lo)


class PageTree(Tree[str]):
    """Folders and pages from the vault index (not the disk), expanded lazily: a folder's
    nodes are made when it is first expanded, so a 50k-page vault shows its top folders with a
    few dozen nodes."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="browser.tree_down"),
        Binding("k", "cursor_up", "Up", show=False, id="browser.tree_up"),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__("vault", **kwargs)
        self.show_root = False
        self.guide_depth = 2
        self._paths = SortedPaths()

    @property
    def paths(self) -> SortedPaths:
        return self._paths

    def build(self, paths: Iterable[str]) -> None:
        """(Re)build from page paths, keeping expanded folders expanded."""
        expanded = self._expanded_folders()
        self._paths = SortedPaths(paths)
        self.clear()
        self._fill(self.root, "")
        self.root.expand()
        for folder in sorted(expanded):
            node = self._find_folder(folder)
            if node is not None:
                node.expand()

    def _fill(self, node: TreeNode[str], prefix: str) -> None:
        folders, files = self._paths.children(prefix)
        for name in folders:
            child = node.add(name, data=prefix + name)
            child.allow_expand = True
        for name, path in files:
            label = name[:-3] if name.lower().endswith(".md") else name
            node.add_leaf(label, data=path)
        node.allow_expand = bool(folders or files) or node is self.root

    def _expanded_folders(self) -> set[str]:
        found: set[str] = set()
        stack = list(self.root.children)
        while stack:
            node = stack.pop()
            if node.data and node.data.endswith("/") and node.is_expanded:
                found.add(node.data)
                stack.extend(node.children)
        return found

    def _find_folder(self, folder: str) -> TreeNode[str] | None:
        node = self.root
        prefix = ""
        for part in folder.rstrip("/").split("/"):
            prefix += part + "/"
            self._ensure_children(node)
            node = next((c for c in node.children if c.data == prefix), None)
            if node is None:
                return None
        self._ensure_children(node)
        return node

    def _ensure_children(self, node: TreeNode[str]) -> None:
        if node is self.root or node.children or not (node.data or "").endswith("/"):
            return
        self._fill(node, node.data)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[str]) -> None:
        event.stop()
        self._ensure_children(event.node)

    def on_tree_node_selected(self, event: Tree.NodeSelected[str]) -> None:
        event.stop()
        data = event.node.data
        if data and not data.endswith("/"):
            self.post_message(LocationSelected(Location(data)))


def _entry_text(titles: dict[str, str], entry) -> Text:
    """A backlink's or mention's two lines: the page's title and line, then its context."""
    title = titles.get(entry.source) or entry.source
    # plain, not dim: dim fades below 4.5:1 on the cursor row
    return Text.assemble((title, "bold"), f"  :{entry.line}", "\n  ", _context_text(entry))


def _context_text(entry) -> Text:
    """A backlink's or mention's line as text, the link (or the mentioned words) in bold."""
    needle = entry.link.raw if hasattr(entry, "link") else entry.text
    at = entry.context.find(needle) if needle else -1
    shown, spans = readable(entry.context, ((at, at + len(needle)),) if at >= 0 else (), limit=200)
    text = Text(shown, "italic")
    for start, end in spans:
        text.stylize("bold not italic", start, end)
    return text
