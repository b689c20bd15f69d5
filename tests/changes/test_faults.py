"""Fault injection: an apply interrupted between any two steps is all-or-nothing.

Two kinds of fault at every step boundary: an exception raised inside the process (apply rolls
back at once), and SIGKILL of a subprocess doing the apply (the next start's recover() rolls
back or, past the commit, finishes). "All" and "nothing" are checked on disk, in git's HEAD,
index and status, and in log.md.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.changes.journal_support import (disk_state, full_state, git, open_vault, read,
                                           three_file_changeset)
from wiki_tui.changes.apply.journal import apply_changeset, recover
from wiki_tui.changes.apply.transaction import STEPS, journal_path

ROOT = Path(__file__).resolve().parents[2]
BOUNDARIES = [*STEPS, "end"]  # on_step(name) runs before each step, and "end" after the last
PAST_COMMIT = {"cleanup", "end"}


class Boom(Exception):
    pass


def _assert_applied(root: Path, before_head: str | None, *, has_git: bool = True) -> None:
    assert (root / "concepts/Gnomon.md").exists()
    assert not (root / "entities/Scilly naval disaster of 1707.md").exists()
    assert read(root, "concepts/Dead reckoning.md").endswith("A new closing line.\n")
    assert read(root, "log.md").count("ingest | Test change") == 1
    assert "[[concepts/Gnomon|Gnomon]]" in read(root, "index.md")
    assert not journal_path(root).exists()
    if has_git:
        assert git(root, "rev-parse", "HEAD^").strip() == before_head
        assert git(root, "log", "-1", "--format=%s").strip() == "ingest: Test change"
        assert git(root, "status", "--porcelain", "-uall") == ""


@pytest.mark.parametrize("step", BOUNDARIES)
def test_exception_between_steps_is_all_or_nothing(git_vault: Path, step: str):
    vault = open_vault(git_vault)
    before = full_state(git_vault)

    def fault(name: str) -> None:
        if name == step:
            raise Boom(name)

    cs = three_file_changeset(git_vault)
    if step in PAST_COMMIT:  # the commit landed: the change is whole, apply reports success
        result = apply_changeset(vault, cs, on_step=fault)
        assert result.commit
        _assert_applied(git_vault, before[1])
    else:
        with pytest.raises(Boom):
            apply_changeset(vault, cs, on_step=fault)
        assert full_state(git_vault) == before
    assert not journal_path(git_vault).exists()
    assert recover(git_vault) is None


@pytest.mark.parametrize("step", [s for s in BOUNDARIES if s not in ("stage", "commit")])
def test_exception_between_steps_without_git(sample_vault: Path, step: str):
    vault = open_vault(sample_vault)
    before = disk_state(sample_vault)

    def fault(name: str) -> None:
        if name == step:
            raise Boom(name)

    cs = three_file_changeset(sample_vault)
    if step in PAST_COMMIT:
        apply_changeset(vault, cs, on_step=fault)
        _assert_applied(sample_vault, None, has_git=False)
    else:
        with pytest.raises(Boom):
            apply_changeset(vault, cs, on_step=fault)
        assert disk_state(sample_vault) == before


_CHILD = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from tests.changes.journal_support import open_vault, three_file_changeset
    from wiki_tui.changes.apply.journal import apply_changeset
    root, step = Path(sys.argv[1]), sys.argv[2]
    def fault(name):
        if name == step:
            os.kill(os.getpid(), signal.SIGKILL)
    vault = open_vault(root)
    apply_changeset(vault, three_file_changeset(root), on_step=fault)
    print("finished")
""")


def _killed_apply(root: Path, step: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(root), step], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == -9, proc.stderr


