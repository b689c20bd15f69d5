"""The databases' write-ahead logs are folded off the edits' path (vault/wal.py): the writing
connections never checkpoint, the log stays bounded over many edits (a steady stream included),
a killed process loses no edit, readers only ever see whole edits, FTS5's merging runs in small
steps that terminate, and nothing is left running after close. Real SQLite files, real threads,
a real subprocess killed with SIGKILL; no clocks: `settle()` is an explicit event."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from wiki_tui.vault import Vault, wal

PAGES = 30


def _vault(tmp_path: Path) -> Path:
    root = tmp_path / "v"
    (root / "notes").mkdir(parents=True)
    for i in range(PAGES):
        (root / "notes" / f"Page {i}.md").write_text(
            f"# Page {i}\n\nSome words about topic {i} and [[Page {(i + 1) % PAGES}]].\n" * 3, encoding="utf-8")
    return root


def _edit(vault: Vault, root: Path, n: int) -> str:
    path = f"notes/Page {n % PAGES}.md"
    with open(root / path, "a", encoding="utf-8") as handle:
        handle.write(f"\nEdit number {n} mentions zebra{n} and [[Page {(n + 7) % PAGES}]].\n")
    vault.refresh_file(path)
    return path


def _wal_bytes(db: Path) -> int:
    try:
        return Path(str(db) + "-wal").stat().st_size
    except FileNotFoundError:
        return 0


def test_the_connections_that_write_never_checkpoint(tmp_path):
    root = _vault(tmp_path)
    vault = Vault.open(root)
    vault.search("topic")
    assert vault._store.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    assert vault._search._conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    assert vault._store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    # nor does FTS5 merge inside an edit's commit: automerge off, and its crisis merge (which
    # a burst of back-to-back edits reached every 16th edit, 20-100 ms) only at 64 segments
    config = dict(vault._search._conn.execute("SELECT k, v FROM docs_config"))
    assert config["automerge"] == 0 and config["crisismerge"] == 64
    vault.close()


def test_the_log_is_folded_after_edits_and_stays_small(tmp_path):
    root = _vault(tmp_path)
    vault = Vault.open(root)
    vault.search("topic")
    db = vault.state_dir / "search.sqlite"
    sizes = []
    for n in range(120):
        _edit(vault, root, n)
        vault.settle()  # the thread's round after the edit is done
        sizes.append(_wal_bytes(db))
    folder = vault._search._folder
    assert folder.folds >= 1 and folder.last is not None
    busy, log, folded = folder.last
    assert busy == 0 and log == folded  # folded to its end
    # the log started over again and again: it holds about one edit, not 120
    assert max(sizes) < 1_000_000, sizes
    assert vault.search("zebra119")[0].path == "notes/Page 29.md"
    vault.close()


def test_a_steady_stream_of_edits_does_not_grow_the_log_without_end(tmp_path, monkeypatch):
    # Without a pause the thread's folds end while the next edit is under way, so the log never
    # starts over by itself; past CATCH_UP_FRAMES the rest is folded with the writers held off.
    monkeypatch.setattr(wal, "CATCH_UP_FRAMES", 64)
    monkeypatch.setattr(wal, "FOLD_WRITES", 4)
    root = _vault(tmp_path)
    vault = Vault.open(root)
    vault.search("topic")
    store_db, search_db = vault.state_dir / "index.sqlite", vault.state_dir / "search.sqlite"
    for n in range(300):
        _edit(vault, root, n)
    vault.settle()
    for db in (store_db, search_db):
        # 300 edits write thousands of 4 KB frames: the file (its high-water mark) stayed far below
        assert _wal_bytes(db) < 2_500_000, (db.name, _wal_bytes(db))
    assert vault.search("zebra299")[0].path == "notes/Page 29.md"
    assert "notes/Page 29.md" in {b.source for b in vault.backlinks("notes/Page 6.md", context=False)}
    vault.close()
    for db in (store_db, search_db):
        assert _wal_bytes(db) == 0  # the last connection closed folded the rest and removed it


CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from wiki_tui.vault import Vault, wal
    wal.Folder.wrote = lambda self: None  # nothing folded: the edit lives in the log alone
    root = Path(sys.argv[1])
    vault = Vault.open(root)
    vault.search("topic")
    with open(root / "notes/Page 3.md", "a", encoding="utf-8") as handle:
        handle.write("\\nKilled right after: quokkaword and [[Page 20]].\\n")
    vault.refresh_file("notes/Page 3.md")
    print("edited", flush=True)
    time.sleep(600)
""")


