"""Invariants on the knowledge diff: what a changeset may not do to the wiki unseen.

Each `Breach` names a file, a code and what the change does. A breach holds its file from
`--yes` (exit 3, like every held file) unless the reply declared the intent (see intent.py) or
the person passed `--allow CODE`; the review shows every breach, declared or not. The codes:

  delete   deleting (or renaming away) a page other pages link to; more than MAX_DELETES pages
           deleted, or moved, in one operation (not declarable: only --allow delete)
  fields   a WRITE or EDIT that removes frontmatter fields or list items, changes a field's
           shape (list → text), duplicates a key, leaves keys below the closing `---`, or gives
           the page a title that no longer matches its file
  links    links, citations, embeds or tags the page had, removed; new broken links; a link
           showing the same words but reaching another page while its own page stays; a link
           whose display text is another page's name (`[[Kendall|Mudge]]`); a heading
           or block id other pages link to, removed (their links listed)
  claims   numbers or dates changed in sentences, or what they count ("seconds" → "minutes",
           "million" → "billion"), or what bounds them ("at least 5" → "5", "before 1765" →
           "after 1765"), or a sentence turned around (a negation added or removed:
           "made" → "never made"; a word for its opposite: "slow" → "fast"; two of its figures
           or names trading places) (unless the page gains a citation with them), text struck
           through with nothing said in its place, text hidden in an invisible element,
           sentences dropped (their words gone from the page), a table's column headings
           reordered over rows that keep theirs, callouts, table rows or canvas edges removed
           (a canvas is judged by its nodes and edges: canvas.py)
  rewrite  most of a page replaced (an EDIT as well as a WRITE), or a page turned into JSON/HTML
  code     text changed inside code fences or comments
  twin     a new page whose name twins an existing one, or whose title names an existing
           page of its type (by its title, an alias or its file name)
  hidden   invisible or direction-changing characters added (not declarable)
  addressed  text addressed to a language model added to a page ("Ignore all previous
           instructions", "Assistant: ..."), outside quotes and code
  spread   the same kind of change over many pages: external links or hidden comments added
           everywhere, citations removed across pages, an ingest changing pages its source
           never mentions (not declarable)

Ordinary additions raise none of these: a new page, a new section, a new link or citation, a
corrected figure with its new source, a rename whose backlinks the reply updates.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from wiki_tui.changes.build.knowledge.diff import KnowledgeDiff, PageDiff, _listed
from wiki_tui.changes.model import DELETE, RENAME, Changeset
from wiki_tui.vault.layout import SPECIAL_PAGES

MAX_DELETES = 3  # more pages than this deleted in one operation: the person decides
REWRITE_SHARE = 0.5  # as guards.REWRITE_SHARE: this share of a page's lines gone
CODES = {
    "delete": "deleting a page others link to, or deleting or moving more than 3 pages at once",
    "fields": "frontmatter fields removed, reshaped, duplicated or pushed out",
    "links": "links or citations removed, new broken links, anchors others use removed",
    "claims": "figures, dates or names changed, sentences turned around or dropped, callouts or "
              "table rows removed",
    "rewrite": "most of a page replaced",
    "code": "text changed inside code or comments",
    "twin": "a new page twinning an existing one",
    "hidden": "invisible or direction-changing characters added",
    "spread": "the same change over many pages",
    "addressed": "text addressed to a language model added to a page",
}
NOT_DECLARABLE = frozenset({"hidden", "spread"})


@dataclass(frozen=True)
class Breach:
    code: str  # a key of CODES
    path: str
    message: str  # what the change does, for the person and the model
    declared: str = ""  # the reply's reason, when it declared this change as intended
    declarable: bool = True  # False: only the person's --allow releases it

    @property
    def holds(self) -> bool:
        return not self.declared

    def __str__(self) -> str:
        note = f" (declared: {self.declared})" if self.declared else ""
        return f"[{self.code}] {self.message}{note}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Breach":
        return cls(str(data.get("code", "")), str(data.get("path", "")),
                   str(data.get("message", "")), str(data.get("declared", "")),
                   bool(data.get("declarable", True)))


def page_breaches(d: PageDiff) -> list[tuple[str, str]]:
    """(code, message) for one page's diff."""
    out: list[tuple[str, str]] = []
    fields = []
    if d.frontmatter_lost:
        fields.append("drops the whole frontmatter")
    if d.fields_removed:
        fields.append(f"removes frontmatter fields {_listed(d.fields_removed)}")
    if d.fields_retyped:
        fields.append(f"changes the shape of {_listed(d.fields_retyped)}")
    if d.items_removed:
        fields.append(f"removes list items {_listed(d.items_removed)}")
    if d.duplicate_keys:
        fields.append(f"repeats the keys {_listed(d.duplicate_keys)} (YAML keeps only the last)")
    if d.keys_below:
        fields.append(f"leaves {_listed(d.keys_below)} below the closing ---")
    if d.title_mismatch:
        fields.append(d.title_mismatch)
    if fields:
        out.append(("fields", "; ".join(fields)))
    links = []
    plain = [x for x in d.links_removed if x not in d.citations_removed and x not in d.embeds_removed]
    if d.citations_removed:
        links.append(f"removes citations {_listed(d.citations_removed)}")
    if d.embeds_removed:
        links.append(f"removes embeds {_listed(d.embeds_removed)}")
    if plain:
        links.append(f"removes links {_listed(plain)}")
    if d.links_redirected:
        links.append(f"points links at another page under the same words, while the page they "
                     f"reached stays: {_listed(d.links_redirected)}")
    if d.tags_removed:
        links.append(f"removes tags {_listed(d.tags_removed)}")
    if d.links_masked:
        links.append(f"writes links that show one page's name but reach another: "
                     f"{_listed(d.links_masked)}")
    if d.links_broken:
        links.append(f"adds broken links {_listed(d.links_broken)}")
    if d.kind not in (DELETE, RENAME) and d.inbound_broken:
        what = f" ({_listed(d.anchors_removed)})" if d.anchors_removed else ""
        links.append(f"removes headings or block ids other pages link to{what}: breaks "
                     f"{_listed(d.inbound_broken)}")
    if links:
        out.append(("links", "; ".join(links)))
    claims = []
    cited = d.citations_added and not d.citations_apart  # a new source beside the change
    apart = " (the one it adds stands in another paragraph)" if d.citations_apart else ""
    if d.figures_removed and not cited:
        claims.append(f"changes figures {_listed(d.figures_removed)} → "
                      f"{_listed(d.figures_added) or 'gone'} without a new citation{apart}")
    if d.names_dropped:
        claims.append(f"drops names the page no longer writes anywhere: {_listed(d.names_dropped)}")
    if d.figures_moved and not d.citations_added:
        claims.append(f"moves figures between claims without a new citation: "
                      f"{_listed(d.figures_moved)}")
    if d.bounds_changed and not d.citations_added:
        claims.append(f"changes what bounds figures without a new citation: "
                      f"{_listed(d.bounds_changed)}")
    if d.quotes_reworded and not d.citations_added:
        claims.append(f"changes the words of quotations without a new citation: "
                      f"{_listed(d.quotes_reworded)}")
    if d.citations_moved:
        claims.append(f"moves citations to claims they did not back: {_listed(d.citations_moved)}")
    if d.names_removed and not cited:
        claims.append(f"puts {_listed(d.names_added)} in place of {_listed(d.names_removed)} "
                      f"without a new citation{apart}")
    if d.polarity_changed and not d.citations_added:
        claims.append(f"turns sentences around without a new citation: "
                      f"{_listed(d.polarity_changed)}")
    if d.prose_dropped:
        claims.append(f"drops sentences: {_listed(d.prose_dropped)}")
    if d.struck:
        claims.append(f"strikes through without a word in its place: {_listed(d.struck)}")
    if d.callouts_removed:
        claims.append(f"removes callouts {_listed(d.callouts_removed)}")
    if d.cells_reordered:
        claims.append(f"moves table cells to other columns: {_listed(d.cells_reordered)}")
    if d.columns_relabelled:
        claims.append(f"relabels table columns over rows that keep their cells: "
                      f"{_listed(d.columns_relabelled)}")
    if d.rows_removed:
        claims.append(f"removes table rows {_listed(d.rows_removed)}")
    if d.edges_removed:
        claims.append(f"removes canvas edges {_listed(d.edges_removed)}")
    if claims:
        out.append(("claims", "; ".join(claims)))
    if d.disguise:
        out.append(("rewrite", f"turns the page into {d.disguise}"))
    elif d.rewritten >= REWRITE_SHARE and d.kind not in (DELETE,):
        out.append(("rewrite", f"replaces {round(d.rewritten * 100)} % of the page "
                               f"({d.blocks} block{'s' if d.blocks != 1 else ''})"))
    if d.code_changed:
        out.append(("code", f"changes text inside code or comments: {_listed(d.code_changed)}"))
    if d.twin_of:
        out.append(("twin", f"creates a page beside {_listed(d.twin_of)}, the same name "
                            "written differently"))
    if d.title_twin_of:
        out.append(("twin", f"creates a second page of the same type on the subject of "
                            f"{_listed(d.title_twin_of)}: add to that page, or rename one"))
    if d.model_addressed:
        out.append(("addressed", f"adds text that speaks to a language model, not to a reader "
                                 f"(a raw source's instructions obeyed?): {_listed(d.model_addressed)}"))
    if d.invisible_added:
        out.append(("hidden", f"adds invisible characters: {_listed(d.invisible_added)}"))
    if d.kind in (DELETE, RENAME) and d.inbound_broken:
        verb = "deletes" if d.kind == DELETE else "moves"
        out.append(("delete", f"{verb} a page {len(d.inbound_broken)} link(s) point to; they "
                              f"break: {_listed(d.inbound_broken)}"))
    return out


