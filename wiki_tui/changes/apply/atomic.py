"""Crash-safe file writes that keep a file's newline style and encoding.

A write goes to a temp file in the same folder, is fsynced, then `os.replace`d over the target,
and the folder is fsynced so the rename itself survives a power cut. Text is stored the way the
file already was: CRLF stays CRLF, a UTF-8 BOM stays; bytes that were not valid UTF-8 round-trip
through `surrogateescape` instead of being dropped.
"""

from __future__ import annotations

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class FileFormat:
    """How a text file is stored on disk."""

    newline: str = "\n"  # "\n" or "\r\n"
    bom: bool = False

    @classmethod
    def of(cls, data: bytes | None) -> FileFormat:
        """The format of existing file bytes (a new file: LF, no BOM)."""
        if not data:
            return cls()
        bom = data.startswith(BOM)
        sample = data[:65536]  # plenty to tell, and cheap on a 1 MB index.md
        crlf = sample.count(b"\r\n")
        lf = sample.count(b"\n") - crlf
        return cls("\r\n" if crlf > lf else "\n", bom)


def decode(data: bytes) -> str:
    """File bytes to text exactly as stored: a BOM stays as U+FEFF, line endings as they are,
    invalid UTF-8 bytes kept (surrogateescape) so that writing the text back restores them."""
    return data.decode("utf-8", "surrogateescape")


def encode(text: str, fmt: FileFormat) -> bytes:
    """Text to file bytes in the file's format.

    A text that already carries CRLF endings (read from the file) is kept as is; an LF-only
    text for a CRLF file gets CRLF. A BOM is added if the file had one and the text lacks it.
    """
    if fmt.newline == "\r\n" and "\r\n" not in text:
        text = text.replace("\n", "\r\n")
    if fmt.bom and not text.startswith("\ufeff"):
        text = "\ufeff" + text
    return text.encode("utf-8", "surrogateescape")


def read_bytes(path: Path) -> bytes | None:
    """A file's bytes, or None when it does not exist."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def fsync_dir(folder: Path) -> None:
    """Make a rename/unlink in `folder` durable (no-op where folders cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_pool: ThreadPoolExecutor | None = None


def _parallel(fn, items) -> None:
    """Run fn over items on a few threads (fsync releases the GIL, and the filesystem can
    serve several flushes with one journal commit: 4 fsyncs take ~1.2x one, not 4x)."""
    global _pool
    items = list(items)
    if len(items) <= 1:
        for item in items:
            fn(item)
        return
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="wiki-tui-fsync")
    for future in [_pool.submit(fn, item) for item in items]:
        future.result()


