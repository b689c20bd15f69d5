"""Applying a reviewed changeset: conflict check, atomic writes, log.md, index.md, git, undo.

Conflict policy: a file whose disk text no longer matches the base the model saw is a conflict.
That file is not written (status CONFLICT, with the reason); every other accepted file still
applies, and the log entry names the skipped ones. `rebase_conflict` re-diffs such a file
against the new disk text (three-way merge) for another review. Pass `abort_on_conflict=True`
to write nothing at all when any file conflicts.

Everything runs through `transaction.execute`: all-or-nothing, with a journal in `.wiki-tui/`
that `recover()` uses after a crash.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wiki_tui.changes.apply import atomic, logmd, transaction
from wiki_tui.changes.apply.index_md import INDEX_PATH, NOT_LISTED, canvas_rows, page_rows, render_rows
from wiki_tui.changes.apply.transaction import STEPS, Plan, StepHook  # noqa: F401  (STEPS re-exported)
from wiki_tui.changes.apply.vault_lock import VaultBusy, vault_lock
from wiki_tui.changes.build.form_files import follow_pages
from wiki_tui.changes.build.merge import merge3
from wiki_tui.changes.build.review_notes import mark_review_notes
from wiki_tui.changes.gitops import (TRAILER_MODEL, TRAILER_OPERATION, TRAILER_REVERTS, GitError,
                                     GitRepo, commit_message, git_installed, index_lock,
                                     no_repo_notice, parse_trailers)
from wiki_tui.changes.model import (ACCEPTED, CONFLICT, CREATE, DELETE, MODIFY, REJECTED, RENAME,
                                    Changeset, FileChange, text_hash)
from wiki_tui.changes.vault_state import recovery_pending

BOOKKEEPING = (logmd.LOG_PATH, INDEX_PATH)


class ApplyError(Exception):
    """The changeset could not be applied; nothing was written."""


class UndoError(Exception):
    """Undo refused; `reason` says why. Nothing was changed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class ApplyResult:
    written: list[str] = field(default_factory=list)  # created or updated (incl. rename targets)
    deleted: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)  # (old, new)
    commit: str | None = None
    conflicts: list[str] = field(default_factory=list)  # not written: changed on disk
    log_entry: str = ""  # the text appended to log.md ("" when nothing was applied)
    notice: str | None = None  # for the person: no git repo, no git identity, nothing accepted
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)

    @property
    def applied(self) -> bool:
        return bool(self.log_entry)

    def __str__(self) -> str:
        if not self.applied:
            return self.notice or "nothing applied"
        done = [f"{len(self.written)} written"] + ([f"{len(self.deleted)} deleted"] if self.deleted else [])
        text = "applied: " + ", ".join(done)
        if self.commit:
            text += f", commit {self.commit[:7]}"
        if self.conflicts:
            text += f"; not written (changed on disk): {', '.join(self.conflicts)}"
        return text


@dataclass
class UndoResult:
    commit: str  # the new revert commit
    reverted: str  # the commit that was undone
    title: str
    restored: list[str] = field(default_factory=list)  # files brought back to their old text
    removed: list[str] = field(default_factory=list)  # files the undone change had created
    log_entry: str = ""
    notice: str | None = None

    def __str__(self) -> str:
        parts = [f"undid “{self.title}” ({self.reverted[:7]}, new commit {self.commit[:7]})"]
        if self.restored:
            parts.append("restored " + ", ".join(self.restored))
        if self.removed:
            parts.append("removed " + ", ".join(self.removed))
        return "; ".join(parts)


# -- reading disk ------------------------------------------------------------------------------
def _root(vault: Any) -> Path:
    return Path(vault.root)


