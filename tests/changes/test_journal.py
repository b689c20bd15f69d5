"""apply_changeset against real files and real git: what is written, logged, indexed, committed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.changes.journal_support import (changeset, create, disk_state, full_state, git, head,
                                           modify, open_vault, page, read, rename,
                                           three_file_changeset)
from wiki_tui.changes.apply.atomic import BOM, FileFormat, decode, encode
from wiki_tui.changes.apply.journal import (ApplyError, apply_changeset, check_conflicts,
                                            rebase_conflict)
from wiki_tui.changes.model import ACCEPTED, CONFLICT, MODIFY, REJECTED, FileChange
from wiki_tui.changes.apply.transaction import journal_path

DEAD = "concepts/Dead reckoning.md"
H4 = "entities/H4.md"


def test_apply_writes_logs_indexes_and_commits_exactly_the_changeset(git_vault: Path):
    vault = open_vault(git_vault)
    before = head(git_vault)
    cs = three_file_changeset(git_vault)
    result = apply_changeset(vault, cs, date="2026-11-22")

    assert result.created == ["concepts/Gnomon.md"]
    assert result.updated == [DEAD]
    assert result.deleted == ["entities/Scilly naval disaster of 1707.md"]
    assert result.commit == head(git_vault) != before
    assert result.notice is None
    assert read(git_vault, "concepts/Gnomon.md") == cs.files[0].proposed_text
    assert read(git_vault, DEAD).endswith("A new closing line.\n")
    assert not (git_vault / "entities/Scilly naval disaster of 1707.md").exists()

    committed = git(git_vault, "show", "--name-status", "--format=", "HEAD").split("\n")
    assert sorted(filter(None, committed)) == sorted([
        "A\tconcepts/Gnomon.md", f"M\t{DEAD}", "D\tentities/Scilly naval disaster of 1707.md",
        "M\tindex.md", "M\tlog.md"])
    message = git(git_vault, "log", "-1", "--format=%B")
    assert message.startswith("ingest: Test change\n\n")
    assert "Wiki-Tui-Changeset: ingest" in message and "Model: test/model" in message
    assert git(git_vault, "status", "--porcelain") == ""

    log = read(git_vault, "log.md")
    assert log.endswith(
        "\n\n## [2026-11-22] ingest | Test change\n"
        "- created: [[concepts/Gnomon|Gnomon]]\n"
        "- updated: [[concepts/Dead reckoning|Dead reckoning]]\n"
        "- deleted: entities/Scilly naval disaster of 1707.md\n")
    assert result.log_entry in log
    index = read(git_vault, "index.md")
    assert "- [[concepts/Gnomon|Gnomon]] — A test page.\n" in index
    assert "Scilly naval disaster of 1707" not in index  # (a deck's summary names "the Scilly disaster")
    # The vault's own index followed the writes.
    assert "concepts/Gnomon.md" in vault.pages
    assert "entities/Scilly naval disaster of 1707.md" not in vault.pages
    assert not journal_path(git_vault).exists()


def test_conflict_skips_only_that_file_and_can_be_rebased(git_vault: Path):
    vault = open_vault(git_vault)
    h4_base = read(git_vault, H4)
    cs = changeset(
        modify(git_vault, H4, h4_base.replace("\n", "\nModel line.\n", 1)),
        create("concepts/Gnomon.md", page("Gnomon")),
    )
    # Someone edits H4 on disk (Obsidian beside us) after the proposal.
    lines = h4_base.splitlines(keepends=True)
    lines[-1] = lines[-1].rstrip("\n") + " (edited on disk)\n"
    (git_vault / H4).write_text("".join(lines), encoding="utf-8")

    result = apply_changeset(vault, cs, date="2026-11-22")
    assert result.conflicts == [H4]
    assert cs.files[0].status == CONFLICT and "changed on disk" in cs.files[0].conflict
    assert read(git_vault, H4) == "".join(lines)  # not overwritten
    assert result.created == ["concepts/Gnomon.md"]
    assert "not written (changed on disk): entities/H4.md" in result.log_entry
    assert "changed on disk" in result.notice
    assert git(git_vault, "status", "--porcelain") == f" M {H4}\n"  # theirs stays theirs, uncommitted

    fresh = rebase_conflict(vault, cs.files[0])
    assert fresh.kind == MODIFY and fresh.base_text == "".join(lines)
    assert fresh.status != CONFLICT  # the edits do not overlap: a clean merge
    assert "Model line." in fresh.proposed_text and "(edited on disk)" in fresh.proposed_text
    fresh.accept()
    result2 = apply_changeset(vault, changeset(fresh, title="rebased", accept=False))
    assert result2.updated == [H4] and result2.conflicts == []
    text = read(git_vault, H4)
    assert "Model line." in text and "(edited on disk)" in text


def test_rebase_marks_overlapping_edits(git_vault: Path):
    vault = open_vault(git_vault)
    base = read(git_vault, H4)
    last = base.splitlines(keepends=True)[-1]
    change = modify(git_vault, H4, base.replace(last, "The model's ending.\n"))
    (git_vault / H4).write_text(base.replace(last, "The person's ending.\n"), encoding="utf-8")
    assert check_conflicts(vault, changeset(change)) == [change]
    fresh = rebase_conflict(vault, change)
    assert fresh.status == CONFLICT and "overlap" in fresh.conflict
    assert ("<<<<<<< on disk\nThe person's ending.\n=======\nThe model's ending.\n"
            ">>>>>>> proposed\n") in fresh.proposed_text
    fresh.set_proposed(fresh.proposed_text.split("<<<<<<<")[0] + "Resolved.\n")
    assert fresh.status != CONFLICT


def test_created_file_that_appeared_on_disk_is_a_conflict(git_vault: Path):
    vault = open_vault(git_vault)
    cs = changeset(create("concepts/Gnomon.md", page("Gnomon")))
    (git_vault / "concepts/Gnomon.md").write_text("mine\n", encoding="utf-8")
    result = apply_changeset(vault, cs)
    assert result.conflicts == ["concepts/Gnomon.md"] and not result.applied
    assert "Nothing applied" in result.notice
    assert read(git_vault, "concepts/Gnomon.md") == "mine\n"
    fresh = rebase_conflict(vault, cs.files[0])
    assert fresh.kind == MODIFY and fresh.base_text == "mine\n"


def test_abort_on_conflict_writes_nothing(git_vault: Path):
    vault = open_vault(git_vault)
    cs = changeset(modify(git_vault, H4, read(git_vault, H4) + "x\n"),
                   create("concepts/Gnomon.md", page("Gnomon")))
    (git_vault / H4).write_text("changed\n", encoding="utf-8")
    before = disk_state(git_vault)
    result = apply_changeset(vault, cs, abort_on_conflict=True)
    assert result.conflicts == [H4] and result.written == [] and result.commit is None
    assert disk_state(git_vault) == before


def test_dirty_tree_stays_exactly_as_it_was(git_vault: Path):
    vault = open_vault(git_vault)
    # Unrelated work of the person: an unstaged edit, a staged edit, a staged new file,
    # an untracked file.
    unstaged, staged = "entities/James Cook.md", "entities/Tobias Mayer.md"
    (git_vault / unstaged).write_text(read(git_vault, unstaged) + "unstaged work\n", encoding="utf-8")
    (git_vault / staged).write_text(read(git_vault, staged) + "staged work\n", encoding="utf-8")
    (git_vault / "notes-staged.md").write_text("staged new\n", encoding="utf-8")
    (git_vault / "scratch.txt").write_text("untracked\n", encoding="utf-8")
    git(git_vault, "add", staged, "notes-staged.md")
    status_before = git(git_vault, "status", "--porcelain=v1", "-uall")
    staged_diff = git(git_vault, "diff", "--cached")
    unstaged_diff = git(git_vault, "diff")

    result = apply_changeset(vault, three_file_changeset(git_vault))
    assert result.commit
    committed = git(git_vault, "show", "--name-only", "--format=", "HEAD").split()
    assert unstaged not in " ".join(committed) and staged not in " ".join(committed)
    assert "notes-staged.md" not in committed and "scratch.txt" not in committed
    assert git(git_vault, "status", "--porcelain=v1", "-uall") == status_before
    assert git(git_vault, "diff", "--cached") == staged_diff
    assert git(git_vault, "diff") == unstaged_diff


def test_partial_hunk_acceptance_writes_base_plus_accepted_hunks(git_vault: Path):
    vault = open_vault(git_vault)
    base = read(git_vault, H4)
    lines = base.splitlines(keepends=True)
    proposed = lines.copy()
    proposed.insert(len(lines) - 1, "Second hunk.\n")
    proposed.insert(len(lines) // 2, "First hunk.\n")
    change = FileChange(H4, MODIFY, base, "".join(proposed))
    assert len(change.hunks) == 2
    change.set_hunk(0, REJECTED)
    change.set_hunk(1, ACCEPTED)
    expected = lines.copy()
    expected.insert(len(lines) - 1, "Second hunk.\n")
    apply_changeset(vault, changeset(change, accept=False))
    assert read(git_vault, H4) == "".join(expected)


def test_rejected_and_pending_files_are_not_written_but_logged(git_vault: Path):
    vault = open_vault(git_vault)
    keep, drop, undecided = (create("concepts/A.md", page("A")), create("concepts/B.md", page("B")),
                             create("concepts/C.md", page("C")))
    keep.accept()
    drop.reject()
    result = apply_changeset(vault, changeset(keep, drop, undecided, accept=False))
    assert result.written == ["concepts/A.md"]
    assert not (git_vault / "concepts/B.md").exists() and not (git_vault / "concepts/C.md").exists()
    assert "- rejected: concepts/B.md, concepts/C.md\n" in result.log_entry


def test_nothing_accepted_writes_nothing(git_vault: Path):
    vault = open_vault(git_vault)
    before = (disk_state(git_vault), head(git_vault))
    cs = changeset(create("concepts/A.md", page("A")), accept=False)
    cs.reject_all()
    result = apply_changeset(vault, cs)
    assert not result.applied and result.commit is None and "nothing was accepted" in result.notice
    assert (disk_state(git_vault), head(git_vault)) == before


def test_rename_moves_the_file_and_logs_it(git_vault: Path):
    vault = open_vault(git_vault)
    old_text = read(git_vault, H4)
    result = apply_changeset(vault, changeset(rename(git_vault, H4, "entities/timekeepers/H4 watch.md")))
    assert result.renamed == [(H4, "entities/timekeepers/H4 watch.md")]
    assert not (git_vault / H4).exists()
    assert read(git_vault, "entities/timekeepers/H4 watch.md") == old_text
    assert "- renamed: [[entities/H4]] → [[entities/timekeepers/H4 watch]]" in result.log_entry
    names = git(git_vault, "show", "--name-status", "-M", "--format=", "HEAD")
    assert "entities/timekeepers/H4 watch.md" in names and git(git_vault, "status", "--porcelain") == ""


@pytest.mark.parametrize("prefix,newline", [(b"", b"\r\n"), (b"\xef\xbb\xbf", b"\n"),
                                            (b"\xef\xbb\xbf", b"\r\n")])
def test_newline_style_and_bom_are_kept(git_vault: Path, prefix: bytes, newline: bytes):
    raw = prefix + newline.join([b"---", b"title: Odd", b"type: concept", b"summary: s", b"---",
                                 b"", b"First line.", b"Caf\xc3\xa9 line.", b""])
    (git_vault / "concepts/Odd.md").write_bytes(raw)
    git(git_vault, "add", "concepts/Odd.md")
    git(git_vault, "commit", "-qm", "odd file")
    vault = open_vault(git_vault)
    base = raw.decode("utf-8")
    nl = newline.decode()
    change = FileChange("concepts/Odd.md", MODIFY, base, base.replace("First line." + nl,
                                                                       "First line." + nl + "Added." + nl))
    apply_changeset(vault, changeset(change))
    assert (git_vault / "concepts/Odd.md").read_bytes() == raw.replace(
        b"First line." + newline, b"First line." + newline + b"Added." + newline)


def test_lf_text_for_a_crlf_file_is_written_as_crlf(git_vault: Path):
    (git_vault / "concepts/Win.md").write_bytes(b"---\r\ntitle: Win\r\n---\r\nold\r\n")
    vault = open_vault(git_vault)
    change = FileChange("concepts/Win.md", MODIFY, "---\r\ntitle: Win\r\n---\r\nold\r\n",
                        "---\ntitle: Win\n---\nnew\n")
    apply_changeset(vault, changeset(change))
    assert (git_vault / "concepts/Win.md").read_bytes() == b"---\r\ntitle: Win\r\n---\r\nnew\r\n"


def test_vault_without_git_still_applies_with_a_notice(sample_vault: Path):
    vault = open_vault(sample_vault)
    result = apply_changeset(vault, three_file_changeset(sample_vault), date="2026-11-22")
    assert result.commit is None and result.created == ["concepts/Gnomon.md"]
    assert "not a git repository" in result.notice and "git init" in result.notice
    assert "wiki-tui init" in result.notice
    assert "## [2026-11-22] ingest | Test change" in read(sample_vault, "log.md")
    assert "[[concepts/Gnomon|Gnomon]]" in read(sample_vault, "index.md")
    assert not (sample_vault / ".git").exists()


def test_missing_log_md_is_created(git_vault: Path):
    (git_vault / "log.md").unlink()
    git(git_vault, "commit", "-qam", "no log")
    vault = open_vault(git_vault)
    result = apply_changeset(vault, changeset(create("concepts/A.md", page("A"))), date="2026-01-02")
    assert read(git_vault, "log.md") == "# Log\n\n" + result.log_entry
    assert "log.md" in git(git_vault, "show", "--name-only", "--format=", "HEAD")


def test_vault_in_a_subfolder_of_the_repository(tmp_path: Path, sample_vault: Path):
    repo = sample_vault.parent
    (repo / "other.txt").write_text("outside the vault\n")
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    git(repo, "config", "user.email", "t@example.invalid")
    git(repo, "config", "user.name", "t")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    (repo / "other.txt").write_text("changed outside\n")
    vault = open_vault(sample_vault)
    result = apply_changeset(vault, changeset(create("concepts/A.md", page("A"))))
    names = git(repo, "show", "--name-only", "--format=", "HEAD").split("\n")
    assert "vault/concepts/A.md" in names and "vault/log.md" in names
    assert result.commit and git(repo, "status", "--porcelain") == " M other.txt\n"


def test_no_git_identity_falls_back_for_that_commit_only(git_vault: Path, monkeypatch):
    git(git_vault, "config", "--unset", "user.email")
    git(git_vault, "config", "--unset", "user.name")
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for var in ("EMAIL", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(var, raising=False)
    # Make auto-detection fail the way it does on most machines.
    git(git_vault, "config", "user.useConfigOnly", "true")
    vault = open_vault(git_vault)
    result = apply_changeset(vault, changeset(create("concepts/A.md", page("A"))))
    assert result.commit and "no user name/email" in result.notice
    assert git(git_vault, "log", "-1", "--format=%an <%ae>").strip() == "wiki-tui <wiki-tui@localhost>"
    assert git(git_vault, "config", "user.name", check=False) == ""  # nothing configured for them


def test_a_failing_commit_rolls_everything_back(git_vault: Path):
    hook = git_vault / ".git/hooks/pre-commit"
    hook.write_text("#!/bin/sh\necho 'hook says no' >&2\nexit 1\n")
    hook.chmod(0o755)
    vault = open_vault(git_vault)
    before = (disk_state(git_vault), head(git_vault), git(git_vault, "ls-files", "-s"))
    with pytest.raises(ApplyError, match="hook says no"):
        apply_changeset(vault, three_file_changeset(git_vault))
    assert (disk_state(git_vault), head(git_vault), git(git_vault, "ls-files", "-s")) == before
    assert not journal_path(git_vault).exists()


def test_bookkeeping_files_cannot_be_in_a_changeset(git_vault: Path):
    vault = open_vault(git_vault)
    with pytest.raises(ApplyError, match="wiki-tui maintains it"):
        apply_changeset(vault, changeset(modify(git_vault, "index.md", "# mine\n")))


def test_editing_an_untracked_page_adds_it_to_the_commit(git_vault: Path):
    (git_vault / "concepts/Loose.md").write_text(page("Loose"), encoding="utf-8")
    vault = open_vault(git_vault)
    result = apply_changeset(vault, changeset(modify(git_vault, "concepts/Loose.md",
                                                     page("Loose", "Edited."))))
    assert result.commit
    assert "concepts/Loose.md" in git(git_vault, "show", "--name-only", "--format=", "HEAD")
    assert git(git_vault, "status", "--porcelain") == ""


def test_rollback_un_adds_what_it_staged(git_vault: Path):
    (git_vault / "concepts/Loose.md").write_text(page("Loose"), encoding="utf-8")
    hook = git_vault / ".git/hooks/pre-commit"
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    vault = open_vault(git_vault)
    cs = changeset(modify(git_vault, "concepts/Loose.md", page("Loose", "Edited.")),
                   create("concepts/New.md", page("New")))
    before = (disk_state(git_vault), head(git_vault), git(git_vault, "ls-files", "-s"),
              git(git_vault, "status", "--porcelain", "-uall"))
    with pytest.raises(ApplyError):
        apply_changeset(vault, cs)
    assert (disk_state(git_vault), head(git_vault), git(git_vault, "ls-files", "-s"),
            git(git_vault, "status", "--porcelain", "-uall")) == before


@given(st.lists(st.sampled_from([b"a", b"\xc3\xa9", b"\n", b"\r\n", b"\xff", b"\xe2\x82", b" "]),
                max_size=40).map(b"".join), st.booleans())
def test_text_round_trips_to_the_same_bytes(data: bytes, bom: bool):
    """What is read from a file writes back byte for byte: BOM, CRLF, invalid UTF-8 kept."""
    data = (BOM if bom else b"") + data
    assert encode(decode(data), FileFormat.of(data)) == data


def test_rebase_of_a_delete_and_a_rename(git_vault: Path):
    vault = open_vault(git_vault)
    gone = FileChange(H4, "delete", read(git_vault, H4), None)
    moved = rename(git_vault, DEAD, "concepts/Reckoning.md")
    (git_vault / H4).write_text(read(git_vault, H4) + "more\n", encoding="utf-8")
    (git_vault / DEAD).write_text(read(git_vault, DEAD) + "more\n", encoding="utf-8")
    assert len(check_conflicts(vault, changeset(gone, moved))) == 2
    fresh_delete = rebase_conflict(vault, gone)
    assert fresh_delete.kind == "delete" and fresh_delete.base_text.endswith("more\n")
    fresh_rename = rebase_conflict(vault, moved)
    assert fresh_rename.kind == "rename" and fresh_rename.old_path == DEAD
    assert fresh_rename.proposed_text.endswith("more\n") and fresh_rename.status != CONFLICT
    result = apply_changeset(vault, changeset(fresh_delete, fresh_rename))
    assert result.deleted == [H4] and result.renamed == [(DEAD, "concepts/Reckoning.md")]
    assert read(git_vault, "concepts/Reckoning.md").endswith("more\n")


def test_a_symlink_out_of_the_vault_is_refused(git_vault: Path, tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (git_vault / "linked").symlink_to(outside)
    vault = open_vault(git_vault)
    before = (disk_state(git_vault), head(git_vault))
    with pytest.raises(ApplyError, match="outside the vault"):
        apply_changeset(vault, changeset(create("linked/Evil.md", page("Evil"))))
    assert not list(outside.iterdir()) and (disk_state(git_vault), head(git_vault)) == before


def test_rollback_after_adding_an_untracked_page_late(git_vault: Path):
    """An untracked page being edited (the status lists it "??"): it is the person's note,
    committed apart first; when git's hook refuses, everything is put back, the index too."""
    (git_vault / "concepts/Loose.md").write_text(page("Loose"), encoding="utf-8")
    hook = git_vault / ".git/hooks/pre-commit"
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    vault = open_vault(git_vault)
    before = full_state(git_vault)
    with pytest.raises(ApplyError):
        apply_changeset(vault, changeset(modify(git_vault, "concepts/Loose.md", page("Loose", "x"))))
    assert full_state(git_vault) == before


