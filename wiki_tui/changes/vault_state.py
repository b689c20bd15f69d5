"""Cheap checks of a vault's apply state, for every command that opens the vault.

No git and no journal code is imported here (GitPython alone takes ~0.4 s to import): a read
command such as `find` asks `recovery_pending` first and loads the recovery only when it says so.
"""

from __future__ import annotations

import os
from pathlib import Path

from wiki_tui.vault.state import STATE_DIR
JOURNAL_FILE = "apply-journal.json"


def find_git_dir(vault_root: Path) -> Path | None:
    """The `.git` folder of the repository holding the vault, without starting git; None when
    there is none."""
    for folder in (vault_root, *vault_root.parents):
        dot_git = folder / ".git"
        if dot_git.is_dir():
            return dot_git
        if dot_git.is_file():  # a worktree or submodule: "gitdir: <path>"
            text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
            if text.startswith("gitdir:"):
                target = Path(text.removeprefix("gitdir:").strip())
                return target if target.is_absolute() else (folder / target).resolve()
    return None


def recovery_pending(vault_root: Path) -> bool:
    """Is there anything for `journal.recover` to finish or report: an apply journal, the temp
    file of a journal write killed halfway, or git's index.lock in the way of commits?"""
    state = Path(vault_root) / STATE_DIR
    if (state / JOURNAL_FILE).exists():
        return True
    try:
        names = os.listdir(state)
    except OSError:
        names = []
    if any(n.startswith(f".{JOURNAL_FILE}.") and n.endswith(".tmp") for n in names):
        return True
    git_dir = find_git_dir(Path(vault_root))
    return git_dir is not None and (git_dir / "index.lock").exists()
