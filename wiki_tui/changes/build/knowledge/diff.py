"""The knowledge diff of a changeset: what it does to the wiki, whatever the reply looked like.

Computed after the changeset is built, from each file's base text and proposed text, with the
vault for context (which pages exist, what links into the pages that change). Per page
(`PageDiff`): created, deleted, renamed; frontmatter fields removed, changed or changing shape
(a list becoming text), duplicate keys, keys fallen below the closing `---`, a title that no
longer matches its file; links removed, added, retargeted and newly broken (citations and
embeds named apart), heading and block anchors other pages link to, and those links; external
links, hidden comments and invisible characters added; figures (numbers, dates) changed in
sentences, callouts and table rows removed; text changed inside code and comments; how much of
the page is rewritten and in how many blocks; a new page that twins an existing one. Across
the changeset (`KnowledgeDiff.spread`): the same kind of change over many pages.

Links are read with the vault's own scanner (vault/parse/page.py, links.py) and resolved as Obsidian
does (vault/indexing/resolve.py), once as the vault is and once as it will be. Data only: invariants.py
decides what holds a change, the review and `--json` show it (`to_dict`, `summary`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path
from functools import lru_cache
from typing import Any

from wiki_tui.changes.build.knowledge import text as kt
from wiki_tui.changes.build.knowledge.addressed import addressed_lines, may_address
from wiki_tui.changes.build.knowledge.bounds import bounds_changed
from wiki_tui.changes.build.knowledge.canvas import canvas_findings
from wiki_tui.changes.build.knowledge.quotes import may_quote, quotes_reworded
from wiki_tui.changes.build.knowledge.referents import described_elsewhere, names_described, subject_words
from wiki_tui.changes.build.knowledge.tables import (cells_reordered, columns_relabelled,
                                                      rows_moved_with_columns, tables)
from wiki_tui.changes.model import CREATE, DELETE, RENAME, Changeset, FileChange, proposed_texts
from wiki_tui.changes.reply.twins import TwinIndex
from wiki_tui.vault.layout import LISTING_PAGES, SPECIAL_PAGES
from wiki_tui.vault.parse.page import Page, page_name, parse_page
from wiki_tui.vault.indexing.resolve import link_key
from wiki_tui.vault.proposed import Proposed

SPREAD_PAGES = 3  # the same kind of change on this many pages is "everywhere"
COMMENT_SPREAD_PAGES = 2  # hidden comments planted on this many pages
UNMENTIONED_PAGES = 2  # an ingest changing this many pages its source never names
CITATION_FOLDERS = ("raw", "sources")  # links into these folders cite a source
LIST_FIELDS_FREE = frozenset({"tags", "tag"})  # lists whose items come and go freely
# fields a page's bookkeeping changes as a matter of course (a value's figures there are no claim)
BOOKKEEPING_FIELDS = frozenset({"updated", "modified", "last_updated", "last_modified",
                                "date_modified", "reviewed", "last_reviewed", "revised",
                                "edited", "version", "revision"})
SHOWN = 8  # items of one kind kept per page (the count says how many more)


@dataclass
class PageDiff:
    """What one file's change does to the knowledge in it (empty lists: nothing of that kind)."""

    path: str
    kind: str  # create | modify | delete | rename
    old_path: str | None = None
    disguise: str = ""  # a page whose text is another format ("JSON", "HTML")
    twin_of: list[str] = field(default_factory=list)
    title_twin_of: list[str] = field(default_factory=list)  # "entities/H4.md (titled “H4”)"
    # frontmatter
    frontmatter_lost: bool = False
    fields_removed: list[str] = field(default_factory=list)
    fields_retyped: list[str] = field(default_factory=list)  # "aliases: list → text"
    items_removed: list[str] = field(default_factory=list)  # "aliases: 'the Sea Watch'"
    fields_changed: list[str] = field(default_factory=list)  # "summary: old → new"
    duplicate_keys: list[str] = field(default_factory=list)
    keys_below: list[str] = field(default_factory=list)  # keys now below the closing ---
    title_mismatch: str = ""
    # links
    links_removed: list[str] = field(default_factory=list)  # as written in the base
    links_added: list[str] = field(default_factory=list)
    links_retargeted: list[str] = field(default_factory=list)  # "[[A]] → [[B]]"
    links_redirected: list[str] = field(default_factory=list)  # retargeted, A staying: "[[A]] → [[B|A]]"
    links_broken: list[str] = field(default_factory=list)  # new links reaching nothing
    links_masked: list[str] = field(default_factory=list)  # "[[A|B]] shows B (b.md), reaches a.md"
    citations_removed: list[str] = field(default_factory=list)
    citations_added: int = 0
    # the citations it adds stand apart from the figures and names it changes (other
    # paragraphs): no source for the change
    citations_apart: bool = False
    _cite_lines: list[int] = field(default_factory=list, repr=False)  # where they stand (1-based)
    _cited_page: bool = False  # a source added to the page's `sources:`: the whole page's
    citations_moved: list[str] = field(default_factory=list)  # "“claim” no longer cites [[S]]"
    embeds_removed: list[str] = field(default_factory=list)
    tags_removed: list[str] = field(default_factory=list)  # "#horology/instruments", in the text
    anchors_removed: list[str] = field(default_factory=list)  # "#Trials" other pages link to
    inbound_broken: list[str] = field(default_factory=list)  # "page.md:12 [[X#Trials]]"
    external_added: list[str] = field(default_factory=list)
    comments_added: list[str] = field(default_factory=list)
    model_addressed: list[str] = field(default_factory=list)  # "Ignore all previous instructions"
    invisible_added: list[str] = field(default_factory=list)  # "U+200B ZERO WIDTH SPACE ×3"
    # claims
    figures_removed: list[str] = field(default_factory=list)  # numbers/dates gone from prose
    figures_added: list[str] = field(default_factory=list)
    names_removed: list[str] = field(default_factory=list)  # a name put in another's place
    names_added: list[str] = field(default_factory=list)  # ("Harrison" → "Mudge")
    names_dropped: list[str] = field(default_factory=list)  # "K1": a code the page no longer writes
    figures_moved: list[str] = field(default_factory=list)  # "“H1 | 1735” → “H1 | 1759”"
    bounds_changed: list[str] = field(default_factory=list)  # "“at least 5” → “5”"
    quotes_reworded: list[str] = field(default_factory=list)  # "“a b c” → “a d c”"
    figure_lines: list[str] = field(default_factory=list)  # "17: - Jamaica ... 5.1 seconds"
    polarity_changed: list[str] = field(default_factory=list)  # "made K2 → never made K2"
    prose_dropped: list[str] = field(default_factory=list)  # sentences gone, not reworded
    struck: list[str] = field(default_factory=list)  # ~~claims~~ struck through, nothing beside
    callouts_removed: list[str] = field(default_factory=list)
    rows_removed: list[str] = field(default_factory=list)
    columns_relabelled: list[str] = field(default_factory=list)  # "| A | B | → | B | A |"
    cells_reordered: list[str] = field(default_factory=list)  # "| H1 | 1735 | x | → | H1 | x | 1735 |"
    edges_removed: list[str] = field(default_factory=list)  # a canvas's "A —built→ B"
    code_changed: list[str] = field(default_factory=list)  # lines of code/comments gone
    # how much
    moved_to: list[str] = field(default_factory=list)  # pages its removed lines went to, as is
    rewritten: float = 0.0  # share of the base's non-blank lines that go
    blocks: int = 0  # changed regions (hunks)

    def to_dict(self) -> dict[str, Any]:
        """Only what is there: a path, its kind, and the non-empty findings."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name.startswith("_"):
                continue  # the diff's own working state
            if f.name in ("path", "kind") or value:
                out[f.name] = round(value, 3) if isinstance(value, float) else value
        return out

    def notes(self) -> list[str]:
        """One line per finding, for the review and the CLI."""
        out: list[str] = []

        def add(label: str, items: list[str]) -> None:
            if items:
                out.append(f"{label}: {_listed(items)}")

        if self.disguise:
            out.append(f"the page's text is {self.disguise}, not markdown")
        add("twins the existing page", self.twin_of)
        add("a second page on the subject of", self.title_twin_of)
        if self.frontmatter_lost:
            out.append("the frontmatter is gone")
        add("frontmatter fields removed", self.fields_removed)
        add("fields changing shape", self.fields_retyped)
        add("list items removed", self.items_removed)
        add("duplicate frontmatter keys", self.duplicate_keys)
        add("keys now below the closing ---", self.keys_below)
        if self.title_mismatch:
            out.append(self.title_mismatch)
        add("citations removed", self.citations_removed)
        add("citations moved to back another claim", self.citations_moved)
        add("embeds removed", self.embeds_removed)
        add("links removed", [x for x in self.links_removed
                              if x not in self.citations_removed and x not in self.embeds_removed])
        add("links retargeted", self.links_retargeted)
        add("links showing the same words, now reaching another page while theirs stays",
            self.links_redirected)
        add("tags removed", self.tags_removed)
        add("new broken links", self.links_broken)
        add("links showing one page's name but reaching another", self.links_masked)
        add("headings/blocks other pages link to, removed", self.anchors_removed)
        add("links from other pages that break", self.inbound_broken)
        add("figures changed", [f"{_listed(self.figures_removed)} → "
                                f"{_listed(self.figures_added) or 'gone'}"]
            if self.figures_removed else [])
        add("figures trading places between claims", self.figures_moved)
        add("figures bounded otherwise", self.bounds_changed)
        add("quotations reworded", self.quotes_reworded)
        add("names the page no longer writes", self.names_dropped)
        add("names changed", [f"{_listed(self.names_removed)} → {_listed(self.names_added)}"]
            if self.names_removed else [])
        add("sentences turned around (a negation, an opposite word, facts trading places)",
            self.polarity_changed)
        add("sentences dropped", self.prose_dropped)
        add("struck through", self.struck)
        add("callouts removed", self.callouts_removed)
        add("table rows removed", self.rows_removed)
        add("table columns relabelled over their rows", self.columns_relabelled)
        add("table cells moved to other columns", self.cells_reordered)
        add("canvas edges removed", self.edges_removed)
        add("text changed inside code or comments", self.code_changed)
        add("external links added", self.external_added)
        add("hidden comments added", self.comments_added)
        add("text addressed to a language model", self.model_addressed)
        add("invisible characters added", self.invisible_added)
        add("its removed lines moved, as they were, to", self.moved_to)
        if self.rewritten >= 0.5 and self.kind not in (CREATE, DELETE):
            out.append(f"{round(self.rewritten * 100)} % of the page rewritten "
                       f"({self.blocks} block{'s' if self.blocks != 1 else ''})")
        return out


@dataclass
class KnowledgeDiff:
    """The knowledge diff of one changeset."""

    pages: list[PageDiff] = field(default_factory=list)
    spread: dict[str, list[str]] = field(default_factory=dict)  # kind of change -> pages

    def page(self, path: str) -> PageDiff | None:
        return next((p for p in self.pages if p.path == path), None)

    def to_dict(self) -> dict[str, Any]:
        return {"pages": [p.to_dict() for p in self.pages],
                "counts": self.counts(), "spread": dict(self.spread)}

    def counts(self) -> dict[str, int]:
        kinds = Counter(p.kind for p in self.pages)
        return {"created": kinds[CREATE], "modified": kinds["modify"], "deleted": kinds[DELETE],
                "renamed": kinds[RENAME],
                "links_removed": sum(len(p.links_removed) for p in self.pages),
                "links_added": sum(len(p.links_added) for p in self.pages),
                "links_broken": sum(len(p.links_broken) + len(p.inbound_broken)
                                    for p in self.pages),
                "citations_removed": sum(len(p.citations_removed) for p in self.pages),
                "fields_removed": sum(len(p.fields_removed) for p in self.pages),
                "figures_changed": sum(1 for p in self.pages
                                       if p.figures_removed or p.names_removed)}

    def summary(self) -> str:
        """One line: what the changeset does, in counts (the review's top line)."""
        c = self.counts()
        parts = [f"{c[k]} {k}" for k in ("created", "modified", "renamed", "deleted") if c[k]]
        links = f"links +{c['links_added']} −{c['links_removed']}"
        if c["links_broken"]:
            links += f", {c['links_broken']} broken"
        parts.append(links)
        for key, label in (("citations_removed", "citations removed"),
                           ("fields_removed", "fields removed"),
                           ("figures_changed", "pages with figures changed")):
            if c[key]:
                parts.append(f"{c[key]} {label}")
        return " · ".join(parts)


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:SHOWN])
    return shown + (f" (+{len(items) - SHOWN} more)" if len(items) > SHOWN else "")


