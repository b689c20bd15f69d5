"""`Vault.release_memory()`: after a load, SQLite's page caches give back what the full scans
filled (issue 21: ~11 MB of the app's RSS at 50k pages), and every answer stays the same."""

from __future__ import annotations

import ctypes
import ctypes.util

import pytest

from wiki_tui.vault import Vault

from .test_cache import age


def _sqlite_memory_used():
    """Bytes SQLite holds in this process, or None where its library cannot be reached."""
    name = ctypes.util.find_library("sqlite3")
    if name is None:
        return None
    try:
        lib = ctypes.CDLL(name)
        lib.sqlite3_memory_used.restype = ctypes.c_int64
    except (OSError, AttributeError):
        return None
    return lambda: lib.sqlite3_memory_used()


def _vault(root, pages: int):
    for i in range(pages):
        folder = root / f"f{i % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"Page {i}.md").write_text(
            f"---\ntitle: Page {i}\ntags: [t{i % 5}]\n---\n# Page {i}\n\nAbout lanterns {i} and "
            f"[[Page {(i * 7) % pages}]], [[Page {(i + 1) % pages}]].\n" + "filler words " * 40,
            encoding="utf-8")
    age(root)
    return root


def _answers(vault: Vault) -> tuple:
    return ([h.path for h in vault.search("lanterns 17")], [h.path for h in vault.find("page 12")],
            sorted(b.source for b in vault.backlinks("f3/Page 3.md", context=False)),
            vault.pages_tagged("t2")[:5], vault.resolve("Page 40"))


def test_release_memory_keeps_every_answer(tmp_path):
    root = _vault(tmp_path / "v", 60)
    vault = Vault.open(root, check=False)
    vault.check_freshness()
    vault.prepare()
    before = _answers(vault)
    vault.release_memory()
    assert _answers(vault) == before
    vault.release_memory()  # twice is fine, and so is after a close (the index reopens)
    vault.close()
    vault.release_memory()
    assert _answers(vault) == before
    vault.close()


def test_release_memory_gives_back_what_the_load_filled(tmp_path):
    used = _sqlite_memory_used()
    if used is None:
        pytest.skip("SQLite's library is not reachable here")
    root = _vault(tmp_path / "v", 1500)
    Vault.open(root).close()  # the index, on disk
    vault = Vault.open(root, check=False)
    vault.check_freshness()
    vault.prepare()
    loaded = used()
    vault.release_memory()
    assert used() < loaded - 1_000_000  # the pages the full scans read, back
    assert [h.path for h in vault.find("page 1499")][:1] == ["f1/Page 1499.md"]
    vault.close()