def assess(changeset: Changeset, knowledge: KnowledgeDiff, *,
           intents: dict[str, str] | None = None, rewrites: set[str] = frozenset()) -> None:
    """Put each file's breaches on it (`FileChange.breaches`); the reply's declared intents
    (path -> reason) release the declarable ones, a `(rewrite)` marker the rewrite."""
    intents = intents or {}
    by_path = {fc.path: fc for fc in changeset.files}
    found: dict[str, list[tuple[str, str, bool]]] = {}
    for d in knowledge.pages:
        fc = by_path.get(d.path)
        if fc is None or d.path in SPECIAL_PAGES:
            continue  # AGENTS.md is held as the schema; index.md and log.md are generated
        for code, message in page_breaches(d):
            if code == "rewrite" and fc.hold:
                continue  # a WRITE's rewrite is held already (build._flag_rewrite)
            found.setdefault(d.path, []).append((code, message, code not in NOT_DECLARABLE))
    deletes = [d.path for d in knowledge.pages if d.kind == DELETE]
    if len(deletes) > MAX_DELETES:
        for path in deletes:
            found.setdefault(path, []).append(
                ("delete", f"one of {len(deletes)} pages deleted in one operation (more than "
                           f"{MAX_DELETES} need the person's --allow delete)", False))
    moves = [d.path for d in knowledge.pages if d.kind == RENAME]
    if len(moves) > MAX_DELETES:  # a page moved away is gone from where its readers look
        for path in moves:
            found.setdefault(path, []).append(
                ("delete", f"one of {len(moves)} pages moved in one operation (more than "
                           f"{MAX_DELETES} need the person's --allow delete)", False))
    for label, pages in knowledge.spread.items():
        for path in pages:
            found.setdefault(path, []).append(
                ("spread", f"{label} on {len(pages)} pages ({_listed(pages)})", False))
    for path, items in found.items():
        fc = by_path[path]
        reason = declared_reason(intents, fc.path, fc.old_path)
        marked = reason or ("marked (rewrite)" if path in rewrites else "")
        fc.breaches = [Breach(code, path, message, declarable=declarable,
                              declared=(marked if code == "rewrite" else reason)
                              if declarable else "")
                       for code, message, declarable in items]


def declared_reason(intents: dict[str, str], path: str, old_path: str | None) -> str:
    for p in (path, old_path):
        if p and p in intents:
            return intents[p]
    return ""


def holding(fc: Any, allow: frozenset[str] | set[str] = frozenset()) -> list[Breach]:
    """The file's breaches that hold it from `--yes`: not declared, not allowed by a flag."""
    return [b for b in getattr(fc, "breaches", ()) if b.holds and b.code not in allow]


def parse_allow(text: str | None) -> frozenset[str]:
    """`--allow delete,links` -> {"delete", "links"}; ValueError naming an unknown code."""
    if not text:
        return frozenset()
    codes = {c.strip().lower() for c in text.split(",") if c.strip()}
    unknown = sorted(codes - set(CODES))
    if unknown:
        raise ValueError(f"--allow: unknown code(s) {', '.join(unknown)}; the codes are "
                         f"{', '.join(CODES)}")
    return frozenset(codes)
