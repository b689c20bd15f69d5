"""Property test: random changesets on random small vaults; the knowledge diff agrees with an
independent, simple and slow computation (every page scanned, every link resolved against a
Resolver built from scratch for the vault before and after, multisets compared naively).

The vaults are small pages with frontmatter (title, aliases, sources), links with and without
headings into each other and into pages that do not exist, headings, and figures in sentences.
A changeset edits lines, drops and adds links, fields and figures, renames headings, creates
and deletes pages. Compared: fields removed, links removed (by the page they reached) and newly
broken, figures gone, the links from untouched pages that break (deleted pages and removed
headings), and pages created and deleted. Figures are counted in sentences and in the scalar
fields a change alters (born: 1693 → 1694).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wiki_tui.changes.build.knowledge.diff import knowledge_diff
from wiki_tui.changes.model import CREATE, DELETE, MODIFY, Changeset, FileChange
from wiki_tui.vault import Vault
from wiki_tui.vault.parse.page import parse_page
from wiki_tui.vault.indexing.resolve import Resolver

NAMES = ["Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta"]
HEADINGS = ["Origins", "Trials", "Copies"]
FIELDS = ["aliases", "sources", "born", "place"]


@st.composite
def pages(draw, name: str) -> str:
    fields = draw(st.lists(st.sampled_from(FIELDS), unique=True, max_size=4))
    fm = [f"title: {name}"]
    for f in fields:
        fm.append({"aliases": f"aliases: [{name} alias]", "sources": 'sources: ["[[Beta]]"]',
                   "born": f"born: {draw(st.integers(1600, 1900))}",
                   "place": "place: London"}[f])
    body = [f"# {name}", ""]
    for heading in draw(st.lists(st.sampled_from(HEADINGS), unique=True, max_size=3)):
        body += [f"## {heading}", ""]
        for _ in range(draw(st.integers(0, 3))):
            target = draw(st.sampled_from(NAMES + ["Missing"]))
            sub = draw(st.sampled_from(["", "#Trials", "#Origins", "#Nowhere"]))
            n = draw(st.integers(0, 99))
            body.append(f"In {1700 + n} it was {n}.{n % 10} units ([[{target}{sub}]]).")
        body.append("")
    return "---\n" + "\n".join(fm) + "\n---\n" + "\n".join(body)


def _mutate(draw, text: str) -> str:
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "figure", "link", "heading", "add"]))
        if action == "drop" and not lines[i].startswith("---"):
            del lines[i]
        elif action == "figure":
            lines[i] = re.sub(r"\d+", lambda m: str(int(m.group()) + 1), lines[i], count=1)
        elif action == "link":
            lines[i] = re.sub(r"\[\[[^\]]*\]\]", f"[[{draw(st.sampled_from(NAMES + ['Nope']))}]]",
                              lines[i], count=1)
        elif action == "heading" and lines[i].startswith("## "):
            lines[i] = "## " + draw(st.sampled_from(HEADINGS + ["Renamed"]))
        elif action == "add":
            lines.insert(i + 1, f"Added about [[{draw(st.sampled_from(NAMES))}]] in 1999.")
    return "\n".join(lines)


@st.composite
def worlds(draw):
    names = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=6, unique=True))
    vault = {f"notes/{n}.md": draw(pages(n)) for n in names}
    files: list[FileChange] = []
    for path, text in vault.items():
        what = draw(st.sampled_from(["keep", "keep", "edit", "delete"]))
        if what == "edit":
            new = _mutate(draw, text)
            if new != text:
                files.append(FileChange(path, MODIFY, text, new))
        elif what == "delete":
            files.append(FileChange(path, DELETE, text, None))
    for n in draw(st.lists(st.sampled_from(["Eta", "Theta"]), unique=True, max_size=2)):
        files.append(FileChange(f"notes/{n}.md", CREATE, None, draw(pages(n))))
    return vault, files


# -- the independent computation -------------------------------------------------------------
def _state(texts: dict[str, str]):
    resolver = Resolver(texts)
    parsed = {p: parse_page(p, t) for p, t in texts.items()}
    return resolver, parsed


def _anchor_ok(parsed, target: str, sub: str) -> bool:
    if not sub:
        return True
    heads = {h.text.strip().casefold() for h in parsed[target].headings}
    return sub.rsplit("#", 1)[-1].strip().casefold() in heads


def _reached(resolver, parsed, path: str) -> set[str]:
    return {resolver.resolve(link.target, path) for link in parsed[path].links} - {None}


def _broken(resolver, parsed, path: str) -> Counter:
    out = Counter()
    for link in parsed[path].links:
        target = resolver.resolve(link.target, path)
        if target is None or not _anchor_ok(parsed, target, link.subpath):
            out[(link.target.lower(), link.subpath.casefold())] += 1
    return out


_NUM = re.compile(r"(?<![\w.])\d+(?:[.,:/-]\d+)*(?![\w])")


def _figures(text: str) -> Counter:
    parts = text.split("\n---\n", 1)
    body = parts[1] if len(parts) > 1 else ""  # the frontmatter closes the text: no body
    return Counter(_NUM.findall(re.sub(r"\[\[[^\]]*\]\]", " ", body)))


def _added(fc: FileChange) -> set[str]:
    if fc.kind == CREATE:
        return {x.strip() for x in fc.proposed_text.splitlines() if x.strip()}
    return {x.strip() for h in fc.hunks for x in h.new_lines if x.strip()}


def _moved(fc: FileChange, files: list[FileChange]) -> bool:
    """All the body lines a change removes from a page (headings aside) are lines other pages
    of the changeset gain, as they were, and none is a bare link line."""
    head = set(fc.base_text.split("\n---\n", 1)[0].splitlines())
    gone = [x.strip() for h in fc.hunks for x in h.old_lines
            if x.strip() and not x.strip().startswith("#") and x.rstrip("\n") not in head]
    others = set().union(*(_added(f) for f in files if f.path != fc.path and f.proposed_text))
    bare = any("[" in x and len(re.sub(r"\[\[[^\]]*\]\]|[^A-Za-z ]", " ", x).split()) < 3
               for x in gone)
    return bool(gone) and not bare and all(x in others for x in gone)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
          max_examples=60, deadline=None)
@given(worlds())
def test_the_knowledge_diff_agrees_with_a_naive_computation(world):
    vault_texts, files = world
    root = Path(tempfile.mkdtemp(prefix="knowledge-props-")) / "vault"
    try:
        for path, text in vault_texts.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
        after = dict(vault_texts)
        for fc in files:
            if fc.proposed_text is None:
                after.pop(fc.path)
            else:
                after[fc.path] = fc.proposed_text
        r0, p0 = _state(vault_texts)
        r1, p1 = _state(after)
        changed = {fc.path for fc in files}
        with Vault.open(root, use_cache=False) as vault:
            diff = knowledge_diff(vault, Changeset("apply", "t", files=files))
        assert {d.path: d.kind for d in diff.pages} == {fc.path: fc.kind for fc in files}
        for fc in files:
            d = diff.page(fc.path)
            if fc.kind == MODIFY and _moved(fc, files):
                # every line it lost landed, as it was, in another page of the changeset
                assert not d.figures_removed and not d.links_removed and not d.citations_removed
                continue
            if fc.kind == MODIFY:
                old, new = p0[fc.path], p1[fc.path]
                assert set(d.fields_removed) == set(old.frontmatter) - set(new.frontmatter)
                lost = {t for t in _reached(r0, p0, fc.path) if t in after} - \
                    _reached(r1, p1, fc.path)
                removed = {r0.resolve(parse_page(fc.path, raw).links[0].target, fc.path)
                           for raw in d.links_removed}
                # every page the page no longer reaches (and that still exists) is named, and
                # nothing else: links are compared by the page they reached
                assert lost <= removed and removed <= _reached(r0, p0, fc.path)
                broken = _broken(r1, p1, fc.path) - _broken(r0, p0, fc.path)
                named = Counter(d.links_broken)
                assert sum(named.values()) <= sum(broken.values())
                fields_lost = Counter()  # a scalar field's figures (born: 1693) are claims too
                for key in set(old.frontmatter) & set(new.frontmatter):
                    then, now = old.frontmatter[key], new.frontmatter[key]
                    if then != now and not isinstance(then, list) and not isinstance(now, list):
                        fields_lost += Counter(_NUM.findall(str(then))) - \
                            Counter(_NUM.findall(str(now)))
                assert sorted(_figures(fc.base_text) - _figures(fc.proposed_text) + fields_lost) \
                    == sorted(d.figures_removed)
            if fc.kind == DELETE:
                expect = sum(1 for s in after if s not in changed for link in p0[s].links
                             if r0.resolve(link.target, s) == fc.path
                             and r1.resolve(link.target, s) is None)
                shown = sum(int(m.group(1)) if m else 1 for m in
                            (re.search(r"\((\d+) links?\)$", x) for x in d.inbound_broken
                             if x.split(" ", 1)[0].split(":", 1)[0] not in changed))
                assert shown == expect
        # headings removed from a changed page break the links of untouched pages into it
        for fc in files:
            if fc.kind != MODIFY:
                continue
            expect = sorted(f"{s}:{link.line} {link.raw}" for s in after if s not in changed
                            for link in p0[s].links
                            if r0.resolve(link.target, s) == fc.path and link.subpath
                            and _anchor_ok(p0, fc.path, link.subpath)
                            and not _anchor_ok(p1, fc.path, link.subpath))
            # (links of other changed pages are charged here too, as "page [[link]]")
            untouched = [x for x in diff.page(fc.path).inbound_broken
                         if x.split(" ", 1)[0].split(":", 1)[0] not in changed]
            assert sorted(untouched) == expect
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)
