"""Which existing page a model's path means, when the path itself names no page.

Models name pages the way they see them linked: `H4.md` for `entities/H4.md`, `Entities/h4.md`,
an alias (`Sea Watch.md`), or with the vault's folder name in front (`wiki/entities/H4.md`).
Applied literally, an EDIT fails and a WRITE creates a twin at the root. The rules, in order:

1. the vault's own folder name in front of a path is dropped when no such folder exists;
2. Obsidian's link resolution (see vault/indexing/resolve.py): the path in another letter case, or a
   bare name that one page carries (`H4.md` -> `entities/H4.md`);
3. a page whose title or alias is the name, a leading article aside (EDIT and RENAME only:
   a deletion by alias is too loose a guess);
4. a twin of one existing page (twins.py: `_` for a space, `%20`, full-width or look-alike
   letters, `entity/` for `entities/`, a wrapper folder that does not exist): a WRITE that would
   create the twin writes the existing page instead.

One candidate: the block is used with the found path and a repair note the review shows.
Several: refused, naming them. A WRITE is redirected only when its bare name (no folder) is
an existing page's file name; a WRITE named after an alias is refused as a near-twin.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from wiki_tui.changes.reply.blocks import DELETE, EDIT, WRITE, Block
from wiki_tui.changes.reply.path_rules import GENERATED, GuardError
from wiki_tui.changes.reply.twins import TwinIndex, differs_by


def _exists(root: Path, path: str) -> bool:
    return os.path.isfile(os.path.join(root, path))  # False for a name too long to exist


def _pages(vault: Any, paths: list[str]) -> list[str]:
    return [p for p in paths if p.lower().endswith(".md") and p in vault.pages]


def _by_link(vault: Any, path: str) -> list[str]:
    """Pages the path reaches as an Obsidian link would (case, suffix), best first."""
    return _pages(vault, vault.candidates(path))


_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)


def _name_key(name: str) -> str:
    """A title or alias as compared here: case, NFC and a leading article ignored ("the Sea
    Watch" is "Sea Watch")."""
    from wiki_tui.vault.indexing.resolve import link_key

    return _ARTICLE.sub("", link_key(str(name).strip()))


def _by_alias(vault: Any, path: str) -> list[str]:
    """Pages whose title or alias is the path's file name (within its folder, if it names one)."""
    folder, _, name = path.rpartition("/")
    key = _name_key(name[:-3] if name.lower().endswith(".md") else name)
    found = []
    for page, title, aliases in vault.pages.titles():
        if folder and not page.lower().startswith(folder.lower() + "/"):
            continue
        if any(_name_key(n) == key for n in (title, *aliases)):
            found.append(page)
    return sorted(found, key=lambda p: (len(p), p))


def _without_vault_name(root: Path, path: str) -> str | None:
    first, _, rest = path.partition("/")
    if rest and first.casefold() == root.name.casefold() and not (root / first).exists():
        return rest
    return None


def _ambiguous(path: str, kind: str, found: list[str], how: str) -> GuardError:
    listed = ", ".join(found[:8]) + (", ..." if len(found) > 8 else "")
    return GuardError(path, f"no page is at this path, and {how} {len(found)} pages: {listed}. "
                      f"Send the {kind.upper()} block again with the full path of the one you "
                      "mean")


def _missing(path: str, kind: str, near: list[str]) -> GuardError:
    generated = [p for p in near if p.casefold() in GENERATED]
    near = [p for p in near if p.casefold() not in GENERATED]
    if generated and not near:  # never lead the model to a file only wiki-tui writes
        return GuardError(path, f"no page is at this path, and {generated[0]} is not a page "
                          f"a model may change: {GENERATED[generated[0].casefold()]}")
    if near:
        return GuardError(path, f"cannot {kind.upper()} a page that does not exist. A page "
                          f"that goes by that name is at {', '.join(near[:4])}; if you mean "
                          f"it, send the {kind.upper()} block again with that path")
    what = f"cannot {kind.upper()} a page that does not exist, and no page has that name, "
    what += "title or alias"
    if kind == EDIT:
        where = "'@@@ WRITE " + path + "'" if "/" in path else ("'@@@ WRITE folder/Name.md' "
                                                                "in the folder its type uses")
        what += f". To create it, send the whole page with {where}"
    return GuardError(path, what)


def twin_index(vault: Any) -> TwinIndex:
    """The vault's pages keyed for twin lookups (twins.py); a Vault keeps it until its set of
    pages changes."""
    if hasattr(vault, "by_page_set"):
        return vault.by_page_set("twins", _twin_index)
    return _twin_index(vault.pages)


def _twin_index(paths: Iterable[str]) -> TwinIndex:
    return TwinIndex(p for p in paths  # paths only: no record is read
                     # never aim a block at log.md/index.md
                     if p.lower().endswith(".md") and p.casefold() not in GENERATED)


def meant_path(vault: Any, root: Path, block: Block, made: set[str],
               twins: Callable[[], TwinIndex] | None = None) -> tuple[Block, str]:
    """The block aimed at the page its path means, and the repair note ('' when unchanged).

    `made` holds the paths earlier blocks of the reply create: those exist for this block.
    `twins`: gives the vault's pages by twin key, built once by the caller (built here when
    not given), asked for only when the path names no page.
    Raises GuardError when the path names no page and nothing (or several) can be meant.
    """
    path = block.path
    if not hasattr(vault, "candidates") or path in made or _exists(root, path):
        return block, ""
    short = _without_vault_name(root, path)
    if short is not None and (block.kind == WRITE or short in made or _exists(root, short)):
        return _retarget(block, short), (f"read the path {path} as {short} (the vault's own "
                                         "folder name was in front)")
    if block.kind == WRITE:
        aimed, note = _write_target(vault, block)
        if note or "/" not in path:
            return aimed, note
        return _twin_target(vault, block, twins)
    found = _by_link(vault, path)
    if len(found) == 1 and ("/" not in path or found[0].lower() == path.lower()):
        how = "letter case" if found[0].lower() == path.lower() else "file name"
        return _retarget(block, found[0]), f"{path} is not a page; used {found[0]} (same {how})"
    if len(found) > 1 and "/" not in path:
        raise _ambiguous(path, block.kind, found, "that name belongs to")
    if block.kind != DELETE:
        aliased = _by_alias(vault, path)
        if len(aliased) == 1:
            return _retarget(block, aliased[0]), (f"{path} is not a page; used {aliased[0]} "
                                                  "(its title or alias)")
        if aliased:
            raise _ambiguous(path, block.kind, aliased, "that title or alias belongs to")
    twin = _twins(vault, path, twins)
    if len(twin) == 1:
        return _retarget(block, twin[0]), (f"{path} is not a page; used {twin[0]} (the same "
                                           f"name but for {differs_by(path, twin[0])})")
    near = found or _by_link(vault, path.rpartition("/")[2]) or _by_alias(vault, path) or twin
    raise _missing(path, block.kind, near)


def _twins(vault: Any, path: str, twins: Callable[[], TwinIndex] | None) -> list[str]:
    if not hasattr(vault, "pages"):
        return []
    return (twins() if twins is not None else twin_index(vault)).of(path)


def _twin_target(vault: Any, block: Block,
                 twins: Callable[[], TwinIndex] | None) -> tuple[Block, str]:
    """A WRITE that would create a twin of an existing page: aimed at that page when there is
    one, refused naming them when there are several."""
    found = _twins(vault, block.path, twins)
    if len(found) == 1:
        return _retarget(block, found[0]), (
            f"{block.path} would be a second page beside {found[0]} (the same name but for "
            f"{differs_by(block.path, found[0])}); wrote {found[0]} instead")
    if found:
        raise GuardError(block.path, f"this name twins {len(found)} existing pages "
                         f"({', '.join(found[:6])}); WRITE the one you mean by its exact path")
    return block, ""


def _write_target(vault: Any, block: Block) -> tuple[Block, str]:
    """A WRITE to a bare name: the page of that file name, if there is exactly one elsewhere."""
    path = block.path
    if "/" in path:
        return block, ""
    found = _by_link(vault, path)
    if len(found) == 1:
        return _retarget(block, found[0]), (f"{path} is not a page at the vault root; wrote "
                                             f"{found[0]}, the page of that name, instead of "
                                             "creating a twin")
    if found:
        raise _ambiguous(path, WRITE, found, "that name belongs to")
    aliased = _by_alias(vault, path)
    if aliased:
        raise GuardError(path, f"a page already goes by this name: {', '.join(aliased[:4])} "
                         "(its title or alias). Change that page (EDIT, or WRITE with its "
                         "path) instead of writing a near-twin at the vault root")
    return block, ""


def _retarget(block: Block, path: str) -> Block:
    return Block(block.kind, path, content=block.content, edits=list(block.edits),
                 new_path=block.new_path, complete=block.complete, line=block.line,
                 end_line=block.end_line, repairs=list(block.repairs))

