"""The vault on disk: which files are pages, sources and attachments; safe paths; the files of a
new vault (create.py makes one).

- `raw/` holds read-only sources (link targets, never pages).
- Pages are every `.md` file outside `raw/` and outside hidden folders (`.git/`, `.obsidian/`,
  `.wiki-tui/`, any name starting with a dot).
- Every other file is an attachment (a link target).
- Symlinks are followed only when they point inside the vault (a directory once: no cycles);
  a file that vanishes between listing and stat is skipped.
"""

from __future__ import annotations

import os
import sys
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from wiki_tui.vault.indexing.resolve import normalize_path
from wiki_tui.vault.state import STATE_DIR

RAW_DIR = "raw"
LISTING_PAGES = ("index.md", "log.md")  # the generated catalog and the timeline: they name every page
SPECIAL_PAGES = (*LISTING_PAGES, "AGENTS.md")  # with the catalog at index.md (the default)


def listing_pages(catalog: str = "index.md") -> tuple[str, str]:
    """The catalog (wherever AGENTS.md's `catalog:` puts it) and log.md: they name every page.
    With the catalog elsewhere, index.md is an ordinary page (a person's home page)."""
    return LISTING_PAGES if catalog == "index.md" else (catalog, "log.md")


def special_pages(catalog: str = "index.md") -> tuple[str, ...]:
    """The listings and AGENTS.md: files that are no page of the wiki's knowledge."""
    return SPECIAL_PAGES if catalog == "index.md" else (*listing_pages(catalog), "AGENTS.md")


class VaultError(Exception):
    """Missing folder, a path outside the vault, an unknown page, a vault that cannot be made."""


@dataclass
class Tree:
    pages: dict[str, tuple[int, int]] = field(default_factory=dict)  # path -> (mtime_ns, size)
    files: dict[str, tuple[int, int]] = field(default_factory=dict)  # non-page files (raw/, attachments)
    disk: dict[str, str] = field(default_factory=dict)  # NFC path -> name on disk, where they differ


def is_hidden(path: str) -> bool:
    return any(part.startswith(".") for part in path.split("/"))


def is_raw_path(path: str) -> bool:
    return path == RAW_DIR or path.startswith(RAW_DIR + "/")


def is_page_path(path: str) -> bool:
    return path[-3:].lower() == ".md" and not is_raw_path(path) and not is_hidden(path)


def scan_tree(root: Path) -> Tree:
    """List the vault's files with (mtime_ns, size), one stat per file.

    The hot loop of a warm start's freshness check (50k files): hidden names are skipped as
    the walk meets them and raw/ is known per folder, so a file needs no path test of its own
    (`is_page_path` gives the same answer for every path listed here)."""
    tree = Tree()
    pages, files, disk = tree.pages, tree.files, tree.disk
    intern = sys.intern
    real_root = os.path.realpath(root)
    seen_dirs = {real_root}
    stack: list[tuple[str, str]] = [(str(root), "")]  # (folder, its vault path as on disk)
    while stack:
        abs_dir, rel_dir = stack.pop()
        in_raw = rel_dir == RAW_DIR + "/" or rel_dir.startswith(RAW_DIR + "/")
        try:
            entries = list(os.scandir(abs_dir))
        except OSError:  # vanished or unreadable folder: skip it
            continue
        for entry in entries:
            name = entry.name
            if name[0] == ".":
                continue
            on_disk = rel_dir + name
            rel = on_disk if on_disk.isascii() else normalize_path(on_disk)
            try:
                if entry.is_symlink():
                    real = os.path.realpath(entry.path)
                    if not _inside(real, real_root):
                        continue  # never follow a link out of the vault
                    if os.path.isdir(real):
                        if real in seen_dirs:
                            continue
                        seen_dirs.add(real)
                        stack.append((entry.path, on_disk + "/"))
                        continue
                    st = os.stat(real)
                elif entry.is_dir(follow_symlinks=False):
                    stack.append((entry.path, on_disk + "/"))
                    continue
                else:
                    st = entry.stat(follow_symlinks=False)
            except OSError:  # vanished mid-scan
                continue
            if rel is not on_disk and rel != on_disk:  # e.g. NFD names written by macOS
                disk[rel] = on_disk
            if not in_raw and rel[-3:].lower() == ".md":
                # interned: the index, the resolver and the page records share one copy
                pages[intern(rel)] = (st.st_mtime_ns, st.st_size)
            else:
                files[rel] = (st.st_mtime_ns, st.st_size)
    return tree


