"""One writer at a time per vault: the TUI and a `wiki-tui apply` in another terminal must not
apply (or recover) at once, or one could roll back the other's apply in flight.

An exclusive `flock` on `<vault>/.wiki-tui/apply.lock`, held for the whole apply, undo or
recovery. The kernel drops it when the process dies, so a journal whose lock nobody holds
belongs to an apply that really was interrupted. Re-entrant within a thread (apply runs
recovery first); two threads of one process exclude each other too. Where `fcntl` does not
exist (Windows) the lock is a no-op.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = "apply.lock"
WAIT_SECONDS = 10.0

_local = threading.local()  # per thread: vault root -> (fd, depth)


class VaultBusy(Exception):
    """Another wiki-tui process is applying changes to this vault."""


@contextmanager
def vault_lock(root: Path, state_dir: str = ".wiki-tui", wait: float = WAIT_SECONDS) -> Iterator[None]:
    """Hold the vault's apply lock. Re-entrant in one thread; another thread (or process)
    waits, since each acquisition opens its own file description and flock is per description."""
    root = Path(root).resolve()
    held: dict[Path, list[int]] = _local.__dict__.setdefault("held", {})
    if root in held:
        held[root][1] += 1
        try:
            yield
        finally:
            held[root][1] -= 1
        return
    fd = _acquire(root / state_dir, wait)
    held[root] = [fd, 1]
    try:
        yield
    finally:
        del held[root]
        if fd >= 0:
            os.close(fd)  # releases the flock


def _acquire(folder: Path, wait: float) -> int:
    if fcntl is None:
        return -1
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise VaultBusy("another wiki-tui is applying changes to this vault; "
                                "try again when it has finished") from None
            time.sleep(0.05)