@pytest.mark.parametrize("step", BOUNDARIES)
def test_killed_between_steps_then_recovered(git_vault: Path, step: str):
    before = full_state(git_vault)
    _killed_apply(git_vault, step)
    if step == "end":  # died after everything, journal already gone: nothing to recover
        assert recover(git_vault) is None
        _assert_applied(git_vault, before[1])
        return
    if step != "journal":
        assert journal_path(git_vault).exists()
    message = recover(git_vault)
    if step == "journal":
        assert message is None  # died before anything was planned on disk
        assert full_state(git_vault) == before
    elif step in PAST_COMMIT:
        assert "completed" in message and "nothing was lost" in message
        _assert_applied(git_vault, before[1])
    else:
        assert "rolled back" in message and "Test change" in message
        assert full_state(git_vault) == before
    assert not journal_path(git_vault).exists()
    assert recover(git_vault) is None


@pytest.mark.parametrize("step", ["log", "cleanup"])
def test_killed_without_git_then_recovered(sample_vault: Path, step: str):
    before = disk_state(sample_vault)
    _killed_apply(sample_vault, step)
    message = recover(sample_vault)
    if step == "cleanup":
        assert "completed" in message
        _assert_applied(sample_vault, None, has_git=False)
    else:
        assert "rolled back" in message
        assert disk_state(sample_vault) == before


def test_recovery_never_overwrites_a_file_changed_after_the_crash(git_vault: Path):
    _killed_apply(git_vault, "commit")
    dead = git_vault / "concepts/Dead reckoning.md"
    dead.write_text("The person rewrote this after the crash.\n", encoding="utf-8")
    message = recover(git_vault)
    assert "concepts/Dead reckoning.md" in message and "changed since" in message
    assert dead.read_text(encoding="utf-8") == "The person rewrote this after the crash.\n"
    # Everything else is back as it was; the backups are kept aside for the person.
    assert not (git_vault / "concepts/Gnomon.md").exists()
    assert (git_vault / "entities/Scilly naval disaster of 1707.md").exists()
    assert "Test change" not in read(git_vault, "log.md")
    assert not journal_path(git_vault).exists()
    assert list((git_vault / ".wiki-tui").glob("apply-journal.*.json"))


def test_torn_log_append_is_cut_back(git_vault: Path):
    """A kill in the middle of the log append leaves a partial entry: recovery removes it."""
    before = full_state(git_vault)
    _killed_apply(git_vault, "stage")
    log = git_vault / "log.md"
    data = log.read_bytes()
    entry_at = data.rindex(b"## [")
    log.write_bytes(data[: entry_at + 10])  # as if the append had been cut short
    assert "rolled back" in recover(git_vault)
    assert full_state(git_vault) == before


def test_apply_recovers_a_pending_journal_first(git_vault: Path):
    cs = three_file_changeset(git_vault)
    _killed_apply(git_vault, "stage")
    vault = open_vault(git_vault)
    result = apply_changeset(vault, cs)
    assert "rolled back" in result.notice
    assert read(git_vault, "log.md").count("ingest | Test change") == 1


_SLOW_CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from tests.changes.journal_support import open_vault, three_file_changeset
    from wiki_tui.changes.apply.journal import apply_changeset
    root, marker = Path(sys.argv[1]), Path(sys.argv[2])
    def pause(name):
        if name == "log":
            marker.write_text("mid-apply")
            time.sleep(1.5)
    vault = open_vault(root)
    apply_changeset(vault, three_file_changeset(root), on_step=pause)
