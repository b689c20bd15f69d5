"""`wiki-tui init DIR` on an existing folder of notes: adopts it without changing a note, on
real folders and real git repositories."""

from __future__ import annotations

import hashlib
import json
import subprocess

import pytest

from tests.conftest import git, write_files
from wiki_tui.changes.apply.adopt import adopt_folder
from wiki_tui.cli import main
from wiki_tui.vault import Vault, VaultError

NOTES = {
    ".obsidian/app.json": "{}",
    "Home.md": "# Home\nSee [[Projects/Alpha]], [[Beta]], [[Idea one]] and [[Nowhere]].\n",
    "Projects/Alpha.md": "---\ntype: project\ntags: [work]\n---\n[[Home]]\n",
    "Projects/Beta.md": "---\ntype: project\n---\n[[Home]]\n",
    "Ideas/Idea one.md": "---\ntype: note\n---\n[[Home]]\n",
    "Journal/2024-01-01.md": "---\ntype: note\ncreated: 2024-01-01\n---\n[[Home]]\n",
    "Bad YAML.md": "---\ntitle: [unclosed\n---\n[[Home]]\n",
    "a/Same.md": "[[Home]]\n",
    "b/Same.md": "[[Home]]\n",
    "picture.png": b"\x89PNG",
}


def make_notes(root, files=NOTES):
    return write_files(root, files)


def fingerprint(root):
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}


def test_adopts_without_changing_a_note(tmp_path):
    root = make_notes(tmp_path / "vault")
    before = fingerprint(root)
    result = adopt_folder(root, date="2026-11-25")
    after = fingerprint(root)
    assert {p: h for p, h in after.items() if p in before} == before  # every note byte for byte
    assert sorted(result.added) == [".gitignore", "AGENTS.md", "index.md", "log.md", "raw/.gitkeep"]
    assert result.pages == 8 and result.kept == [] and result.repository == "created"
    agents = (root / "AGENTS.md").read_text()
    assert "DRAFT" in agents and "required_fields: []" in agents
    vault = Vault.open(root, use_cache=False)
    try:
        # project pages all sit in Projects/: declared there; note pages are in two folders: any folder
        assert vault.schema.types["project"] == "Projects" and vault.schema.types["note"] == ""
        assert vault.schema.required_fields == []
        index = (root / "index.md").read_text()
        assert "[[Projects/Alpha|Alpha]]" in index and "## Projects" in index and "## Note" in index
        assert (root / "log.md").read_text().startswith("# Log\n\n## [2026-11-25] init | adopted 8 existing pages\n")
        codes = {f.code for f in vault.lint()}
    finally:
        vault.close()
    # what an Obsidian user acts on, and the four notes nothing links to
    assert result.findings == {"broken-link": 1, "page-warning": 1, "duplicate-name": 2, "orphan": 4}
    assert codes == set(result.findings)  # no schema findings, nothing index.md lacks
    committed = git(root, "show", "--name-only", "--format=", "HEAD").split()
    assert sorted(committed) == sorted(result.added)
    # a new repository: the notes as found first, in a commit of their own (hidden folders aside)
    assert git(root, "log", "--format=%s").splitlines() == [
        "Adopt the notes here as a wiki-tui vault", "notes as found before wiki-tui init"]
    notes = git(root, "show", "--name-only", "--format=", "HEAD~1").splitlines()
    assert sorted(notes) == sorted(p for p in before if not p.startswith(".obsidian/"))
    assert result.notes_committed == len(notes) == 9
    assert git(root, "status", "--porcelain") == "?? .obsidian/\n"


