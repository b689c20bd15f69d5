"""Outside changes (an editor, `git pull`) fed into the index from a background thread.

watchfiles already batches events; its debounce (`DEBOUNCE_MS`) groups a burst such as a
checkout into one batch. Paths under hidden folders (.git/, .wiki-tui/, .obsidian/) are ignored.
Each batch updates the vault (`refresh_file`) and then calls `callback(changes)` with
[(change, vault path)], change in "added" | "modified" | "deleted". `stop()` ends the thread
promptly through watchfiles' stop event.
"""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from watchfiles import Change, watch

from wiki_tui.vault.layout import VaultError, is_hidden
from wiki_tui.vault.indexing.resolve import normalize_path

if TYPE_CHECKING:
    from wiki_tui.vault.view import VaultView

DEBOUNCE_MS = 150
_NAMES = {Change.added: "added", Change.modified: "modified", Change.deleted: "deleted"}
log = logging.getLogger(__name__)


class VaultWatcher:
    def __init__(self, vault: "VaultView", callback: Callable[[list[tuple[str, str]]], None] | None) -> None:
        self.vault = vault
        self.callback = callback
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="wiki-tui-watch", daemon=True)
        self.error: BaseException | None = None

    def start(self, *, wait: bool = False, timeout: float = 5.0) -> None:
        """Start the thread; with `wait`, return once changes are really being observed."""
        self._thread.start()
        if wait:
            self._ready.wait(timeout)

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def _relative(self, abs_path: str) -> str | None:
        root = str(self.vault.root)
        if not abs_path.startswith(root + os.sep):
            return None
        rel = normalize_path(Path(abs_path[len(root) + 1 :]).as_posix())
        return None if is_hidden(rel) else rel

    def _run(self) -> None:
        try:
            iterator = watch(
                self.vault.root,
                watch_filter=lambda change, path: self._relative(path) is not None,
                debounce=DEBOUNCE_MS,
                step=50,
                stop_event=self._stop,
                yield_on_timeout=True,
                rust_timeout=200,
                raise_interrupt=False,
            )
            for batch in iterator:  # the first (possibly empty) batch means it is watching
                self._ready.set()
                if self._stop.is_set():
                    break
                if batch:
                    self._handle(batch)
        except BaseException as exc:  # noqa: BLE001 - the thread must never take the app down
            self.error = exc
            log.warning("vault watcher stopped: %s", exc)
        finally:
            self._ready.set()

    def _handle(self, batch) -> None:
        changes: dict[str, str] = {}
        for change, abs_path in sorted(batch, key=lambda item: item[1]):
            rel = self._relative(abs_path)
            if rel is not None:
                changes[rel] = _NAMES.get(change, "modified")
        done = []
        for rel, kind in changes.items():
            try:
                self.vault.refresh_file(rel)
            except VaultError as exc:
                log.warning("cannot refresh %s: %s", rel, exc)
                continue
            done.append((kind, rel))
        if done and self.callback is not None:
            try:
                self.callback(done)
            except Exception:  # noqa: BLE001
                log.exception("watch callback failed")