# -- the vault before and after ----------------------------------------------------------------
class _Worlds:
    """Link resolution and anchors as the vault is, and as it will be after the changeset."""

    def __init__(self, vault: Any, changes: list[FileChange], proposed: Proposed | None) -> None:
        self.vault = vault
        self.real = hasattr(vault, "resolve") and hasattr(vault, "pages")
        if self.real and proposed is None:
            proposed = Proposed(vault, proposed_texts(changes))
        # as the vault will be: the files, link resolution (remembered), each text parsed once
        self.proposed = proposed
        self.parse = proposed.parse if proposed is not None else lru_cache(maxsize=None)(parse_page)
        self.gone = {fc.old_path if fc.kind == RENAME else fc.path
                     for fc in changes if fc.kind in (DELETE, RENAME)}
        self.made = {fc.path for fc in changes if fc.kind in (CREATE, RENAME)}
        self.moved = {fc.old_path: fc.path for fc in changes if fc.kind == RENAME}
        self.broken_by: dict[str, list[str]] = {}  # page that goes -> changed pages' links to it
        self.anchors_lost: dict[str, set[str]] = {}  # page -> anchors changed pages' links lose
        self.after: dict[str, Page] = {}  # changed pages as they will be
        self.before: dict[str, Page] = {}  # changed pages as they are
        self._anchor_cache: dict[str, tuple[set[str], set[str]] | None] = {}
        self._linking: dict[str, list[tuple[str, int]]] = {}
        self._readings: dict[str, kt.TextReading] = {}
        self.title_owners: dict[str, str] | None = None  # new pages' titles -> existing owners

    def reading(self, text: str) -> kt.TextReading:
        """A page text's prose, read once: from the spans its parse found when there was one."""
        found = self._readings.get(text)
        if found is None:
            read = self.proposed.prose(text) if self.proposed is not None else None
            found = self._readings[text] = kt.TextReading(text, *read) if read is not None \
                else kt.TextReading(text)
        return found

    def links(self, page: Page, path: str) -> list[tuple[Any, str | None, str | None]]:
        """(link, now, after) per link of the page read from `path` but external ones: the file
        it reaches as the vault is and as it will be (vault/proposed.py works each out once for
        the lint and this diff); not a Vault: links compared as written."""
        if self.proposed is not None:
            return self.proposed.links(path, page)
        return [(link, link.target or path, link.target or path) for link in page.links
                if link.kind != "external"]

    def resolve_after(self, target: str, source: str) -> str | None:
        if self.proposed is None:
            return target or source
        return self.proposed.resolve(target, source)

    def namesakes(self, path: str) -> bool:
        """Whether a file other than `path` answers to its file name after the change."""
        name = path.rsplit("/", 1)[-1].lower()
        if any(p.rsplit("/", 1)[-1].lower() == name for p in self.made):
            return True
        return any(p not in self.gone for p in self.vault.candidates(name[:-3] if
                                                                      name.endswith(".md") else name))

    def linking(self, path: str) -> list[tuple[str, int]]:
        """(source, links) for the pages whose links reach `path` now, from the link index."""
        if path not in self._linking:
            found = self.vault.linking_to(path) if hasattr(self.vault, "linking_to") else {}
            self._linking[path] = sorted((s, n) for s, n in found.items() if s != path)
        return self._linking[path]

    def anchors(self, path: str, *, after: bool) -> tuple[set[str], set[str]] | None:
        """(heading keys, block id keys) of a page, None when it is not a page."""
        pages = self.after if after else self.before
        if path in pages:
            return _anchor_keys(pages[path])
        if after and path in self.gone:
            return None
        if path not in self._anchor_cache:
            page = self.vault.page(path) if self.real and path.lower().endswith(".md") else None
            self._anchor_cache[path] = _anchor_keys(page) if page is not None else None
        return self._anchor_cache[path]