def test_reuses_a_repository_and_commits_only_its_files(tmp_path):
    root = make_notes(tmp_path / "vault")
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.email", "t@example.invalid")
    git(root, "config", "user.name", "t")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "my notes")
    (root / "Home.md").write_text("an edit of mine, not committed\n")
    (root / "index.md").write_text("# My own start page\n[[Home]]\n")
    (root / "Later.md").write_text("a note not committed yet\n")
    result = adopt_folder(root)
    assert result.repository == "reused" and result.kept == [] and result.home_page == "index.md"
    assert (root / "index.md").read_text() == "# My own start page\n[[Home]]\n"
    # the home page stays a page; the catalog went to wiki-index.md, listing what git has
    assert "catalog: wiki-index.md" in (root / "AGENTS.md").read_text()
    catalog = (root / "wiki-index.md").read_text()
    assert "[[Home|Home]]" in catalog and "Later" not in catalog and "[[index" not in catalog
    assert not {"index-hand-written", "index-stale"} & set(result.findings)
    # the two pages git does not have yet (the home page, a new note) are all the catalog lacks
    vault = Vault.open(root, use_cache=False)
    try:
        missing = sorted(f.path for f in vault.lint() if f.code == "index-missing")
    finally:
        vault.close()
    assert missing == ["Later.md", "index.md"]
    assert git(root, "log", "--format=%s").splitlines() == [
        "Adopt the notes here as a wiki-tui vault", "my notes"]
    status = git(root, "status", "--porcelain")
    assert " M Home.md" in status and "?? index.md" in status  # the person's work stays theirs
    assert "- created: [[AGENTS|Vault schema (draft)]], [[wiki-index|Index]]\n" in (root / "log.md").read_text()


def test_refuses_a_folder_that_is_already_a_vault(tmp_path):
    root = make_notes(tmp_path / "vault", {"AGENTS.md": "rules\n", "Note.md": "x\n"})
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    before = fingerprint(root)
    with pytest.raises(VaultError, match="already holds a vault"):
        adopt_folder(root)
    assert fingerprint(root) == before


