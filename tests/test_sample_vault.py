"""The sample vault keeps the promises made in docs/vault-conventions.md.

The first half reads files only (frontmatter, log, index, raw sources, the appendix's list of
link forms). The second half opens the vault with wiki_tui.vault and checks how its links
resolve.
"""

from __future__ import annotations

import re
from pathlib import Path

import frontmatter
import pytest

ROOT = Path(__file__).resolve().parent.parent
VAULT = ROOT / "sample_vault"
CONVENTIONS = ROOT / "docs" / "vault-conventions.md"

PAGE_FOLDERS = {"sources": "source", "entities": "entity", "concepts": "concept", "syntheses": "synthesis",
                "answers": "answer"}
PAGE_FIELDS = ("title", "type", "summary", "aliases", "tags", "sources")
SPECIAL_FILES = {"AGENTS.md", "index.md", "log.md"}
TOP_LEVEL = SPECIAL_FILES | {".gitignore", "raw", "attachments", *PAGE_FOLDERS}
LOG_HEADING = re.compile(r"^## \[\d{4}-\d{2}-\d{2}\] \w+ \| .+")
LOG_ENTRY = re.compile(r"^## \[(?P<date>\d{4}-\d{2}-\d{2})\] (?P<op>\w+) \| (?P<title>.+)$")
LOG_ITEM = re.compile(r"^- (created|updated|deleted|renamed|rejected): \S.*$")
INDEX_ENTRY = re.compile(r"^- \[\[(?P<target>[^|\]]+)\|(?P<title>[^\]]+)\]\] — (?P<summary>.+)$")
APPENDIX_ITEM = re.compile(r"^- \*\*(?P<form>.+?)\*\* — `(?P<file>[^`]+)` — `(?P<text>.+)`$")

UNINGESTED = "raw/french-chronometers.md"
UNRESOLVED = "Board of Longitude Minutes"
UNRESOLVED_FROM = "entities/Board of Longitude.md"
ALIAS_LINK = "Longitude Harrison"
ALIAS_FROM = "entities/Larcum Kendall.md"
ALIAS_PAGE = "entities/John Harrison.md"
CODE_TEXTS = {  # link-like text that sits in code or comments and must never count
    "concepts/Longitude and time.md": ["Equation of Time", "Local Noon"],
    "concepts/Dead reckoning.md": ["not a link inside a tilde fence", "Traverse Board", "Log Line"],
}


def canvas_paths() -> list[str]:
    return sorted(p.relative_to(VAULT).as_posix() for p in VAULT.rglob("*.canvas"))


def page_paths() -> list[str]:
    return sorted(
        p.relative_to(VAULT).as_posix()
        for folder in PAGE_FOLDERS
        for p in (VAULT / folder).rglob("*.md")
    )


def meta(path: str) -> dict:
    return frontmatter.loads((VAULT / path).read_text(encoding="utf-8")).metadata


def flat(path: str) -> str:
    """The file's text with every run of whitespace made one space (line wrapping ignored)."""
    return " ".join((VAULT / path).read_text(encoding="utf-8").split())


def log_entries() -> list[re.Match]:
    lines = (VAULT / "log.md").read_text(encoding="utf-8").splitlines()
    return [m for m in map(LOG_ENTRY.match, lines) if m]


def appendix() -> list[dict[str, str]]:
    text = CONVENTIONS.read_text(encoding="utf-8")
    section = text.split("## Appendix: what the sample vault exercises", 1)[1]
    return [m.groupdict() for m in map(APPENDIX_ITEM.match, section.splitlines()) if m]


# ---------------------------------------------------------------------------
# Plain files