def _cites(path: str) -> bool:
    """Whether a link to `path` cites a source (its first folder is one of CITATION_FOLDERS)."""
    return path.partition("/")[0].casefold() in CITATION_FOLDERS


# How an ASCII path that may cite begins, lower-cased (a non-ASCII one is read in full: `ſ`
# folds to an s): most links cite nothing, told by a slice.
_CITE_HEAD = min(map(len, CITATION_FOLDERS))
_CITE_HEADS = frozenset(folder[:_CITE_HEAD] for folder in CITATION_FOLDERS)


def _anchor_keys(page: Page) -> tuple[set[str], set[str]]:
    return ({h.text.strip().casefold() for h in page.headings},
            {b.lower() for b in page.block_ids})


def _anchor_missing(keys: tuple[set[str], set[str]] | None, subpath: str) -> bool:
    """True when `subpath` (`#H1#H2`, `#^id`) names no heading or block of the page; a
    non-page target (an attachment) has no anchors to miss."""
    if keys is None or not subpath:
        return False
    if subpath.startswith("#^"):
        return subpath[2:].lower() not in keys[1]
    return subpath.rsplit("#", 1)[-1].strip().casefold() not in keys[0]


def _subpath_key(subpath: str) -> str:
    return subpath.casefold().strip()


# -- one page ----------------------------------------------------------------------------------
def _disguise(text: str) -> str:
    head = text.lstrip()[:20].lower()
    if head.startswith(("{", "[")) and not head.startswith("[["):
        try:
            json.loads(text)
            return "JSON"
        except ValueError:
            return ""
    if head.startswith(("<!doctype html", "<html")):
        return "HTML"
    if head.startswith("%pdf"):
        return "a PDF"
    return ""


def _shown(link: Any) -> str:
    """The text a link shows in the page: its display text, else (not an embed) its target."""
    if link.display:
        return link.display
    return "" if link.embed else (link.target or "").strip()


def _link_facts(world: _Worlds, page: Page, path: str, *, after: bool):
    """Per link of the page: (identity, link, is citation, broken, the page it reaches now
    when the changeset removes that page).

    A link's identity is the page it reaches as the vault is now (a renamed page counted under
    its new path), so a link respelled (`[[H4]]` for `[[entities/H4]]`), or aimed at a page the
    changeset deletes, is the same link; a link to a page the changeset creates is known by
    that page; one that reaches nothing, by its text. A link cites a source when its linkpath
    or the file it reaches (then) is in a source folder."""
    out = []
    append = out.append
    moved, gone, anchors = world.moved, world.gone, world.anchors  # the loop runs once per link
    heads, head = _CITE_HEADS, _CITE_HEAD
    for link, now, later in world.links(page, path):
        target = later if after else now
        written = link.target
        citation = ((written[:head].lower() in heads or not written.isascii())
                    and _cites(written)) or (
            target is not None and (target[:head].lower() in heads or not target.isascii())
            and _cites(target))
        sub = link.subpath
        if now is None:
            append(((target or "?" + link_key(written), _subpath_key(sub) if sub else "",
                     link.embed), link, citation, target is None or (
                bool(sub) and _anchor_missing(anchors(target, after=after), sub)), None))
        elif sub:
            append(((moved.get(now, now), _subpath_key(sub), link.embed), link, citation,
                     target is None or _anchor_missing(anchors(target, after=after), sub),
                     now if now in gone else None))
        else:  # the common link: to a page, no heading
            append(((moved.get(now, now), "", link.embed), link, citation, target is None,
                    now if now in gone else None))
    return out


