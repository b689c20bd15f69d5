"""Structural lint: what can be checked without a model.

Codes (each Finding names a file and a 1-based line):
  broken-link       a link no file answers to (suggests a close page name when there is one)
  broken-anchor     a `[[Page#Heading]]` or `[[Page#^id]]` whose heading or block a change
                    removes (changesets only: see lint_changes)
  alias-link        a link that only matches a page's alias: Obsidian shows it unresolved
  ambiguous-link    a bare name several files share; Obsidian silently picks one
  orphan            a page no other page links to. Links from the catalog (index.md, or where
                    AGENTS.md's `catalog:` puts it), log.md and AGENTS.md do not count: the
                    catalog lists every page by construction and log.md records history, so
                    neither says that a page is woven into the wiki.
  missing-field     a required frontmatter field (AGENTS.md `required_fields`) is absent/empty
  unknown-type      a `type` AGENTS.md does not define (info)
  wrong-folder      a page whose type AGENTS.md files under another folder (info)
                    (these three only where AGENTS.md declares fields and types: an Obsidian
                    vault without one gets no schema findings)
  index-missing     a page the catalog does not list
  index-stale       a catalog entry whose page does not exist
                    (both only with AGENTS.md: without it index.md is an ordinary page)
  index-hand-written  the catalog's file is not the generated catalog (a person's own page,
                    say): one finding, not one per page; apply leaves it alone and names the
                    `catalog:` setting that moves the catalog elsewhere (info)
  duplicate-name    two pages compete for one link target: same file name, and Obsidian's
                    rules do not pick one for a bare [[Name]] (see _duplicates)
  page-warning      a file the scanner had to warn about (bad UTF-8, binary, broken YAML)
log.md's links are not checked (no broken-link, alias-link or ambiguous-link there): it is
append-only history, and its entries name pages as they were, removed ones included.
  schema-warning    AGENTS.md frontmatter problems
`lint_changes` checks proposed file texts against the vault and reports only what the change
introduces: new broken links (also in untouched pages whose target it deletes or renames),
links whose `#Heading` or `#^block-id` the change removes (broken-anchor: every link into the
pages it changes, and every link of those pages, is checked),
pages it orphans, missing required fields, and a `type` that does not fit the page's folder
(unknown-type, wrong-folder).
"""

from __future__ import annotations

import re
import time
import functools
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

from rapidfuzz import fuzz, process

from wiki_tui.vault.indexing.cache import L, L_KIND, L_LINE, L_RAW, L_SUBPATH, L_TARGET, record_cold, record_links
from wiki_tui.vault.indexing.index import name_key
from wiki_tui.vault.layout import is_home_page, is_page_path, listing_pages, special_pages
from wiki_tui.vault.proposed import Proposed

if TYPE_CHECKING:
    from wiki_tui.vault.view import VaultView

LOG_FILE = "log.md"
L_DISPLAY = L["display"]
SUGGEST_MIN = 70  # similarity (0-100) a suggested target needs
# Names a Suggester compares in its search of every name, summed over one run (lint or a
# change's lint): ~2 s. One search costs ~50 ns a name, 7 ms at 50,000 pages (150k names);
# a vault with 3,000 dangling link names spent 22 s of a 43 s lint there.
TYPO_WORK = 40_000_000


@dataclass(frozen=True)
class Finding:
    code: str
    path: str
    line: int
    message: str
    suggestion: str | None = None
    severity: str = "warning"  # "error" | "warning" | "info"

    def __str__(self) -> str:
        text = f"{self.path}:{self.line}: {self.severity}: {self.message} [{self.code}]"
        return f"{text} (suggestion: {self.suggestion})" if self.suggestion else text

    def to_dict(self) -> dict:
        return {
            "code": self.code, "path": self.path, "line": self.line, "message": self.message,
            "suggestion": self.suggestion, "severity": self.severity,
        }


