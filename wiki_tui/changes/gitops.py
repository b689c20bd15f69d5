"""The few git operations the journal needs, through GitPython's command interface only.

One `GitRepo` per operation (a context manager that closes GitPython's helper processes);
never GitPython's pure-Python index (10x slower, and it changes the process's working folder).
Paths in and out are vault-relative; the vault may sit in a sub-folder of the repository.
"""

from __future__ import annotations

import os
import shutil
import zlib
from pathlib import Path

# Without a git executable GitPython refuses to import at all; "quiet" lets it import so that a
# vault still works without git (files, log and index), with a notice.
os.environ.setdefault("GIT_PYTHON_REFRESH", "quiet")

import git  # noqa: E402
from git.exc import GitCommandError, InvalidGitRepositoryError, NoSuchPathError  # noqa: E402
from git.refs.symbolic import SymbolicReference  # noqa: E402

from wiki_tui.changes.vault_state import find_git_dir  # noqa: E402

TRAILER_OPERATION = "Wiki-Tui-Changeset"
TRAILER_MODEL = "Model"
TRAILER_REVERTS = "Wiki-Tui-Reverts"
TRAILER_HAND = "Wiki-Tui-Hand-Edits"  # a commit of the person's own edits, made before a change
# Used for the commit only when git has no identity configured (see commit()).
FALLBACK_NAME = "wiki-tui"
FALLBACK_EMAIL = "wiki-tui@localhost"
NO_REPO_NOTICE = (
    "this vault is not a git repository: the changes were written and logged but not committed. "
    "Run `git init` (or `wiki-tui init`) in the vault to keep a history and allow undo."
)
UNKNOWN_PATH_ERROR = "did not match any file(s) known to git"
NO_GIT_NOTICE = (
    "git is not installed, so the changes were written and logged but not committed. Install "
    "git and run `git init` in the vault to keep a history and allow undo."
)
_IDENTITY_ERRORS = ("Please tell me who you are", "unable to auto-detect email address",
                    "empty ident name")


def git_installed() -> bool:
    return shutil.which(git.Git.GIT_PYTHON_GIT_EXECUTABLE or "git") is not None


def no_repo_notice() -> str:
    return NO_REPO_NOTICE if git_installed() else NO_GIT_NOTICE


class GitError(Exception):
    """A git command failed; the message says which and why."""


class UnknownPathError(GitError):
    """`git commit -- paths` named a path git does not track (it must be added first)."""


def commit_message(operation: str, title: str, model: str, extra: dict[str, str] | None = None) -> str:
    title = " ".join(title.split()) or "(untitled)"
    trailers = {TRAILER_OPERATION: operation, TRAILER_MODEL: " ".join(model.split()) or "unknown"}
    trailers.update(extra or {})
    return f"{operation}: {title}\n\n" + "\n".join(f"{k}: {v}" for k, v in trailers.items()) + "\n"


def parse_trailers(message: str) -> dict[str, str]:
    """Trailers of the message's last paragraph (key: value lines)."""
    paragraphs = message.strip().split("\n\n")
    if len(paragraphs) < 2:
        return {}
    out = {}
    for line in paragraphs[-1].splitlines():
        key, sep, value = line.partition(": ")
        if sep and key and " " not in key:
            out[key] = value.strip()
    return out


def _error(exc: GitCommandError) -> GitError:
    detail = (exc.stderr or exc.stdout or "").strip().removeprefix("stderr: ").strip("'\" \n")
    if "index.lock" in detail:
        detail += (" (another git command is running in this repository, or one was killed; "
                   "if none is running, delete .git/index.lock)")
    return GitError(f"git {exc.command[1] if len(exc.command) > 1 else ''} failed: {detail}")


HAND_PATHS_NAMED = 50  # paths a hand-edits commit's message names (10,000 notes would be 400 KB)