def _frontmatter(d: PageDiff, old: Page, new: Page, base: str, proposed: str) -> None:
    before, now = old.frontmatter, new.frontmatter
    # the frontmatter as written left alone (most edits): none lost, no key of it repeated or
    # fallen below it (a second block the body opens with is still looked for)
    written_same = old.body_start == new.body_start and base[:old.body_start] == \
        proposed[:new.body_start]
    if not written_same and kt.split_has_frontmatter(base) \
            and not kt.split_has_frontmatter(proposed):
        d.frontmatter_lost = True
    for key, value in before.items():
        if key not in now:
            d.fields_removed.append(str(key))
            continue
        new_value = now[key]
        if new_value == value:
            continue
        a, b = kt.value_kind(value), kt.value_kind(new_value)
        if a != b and a != "empty" and {a, b} != {"number", "text"}:
            d.fields_retyped.append(f"{key}: {a} → {b}")
        elif isinstance(value, list) and isinstance(new_value, list):
            gone = [x for x in value if x not in new_value]
            if gone and str(key) not in LIST_FIELDS_FREE:
                d.items_removed.extend(f"{key}: {kt.shown(x, 40)}" for x in gone)
            elif not gone:
                d.fields_changed.append(f"{key}: +{len(new_value) - len(value)} item(s)")
        else:
            d.fields_changed.append(f"{key}: {kt.shown(value, 30)} → {kt.shown(new_value, 30)}")
            if (_scalar(value) and _scalar(new_value)  # summary:, born: — claims too
                    and str(key).casefold() not in BOOKKEEPING_FIELDS):
                _value_claims(d, str(key), str(value), str(new_value))
    if old.tags:  # inline tags gone (the frontmatter's are judged as its list's items)
        listed = before.get("tags")
        in_fields = {str(t).lstrip("#").casefold() for t in listed} if isinstance(listed, list) \
            else set()
        kept = {t.casefold() for t in new.tags}
        d.tags_removed = [f"#{t}" for t in old.tags
                          if t.casefold() not in kept and t.casefold() not in in_fields]
    if not written_same:  # else the same keys, in both
        keys_then = Counter(kt.frontmatter_keys(base))
        keys_now = Counter(kt.frontmatter_keys(proposed))
        d.duplicate_keys = sorted(k for k, n in keys_now.items() if n > 1 and keys_then[k] < n)
        d.keys_below = kt.keys_in_body(proposed, {str(k) for k in before} - set(map(str, now)))
    if "---" in proposed[new.body_start:new.body_start + 4000]:
        had = set(kt.second_frontmatter(base))  # a second block of fields, below the first
        d.keys_below += [k for k in kt.second_frontmatter(proposed)
                         if k not in had and k not in d.keys_below]
    old_title, new_title = before.get("title"), now.get("title")
    old_stem, new_stem = page_name(old.path), page_name(new.path)
    if (isinstance(new_title, str) and new_title.strip() and new_title != old_title
            and (not isinstance(old_title, str) or link_key(old_title.strip()) == link_key(old_stem))
            and link_key(new_title.strip()) != link_key(new_stem)):
        d.title_mismatch = f"title {new_title.strip()!r} no longer matches the file name {new_stem!r}"


def _scalar(value: Any) -> bool:
    """A field holding one text, number or date (not a list, a mapping or a yes/no)."""
    return isinstance(value, (str, int, float)) and not isinstance(value, bool) \
        or hasattr(value, "isoformat")


def _value_claims(d: PageDiff, key: str, value: str, new_value: str) -> None:
    """A text field (summary:, description:) that loses figures or is turned around."""
    then, now = kt.figures_in(value), kt.figures_in(new_value)
    lost, found = then - now, now - then
    if lost:
        d.figures_removed.extend(sorted(lost))
        d.figures_added.extend(sorted(found))
        d.figure_lines.append(f"−{key}: {kt.shown(value, 80)}")
        d.figure_lines.append(f"+{key}: {kt.shown(new_value, 80)}")
    d.polarity_changed.extend(f"{key}: “{_short(a)}” → “{_short(b)}”"
                              for a, b in kt.polarity_flips(value, new_value))


def _links_of_new_page(world: _Worlds, d: PageDiff, now: list, path: str) -> None:
    """_links of a page the change creates: what it adds, cites, masks and leaves broken."""
    ids_now = {ident: link for ident, link, _c, _b, _g in now}
    d.links_added = [link.raw for link in ids_now.values()]
    if world.real and any(link.display for _i, link, _c, _b, _g in now):
        _masked(world, d, [], now, path)
    d.citations_added = len({ident for ident, _l, citation, _b, _g in now if citation})
    for _ident, link, _c, broken, going in now:
        if broken:
            if going is not None:  # the page it reaches goes: that deletion's broken link
                world.broken_by.setdefault(going, []).append(f"{path} {link.raw}")
            else:
                d.links_broken.append(link.raw)