# The catalog (AGENTS.md's `catalog:`, default index.md), log.md and AGENTS.md: their links do not
# rescue an orphan, the catalog does not list them. The catalog is regenerated and log.md is
# history: a deletion does not "break" their links. With the catalog elsewhere, index.md is a page.
@functools.lru_cache(maxsize=8)
def _special_for(catalog: str) -> frozenset[str]:
    return frozenset(special_pages(catalog))


@functools.lru_cache(maxsize=8)
def _listings_for(catalog: str) -> frozenset[str]:
    return frozenset(listing_pages(catalog))


def _catalog(vault: "VaultView") -> str:
    return getattr(getattr(vault, "schema", None), "catalog", None) or "index.md"


def _special(vault: "VaultView") -> frozenset[str]:
    return _special_for(_catalog(vault))


def _listings(vault: "VaultView") -> frozenset[str]:
    return _listings_for(_catalog(vault))


LINT_STEP = 250  # pages linted while the vault's lock is held (the app's queries wait one step)


def lint_vault(vault: "VaultView") -> list[Finding]:
    """Every finding of the vault. The vault's lock is taken a step of pages at a time, not for
    the whole run (11 s at 50,000 pages): a jump or a page opened meanwhile waits for one step,
    and what the watcher indexes between steps is linted as it is then."""
    records = vault.pages.records()  # (the store's own lock)
    with vault._lock:
        duplicate_names = _duplicate_file_names(vault)
    clashing = functools.lru_cache(maxsize=None)(lambda linkpath: name_key(linkpath) in duplicate_names)
    suggest = Suggester(vault)
    if vault._index.has_unresolved():
        suggest.prepare()  # every page name, read now rather than inside a step (0.5 s at 50k)
    ordered = sorted(records)
    out: list[Finding] = []
    for start in range(0, len(ordered), LINT_STEP):
        step = ordered[start : start + LINT_STEP]
        with vault._lock:
            targets = vault._index.targets_by_source(step)  # read together: one query a step
            for source in step:
                if source in vault.pages:  # (not removed since the records were read)
                    out.extend(_page_findings(vault, source, records[source], targets.get(source, {}),
                                              suggest, clashing if duplicate_names else None))
        time.sleep(0.001)  # a thread waiting for the lock gets it now (a release hands nothing over)
    for part in (_orphans, _index_findings, _duplicates):
        with vault._lock:
            out.extend(part(vault))
        time.sleep(0.001)
    with vault._lock:
        for warning in vault.schema.warnings:
            out.append(Finding("schema-warning", "AGENTS.md", 1, warning))
    return sorted(out, key=lambda f: (f.path, f.line, f.code, f.message))


def _page_findings(vault: "VaultView", source: str, record, targets: dict[str, str | None],
                   suggest: "Suggester", clashing) -> Iterator[Finding]:
    """One page's own findings: its links (`targets`: where each linkpath resolves), its
    fields and its warnings. `clashing(linkpath)`: the name is several files' (None: none is)."""
    if source == LOG_FILE:  # history: its links name pages as they were, removed ones too
        rows = ()
    else:
        links = record_links(record)
        rows = zip(links, vault._index.targets_of(source, links, targets))
    for row, target in rows:
        if row[L_KIND] == "external" or not row[L_TARGET]:
            continue
        if target is None:
            if source == _catalog(vault) and vault.schema.found:
                continue  # reported as index-stale
            yield _unresolved(vault, source, row, suggest)
        elif clashing is not None and clashing(row[L_TARGET]) and "/" not in row[L_TARGET].strip("/"):
            found = vault._resolver.candidates(row[L_TARGET], source)
            if len(found) > 1:
                yield Finding(
                    "ambiguous-link", source, row[L_LINE],
                    f"{row[L_RAW]} could mean {', '.join(found)}; Obsidian opens {target}",
                    _path_link(target, row), "info",
                )
    cold = record_cold(record)
    yield from _field_findings(vault, source, cold.frontmatter)
    for warning in cold.warnings:
        yield Finding("page-warning", source, _warning_line(warning), warning)