def test_layout_has_no_stray_files():
    # .wiki-tui/ is the app's git-ignored cache: running a command on the checkout may leave one.
    for entry in VAULT.iterdir():
        assert entry.name in TOP_LEVEL | {".wiki-tui"}, f"unexpected entry in sample_vault/: {entry.name}"
    assert (VAULT / ".gitignore").read_text(encoding="utf-8") == ".wiki-tui/\n"
    for path in VAULT.rglob("*"):
        rel = path.relative_to(VAULT)
        if rel.as_posix() == ".gitignore" or rel.parts[0] == ".wiki-tui":
            continue
        assert not any(part.startswith(".") or part == "__pycache__" for part in rel.parts), rel
        if path.is_file() and rel.parts[0] in PAGE_FOLDERS:
            # pages, and one JSON Canvas answer (docs/forms.md)
            assert path.suffix == ".md" or rel.as_posix() == "answers/Who made H4 count.canvas", rel


def test_page_count_and_one_synthesis():
    pages = page_paths()
    assert 15 <= len(pages) <= 30
    assert [p for p in pages if p.startswith("syntheses/")] == ["syntheses/Clock versus Moon.md"]


@pytest.mark.parametrize("path", page_paths())
def test_every_page_has_complete_frontmatter(path):
    text = (VAULT / path).read_text(encoding="utf-8")
    assert text.startswith("---\n"), f"{path}: no frontmatter"
    data = meta(path)
    for field in PAGE_FIELDS:
        assert field in data, f"{path}: missing {field}"
    assert data["type"] == PAGE_FOLDERS[path.split("/")[0]], f"{path}: type does not match folder"
    assert isinstance(data["title"], str) and data["title"].strip()
    assert isinstance(data["summary"], str) and "\n" not in data["summary"].strip()
    for field in ("aliases", "tags", "sources"):
        assert isinstance(data[field], list), f"{path}: {field} is not a list"
    assert data["sources"], f"{path}: cites no source"


def test_schema_frontmatter_has_the_contract_shape():
    data = meta("AGENTS.md")
    assert data["required_fields"] == ["title", "type", "summary"]
    assert list(data["types"].items()) == [
        ("source", "sources"),
        ("entity", "entities"),
        ("concept", "concepts"),
        ("synthesis", "syntheses"),
        ("answer", "answers"),
    ]


def test_schema_prose_covers_the_conventions():
    body = frontmatter.loads((VAULT / "AGENTS.md").read_text(encoding="utf-8")).content
    for phrase in ("> [!warning] Contradiction", "raw/", "index.md", "append-only", "aliases"):
        assert phrase in body


def test_log_entries_parse_and_run_oldest_first():
    lines = (VAULT / "log.md").read_text(encoding="utf-8").split("\n")
    assert lines[0] == "# Log"
    headings = [line for line in lines if line.startswith("## ")]
    assert headings and all(LOG_HEADING.match(h) for h in headings)
    entries = log_entries()
    assert len(entries) == len(headings)
    dates = [m["date"] for m in entries]
    assert dates == sorted(dates) and all(d.startswith("2026-") for d in dates)
    for line in lines[1:]:
        assert line == "" or line.startswith("## ") or LOG_ITEM.match(line), line
    # entries are separated by exactly one blank line
    text = (VAULT / "log.md").read_text(encoding="utf-8")
    assert "\n\n\n" not in text and text.endswith("\n") and not text.endswith("\n\n")
    assert text.count("\n\n## [") == len(entries)


def test_exactly_one_raw_source_is_not_ingested():
    raw = sorted(p.relative_to(VAULT).as_posix() for p in (VAULT / "raw").iterdir())
    assert 4 <= len(raw) <= 5
    for path in raw:
        assert 1000 <= (VAULT / path).stat().st_size <= 4096, path
    cited = {
        src: path
        for path in page_paths()
        if path.startswith("sources/")
        for src in meta(path)["sources"]
    }
    assert [p for p in raw if p not in cited] == [UNINGESTED]
    ingested_titles = {m["title"] for m in log_entries() if m["op"] == "ingest"}
    source_titles = {meta(cited[p])["title"] for p in raw if p in cited}
    assert ingested_titles == source_titles
    assert len(ingested_titles) == len(raw) - 1


