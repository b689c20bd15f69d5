"""What an ingest adds to an existing page the source mentions: the source in its `sources:`
frontmatter, and the source's sentence about it as a cited line under "## From the sources".

    block = update_block(vault, "entities/H4.md", "[[Source page]]", source_text, names)

Both as one EDIT block whose SEARCH texts are the page's own lines (unique, never reaching into
the frontmatter for the appended line); None when the page cites the source already.
"""

from __future__ import annotations

import re
from typing import Any

from wiki_tui.agent.offline.sentences import plain, sentences
from wiki_tui.agent.offline.writing import yaml_str
from wiki_tui.changes.reply.blocks import EDIT, Block

FROM_SOURCES = "## From the sources"


def update_block(vault: Any, path: str, cite: str, text: str, names: list[str]
                 ) -> Block | None:
    """The source in the page's `sources:`, and the source's sentence about it as a cited line
    (None: the page cites the source already, or has no frontmatter to extend)."""
    page_text = vault.read_text(path)
    edit = _sources_edit(page_text, cite)
    if edit is None:
        return None
    edits = [edit]
    sentence = _sentence_about(text, names)
    if sentence and plain(sentence) not in plain(page_text):
        line = _append_edit(page_text, f"- {sentence} ({cite})")
        if line is not None:
            edits.append(line)
    return Block(EDIT, path, edits=edits)


def _sentence_about(text: str, names: list[str]) -> str:
    """The source's first full sentence naming the page (title or alias), on one line."""
    patterns = [re.compile(rf"(?<![\w-]){re.escape(n)}(?![\w-])", re.I) for n in names]
    for unit in sentences(text):
        shown = plain(unit.text)
        if len(shown.split()) >= 6 and not shown.endswith((":", "?")) \
                and any(p.search(shown) for p in patterns):
            return " ".join(unit.text.split())
    return ""


def _append_edit(page_text: str, line: str) -> tuple[str, str] | None:
    """(SEARCH, REPLACE) adding `line` at the end of the page, under "## From the sources"
    (added unless the page ends in that section). SEARCH is the page's shortest unique tail
    of lines, never reaching into the frontmatter."""
    lines = page_text.splitlines(keepends=True)
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    front_end = page_text.find("\n---", 3) if page_text.startswith("---") else -1
    front_lines = page_text.count("\n", 0, front_end + 4) + 1 if front_end >= 0 else 0
    headings = [ln.strip() for ln in lines[front_lines:end] if ln.startswith("## ")]
    addition = f"{line}\n" if headings and headings[-1] == FROM_SOURCES \
        else f"\n{FROM_SOURCES}\n\n{line}\n"
    for start in range(end - 1, max(front_lines, end - 6) - 1, -1):
        old = "".join(lines[start:end])
        if page_text.count(old) == 1:
            return old, (old if old.endswith("\n") else old + "\n") + addition
    return None


def _sources_edit(text: str, cite: str) -> tuple[str, str] | None:
    """(old line, new lines) adding `cite` to the page's `sources` frontmatter (None: there
    already, no frontmatter, or a form not rewritten mechanically)."""
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    if end < 0:
        return None
    front = text[:end + 1].splitlines(keepends=True)
    if cite in "".join(front):
        return None
    quoted = yaml_str(cite)
    for i, line in enumerate(front):
        m = re.match(r"^sources:\s*(.*?)\s*$", line)
        if not m:
            continue
        value = m.group(1)
        block_list = i + 1 < len(front) and front[i + 1].lstrip().startswith("- ")
        if value in ("", "null", "~") and block_list:
            j = i + 1
            while j + 1 < len(front) and front[j + 1].lstrip().startswith("- "):
                j += 1
            indent = front[j][:len(front[j]) - len(front[j].lstrip())]
            return front[j], front[j] + f"{indent}- {quoted}\n"
        if value in ("", "[]", "null", "~"):
            return line, f"sources: [{quoted}]\n"
        if value.startswith("[") and value.endswith("]"):
            inner = value[1:-1].strip()
            return line, (f"sources: [{inner}, {quoted}]\n" if inner
                          else f"sources: [{quoted}]\n")
        return None
    last = front[-1]
    return last, last + f"sources: [{quoted}]\n"