""")


def test_recovery_waits_for_a_live_apply_in_another_process(git_vault: Path, tmp_path: Path):
    """The TUI starting while `wiki-tui apply` runs must not roll that apply back."""
    before_head = git(git_vault, "rev-parse", "HEAD").strip()
    marker = tmp_path / "marker"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", _SLOW_CHILD, str(git_vault), str(marker)],
                             cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not marker.exists():
            assert child.poll() is None, child.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert journal_path(git_vault).exists()  # mid-apply: a journal, and its lock held
        assert recover(git_vault) is None  # waited for the lock; the apply then completed
    finally:
        assert child.wait(timeout=60) == 0, child.stderr.read()
    _assert_applied(git_vault, before_head)


@pytest.mark.parametrize("step", ["log", "commit"])
def test_rollback_removes_folders_it_created(git_vault: Path, step: str):
    from tests.changes.journal_support import changeset, create, page

    vault = open_vault(git_vault)
    before = full_state(git_vault)

    def fault(name: str) -> None:
        if name == step:
            raise Boom(name)

    with pytest.raises(Boom):
        apply_changeset(vault, changeset(create("topics/deep/New.md", page("New"))), on_step=fault)
    assert full_state(git_vault) == before
    assert not (git_vault / "topics").exists()


@pytest.mark.parametrize("step", ["files", "log", "commit", "cleanup"])
def test_undo_interrupted_is_all_or_nothing(git_vault: Path, step: str):
    from wiki_tui.changes.apply.journal import undo_last

    vault = open_vault(git_vault)
    apply_changeset(vault, three_file_changeset(git_vault))
    before = full_state(git_vault)

    def fault(name: str) -> None:
        if name == step:
            raise Boom(name)

    if step in PAST_COMMIT:
        undo_last(vault, on_step=fault)
        assert git(git_vault, "log", "-1", "--format=%s").strip() == "undo: Test change"
        assert (git_vault / "entities/Scilly naval disaster of 1707.md").exists()
    else:
        with pytest.raises(Boom):
            undo_last(vault, on_step=fault)
        assert full_state(git_vault) == before
    assert not journal_path(git_vault).exists()


def test_interrupt_after_git_moved_head_counts_as_committed(git_vault: Path, monkeypatch):
    """Ctrl+C reaches git and us together: if HEAD already moved, the apply is whole."""
    from wiki_tui.changes.gitops import GitRepo

    real_commit = GitRepo.commit

    def commit_then_interrupt(self, message, paths):
        real_commit(self, message, paths)
        raise KeyboardInterrupt

    monkeypatch.setattr(GitRepo, "commit", commit_then_interrupt)
    vault = open_vault(git_vault)
    before = git(git_vault, "rev-parse", "HEAD").strip()
    result = apply_changeset(vault, three_file_changeset(git_vault))
    assert result.commit == git(git_vault, "rev-parse", "HEAD").strip()
    _assert_applied(git_vault, before)


def test_two_threads_apply_one_after_the_other(git_vault: Path):
    import threading

    from tests.changes.journal_support import changeset, create, page

    vault = open_vault(git_vault)
    active, overlap = [0], []

    def watch(name: str) -> None:  # between the first and the last step, alone
        if name == "journal":
            active[0] += 1
            overlap.append(active[0] > 1)
            time.sleep(0.2)
        elif name == "end":
            active[0] -= 1

    results = []
    threads = [threading.Thread(target=lambda i=i: results.append(apply_changeset(
        vault, changeset(create(f"concepts/T{i}.md", page(f"T{i}")), title=f"t{i}"),
        on_step=watch))) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(results) == 2 and all(r.commit for r in results) and overlap == [False, False]
    assert git(git_vault, "status", "--porcelain") == ""
    assert read(git_vault, "log.md").count("ingest | t") == 2


def test_an_unreadable_journal_is_set_aside(git_vault: Path):
    path = journal_path(git_vault)
    path.parent.mkdir(exist_ok=True)
    path.write_text("{ not json")
    before = full_state(git_vault)
    message = recover(git_vault)
    assert "unreadable" in message and not path.exists()
    assert list(path.parent.glob("apply-journal.unreadable-*.json"))
    assert full_state(git_vault) == before


_BIG_CHILD = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from tests.changes.journal_support import changeset, modify, open_vault, read
    from wiki_tui.changes.apply.journal import apply_changeset
    root, step = Path(sys.argv[1]), sys.argv[2]
    def fault(name):
        if name == step:
            os.kill(os.getpid(), signal.SIGKILL)
    vault = open_vault(root)
    text = read(root, "concepts/Big.md")
    apply_changeset(vault, changeset(modify(root, "concepts/Big.md", text + "tail\\n")),
                    on_step=fault)
""")