def test_uningested_source_mentions_existing_pages():
    text = flat(UNINGESTED).casefold()
    names = set()
    for path in page_paths():
        data = meta(path)
        names.update([data["title"], *data["aliases"]])
    mentioned = {n for n in names if len(n) > 3 and n.casefold() in text}
    assert {"John Harrison", "Board of Longitude", "Nautical Almanac", "Nevil Maskelyne"} <= mentioned
    for new in ("Pierre Le Roy", "Ferdinand Berthoud"):
        assert new.casefold() in text and new not in names


def test_two_raw_sources_disagree_on_the_first_almanac():
    assert "The first edition was published in 1766" in flat("raw/lunar-distances.md")
    assert "whose first issue appeared in 1767" in flat("raw/board-of-longitude.md")


def test_uningested_source_disagrees_with_the_wiki_on_h4():
    assert "H4, which Harrison had finished in 1760" in flat(UNINGESTED)
    assert "H4, completed in 1759" in flat("raw/harrison-sea-clocks.md")
    assert "completed in 1759" in flat("entities/H4.md")


def test_index_lists_every_page_exactly_once():
    lines = (VAULT / "index.md").read_text(encoding="utf-8").splitlines()
    entries = [m for m in map(INDEX_ENTRY.match, lines) if m]
    assert len(entries) == len([line for line in lines if line.startswith("- ")])
    targets = [m["target"] + ("" if m["target"].endswith(".canvas") else ".md") for m in entries]
    assert sorted(targets) == sorted([*page_paths(), *canvas_paths()])
    for m in entries:
        if m["target"].endswith(".canvas"):
            continue
        data = meta(m["target"] + ".md")
        assert m["title"] == data["title"] and m["summary"] == data["summary"]


def test_index_equals_the_generator_output():
    from wiki_tui.changes.apply import index_md

    class _Page:
        def __init__(self, path: str):
            data = meta(path)
            self.path, self.title = path, data.get("title")
            self.summary, self.type = data.get("summary"), data.get("type")

    types = meta("AGENTS.md")["types"]
    rows = [(p.path, p.title, p.summary, p.type) for p in map(_Page, page_paths())]
    rows += index_md.canvas_rows(VAULT, canvas_paths(), types)
    expected = index_md.render_rows(rows, types)
    assert (VAULT / "index.md").read_text(encoding="utf-8") == expected


def test_appendix_names_every_required_link_form():
    forms = " / ".join(item["form"] for item in appendix())
    for needed in (
        "duplicate name",
        "aliases on a page",
        "link to an alias",
        "heading link",
        "block link",
        "block id",
        "embed of a heading",
        "attachment embed",
        "display text",
        "markdown link",
        "frontmatter link",
        "fence",
        "inline code",
        "comment",
        "inline tag",
        "deliberately unresolved",
    ):
        assert needed in forms, f"appendix lacks {needed!r}"


@pytest.mark.parametrize("item", appendix(), ids=lambda item: item["form"])
def test_appendix_item_is_in_the_named_file(item):
    path = VAULT / item["file"]
    assert path.is_file(), item["file"]
    assert item["text"] in path.read_text(encoding="utf-8")


def test_appendix_states_the_unresolved_link():
    [item] = [i for i in appendix() if "deliberately unresolved" in i["form"]]
    assert (item["file"], item["text"]) == (UNRESOLVED_FROM, f"[[{UNRESOLVED}]]")
    stems = {Path(p).stem.casefold() for p in page_paths()}
    assert UNRESOLVED.casefold() not in stems


def test_code_and_comment_texts_sit_in_code_or_comments():
    for path, texts in CODE_TEXTS.items():
        text = (VAULT / path).read_text(encoding="utf-8")
        for t in texts:
            line = next(line for line in text.splitlines() if f"[[{t}]]" in line)
            in_inline_code = f"`[[{t}]]`" in line
            in_comment = "%%" in line
            in_fence = _inside_fence(text, line)
            assert in_inline_code or in_comment or in_fence, (path, t)


def _inside_fence(text: str, wanted: str) -> bool:
    fence = None
    for line in text.splitlines():
        marker = line.lstrip()[:3]
        if fence is None and marker in ("```", "~~~"):
            fence = marker
        elif fence is not None and marker == fence:
            fence = None
        elif line == wanted:
            return fence is not None
    return False