def _links(world: _Worlds, d: PageDiff, old: Page | None, new: Page | None,
           old_path: str, path: str, base: str | None, proposed: str | None,
           gone: str, came: str) -> None:
    then = _link_facts(world, old, old_path, after=False) if old is not None else []
    now = _link_facts(world, new, path, after=True) if new is not None else []
    if old is None:  # a new page: each of its links is added (most of a long reply's links)
        _links_of_new_page(world, d, now, path)
        return
    ids_then = {ident: link for ident, link, _c, _b, _g in then}
    ids_now = {ident: link for ident, link, _c, _b, _g in now}
    removed = [(i, ids_then[i]) for i in ids_then if i not in ids_now]
    added = [(i, ids_now[i]) for i in ids_now if i not in ids_then] if ids_then else \
        list(ids_now.items())  # a new page: every link
    # a link keeping the text it shows but reaching another page: retargeted (`[[Old]]` shows
    # "Old", as `[[New|Old]]` does: how a merge carries the old page's links along). The new
    # link may reach a page the page linked already (a merge into a page it cites): any link
    # written anew counts, not only one to a page it did not reach.
    by_display: dict = {}
    if removed:  # nothing removed: nothing retargeted
        raws_then = Counter(link.raw for _i, link, _c, _b, _g in then)
        for j, link, _c, _b, _g in now:
            if raws_then[link.raw] > 0:
                raws_then[link.raw] -= 1
                continue
            shown = _shown(link)  # a link written anew
            if shown:
                by_display.setdefault(shown, []).append((j, link))
    paired: set = set()
    for i, link in removed:
        candidates = by_display.get(_shown(link), [])
        if candidates:
            j, new_link = candidates.pop(0)
            paired.update((i, j))
            d.links_retargeted.append(f"{link.raw} → {new_link.raw}")
            if not i[0].startswith("?") and i[0] not in world.gone and i[0] != j[0]:
                d.links_redirected.append(f"{link.raw} → {new_link.raw}")
    citation_then = {ident for ident, _l, citation, _b, _g in then if citation}
    citation_now = {ident for ident, _l, citation, _b, _g in now if citation}
    for i, link in removed:
        if i in paired and i in citation_then and not i[0].startswith("?"):
            d.citations_removed.append(link.raw)  # its text kept, its sentence's source gone
        if i in paired or i[0].startswith("?"):
            continue  # retargeted, or a link that reached nothing (removing it loses nothing)
        d.links_removed.append(link.raw)
        if i in citation_then:
            d.citations_removed.append(link.raw)
        if link.embed:
            d.embeds_removed.append(link.raw)
    # a citation backs the sentence it stands in: one fewer of the same source is one lost
    if citation_then:
        cited_then = Counter(ident for ident, _l, citation, _b, _g in then if citation)
        cited_now = Counter(ident for ident, _l, citation, _b, _g in now if citation)
        for ident, n in (cited_then - cited_now).items():
            if ident in ids_now and ident in ids_then:
                d.citations_removed.extend([ids_then[ident].raw] * n)
    d.links_added = [link.raw for i, link in added if i not in paired]
    if world.real and any(link.display for _i, link, _c, _b, _g in now):
        _masked(world, d, then, now, path)
    d.citations_added = len(citation_now - citation_then)
    d._cite_lines = sorted({ids_now[i].line for i in citation_now - citation_then})
    broken_then = Counter((link_key(link.target), _subpath_key(link.subpath))
                          for _i, link, _c, broken, _g in then if broken)
    for ident, link, _c, broken, going in now:
        if not broken:
            continue
        if going is not None:  # the page it reaches goes: that deletion's broken link
            world.broken_by.setdefault(going, []).append(f"{path} {link.raw}")
            continue
        target = ident[0]
        if ident in ids_then and target != path and target in world.after and link.subpath:
            # a link the page had, into another changed page that loses the anchor it names
            world.broken_by.setdefault(target, []).append(f"{path} {link.raw}")
            world.anchors_lost.setdefault(target, set()).add(link.subpath)
            continue
        key = (link_key(link.target), _subpath_key(link.subpath))
        if broken_then[key] > 0:
            broken_then[key] -= 1  # broken before this change too
            continue
        d.links_broken.append(link.raw)
    if old is not None and new is not None:
        sources_then = [str(s) for s in old.sources]
        dropped = [s for s in sources_then if s not in set(map(str, new.sources))]
        d.citations_removed.extend(f"sources: {s}" for s in dropped if s not in d.citations_removed
                                   and not any(s == x for x in d.links_removed))
        sources_added = len([s for s in new.sources if s not in old.sources])
        d.citations_added += sources_added
        d._cited_page = sources_added > 0
    if base is not None and proposed is not None and ("[^" in gone or "[^" in came):
        then_notes, now_notes = _footnotes(base), _footnotes(proposed)
        kept = Counter(now_notes.values())  # a note is what it says: relabelled, it stays
        for label, said in sorted(then_notes.items()):
            if kept[said] > 0:
                kept[said] -= 1
            else:
                d.citations_removed.append(f"footnote [^{label}]")
        new_notes = Counter(now_notes.values()) - Counter(then_notes.values())
        d.citations_added += sum(new_notes.values())
        d._cite_lines = sorted({*d._cite_lines, *_note_reference_lines(
            proposed, {label for label, said in now_notes.items() if said in new_notes})})
        noted_then, noted_now = _noted_claims(base, then_notes), _noted_claims(proposed, now_notes)
        claims_now = {claim for claim, _note in noted_now}
        d.citations_moved += [f"“{_short(claim, 60)}” no longer cites the note “{_short(note, 40)}”"
                              for claim, note in sorted(noted_then - noted_now)
                              if claim in claims_now][:SHOWN]
    if new is not None and proposed is not None and "://" in came:
        ext = Counter(link.raw for link in new.external_links) + kt.bare_urls(proposed)
        if old is not None and base is not None:
            ext -= Counter(link.raw for link in old.external_links) + kt.bare_urls(base)
        d.external_added = sorted(ext)


def _title_twins(world: _Worlds, new: Page) -> list[str]:
    """Existing pages of the new page's type (`type:`) that its title names: by their title,
    an alias or their file name (`concepts/Harrison H4 watch.md` titled "H4" beside
    `entities/H4.md`). A page of another type may share a title: a source's summary page is
    named after its subject, and two sources may share a title (each summary page stands for
    its own raw file): source pages are not read."""
    title = (new.title or "").strip()
    if not title or (new.type or "").casefold() == "source" or _cites(new.path):
        return []
    vault = world.vault
    if world.title_owners is None:  # the titles of every page the changeset makes, one query
        world.title_owners = vault.resolve_aliases(
            [p.title.strip() for path, p in world.after.items() if path in world.made and p.title])
    out = []
    for owner in {world.title_owners.get(title), world.resolve_after(title, new.path)}:
        if owner is None or owner == new.path or owner in world.gone or owner in world.made:
            continue
        page = vault.page(owner) if owner.lower().endswith(".md") else None
        if page is not None and (page.type or "").casefold() == (new.type or "").casefold():
            out.append(f"{owner} (titled “{title}” too)")
    return sorted(out)


_FOOTNOTE = re.compile(r"^[ \t]{0,3}\[\^([^\]\s]+)\]:[ \t]*(.*?)[ \t\r]*$", re.M)


def _footnotes(text: str) -> dict[str, str]:
    """A page's footnote definitions: label -> what its first line says (spacing folded)."""
    return {label: " ".join(said.split())
            for label, said in _FOOTNOTE.findall(text[kt.body_start(text):])}


_FOOTNOTE_REF = re.compile(r"\[\^([^\]\s]+)\](?!:)")


def _noted_claims(text: str, notes: dict[str, str]) -> Counter:
    """(the words before a footnote reference on its line, what its note says): which note backs
    which claim, by what they say (a relabelled note backs the same claim)."""
    out: Counter = Counter()
    for line in text[kt.body_start(text):].splitlines():
        if "[^" not in line or _FOOTNOTE.match(line):
            continue
        pos, claim = 0, ""
        for m in _FOOTNOTE_REF.finditer(line):
            claim = " ".join(kt.unlabelled(line[pos:m.start()]).split()) or claim  # "x[^1][^2]"
            pos = m.end()
            out[(claim, notes.get(m.group(1), ""))] += 1
    return out


def _masked(world: _Worlds, d: PageDiff, then: list, now: list, path: str) -> None:
    """Links the change writes whose display text is the name of another page than the one
    they reach: `[[Larcum Kendall|Thomas Mudge]]` reads "Thomas Mudge made K1" while its link
    goes to Kendall. A display sharing words with its own page's name, title or an alias
    (`[[John Harrison|Harrison]]`) is that page's; a heading link's display may name its
    section's subject, and an embed's display is its size: neither is read."""
    written = Counter(link.raw for _i, link, _c, _b, _g in then)
    written.update(x.split(" → ", 1)[-1] for x in d.links_redirected)  # told as redirected
    vault = world.vault
    for _i, link, _c, broken, _g in now:
        shown = (link.display or "").strip()
        if not shown or broken or link.embed or link.subpath or len(shown) > 80:
            continue
        if written[link.raw] > 0:
            written[link.raw] -= 1  # the page had this link as written
            continue
        reached = world.resolve_after(link.target, path)
        other = world.resolve_after(shown, path) or vault.resolve_alias(shown)
        if reached is None or other is None or other == reached or other in world.gone:
            continue  # (a page merged away: its links carry its name to where it went)
        key = link_key(shown)
        page = world.after.get(reached) or vault.page(reached)
        names = [page_name(reached)] + ([page.title, *page.aliases] if page is not None else [])
        if any(key in link_key(str(n)) or link_key(str(n)) in key for n in names if str(n).strip()):
            continue
        d.links_masked.append(f"{link.raw} shows “{shown}” ({other}) but reaches {reached}")


