"""Lint on an Obsidian vault wiki-tui did not make: no schema noise where AGENTS.md declares
nothing, and duplicate-name only where two pages compete for one link target."""

from __future__ import annotations

from wiki_tui.vault import Vault

from .test_index import write

SCHEMA_CODES = {"missing-field", "unknown-type", "wrong-folder", "schema-warning"}

OBSIDIAN = {
    ".obsidian/app.json": "{}",
    "Home.md": "Start at [[Projects/Plan]], [[Daily]] and [[Nowhere]].\n",
    "Projects/Plan.md": "---\ntype: project\ntags: [work]\n---\n# Plan\nSee [[Home]].\n",
    "Daily.md": "no frontmatter at all, links [[Home]]\n",
    "Broken.md": "---\ntitle: [unclosed\n---\n[[Home]]\n",
    "Notes/Meeting.md": "---\ntitle: Meeting\naliases: [Sync]\n---\n[[Home]]\n",
    "Work/Meeting notes.md": "---\ntitle: Meeting\naliases: [Sync]\n---\n[[Home]]\n",  # same title, alias
}


def _codes(vault):
    return sorted({f.code for f in vault.lint()})


def test_no_agents_md_means_no_schema_findings(tmp_path):
    vault = Vault.open(write(tmp_path / "v", OBSIDIAN), use_cache=False)
    try:
        findings = vault.lint()
    finally:
        vault.close()
    assert not {f.code for f in findings} & SCHEMA_CODES  # 'project' type, no title: fine
    assert [(f.code, f.path) for f in findings if f.severity == "error"] == [("broken-link", "Home.md")]
    assert ("page-warning", "Broken.md") in {(f.code, f.path) for f in findings}  # invalid YAML
    # Two pages titled "Meeting" with one alias: titles and aliases are no link targets.
    assert "duplicate-name" not in {f.code for f in findings}


def test_an_index_md_of_the_persons_own_is_no_catalog_without_agents_md(tmp_path):
    files = {**OBSIDIAN, "index.md": "# My start page\n[[Home]] [[Gone]]\n"}
    vault = Vault.open(write(tmp_path / "v", files), use_cache=False)
    found = {(f.code, f.path) for f in vault.lint()}
    vault.close()
    assert not {code for code, _ in found} & {"index-missing", "index-stale"}
    assert ("broken-link", "index.md") in found  # its links are checked like any page's


def test_agents_md_that_declares_no_fields_adds_no_schema_findings(tmp_path):
    prose = {**OBSIDIAN, "AGENTS.md": "# Notes for agents\n\nBe kind to the notes.\n"}
    vault = Vault.open(write(tmp_path / "prose", prose), use_cache=False)
    assert vault.schema.found and vault.schema.required_fields == []
    assert not set(_codes(vault)) & SCHEMA_CODES  # no "has no frontmatter" warning either
    vault.close()
    no_fields = {**OBSIDIAN, "AGENTS.md": "---\ntypes_note: none\n---\nrules\n"}
    vault = Vault.open(write(tmp_path / "empty", no_fields), use_cache=False)
    assert not set(_codes(vault)) & SCHEMA_CODES
    vault.close()


def test_declared_fields_and_types_are_still_checked(tmp_path):
    declared = {**OBSIDIAN, "AGENTS.md": "---\nrequired_fields: [summary]\ntypes:\n  project: Projects\n"
                                         "  note: Notes\n---\n"}
    vault = Vault.open(write(tmp_path / "v", declared), use_cache=False)
    findings = vault.lint()
    vault.close()
    missing = {f.path for f in findings if f.code == "missing-field"}
    assert missing == {"Home.md", "Projects/Plan.md", "Daily.md", "Broken.md", "Notes/Meeting.md",
                       "Work/Meeting notes.md"}
    declared["Daily.md"] = "---\ntype: gizmo\nsummary: s\n---\n"
    vault = Vault.open(write(tmp_path / "v", declared), use_cache=False)
    assert ("unknown-type", "Daily.md") in {(f.code, f.path) for f in vault.lint()}
    vault.close()


def _duplicates(tmp_path, files):
    vault = Vault.open(write(tmp_path, {"Home.md": "x\n", **files}), use_cache=False)
    try:
        return sorted((f.path, f.suggestion) for f in vault.lint() if f.code == "duplicate-name")
    finally:
        vault.close()


def test_same_name_with_equal_paths_competes(tmp_path):
    found = _duplicates(tmp_path, {"a/Note.md": "x", "b/Note.md": "x", "c/Other.md": "[[Note]]"})
    assert found == [("a/Note.md", "[[a/Note]]"), ("b/Note.md", "[[b/Note]]")]


def test_names_differing_only_in_case_compete(tmp_path):
    found = _duplicates(tmp_path, {"a/Topic.md": "x", "a/topic.md": "x"})
    assert [path for path, _ in found] == ["a/Topic.md", "a/topic.md"]


def test_same_name_that_obsidian_resolves_uniquely_is_no_clash(tmp_path):
    # The root page wins a bare [[Note]] from everywhere; otherwise the shortest path does.
    assert _duplicates(tmp_path / "root", {"Note.md": "x", "sub/Note.md": "x", "zz/Note.md": "x"}) == []
    files = {"ab/Idea.md": "x", "longer/Idea.md": "x", "c/Link.md": "[[Idea]]"}
    assert _duplicates(tmp_path / "short", files) == []
    vault = Vault.open(tmp_path / "short", use_cache=False)
    ambiguous = [f for f in vault.lint() if f.code == "ambiguous-link"]  # the link itself is flagged
    vault.close()
    assert [(f.path, f.severity) for f in ambiguous] == [("c/Link.md", "info")]