def _fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_temp(path: Path, data: bytes, *, sync: bool = True) -> Path:
    """Write `data` to a temp file beside `path` (parents created), fsynced unless sync=False;
    returns the temp path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        try:  # keep the target's permissions; new files get the usual 0644-ish mode
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def atomic_write(path: Path, data: bytes, *, sync_dir: bool = True) -> None:
    """Replace `path` with `data` atomically (creating parent folders)."""
    tmp = write_temp(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    if sync_dir:
        fsync_dir(path.parent)


def remove(path: Path, *, sync_dir: bool = True) -> None:
    """Delete `path` if it exists, durably."""
    try:
        path.unlink()
    except FileNotFoundError:
        return
    if sync_dir:
        fsync_dir(path.parent)


class UnsafePathError(OSError):
    """A folder on the way to a file is a symlink (or not a folder): the write is refused."""


_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_AT_SUPPORTED = {os.open, os.mkdir, os.rename, os.unlink, os.stat} <= os.supports_dir_fd  # replace: as rename


def open_folder(root: Path, rel_folder: str, _depth: int = 0) -> int:
    """A descriptor of `root/rel_folder`, walked one component at a time without following
    symlinks (folders created as needed). A folder swapped for a symlink after the review is
    seen at write time: a link leading out of the vault or into a protected part of it
    (raw/, .git, ...) is refused; one to a plain folder of the vault is walked again from the
    root along its real path, still without following links."""
    parts = [p for p in rel_folder.split("/") if p]
    fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for i, part in enumerate(parts):
            if part in (".", ".."):
                raise UnsafePathError(f"refusing the path {rel_folder!r}: not a plain folder path")
            try:
                inner = os.open(part, _FOLDER_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                os.mkdir(part, 0o777, dir_fd=fd)
                inner = os.open(part, _FOLDER_FLAGS, dir_fd=fd)
            except OSError:  # ELOOP: a symlink; ENOTDIR: a file
                real = _linked_folder(root, "/".join(parts[: i + 1]), _depth)
                os.close(fd)
                fd = -1
                return open_folder(root, "/".join([real, *parts[i + 1:]]), _depth + 1)
            os.close(fd)
            fd = inner
    except BaseException:
        if fd >= 0:
            os.close(fd)
        raise
    return fd


def _linked_folder(root: Path, prefix: str, depth: int) -> str:
    """The vault path a symlinked folder leads to, or UnsafePathError."""
    from wiki_tui.changes.reply.path_rules import GuardError, clean_relative

    here = root / prefix
    real = Path(os.path.realpath(here))
    try:
        inside = real.relative_to(Path(os.path.realpath(root))).as_posix()
        if depth > 8 or not here.is_symlink() or not real.is_dir():
            raise ValueError
        return clean_relative(inside + "/x.md")[:-5]  # refuses raw/, .git, .wiki-tui, ...
    except (ValueError, GuardError):
        raise UnsafePathError(f"refusing to write under {prefix}: it is a symlink leading out "
                              "of the vault or into a protected folder, or not a folder") from None


def _new_file_mode(name: str, folder: int) -> int:
    try:  # keep the target's permissions; new files get the usual 0644-ish mode
        return os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _write_temp_at(folder: int, name: str, data: bytes) -> tuple[str, int]:
    """A temp file beside `name` in the folder `folder` (not flushed yet): (its name, its fd)."""
    mode = _new_file_mode(name, folder)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    while True:
        tmp = f".{name}.{os.urandom(4).hex()}.tmp"  # the pattern rollback cleans up
        try:
            fd = os.open(tmp, flags, mode, dir_fd=folder)
            break
        except FileExistsError:
            continue
    try:
        os.fchmod(fd, mode)  # the umask must not narrow a kept mode
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except BaseException:
        os.close(fd)
        os.unlink(tmp, dir_fd=folder)
        raise
    return tmp, fd


def apply_contents(root: Path, contents: dict[str, bytes | None]) -> None:
    """Bring several files to the given bytes (None: delete), each file atomically.

    All temp files are written, then fsynced together, then renamed into place, then every
    touched folder is fsynced together: two flush rounds for any number of files. Every
    folder on the way is opened without following symlinks (see open_folder).
    """
    if not _AT_SUPPORTED:  # pragma: no cover - platforms without *at() calls
        return _apply_contents_by_path(root, contents)
    folders: dict[str, int] = {}
    temps: list[tuple[int, str, str, int]] = []  # (folder fd, temp name, name, temp fd)
    try:
        def folder_of(rel: str) -> tuple[int, str]:
            parent, _, name = rel.rpartition("/")
            if parent not in folders:
                folders[parent] = open_folder(root, parent)
            return folders[parent], name

        try:
            for rel, data in contents.items():
                if data is not None:
                    folder, name = folder_of(rel)
                    tmp, fd = _write_temp_at(folder, name, data)
                    temps.append((folder, tmp, name, fd))
            _parallel(os.fsync, [fd for *_, fd in temps])
            for folder, tmp, name, _fd in temps:
                os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            for folder, tmp, _name, _fd in temps:
                try:
                    os.unlink(tmp, dir_fd=folder)
                except FileNotFoundError:
                    pass
            raise
        finally:
            for *_, fd in temps:
                os.close(fd)
        for rel, data in contents.items():
            if data is None:
                folder, name = folder_of(rel)
                try:
                    os.unlink(name, dir_fd=folder)
                except FileNotFoundError:
                    pass
        _parallel(_fsync_folder_fd, list(folders.values()))
    finally:
        for fd in folders.values():
            os.close(fd)


def _fsync_folder_fd(fd: int) -> None:
    try:
        os.fsync(fd)
    except OSError:
        pass


def _apply_contents_by_path(root: Path, contents: dict[str, bytes | None]) -> None:
    """The same by path (no symlink checks), where the *at() calls do not exist."""
    temps: list[tuple[Path, Path]] = []
    folders: set[Path] = set()
    try:
        for rel, data in contents.items():
            if data is not None:
                target = root / rel
                temps.append((write_temp(target, data, sync=False), target))
        _parallel(_fsync_path, [tmp for tmp, _ in temps])
        for tmp, target in temps:
            os.replace(tmp, target)
            folders.add(target.parent)
    except BaseException:
        for tmp, _ in temps:
            tmp.unlink(missing_ok=True)
        raise
    for rel, data in contents.items():
        if data is None:
            target = root / rel
            remove(target, sync_dir=False)
            folders.add(target.parent)
    _parallel(fsync_dir, folders)