@pytest.mark.parametrize("step", ["files", "commit", "cleanup"])
def test_big_files_are_backed_up_by_hard_link(git_vault: Path, step: str):
    big = "".join(f"line {i} of a long page\n" for i in range(8000))  # ~190 KB
    (git_vault / "concepts/Big.md").write_text(big, encoding="utf-8")
    git(git_vault, "add", "concepts/Big.md")
    git(git_vault, "commit", "-qm", "big page")
    before = full_state(git_vault)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", _BIG_CHILD, str(git_vault), step], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == -9, proc.stderr
    record = json.loads(journal_path(git_vault).read_text())
    assert record["files"]["concepts/Big.md"].get("link")  # not copied into the journal
    assert len(journal_path(git_vault).read_bytes()) < 20_000
    message = recover(git_vault)
    if step == "cleanup":
        assert "completed" in message and read(git_vault, "concepts/Big.md") == big + "tail\n"
    else:
        assert "rolled back" in message and full_state(git_vault) == before
    assert not (git_vault / ".wiki-tui/apply-backup").exists()


def test_a_lost_linked_backup_is_never_guessed(git_vault: Path):
    big = "".join(f"line {i}\n" for i in range(12000))
    (git_vault / "concepts/Big.md").write_text(big, encoding="utf-8")
    git(git_vault, "add", "concepts/Big.md")
    git(git_vault, "commit", "-qm", "big page")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", _BIG_CHILD, str(git_vault), "commit"], cwd=ROOT,
                   env=env, capture_output=True, timeout=60)
    import shutil

    shutil.rmtree(git_vault / ".wiki-tui/apply-backup")
    message = recover(git_vault)
    assert "concepts/Big.md" in message and "left as they are" in message
    assert read(git_vault, "concepts/Big.md") == big + "tail\n"  # not deleted, not guessed
    assert "Test change" not in read(git_vault, "log.md")


# -- a killed git, a torn journal write, two processes at once --------------------------------
_LOCK_CHILD = textwrap.dedent("""
    import os, signal, subprocess, sys
    from pathlib import Path
    from tests.changes.journal_support import open_vault, three_file_changeset
    from wiki_tui.changes.apply.journal import apply_changeset
    root, step = Path(sys.argv[1]), sys.argv[2]
    def fault(name):
        if name == step:  # as if the terminal closed while git held its locks: all die
            (root / ".git/index.lock").write_bytes(b"")
            (root / ".git/refs/heads/main.lock").write_bytes(b"")
            if step == "cleanup":  # git died after moving HEAD, before writing the index
                subprocess.run(["git", "reset", "-q", "HEAD~1", "--", "log.md"], cwd=root)
                (root / ".git/index.lock").write_bytes(b"")
            os.killpg(0, signal.SIGKILL)
    apply_changeset(open_vault(root), three_file_changeset(root), on_step=fault)
""")


@pytest.mark.parametrize("step", ["stage", "commit", "cleanup"])
def test_a_git_killed_holding_index_lock_is_cleared_by_the_next_command(git_vault: Path,
                                                                       step: str, capsys):
    from wiki_tui.cli import main

    before = full_state(git_vault)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", _LOCK_CHILD, str(git_vault), step], cwd=ROOT,
                          env=env, capture_output=True, timeout=60, start_new_session=True)
    assert proc.returncode == -9
    assert (git_vault / ".git/index.lock").exists()
    reply = git_vault.parent / "reply.txt"
    reply.write_text("@@@ WRITE concepts/After.md\n# After\n@@@ END\n", encoding="utf-8")
    assert main(["--vault", str(git_vault), "apply", str(reply), "--dry-run"]) == 0
    err = "".join(capsys.readouterr().err.split())  # rich wraps long paths anywhere
    assert ".git/index.lock" in err and "refs/heads/main.lock" in err and "Removed" in err
    if step == "cleanup":
        assert "ithadcompleted" in err
        assert git(git_vault, "status", "--porcelain") == ""  # the index matches the commit
    else:
        assert "rolledback" in err and full_state(git_vault) == before
    assert main(["--vault", str(git_vault), "apply", str(reply), "--yes"]) == 0  # writes work