def _inside(real: str, real_root: str) -> bool:
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def stat_file(root: Path, rel: str) -> tuple[int, int] | None:
    """(mtime_ns, size) of a vault file, None if missing or a symlink leading outside."""
    abs_path = root / rel
    try:
        if abs_path.is_symlink() and not _inside(os.path.realpath(abs_path), os.path.realpath(root)):
            return None
        st = abs_path.stat()
    except OSError:
        return None
    if not abs_path.is_file():
        return None
    return st.st_mtime_ns, st.st_size


def clean_path(root: Path, path: str | os.PathLike[str], *, real_root: str | None = None,
               real_folders: dict[str, str] | None = None) -> str:
    """A vault-relative POSIX NFC path; VaultError for anything outside the vault.
    `real_root`: os.path.realpath(root), and `real_folders` (a dict to fill, folder -> its
    real path), when the caller cleans many paths at once (each folder resolved once)."""
    return clean_path_on_disk(root, path, real_root=real_root, real_folders=real_folders)[0]


def _realpath(root: Path, given: str, real_folders: dict[str, str] | None) -> str:
    """os.path.realpath(root / given), the folder's part remembered in `real_folders`."""
    if real_folders is None or "/" not in given:
        return os.path.realpath(Path(root) / given)
    folder, _, name = given.rpartition("/")
    real = real_folders.get(folder)
    if real is None:
        real = real_folders[folder] = os.path.realpath(Path(root) / folder)
    path = os.path.join(real, name)
    return os.path.realpath(path) if os.path.islink(path) else path


def clean_path_on_disk(root: Path, path: str | os.PathLike[str], *,
                       real_root: str | None = None,
                       real_folders: dict[str, str] | None = None) -> tuple[str, str]:
    """(NFC vault path, the path as given, relative): they differ for NFD file names."""
    raw = os.fspath(path)
    if not raw:
        raise VaultError("empty path")
    if raw[0] != "/":  # (relative: the parts loop below does what Path's parsing would)
        rel = raw
    else:
        try:
            rel = Path(raw).resolve().relative_to(Path(root).resolve()).as_posix()
        except ValueError:
            raise VaultError(f"{raw} is outside the vault") from None
    parts = []
    for part in rel.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise VaultError(f"{raw} is outside the vault")
            parts.pop()
            continue
        parts.append(part)
    if not parts:
        raise VaultError(f"{raw} is the vault folder itself, not a file")
    given = "/".join(parts)
    real = _realpath(root, given, real_folders)
    if not _inside(real, real_root or os.path.realpath(root)):
        raise VaultError(f"{raw} leads outside the vault (symlink)")
    return normalize_path(given), given


# -- a new vault ----------------------------------------------------------------------------

AGENTS_TEMPLATE = """---
required_fields: [title, type, summary]
types:            # page type -> folder (order = order of sections in index.md)
  source: sources
  entity: entities
  concept: concepts
  synthesis: syntheses
  answer: answers
---
# Vault schema

This vault is a wiki kept by a language model and reviewed by a person. The frontmatter above
is read by the program: the fields every page must have, and the folder for each page type.

## Layout

- `raw/` holds source documents. Never edit, rename or delete anything in `raw/`.
- `sources/` one summary page per ingested source (type `source`).
- `entities/` people, organisations, places, things (type `entity`).
- `concepts/` ideas and methods (type `concept`).
- `syntheses/` pages that compare or combine several sources (type `synthesis`).
- `answers/` answers worth keeping (type `answer`).
- `index.md` is generated by the program from page frontmatter. Never write it.
- `log.md` is append-only and written by the program. Never edit earlier entries.

## Pages

Every page starts with YAML frontmatter:

    ---
    title: Page Title
    type: concept
    summary: One line saying what the page is about.
    aliases: [Other Name]
    tags: [topic]
    sources: ["[[raw/some-source.md]]"]
    ---

## Links

- Link pages with wikilinks: `[[Page Title]]`, `[[folder/Page|shown text]]`, `[[Page#Heading]]`.
- Before creating a page, check whether one already exists under another name or alias.
- Cite the raw source a claim comes from.
- When sources disagree, say so on the page and link both.
"""