# ---------------------------------------------------------------------------
# How the links resolve. The same checks run twice: against vault-core's parse_page + Resolver,
# and against the whole Vault (vault-index). Each is skipped while its module does not import.


class _Core:
    """Pages parsed by vault-core and its Obsidian resolver: the part of Vault these checks use."""

    def __init__(self, root: Path):
        from wiki_tui.vault.indexing import resolve as resolve_mod
        from wiki_tui.vault.parse import page as page_mod
        files = [
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if p.is_file() and not p.relative_to(root).parts[0].startswith(".")
        ]
        self.pages = {
            f: page_mod.parse_page(f, (root / f).read_text(encoding="utf-8"))
            for f in files
            if f.endswith(".md") and not f.startswith("raw/")
        }
        self._resolver = resolve_mod.Resolver(files)

    def resolve(self, target: str, from_path: str = "") -> str | None:
        return self._resolver.resolve(target, from_path)


def _open_vault(root: Path):
    from wiki_tui.vault import Vault

    return Vault.open(root, use_cache=False)


@pytest.fixture(params=["core", "vault"])
def linked(request, sample_vault):
    """Something with .pages (path -> Page) and .resolve(target, from_path)."""
    if request.param == "core":
        yield _Core(sample_vault)
        return
    v = _open_vault(sample_vault)
    yield v
    v.close()


@pytest.fixture
def vault(sample_vault):
    v = _open_vault(sample_vault)
    yield v
    v.close()


def _unresolved(linked) -> set[tuple[str, str]]:
    return {
        (path, link.target)
        for path, page in linked.pages.items()
        for link in page.links
        if linked.resolve(link.target, path) is None
    }


def test_pages_parse_without_warnings(linked):
    assert {p for p in linked.pages if p not in SPECIAL_FILES} == set(page_paths())
    for path in page_paths():
        assert linked.pages[path].warnings == [], path


def test_only_the_deliberate_and_the_alias_link_are_unresolved(linked):
    assert _unresolved(linked) == {(UNRESOLVED_FROM, UNRESOLVED), (ALIAS_FROM, ALIAS_LINK)}
    assert linked.pages[ALIAS_PAGE].aliases[0] == ALIAS_LINK


def test_links_in_code_and_comments_do_not_count(linked):
    for path, texts in CODE_TEXTS.items():
        targets = {link.target for link in linked.pages[path].links}
        assert not targets & set(texts), path
    agents = linked.pages.get("AGENTS.md")  # the Vault may leave the schema out of its pages
    if agents is not None:
        assert agents.links == []


def test_duplicate_name_resolves_by_obsidian_rules(linked):
    name = "Board of Longitude"
    source, entity = "sources/Board of Longitude.md", "entities/Board of Longitude.md"
    assert linked.resolve(name, "concepts/Longitude problem.md") == source  # shortest path
    assert linked.resolve(name, "sources/John Harrison and the Sea Clocks.md") == source  # own folder
    assert linked.resolve(name, "entities/Longitude Act 1714.md") == entity  # own folder
    assert linked.resolve("entities/Board of Longitude", "concepts/Longitude problem.md") == entity