# -- links ------------------------------------------------------------------------------------

def _unresolved(vault: "VaultView", source: str, row: tuple, suggest: "Suggester") -> Finding:
    linkpath = row[L_TARGET]
    via_alias = vault.resolve_alias(linkpath)
    if via_alias:
        return Finding(
            "alias-link", source, row[L_LINE],
            f"{row[L_RAW]} matches an alias of {via_alias} but Obsidian shows it unresolved",
            _path_link(via_alias, row, display=linkpath), "info",
        )
    suggestion = suggest(linkpath)
    return Finding(
        "broken-link", source, row[L_LINE], f"{row[L_RAW]}: no page or file named {linkpath!r}",
        suggestion, "error",
    )


class Suggester:
    """Close page names for dangling links: the fuzzy finder first (abbreviations, prefixes),
    then edit similarity over every title, file name and alias (typos: "Betta" -> "Beta").
    The search of every name runs while the run's TYPO_WORK lasts (every time up to ~10,000
    pages; at 50,000, for the first ~260 names the finder found nothing close for); after
    that a dangling link gets the finder's suggestion or none, so lint stays seconds long."""

    def __init__(self, vault: "VaultView") -> None:
        self.vault = vault
        self._keys: list[str] | None = None
        self._paths: list[str] = []
        self._memo: dict[str, str | None] = {}
        self._work = TYPO_WORK

    def __call__(self, linkpath: str, exists: Callable[[str], bool] | None = None) -> str | None:
        """A wikilink to the closest page, or None; `exists` can veto a candidate path."""
        name = linkpath.rsplit("/", 1)[-1]
        if name.lower().endswith(".md"):
            name = name[:-3]
        key = name.casefold()
        if key not in self._memo:
            self._memo[key] = self._best_path(key)
        best = self._memo[key]
        if best is None or (exists is not None and not exists(best)):
            return None
        stem = best[:-3] if best.endswith(".md") else best
        name = stem.rsplit("/", 1)[-1]
        return f"[[{name if self.vault.resolve(name) == best else stem}]]"

    def _best_path(self, key: str) -> str | None:
        best, best_score = None, SUGGEST_MIN
        for hit in self.vault.find(key, limit=10):
            score = max(fuzz.ratio(key, hit.matched.casefold()), fuzz.ratio(key, hit.title.casefold()))
            if score > best_score:
                best, best_score = hit.path, score
        if best is None:
            self.prepare()
            if self._work < len(self._keys):
                return None  # the run's search budget is spent
            self._work -= len(self._keys)
            found = process.extractOne(key, self._keys, scorer=fuzz.ratio, score_cutoff=SUGGEST_MIN)
            if found is not None:
                best = self._paths[found[2]]
        return best

    def prepare(self) -> None:
        """Every title, file name and alias, for the search of every name (once)."""
        if self._keys is None:
            self._build()

    def _build(self) -> None:
        self._keys = []
        for path, title, aliases in self.vault._store.titles():
            for text in {title, path.rsplit("/", 1)[-1][:-3], *aliases}:
                self._keys.append(text.casefold())
                self._paths.append(path)


def suggest_target(vault: "VaultView", linkpath: str) -> str | None:
    """A close existing page for a dangling link, as a wikilink, or None."""
    return Suggester(vault)(linkpath)


def _path_link(target: str, row: tuple, display: str | None = None) -> str:
    """The link rewritten to name `target` by its path, keeping heading and display text."""
    stem = target[:-3] if target.endswith(".md") else target
    subpath = row[L_SUBPATH] if row else ""
    display = display or (row[L_DISPLAY] if row else None)
    return f"[[{stem}{subpath}|{display}]]" if display else f"[[{stem}{subpath}]]"


