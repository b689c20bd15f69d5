"""Where a vault's program state lives (caches, the search and index databases, pending
changesets, dismissed findings): the one function every part asks, `state_dir(root)`.

A folder is **adopted** when it has an `AGENTS.md` file or a `.wiki-tui/` folder at its root
(`wiki-tui init` writes both; the first apply, which takes its lock in `.wiki-tui/`, makes one).
An adopted vault keeps its state in `<root>/.wiki-tui/`. Any other folder of markdown is only
being read (`lint`, `search`, `mcp`, the app opening it): nothing is written into it, and its
state goes to the user's cache folder, keyed by the folder's resolved path:
`$XDG_CACHE_HOME/wiki-tui/vaults/<sha256 of the path, 16 hex>-<folder name>/` (default
`~/.cache`). Deleting that folder loses nothing but time.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

STATE_DIR = ".wiki-tui"
SCHEMA_FILE = "AGENTS.md"


def is_adopted(root: Path | str) -> bool:
    """Does the folder hold wiki-tui's state itself: `AGENTS.md` or `.wiki-tui/` at its root?"""
    root = Path(root)
    return (root / SCHEMA_FILE).is_file() or (root / STATE_DIR).is_dir()


def state_dir(root: Path | str) -> Path:
    """`<root>/.wiki-tui` for an adopted vault, else the folder's place in the user cache."""
    root = Path(root)
    if is_adopted(root):
        return root / STATE_DIR
    return cache_state_dir(root)


def carry_over(root: Path | str, name: str) -> None:
    """The database `name` of an adopted folder that has none yet, copied from the user cache,
    where the folder kept it while it was only read (opened, then `wiki-tui init` or a first
    apply adopted it): its index is not built again (16 s at 50,000 pages). SQLite's backup
    makes a consistent copy even while another process writes the cached one; anything going
    wrong means no copy, and the index is built as usual."""
    target = Path(root) / STATE_DIR / name
    source = cache_state_dir(root) / name
    if target.exists() or not source.is_file():
        return
    import sqlite3  # (not on the start-up path)

    partial = target.with_name(f"{name}.carrying-{os.getpid()}")
    try:
        src = sqlite3.connect(source.as_uri() + "?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(partial, target)
    except (sqlite3.Error, OSError):
        try:
            os.unlink(partial)
        except OSError:
            pass


def folder_state_dir(root: Path | str) -> Path:
    """`<root>/.wiki-tui`: where writing into the vault (apply, undo, init) keeps its journal,
    lock and backups, beside the files (same file system: backups are hard links). Making it
    adopts the folder."""
    return Path(root) / STATE_DIR


def cache_state_dir(root: Path | str) -> Path:
    """The state folder of a folder that is not adopted, in the user cache."""
    resolved = os.path.realpath(root)
    digest = hashlib.sha256(os.fsencode(resolved)).hexdigest()[:16]
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.basename(resolved))[:40] or "root"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "wiki-tui" / "vaults" / f"{digest}-{name}"
