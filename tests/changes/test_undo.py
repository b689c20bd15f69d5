"""undo_last: reverts wiki-tui's last changeset with a new commit, or refuses with a reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.changes.journal_support import (changeset, create, disk_state, full_state, git, head,
                                           modify, open_vault, page, read, rename,
                                           three_file_changeset)
from wiki_tui.changes.apply.journal import UndoError, apply_changeset, undo_last

DEAD = "concepts/Dead reckoning.md"
SCILLY = "entities/Scilly naval disaster of 1707.md"


def _pages_state(root: Path) -> dict[str, str]:
    return {k: v for k, v in disk_state(root).items() if k not in ("log.md",)}


def test_undo_reverts_exactly_the_changeset(git_vault: Path):
    vault = open_vault(git_vault)
    before = _pages_state(git_vault)
    applied = apply_changeset(vault, three_file_changeset(git_vault), date="2026-11-22")
    log_after_apply = read(git_vault, "log.md")

    result = undo_last(vault, date="2026-11-23")
    assert result.reverted == applied.commit and result.commit == head(git_vault)
    assert result.title == "Test change"
    assert sorted(result.restored) == sorted([DEAD, SCILLY])
    assert result.removed == ["concepts/Gnomon.md"]
    # Pages and index.md are as before the apply (the emptied new folder aside).
    assert _pages_state(git_vault) == before
    # log.md only grew: the apply entry stays, an undo entry follows.
    log = read(git_vault, "log.md")
    assert log.startswith(log_after_apply)
    assert log[len(log_after_apply):] == "\n" + result.log_entry
    assert result.log_entry.startswith("## [2026-11-23] undo | Test change\n")
    assert "- deleted: concepts/Gnomon.md" in result.log_entry
    assert "- created: [[entities/Scilly naval disaster of 1707|" in result.log_entry
    message = git(git_vault, "log", "-1", "--format=%B")
    assert message.startswith("undo: Test change\n")
    assert "Wiki-Tui-Changeset: undo" in message and f"Wiki-Tui-Reverts: {applied.commit}" in message
    assert git(git_vault, "status", "--porcelain") == ""
    assert "concepts/Gnomon.md" not in vault.pages and SCILLY in vault.pages


def test_undo_twice_walks_back_through_changesets(git_vault: Path):
    vault = open_vault(git_vault)
    apply_changeset(vault, changeset(create("concepts/A.md", page("A")), title="first"))
    apply_changeset(vault, changeset(create("concepts/B.md", page("B")), title="second"))
    assert undo_last(vault).title == "second"
    assert undo_last(vault).title == "first"
    assert not (git_vault / "concepts/A.md").exists() and not (git_vault / "concepts/B.md").exists()
    with pytest.raises(UndoError, match="nothing left to undo"):
        undo_last(vault)


def test_undo_a_rename(git_vault: Path):
    vault = open_vault(git_vault)
    h4 = read(git_vault, "entities/H4.md")
    apply_changeset(vault, changeset(rename(git_vault, "entities/H4.md", "entities/H4 watch.md")))
    result = undo_last(vault)
    assert read(git_vault, "entities/H4.md") == h4 and not (git_vault / "entities/H4 watch.md").exists()
    assert "- renamed: [[entities/H4 watch]] → [[entities/H4]]" in result.log_entry


def test_refused_when_last_commit_is_not_ours(git_vault: Path):
    with pytest.raises(UndoError, match="not made by wiki-tui"):
        undo_last(open_vault(git_vault))
    vault = open_vault(git_vault)
    apply_changeset(vault, changeset(create("concepts/A.md", page("A"))))
    (git_vault / "notes.md").write_text("mine\n")
    git(git_vault, "add", "notes.md")
    git(git_vault, "commit", "-qm", "my own commit")
    before = full_state(git_vault)
    with pytest.raises(UndoError, match="my own commit") as info:
        undo_last(vault)
    assert "not made by wiki-tui" in info.value.reason
    assert full_state(git_vault) == before


def test_refused_when_a_file_is_dirty(git_vault: Path):
    vault = open_vault(git_vault)
    apply_changeset(vault, three_file_changeset(git_vault))
    (git_vault / DEAD).write_text(read(git_vault, DEAD) + "person's edit\n")
    before = full_state(git_vault)
    with pytest.raises(UndoError, match="uncommitted changes"):
        undo_last(vault)
    assert full_state(git_vault) == before


def test_refused_when_a_staged_change_touches_its_files(git_vault: Path):
    vault = open_vault(git_vault)
    apply_changeset(vault, three_file_changeset(git_vault))
    (git_vault / "concepts/Gnomon.md").write_text("staged rewrite\n")
    git(git_vault, "add", "concepts/Gnomon.md")
    before = full_state(git_vault)
    with pytest.raises(UndoError, match="concepts/Gnomon.md"):
        undo_last(vault)
    assert full_state(git_vault) == before


def test_refused_when_a_deleted_file_is_back_untracked(git_vault: Path):
    vault = open_vault(git_vault)
    apply_changeset(vault, three_file_changeset(git_vault))
    (git_vault / SCILLY).write_text("recreated by hand\n")
    with pytest.raises(UndoError, match="in the way|uncommitted"):
        undo_last(vault)
    assert read(git_vault, SCILLY) == "recreated by hand\n"


def test_refused_when_a_person_committed_on_top(git_vault: Path):
    vault = open_vault(git_vault)
    apply_changeset(vault, changeset(create("concepts/A.md", page("A")), title="first"))
    apply_changeset(vault, changeset(modify(git_vault, "concepts/A.md", page("A", "Changed.")),
                                     title="second"))
    assert undo_last(vault).title == "second"
    (git_vault / "concepts/A.md").write_text(page("A", "Person."))
    git(git_vault, "commit", "-qam", "person edits A")
    before = full_state(git_vault)
    with pytest.raises(UndoError, match="person edits A"):
        undo_last(vault)
    assert full_state(git_vault) == before


def test_refused_without_git(sample_vault: Path):
    vault = open_vault(sample_vault)
    apply_changeset(vault, changeset(create("concepts/A.md", page("A"))))
    before = disk_state(sample_vault)
    with pytest.raises(UndoError, match="not a git repository"):
        undo_last(vault)
    assert disk_state(sample_vault) == before


def test_refused_on_an_empty_repository(sample_vault: Path):
    git(sample_vault, "init", "-q", "-b", "main")
    with pytest.raises(UndoError, match="no commits"):
        undo_last(open_vault(sample_vault))


def test_undo_is_scoped_to_its_files(git_vault: Path):
    vault = open_vault(git_vault)
    apply_changeset(vault, three_file_changeset(git_vault))
    other = "entities/James Cook.md"
    (git_vault / other).write_text(read(git_vault, other) + "unrelated unstaged work\n")
    (git_vault / "scratch.md").write_text("untracked\n")
    undo_last(vault)
    assert read(git_vault, other).endswith("unrelated unstaged work\n")
    assert git(git_vault, "status", "--porcelain", "-uall") == f' M "{other}"\n?? scratch.md\n'
    assert other not in git(git_vault, "show", "--name-only", "--format=", "HEAD")


def test_results_read_as_sentences(git_vault: Path):
    vault = open_vault(git_vault)
    applied = apply_changeset(vault, three_file_changeset(git_vault))
    assert str(applied).startswith("applied: 2 written, 1 deleted, commit ")
    text = str(undo_last(vault))
    assert text.startswith("undid “Test change” (") and "removed concepts/Gnomon.md" in text


def test_undo_removes_folders_the_change_created(git_vault: Path):
    vault = open_vault(git_vault)
    before = disk_state(git_vault)
    apply_changeset(vault, changeset(create("topics/deep/New.md", page("New"))))
    undo_last(vault)
    after = disk_state(git_vault)
    assert {k: v for k, v in after.items() if k != "log.md"} == \
        {k: v for k, v in before.items() if k != "log.md"}
