"""`wiki-tui init DIR` on a folder that already holds notes: adopt it as it is.

Adds what wiki-tui needs beside the notes and changes none of them:
- AGENTS.md, a draft inferred from the folders and the pages' `type` values (vault/adopt.py),
  unless the folder has its own (kept: a vault made by hand, or one that lost its repository);
- index.md, generated from the pages, and log.md with one "init" entry, each only when the
  folder has none (an existing one is kept as it is and named in the result);
- raw/ for sources, and `.wiki-tui/` in .gitignore;
- a git repository when the folder is in none, else the one it is in.
Only the files init added are committed, whether the repository is new or not: the notes stay
untracked until the person commits them (the first change to a page commits its text as found
first, on its own, so that change and its undo leave it as it was).
"""

from __future__ import annotations

import datetime as _dt
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from wiki_tui.changes.apply import logmd
from wiki_tui.changes.apply.index_md import INDEX_PATH, canvas_rows, render_index
from wiki_tui.changes.vault_state import find_git_dir
from wiki_tui.vault import Vault, VaultError
from wiki_tui.vault.adopt import draft_agents_md, infer_conventions
from wiki_tui.vault.layout import RAW_DIR, ensure_gitignore, git_commit_files, scan_tree
from wiki_tui.vault.schema import SCHEMA_FILE, parse_schema

COMMIT_MESSAGE = "Adopt the notes here as a wiki-tui vault"


@dataclass
class Adoption:
    root: Path
    pages: int = 0
    added: list[str] = field(default_factory=list)  # files init wrote
    updated: list[str] = field(default_factory=list)  # files of the person's init added to
    kept: list[str] = field(default_factory=list)  # index.md / log.md found and left as they were
    repository: str = "none"  # "created" | "reused" | "none" (git missing)
    notice: str | None = None
    findings: Counter = field(default_factory=Counter)  # lint after adoption: code -> count


def holds_notes(root: Path) -> bool:
    """Does the folder hold markdown pages already (so init adopts rather than creates)?"""
    root = Path(root)
    return root.is_dir() and bool(scan_tree(root).pages)


def adopt_folder(root: Path, *, date: _dt.date | str | None = None) -> Adoption:
    root = Path(root).resolve()
    own_schema = (root / SCHEMA_FILE).exists()
    if own_schema and find_git_dir(root) is not None:
        raise VaultError(f"{root} already holds a vault (it has an AGENTS.md and a git "
                         "repository); nothing was changed")
    result = Adoption(root)
    vault = Vault.open(root)
    try:
        conventions = infer_conventions(vault)
        result.pages = conventions.pages
        if own_schema:  # kept as it is: its types order the catalog
            draft = (root / SCHEMA_FILE).read_text(encoding="utf-8", errors="replace")
            result.kept.append(SCHEMA_FILE)
        else:
            draft = draft_agents_md(conventions)
            _write_new(root, SCHEMA_FILE, draft, result)
        if not (root / INDEX_PATH).exists():  # listed before it exists: not in its own catalog
            types = parse_schema(draft).types
            canvases = canvas_rows(root, vault.attachments, types)
            _write_new(root, INDEX_PATH, render_index(vault.pages, types, canvases), result)
        else:
            result.kept.append(INDEX_PATH)
        titles = {SCHEMA_FILE: "Vault schema (draft)", INDEX_PATH: "Index"}
        entry = logmd.LogEntry("init", f"adopted {conventions.pages} existing pages", date,
                               created=[(p, titles[p]) for p in result.added if p in titles])
        if not (root / logmd.LOG_PATH).exists():
            _write_new(root, logmd.LOG_PATH, logmd.append_bytes(None, entry.render()).decode("utf-8"), result)
        else:
            result.kept.append(logmd.LOG_PATH)
    finally:
        vault.close()
    if not (root / RAW_DIR).exists():
        (root / RAW_DIR).mkdir()
        _write_new(root, f"{RAW_DIR}/.gitkeep", "", result)
    had_ignore = (root / ".gitignore").exists()
    if ensure_gitignore(root):  # a line appended to the person's own file is not "added"
        (result.updated if had_ignore else result.added).append(".gitignore")
    _commit(root, result)
    vault = Vault.open(root)
    try:
        result.findings = Counter(f.code for f in vault.lint())
    finally:
        vault.close()
    return result


def _write_new(root: Path, rel: str, text: str, result: Adoption) -> None:
    with open(root / rel, "x", encoding="utf-8", newline="") as fh:  # "x": never over a file
        fh.write(text)
    result.added.append(rel)


def _commit(root: Path, result: Adoption) -> None:
    try:
        created = git_commit_files(root, result.added + result.updated, COMMIT_MESSAGE)
    except VaultError as exc:  # no git, or a commit git refused: the files stay, said so
        result.notice = f"{exc}; the files were written but not committed"
        return
    result.repository = "created" if created else "reused"