def test_without_git_installed_the_vault_still_works(git_vault: Path, monkeypatch):
    import git as gitpython

    monkeypatch.setattr(gitpython.Git, "GIT_PYTHON_GIT_EXECUTABLE", "/nonexistent/git")
    vault = open_vault(git_vault)
    before = head(git_vault)
    result = apply_changeset(vault, changeset(create("concepts/A.md", page("A"))))
    assert result.commit is None and "git is not installed" in result.notice
    assert (git_vault / "concepts/A.md").exists() and head(git_vault) == before


def test_an_ignored_page_reaches_the_late_add_and_is_put_back(git_vault: Path):
    """A page git ignores: the status does not list it, so it looks committed; the commit names
    it unknown, the late `git add` refuses it, and the apply rolls back whole."""
    with open(git_vault / ".gitignore", "a", encoding="utf-8") as handle:
        handle.write("\nconcepts/Hidden.md\n")
    git(git_vault, "add", ".gitignore")
    git(git_vault, "commit", "-q", "-m", "ignore")
    (git_vault / "concepts/Hidden.md").write_text(page("Hidden"), encoding="utf-8")
    vault = open_vault(git_vault)
    before = full_state(git_vault)
    with pytest.raises(ApplyError):
        apply_changeset(vault, changeset(modify(git_vault, "concepts/Hidden.md", page("Hidden", "x"))))
    assert full_state(git_vault) == before