def _target(root: Path, path: str) -> Path:
    """The file for a vault path. A second line of defence behind changes/build/guards.py (which
    vetted the path when the changeset was built): never leave the vault, never touch what
    wiki-tui, git or Obsidian keep for themselves."""
    if not path or path.startswith("/") or "\\" in path or ".." in path.split("/"):
        raise ApplyError(f"refusing path {path!r}: not a plain path inside the vault")
    if path in BOOKKEEPING:
        raise ApplyError(f"refusing to write {path} from a changeset: wiki-tui maintains it itself")
    if path.split("/", 1)[0] in (".git", ".wiki-tui", ".obsidian"):
        raise ApplyError(f"refusing to write {path}: that folder is not part of the wiki")
    target = root / path
    real_root = root.resolve()
    if real_root not in target.resolve().parents:
        raise ApplyError(f"refusing to write {path}: a symlink leads it outside the vault")
    return target


def _matches_base(data: bytes | None, change: FileChange) -> bool:
    """Is the disk content still, byte for byte, the base the change was computed from?

    Bases are read as stored (CRLF and BOM kept), so any difference is a real change on disk:
    a page converted to CRLF by another program is a conflict to show, not the same page.
    """
    if data is None or change.base_text is None:
        return data is None and change.base_text is None
    return text_hash(atomic.decode(data)) == change.base_hash


def _parse(path: str, text: str) -> Any:
    from wiki_tui.vault.page import parse_page

    return parse_page(path, text)


def _title(vault: Any, path: str, text: str | None) -> str | None:
    if text is not None and path.lower().endswith(".md"):
        try:
            return _parse(path, text).title
        except Exception:  # a page the parser cannot read still gets a plain link
            return None
    page = getattr(vault, "pages", {}).get(path)
    return page.title if page is not None else None


def _index_plan(vault: Any, root: Path, texts: dict[str, str | None]
                ) -> tuple[bytes | None, bytes | None, list[str]]:
    """(new index.md bytes or None if unchanged, current index.md bytes, pages left out) with
    `texts` applied. In a git repository the catalog lists the pages of the commit it goes
    into: those in HEAD and the changeset's own. A page the person made and has not committed
    is left out (a clone would have an entry for a missing page) until it is committed."""
    rows = page_rows(vault.pages)
    at = {row[0]: i for i, row in enumerate(rows) if row[0] in texts} if texts else {}
    gone = []
    for path, text in texts.items():
        if text is None or not path.lower().endswith(".md"):
            if path in at:
                gone.append(at[path])
            continue
        page = _parse(path, text)
        row = (path, page.title, page.summary, page.type)
        if path in at:
            rows[at[path]] = row  # in place: unchanged metadata keeps the rows identical
        else:
            rows.append(row)
    for i in sorted(gone, reverse=True):
        del rows[i]
    schema = getattr(vault, "schema", None)
    types = getattr(schema, "types", None)
    rows += canvas_rows(root, getattr(vault, "attachments", ()), types, texts)
    committed = _committed_files(root)
    left_out: list[str] = []
    if committed is not None:
        kept = [row for row in rows if row[0] in committed or row[0] in texts
                or row[0] in NOT_LISTED]
        if len(kept) != len(rows):
            left_out = sorted(row[0] for row in rows if row[0] not in committed
                              and row[0] not in texts and row[0] not in NOT_LISTED)
            rows = kept
    rendered = render_rows(rows, types)
    current = atomic.read_bytes(root / INDEX_PATH)
    new = atomic.encode(rendered, atomic.FileFormat.of(current))
    return (None if new == current else new), current, left_out


def _committed_files(root: Path) -> set[str] | None:
    """The vault files in HEAD of the vault's repository; None without one."""
    repo = GitRepo.open(root)
    if repo is None:
        return None
    try:
        return repo.head_files()
    except GitError:
        return None
    finally:
        repo.close()


def _left_out_notice(left_out: list[str]) -> str | None:
    if not left_out:
        return None
    shown = ", ".join(left_out[:5]) + (f" and {len(left_out) - 5} more" if len(left_out) > 5 else "")
    return (f"index.md leaves out {len(left_out)} page{'s' if len(left_out) != 1 else ''} not "
            f"committed to git yet ({shown}), so that the commit's catalog names only pages "
            "the commit has: commit them, and the next change lists them.")


