"""After an accept, what the index answers about the rewritten catalog (its links, backlinks,
record) equals a full re-index of the vault, though the apply never parses it again: its links
are adjusted by the lines that changed (Vault.catalog_rewritten, vault/indexing/catalog.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.changes.journal_support import changeset, create, delete, git, modify, page, rename
from wiki_tui.changes.apply.journal import apply_changeset, undo_last
from tests.conftest import make_git_repo, write_files
from wiki_tui.vault import Vault

PLAIN = ["Alpha", "Beta gamma", "Ünïcode café", "Review Meeting", "K1's log", "a.b.c", "1984", "x"]
ODD = ["with #tag", "a [[link]] in it", "`code`", "under_score", "star*", "(paren)", "a|pipe"]


@pytest.fixture
def plain_vault(tmp_path: Path) -> Path:
    """A git vault whose catalog is plain (no title or summary the line reader leaves to the
    general scanner), as generated vaults are."""
    root = tmp_path / "plain"
    files = {f"{folder}/{name} {i}.md": page(f"{name} {i}", body=f"See [[{name} {(i + 1) % 6}]].",
                                               summary=f"About {name.lower()} {i}.")
             for folder, name in (("concepts", "Idea"), ("entities", "Person"), ("sources", "Paper"))
             for i in range(6)}
    write_files(root, files)
    make_git_repo(root)
    return root


def _stored_record_len(vault: Vault, path: str) -> int:
    row = vault._store.conn.execute("SELECT length(record) FROM pages WHERE path=?", (path,)).fetchone()
    return row[0]


def _answers(vault: Vault, path: str) -> tuple:
    """What the index says about `path`: its outgoing links, resolved and unresolved link
    counts, its record as a page, and the backlinks it gives each page it links."""
    outgoing = [(link.target, link.display, link.line, link.start, link.end, target)
                for link, target, *_ in vault.outgoing(path)]
    resolved = vault.resolved_links.get(path, {})
    backlinks = {t: vault.linking_to(t).get(path) for t in sorted(resolved)}
    return (outgoing, resolved, vault.unresolved_links.get(path, {}), vault.pages[path], backlinks)


def _fresh(root: Path) -> Vault:
    return Vault.open(root, use_cache=False)


def _random_change(rng: random.Random, root: Path, vault: Vault, n: int, odd: float = 0.0):
    pages = sorted(p for p in vault.pages if p.startswith(("concepts/", "entities/", "sources/")))
    title = lambda: rng.choice(ODD if rng.random() < odd else PLAIN) + f" {n}"  # noqa: E731
    files = []
    for kind in rng.sample(["create", "create", "retitle", "body", "delete", "rename"], 3):
        if kind == "create":
            folder = rng.choice(["concepts", "entities", "sources"])
            files.append(create(f"{folder}/new {n} {len(files)}.md",
                                page(title(), summary=rng.choice(["s", "A summary.", title()]))))
        elif pages:
            path = pages.pop(rng.randrange(len(pages)))
            if kind == "retitle":
                files.append(modify(root, path, page(title(), body=f"Links [[{rng.choice(pages or [path])[:-3]}]].")))
            elif kind == "body":
                text = (root / path).read_text(encoding="utf-8")
                files.append(modify(root, path, text + f"\nMore text {n}.\n"))
            elif kind == "delete":
                files.append(delete(root, path))
            else:
                files.append(rename(root, path, path[:-3] + f" moved {n}.md"))
    return changeset(*files, title=f"random change {n}")


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_the_catalog_after_random_accepts_answers_as_a_full_reindex(plain_vault: Path, seed: int,
                                                                    monkeypatch):
    from wiki_tui.vault import model

    told = []  # whether the apply told the vault which lines changed (else it compares them)
    real = model.catalog_delta
    monkeypatch.setattr(model, "catalog_delta", lambda old, new, lines=None: told.append(lines is not None)
                        or real(old, new, lines))
    rng = random.Random(seed)
    vault = Vault.open(plain_vault, use_cache=False)
    deferred = 0
    for n in range(10):
        result = apply_changeset(vault, _random_change(rng, plain_vault, vault, n))
        assert result.commit, result
        was_deferred = _stored_record_len(vault, "index.md") == 0  # from the lines that changed
        deferred += was_deferred
        vault.refresh_file("index.md")  # the watcher reports the apply's own write: not re-read
        assert not was_deferred or _stored_record_len(vault, "index.md") == 0
        fresh = _fresh(plain_vault)
        try:
            assert _answers(vault, "index.md") == _answers(fresh, "index.md"), n
        finally:
            fresh.close()
    assert deferred >= 9  # only the first accept (the catalog not indexed from its text) reads it
    assert sum(told) >= 8
    vault.close()


def test_odd_titles_fall_back_to_reading_the_catalog_and_stay_exact(git_vault: Path):
    rng = random.Random(5)  # the sample vault's own titles hold parentheses: never plain
    vault = Vault.open(git_vault, use_cache=False)
    for n in range(6):
        apply_changeset(vault, _random_change(rng, git_vault, vault, n, odd=0.3))
        fresh = _fresh(git_vault)
        assert _answers(vault, "index.md") == _answers(fresh, "index.md"), n
        fresh.close()
    vault.close()


def test_a_hand_edited_catalog_is_read_again_not_adjusted(plain_vault: Path):
    git_vault = plain_vault
    vault = Vault.open(git_vault, use_cache=False)
    apply_changeset(vault, changeset(create("concepts/First.md", page("First"))))
    # The person edits index.md by hand (the vault does not watch): its links are not what
    # the vault indexed, so the next accept must not adjust them by a line difference.
    # Here it drops First's entry: adjusted from the hand-edited text, First would count twice.
    text = (git_vault / "index.md").read_text(encoding="utf-8")
    lines = [ln for ln in text.split("\n") if not ln.startswith("- [[concepts/First|")]
    (git_vault / "index.md").write_text("\n".join(lines), encoding="utf-8")
    git(git_vault, "commit", "-q", "-am", "hand edit")
    apply_changeset(vault, changeset(create("concepts/Second.md", page("Second"))))
    fresh = _fresh(git_vault)
    assert _answers(vault, "index.md") == _answers(fresh, "index.md")
    assert vault.linking_to("concepts/First.md")["index.md"] == 1
    fresh.close()
    vault.close()


def test_undo_and_a_new_session_keep_the_catalog_exact(plain_vault: Path):
    git_vault = plain_vault
    vault = Vault.open(git_vault)
    apply_changeset(vault, changeset(create("concepts/Kept.md", page("Kept"))))
    apply_changeset(vault, changeset(create("concepts/Undone.md", page("Undone"))))
    assert _stored_record_len(vault, "index.md") == 0
    vault.close()
    again = Vault.open(git_vault)  # the deferred record, stored, is made when first read
    fresh = _fresh(git_vault)
    assert _answers(again, "index.md") == _answers(fresh, "index.md")
    fresh.close()
    undo_last(again)
    fresh = _fresh(git_vault)
    assert "concepts/Undone.md" not in again.linking_to("concepts/Undone.md")
    assert _answers(again, "index.md") == _answers(fresh, "index.md")
    fresh.close()
    again.close()


def _ls_tree(root: Path) -> frozenset[str]:
    return frozenset(git(root, "ls-tree", "-r", "-z", "--name-only", "HEAD").split("\0")) - {""}


def test_the_committed_file_set_follows_each_accept_without_ls_tree(plain_vault: Path, monkeypatch):
    """The catalog lists the pages of the commit it goes into: the set of HEAD's files, read
    once and then carried from commit to commit, equals git's at every step, outside commits,
    the person's own edits and undo included."""
    from wiki_tui.changes import gitops

    rng = random.Random(8)
    vault = Vault.open(plain_vault, use_cache=False)
    reads = []
    real = gitops.GitRepo.head_files
    monkeypatch.setattr(gitops.GitRepo, "head_files", lambda self, rev="HEAD": reads.append(rev) or real(self, rev))
    for n in range(8):
        apply_changeset(vault, _random_change(rng, plain_vault, vault, n))
        assert gitops.committed_files(plain_vault) == _ls_tree(plain_vault), n
        if n == 3:  # the person commits a note of their own from a terminal
            (plain_vault / "concepts" / "Mine.md").write_text(page("Mine"), encoding="utf-8")
            git(plain_vault, "add", "concepts/Mine.md")
            git(plain_vault, "commit", "-q", "-m", "mine")
            vault.refresh_file("concepts/Mine.md")
        if n == 5:  # an edit of theirs, uncommitted, to a page the next change touches
            target = sorted(p for p in vault.pages if p.startswith("entities/"))[0]
            (plain_vault / target).write_text(page("Edited by hand"), encoding="utf-8")
            vault.refresh_file(target)
    assert len(reads) <= 4  # the first read, after the outside commit, after the hand edit
    undo_last(vault)
    assert gitops.committed_files(plain_vault) == _ls_tree(plain_vault)
    vault.close()