INDEX_TEMPLATE = "# Index\n\n_Generated by wiki-tui from page frontmatter. Edits here are overwritten._\n"
LOG_TEMPLATE = "# Log\n"


def hand_written_lines(index_text: str) -> list[str]:
    """Lines of an index.md text its generator never writes (the template, `## ` headings,
    `- [[...]]` entries and blank lines aside): a person's own text."""
    generated = set(INDEX_TEMPLATE.splitlines())
    return [line for line in index_text.replace("\r\n", "\n").split("\n")
            if line.strip() and line not in generated and not line.startswith(("## ", "- [["))]


GENERATED_MARK = "Generated by wiki-tui"  # the template's line: this file is the catalog


def is_home_page(index_text: str) -> bool:
    """Is this index.md a person's own page (a home page) rather than a catalog wiki-tui made?
    It lacks the generated line and holds text the generator never writes (a catalog that only
    lost its header, or an empty file, is still a catalog)."""
    return GENERATED_MARK not in index_text and bool(hand_written_lines(index_text))
GITIGNORE_LINE = f"{STATE_DIR}/"


def looks_like_vault(root: Path) -> bool:
    return any((root / name).exists() for name in ("AGENTS.md", "index.md", "log.md", RAW_DIR, STATE_DIR))


def ensure_gitignore(root: Path) -> bool:
    """Make .gitignore keep `.wiki-tui/` (the cache) out of git; True if it had to be changed."""
    ignore = root / ".gitignore"
    text = ignore.read_text(encoding="utf-8") if ignore.exists() else ""
    lines = text.splitlines()
    if GITIGNORE_LINE in lines or STATE_DIR in lines:
        return False
    with open(ignore, "a", encoding="utf-8") as fh:
        fh.write(("\n" if text and not text.endswith("\n") else "") + GITIGNORE_LINE + "\n")
    return True


def _git(root: Path, *args: str, stdin: str | None = None) -> str:
    try:
        result = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, input=stdin)
    except FileNotFoundError:
        raise VaultError("git is not installed; the vault files were created without a repository") from None
    if result.returncode != 0:
        what = " ".join(a for a in args if not a.startswith("-"))[:40]
        raise VaultError(f"git {what} failed in {root}: {result.stderr.strip() or result.stdout.strip()}")
    return result.stdout


def git_init(root: Path) -> bool:
    """Make a repository at `root` unless one holds it already; True when one was made."""
    try:
        inside = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=root,
                                capture_output=True, text=True).stdout.strip() == "true"
    except FileNotFoundError:
        raise VaultError("git is not installed; the vault files were created without a repository") from None
    if not inside:
        _git(root, "init", "-q", "-b", "main")
    return not inside


def git_unignored(root: Path, paths: list[str]) -> list[str]:
    """Those of `paths` (vault-relative, as on disk) that git would take: untracked files its
    ignore rules leave alone."""
    untracked = set(_git(root, "ls-files", "-z", "--others", "--exclude-standard").split("\0"))
    return [p for p in paths if p in untracked]


def git_commit_files(root: Path, paths: list[str], message: str) -> bool:
    """Commit exactly `paths` (vault-relative) in the repository holding `root`, made here when
    there is none; True when the repository was made. Other files are left as they are."""
    created = git_init(root)
    # the paths go on stdin: thousands of notes would overflow a command line
    listed = "\0".join(":(literal)" + p for p in paths)
    pathspec = ("--pathspec-from-file=-", "--pathspec-file-nul")
    _git(root, "add", *pathspec, stdin=listed)
    identity = ["-c", "commit.gpgsign=false"]
    check = subprocess.run(["git", "config", "user.email"], cwd=root, capture_output=True, text=True)
    if not check.stdout.strip():  # no identity configured: commit as wiki-tui rather than fail
        identity += ["-c", "user.name=wiki-tui", "-c", "user.email=wiki-tui@localhost"]
    import tempfile  # (not on the start-up path)

    # the message from a file: one argument may hold at most 128 KB on Linux
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", prefix="wiki-tui-message-", suffix=".txt") as fh:
        fh.write(message)
        fh.flush()
        _git(root, *identity, "commit", "-q", "-F", fh.name, *pathspec, stdin=listed)
    return created