def hand_commit_message(before: str, paths: list[str], new: list[str] | tuple = ()) -> str:
    """The message of the commit that keeps the person's own uncommitted edits apart. `new`:
    those of `paths` git did not track yet (notes of theirs never committed, not edits)."""
    before = " ".join(before.split())
    edited = [p for p in paths if p not in new]
    if edited:
        subject = f"hand edits before {before}"
        body = ("Uncommitted edits found on disk (not written by wiki-tui), committed on their "
                "own so that the change after this one, and its undo, leave them as they are.")
        if new:
            body += " Among them, files git did not track yet, committed as found."
    else:
        subject = f"notes as found before {before}"
        body = ("The person's own notes, not in git yet and not written by wiki-tui, committed "
                "as found on their own, so that the change after this one, and its undo, "
                "return them to this text.")
    named = [" ".join(p.split()) for p in paths[:HAND_PATHS_NAMED]]
    if len(paths) > HAND_PATHS_NAMED:  # a folder of notes adopted: git show lists them all
        named.append(f"and {len(paths) - HAND_PATHS_NAMED:,} more")
    return f"{subject}\n\n{body}\n\n{TRAILER_HAND}: {', '.join(named)}\n"


def index_lock(vault_root: Path) -> Path | None:
    """git's index lock file for the vault's repository, if it exists."""
    git_dir = find_git_dir(vault_root)
    lock = git_dir / "index.lock" if git_dir is not None else None
    return lock if lock is not None and lock.exists() else None


def in_index(xy: str) -> bool | None:
    """Whether a path with this `GitRepo.status` record has an entry in git's index (None:
    cannot tell from the record; ask `index_entries`)."""
    if xy == "??" or (len(xy) == 2 and xy[0] == "D" and xy[1] == " "):
        return False  # untracked, or its deletion staged
    if len(xy) == 2 and xy[0] in " MTA" and xy[1] in " MTD":
        return True
    return None


def commit_locks(vault_root: Path) -> list[Path]:
    """The lock files a `git add`/`git commit` takes (index, HEAD, the branch ref) that exist."""
    git_dir = find_git_dir(vault_root)
    if git_dir is None:
        return []
    found = [git_dir / n for n in ("index.lock", "HEAD.lock", "ORIG_HEAD.lock", "packed-refs.lock")]
    found = [p for p in found if p.exists()]
    return found + sorted((git_dir / "refs").rglob("*.lock"))


