"""Folding a database's write-ahead log into it on a thread, off the path of the edits.

The vault's two databases (indexing/store.py, find/search.py) run in WAL mode. SQLite's own
auto-checkpoint folds the log into the database inside whichever COMMIT crosses its size: at
50,000 pages that one outside edit paid ~46 ms of CPU (and an fsync) for the fold, against a
20 ms budget for re-indexing an edit. So the connections that write run with auto-checkpoint
off (`writer_pragmas`), and a `Folder` per database folds for them:

- after each write transaction the writer calls `wrote()`; the folder's thread wakes and, once
  FOLD_WRITES writes are waiting or the writes pause for QUIET_S, runs a round: in a pause, the
  database's chores first (`chores()`: small steps of upkeep, e.g. FTS5 merging its segments,
  each returning whether more is left; they take the writers' lock one step at a time and stop
  at the next write, so an edit waits for one step at most), then a PASSIVE checkpoint from a
  connection of its own, which never waits for or blocks a writer or reader;
- the log starts over at the first write that begins after a fold reached its end. Under a
  steady stream of writes every fold ends while the next write is under way: once the log is
  CATCH_UP_FRAMES long (16 MB), the frames written during the fold are folded with the
  writers' lock held, between two writes, so the log stays bounded then too (a long run of
  chores is folded every FOLD_STEPS steps);
- `fold()` runs one round now, on the caller's thread (tests, and when a command finishes);
  `settle()` waits for the thread to finish what it was woken for (an explicit event, no clock);
- `close()` stops the thread, folds once more and closes the folder's connection (closing the
  writer's, the last connection, then folds what is left and removes the log).

Durability is WAL's: a commit is in the log before `wrote()` returns, so a killed process loses
nothing; readers see whole transactions only, folded or not. A checkpoint cut short by a kill is
redone from the log at the next opening.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

LockType = type(threading.RLock())  # the writers' lock (a Lock does as well)

FOLD_WRITES = 8  # writes in a burst between two rounds (each round's fold costs the next write
# a sync of the log's header when it starts the log over, ~1-3 ms)
QUIET_S = 0.2  # a round also runs once the writes pause this long (a policy, not a guarantee)
CATCH_UP_FRAMES = 4096  # a log this long (16 MB of 4 KB pages) is folded to its end, writers held
FOLD_STEPS = 16  # chore steps between two folds while chores run on (bounds the log meanwhile)
MAX_STEPS = 4096  # chore steps per wake-up at most (a chore that never says "done" stops here)


def writer_pragmas(conn: sqlite3.Connection) -> None:
    """The settings of a connection that writes a database a `Folder` folds."""
    conn.execute("PRAGMA wal_autocheckpoint=0")


class Folder:
    """Folds the write-ahead log of the database at `db_path` (see the module docstring)."""

    def __init__(self, db_path: Path, chores: Callable[[], bool] | None = None, *,
                 lock: LockType | None = None, busy_timeout: float = 5.0) -> None:
        self.db_path = Path(db_path)
        self.chores = chores
        self.lock = lock  # the writers' lock: held for a catch-up fold (see _round)
        self.busy_timeout = busy_timeout
        self.folds = 0  # completed rounds (for tests and benchmarks)
        self.last: tuple[int, int, int] | None = None  # the last checkpoint's (busy, log, folded)
        self._cond = threading.Condition()
        self._pending = 0  # writes not yet folded
        self._busy = False  # the thread is in a round
        self._hurry = False  # someone waits in settle(): a round now, no pause awaited
        self._stopped = False
        self._thread: threading.Thread | None = None
        self._round_lock = threading.Lock()  # one round at a time (thread, fold(), close())

    # -- the writer's side -----------------------------------------------------------------
    def wrote(self) -> None:
        """A write transaction was committed: fold it in soon (returns at once)."""
        with self._cond:
            if self._stopped:
                return
            self._pending += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=f"wal-fold {self.db_path.name}",
                                                daemon=True)
                self._thread.start()
            self._cond.notify()

    def settle(self) -> None:
        """Wait until the thread has folded every write announced so far."""
        with self._cond:
            self._hurry = True  # no waiting for a pause: fold now
            self._cond.notify_all()
            while ((self._pending or self._busy) and self._thread is not None and self._thread.is_alive()
                   and not self._stopped):
                self._cond.wait()
            self._hurry = False

    def fold(self) -> tuple[int, int, int] | None:
        """One round now, on this thread: the chores, then a PASSIVE checkpoint. The
        checkpoint's (busy, frames in the log, frames folded); None if it could not run."""
        with self._round_lock:
            return self._round()

    def close(self) -> None:
        """Stop the thread and fold what is left."""
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()
        with self._round_lock:
            self._checkpoint()
        with self._cond:
            self._stopped = False  # a closed database may be opened again and written
            self._pending = 0

    # -- the thread ----------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._stopped:
                    if self._pending >= FOLD_WRITES or (self._pending and self._hurry):
                        break
                    if not self._pending:
                        self._cond.wait()
                        continue
                    seen = self._pending
                    self._cond.wait(QUIET_S)
                    if self._pending == seen:  # no write meanwhile: the burst is over
                        break
                if self._stopped:
                    self._cond.notify_all()
                    return
                quiet = self._pending < FOLD_WRITES  # a pause (or settle): the chores' turn
                self._pending = 0
                self._busy = True
            try:
                with self._round_lock:
                    self._round(chores=quiet)
            except Exception:  # noqa: BLE001 - upkeep only: the writes are safe in the log
                pass  # the next write wakes a new round
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _round(self, *, chores: bool = True) -> tuple[int, int, int] | None:
        steps = 0
        while chores and self.chores is not None and steps < MAX_STEPS and not self._stopped:
            if self._pending and threading.current_thread() is self._thread:
                break  # a write came: let it have the writers' lock, the chores wait for a pause
            try:
                more = self.chores()
            except sqlite3.Error:
                more = False  # locked by another process, or read-only: the next round retries
            steps += 1
            if not more:
                break
            if steps % FOLD_STEPS == 0:
                self._checkpoint()
        result = self._checkpoint()
        if self.lock is not None and result is not None and result[1] >= CATCH_UP_FRAMES:
            # The log starts over only at a write that begins after a fold reached its end: under
            # a steady stream of writes (each begun before the fold ended) it would grow without
            # end. Fold the few frames written meanwhile between two writes, the writers held
            # off; the next one starts the log over.
            if self._hold_writers():
                try:
                    result = self._checkpoint()
                finally:
                    self.lock.release()
        self.folds += 1
        return result

    def _hold_writers(self) -> bool:
        """Take the writers' lock, unless the folder is being closed meanwhile (whoever closes
        it may hold that lock while it waits for this thread)."""
        while not self.lock.acquire(timeout=0.05):
            if self._stopped:
                return False
        return True

    def _checkpoint(self) -> tuple[int, int, int] | None:
        try:
            # Opened for each round and closed after it: an idle folder holds no connection
            # (one would keep a bulk build from leaving WAL mode, store.py).
            conn = sqlite3.connect(f"file:{quote(str(self.db_path))}?mode=rw", uri=True,
                                   timeout=self.busy_timeout, isolation_level=None)
        except sqlite3.Error:
            return None
        try:
            row = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            self.last = (int(row[0]), int(row[1]), int(row[2])) if row else None
            return self.last
        except sqlite3.Error:
            return None  # another process checkpoints, or the file went: next round
        finally:
            conn.close()