def test_a_changed_catalog_setting_keeps_both_files_exact(plain_vault: Path):
    """`catalog:` moves the catalog to wiki-index.md by an accepted change of AGENTS.md: the
    next accepts adjust the new catalog, and index.md, now an ordinary page, is as a full
    re-index reads it; moving it back too."""
    vault = Vault.open(plain_vault, use_cache=False)
    apply_changeset(vault, changeset(create("concepts/One.md", page("One"))))
    apply_changeset(vault, changeset(create("concepts/Two.md", page("Two"))))
    assert _stored_record_len(vault, "index.md") == 0
    schema = "---\ntypes:\n  concept: concepts\n  entity: entities\n  source: sources\ncatalog: {}\n---\n# Rules\n"
    for n, (catalog, other) in enumerate([("wiki-index.md", "index.md"), ("index.md", "wiki-index.md")]):
        change = (modify(plain_vault, "AGENTS.md", schema.format(catalog)) if (plain_vault / "AGENTS.md").exists()
                  else create("AGENTS.md", schema.format(catalog)))
        apply_changeset(vault, changeset(change, title=f"move the catalog {n}"))
        assert vault.catalog == catalog
        for k in range(2):
            apply_changeset(vault, changeset(create(f"concepts/After {n} {k}.md", page(f"After {n} {k}"))))
        fresh = _fresh(plain_vault)
        assert fresh.catalog == catalog
        for path in (catalog, other):
            if path in fresh.pages:
                assert _answers(vault, path) == _answers(fresh, path), (n, path)
        fresh.close()
    vault.close()
