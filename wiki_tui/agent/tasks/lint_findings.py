"""Model-checked lint findings, read from the model's reply however it laid them out.

The lint prompt asks for one line per finding,

    FINDING: <code> | <page path> | <one sentence> | "<quoted evidence>"

but real replies number them (`1. FINDING: ...`), bullet and bold them (`- **FINDING:** ...`),
add prose after the quote, write the page as [[Page]] or `path`, quote with “curly” quotes, or
put the findings in a markdown table (`| code | page | finding | evidence |`). All of these are
read; lines inside edit blocks never are (a page may contain the word FINDING).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from wiki_tui.agent.tasks.dismissed import finding_id
from wiki_tui.agent.events import LintItem

CODES = ("contradiction", "superseded", "missing-page", "missing-link")
# What the wiki should look into next: not errors, kept apart (agent/tasks/open_questions.py).
SUGGESTIONS = ("question", "source", "data-gap")

_LIST_MARK = r"(?:[-*+•]|\d+[.)]|\(\d+\))?"
_FINDING_LINE = re.compile(
    rf"^\s*{_LIST_MARK}\s*(?:\*\*|__)?finding(?:\s*\d+)?(?:\*\*|__)?\s*[:：]\s*(?:\*\*|__)?\s*"
    r"(?P<body>.+?)\s*$", re.IGNORECASE)
_QUOTED = re.compile(r'"([^"]+)"|“([^”]+)”|„([^“”]+)[“”]|«\s*([^»]+?)\s*»')
_BLOCK_START = re.compile(r"^\s*@@@\s*(WRITE|EDIT)\b")
_BLOCK_END = re.compile(r"^\s*@@@\s*END\b")
_WIKILINK = re.compile(r"\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]")
_MD_LINK = re.compile(r"\[[^\]]*\]\(([^)]+)\)")
_HEADER_NAMES = {
    "code": ("code", "kind", "type", "category", "finding type"),
    "path": ("page", "path", "file", "page path", "where", "location"),
    "message": ("finding", "message", "problem", "issue", "description", "summary", "detail"),
    "evidence": ("evidence", "quote", "quoted evidence", "quotes", "text"),
}

Resolver = Callable[[str], "str | None"]


def model_findings(reply: str, resolve: Resolver | None = None) -> list[LintItem]:
    """Every finding in the reply, in order, each once. `resolve` maps a page name the model
    wrote ([[Title]], an alias, a path without .md) to its vault path."""
    items: list[LintItem] = []
    seen: set[str] = set()
    lines = _prose_lines(reply)
    for fields in [*_finding_lines(lines), *_table_rows(lines)]:
        item = _item(fields, resolve)
        if item is not None and item.id not in seen:
            seen.add(item.id)
            items.append(item)
    return items


def _prose_lines(reply: str) -> list[str]:
    """The reply's lines outside WRITE/EDIT blocks."""
    out, inside = [], False
    for line in reply.splitlines():
        if inside:
            inside = not _BLOCK_END.match(line)
        elif _BLOCK_START.match(line):
            inside = True
        else:
            out.append(line)
    return out


def _finding_lines(lines: list[str]):
    for line in lines:
        m = _FINDING_LINE.match(line)
        if m:
            body = m.group("body").strip().strip("*_ ").strip()
            fields = [f.strip() for f in body.split("|")]
            if len(fields) >= 3:
                yield {"code": fields[0], "path": fields[1], "message": fields[2],
                       "evidence": " | ".join(fields[3:])}


def _cells(line: str) -> list[str] | None:
    text = line.strip()
    if not (text.startswith("|") and text.count("|") >= 3):
        return None
    return [c.strip() for c in text.strip("|").split("|")]


def _table_rows(lines: list[str]):
    """Rows of markdown tables whose header names a code, a page and a message column."""
    columns: dict[str, int] | None = None
    for line in lines:
        cells = _cells(line)
        if cells is None:
            columns = None
            continue
        if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
            continue  # the separator row
        header = _columns(cells)
        if header is not None:
            columns = header
            continue
        if columns is not None:
            yield {name: cells[i] if i < len(cells) else "" for name, i in columns.items()}


def _columns(cells: list[str]) -> dict[str, int] | None:
    found: dict[str, int] = {}
    for i, cell in enumerate(cells):
        name = cell.strip("*_` ").lower()
        for key, names in _HEADER_NAMES.items():
            if name in names and key not in found:
                found[key] = i
    return found if {"code", "path", "message"} <= found.keys() else None


def _item(fields: dict[str, str], resolve: Resolver | None) -> LintItem | None:
    code = _code(fields["code"])
    path = _path(fields["path"], resolve)
    message = _plain(fields["message"])
    if not (code and path and message):
        return None
    evidence = _evidence(fields.get("evidence", ""))
    return LintItem(finding_id(code, path, message, evidence), code, path, message,
                    evidence=evidence, source="model")


def _plain(text: str) -> str:
    return " ".join(text.replace("**", "").replace("__", "").split()).strip()


def _code(text: str) -> str:
    code = re.sub(r"[\s_]+", "-", _plain(text).strip("`[]()").lower())
    return code if re.fullmatch(r"[a-z][a-z-]{1,40}", code) else ""


def _path(text: str, resolve: Resolver | None) -> str:
    raw = _plain(text)
    link = _WIKILINK.search(raw) or _MD_LINK.search(raw)
    target = (link.group(1) if link else raw).strip().strip("`'\"<>").strip()
    if resolve is not None and target:
        resolved = resolve(target)
        if resolved:
            return resolved
    return target


def _evidence(text: str) -> str:
    """The quoted words, without prose around them: one quote bare; two or more (a
    contradiction) as `"A" vs "B"` with the words between kept (the findings screen shows them
    side by side); an unquoted field as it is."""
    matches = list(_QUOTED.finditer(text))
    quotes = [" ".join(next(g for g in m.groups() if g).split()) for m in matches]
    if len(quotes) == 1:
        return quotes[0]
    if quotes:
        out = f'"{quotes[0]}"'
        for before, match, quote in zip(matches, matches[1:], quotes[1:]):
            gap = " ".join(text[before.end():match.start()].split()) or "vs"
            out += f' {gap} "{quote}"'
        return out
    return _plain(text).strip("'`")
