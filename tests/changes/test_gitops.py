"""The git helpers, against real repositories."""

from __future__ import annotations

from pathlib import Path

from tests.changes.journal_support import git
from wiki_tui.changes.gitops import GitRepo, commit_message, parse_trailers


def test_not_a_repository(tmp_path: Path):
    assert GitRepo.open(tmp_path) is None


def test_message_and_trailers_round_trip():
    message = commit_message("ingest", "A  title\nwith newline", "openai/gpt-4o-mini")
    assert message == ("ingest: A title with newline\n\nWiki-Tui-Changeset: ingest\n"
                       "Model: openai/gpt-4o-mini\n")
    assert parse_trailers(message) == {"Wiki-Tui-Changeset": "ingest", "Model": "openai/gpt-4o-mini"}
    assert parse_trailers("just a subject") == {}


def test_commit_only_the_given_paths_and_report_changes(git_vault: Path):
    with GitRepo.open(git_vault) as repo:
        first = repo.head()
        (git_vault / "new page.md").write_text("n\n")
        (git_vault / "other.md").write_text("o\n")
        assert repo.index_entries(["new page.md", "log.md"]).keys() == {"log.md"}
        repo.add(["new page.md"])
        sha = repo.commit("m: t\n", ["new page.md"])
        assert sha == repo.head() != first
        assert repo.changed_files(sha) == [("A", "new page.md", None)]
        assert repo.dirty(["new page.md", "other.md"]) == ["other.md"]
        assert repo.changed_between(first, sha, ["new page.md", "log.md"]) == ["new page.md"]
        assert repo.blob(sha, "new page.md") == b"n\n"
        assert repo.blob(first, "new page.md") is None
        git(git_vault, "mv", "new page.md", "renamed.md")
        sha2 = repo.commit("m: r\n", ["new page.md", "renamed.md"])
        assert repo.changed_files(sha2) == [("R", "renamed.md", "new page.md")]


def test_restore_index_undoes_an_add(git_vault: Path):
    (git_vault / "a.md").write_text("a\n")
    (git_vault / "log.md").write_text("changed\n")
    with GitRepo.open(git_vault) as repo:
        before = repo.index_entries(["a.md", "log.md"])
        listing = git(git_vault, "ls-files", "-s")
        repo.add(["a.md", "log.md"])
        assert git(git_vault, "ls-files", "-s") != listing
        repo.restore_index(before, ["a.md", "log.md"])
        assert git(git_vault, "ls-files", "-s") == listing


def test_unborn_branch(tmp_path: Path):
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "config", "user.email", "t@example.invalid")
    git(tmp_path, "config", "user.name", "t")
    (tmp_path / "a.md").write_text("a\n")
    with GitRepo.open(tmp_path) as repo:
        assert repo.head() is None
        repo.add(["a.md"])
        sha = repo.commit("x: y\n", ["a.md"])
        assert repo.parents(sha) == [] and repo.changed_files(sha) == [("A", "a.md", None)]
