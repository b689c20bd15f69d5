"""An existing folder of notes (an Obsidian vault, say) read for its conventions, and the draft
AGENTS.md that states them for the person to edit.

What is inferred, and why so little is enforced:
- the top folders and how many pages each holds (prose for the model);
- each frontmatter `type` and where its pages live. A type whose pages all sit in one folder
  is declared with it; a type spread over folders (or at the top level) is declared with no
  folder (any folder will do). Either way lint stays quiet about today's pages;
- the frontmatter fields and how many pages carry them, as a comment: `required_fields` is
  left empty, since requiring a field most pages lack would bury the vault in findings.
wiki-tui's own page types follow the inferred ones (where it files the pages it writes).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wiki_tui.vault.indexing.cache import R_TYPE, record_cold
from wiki_tui.vault.layout import SPECIAL_PAGES
from wiki_tui.vault.parse.schema import DEFAULT_CATALOG, DEFAULT_TYPES

if TYPE_CHECKING:
    from wiki_tui.vault.model import Vault

ROOT = "(top level)"
FIELDS_SHOWN = 12  # the most common frontmatter fields named in the draft


@dataclass
class Conventions:
    pages: int = 0
    folders: Counter = field(default_factory=Counter)  # top folder (ROOT for none) -> pages
    types: dict[str, str] = field(default_factory=dict)  # type -> its one folder, "" for several
    where: dict[str, Counter] = field(default_factory=dict)  # type -> folder -> pages
    fields: Counter = field(default_factory=Counter)  # frontmatter key -> pages carrying it


def infer_conventions(vault: "Vault") -> Conventions:
    conv = Conventions()
    by_type: dict[str, Counter] = {}
    for path, record in vault.pages.records().items():
        if path in SPECIAL_PAGES:
            continue
        conv.pages += 1
        folder = path.rsplit("/", 1)[0] if "/" in path else ""
        conv.folders[folder.split("/", 1)[0] or ROOT] += 1
        conv.fields.update(k for k in record_cold(record).frontmatter if isinstance(k, str))
        page_type = record[R_TYPE]
        if isinstance(page_type, str) and page_type.strip():
            by_type.setdefault(page_type.strip(), Counter())[folder or ROOT] += 1
    for page_type, folders in sorted(by_type.items()):
        only = next(iter(folders)) if len(folders) == 1 else ROOT
        conv.types[page_type] = "" if only == ROOT else only
        conv.where[page_type] = folders
    return conv


def draft_agents_md(conv: Conventions, catalog: str = DEFAULT_CATALOG) -> str:
    """AGENTS.md text stating `conv` as a draft: frontmatter for the program, prose for the model.
    `catalog`: where the generated catalog goes (another file when index.md is a home page)."""
    types = dict(conv.types)
    for page_type, folder in DEFAULT_TYPES.items():
        types.setdefault(page_type, folder)
    lines = ["---", "# A DRAFT written by `wiki-tui init` from the notes found here: edit it.",
             "required_fields: []  # fields every page must have (lint reports pages without them)"]
    if conv.fields:
        common = ", ".join(f"{k} ({n}/{conv.pages})" for k, n in conv.fields.most_common(FIELDS_SHOWN))
        lines.append(f"# fields found (pages carrying each): {_one_line(common)}")
    lines.append("types:  # page type -> folder (lint checks a page of a listed type is filed there)")
    for page_type, folder in conv.types.items():
        if folder:
            lines.append(f"  {_yaml_key(page_type)}: {_yaml_key(folder)}")
        else:
            where = ", ".join(f"{f} ({n})" for f, n in conv.where[page_type].most_common(5))
            lines.append(f"  {_yaml_key(page_type)}:  # any folder; found in {_one_line(where)}")
    if conv.types:
        lines.append("  # wiki-tui's own types: where it files the pages it writes")
    lines += [f"  {t}: {f}" for t, f in types.items() if t not in conv.types]
    if catalog != DEFAULT_CATALOG:
        lines.append(f"catalog: {catalog}  # the generated catalog; index.md is your own page")
    lines.append("---")
    lines += _prose(conv, catalog)
    return "\n".join(lines) + "\n"


def _prose(conv: Conventions, catalog: str = DEFAULT_CATALOG) -> list[str]:
    out = ["# Vault schema (draft)", "",
           f"This vault held {conv.pages} notes before wiki-tui adopted it. This file was inferred "
           "from them and is a draft: correct it, then keep it as the rules the model follows. "
           "Edit the notes' conventions here, not the notes to fit this file.", "",
           "## Layout", ""]
    for folder, n in sorted(conv.folders.items(), key=lambda kv: (-kv[1], kv[0])):
        name = folder if folder == ROOT else f"`{folder}/`"
        kinds = [t for t, f in conv.types.items() if f and f.split("/", 1)[0] == folder]
        out.append(f"- {name}: {n} page{'s' if n != 1 else ''}" + (f" (type {', '.join(kinds)})" if kinds else ""))
    out += ["- `raw/` holds source documents. Never edit, rename or delete anything in `raw/`.",
            f"- `{catalog}` is generated by the program from page frontmatter. Never write it.",
            *(["- `index.md` is the person's own home page: leave it to them."]
              if catalog != DEFAULT_CATALOG else []),
            "- `log.md` is append-only and written by the program. Never edit earlier entries."]
    out += ["", "## Pages", "",
            "Keep each note's existing frontmatter. Pages wiki-tui writes start with:", "",
            "    ---", "    title: Page Title", "    type: concept",
            "    summary: One line saying what the page is about.", "    ---", "",
            "## Links", "",
            "- Link notes with wikilinks as Obsidian does: `[[Note]]`, `[[folder/Note|shown]]`.",
            "- Before creating a page, check whether one already exists under another name.",
            "- Cite the raw source a claim comes from."]
    return out


def _one_line(text: str) -> str:
    """Text for a YAML comment: a name holding a line break must not end the comment."""
    return " ".join(text.split())


def _yaml_key(text: str) -> str:
    """A YAML scalar for a type or folder name (quoted unless plainly safe)."""
    safe = text and all(c.isalnum() or c in "-_/ ." for c in text) and text == text.strip()
    if safe and not text[0].isdigit() and text.lower() not in ("true", "false", "null", "yes", "no", "on", "off"):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
