"""Which raw files an ingest takes: paths, folders and globs resolved to sources in a stable
order, and which sources are ingested already (`ingest --new`). Shared by the CLI and the TUI.

A raw file counts as **ingested** when
- a page's `sources:` frontmatter names its raw path (`raw/article.md`, or `[[raw/article.md]]`), or
- log.md holds an `ingest` entry whose `- source:` line names it (every ingest wiki-tui applies
  writes that line, whichever of its pages the person accepted).
"""

from __future__ import annotations

import glob
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wiki_tui.agent.convert import INGESTIBLE
from wiki_tui.agent.context.pageinfo import page_infos
from wiki_tui.changes.apply.logmd import LOG_PATH, ingested_sources
from wiki_tui.vault.layout import RAW_DIR as RAW

_GLOB_CHARS = "*?["


class SourceError(ValueError):
    """An argument that names nothing (a glob without a match, a folder without files)."""


@dataclass
class Sources:
    paths: list[str] = field(default_factory=list)  # vault paths, in order, each once
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why) not taken
    batch: bool = False  # a folder, a glob, several paths or --new: more than one may come


def resolve_sources(vault: Any, args: list[str], *, new: bool = False,
                    cwd: Path | None = None) -> Sources:
    """The sources `args` name, in the order given (a folder's or a glob's files sorted by
    path). A file named outright is kept as named (the ingest itself says what is wrong with
    it); a file a folder or glob finds that cannot be ingested is skipped with the reason.
    `new`: keep only sources not ingested yet (all of raw/ when `args` is empty)."""
    root = Path(vault.root)
    found = Sources(batch=new or len(args) > 1)
    for arg in args or ([RAW] if new else []):
        path = _vault_path(root, arg, cwd)
        if any(ch in path for ch in _GLOB_CHARS):
            found.batch = True
            _add_all(found, root, _glob(root, path), arg)
        elif path and (root / path).is_dir():
            found.batch = True
            _add_all(found, root, _folder_files(root, path), arg)
        elif path not in found.paths:
            found.paths.append(path)
    if new:
        done = ingested(vault)
        found.paths = [p for p in found.paths if p not in done]
    return found


def ingested(vault: Any) -> set[str]:
    """The raw paths counted as ingested (see the module doc)."""
    done: set[str] = set()
    for info in page_infos(vault):
        for named in info.sources:
            path = str(named).strip().removeprefix("[[").removesuffix("]]").split("|")[0]
            if path.startswith(f"{RAW}/"):
                done.add(path.strip())
    log = Path(vault.root) / LOG_PATH
    if log.is_file():
        done |= ingested_sources(log.read_text(encoding="utf-8", errors="replace"))
    return done


def _vault_path(root: Path, arg: str, cwd: Path | None) -> str:
    """`arg` as a path inside the vault: as written, under raw/, or from the current folder."""
    text = arg.strip().replace("\\", "/")
    while text.startswith("./"):
        text = text[2:]
    text = text.rstrip("/") or text
    given = Path(text)
    if given.is_absolute() or (cwd is not None and not (root / text).exists()
                               and (Path(cwd) / text).exists()):
        absolute = given if given.is_absolute() else Path(cwd) / text
        try:
            return absolute.resolve().relative_to(root.resolve()).as_posix()
        except ValueError:
            return text  # outside the vault: the ingest refuses it by name
    if not text.startswith(f"{RAW}/") and text != RAW and _exists_under_raw(root, text):
        return f"{RAW}/{text}"
    return text


def _exists_under_raw(root: Path, text: str) -> bool:
    """Does `text` name nothing at the vault's top but something inside raw/? (`ingest a.md`)"""
    if any(ch in text for ch in _GLOB_CHARS):
        return not _matches(root, text) and bool(_matches(root / RAW, text))
    return not (root / text).exists() and (root / RAW / text).exists()


def _matches(folder: Path, pattern: str) -> list[str]:
    return glob.glob(glob.escape(str(folder)) + "/" + pattern, recursive=True)


def _glob(root: Path, pattern: str) -> list[str]:
    return sorted(Path(hit).relative_to(root).as_posix() for hit in _matches(root, pattern)
                  if Path(hit).is_file())


def _folder_files(root: Path, folder: str) -> list[str]:
    files = []
    for path in (root / folder).rglob("*"):
        rel = path.relative_to(root)
        if path.is_file() and not any(part.startswith(".") for part in rel.parts):
            files.append(rel.as_posix())
    return sorted(files)


def _add_all(found: Sources, root: Path, paths: list[str], arg: str) -> None:
    if not paths:
        raise SourceError(f"{arg}: no file matches" if any(c in arg for c in _GLOB_CHARS)
                          else f"{arg}: the folder holds no files")
    for path in paths:
        why = _not_a_source(path)
        if why:
            found.skipped.append((path, why))
        elif path not in found.paths:
            found.paths.append(path)


def _not_a_source(path: str) -> str:
    if not path.startswith(f"{RAW}/"):
        return "not inside raw/ (only raw/ holds sources)"
    if not path.lower().endswith(INGESTIBLE):
        return ("not a format wiki-tui ingests (" + ", ".join(e[1:] for e in INGESTIBLE)
                + ")")
    return ""