def test_a_schema_without_a_repository_is_adopted_and_kept(tmp_path, capsys):
    """What ingest advises (`git init` or `wiki-tui init`) works: init keeps the AGENTS.md."""
    schema = "---\ntypes:\n  concept: ideas\n---\n# My rules\n"
    root = make_notes(tmp_path / "vault", {"AGENTS.md": schema, "ideas/Note.md": "---\ntype: concept\n---\nx\n"})
    assert main(["init", str(root)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Kept your own AGENTS.md as it was" in out and "draft" not in out
    assert (root / "AGENTS.md").read_text() == schema
    assert "## Ideas" in (root / "index.md").read_text()
    assert (root / ".git").is_dir() and (root / "log.md").is_file()


def test_cli_init_adopts_and_reports(tmp_path, capsys):
    root = make_notes(tmp_path / "vault")
    assert main(["lint", "--vault", str(root)]) == 1  # .obsidian/ makes it a vault; a broken link
    assert "missing-field" not in capsys.readouterr().out
    assert not (root / ".wiki-tui").exists()  # read, not written: its cache is in ~/.cache
    assert main(["init", str(root)]) == 0
    out = capsys.readouterr().out
    assert "Adopted" in out and "8 notes, none changed" in out and "draft" in out
    assert "Added: AGENTS.md, index.md, log.md, raw/.gitkeep, .gitignore." in out
    assert "Lint: 8 findings (orphan 4, duplicate-name 2, broken-link 1, page-warning 1)" in out
    assert main(["init", str(root)]) == 2
    assert "already holds a vault" in capsys.readouterr().err
    other = make_notes(tmp_path / "other", {"Only.md": "[[Gone]]\n"})
    assert main(["init", str(other), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["adopted"] and data["pages"] == 1 and data["lint"] == {"broken-link": 1, "orphan": 1}


def test_the_draft_states_odd_type_and_folder_names_as_they_are(tmp_path):
    from wiki_tui.vault.adopt import draft_agents_md, infer_conventions
    from wiki_tui.vault.parse.schema import parse_schema

    odd = {"Über Notes/A.md": "---\ntype: 'yes'\n---\n", "x#y: z/B.md": "---\ntype: 'a: b #c'\n---\n",
           "C.md": "---\ntype: '2024'\n---\n", "D/E.md": "---\ntype: '2024'\n---\n"}
    vault = Vault.open(make_notes(tmp_path / "v", odd), use_cache=False)
    try:
        schema = parse_schema(draft_agents_md(infer_conventions(vault)))
    finally:
        vault.close()
    assert not schema.warnings
    assert {k: schema.types[k] for k in ("yes", "a: b #c", "2024")} == {
        "yes": "Über Notes", "a: b #c": "x#y: z", "2024": ""}


def test_a_gitignore_of_the_persons_own_is_appended_to_not_added(tmp_path, capsys):
    root = make_notes(tmp_path / "vault", {"Note.md": "x\n", ".gitignore": "*.tmp"})
    assert main(["init", str(root)]) == 0
    out = capsys.readouterr().out
    assert "Added: AGENTS.md, index.md, log.md, raw/.gitkeep." in out
    assert "Appended `.wiki-tui/` to your .gitignore" in out
    assert (root / ".gitignore").read_text(encoding="utf-8") == "*.tmp\n.wiki-tui/\n"
    committed = git(root, "show", "--name-only", "--format=", "HEAD").split()
    assert ".gitignore" in committed  # the line init added is committed with its files


def _catalog_targets(text):
    return [line.split("[[", 1)[1].split("|", 1)[0] for line in text.splitlines() if line.startswith("- [[")]


def _assert_catalog_matches_a_clone(root, tmp_path, catalog):
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(root), str(clone)], check=True, capture_output=True)
    targets = _catalog_targets((clone / catalog).read_text())
    assert targets and all((clone / f"{t}.md").is_file() for t in targets)  # no entry for a missing page
    pages = {p.relative_to(clone).as_posix()[:-3] for p in clone.rglob("*.md")
             if ".git" not in p.parts and p.name not in (catalog, "log.md", "AGENTS.md")}
    assert set(targets) == pages  # and every page of the commit is listed
    return targets


def test_init_keeps_a_home_page_and_puts_the_catalog_elsewhere(tmp_path, capsys):
    home = "# Start here\n\nMy map: [[Home]], [[Projects/Alpha]].\n"
    root = make_notes(tmp_path / "vault", {**NOTES, "index.md": home})
    assert main(["init", str(root)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Kept your own index.md as your home page" in out and "`catalog: wiki-index.md`" in out
    assert "Made a git repository: your 10 files as found first" in out
    assert (root / "index.md").read_text() == home
    agents = (root / "AGENTS.md").read_text()
    assert "catalog: wiki-index.md" in agents and "`wiki-index.md` is generated" in agents
    vault = Vault.open(root, use_cache=False)
    try:
        assert vault.schema.catalog == "wiki-index.md" and not vault.schema.warnings
        assert not {f.code for f in vault.lint()} & {"index-hand-written", "index-missing", "index-stale"}
    finally:
        vault.close()
    targets = _assert_catalog_matches_a_clone(root, tmp_path, "wiki-index.md")
    assert "index" in targets  # the home page is a page of the wiki, listed like any other
    assert git(root, "status", "--porcelain") == "?? .obsidian/\n"


def test_init_adds_the_setting_to_a_schema_of_the_persons_own(tmp_path, capsys):
    schema = "---\ntypes:\n  concept: ideas\n---\n# My rules\n"
    root = make_notes(tmp_path / "vault", {"AGENTS.md": schema, "index.md": "# Home\nmine\n",
                                           "ideas/Note.md": "---\ntype: concept\n---\nx\n"})
    result = adopt_folder(root)
    assert result.updated[0] == "AGENTS.md" and result.home_page == "index.md"
    # the person's schema as found, then one line added by init's own commit
    diff = git(root, "diff", "HEAD~1", "HEAD", "--", "AGENTS.md")
    assert [line for line in diff.splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")] == [
        "+catalog: wiki-index.md"]
    assert (root / "index.md").read_text() == "# Home\nmine\n"
    assert "## Ideas" in (root / "wiki-index.md").read_text()


def test_init_in_a_new_repository_commits_a_catalog_a_clone_can_follow(tmp_path):
    root = make_notes(tmp_path / "vault", {**NOTES, ".gitignore": "private/\n",
                                           "private/Secret.md": "---\ntype: note\n---\nmine\n"})
    result = adopt_folder(root)
    assert result.repository == "created" and "index.md" in result.added
    targets = _assert_catalog_matches_a_clone(root, tmp_path, "index.md")
    assert "private/Secret" not in targets  # ignored by git: not committed, so not listed
    assert (root / "private/Secret.md").is_file()
