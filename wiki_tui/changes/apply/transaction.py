"""All-or-nothing execution of a planned change: files, log.md, index.md and the git commit.

Before touching anything, a journal (`<vault>/.wiki-tui/apply-journal.json`) is written and
fsynced: every path's original bytes (the backup: inline, or for files of 64 KB and more a hard
link in `.wiki-tui/apply-backup/`, since files are replaced by rename and the old inode stays
intact) and the hash of its planned bytes, log.md's size and the bytes to append, git's HEAD
and the paths it will `git add`. Then the named steps run:

    journal -> handedits -> files (pages and index.md) -> log -> stage -> commit -> cleanup

"handedits": any of those paths that differs from git's HEAD before the apply holds the
person's own uncommitted work (or another program's); it is committed first, on its own, with
a message that says so (gitops.hand_commit_message), so the change's commit holds only what the
change wrote and an undo of it gives the person's bytes back.

The commit is the point of no return (for a vault without git, deleting the journal is). If the
process dies before it, `recover()` on the next start rolls everything back from the journal; if
it died after, it only removes the journal. An exception inside `execute` rolls back at once.
A file someone else changed after the crash is never overwritten by the rollback: it is named in
the message instead, and the journal is kept aside for reference.

`on_step(name)` is called before each step and with "end" after the last one, so tests can
inject a fault (an exception, or SIGKILL) between every pair of steps.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from wiki_tui.changes.apply import atomic, logmd
from wiki_tui.changes.apply.index_md import INDEX_PATH
from wiki_tui.changes.gitops import (TRAILER_HAND, GitRepo, UnknownPathError, commit_locks,
                                     hand_commit_message, in_index)
from wiki_tui.changes.vault_state import JOURNAL_FILE, STATE_DIR

STEPS = ("journal", "handedits", "files", "log", "stage", "commit", "cleanup")
BACKUP_DIR = "apply-backup"  # in STATE_DIR: hard links to the old versions of big files
LINK_AT_LEAST = 64 * 1024  # smaller backups go inline in the journal (cheaper than a link + flush)

StepHook = Callable[[str], None]


def journal_path(root: Path) -> Path:
    return root / STATE_DIR / JOURNAL_FILE


def _sha(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode("ascii")


def _unb64(text: str | None) -> bytes | None:
    return None if text is None else base64.b64decode(text)


@dataclass
class Plan:
    """Everything an apply (or undo) will do, computed before anything is touched."""

    operation: str
    title: str
    message: str  # the commit message
    contents: dict[str, bytes | None]  # page path -> final bytes (None: delete)
    backups: dict[str, bytes | None]  # page path -> bytes on disk now (None: absent)
    log_append: bytes
    log_size: int  # log.md's size before (-1: no log.md yet)
    index_bytes: bytes | None = None  # new index.md (None: unchanged)
    index_backup: bytes | None = None
    index_path: str = INDEX_PATH  # where the catalog lives (`catalog:` in AGENTS.md)
    index_lines: tuple | None = None  # how index_bytes differs from the last (catalog_cache.diff)
    new_dirs: list[str] = field(default_factory=list)  # folders the writes will create


def _new_dirs(root: Path, paths: list[str]) -> list[str]:
    found: set[str] = set()
    for rel in paths:
        parent = Path(rel).parent
        while parent != Path(".") and not (root / parent).exists():
            found.add(parent.as_posix())
            parent = parent.parent
    return sorted(found, key=lambda p: (-p.count("/"), p))  # deepest first, for removal


def _write_journal(root: Path, record: dict) -> None:
    path = journal_path(root)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.atomic_write(path, json.dumps(record).encode("utf-8"))


def load_journal(root: Path) -> dict | None:
    path = journal_path(root)
    data = atomic.read_bytes(path)
    if data is None:
        return None
    try:
        record = json.loads(data)
    except ValueError:
        return {"corrupt": True}
    return record if isinstance(record, dict) else {"corrupt": True}


def _remove_journal(root: Path) -> None:
    atomic.remove(journal_path(root))
    shutil.rmtree(root / STATE_DIR / BACKUP_DIR, ignore_errors=True)


def _link_backup(root: Path, rel: str, expected: bytes, n: int) -> str | None:
    """Keep the old version of a big file as a hard link (no copy: the apply replaces the file
    by rename, so the old inode stays as it is). None where links do not work: back up inline."""
    folder = root / STATE_DIR / BACKUP_DIR
    dest = folder / str(n)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.link(root / rel, dest)
        if atomic.read_bytes(dest) == expected:  # not changed since the plan read it
            return f"{BACKUP_DIR}/{n}"
        dest.unlink()
    except OSError:
        pass
    return None


def _backup_entry(root: Path, rel: str, backup: bytes | None, final: bytes | None, n: int) -> dict:
    entry: dict = {"final": _sha(final), "backup": None}
    if backup is None:
        return entry
    link = _link_backup(root, rel, backup, n) if len(backup) >= LINK_AT_LEAST else None
    if link is None:
        entry["backup"] = _b64(backup)
    else:
        entry["link"] = link
    return entry


def _backup_bytes(root: Path, info: dict) -> tuple[bool, bytes | None]:
    """(known, the file's bytes before the apply); known is False if a linked backup is lost."""
    if "link" in info:
        data = atomic.read_bytes(root / STATE_DIR / info["link"])
        return data is not None, data
    return True, _unb64(info["backup"])


class RollbackIncomplete(Exception):
    """An apply failed and putting things back failed too; the journal is kept for recover()."""


@dataclass
class Outcome:
    commit: str | None
    notice: str | None = None
    hand_commit: str | None = None  # the commit of the person's own edits made first
    hand_paths: list[str] = field(default_factory=list)
    hand_new: list[str] = field(default_factory=list)  # of hand_paths: not tracked by git before


def execute(root: Path, plan: Plan, repo: GitRepo | None, on_step: StepHook | None = None) -> Outcome:
    """Carry out `plan` all-or-nothing (see the module doc)."""
    hook = on_step or (lambda _name: None)
    all_paths = [*plan.contents, logmd.LOG_PATH] + ([plan.index_path] if plan.index_bytes is not None else [])
    head = repo.head() if repo is not None else None
    # Paths git does not track must be `git add`ed before `git commit -- paths` takes them, and
    # un-added on rollback. One `git status` of the paths says which differ from HEAD (the
    # person's own edits) and which are not in the index: with `git add` and `git commit`, an
    # apply runs the processes a person committing by hand would, and one more. Where the
    # status cannot tell, git is asked (`ls-files`), as it is when the commit says a path is
    # unknown after all.
    to_stage: list[str] = []
    status = repo.status(all_paths) if head is not None else None
    hand, hand_new = _hand_edited(repo, all_paths, status)
    if repo is not None and (status is not None or any(_is_new(plan, p) for p in all_paths)):
        to_stage = [p for p in _untracked(repo, plan, all_paths, status) if p not in hand_new]
    shutil.rmtree(root / STATE_DIR / BACKUP_DIR, ignore_errors=True)  # leftovers: no journal now
    backups = {**plan.backups, plan.index_path: plan.index_backup}
    files = {p: _backup_entry(root, p, backups.get(p), data, n)
             for n, (p, data) in enumerate(_with_index(plan).items())}
    if any("link" in f for f in files.values()):
        atomic.fsync_dir(root / STATE_DIR / BACKUP_DIR)  # the links outlive a power cut
    record = {
        "version": 1, "operation": plan.operation, "title": plan.title, "time": time.time(),
        "pid": os.getpid(), "files": files, "new_dirs": plan.new_dirs,
        "log": {"size": plan.log_size, "append": _b64(plan.log_append)},
        "git": None if repo is None else {
            "head": head, "message": plan.message, "staged": hand_new + to_stage, "hand": hand},
    }
    committed = False
    commit = hand_commit = None
    try:
        hook("journal")
        _write_journal(root, record)
        hook("handedits")
        if hand:
            hand_commit = _commit_hand_edits(root, repo, record, hand, hand_new)
        hook("files")  # the pages and index.md, flushed together
        atomic.apply_contents(root, _with_index(plan))
        hook("log")
        logmd.append(root / logmd.LOG_PATH, plan.log_append)
        if repo is not None:
            hook("stage")
            repo.add(to_stage)
            hook("commit")
            try:
                commit = repo.commit(plan.message, all_paths)
            except UnknownPathError:
                tracked = repo.index_entries(all_paths)
                to_stage = [p for p in all_paths if p not in tracked and _final_exists(plan, p)]
                record["git"]["staged"] = to_stage
                _write_journal(root, record)  # rollback must know what it un-adds
                repo.add(to_stage)
                commit = repo.commit(plan.message, [p for p in all_paths
                                                    if p in tracked or p in to_stage])
        committed = True
        hook("cleanup")
        # Not flushed: a journal that survives a power cut is found committed and removed then.
        atomic.remove(journal_path(root), sync_dir=False)
        shutil.rmtree(root / STATE_DIR / BACKUP_DIR, ignore_errors=True)
        hook("end")
    except BaseException as exc:
        if not committed and repo is not None and _committed_anyway(record, repo):
            committed, commit = True, repo.head()  # e.g. Ctrl+C reached git after it moved HEAD
        if not committed:
            try:
                kept = rollback(root, record, repo)
                if not kept:
                    _remove_journal(root)
            except Exception as failure:  # the journal stays: recover() finishes the job
                raise RollbackIncomplete(
                    f"the apply failed ({exc}) and so did undoing it ({failure}); wiki-tui will "
                    "finish rolling back on its next start") from failure
            raise
        # Past the point of no return: the change is whole; only the journal may be left.
        try:
            _remove_journal(root)
        except OSError:
            pass  # recover() removes it on the next start
    return Outcome(commit, repo.identity_notice if repo is not None else None,
                   hand_commit, hand if hand_commit else [], hand_new if hand_commit else [])


def _hand_edited(repo: GitRepo | None, paths: list[str],
                 status: dict[str, str] | None) -> tuple[list[str], list[str]]:
    """(paths whose disk bytes differ from HEAD, the untracked ones among them); `status`:
    `repo.status(paths)` (None: no HEAD, nothing to differ from)."""
    if repo is None or status is None:
        return [], []
    hand = repo.changed_from_head(paths, status)
    if not hand:
        return [], []
    known = {p: in_index(status.get(p, "")) for p in hand}
    unsure = [p for p, inside in known.items() if inside is None]
    tracked = repo.index_entries(unsure) if unsure else {}
    return hand, [p for p in hand if not (known[p] or p in tracked)]


def _commit_hand_edits(root: Path, repo: GitRepo, record: dict, hand: list[str],
                       hand_new: list[str]) -> str:
    """Commit the person's own edits to `hand` as they are on disk, before the change."""
    repo.add(hand_new)
    subject = record["git"]["message"].split("\n", 1)[0]
    sha = repo.commit(hand_commit_message(subject, hand, hand_new), hand)
    # The change now builds on this commit; what rollback un-adds no longer includes them.
    record["git"]["head"] = sha
    record["git"]["staged"] = [p for p in record["git"]["staged"] if p not in hand_new]
    _write_journal(root, record)
    return sha


def _committed_anyway(record: dict, repo: GitRepo) -> bool:
    try:
        return _is_committed(record, repo)
    except Exception:  # noqa: BLE001 - cannot tell: roll back, as if not committed
        return False


def _with_index(plan: Plan) -> dict[str, bytes | None]:
    if plan.index_bytes is None:
        return plan.contents
    return {**plan.contents, plan.index_path: plan.index_bytes}


def _final_exists(plan: Plan, path: str) -> bool:
    if path in plan.contents:
        return plan.contents[path] is not None
    return True  # log.md and index.md exist after the apply


def _is_new(plan: Plan, path: str) -> bool:
    """Will the apply create this file (absent now, present after)?"""
    if path == logmd.LOG_PATH:
        return plan.log_size < 0
    if path == plan.index_path:
        return plan.index_backup is None
    return plan.backups.get(path) is None and plan.contents.get(path) is not None


def _untracked(repo: GitRepo, plan: Plan, paths: list[str], status: dict[str, str] | None) -> list[str]:
    """The paths git does not track that will exist after the apply: they need `git add`.
    From `status` (repo.status of the paths) where it tells: a path it does not list is clean,
    so tracked if it is on disk now, untracked if it is not (git lists a tracked file that is
    gone); else from git's index (`ls-files`)."""
    paths = [p for p in paths if _final_exists(plan, p)]
    if status is None:
        tracked = repo.index_entries(paths)
        return [p for p in paths if p not in tracked]
    known = {p: (not _is_new(plan, p)) if p not in status else in_index(status[p]) for p in paths}
    unsure = [p for p, inside in known.items() if inside is None]
    tracked = repo.index_entries(unsure) if unsure else {}
    return [p for p in paths if not (known[p] or p in tracked)]


def _state_matches(root: Path, record: dict) -> bool:
    """True when every file in the journal holds its planned final bytes and the log was appended."""
    for rel, info in record["files"].items():
        if _sha(atomic.read_bytes(root / rel)) != info["final"]:
            return False
    log = record["log"]
    data = atomic.read_bytes(root / logmd.LOG_PATH) or b""
    return data[max(log["size"], 0):] == (_unb64(log["append"]) or b"")


def _is_committed(record: dict, repo: GitRepo | None) -> bool:
    info = record.get("git")
    if info is None or repo is None:
        return False
    head = repo.head()
    if head is None or head == info["head"]:
        return False
    parents = repo.parents(head)
    if (parents[0] if parents else None) != info["head"]:
        return False
    return repo.message(head).strip() == info["message"].strip()


def _remove_temp_files(root: Path, record: dict) -> None:
    """Temp files a write killed halfway may have left beside the targets."""
    targets = [root / rel for rel in record.get("files", {})] + [journal_path(root)]
    for target in targets:
        try:
            names = os.listdir(target.parent)
        except OSError:
            continue
        for name in names:  # atomic.write_temp names them ".<name>.<random>.tmp"
            if name.startswith(f".{target.name}.") and name.endswith(".tmp"):
                (target.parent / name).unlink(missing_ok=True)


def stray_temp_files(root: Path) -> list[Path]:
    """Temp files of a journal write that was killed before its rename."""
    folder = journal_path(root).parent
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [folder / n for n in names if n.startswith(f".{JOURNAL_FILE}.") and n.endswith(".tmp")]


def remove_stray_temp_files(root: Path) -> None:
    """Remove them; only with the vault lock held (a live apply's journal write uses one)."""
    for path in stray_temp_files(root):
        path.unlink(missing_ok=True)


def rollback(root: Path, record: dict, repo: GitRepo | None) -> list[str]:
    """Put everything the journal lists back as it was; returns paths left alone (changed since)."""
    kept: list[str] = []
    restore: dict[str, bytes | None] = {}
    for rel, info in record["files"].items():
        current = atomic.read_bytes(root / rel)
        known, backup = _backup_bytes(root, info)
        if not known:
            kept.append(rel)  # its old version is lost: never guess, leave the file alone
            continue
        if current == backup:
            continue
        if _sha(current) == info["final"]:
            restore[rel] = backup
        else:
            kept.append(rel)
    atomic.apply_contents(root, restore)
    log = record["log"]
    log_file = root / logmd.LOG_PATH
    appended = _unb64(log["append"]) or b""
    data = atomic.read_bytes(log_file)
    size = len(data) if data is not None else -1
    if size != log["size"]:
        # Ours if what follows the old end is a prefix of what we meant to append (a killed append).
        tail = (data or b"")[max(log["size"], 0):]
        if size > log["size"] and appended.startswith(tail):
            logmd.truncate_to(log_file, log["size"])
        else:
            kept.append(logmd.LOG_PATH)
    git_info = record.get("git")
    if git_info and repo is not None and git_info.get("staged") and repo.head() == git_info["head"]:
        repo.restore_index({}, git_info["staged"])  # they were untracked: un-add them
    for folder in record.get("new_dirs", []):
        try:
            (root / folder).rmdir()
        except OSError:
            pass  # not empty (someone put a file there) or already gone
    _remove_temp_files(root, record)
    return kept


def recover(root: Path) -> str | None:
    """Finish or roll back an interrupted apply; a message for the person, or None if none was pending."""
    record = load_journal(root)
    if record is None:
        return None
    if record.get("corrupt") or record.get("version") != 1:
        aside = journal_path(root).with_suffix(f".unreadable-{int(time.time())}.json")
        os.replace(journal_path(root), aside)
        return (f"found an unreadable apply journal from an interrupted run; moved it to {aside} "
                "without changing anything. Check the vault (and `git status`) by hand.")
    what = f"{record.get('operation', 'apply')} | {record.get('title', '')}"
    cleared = _clear_dead_git_lock(root, record)
    repo = GitRepo.open(root)
    try:
        done = _is_committed(record, repo) if record.get("git") else _state_matches(root, record)
        if done:
            if repo is not None:  # git may have died after moving HEAD, before the index
                repo.reset_index([p for p in [*record["files"], logmd.LOG_PATH]
                                  if isinstance(p, str)])
            _remove_temp_files(root, record)
            _remove_journal(root)
            return cleared + (f"wiki-tui was interrupted after applying “{what}”; it had "
                              "completed, nothing was lost.")
        kept = rollback(root, record, repo)
        _settle_hand_commit(repo, record)
    finally:
        if repo is not None:
            repo.close()
    if kept:
        stamp = int(time.time())
        aside = journal_path(root).with_suffix(f".{stamp}.json")
        os.replace(journal_path(root), aside)
        where = str(aside)
        links = root / STATE_DIR / BACKUP_DIR
        if links.exists():  # big files' old versions: keep them beside the journal
            os.replace(links, links.with_name(f"{BACKUP_DIR}.{stamp}"))
            where += f" and {links.with_name(f'{BACKUP_DIR}.{stamp}')}"
        return cleared + (f"wiki-tui was interrupted while applying “{what}” and rolled it back, except "
                f"{', '.join(kept)}, which changed since; left as they are. The original contents "
                f"are in {where}.")
    _remove_journal(root)
    return cleared + (f"wiki-tui was interrupted while applying “{what}”; it was rolled back and "
                      "nothing from it was kept. Run the operation again to redo it.")


def _settle_hand_commit(repo: GitRepo | None, record: dict) -> None:
    """The person's edits were committed apart before the crash: that commit stays (it holds
    only their own bytes), and its files' index entries are made to match it, in case git
    died after moving HEAD but before writing the index."""
    hand = (record.get("git") or {}).get("hand") or []
    head = repo.head() if repo is not None and hand else None
    if head is not None and _is_hand_commit(repo, head):
        repo.reset_index(hand)


def _is_hand_commit(repo: GitRepo, rev: str) -> bool:
    return f"\n{TRAILER_HAND}: " in repo.message(rev)


def _pid_alive(pid: object) -> bool:
    if not isinstance(pid, int) or pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True


def _clear_dead_git_lock(root: Path, record: dict) -> str:
    """Remove git's lock files (index.lock, HEAD.lock, the branch's ref lock) when the
    interrupted apply's own git left them.

    Every git write wiki-tui makes runs while a journal exists and the vault lock is held; we
    hold that lock now, so the journal's process is dead, and a lock file made since its
    journal was written is that process's git, killed with it (closing a terminal kills the
    whole process group). Without this, every later commit fails with "index.lock: File
    exists" until the person finds the file. Returns a sentence for the message ("" if none).
    """
    if record.get("git") is None or _pid_alive(record.get("pid")):
        return ""
    cleared = []
    for lock in commit_locks(root):
        try:
            if lock.stat().st_mtime < float(record.get("time", 0)) - 2:
                continue  # older than the apply: not its git's
            lock.unlink()
        except OSError:
            continue
        cleared.append(str(lock))
    if not cleared:
        return ""
    return (f"Removed {', '.join(cleared)}, left by a git command that was killed with the "
            "interrupted apply. ")