def _log_tail(root: Path) -> tuple[bytes | None, int]:
    """The last bytes of log.md (enough to see how it ends) and its size (-1: missing)."""
    path = root / logmd.LOG_PATH
    try:
        with open(path, "rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - 4096))
            return handle.read(), size
    except FileNotFoundError:
        return None, -1


def sync_with_disk(vault: Any) -> None:
    """Bring the vault's page list in step with disk. Call it with the vault lock held: what
    is derived from the vault (index.md above all) must include another process's apply that
    finished while this one waited for the lock."""
    sync = getattr(vault, "sync_with_disk", None)
    if sync is not None:
        sync()


def _refresh(vault: Any, paths: list[str]) -> None:
    refresh = getattr(vault, "refresh_file", None)
    if refresh is None:
        return
    for path in paths:
        refresh(path)


def _run(vault: Any, root: Path, plan: Plan, on_step: StepHook | None) -> tuple[str | None, str | None]:
    """Execute the plan with the vault's git repository (if any); (commit, notice)."""
    repo = GitRepo.open(root)
    try:
        outcome = transaction.execute(root, plan, repo, on_step)
    except GitError as exc:
        raise ApplyError(f"{exc}. Nothing was written.") from None
    except transaction.RollbackIncomplete as exc:
        raise ApplyError(str(exc)) from exc
    except atomic.UnsafePathError as exc:
        raise ApplyError(f"{exc}. Nothing was written.") from None
    finally:
        if repo is not None:
            repo.close()
    notice = outcome.notice if repo is not None else no_repo_notice()
    if outcome.hand_commit:
        notice = _join(_hand_notice(outcome), notice)
    touched = [*plan.contents, logmd.LOG_PATH] + ([INDEX_PATH] if plan.index_bytes is not None else [])
    _refresh(vault, touched)
    mark = getattr(vault, "mark_synced", None)
    if mark is not None:  # the lock is still held: no other apply happened since the sync
        mark()
    return outcome.commit, notice


def _join(*notices: str | None) -> str | None:
    parts = [n for n in notices if n]
    return " ".join(parts) if parts else None


# -- apply -------------------------------------------------------------------------------------
def check_conflicts(vault: Any, changeset: Changeset, *, accepted_only: bool = False) -> list[FileChange]:
    """Mark (status CONFLICT, with a reason) the files that changed on disk since proposed.

    The review can call this before applying, to show conflicts early; apply calls it for the
    accepted files.
    """
    root = _root(vault)
    found = []
    for change in changeset.files:
        if change.status in (REJECTED, CONFLICT) or (accepted_only and change.status != ACCEPTED):
            continue
        reason = _conflict_reason(root, change)
        if reason:
            change.status, change.conflict = CONFLICT, reason
            found.append(change)
    return found


def _conflict_reason(root: Path, change: FileChange) -> str | None:
    source = change.source
    data = atomic.read_bytes(_target(root, source))
    if not _matches_base(data, change):
        if data is None:
            return f"{source} was deleted on disk after the change was proposed"
        if change.base_text is None:
            return f"{source} was created on disk after the change was proposed"
        return f"{source} changed on disk after the change was proposed"
    if change.kind == RENAME and change.path != source and _target(root, change.path).exists():
        return f"cannot rename {source} to {change.path}: {change.path} already exists"
    return None


@dataclass
class _Collected:
    """What the accepted files of a changeset will do to disk, and how to log it."""

    contents: dict[str, bytes | None] = field(default_factory=dict)  # final bytes, None = delete
    backups: dict[str, bytes | None] = field(default_factory=dict)  # bytes on disk now
    texts: dict[str, str | None] = field(default_factory=dict)  # final text, for index and titles


def _collect(vault: Any, root: Path, changeset: Changeset, result: ApplyResult,
             entry: logmd.LogEntry) -> _Collected:
    out = _Collected()
    for change in changeset.files:
        if change.status == CONFLICT:
            result.conflicts.append(change.path)
            entry.skipped.append(change.path)
            continue
        if change.status != ACCEPTED:  # rejected, or never decided: not written
            result.rejected.append(change.path)
            entry.rejected.append(f"{change.old_path} → {change.path}" if change.kind == RENAME
                                  and change.old_path else change.path)
            continue
        source = change.source
        disk = atomic.read_bytes(_target(root, source))
        _target(root, change.path)  # refuses a target outside the vault or a bookkeeping file
        if change.kind == DELETE:
            if disk is not None:
                out.contents[source], out.backups[source], out.texts[source] = None, disk, None
                result.deleted.append(source)
                entry.deleted.append(source)
            continue
        text = change.result_text() or ""
        data = atomic.encode(text, atomic.FileFormat.of(disk))  # keeps CRLF and BOM
        if change.kind == RENAME and source != change.path:
            out.contents[source], out.backups[source], out.texts[source] = None, disk, None
            out.contents[change.path], out.backups[change.path] = data, None
            out.texts[change.path] = text
            result.renamed.append((source, change.path))
            result.written.append(change.path)
            entry.renamed.append((source, change.path))
            if data != disk:
                entry.updated.append((change.path, _title(vault, change.path, text)))
            continue
        if data == disk:
            continue  # the accepted hunks leave the file as it is: nothing to record
        out.contents[change.path], out.backups[change.path] = data, disk
        out.texts[change.path] = text
        result.written.append(change.path)
        title = _title(vault, change.path, text)
        if disk is None:
            result.created.append(change.path)
            entry.created.append((change.path, title))
        else:
            result.updated.append(change.path)
            entry.updated.append((change.path, title))
    return out


def apply_changeset(vault: Any, changeset: Changeset, *, date: _dt.date | str | None = None,
                    on_step: StepHook | None = None, abort_on_conflict: bool = False) -> ApplyResult:
    """Write the accepted files and hunks of `changeset`, log it, regenerate index.md, commit.

    Raises ApplyError (nothing written) when the plan cannot be carried out, e.g. git refuses
    the commit or another wiki-tui process is applying to the vault. Conflicting files are
    skipped (see the module doc), never overwritten; with `abort_on_conflict` any conflict
    means nothing is applied. `on_step(name)` runs before each step of the transaction
    (transaction.STEPS), for fault-injection tests.
    """
    try:
        with vault_lock(_root(vault)):
            return _apply(vault, changeset, date, on_step, abort_on_conflict)
    except VaultBusy as exc:
        raise ApplyError(str(exc)) from None


def _apply(vault: Any, changeset: Changeset, date: _dt.date | str | None,
           on_step: StepHook | None, abort_on_conflict: bool) -> ApplyResult:
    root = _root(vault)
    recovered = recover(vault)
    sync_with_disk(vault)  # under the lock: another process may have applied since we read
    conflicts = sorted(c.path for c in check_conflicts(vault, changeset, accepted_only=True))
    follow_pages(changeset)  # a chart's SVG takes its page's decision
    result = ApplyResult()
    entry = logmd.LogEntry(changeset.operation, changeset.title, date,
                           left_out=list(changeset.left_out), spend=changeset.spend,
                           source=changeset.source)
    collected = _collect(vault, root, changeset, result, entry)
    if conflicts and abort_on_conflict:
        return ApplyResult(conflicts=result.conflicts, rejected=result.rejected, notice=_join(
            recovered, f"Nothing applied: {', '.join(conflicts)} changed on disk since the "
            "change was proposed (no file written, no log entry, no commit)."))
    if not collected.contents:
        if conflicts:
            why = "every accepted file changed on disk"
        elif not any(f.status == ACCEPTED for f in changeset.files):
            why = "nothing was accepted"
        else:
            why = "no accepted change alters a file"
        result.notice = _join(recovered, f"Nothing applied ({why}): no file written, no log entry, no commit.")
        return result
    left_out, plan = _plan(vault, root, changeset.operation, changeset.title, changeset.model,
                 collected.contents, collected.backups, collected.texts, entry,
                 changeset.spend.trailers() if changeset.spend is not None else None)
    result.log_entry = entry.render()
    result.commit, notice = _run(vault, root, plan, on_step)
    if conflicts:
        notice = _join(f"Not written because they changed on disk: {', '.join(conflicts)} "
                       "(re-diff them against the new text).", notice)
    result.notice = _join(recovered, notice, _left_out_notice(left_out))
    return result


def _hand_notice(outcome: transaction.Outcome) -> str:
    """What was committed apart before the change: edits of tracked files, and notes git did
    not track yet (committed as found: not edits, nothing to warn about)."""
    edited = [p for p in outcome.hand_paths if p not in outcome.hand_new]
    said = []
    if edited:
        said.append(f"uncommitted edits not made by wiki-tui to {', '.join(edited)}")
    if outcome.hand_new:
        said.append(f"your notes not in git yet ({', '.join(outcome.hand_new)}), as found,")
    text = " and ".join(said)
    return (f"{text[0].upper()}{text[1:]} were committed first, on their own (commit "
            f"{outcome.hand_commit[:7]}), so this change and its undo leave them as they are.")


def _plan(vault: Any, root: Path, operation: str, title: str, model: str,
          contents: dict[str, bytes | None], backups: dict[str, bytes | None],
          texts: dict[str, str | None], entry: logmd.LogEntry,
          extra_trailers: dict[str, str] | None = None) -> tuple[list[str], Plan]:
    index_bytes, index_backup, left_out = _index_plan(vault, root, texts)
    tail, size = _log_tail(root)
    return left_out, Plan(
        operation=operation, title=title,
        message=commit_message(operation, title, model, extra_trailers),
        contents=contents, backups=backups,
        log_append=logmd.append_bytes(tail, entry.render()),
        log_size=size, index_bytes=index_bytes, index_backup=index_backup,
        new_dirs=transaction._new_dirs(root, [p for p, d in contents.items() if d is not None]),
    )


# -- notes for the review ----------------------------------------------------------------------
MERGED_WARNING = ("merged with an edit made to {path} on disk after the change was proposed; "
                  "that edit is kept (and committed on its own first)")


# -- conflicts ---------------------------------------------------------------------------------
def rebase_conflict(vault: Any, change: FileChange) -> FileChange:
    """A fresh FileChange for a conflicting file, re-diffed against the text now on disk.

    The model's proposal is merged three-way onto the disk text (base = what the model saw):
    where the two sets of changes do not overlap the result takes both; overlapping regions are
    marked with <<<<<<< / ======= / >>>>>>> lines, and the change stays CONFLICT (with the
    count in `conflict`) until the person edits it by hand. Hunk decisions start over.
    """
    root = _root(vault)
    source = change.source
    disk = atomic.read_bytes(_target(root, source))
    theirs = atomic.decode(disk) if disk is not None else None
    proposed = change.proposed_text
    if change.kind == DELETE:
        fresh = FileChange(change.path, DELETE, theirs, None)
        if theirs is None:
            fresh.status, fresh.conflict = REJECTED, f"{change.path} is already gone from disk"
        return fresh
    if theirs is None:  # the page vanished: propose creating it afresh
        return _renoted(root, change, FileChange(change.path, CREATE, None, proposed))
    if change.base_text is None or change.kind == CREATE:  # someone created it meanwhile
        return _renoted(root, change, FileChange(change.path, MODIFY, theirs, proposed))
    base = change.base_text
    if "\r\n" in theirs and "\r\n" not in base:
        theirs_cmp = theirs.replace("\r\n", "\n")
    else:
        theirs_cmp = theirs
    merged = merge3(base, theirs_cmp, proposed or "")
    text = merged.text
    if theirs_cmp is not theirs:
        text = text.replace("\n", "\r\n")
    if change.kind == RENAME:
        fresh = FileChange(change.path, RENAME, theirs, text, old_path=change.old_path)
        target_reason = _conflict_reason(root, fresh)
        if target_reason:
            fresh.status, fresh.conflict = CONFLICT, target_reason
            return _renoted(root, change, fresh)
    else:
        fresh = FileChange(change.path, MODIFY, theirs, text)
    if not merged.clean:
        fresh.status = CONFLICT
        fresh.conflict = (f"{merged.conflicts} change(s) overlap with edits made on disk; both "
                          "versions are marked with <<<<<<< / >>>>>>> lines: edit the file to resolve")
    return _renoted(root, change, fresh)


def _renoted(root: Path, old: FileChange, fresh: FileChange) -> FileChange:
    """The re-diffed file keeps the notes that still hold, says it merged an outside edit, and
    is checked again for hand edits."""
    if fresh.base_text is not None and fresh.base_text != old.base_text:
        fresh.warn(MERGED_WARNING.format(path=fresh.source))
    mark_review_notes(root, [fresh])
    return fresh


# -- undo --------------------------------------------------------------------------------------
def _subject(message: str) -> str:
    return message.strip().split("\n", 1)[0]


def _find_undo_target(repo: GitRepo, head: str) -> tuple[str, str]:
    """(sha, message) of the latest wiki-tui changeset not undone yet."""
    log = repo._run("log", "--first-parent", "-n", "200", "--format=%H%x00%B%x1e", head)
    reverted: set[str] = set()
    for n, record in enumerate(r for r in log.split("\x1e") if r.strip()):
        sha, _, message = record.strip("\n").partition("\x00")
        trailers = parse_trailers(message)
        operation = trailers.get(TRAILER_OPERATION)
        if operation is None:
            if n == 0:
                raise UndoError(f"the last commit ({sha[:7]} “{_subject(message)}”) was not made by "
                                "wiki-tui; undo only reverts wiki-tui's own last change")
            raise UndoError("nothing left to undo: every wiki-tui change since the last commit made "
                            f"outside wiki-tui ({sha[:7]} “{_subject(message)}”) is already undone")
        if operation == "undo":
            reverted.add(trailers.get(TRAILER_REVERTS, ""))
            continue
        if any(r and sha.startswith(r) for r in reverted):
            continue
        return sha, message
    raise UndoError("nothing to undo within the last 200 commits")


def undo_last(vault: Any, *, date: _dt.date | str | None = None,
              on_step: StepHook | None = None) -> UndoResult:
    """Revert the last changeset wiki-tui committed: a new commit plus an "undo" log entry.

    Refuses (UndoError) without a git repository, when the last commit is not wiki-tui's, or
    when any file of that changeset changed since (later commits, staged or unstaged edits,
    untracked files in the way). Only that changeset's files are touched.
    """
    try:
        with vault_lock(_root(vault)):
            return _undo(vault, date, on_step)
    except VaultBusy as exc:
        raise UndoError(str(exc)) from None


def _undo(vault: Any, date: _dt.date | str | None, on_step: StepHook | None) -> UndoResult:
    root = _root(vault)
    recovered = recover(vault)
    sync_with_disk(vault)
    repo = GitRepo.open(root)
    if repo is None:
        if not git_installed():
            raise UndoError("git is not installed, so there is no history to undo")
        raise UndoError("this vault is not a git repository, so there is no history to undo "
                        "(run `git init` or `wiki-tui init` to start one)")
    try:
        head = repo.head()
        if head is None:
            raise UndoError("the repository has no commits yet: nothing to undo")
        target, message = _find_undo_target(repo, head)
        trailers = parse_trailers(message)
        title = _subject(message).partition(": ")[2] or _subject(message)
        changes = [c for c in repo.changed_files(target) if c[1] not in BOOKKEEPING]
        if not changes:
            raise UndoError(f"commit {target[:7]} changed no pages: nothing to undo")
        paths = sorted({c[1] for c in changes} | {c[2] for c in changes if c[2]})
        later = repo.changed_between(target, head, paths)
        if later:
            raise UndoError(f"{', '.join(later)} changed in later commits; undoing “{title}” would "
                            "overwrite that work")
        dirty = repo.dirty(paths)
        if dirty:
            raise UndoError(f"{', '.join(dirty)} has uncommitted changes (or is in the way); "
                            "commit or discard them first, then undo")
        parents = repo.parents(target)
        parent = parents[0] if parents else None
        contents: dict[str, bytes | None] = {}
        backups: dict[str, bytes | None] = {}
        texts: dict[str, str | None] = {}
        result = UndoResult(commit="", reverted=target, title=title)
        entry = logmd.LogEntry("undo", title, date)
        for status, path, old in changes:
            backups[path] = atomic.read_bytes(root / path)
            if status == "R" and old:
                backups[old] = atomic.read_bytes(root / old)
                data = repo.blob(parent, old) if parent else None
                contents[path], contents[old] = None, data
                texts[path], texts[old] = None, atomic.decode(data) if data is not None else None
                entry.renamed.append((path, old))
                result.restored.append(old)
                result.removed.append(path)
                continue
            data = repo.blob(parent, path) if parent else None
            contents[path] = data
            text = atomic.decode(data) if data is not None else None
            texts[path] = text
            if data is None:
                entry.deleted.append(path)
                result.removed.append(path)
            elif status == "D":
                entry.created.append((path, _title(vault, path, text)))
                result.restored.append(path)
            else:
                entry.updated.append((path, _title(vault, path, text)))
                result.restored.append(path)
    finally:
        repo.close()
    left_out, plan = _plan(vault, root, "undo", title, trailers.get(TRAILER_MODEL, "unknown"),
                           contents, backups, texts, entry, {TRAILER_REVERTS: target})
    try:
        result.commit, notice = _run(vault, root, plan, on_step)
    except ApplyError as exc:
        raise UndoError(str(exc)) from None
    result.log_entry = entry.render()
    result.notice = _join(recovered, notice, _left_out_notice(left_out))
    if result.commit is None:  # cannot happen with a repository, but never claim a no-op
        raise UndoError("the undo was written but git made no commit")
    _prune_empty_folders(root, result.removed)
    return result


def _prune_empty_folders(root: Path, removed: list[str]) -> None:
    """Folders the undone change created for its new pages go too, once empty."""
    for path in removed:
        folder = (root / path).parent
        while folder != root and root in folder.parents:
            try:
                folder.rmdir()
            except OSError:
                break  # not empty (or not ours to remove)
            folder = folder.parent


def _git_lock_notice(root: Path) -> str | None:
    """Say so when git's index.lock is in the way of the next commit (not ours to remove:
    no interrupted apply of wiki-tui left it)."""
    lock = index_lock(root)
    if lock is None:
        return None
    return (f"{lock} exists: a git command is running in this repository, or one was killed. "
            "wiki-tui cannot commit until it is gone; if no git command is running, delete it.")


def recover(vault: Any) -> str | None:
    """Finish or roll back an apply interrupted by a crash; a message for the person, or None.

    Call it on start-up, before showing the vault. Accepts a Vault (whose index is refreshed
    for the files involved) or a vault folder.
    """
    root = Path(vault) if isinstance(vault, (str, Path)) else _root(vault)
    if not recovery_pending(root):
        return None
    if not transaction.journal_path(root).exists() and not transaction.stray_temp_files(root):
        return _git_lock_notice(root)
    try:
        with vault_lock(root):  # waits for a live apply in another process to finish
            transaction.remove_stray_temp_files(root)  # a journal write killed halfway
            record = transaction.load_journal(root)
            if record is None:
                return _git_lock_notice(root)  # it was a live apply, now complete
            try:
                message = transaction.recover(root)
            except (GitError, OSError) as exc:  # never a traceback: say what to do
                return (f"wiki-tui found an interrupted apply but could not finish putting it "
                        f"right ({exc}); its journal is kept in {transaction.journal_path(root)} "
                        "and the next command tries again.")
    except VaultBusy:
        return ("another wiki-tui process is applying changes to this vault; an unfinished "
                "apply will be checked the next time")
    if not isinstance(vault, (str, Path)):
        paths = list(record.get("files") or {}) + [logmd.LOG_PATH]
        _refresh(vault, [p for p in paths if isinstance(p, str)])
    return message
