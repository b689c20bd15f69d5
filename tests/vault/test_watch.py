"""The watcher: real files, real watchfiles, bounded waits."""

from __future__ import annotations

import threading
import time

from wiki_tui.vault import Vault

from .test_index import write


def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_outside_writes_reach_the_index_then_the_callback(tmp_path):
    root = write(tmp_path / "v", {"Home.md": "[[Later]]\n"})
    vault = Vault.open(root)
    batches: list = []
    seen = threading.Event()

    def callback(changes):
        # The index is already updated when the callback runs.
        batches.append((changes, dict(vault.resolved_links.get("Home.md", {}))))
        seen.set()

    vault.start_watching(callback, wait=True)
    try:
        (root / "Later.md").write_text("now here\n")
        assert wait_for(lambda: any(("added", "Later.md") in c for c, _ in batches))
        assert any(links == {"Later.md": 1} for _, links in batches)
        (root / ".wiki-tui" / "noise.txt").parent.mkdir(exist_ok=True)
        (root / ".wiki-tui" / "noise.txt").write_text("ignored")
        (root / "Later.md").unlink()
        assert wait_for(lambda: "Later" in vault.unresolved_links.get("Home.md", {}))
        assert all(not path.startswith(".wiki-tui") for changes, _ in batches for _, path in changes)
    finally:
        started = time.monotonic()
        vault.close()
        assert time.monotonic() - started < 15  # stops, not waits out a hung watcher
    assert vault._watcher is None


def test_stop_is_clean_and_restartable(tmp_path):
    root = write(tmp_path / "v", {"A.md": "x"})
    vault = Vault.open(root, use_cache=False)
    vault.start_watching(None, wait=True)
    watcher = vault._watcher
    vault.stop_watching()
    assert not watcher.running and watcher.error is None
    vault.start_watching(None, wait=True)
    (root / "B.md").write_text("y")
    assert wait_for(lambda: "B.md" in vault.pages)
    vault.close()