def _duplicate_file_names(vault: "VaultView") -> set[str]:
    counts = Counter(name_key(p) for p in (*vault.pages, *vault.attachments))
    return {k for k, n in counts.items() if n > 1}


# -- pages ------------------------------------------------------------------------------------

def _field_findings(vault: "VaultView", path: str, frontmatter: dict) -> list[Finding]:
    if path in _special(vault):
        return []
    out = []
    missing = [f for f in vault.schema.required_fields if _empty(frontmatter.get(f))]
    if missing:
        plural = "s" if len(missing) > 1 else ""
        out.append(Finding(
            "missing-field", path, 1,
            f"frontmatter lacks required field{plural} {', '.join(missing)} (see AGENTS.md)",
        ))
    finding = _type_finding(vault, path, frontmatter.get("type"), lambda: _frontmatter_line(vault, path, "type"))
    return out + ([finding] if finding else [])


def _type_finding(vault: "VaultView", path: str, page_type, line: Callable[[], int]) -> Finding | None:
    """unknown-type or wrong-folder for a page's `type` (AGENTS.md `types`), else None."""
    types = vault.schema.types
    if not (vault.schema.types_declared and isinstance(page_type, str) and page_type.strip() and types):
        return None
    folder = types.get(page_type.strip())
    if folder is None:
        return Finding(
            "unknown-type", path, line(),
            f"type {page_type!r} is not one of AGENTS.md's types ({', '.join(types)})", severity="info",
        )
    if folder and not path.startswith(folder.rstrip("/") + "/"):
        return Finding(
            "wrong-folder", path, line(), f"type {page_type!r} pages belong in {folder}/ (AGENTS.md)",
            severity="info",
        )
    return None


def _text_line(text: str, key: str) -> int:
    """The 1-based line of `key:` in a text's frontmatter (1 when it is not there)."""
    for i, line in enumerate(text.split("\n", 200)[1:200], start=2):
        if line.startswith(key + ":"):
            return i
        if line.strip() == "---":
            break
    return 1


def _empty(value) -> bool:
    return value is None or (isinstance(value, (str, list, dict)) and not (value.strip() if isinstance(value, str) else value))


def _orphans(vault: "VaultView") -> list[Finding]:
    special = _special(vault)
    linked = vault._index.linked_targets(special) | _alias_linked(vault)
    out = []
    for path in sorted(vault.pages):
        if path not in special and path not in linked:
            out.append(Finding("orphan", path, 1, f"no other page links here ({_catalog(vault)} and log.md do not count)"))
    return out


def _alias_linked(vault: "VaultView") -> set[str]:
    """Pages reached only through an alias link (those are reported as alias-link instead)."""
    out = set()
    for key, sources in vault._index.unresolved_by_key().items():
        if any(s not in _special(vault) for s in sources):
            found = vault.resolve_alias(key)
            if found:
                out.add(found)
    return out


def _index_findings(vault: "VaultView") -> list[Finding]:
    catalog = _catalog(vault)
    record = vault.pages.record(catalog)
    if record is None or not vault.schema.found:
        return []  # without AGENTS.md, an index.md is the person's own page, not the catalog
    if _hand_written_index(vault):
        return [Finding("index-hand-written", catalog, 1,
                        f"{catalog} is not the catalog wiki-tui generates (your own page?); "
                        "applying leaves it as it is and updates no catalog. Set `catalog: "
                        "wiki-index.md` in AGENTS.md's frontmatter to keep the catalog elsewhere",
                        severity="info")]
    listed = set()
    out = []
    links = record_links(record)
    for row, target in zip(links, vault._index.targets_of(_catalog(vault), links)):
        if row[L_KIND] == "external" or not row[L_TARGET]:
            continue
        if target is None:
            out.append(Finding("index-stale", _catalog(vault), row[L_LINE], f"{row[L_RAW]} lists a page that does not exist"))
        else:
            listed.add(target)
    special = _special(vault)
    for path in sorted(vault.pages):
        if path not in listed and path not in special:
            out.append(Finding("index-missing", path, 1, f"not listed in {catalog}", severity="info"))
    return out