def _inbound(world: _Worlds, d: PageDiff, changed: set[str]) -> None:
    """Links from pages the changeset leaves alone that this change breaks: the page goes (or
    moves), or a heading or block id they name goes."""
    vault, source_path = world.vault, d.old_path or d.path
    if not world.real or not hasattr(vault, "backlinks"):
        return
    anchors_then = world.anchors(source_path, after=False) if d.kind != CREATE else None
    anchors_now = world.anchors(d.path, after=True) if d.kind != DELETE else None
    moves = d.kind in (DELETE, RENAME)
    lost = anchors_then is not None and anchors_now is not None and (
        anchors_then[0] - anchors_now[0] or anchors_then[1] - anchors_now[1])
    if not moves and not lost:
        return
    if moves and not lost and not world.namesakes(source_path):
        # nothing else answers to its name afterwards: every link into it breaks (read from the
        # link index, without unpacking each linking page)
        listings = getattr(vault, "listing_pages", LISTING_PAGES)  # the catalog wherever it lives
        for source, count in world.linking(source_path):
            if source not in changed and source not in listings:
                d.inbound_broken.append(f"{source} ({count} link{'s' if count > 1 else ''})")
        return
    removed: set[str] = set()
    for back in vault.backlinks(source_path, context=False):
        if back.via_alias or back.source in changed or back.source in getattr(vault, "listing_pages", LISTING_PAGES):
            continue
        link = back.link
        target = world.resolve_after(link.target, back.source)
        if target is None:
            d.inbound_broken.append(f"{back.source}:{back.line} {link.raw}")
        elif link.subpath and target == d.path and _anchor_missing(anchors_now, link.subpath):
            if not _anchor_missing(anchors_then, link.subpath):
                removed.add(link.subpath)
                d.inbound_broken.append(f"{back.source}:{back.line} {link.raw}")
    d.anchors_removed = sorted(removed)


def _claims(world: _Worlds, d: PageDiff, base: str, proposed: str, gone: str, came: str) -> None:
    """Figures, callouts, table rows, code and comments. `gone`/`came`: the lines the change
    removes and adds; lines it keeps appear on both sides of every multiset compared here, so
    a page whose removed lines hold no figure (callout, row...) lost none, and is not read."""
    reading = world.reading
    lost: Counter = Counter()
    found: Counter = Counter()
    both = bool(gone.strip() and came.strip())  # lines taken out and put in: read side by side
    gone_body, came_body = (_body_only(gone, base), _body_only(came, proposed)) if both else ("", "")
    if kt.has_figures(gone):
        lost, found = kt.figures_changed(reading(base).claim_text(),
                                         reading(proposed).claim_text())
        if lost:
            d.figures_removed = sorted(lost) + d.figures_removed
            d.figures_added = sorted(found) + d.figures_added
        elif both:  # the same figures: perhaps traded between claims
            d.figures_moved = [f"“{_short(a)}” → “{_short(b)}”" for a, b in kt.figures_moved(
                kt.unlabelled(gone_body), kt.unlabelled(came_body))][:SHOWN]
    if both:
        d.bounds_changed = bounds_changed(kt.unlabelled(gone_body), kt.unlabelled(came_body))
        if may_quote(gone_body):
            d.quotes_reworded = quotes_reworded(base, proposed)[:SHOWN]
    if kt.names_swapped(gone, came):  # one name put in another's place, in the same claim
        names_then, names_now = reading(base).names(), reading(proposed).names()
        gone_names, new_names = names_then - names_now, names_now - names_then
        if gone_names and new_names:
            d.names_removed, d.names_added = sorted(gone_names), sorted(new_names)
            lost, found = lost + gone_names, found + new_names
    elif swaps := kt.openers_swapped(gone, came):  # the same, at a sentence's start
        known = reading(base).names()  # a name the page uses inside its sentences
        swaps = [(a, b) for a, b in swaps if a in known]
        if swaps:
            d.names_removed = sorted({a for a, _b in swaps})
            d.names_added = sorted({b for _a, b in swaps})
            lost, found = lost + Counter(d.names_removed), found + Counter(d.names_added)
    if both and not d.names_removed and (described := names_described(gone_body, came_body)):
        described = _described_away(world, d.path, base, described)
        if described:  # a name put out for a description the page does not give it
            d.names_removed = sorted({a for a, _b in described})
            d.names_added = sorted({b for _a, b in described})
    if (kt.codes(gone) - kt.codes(came)) and not d.names_removed:
        dropped = sorted(set(kt.codes(base)) - set(kt.codes(proposed)))  # written nowhere now
        if dropped:
            d.names_dropped = dropped
            lost = lost + Counter(dropped)
    if lost and (d.figures_removed or d.names_removed or d.names_dropped):  # the lines, then the fields' (kept)
        old, new = reading(base), reading(proposed)
        d.figure_lines = [f"−{n}: {t}" for n, t in old.figure_lines(set(lost))][:SHOWN] + \
                         [f"+{n}: {t}" for n, t in new.figure_lines(set(found))][:SHOWN] + \
                         d.figure_lines
    if gone.strip():
        d.prose_dropped = [f"“{_short(line)}”"
                           for line in kt.dropped_lines(
                               gone, base, reading(proposed).visible_prose())][:SHOWN]
    if both and "[" in gone:
        d.citations_moved = ([f"“{_short(claim, 60)}” no longer cites {cite}" for claim, cite
                              in kt.citations_moved(_body_text(base), _body_text(proposed))]
                             + d.citations_moved)[:SHOWN]  # (after the notes' own, _links)
    if both and not d.prose_dropped:
        d.prose_dropped = [f"“{_short(line)}” loses “{words}”" for line, words in kt.clauses_cut(
            gone_body, came_body, reading(proposed).visible_prose())][:SHOWN]
    if gone.strip() and "~~" in came:
        d.struck = [f"“{_short(t)}”" for t in kt.struck_bare(gone, came)][:SHOWN]
    if both:
        flips = kt.polarity_flips(gone_body, came_body)
        if flips and "|" in gone:  # a row's cells moved with their columns: no claim turned
            moved = rows_moved_with_columns(_body_text(base), _body_text(proposed))
            flips = [(a, b) for a, b in flips if (a.strip(), b.strip()) not in moved]
        d.polarity_changed = ([f"“{_short(a)}” → “{_short(b)}”" for a, b in flips]
                              + d.polarity_changed)[:SHOWN]
    if "[!" in gone:
        kinds = kt.callouts(base) - kt.callouts(proposed)
        if kinds:
            d.callouts_removed = kt.callout_lines(base, set(kinds))
    if "|" in gone:
        rows_then, rows_now = kt.table_rows(base), kt.table_rows(proposed)
        if len(rows_then) > len(rows_now):
            kept = set(rows_now) | {t.header_line for t in tables(base)}  # a header says nothing
            lost = [r for r in rows_then if r not in kept]
            if lost:  # a row whose words and figures the page still says (a table made a list)
                said = reading(proposed).claim_text()
                words, figures = set(_WORDS.findall(said.lower())), kt.figures_in(said)
                lost = [r for r in lost if not _said(r, words, figures)]
            d.rows_removed = lost[: len(rows_then) - len(rows_now)]
        if both:
            d.columns_relabelled = columns_relabelled(_body_text(base), _body_text(proposed))
            d.cells_reordered = cells_reordered(_body_text(base), _body_text(proposed))[:SHOWN]
    if gone.strip() and kt.may_hide(base):
        d.code_changed = sorted((reading(base).hidden() - reading(proposed).hidden()).keys())
    if "%%" in came or "<!--" in came:
        d.comments_added = sorted((reading(proposed).comments() - reading(base).comments()).keys())


