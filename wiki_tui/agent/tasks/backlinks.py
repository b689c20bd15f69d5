"""Rewrite the links that point at a moved page, as edit blocks in the same changeset.

A rename or a merge that leaves links behind breaks them; so every backlink is rewritten in the
changeset that moves the page (the person reviews those edits like any other).
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from wiki_tui.changes.reply.blocks import EDIT, WRITE, Block
from wiki_tui.vault.layout import SPECIAL_PAGES, special_pages


# Files of the program, not wiki pages: never listed to the model, linked or edited by it.
SPECIAL_FILES = frozenset(SPECIAL_PAGES)


def special_files(vault: Any) -> frozenset[str]:
    """The vault's catalog (wherever AGENTS.md's `catalog:` puts it), log.md and AGENTS.md.
    With the catalog elsewhere, index.md is the person's home page: a page like any other."""
    catalog = getattr(getattr(vault, "schema", None), "catalog", None) or "index.md"
    return SPECIAL_FILES if catalog == "index.md" else _specials(catalog)


@functools.lru_cache(maxsize=8)
def _specials(catalog: str) -> frozenset[str]:
    return frozenset(special_pages(catalog))


def name_counts(vault: Any) -> dict[str, int]:
    """How many files share each file name (casefolded): ambiguous names need a folder path."""
    counts: dict[str, int] = {}
    for p in vault.pages:
        key = p.rsplit("/", 1)[-1].casefold()
        counts[key] = counts.get(key, 0) + 1
    return counts


def link_name(vault: Any, path: str, counts: dict[str, int] | None = None) -> str:
    """How to link to `path`: its file name, or its folder path when the name is ambiguous."""
    stem = path[:-3] if path.endswith(".md") else path
    name = stem.rsplit("/", 1)[-1]
    if counts is None:
        counts = name_counts(vault)
    clash = counts.get(path.rsplit("/", 1)[-1].casefold(), 0) > (1 if path in vault.pages else 0)
    return stem if clash else name


def _editable(path: str, special: frozenset[str] = SPECIAL_FILES) -> bool:
    """Pages a model edit may touch: not the generated index.md, the append-only log.md (its
    old entries keep their old links: history), raw/ or hidden folders."""
    if path in special or path.startswith("raw/"):
        return False
    return not any(part.startswith(".") for part in path.split("/"))


def _new_raw(link: Any, new_name: str) -> str:
    sub = link.subpath or ""
    display = f"|{link.display}" if link.display else ""
    bang = "!" if link.embed else ""
    return f"{bang}[[{new_name}{sub}{display}]]"


_SPEC_LINK = re.compile(r"\[\[([^\[\]|#]+)((?:[#|][^\[\]]*)?)\]\]")


def _chart_links(vault: Any, source: str, old: str, new_name: str):
    """(line, old link, new link) for the pages a ```chart spec of `source` cites that are
    `old`: a spec's `pages` are inside a fence, so no link index sees them, yet they must
    follow the page (forms/chart_spec.py)."""
    from wiki_tui.forms.chart_spec import find_chart_blocks

    text = vault.read_text(source)
    if "chart" not in text:
        return
    for block in find_chart_blocks(text):
        for i, line in enumerate(block.body.splitlines()):
            for m in _SPEC_LINK.finditer(line):
                if vault.resolve(m.group(1).strip(), source) == old:
                    yield block.first_line + i, m.group(0), f"[[{new_name}{m.group(2)}]]"