def _hand_written_index(vault: "VaultView") -> bool:
    """The catalog's file is a person's page rather than the catalog (layout.is_home_page: no
    generated line, and text the generator never writes), which apply leaves alone."""
    try:
        text = (vault.root / _catalog(vault)).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False  # gone since the scan: nothing to say
    return is_home_page(text)


def _duplicates(vault: "VaultView") -> list[Finding]:
    """Pages that compete for one link target: a bare `[[Name]]` Obsidian's rules do not settle.

    A page at the vault root answers a bare link from everywhere (rule 1), else the shortest
    path does (rule 3); only a tie there (equal lengths, or names that differ only in case)
    leaves the choice to a tie-break Obsidian does not document. Shared titles and aliases are
    not reported: they are no link targets in Obsidian.
    """
    by_name: dict[str, list[str]] = {}
    for path in vault.pages:
        by_name.setdefault(name_key(path), []).append(path)
    out = []
    for paths in by_name.values():
        tied = _tied_for_bare_link(paths) if len(paths) > 1 else []
        for path in tied:
            others = ", ".join(p for p in tied if p != path)
            stem = path[:-3]
            out.append(Finding(
                "duplicate-name", path, 1,
                f"{others} has the same file name: a bare [[{stem.rsplit('/', 1)[-1]}]] outside their "
                "folders opens one of them by a tie-break Obsidian does not document; link by path "
                "or rename one",
                f"[[{stem}]]",
            ))
    return out


def _tied_for_bare_link(paths: list[str]) -> list[str]:
    """The pages among same-named `paths` that a bare link cannot tell apart (may be none)."""
    at_root = [p for p in paths if "/" not in p]
    if at_root:
        contenders = at_root  # only case variants at the root can tie
    else:
        shortest = min(len(p) for p in paths)
        contenders = [p for p in paths if len(p) == shortest]
    return sorted(contenders) if len(contenders) > 1 else []


def _frontmatter_line(vault: "VaultView", path: str, key: str) -> int:
    try:
        lines = vault.read_text(path).split("\n", 200)[:200]
    except Exception:  # noqa: BLE001 - only a line number
        return 1
    for i, line in enumerate(lines[1:], start=2):
        if line.startswith(key + ":"):
            return i
        if line.strip() == "---":
            break
    return 1


def _warning_line(warning: str) -> int:
    m = re.search(r"\bline (\d+)", warning)
    return int(m.group(1)) if m else 1


# -- a proposed change ------------------------------------------------------------------------

