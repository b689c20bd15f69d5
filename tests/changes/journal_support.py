"""Helpers for the journal tests (apply, undo, recovery, CLI): open a vault, snapshot its state."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from wiki_tui.changes.model import CREATE, DELETE, MODIFY, RENAME, Changeset, FileChange


def open_vault(root: Path):
    from wiki_tui.vault import Vault

    return Vault.open(root, use_cache=False)


def git(cwd: Path, *args: str, check: bool = True) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=check, capture_output=True,
                          text=True).stdout


def head(root: Path) -> str:
    return git(root, "rev-parse", "HEAD").strip()


def disk_state(root: Path) -> dict[str, str]:
    """Every file outside .git/.wiki-tui -> hash of its bytes (folders included as markers)."""
    state = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if rel.split("/", 1)[0] in (".git", ".wiki-tui"):
            continue
        state[rel] = "dir" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
    return state


def full_state(root: Path) -> tuple:
    """Disk, HEAD, index and status: everything an apply could change."""
    return (disk_state(root), git(root, "rev-parse", "HEAD", check=False).strip(),
            git(root, "ls-files", "-s"), git(root, "status", "--porcelain=v1", "-uall"))


def read(root: Path, rel: str) -> str:
    return (root / rel).read_text(encoding="utf-8")


PAGE = "---\ntitle: {title}\ntype: concept\nsummary: {summary}\n---\n# {title}\n\n{body}\n"


def page(title: str, body: str = "Text.", summary: str = "A test page.") -> str:
    return PAGE.format(title=title, summary=summary, body=body)


def create(path: str, text: str) -> FileChange:
    return FileChange(path, CREATE, None, text)


def modify(root: Path, path: str, new_text: str) -> FileChange:
    return FileChange(path, MODIFY, (root / path).read_bytes().decode("utf-8"), new_text)


def delete(root: Path, path: str) -> FileChange:
    return FileChange(path, DELETE, (root / path).read_bytes().decode("utf-8"), None)


def rename(root: Path, old: str, new: str, new_text: str | None = None) -> FileChange:
    base = (root / old).read_bytes().decode("utf-8")
    return FileChange(new, RENAME, base, base if new_text is None else new_text, old_path=old)


def changeset(*files: FileChange, title: str = "Test change", operation: str = "ingest",
              accept: bool = True) -> Changeset:
    cs = Changeset(operation=operation, title=title, model="test/model", files=list(files))
    if accept:
        cs.accept_all()
    return cs


def three_file_changeset(root: Path) -> Changeset:
    """A created page, an updated page and a deleted page of sample_vault."""
    dead = "concepts/Dead reckoning.md"
    return changeset(
        create("concepts/Gnomon.md", page("Gnomon", "Links to [[Dead reckoning]].")),
        modify(root, dead, read(root, dead) + "\nA new closing line.\n"),
        delete(root, "entities/Scilly naval disaster of 1707.md"),
    )