def rewrite_blocks(vault: Any, moves: dict[str, str], skip: set[str] = frozenset(),
                   keep_text: bool = False) -> list[Block]:
    """EDIT blocks pointing every wiki link at a moved page (old path -> new path) to its new
    place. Pages in `skip` (the model edits them itself) and the moved pages are left alone.
    `keep_text` keeps the old wording as display text (for merges: [[New|Old]])."""
    per_page: dict[str, dict[int, list[tuple[str, str]]]] = {}
    counts = name_counts(vault)
    special = special_files(vault)
    for old, new in moves.items():
        new_name = link_name(vault, new, counts)
        sources = {b.source for b in vault.backlinks(old)}
        for source in sorted(sources):
            if source in skip or source in moves or source == new or not _editable(source, special):
                continue
            page = vault.pages.get(source)
            if page is None:
                continue
            for link in page.links:
                if link.kind not in ("wiki", "frontmatter") \
                        or not link.raw.lstrip("!").startswith("[["):
                    continue
                if vault.resolve(link.target, source) != old:
                    continue
                raw = _new_raw(link, new_name)
                if keep_text and not link.display:
                    raw = raw[:-2] + f"|{link.target}]]"
                per_page.setdefault(source, {}).setdefault(link.line, []).append((link.raw, raw))
            for number, old_raw, raw in _chart_links(vault, source, old, new_name):
                per_page.setdefault(source, {}).setdefault(number, []).append((old_raw, raw))
    blocks: list[Block] = []
    for source, lines in sorted(per_page.items()):
        text = vault.read_text(source)
        file_lines = text.splitlines(keepends=True)
        edits: list[tuple[str, str]] = []
        for number in sorted(lines):
            if not 1 <= number <= len(file_lines):
                continue
            old_line = file_lines[number - 1]
            new_line = old_line
            for old_raw, new_raw in lines[number]:
                new_line = new_line.replace(old_raw, new_raw)
            if new_line != old_line:
                edits.append((old_line if old_line.endswith("\n") else old_line + "\n",
                              new_line if new_line.endswith("\n") else new_line + "\n"))
        if edits:
            blocks.append(Block(EDIT, source, edits=edits))
    return blocks + _canvas_blocks(vault, moves, skip, counts, keep_text)


def _canvas_blocks(vault: Any, moves: dict[str, str], skip: set[str], counts: dict[str, int],
                   keep_text: bool) -> list[Block]:
    """The vault's canvases with their file nodes and their text nodes' links following the
    moved pages (a canvas is no page: no link index sees into it)."""
    blocks = []
    for path in sorted(p for p in getattr(vault, "attachments", ()) if p.endswith(".canvas")):
        if path in skip or not _editable(path, special_files(vault)):
            continue
        try:
            text = vault.read_text(path) if hasattr(vault, "read_text") else ""
            data = json.loads(text)
            nodes = data.get("nodes") or []
        except Exception:  # unreadable, or not a canvas: left as it is
            continue
        changed = False
        for node in nodes:
            if not isinstance(node, dict):
                continue
            if node.get("type") == "file" and node.get("file") in moves:
                node["file"], changed = moves[node["file"]], True
            if node.get("type") == "text" and isinstance(node.get("text"), str):
                new_text = _SPEC_LINK.sub(lambda m: _moved_link(vault, m, path, moves, counts,
                                                                 keep_text), node["text"])
                if new_text != node["text"]:
                    node["text"], changed = new_text, True
        if changed:
            indent = "\t" if "\n\t" in text else 1
            out = json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
            blocks.append(Block(WRITE, path, content=out))
    return blocks


def _moved_link(vault: Any, m: re.Match, source: str, moves: dict[str, str],
                counts: dict[str, int], keep_text: bool) -> str:
    target = vault.resolve(m.group(1).strip(), source)
    if target not in moves:
        return m.group(0)
    rest = m.group(2) or ("|" + m.group(1).strip() if keep_text else "")
    return f"[[{link_name(vault, moves[target], counts)}{rest}]]"


def blocks_as_text(blocks: list[Block]) -> str:
    """Blocks written in the edit protocol (how the offline engine writes its reply)."""
    out: list[str] = []
    for b in blocks:
        if b.kind == EDIT:
            out.append(f"@@@ EDIT {b.path}\n")
            for search, replace in b.edits:
                out.append("@@@ SEARCH\n" + _nl(search) + "@@@ REPLACE\n" + _nl(replace))
            out.append("@@@ END\n")
        elif b.kind == "write":
            out.append(f"@@@ WRITE {b.path}\n{_nl(b.content or '')}@@@ END\n")
        elif b.kind == "delete":
            out.append(f"@@@ DELETE {b.path}\n")
        elif b.kind == "rename":
            out.append(f"@@@ RENAME {b.path} -> {b.new_path}\n")
    return "".join(out)


def _nl(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"
