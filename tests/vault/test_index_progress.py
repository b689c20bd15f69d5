"""Indexing in bulk says how far it has come: Vault.open's on_progress, and a command's line on a
terminal (a real subprocess whose stderr is a pseudo-terminal), silent on a pipe."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

from wiki_tui.vault import Vault
from wiki_tui.vault import model


def _vault(root: Path, pages: int) -> Path:
    """`pages` pages and AGENTS.md, written a minute ago (a page written within 2 s of its
    indexing is read again at the next opening: its mtime cannot tell)."""
    (root / "concepts").mkdir(parents=True)
    (root / "AGENTS.md").write_text("# Conventions\n", encoding="utf-8")
    for n in range(pages):
        (root / "concepts" / f"Page {n}.md").write_text(
            f"# Page {n}\n\nSee [[Page {(n + 1) % pages}]] and #tag{n % 7}.\n", encoding="utf-8")
    _age(root.rglob("*.md"))
    return root


def _age(paths) -> None:
    for path in paths:
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns - 60_000_000_000))


def test_cold_build_reports_each_step_then_the_end(tmp_path, monkeypatch):
    root = _vault(tmp_path / "v", 5)
    monkeypatch.setattr(model, "PARSE_CHUNK", 2)
    seen: list[tuple[int, int]] = []
    vault = Vault.open(root, on_progress=lambda done, total: seen.append((done, total)))
    try:
        assert seen == [(0, 6), (2, 6), (4, 6), (6, 6)]  # AGENTS.md is a page too
        assert len(vault.pages) == 6
    finally:
        vault.close()
    seen.clear()
    vault = Vault.open(root, on_progress=lambda done, total: seen.append((done, total)))
    vault.close()
    assert seen == []  # a warm opening indexes nothing in bulk


def test_many_pages_changed_since_last_time_are_reported(tmp_path, monkeypatch):
    root = _vault(tmp_path / "v", 5)
    Vault.open(root).close()
    monkeypatch.setattr(model, "PARSE_CHUNK", 2)
    for n in range(3):  # as a checkout would: pages changed while nothing watched
        path = root / "concepts" / f"Page {n}.md"
        path.write_text(path.read_text(encoding="utf-8") + "\nMore in [[Page 4]].\n", encoding="utf-8")
        _age([path])
    seen: list[tuple[int, int]] = []
    vault = Vault.open(root, on_progress=lambda done, total: seen.append((done, total)))
    try:
        assert seen == [(0, 3), (2, 3), (3, 3)]
        assert {b.source for b in vault.backlinks("concepts/Page 4.md")} >= {
            "concepts/Page 0.md", "concepts/Page 1.md", "concepts/Page 2.md"}
    finally:
        vault.close()


def test_a_failing_callback_does_not_stop_the_build(tmp_path, monkeypatch):
    root = _vault(tmp_path / "v", 5)
    monkeypatch.setattr(model, "PARSE_CHUNK", 2)
    calls = []

    def closing_app(done: int, total: int) -> None:
        calls.append(done)
        raise RuntimeError("the app is closing")

    vault = Vault.open(root, on_progress=closing_app)
    try:
        assert calls == [0]  # not called again once it failed
        assert len(vault.pages) == 6 and vault.backlinks("concepts/Page 1.md")
    finally:
        vault.close()


def _run_with_stderr_on_a_terminal(args: list[str]) -> tuple[int, str]:
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-c", "from wiki_tui.cli import main; raise SystemExit(main())",
                                 *args], stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL)
        os.close(slave)
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        return proc.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace")
    finally:
        os.close(master)


def test_a_command_on_a_terminal_shows_the_first_indexing(tmp_path):
    root = _vault(tmp_path / "v", 1100)
    code, err = _run_with_stderr_on_a_terminal(["--vault", str(root), "find", "page 7", "--json"])
    assert code == 0, err
    assert "indexing the vault: 0 of 1,101 pages" in err
    assert "\rindexed 1,101 pages (kept on disk for the next command)" in err
    code, err = _run_with_stderr_on_a_terminal(["--vault", str(root), "find", "page 7", "--json"])
    assert code == 0 and "index" not in err  # the index was kept: nothing to say


def test_a_command_on_a_pipe_says_nothing_of_it(tmp_path):
    root = _vault(tmp_path / "v", 1100)
    proc = subprocess.run([sys.executable, "-c", "from wiki_tui.cli import main; raise SystemExit(main())",
                           "--vault", str(root), "find", "page 7", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "index" not in proc.stderr and "\r" not in proc.stderr
    assert '"concepts/Page 7.md"' in proc.stdout


def test_small_vaults_and_non_terminals_get_no_callback(tmp_path):
    from wiki_tui.cli.common import index_progress

    class Pipe:
        def isatty(self) -> bool:
            return False

    assert index_progress(Pipe()) is None
    written: list[str] = []

    class Terminal:
        def isatty(self) -> bool:
            return True

        def write(self, text: str) -> None:
            written.append(text)

        def flush(self) -> None:
            pass

    show = index_progress(Terminal())
    show(0, 999)
    show(999, 999)
    assert written == []  # under a second's work: no line
