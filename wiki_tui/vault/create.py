"""A new vault on disk: `init_vault` writes the layout's files, commits them and opens it.

(Apart from layout.py so that the layout, which every module reads, never imports the model.)
"""

from __future__ import annotations

from pathlib import Path

from wiki_tui.vault.layout import (
    AGENTS_TEMPLATE, INDEX_TEMPLATE, LOG_TEMPLATE, RAW_DIR, VaultError, ensure_gitignore, git_commit_files,
    looks_like_vault,
)
from wiki_tui.vault.model import Vault


def init_vault(root: Path):
    """Create a vault at `root`: raw/, AGENTS.md, index.md, log.md, .gitignore, a git repository
    and a commit of exactly those files. `root` may be new, empty, or a folder of notes that is
    not yet a vault: nothing already there is changed or committed, an existing git repository
    is reused, an existing .gitignore only gains `.wiki-tui/`. (`wiki-tui init` adopts a folder
    of notes with changes/apply/adopt.py instead: a schema drafted from the notes, index.md listing them.)"""
    root = Path(root)
    if root.exists() and not root.is_dir():
        raise VaultError(f"{root} exists and is not a folder")
    if root.exists() and looks_like_vault(root):
        raise VaultError(
            f"{root} already holds a vault (AGENTS.md, index.md, log.md, raw/ or .wiki-tui/ "
            "exist); nothing was changed"
        )
    root.mkdir(parents=True, exist_ok=True)
    created = ["AGENTS.md", "index.md", "log.md", ".gitignore", f"{RAW_DIR}/.gitkeep"]
    (root / RAW_DIR).mkdir()
    (root / RAW_DIR / ".gitkeep").write_text("", encoding="utf-8")
    (root / "AGENTS.md").write_text(AGENTS_TEMPLATE, encoding="utf-8")
    (root / "index.md").write_text(INDEX_TEMPLATE, encoding="utf-8")
    (root / "log.md").write_text(LOG_TEMPLATE, encoding="utf-8")
    ensure_gitignore(root)
    git_commit_files(root, created, "New wiki-tui vault")
    return Vault.open(root)