def test_other_link_forms_parse_and_resolve(linked):
    pages, resolve = linked.pages, linked.resolve
    synth = "syntheses/Clock versus Moon.md"
    svg = [link for link in pages[synth].links if link.target == "longitude-error-chart.svg"]
    assert [(link.embed, resolve(link.target, synth)) for link in svg] == [
        (True, "attachments/longitude-error-chart.svg")
    ]
    section = [link for link in pages[synth].links if link.subpath == "#The calculation"]
    assert [(link.embed, link.target) for link in section] == [(True, "Lunar distance method")]
    assert ("", "#Side by side") in {(link.target, link.subpath) for link in pages[synth].links}
    table = [link for link in pages[synth].links if link.target == "John Harrison"]
    assert [link.display for link in table] == ["Harrison"]

    block = [link for link in pages[ALIAS_PAGE].links if link.subpath == "#^prize-scale"]
    assert [resolve(link.target, ALIAS_PAGE) for link in block] == ["entities/Longitude Act 1714.md"]
    assert "prize-scale" in pages["entities/Longitude Act 1714.md"].block_ids

    heading = [link for link in pages["entities/H4.md"].links if link.subpath == "#Trials at sea"]
    assert [resolve(link.target, "entities/H4.md") for link in heading] == ["concepts/Marine chronometer.md"]
    assert "Trials at sea" in [h.text for h in pages["concepts/Marine chronometer.md"].headings]

    shown = [link for link in pages["entities/Nautical Almanac.md"].links if link.target == "Nevil Maskelyne"]
    assert [link.display for link in shown] == ["the Astronomer Royal"]

    chron = "concepts/Marine chronometer.md"
    assert ("frontmatter", "Lunar distance method") in {(link.kind, link.target) for link in pages[chron].links}

    for path, expected in (
        ("concepts/Lunar distance method.md", "entities/Nautical Almanac.md"),
        ("entities/Nevil Maskelyne.md", "entities/Royal Observatory Greenwich.md"),
    ):
        md = [link for link in pages[path].links if link.kind == "markdown"]
        assert [resolve(link.target, path) for link in md] == [expected]

    assert "horology/instruments" in pages["entities/H4.md"].tags
    assert "navigation" in pages["concepts/Longitude problem.md"].tags


def test_no_page_is_an_orphan(linked):
    incoming: dict[str, set[str]] = {}
    for path, page in linked.pages.items():
        if path in SPECIAL_FILES:
            continue
        for link in page.links:
            target = linked.resolve(link.target, path)
            if target and target != path:
                incoming.setdefault(target, set()).add(path)
    assert [p for p in page_paths() if not incoming.get(p)] == []


# ---------------------------------------------------------------------------
# The Vault's own index (vault-index); skipped until wiki_tui.vault.Vault imports


def test_vault_knows_the_attachment_and_schema(vault):
    assert "attachments/longitude-error-chart.svg" in vault.attachments
    assert vault.schema.required_fields == ["title", "type", "summary"]
    assert list(vault.schema.types) == ["source", "entity", "concept", "synthesis", "answer"]


def test_vault_unresolved_links_in_obsidian_shape(vault):
    unresolved = {
        (source, target) for source, targets in vault.unresolved_links.items() for target in targets
    }
    assert unresolved == {(UNRESOLVED_FROM, UNRESOLVED), (ALIAS_FROM, ALIAS_LINK)}
    truly = {(s, t) for s, t in unresolved if vault.resolve_alias(t) is None}
    assert truly == {(UNRESOLVED_FROM, UNRESOLVED)}
    assert "sources/Board of Longitude.md" in vault.resolved_links["concepts/Longitude problem.md"]


def test_vault_alias_link_is_resolved_via_alias_only(vault):
    assert vault.resolve(ALIAS_LINK, ALIAS_FROM) is None
    assert vault.resolve_alias(ALIAS_LINK) == ALIAS_PAGE
    hits = [(t, via) for link, t, via in vault.outgoing(ALIAS_FROM) if link.target == ALIAS_LINK]
    assert hits == [(ALIAS_PAGE, True)]


def test_vault_backlinks_reach_every_page(vault):
    for path in page_paths():
        sources = {b.source for b in vault.backlinks(path)} - SPECIAL_FILES - {path}
        assert sources, f"{path} has no incoming links"


def test_vault_lint_finds_only_the_deliberate_problems(vault):
    """No orphans, no missing fields, index.md in step: only what the appendix names."""
    found = sorted((f.code, f.path) for f in vault.lint())
    assert found == sorted([
        ("broken-link", UNRESOLVED_FROM),
        ("alias-link", ALIAS_FROM),
        ("ambiguous-link", "concepts/Longitude problem.md"),
        ("ambiguous-link", "entities/Longitude Act 1714.md"),
        ("ambiguous-link", "sources/John Harrison and the Sea Clocks.md"),
    ])
