"""Recent changes, for the whole wiki or one page: the git commits that touched it (newest
first, each with the files it changed) and the log.md entries that name it. git runs as a child
with a time limit; a vault without git answers from log.md alone, and says so."""

from __future__ import annotations

import subprocess
from typing import Any

from wiki_tui.changes.apply.logmd import LOG_PATH, parse_log
from wiki_tui.mcp_server.tools.common import find_page, limit_of
from wiki_tui.vault import Vault, VaultError

HISTORY_LIMIT = 100
GIT_SECONDS = 5.0
_SEP = "\x1f"
_STATUS = {"A": "created", "M": "modified", "D": "deleted", "R": "renamed", "C": "copied",
           "T": "modified"}


def _git_log(vault: Vault, path: str | None, count: int) -> tuple[list[dict[str, Any]], str | None]:
    """The newest `count` commits (touching `path`, following its renames), or why there are
    none."""
    command = ["git", "-C", str(vault.root), "log", f"-n{count}", "--date=iso-strict",
               f"--format=%x1e%H{_SEP}%ad{_SEP}%an{_SEP}%s", "--name-status"]
    command += ["--no-renames"] if path is None else ["--follow", "--", path]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=GIT_SECONDS,
                              stdin=subprocess.DEVNULL, errors="replace")
    except FileNotFoundError:
        return [], "git is not installed: changes from log.md only"
    except subprocess.TimeoutExpired:
        return [], f"git log took more than {GIT_SECONDS:g} s: changes from log.md only"
    if done.returncode != 0:
        if "does not have any commits" in done.stderr:
            return [], "no commits yet"
        return [], "the vault is not a git repository: changes from log.md only"
    commits = []
    for chunk in done.stdout.split("\x1e")[1:]:
        head, *files = chunk.strip("\n").split("\n")
        sha, date, author, subject = (head.split(_SEP) + ["", "", ""])[:4]
        changed = []
        for row in files:
            status, *names = row.split("\t")
            if names:
                changed.append({"path": names[-1], "change": _STATUS.get(status[:1], status)})
        commits.append({"commit": sha[:12], "date": date, "author": author, "subject": subject,
                        "files": changed[:50], "more_files": max(0, len(changed) - 50)})
    return commits, None


def recent_changes(vault: Vault, page: str | None = None,
                   limit: int | None = None) -> dict[str, Any]:
    notes: list[str] = []
    count = limit_of(limit, 10, HISTORY_LIMIT, notes)
    path = find_page(vault, page).path if page is not None else None
    commits, why = _git_log(vault, path, count)
    if why:
        notes.append(why)
    try:
        entries = parse_log(vault.read_text(LOG_PATH))
    except VaultError:
        entries = []
    if path is not None:
        name = path.rsplit("/", 1)[-1].removesuffix(".md")
        entries = [e for e in entries if any(path in line or f"[[{name}" in line
                                             for line in e.lines)]
    log = [{"date": e.date, "operation": e.operation, "title": e.title, "lines": e.lines}
           for e in entries[-count:][::-1]]
    return {"page": path, "commits": commits, "log": log, "notes": notes}
