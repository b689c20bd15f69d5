"""What an apply learns from one `git status` (gitops.GitRepo.status): which paths differ from
HEAD on disk (the person's own edits) and which are in git's index. Checked against git's own
answers (`git diff HEAD`, `ls-files`) over every state a path can be in, one at a time and all
together; and an apply with a new page runs `git status`, `git add` and `git commit`, nothing
else, with the guards unchanged."""

from __future__ import annotations

import itertools
from pathlib import Path

import git as gitpython
import pytest

from tests.changes.journal_support import changeset, create, git, modify, open_vault, page, read
from wiki_tui.changes.apply.journal import apply_changeset
from wiki_tui.changes.gitops import TRAILER_HAND, GitRepo, in_index

# How each state is made from a committed file `p` (or, for the last ones, a path HEAD lacks).
STATES = {
    "clean": [],
    "edited": [("write", "edited\n")],
    "staged": [("write", "staged\n"), ("add",)],
    "staged then edited": [("write", "staged\n"), ("add",), ("write", "edited again\n")],
    "staged then put back": [("write", "staged\n"), ("add",), ("restore",)],
    "deleted": [("rm-disk",)],
    "deletion staged": [("rm-index",)],
    "deletion staged, file back": [("rm-index",), ("restore",)],
    "untracked": [("new", "untracked\n")],
    "added": [("new", "added\n"), ("add",)],
    "added then edited": [("new", "added\n"), ("add",), ("write", "edited\n")],
    "added then deleted": [("new", "added\n"), ("add",), ("rm-disk",)],
    "absent": [("absent",)],
}


def _make(root: Path, rel: str, steps: list[tuple]) -> None:
    original = (root / rel).read_bytes() if (root / rel).exists() else None
    for step in steps:
        if step[0] in ("new", "absent"):
            git(root, "rm", "-q", "--cached", "--", rel)
            (root / rel).unlink()
            if step[0] == "new":
                (root / rel).write_text(step[1], encoding="utf-8")
        elif step[0] == "write":
            (root / rel).write_text(step[1], encoding="utf-8")
        elif step[0] == "add":
            git(root, "add", "--", rel)
        elif step[0] == "restore":
            (root / rel).write_bytes(original)
        elif step[0] == "rm-disk":
            (root / rel).unlink()
        elif step[0] == "rm-index":
            git(root, "rm", "-q", "--cached", "--", rel)


def _truth(root: Path, paths: list[str]) -> tuple[set[str], set[str]]:
    """(paths whose disk differs from HEAD or that are untracked, paths in the index): git's word."""
    differ = set(git(root, "diff", "--name-only", "-z", "--no-renames", "HEAD", "--", *paths).split("\0"))
    others = set(git(root, "ls-files", "--others", "-z", "--", *paths).split("\0"))
    indexed = set(git(root, "ls-files", "-z", "--", *paths).split("\0"))
    return (differ | others) - {""}, indexed - {""}


def _files(git_vault: Path, n: int) -> list[str]:
    pages = sorted(rel for p in git_vault.rglob("*.md")
                   if "/" in (rel := p.relative_to(git_vault).as_posix()) and not rel.startswith("."))
    assert len(pages) >= n
    return pages[:n]


@pytest.mark.parametrize("combo", [(s,) for s in STATES] + [tuple(STATES)])
def test_one_status_tells_what_git_diff_and_ls_files_would(git_vault: Path, combo):
    paths = _files(git_vault, len(combo))
    for rel, state in zip(paths, combo):
        _make(git_vault, rel, STATES[state])
    differ, indexed = _truth(git_vault, paths)
    with GitRepo.open(git_vault) as repo:
        status = repo.status(paths)
        assert set(repo.changed_from_head(paths, status)) == differ, (combo, status)
        for rel in paths:
            if rel in status:
                inside = in_index(status[rel])
                assert inside is None or inside == (rel in indexed), (rel, status[rel])
            else:  # clean: tracked exactly when it is on disk
                assert (git_vault / rel).exists() == (rel in indexed), rel


def test_a_status_listing_a_path_twice_is_not_guessed_at(git_vault: Path):
    rel = _files(git_vault, 1)[0]
    _make(git_vault, rel, STATES["deletion staged, file back"])
    with GitRepo.open(git_vault) as repo:
        status = repo.status([rel])
        assert status == {rel: ""}  # "D " and "??": both records, so git is asked
        assert repo.changed_from_head([rel], status) == [rel]
        assert in_index(status[rel]) is None


def _spy(monkeypatch) -> list[str]:
    ran: list[str] = []
    real = gitpython.Git.execute

    def execute(self, command, *args, **kwargs):
        ran.append(next(a for a in command[1:] if not a.startswith("-")))
        return real(self, command, *args, **kwargs)

    monkeypatch.setattr(gitpython.Git, "execute", execute)
    return ran