def lint_changes(vault: "VaultView", files: dict[str, str | None], *,
                 proposed: Proposed | None = None) -> list[Finding]:
    """Findings the proposed texts (path -> text, None = delete) would introduce. `proposed`:
    the vault after them, when the caller reads it too (the knowledge diff): each text is
    parsed, each link resolved, once for both."""
    if proposed is None:
        proposed = Proposed(vault, files)
    changes = proposed.files
    after = proposed.paths
    resolve = proposed.resolve
    parse = proposed.parse
    suggest = Suggester(vault)
    index = vault._index
    records = vault.pages  # .record(path) per page the change touches: no full read
    out: list[Finding] = []
    new_targets: dict[str, set[str]] = {}  # changed page -> what it links to after the change
    parsed = {p: parse(p, t) for p, t in changes.items() if t is not None and is_page_path(p)}
    for path, text in sorted(changes.items(), key=lambda kv: kv[0]):
        if text is None or not is_page_path(path):
            continue
        page = parsed[path]
        before = _Before(records, index, path)  # read from the store only if a link asks
        targets = set()
        for link, _now, target in proposed.links(path, page):
            if not link.target:
                continue
            if target is not None:
                targets.add(target)
                if link.subpath and _anchor_gone(vault, records, parsed, target, link.subpath,
                                                 was=link.raw in before.raws):
                    out.append(_broken_anchor(path, link.line, link.raw, target))
                continue
            if before.broken[link.target] > 0:
                before.broken[link.target] -= 1  # was already broken before this change
                continue
            out.append(_unresolved_after(vault, path, link.line, link.raw, link.target, after=after, suggest=suggest))
        new_targets[path] = targets
        if path not in _special(vault):
            missing = [f for f in vault.schema.required_fields if _empty(page.frontmatter.get(f))]
            introduced = [f for f in missing if not (before.fields is not None
                                                     and _empty(before.fields.get(f)))]
            if introduced:
                out.append(Finding("missing-field", path, 1, f"frontmatter lacks required field(s) {', '.join(introduced)}"))
            typed = _type_finding(vault, path, page.frontmatter.get("type"), lambda: _text_line(text, "type"))
            old_fm = before.fields if typed is not None else None
            was = old_fm is not None and _type_finding(vault, path, old_fm.get("type"), lambda: 1)
            if typed is not None and not (was and was.code == typed.code):
                out.append(typed)  # a type the change gives, or a folder it moves the page to
    # Untouched pages whose links the change breaks (their target deleted or renamed away).
    for path, text in changes.items():
        if path in after:
            continue
        for source in sorted(index.sources_linking(path)):
            if source in changes or source in _listings(vault):
                continue
            record = records.record(source)
            if record is None:
                continue
            links = record_links(record)
            for row, target in zip(links, index.targets_of(source, links)):
                if target == path and row[L_TARGET] and resolve(row[L_TARGET], source) is None:
                    out.append(_unresolved_after(
                        vault, source, row[L_LINE], row[L_RAW], row[L_TARGET], gone=path, after=after, suggest=suggest,
                    ))
    # Untouched pages whose `#Heading` / `#^id` links into a changed page lose their anchor.
    for path, page in parsed.items():
        if path not in records or not _loses_anchors(vault, path, page):
            continue  # every heading and block id it has stays: no link into it loses its anchor
        for source in sorted(index.sources_linking(path)):
            if source in changes or source in _listings(vault) or source not in records:
                continue
            rows = _link_rows(vault, source)
            for row, target in zip(rows, index.targets_of(source, rows)):
                if target == path and row[L_SUBPATH] and _anchor_gone(
                        vault, records, parsed, path, row[L_SUBPATH], was=True):
                    out.append(_broken_anchor(source, row[L_LINE], row[L_RAW], path))
    # What the changed pages link to after the change (a page's links to itself left out).
    linked = {t for s, ts in new_targets.items() if s not in _special(vault) for t in ts if t != s}
    # Pages the change orphans: they had a linking page, and after it none.
    lost: set[str] = set()
    for path in changes:
        if path in records:
            lost |= set(index.resolved_from(path)) - new_targets.get(path, set())
    for target in sorted(lost):
        if target not in after or target in _special(vault) or not is_page_path(target):
            continue
        before = [s for s in index.sources_linking(target) if s != target and s not in _special(vault)]
        if not before:
            continue  # already an orphan: not introduced here
        if target not in linked and all(s in changes for s in before):
            out.append(Finding("orphan", target, 1, "this change removes the last link to this page"))
    # New pages nothing links to.
    for path, text in sorted(changes.items()):
        if text is None or path in records or path in _special(vault) or not is_page_path(path):
            continue
        if path in linked:
            continue
        if any(
            resolve(row[L_TARGET], source) == path
            for source in index.affected_by_file(path) if source not in changes and source not in _special(vault)
            for row in _link_rows(vault, source) if row[L_TARGET]
        ):
            continue
        out.append(Finding("orphan", path, 1, "new page that no other page links to"))
    return out