def test_a_process_killed_after_an_edit_loses_nothing(tmp_path):
    root = _vault(tmp_path)
    Vault.open(root).close()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(root)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout.readline().strip() == "edited"
        vault_state = Vault(root).state_dir
        assert _wal_bytes(vault_state / "search.sqlite") > 0 and _wal_bytes(vault_state / "index.sqlite") > 0
        proc.send_signal(signal.SIGKILL)
        assert proc.wait(timeout=60) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    # The databases as the killed process left them (its log replayed by SQLite on opening), not
    # re-read from the pages: the edit is there.
    state = Vault(root).state_dir
    with sqlite3.connect(state / "index.sqlite") as conn:
        assert conn.execute("SELECT target FROM links WHERE src=? AND linkpath=?",
                            ("notes/Page 3.md", "Page 20")).fetchone() == ("notes/Page 20.md",)
    conn.close()
    with sqlite3.connect(state / "search.sqlite") as conn:
        assert conn.execute("SELECT path FROM files WHERE id IN (SELECT rowid FROM docs WHERE docs MATCH ?)",
                            ("quokkaword",)).fetchall() == [("notes/Page 3.md",)]
    conn.close()
    vault = Vault.open(root)
    assert [h.path for h in vault.search("quokkaword")] == ["notes/Page 3.md"]
    assert "notes/Page 3.md" in {b.source for b in vault.backlinks("notes/Page 20.md")}
    vault.close()


def test_readers_only_see_whole_edits_while_logs_are_folded(tmp_path):
    root = _vault(tmp_path)
    vault = Vault.open(root)
    vault.search("topic")
    db = vault.state_dir / "search.sqlite"
    seen: list[tuple[int, int]] = []
    errors: list[BaseException] = []
    stop = threading.Event()

    def read() -> None:
        conn = sqlite3.connect(db, timeout=5)
        try:
            while not stop.is_set():
                # one statement, one snapshot: the files table and the FTS5 rows go together
                row = conn.execute("SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM docs)").fetchone()
                seen.append(row)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            conn.close()

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for n in range(60):
            new = root / "notes" / f"New {n}.md"
            new.write_text(f"A new page {n} about walrus{n}.\n", encoding="utf-8")
            vault.refresh_file(f"notes/New {n}.md")
            if n % 10 == 9:
                vault._search._folder.fold()  # a fold from this thread too, mid-stream
    finally:
        stop.set()
        reader.join()
    assert not errors
    assert seen and all(files == docs for files, docs in seen)
    assert seen[-1][0] >= PAGES
    vault.close()


def test_merging_runs_in_steps_that_end_and_change_no_answer(tmp_path):
    root = _vault(tmp_path)
    vault = Vault.open(root)
    vault.search("topic")
    vault.settle()  # the round the build asked for is done
    vault._search._folder.wrote = lambda: None  # merged here, step by step, not on the thread
    for n in range(40):  # one segment per edit: levels of many small segments
        _edit(vault, root, n)
    before = {q: [h.path for h in vault.search(q)] for q in ("topic", "zebra3", "edit number", "page")}
    steps = 0
    while vault._search.merge_step():
        steps += 1
        assert steps < 1000
    assert steps >= 1  # there was merging to do, and it ended
    assert not vault._search.merge_step()
    after = {q: [h.path for h in vault.search(q)] for q in before}
    assert after == before
    vault.close()


def test_close_leaves_no_thread_running(tmp_path):
    root = _vault(tmp_path)
    vault = Vault.open(root)
    vault.search("topic")
    for n in range(5):
        _edit(vault, root, n)
    threads = [f._thread for f in (vault._store._folder, vault._search._folder)]
    assert all(t is not None and t.is_alive() for t in threads)
    vault.close()
    assert not any(t.is_alive() for t in threads)  # (other tests' open vaults may have theirs)