def _prose_of(lines: str) -> str:
    """A change's added lines without those inside code fences (`came` holds whole lines)."""
    if "```" not in lines and "~~~" not in lines:
        return lines
    return kt.TextReading(lines, 0).visible_prose()


def _said(row: str, words: set[str], figures: Counter) -> bool:
    """Whether a table row's words and figures all appear in a page's claims (`words`, lower
    case; `figures`, as claim_words reads them)."""
    shown = kt.link_shown(row.replace("|", " "))
    return set(_WORDS.findall(shown.lower())) <= words and not (kt.figures_in(shown) - figures)


def _described_away(world: _Worlds, path: str, base: str,
                    described: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Of (name, description) pairs, those where the name is one the page uses inside its
    sentences, not its own subject, and never given that description on the page."""
    known = world.reading(base).names()
    subject = subject_words(path, base, kt.body_start(base))
    return [(a, b) for a, b in described
            if a.split()[-1] in known and not set(a.split()) & subject
            and not described_elsewhere(base, a, b)]


def _body_only(lines: str, text: str) -> str:
    """`lines` (a change's removed or added lines) without those of `text`'s frontmatter: a
    field is judged by its value (_value_claims), not as a line."""
    head = set(text[: kt.body_start(text)].splitlines(keepends=True))
    return "".join(line for line in lines.splitlines(keepends=True) if line not in head)


def _body_text(text: str) -> str:
    return text[kt.body_start(text):]


def _short(line: str, limit: int = 90) -> str:
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _share_rewritten(base: str, proposed: str) -> float:
    old = Counter(map(str.strip, base.splitlines()))
    new = Counter(map(str.strip, proposed.splitlines()))
    old.pop("", None)
    total = sum(old.values())
    return sum((old - new).values()) / total if total >= 5 else 0.0


def _paragraph_of(text: str) -> list[int]:
    """Per line of `text` (index 0 = line 1): the number of the paragraph it stands in
    (blank lines part paragraphs)."""
    out, number, blank = [], 0, True
    for line in text.splitlines():
        if not line.strip():
            blank = True
        elif blank:
            number, blank = number + 1, False
        out.append(number)
    return out


def _cited_beside(world: _Worlds, d: PageDiff, proposed: str) -> bool:
    """Whether a citation the change adds stands in a paragraph holding one of the figures or
    names it puts in (what "a corrected figure with its new citation" means)."""
    paragraphs = _paragraph_of(proposed)
    wanted = {*d.figures_added, *d.names_added}
    claim_lines = [n for n, _t in world.reading(proposed).figure_lines(wanted)] if wanted else []
    if not claim_lines:
        return True  # the figures are only gone: nothing to place a citation beside
    cited = {paragraphs[n - 1] for n in d._cite_lines if 0 < n <= len(paragraphs)}
    return any(0 < n <= len(paragraphs) and paragraphs[n - 1] in cited for n in claim_lines)


def _note_reference_lines(text: str, labels: set[str]) -> list[int]:
    """Lines (1-based) where `[^label]` is referred to in `text` (not the notes themselves)."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if any(f"[^{label}]" in line and not line.lstrip().startswith(f"[^{label}]:")
               for label in labels):
            out.append(n)
    return out


def _rewrapped(old: list[str], new: list[str]) -> bool:
    """Lines of prose only wrapped anew: the same words in the same order, no line indented
    (code, list content) and no code or table marks (where spacing may matter)."""
    lines = old + new
    if not old or not new or any(line[:1] in " \t" or "`" in line or "|" in line
                                 for line in lines):
        return False
    return "".join(old).split() == "".join(new).split()


def page_diff(world: _Worlds, fc: FileChange, changed: set[str],
              twins: TwinIndex | None = None) -> PageDiff:
    kind = fc.kind
    d = PageDiff(fc.path, kind, fc.old_path)
    base, proposed = fc.base_text, fc.proposed_text
    old_path = fc.old_path or fc.path
    old = world.before.get(old_path)
    new = world.after.get(fc.path)
    if proposed is not None:
        d.disguise = _disguise(proposed)
        if kind == CREATE and twins is not None:
            d.twin_of = twins.of(fc.path)
        if kind == CREATE and not d.twin_of and world.real and new is not None:
            d.title_twin_of = _title_twins(world, new)
    if base is not None and proposed is not None:  # what the change takes out, puts in
        hunks = [h for h in fc.hunks if not _rewrapped(h.old_lines, h.new_lines)]
        gone = "".join(line for h in hunks for line in h.old_lines)
        came = "".join(line for h in hunks for line in h.new_lines)
    else:
        gone, came = base or "", proposed or ""
    if old is not None and new is not None:
        _frontmatter(d, old, new, base or "", proposed or "")
    if kind != DELETE:
        _links(world, d, old, new, old_path, fc.path, base, proposed, gone, came)
    _inbound(world, d, changed)
    if proposed is not None and may_address(came):  # its prose as a reader sees it: no code
        d.model_addressed = addressed_lines(
            world.reading(proposed).visible_prose() if kind == CREATE else _prose_of(came))
    if proposed is not None and not came.isascii():  # (ASCII text has none)
        invisible = kt.invisible(came) - kt.invisible(gone)
        d.invisible_added = [f"{kt.char_name(ch)} ×{n}" for ch, n in invisible.items()]
    if base is not None and proposed is not None:
        _claims(world, d, base, proposed, gone, came)
        if d.citations_added and not d._cited_page and (d.figures_removed or d.names_removed):
            d.citations_apart = not _cited_beside(world, d, proposed)
        d.rewritten = _share_rewritten(base, proposed)
        d.blocks = len(fc.hunks)
    elif proposed is not None and ("%%" in proposed or "<" in proposed):  # a new page: what
        d.comments_added = sorted(world.reading(proposed).comments())  # it plants (a comment)
    return d


# -- the changeset -----------------------------------------------------------------------------
def knowledge_diff(vault: Any, changeset: Changeset, *, twins: TwinIndex | None = None,
                   source_text: str | None = None,
                   proposed: Proposed | None = None) -> KnowledgeDiff:
    """The knowledge diff of `changeset` against `vault` (a wiki_tui.vault.Vault, or anything
    with a `root`: then links are compared as written, without resolution).

    `source_text`: an ingest's raw source, to see which pages it never mentions (read from
    `changeset.source` when not given). `proposed`: the vault after the changeset
    (vault/proposed.py), given by build_changeset so that its lint and this diff parse each
    text and resolve each link once; made here when not given."""
    changes = [fc for fc in changeset.files if fc.path.lower().endswith(".md")]
    world = _Worlds(vault, changeset.files, proposed)  # every file: a page may embed a drawn SVG
    parse = world.parse
    for fc in changes:
        if fc.base_text is not None:
            world.before[fc.old_path or fc.path] = parse(fc.old_path or fc.path, fc.base_text)
        if fc.proposed_text is not None:
            world.after[fc.path] = parse(fc.path, fc.proposed_text)
    changed = {p for fc in changes for p in (fc.path, fc.old_path) if p}
    out = KnowledgeDiff([page_diff(world, fc, changed, twins) for fc in changes])
    if len(changes) > 1:
        _moved_within(out, changes)
    for fc in changeset.files:  # boards: read by their nodes and edges, not their JSON lines
        if fc.path.lower().endswith(".canvas") and not fc.rendered_from:
            d = PageDiff(fc.path, fc.kind, fc.old_path)
            canvas_findings(d, fc.base_text, fc.proposed_text)
            d.blocks = len(fc.hunks)
            _inbound(world, d, changed)
            out.pages.append(d)
    for d in out.pages:
        d.inbound_broken.extend(world.broken_by.get(d.old_path or d.path, []))
        lost = world.anchors_lost.get(d.path, set()) - set(d.anchors_removed)
        d.anchors_removed = sorted({*d.anchors_removed, *lost})
    _spread(out)
    if changeset.operation == "ingest" and (changeset.source or source_text):
        _unmentioned(vault, changeset, out, world, source_text)
    return out


# What a page loses when lines leave it: nothing, when every one of them lands in another page
# of the same changeset as it was (a section moved to a page of its own, a paragraph moved over).
_WORDS = re.compile(r"[^\W\d_]{2,}")
_LINKS = re.compile(r"!?\[\[[^\]\n]*\]\]|!?\[[^\]\n]*\]\([^)\n]*\)|\[\^[^\]\s]+\]")
_LOST_WITH_LINES = ("links_removed", "citations_removed", "embeds_removed", "figures_removed",
                    "figures_added", "figure_lines", "names_dropped", "prose_dropped",
                    "rows_removed", "callouts_removed", "tags_removed")


def _moved_within(diff: KnowledgeDiff, changes: list[FileChange]) -> None:
    """A changed page whose removed lines (headings and blank lines aside) all appear, as they
    were, among the lines another page of the changeset gains: what left it is not lost, it
    moved. Its removals are cleared and `moved_to` names where they went. A line moved only in
    part, or rewritten on the way, is judged where it was."""
    losing = {d.path for d in diff.pages if d.kind not in (CREATE, DELETE)
              and any(getattr(d, name) for name in _LOST_WITH_LINES)}
    if not losing:
        return
    added: dict[str, set[str]] = {}
    removed: dict[str, list[str]] = {}
    for fc in changes:
        if fc.base_text is not None and fc.proposed_text is not None:
            gone = [line for h in fc.hunks for line in h.old_lines]
            came = [line for h in fc.hunks for line in h.new_lines]
        else:
            gone = (fc.base_text or "").splitlines()
            came = (fc.proposed_text or "").splitlines()
        added[fc.path] = {line.strip() for line in came if line.strip()}
        if fc.path in losing and fc.base_text is not None:
            head = set(fc.base_text[: kt.body_start(fc.base_text)].splitlines())
            removed[fc.path] = [x for line in gone if (x := line.strip())
                                and not x.startswith("#") and line.rstrip("\r\n") not in head]
    for d in diff.pages:
        lines = removed.get(d.path)
        if not lines or not any(getattr(d, name) for name in _LOST_WITH_LINES):
            continue
        if any("[" in line and len(_WORDS.findall(_LINKS.sub(" ", line))) < 3 for line in lines):
            continue  # a bare citation or link line moved alone no longer backs what it did
        went = {p for line in lines for p, got in added.items() if p != d.path and line in got}
        if all(any(line in added[p] for p in went) for line in lines):
            for name in _LOST_WITH_LINES:
                setattr(d, name, [])
            d.moved_to = sorted(went)


def _spread(diff: KnowledgeDiff) -> None:
    for label, pages, least in (
        ("external links added", [p.path for p in diff.pages if p.external_added], SPREAD_PAGES),
        ("hidden comments added", [p.path for p in diff.pages if p.comments_added],
         COMMENT_SPREAD_PAGES),
        ("citations removed", [p.path for p in diff.pages if p.citations_removed], SPREAD_PAGES),
        ("links removed", [p.path for p in diff.pages if p.links_removed and p.kind != DELETE],
         SPREAD_PAGES + 2),
    ):
        if len(pages) >= least:
            diff.spread[label] = pages


def _unmentioned(vault: Any, changeset: Changeset, diff: KnowledgeDiff, world: _Worlds,
                 source_text: str | None) -> None:
    """An ingest that changes pages its source never names (not by file name, title or alias):
    a source's instructions obeyed across the wiki, not its content filed."""
    if source_text is None:
        try:
            source_text = (Path(vault.root) / changeset.source).read_text("utf-8", "replace")
        except OSError:
            return
    haystack = " ".join(source_text.casefold().split())
    pages = []
    for d in diff.pages:
        if d.kind in (CREATE,) or d.path in SPECIAL_PAGES:
            continue
        page = world.before.get(d.old_path or d.path)
        if page is None:
            continue
        names = {page.name, page.title, *page.aliases}
        if not any(" ".join(str(n).casefold().split()) in haystack for n in names if str(n).strip()):
            pages.append(d.path)
    if len(pages) >= UNMENTIONED_PAGES:
        diff.spread["pages the source never mentions"] = pages