class GitRepo:
    """The git repository holding a vault (use as a context manager)."""

    def __init__(self, repo: git.Repo, vault_root: Path) -> None:
        self.repo = repo
        self.top = Path(repo.working_tree_dir).resolve()
        rel = vault_root.resolve().relative_to(self.top).as_posix()
        self.prefix = "" if rel == "." else rel + "/"
        self.identity_notice: str | None = None

    @classmethod
    def open(cls, vault_root: Path) -> GitRepo | None:
        """The repository containing the vault, or None when there is none (or no git)."""
        if not git_installed():
            return None
        try:
            repo = git.Repo(vault_root, search_parent_directories=True)
        except (InvalidGitRepositoryError, NoSuchPathError):
            return None
        if repo.bare or repo.working_tree_dir is None:
            repo.close()
            return None
        return cls(repo, vault_root)

    def close(self) -> None:
        self.repo.close()

    def __enter__(self) -> GitRepo:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- paths -----------------------------------------------------------------------------
    def to_repo(self, path: str) -> str:
        return self.prefix + path

    def to_vault(self, path: str) -> str | None:
        return path[len(self.prefix):] if path.startswith(self.prefix) else None

    def _run(self, *args: str, **kwargs):
        try:
            return self.repo.git.execute(["git", *args], **kwargs)
        except GitCommandError as exc:
            raise _error(exc) from None

    # -- reading ---------------------------------------------------------------------------
    def head(self) -> str | None:
        """The commit HEAD points to; None on an unborn branch.

        Read from the ref files by GitPython (no subprocess: ~0.3 ms instead of ~15 ms),
        falling back to `git rev-parse` for anything it cannot follow.
        """
        try:
            return SymbolicReference.dereference_recursive(self.repo, "HEAD")
        except ValueError:  # the branch HEAD names has no commit yet
            return None
        except Exception:  # noqa: BLE001 - an unusual ref layout: ask git itself
            try:
                return self.repo.git.execute(["git", "rev-parse", "--verify", "-q", "HEAD"]).strip() or None
            except GitCommandError:
                return None

    def message(self, rev: str) -> str:
        return self._run("log", "-1", "--format=%B", rev, strip_newline_in_stdout=False)

    def parents(self, rev: str) -> list[str]:
        return self._run("log", "-1", "--format=%P", rev).split()

    def index_entries(self, paths: list[str]) -> dict[str, str]:
        """Index entries for vault paths: path -> "mode sha" (stage 0 only)."""
        if not paths:
            return {}
        out = self._run("ls-files", "-s", "-z", "--full-name", "--",
                        *[":(literal)" + self.to_repo(p) for p in paths])
        entries = {}
        for record in out.split("\0"):
            meta, _, path = record.partition("\t")
            if not path:
                continue
            mode, sha, stage = meta.split()
            vault_path = self.to_vault(path)
            if stage == "0" and vault_path is not None:
                entries[vault_path] = f"{mode} {sha}"
        return entries

    def loose_parents(self, rev: str) -> list[str] | None:
        """The parents of commit `rev` (a full hash), read from its loose object: a commit
        just made is one, and reading it costs no subprocess. None: not a loose commit."""
        path = Path(self.repo.common_dir) / "objects" / rev[:2] / rev[2:]
        try:
            data = zlib.decompress(path.read_bytes())
        except (OSError, zlib.error, ValueError):
            return None
        header, _, body = data.partition(b"\0")
        if not header.startswith(b"commit "):
            return None
        parents = []
        for line in body.split(b"\n"):
            if not line:  # the headers end at the first blank line
                break
            if line.startswith(b"parent "):
                parents.append(line[7:].decode("ascii", "replace"))
        return parents

    def head_files(self, rev: str = "HEAD") -> set[str]:
        """Vault paths of the files in the tree of `rev` (empty on an unborn branch)."""
        if self.head() is None:
            return set()
        out = self._run("ls-tree", "-r", "-z", "--name-only", "--full-tree", rev, "--",
                        *([self.prefix] if self.prefix else []))
        from wiki_tui.vault.indexing.resolve import normalize_path

        return {normalize_path(v) for v in map(self.to_vault, out.split("\0")) if v}

    def files_since(self, old: str, new: str, old_files: frozenset[str]) -> frozenset[str] | None:
        """The vault's files in commit `new`, from those of commit `old` and what changed
        between them (`git diff-tree`); None when git cannot tell (`old` is gone)."""
        from wiki_tui.vault.indexing.resolve import normalize_path

        try:
            out = self._run("diff-tree", "-r", "-z", "--no-renames", "--name-status", old, new, "--",
                            *([self.prefix] if self.prefix else []))
        except GitError:
            return None
        fields = out.split("\0")
        added, removed = set(), set()
        for status, path in zip(fields[::2], fields[1::2]):
            vault_path = self.to_vault(path)
            if vault_path:
                (removed if status == "D" else added).add(normalize_path(vault_path))
        return frozenset((old_files - removed) | added)

    def blob(self, rev: str, path: str) -> bytes | None:
        """A file's bytes at `rev`, or None when it does not exist there."""
        try:
            return self.repo.git.execute(
                ["git", "cat-file", "blob", f"{rev}:{self.to_repo(path)}"],
                stdout_as_string=False, strip_newline_in_stdout=False)
        except GitCommandError:
            return None

    def changed_files(self, rev: str) -> list[tuple[str, str, str | None]]:
        """(status letter, vault path, old path for renames) changed by commit `rev`."""
        parents = self.parents(rev)
        args = ["diff-tree", "-r", "-z", "-M", "--name-status", "--no-commit-id"]
        args += [parents[0], rev] if parents else ["--root", rev]
        fields = self._run(*args).split("\0")
        out = []
        i = 0
        while i < len(fields) and fields[i]:
            status = fields[i][0]
            if status in "RC":
                old, new = fields[i + 1], fields[i + 2]
                i += 3
            else:
                old, new = None, fields[i + 1]
                i += 2
            new_v = self.to_vault(new)
            if new_v is not None:
                out.append((status, new_v, self.to_vault(old) if old else None))
        return out

    def status(self, paths: list[str]) -> dict[str, str]:
        """Those of `paths` that differ from HEAD in the index or working tree, or are untracked:
        vault path -> git's two status letters (`XY` of `git status --porcelain`: X the index
        against HEAD, Y the working tree against the index, "??" untracked; "" when git gave
        the path more than one record, or a rename). One `git status`; the rest of what an
        apply asks of git before it commits follows from it (see changed_from_head, in_index)."""
        if not paths:
            return {}
        # --no-optional-locks: a status must not take index.lock (a kill would leave it).
        out = self._run("--no-optional-locks", "status", "--porcelain=v1", "-z",
                        "--untracked-files=all", "--",
                        *[":(literal)" + self.to_repo(p) for p in paths])
        found: dict[str, str] = {}
        records = out.split("\0")
        i = 0
        while i < len(records):
            record = records[i]
            i += 1
            if len(record) < 4:
                continue
            xy = record[:2]
            if record[0] in "RC":  # a rename record carries its source path in the next field
                i += 1
                xy = ""
            path = self.to_vault(record[3:]) or record[3:]
            found[path] = "" if path in found else xy
        return found

    def dirty(self, paths: list[str]) -> list[str]:
        """Vault paths (of `paths`) that differ from HEAD in the index or working tree, or are untracked."""
        return list(self.status(paths))

    def changed_from_head(self, paths: list[str], status: dict[str, str] | None = None) -> list[str]:
        """Vault paths (of `paths`) whose file on disk differs from HEAD, or that are untracked
        (a path that differs in the index only, e.g. after a git killed mid-commit, is not).
        `status`: `self.status(paths)` when the caller has it (no second `git status`)."""
        records = self.status(paths) if status is None else status
        if not records:
            return []
        found, unsure = set(), []
        for path in paths:
            xy = records.get(path)
            if xy is None:
                continue
            if xy == "??" or (len(xy) == 2 and (xy[0] == " ") != (xy[1] == " ")):
                found.add(path)  # untracked, or only one of index and disk differs: disk differs
            else:
                unsure.append(path)  # both differ (they may cancel out), or odd records: ask git
        if unsure:
            specs = [":(literal)" + self.to_repo(p) for p in unsure]
            differ = self._run("--no-optional-locks", "diff", "--name-only", "-z", "--no-renames",
                               "HEAD", "--", *specs).split("\0")
            untracked = self._run("ls-files", "--others", "-z", "--full-name", "--", *specs).split("\0")
            found |= {self.to_vault(p) or p for p in [*differ, *untracked] if p}
        return [p for p in paths if p in found]

    def reset_index(self, paths: list[str]) -> None:
        """Index entries of `paths` back to HEAD (as a finished `git commit -- paths` leaves them)."""
        if paths:
            self._run("reset", "-q", "HEAD", "--", *[":(literal)" + self.to_repo(p) for p in paths])

    def changed_between(self, old: str, new: str, paths: list[str]) -> list[str]:
        if not paths or old == new:
            return []
        out = self._run("diff", "--name-only", "-z", "--no-renames", old, new, "--",
                        *[":(literal)" + self.to_repo(p) for p in paths])
        return [self.to_vault(p) or p for p in out.split("\0") if p]

    # -- writing ---------------------------------------------------------------------------
    def add(self, paths: list[str]) -> None:
        if paths:
            self._run("add", "--", *[":(literal)" + self.to_repo(p) for p in paths])

    def restore_index(self, before: dict[str, str], paths: list[str]) -> None:
        """Put the index entries of `paths` back to `before` (crash rollback of `add`)."""
        gone = [self.to_repo(p) for p in paths if p not in before]
        if gone:
            self._run("update-index", "--force-remove", "--", *gone)
        back: list[str] = []
        for p in paths:
            if p in before:
                back += ["--cacheinfo", f"{before[p].replace(' ', ',')},{self.to_repo(p)}"]
        if back:
            self._run("update-index", "--add", *back)

    def commit(self, message: str, paths: list[str]) -> str:
        """Commit exactly `paths` as they are in the working tree (`git commit -- paths`).

        Whatever else is modified or staged stays as it was. When git has no identity
        configured, commits as wiki-tui <wiki-tui@localhost> (this commit only) and sets
        `identity_notice` to say so.
        """
        args = ["commit", "-q", "--no-edit", "--cleanup=strip", "-m", message, "--",
                *[":(literal)" + self.to_repo(p) for p in paths]]
        try:
            self.repo.git.execute(["git", *args])
        except GitCommandError as exc:
            if UNKNOWN_PATH_ERROR in (exc.stderr or ""):
                raise UnknownPathError(_error(exc)) from None
            if not any(s in (exc.stderr or "") for s in _IDENTITY_ERRORS):
                raise _error(exc) from None
            env = {"GIT_AUTHOR_NAME": FALLBACK_NAME, "GIT_AUTHOR_EMAIL": FALLBACK_EMAIL,
                   "GIT_COMMITTER_NAME": FALLBACK_NAME, "GIT_COMMITTER_EMAIL": FALLBACK_EMAIL}
            try:
                self.repo.git.execute(["git", *args], env=env)
            except GitCommandError as exc2:
                raise _error(exc2) from None
            self.identity_notice = (
                f"git has no user name/email configured: committed as {FALLBACK_NAME} "
                f"<{FALLBACK_EMAIL}>. Set yours with `git config --global user.name \"Your Name\"` "
                "and `git config --global user.email you@example.com`.")
        head = self.head()
        assert head is not None
        return head


