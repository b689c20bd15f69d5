"""The catalog kept between accepts (changes/apply/catalog_cache.py) renders byte for byte what a
full render of the same rows gives, over random sequences of pages stored, retitled, retyped,
removed, committed and left out, and after real accepts equals a catalog planned from scratch."""

from __future__ import annotations

import random
from pathlib import Path

from tests.changes.journal_support import changeset, create, git, modify, page
from tests.conftest import make_git_repo, write_files
from wiki_tui.changes.apply import catalog_cache
from wiki_tui.changes.apply.index_md import render_rows
from wiki_tui.changes.apply.journal import _index_plan, apply_changeset
from wiki_tui.vault import Vault
from wiki_tui.vault.indexing.store import PageMap, Store
from wiki_tui.vault.parse.page import parse_page

TYPES = {"source": "sources", "entity": "entities", "concept": "concepts", "Answer": ""}
KINDS = ["source", "entity", "concept", "Concept", "answer", "odd", None, "", ["a", "list"]]
TITLES = ["Alpha", "alpha", "Beta", "", "Ünïcode", "Zeta 2", "zeta 10", "a|pipe", "x\ny"]
FOLDERS = ["sources", "entities", "concepts", "raw", "notes", ""]


def _page(rng: random.Random, path: str):
    kind = rng.choice(KINDS)
    fm = [f"title: {rng.choice(TITLES)!r}" if rng.random() < 0.9 else ""]
    if kind is not None:
        fm.append(f"type: {kind!r}" if not isinstance(kind, list) else "type: [a, list]")
    if rng.random() < 0.8:
        fm.append(f"summary: {rng.choice(TITLES + ['A summary.'])!r}")
    return parse_page(path, "---\n" + "\n".join(f for f in fm if f) + "\n---\nBody.\n")


def _full(pages: PageMap, committed, changed, paths) -> str:
    rows = [r for r in pages.rows() if r[0] not in changed] + [r for r in changed.values() if r]
    if committed is not None:
        rows = [r for r in rows if r[0] in committed or r[0] in paths or r[0] in changed
                or r[0] in ("index.md", "log.md", "AGENTS.md")]
    return render_rows(rows, TYPES)


def test_kept_entries_render_as_a_full_render_over_random_changes():
    rng = random.Random(4)
    pages = PageMap(Store(None))
    paths = [f"{rng.choice(FOLDERS)}/p{i}.md".lstrip("/") for i in range(60)] + ["index.md", "log.md"]
    committed: frozenset[str] | None = frozenset()
    catalog_cache._cache = None
    for step in range(150):
        for _ in range(rng.randint(0, 6)):  # the vault changes: pages stored and removed
            path = rng.choice(paths)
            if rng.random() < 0.25 and path in pages:
                pages.remove(path)
            else:
                pages.put(_page(rng, path), (step, 1), 0)
        if rng.random() < 0.3:  # a commit: HEAD's file set changes (or there is no git)
            committed = None if rng.random() < 0.1 else frozenset(p for p in paths if rng.random() < 0.8)
        changed = {}
        for path in rng.sample(paths, rng.randint(0, 3)):  # the changeset's own pages
            changed[path] = None if rng.random() < 0.3 else (path, *(lambda p: (p.title, p.summary, p.type))(_page(rng, path)))
        text, left_out, _ = catalog_cache.render(pages, TYPES, "index.md", committed, changed, changed)
        assert text == _full(pages, committed, changed, changed), step
        if committed is not None:
            assert left_out == sorted(p for p in pages if p not in committed and p not in changed
                                      and p not in ("index.md", "log.md", "AGENTS.md"))


def test_after_accepts_a_plan_from_scratch_finds_the_catalog_up_to_date(tmp_path: Path):
    root = tmp_path / "v"
    write_files(root, {f"concepts/C{i}.md": page(f"C{i}") for i in range(8)})
    make_git_repo(root)
    vault = Vault.open(root, use_cache=False)
    for n in range(6):
        files = [create(f"concepts/New {n}.md", page(f"New {n}"))]
        if n % 2:
            files.append(modify(root, f"concepts/C{n}.md", page(f"Retitled {n}")))
        if n == 3:  # the person's own page, committed from a terminal: the next accept lists it
            (root / "concepts" / "Mine.md").write_text(page("Mine"), encoding="utf-8")
            git(root, "add", "-A")
            git(root, "commit", "-q", "-m", "mine")
            vault.refresh_file("concepts/Mine.md")
        apply_changeset(vault, changeset(*files, title=f"change {n}"))
        catalog_cache._cache = None
        fresh = Vault.open(root, use_cache=False)
        assert _index_plan(fresh, root, {})[0] is None, n  # nothing to change
        fresh.close()
    assert "[[concepts/Mine|Mine]]" in (root / "index.md").read_text(encoding="utf-8")
    vault.close()