def test_an_apply_with_a_new_page_runs_status_add_and_commit_only(git_vault: Path, monkeypatch):
    vault = open_vault(git_vault)
    apply_changeset(vault, changeset(modify(git_vault, "concepts/Dead reckoning.md",
                                            read(git_vault, "concepts/Dead reckoning.md") + "\nOne.\n")))
    # the person's unrelated work stays as it is
    (git_vault / "scratch.md").write_text("mine\n", encoding="utf-8")
    (git_vault / "entities/H4.md").write_text(read(git_vault, "entities/H4.md") + "\nmine\n", encoding="utf-8")
    before = git(git_vault, "status", "--porcelain=v1", "-uall")
    ran = _spy(monkeypatch)
    result = apply_changeset(vault, changeset(
        create("concepts/Gnomon.md", page("Gnomon", "Links to [[Dead reckoning]].")),
        modify(git_vault, "concepts/Dead reckoning.md", read(git_vault, "concepts/Dead reckoning.md") + "\nTwo.\n")))
    assert result.commit
    assert ran == ["status", "add", "commit"]
    committed = set(git(git_vault, "show", "--name-only", "--format=", "HEAD").split("\n")) - {""}
    assert committed == {"concepts/Gnomon.md", "concepts/Dead reckoning.md", "log.md", "index.md"}
    assert git(git_vault, "status", "--porcelain=v1", "-uall") == before
    vault.close()


def test_a_hand_edit_found_by_the_status_is_committed_apart_as_before(git_vault: Path, monkeypatch):
    vault = open_vault(git_vault)
    rel = "concepts/Dead reckoning.md"
    text = read(git_vault, rel) + "\nMy own line.\n"
    (git_vault / rel).write_text(text, encoding="utf-8")  # edited by hand, not committed
    (git_vault / "concepts/Loose.md").write_text(page("Loose"), encoding="utf-8")  # never committed
    ran = _spy(monkeypatch)
    result = apply_changeset(vault, changeset(modify(git_vault, rel, text + "\nThe model's line.\n"),
                                              modify(git_vault, "concepts/Loose.md", page("Loose", "More."))))
    assert result.commit
    hand = git(git_vault, "rev-parse", "HEAD~1").strip()
    assert TRAILER_HAND in git(git_vault, "log", "-1", "--format=%B", hand)
    assert sorted(git(git_vault, "show", "--name-status", "--format=", hand).splitlines()) == [
        "A\tconcepts/Loose.md", f"M\t{rel}"]  # the page never committed is new there
    assert "ls-files" not in ran and "diff" not in ran  # all from the one status
    assert git(git_vault, "show", f"{hand}:{rel}") == text
    assert git(git_vault, "status", "--porcelain=v1", "-uall") == ""
    vault.close()


def test_states_in_combination_stay_truthful(git_vault: Path):
    # pairs of states on two paths: the records of one never change the reading of the other
    names = list(STATES)
    for a, b in itertools.islice(itertools.combinations(names, 2), 0, None, 7):
        paths = _files(git_vault, 2)
        git(git_vault, "reset", "-q", "--hard", "HEAD")
        for rel, state in zip(paths, (a, b)):
            _make(git_vault, rel, STATES[state])
        differ, _ = _truth(git_vault, paths)
        with GitRepo.open(git_vault) as repo:
            assert set(repo.changed_from_head(paths)) == differ, (a, b)
        git(git_vault, "reset", "-q", "--hard", "HEAD")
        git(git_vault, "clean", "-q", "-fd")


def test_committed_files_follow_an_outside_commit_from_what_it_changed(git_vault: Path, monkeypatch):
    from wiki_tui.changes import gitops

    first = gitops.committed_files(git_vault)
    assert "concepts/Dead reckoning.md" in first
    # a commit made by hand: a page removed, one added in a new folder, one edited
    git(git_vault, "rm", "-q", "concepts/Dead reckoning.md")
    (git_vault / "new folder").mkdir()
    (git_vault / "new folder/Fresh.md").write_text("fresh\n", encoding="utf-8")
    (git_vault / "entities/H4.md").write_text("edited\n", encoding="utf-8")
    git(git_vault, "add", "-A")
    git(git_vault, "commit", "-q", "-m", "by hand")
    ran = _spy(monkeypatch)
    followed = gitops.committed_files(git_vault)
    assert "diff-tree" in ran and "ls-tree" not in ran
    gitops._head_files.clear()
    assert followed == gitops.committed_files(git_vault)  # as a full listing says
    assert "concepts/Dead reckoning.md" not in followed and "new folder/Fresh.md" in followed
    # history rewritten so that the commit read last is gone: the whole tree is listed again
    gitops._head_files[str(git_vault)] = ("0" * 40, followed)
    ran.clear()
    assert gitops.committed_files(git_vault) == followed and "ls-tree" in ran