# The vault's files in HEAD, per vault root: (HEAD, its paths). A commit's tree never changes,
# and the tree of a commit an apply makes follows from its parent's (note_commit): at 50k files
# `git ls-tree` and reading its output cost ~0.2 s, once a session instead of once an accept.
_head_files: dict[str, tuple[str, frozenset[str]]] = {}


def committed_files(root: Path) -> frozenset[str] | None:
    """The vault's files in HEAD of its repository; None when there is no repository to ask
    (or HEAD cannot be read)."""
    repo = GitRepo.open(root)
    if repo is None:
        return None
    try:
        head = repo.head()
        if head is None:
            return frozenset()
        known = _head_files.get(str(root))
        if known is not None and known[0] == head:
            return known[1]
        # HEAD moved (a commit made outside wiki-tui): follow it from the last one read, which
        # reads only the trees that changed, else list HEAD's whole tree
        files = repo.files_since(known[0], head, known[1]) if known is not None else None
        if files is None:
            files = frozenset(repo.head_files(head))
        _head_files[str(root)] = (head, files)
        return files
    except GitError:
        return None
    finally:
        repo.close()


def note_commit(root: Path, repo: GitRepo, commit: str, written: set[str], removed: set[str]) -> None:
    """`commit` was just made of `written` (files that exist after it) and `removed` (files
    it deletes) on top of the HEAD committed_files last read: its file set follows without
    asking git, when its parent really is that HEAD (else it is read again when needed)."""
    from wiki_tui.vault.indexing.resolve import normalize_path

    known = _head_files.pop(str(root), None)
    if known is None or repo.loose_parents(commit) != [known[0]]:
        return
    written = {normalize_path(p) for p in written}
    removed = {normalize_path(p) for p in removed} - written
    _head_files[str(root)] = (commit, (known[1] - removed) | written)