def test_a_lock_no_apply_of_ours_left_is_reported_not_removed(git_vault: Path):
    lock = git_vault / ".git/index.lock"
    lock.write_bytes(b"")
    message = recover(git_vault)
    assert "index.lock" in message and "delete it" in message and lock.exists()


def test_a_journal_write_killed_before_its_rename_leaves_nothing_behind(git_vault: Path):
    stray = git_vault / ".wiki-tui/.apply-journal.json.k3j2.tmp"
    stray.parent.mkdir(exist_ok=True)
    stray.write_text('{"half": ')
    assert recover(git_vault) is None
    assert not stray.exists()


_RACE_CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from tests.changes.journal_support import changeset, create, delete, open_vault, page
    from wiki_tui.changes.apply.journal import apply_changeset
    root, n, go = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    vault = open_vault(root)  # the page list is read here, before the other apply
    files = [create(f"concepts/Race {n}.md", page(f"Race {n}"))]
    if n == "1":
        files.append(delete(root, "entities/Scilly naval disaster of 1707.md"))
    (go.parent / f"ready-{n}").write_text("")
    while not go.exists():
        time.sleep(0.005)
    apply_changeset(vault, changeset(*files, title=f"race {n}"))
""")


def index_matches_tree(root: Path, rev: str) -> bool:
    """Does index.md in commit `rev` list exactly the pages of that commit's tree?"""
    from wiki_tui.changes.apply.index_md import NOT_LISTED
    from wiki_tui.changes.apply.logmd import link_target

    tree = git(root, "ls-tree", "-r", "--name-only", "-z", rev).split("\0")
    pages = {link_target(p) for p in tree if p.endswith(".md") and p not in NOT_LISTED
             and not p.startswith("raw/")}
    pages |= {p for p in tree if p.endswith(".canvas") and not p.startswith("raw/")}
    index = git(root, "show", f"{rev}:index.md")
    listed = {line[4:].split("|", 1)[0] for line in index.splitlines() if line.startswith("- [[")}
    return listed == pages


def test_two_processes_applying_at_once_both_land_in_index_md(git_vault: Path, tmp_path: Path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    go = tmp_path / "go"
    children = [subprocess.Popen([sys.executable, "-c", _RACE_CHILD, str(git_vault), n, str(go)],
                                 cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
                for n in ("1", "2")]
    deadline = time.monotonic() + 60
    while not all((tmp_path / f"ready-{n}").exists() for n in ("1", "2")):
        assert time.monotonic() < deadline and all(c.poll() is None for c in children)
        time.sleep(0.01)
    go.write_text("")
    for child in children:
        assert child.wait(timeout=60) == 0, child.stderr.read()
    assert index_matches_tree(git_vault, "HEAD") and index_matches_tree(git_vault, "HEAD~1")
    index = read(git_vault, "index.md")
    assert "Race 1" in index and "Race 2" in index and "[[entities/Scilly naval disaster of 1707" not in index


def test_a_read_command_finishes_an_interrupted_apply_too(git_vault: Path, capsys):
    from wiki_tui.cli import main

    before = full_state(git_vault)
    _killed_apply(git_vault, "log")
    assert main(["--vault", str(git_vault), "find", "harrison"]) == 0
    assert "rolled back" in " ".join(capsys.readouterr().err.split())
    assert full_state(git_vault) == before and not journal_path(git_vault).exists()
