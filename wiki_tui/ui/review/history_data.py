"""What the history view lists: log.md entries, newest first, joined with wiki-tui's git commits.

Pure reading: log.md is parsed from its text, commits come from `git log` (first parent, with
the Wiki-Tui-Changeset trailer that the journal writes). No Textual here. Reading log.md itself
lives in changes/apply/logmd.py (the MCP server reads it too).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wiki_tui.changes.gitops import (TRAILER_OPERATION, TRAILER_REVERTS, GitError, GitRepo,
                                     parse_trailers)
from wiki_tui.changes.apply.logmd import LOG_PATH, Entry, parse_log  # noqa: F401 - parse_log for callers

COMMIT_LIMIT = 300


@dataclass
class Commit:
    sha: str
    date: str
    subject: str
    operation: str | None  # None: not made by wiki-tui
    reverts: str | None = None  # for an undo: the commit it reverted
    undone: bool = False  # a later undo reverted this commit

    @property
    def title(self) -> str:
        return self.subject.partition(": ")[2] or self.subject


def read_commits(root: Path, limit: int = COMMIT_LIMIT) -> list[Commit]:
    """First-parent commits, newest first (every commit: the caller needs to see foreign ones too)."""
    repo = GitRepo.open(root)
    if repo is None:
        return []
    try:
        if repo.head() is None:
            return []
        out = repo.repo.git.execute(["git", "log", "--first-parent", "-n", str(limit),
                                     "--date=short", "--format=%H%x00%ad%x00%B%x1e"])
    except Exception as exc:  # noqa: BLE001 - GitPython raises several kinds
        raise GitError(f"git log failed: {exc}") from None
    finally:
        repo.close()
    commits: list[Commit] = []
    for record in out.split("\x1e"):
        record = record.strip("\n")
        if not record:
            continue
        sha, date, message = (record.split("\x00", 2) + ["", ""])[:3]
        trailers = parse_trailers(message)
        subject = message.strip().split("\n", 1)[0]
        commits.append(Commit(sha, date, subject, trailers.get(TRAILER_OPERATION),
                              trailers.get(TRAILER_REVERTS)))
    reverted = {c.reverts for c in commits if c.reverts}
    for commit in commits:
        commit.undone = any(r and commit.sha.startswith(r) for r in reverted)
    return commits


@dataclass
class History:
    entries: list[Entry]  # newest first
    orphans: list[Commit]  # wiki-tui commits with no log.md entry (log edited by hand?)
    commits: list[Commit]  # all first-parent commits read, newest first
    notice: str | None = None

    def undo_target(self) -> Commit | None:
        """The change `u` would undo: the newest wiki-tui commit not undone yet, if HEAD is ours."""
        if not self.commits or self.commits[0].operation is None:
            return None
        for commit in self.commits:
            if commit.operation is None:
                return None
            if commit.operation != "undo" and not commit.undone:
                return commit
        return None


def load_history(vault: Any) -> History:
    """log.md and the git history of the vault, joined (each entry to its commit, if any)."""
    root = Path(vault.root)
    notice = None
    try:
        data = (root / LOG_PATH).read_bytes()
    except FileNotFoundError:
        data = b""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", "replace")
        notice = f"log.md is not valid UTF-8 (byte {exc.start}); unreadable bytes shown as �"
    entries = parse_log(text)
    try:
        commits = read_commits(root)
    except GitError as exc:
        commits, notice = [], str(exc)
    ours = [c for c in commits if c.operation is not None]
    unmatched = list(ours)
    entries.reverse()
    for entry in entries:
        for commit in unmatched:
            if commit.operation == entry.operation and _same(commit.title, entry.title):
                entry.commit = commit
                unmatched.remove(commit)
                break
    return History(entries, unmatched, commits, notice)


def _same(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())