class _Before:
    """A changed page as the store holds it, read only for what a finding asks (most links
    resolve and most pages keep their fields: then no record is loaded, no query made)."""

    def __init__(self, records, index, path: str) -> None:
        self._records, self._index, self._path = records, index, path

    @functools.cached_property
    def record(self):
        return self._records.record(self._path)  # None: a new page

    @functools.cached_property
    def rows(self) -> list[tuple]:
        return record_links(self.record) if self.record is not None else []

    @functools.cached_property
    def raws(self) -> set[str]:
        return {row[L_RAW] for row in self.rows}

    @functools.cached_property
    def broken(self) -> Counter:
        """Linkpath -> how many of its links reached nothing before the change."""
        rows = self.rows
        if not rows:
            return Counter()  # a new page: no query
        return Counter(row[L_TARGET] for row, t in zip(rows, self._index.targets_of(self._path, rows))
                       if t is None)

    @functools.cached_property
    def fields(self) -> dict | None:
        """Its frontmatter (None: a new page)."""
        return record_cold(self.record).frontmatter if self.record is not None else None


def _anchors(page) -> tuple[set[str], set[str]]:
    return ({h.text.strip().casefold() for h in page.headings}, {b.lower() for b in page.block_ids})


def _loses_anchors(vault: "VaultView", path: str, page) -> bool:
    """Whether the page at `path`, becoming `page`, loses a heading or block id it has now (the
    links other pages aim at one are only read when it does)."""
    before = vault.page(path) if is_page_path(path) else None
    if before is None:
        return False
    (headings, blocks), (headings_after, blocks_after) = _anchors(before), _anchors(page)
    return not (headings <= headings_after and blocks <= blocks_after)


def _has_anchor(anchors: tuple[set[str], set[str]], subpath: str) -> bool:
    if subpath.startswith("#^"):
        return subpath[2:].lower() in anchors[1]
    return subpath.rsplit("#", 1)[-1].strip().casefold() in anchors[0]


def _anchor_gone(vault: "VaultView", records, parsed: dict, target: str, subpath: str, *,
                 was: bool = False) -> bool:
    """True when the heading or block `subpath` names is not on `target` after the change
    (with `was`: and was there before, so the change removed it)."""
    if not is_page_path(target):
        return False  # an attachment's #... is not an anchor
    before = _anchors(vault.page(target)) if target in records else None
    if was and (before is None or not _has_anchor(before, subpath)):
        return False
    after = _anchors(parsed[target]) if target in parsed else before
    return after is not None and not _has_anchor(after, subpath)


def _broken_anchor(path: str, line: int, raw: str, target: str) -> Finding:
    return Finding("broken-anchor", path, line,
                   f"{raw}: {target} has no such heading or block after this change", None, "error")


def _link_rows(vault: "VaultView", path: str) -> list[tuple]:
    record = vault.pages.record(path)
    return record_links(record) if record is not None else []


def _unresolved_after(
    vault: "VaultView", path: str, line: int, raw: str, linkpath: str, *, after: set[str],
    suggest: Suggester, gone: str | None = None,
) -> Finding:
    via_alias = vault.resolve_alias(linkpath)
    if via_alias and via_alias in after:
        return Finding("alias-link", path, line, f"{raw} matches an alias of {via_alias} but Obsidian shows it unresolved",
                       _path_link(via_alias, (), display=linkpath), "info")
    if gone is None:
        before = vault.resolve(linkpath, path)
        if before is not None and before not in after:
            gone = before
    why = f"{gone} is deleted or renamed by this change" if gone else f"no page or file named {linkpath!r}"
    suggestion = None if gone else suggest(linkpath, exists=after.__contains__)
    return Finding("broken-link", path, line, f"{raw}: {why}", suggestion, "error")


__all__ = ["Finding", "lint_vault", "lint_changes", "suggest_target"]
