"""log.md: the vault's append-only timeline, one entry per accepted operation.

    ## [2026-11-20] ingest | Title of the source
    - source: raw/foo.md
    - created: [[sources/Foo|Foo]], [[concepts/Bar|Bar]]
    - updated: [[entities/Baz|Baz]]
    - deleted: old/page.md
    - renamed: [[old/Name]] → [[new/Name]]
    - rejected: concepts/Qux.md
    - left out (the model's edits could not be used): concepts/Quux.md
    - usage: openai/gpt-4o-mini, 12408 tokens in, 913 tokens out, cost $0.002413

Only lines with content appear; entries are separated by one blank line. Earlier bytes are never
rewritten: the new entry is appended (with just enough newlines before it), so the file's history
stays intact even if the program dies halfway through an append.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wiki_tui.changes.apply.atomic import fsync_dir
from wiki_tui.changes.usage import Spend

LOG_PATH = "log.md"
LOG_HEADER = "# Log\n"
OPERATIONS = ("ingest", "query", "save", "lint", "instruct", "apply", "undo")


def link_target(path: str) -> str:
    """The wikilink target for a vault path: the path without its .md extension."""
    return path[:-3] if path.lower().endswith(".md") else path


def safe_display(text: str) -> str:
    """Text usable as a wikilink display: one line, without the characters that end a link."""
    text = " ".join(text.split())
    return text.replace("|", "-").replace("[[", "(").replace("]]", ")")


def wikilink(path: str, title: str | None = None) -> str:
    target = link_target(path)
    if title:
        return f"[[{target}|{safe_display(title)}]]"
    return f"[[{target}]]"


@dataclass
class LogEntry:
    operation: str
    title: str
    date: _dt.date | str | None = None
    created: list[tuple[str, str | None]] = field(default_factory=list)  # (path, page title)
    updated: list[tuple[str, str | None]] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)  # (old path, new path)
    rejected: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # not written: changed on disk (conflict)
    left_out: list[str] = field(default_factory=list)  # edits that could not be used
    spend: Spend | None = None  # the model's tokens and cost (changes/usage.py)
    source: str = ""  # the raw/ file an ingest read

    def heading(self) -> str:
        date = self.date or _dt.date.today()
        if isinstance(date, (_dt.date, _dt.datetime)):
            date = date.strftime("%Y-%m-%d")
        title = " ".join(self.title.split()) or "(untitled)"
        return f"## [{date}] {self.operation} | {title}"

    def render(self) -> str:
        """The entry's text, ending with one newline."""
        lines = [self.heading()]
        if self.source:
            lines.append(f"- source: {self.source}")
        if self.created:
            lines.append("- created: " + ", ".join(wikilink(p, t) for p, t in self.created))
        if self.updated:
            lines.append("- updated: " + ", ".join(wikilink(p, t) for p, t in self.updated))
        if self.deleted:
            lines.append("- deleted: " + ", ".join(self.deleted))
        if self.renamed:
            lines.append("- renamed: " + ", ".join(
                f"{wikilink(old)} → {wikilink(new)}" for old, new in self.renamed))
        if self.rejected:
            lines.append("- rejected: " + ", ".join(self.rejected))
        if self.skipped:
            lines.append("- not written (changed on disk): " + ", ".join(self.skipped))
        if self.left_out:
            lines.append("- left out (the model's edits could not be used): "
                         + ", ".join(self.left_out))
        if self.spend is not None:
            lines.append(self.spend.log_line())
        return "\n".join(lines) + "\n"


def append_bytes(existing: bytes | None, entry: str) -> bytes:
    """Exactly the bytes to append to a log.md holding `existing` (None: no file yet).

    Creates the "# Log" heading for a missing or empty file; otherwise adds the newlines needed
    so that the new entry is separated from the last line by one blank line. The file's newline
    style (CRLF) is kept.
    """
    crlf = bool(existing) and existing.count(b"\r\n") * 2 > existing.count(b"\n")
    if not existing or not existing.strip():  # no log yet (or only blank space): start one
        prefix = ("" if not existing or existing.endswith(b"\n") else "\n") + LOG_HEADER + "\n"
    elif existing.endswith(b"\n\n") or existing.endswith(b"\r\n\r\n"):
        prefix = ""
    elif existing.endswith(b"\n"):
        prefix = "\n"
    else:
        prefix = "\n\n"
    text = prefix + entry
    if crlf:
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    return text.encode("utf-8")


def append(path: Path, data: bytes) -> None:
    """Append `data` to `path` (created if missing) and make it durable. Never rewrites a byte."""
    created = not path.exists()
    with open(path, "ab") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    if created:
        fsync_dir(path.parent)


def truncate_to(path: Path, size: int) -> None:
    """Undo an append (crash recovery): cut the file back to `size` bytes, or remove it (size -1)."""
    if size < 0:
        path.unlink(missing_ok=True)
        fsync_dir(path.parent)
        return
    with open(path, "r+b") as handle:
        handle.truncate(size)
        handle.flush()
        os.fsync(handle.fileno())


def entries(text: str) -> list[str]:
    """The headings of all entries (what `grep "^## \\[" log.md` lists)."""
    return [line for line in text.splitlines() if line.startswith("## [")]


# -- reading ----------------------------------------------------------------------------------
HEADING = re.compile(r"^## \[(?P<date>[^\]]*)\]\s*(?P<op>[^|]*?)\s*\|\s*(?P<title>.*?)\s*$")
WIKILINK = re.compile(r"\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]")


@dataclass
class Entry:
    date: str
    operation: str
    title: str
    lines: list[str] = field(default_factory=list)  # its "- created: ..." lines
    commit: Any = None  # the git commit it was recorded with, when the caller looked it up

    @property
    def targets(self) -> list[str]:
        """Link targets of the pages it created, updated or renamed to (not deleted ones)."""
        found: list[str] = []
        for line in self.lines:
            kind = line.lstrip("- ").split(":", 1)[0]
            if kind in ("deleted", "rejected") or kind.startswith("not written"):
                continue
            links = WIKILINK.findall(line)
            if kind == "renamed":
                links = links[1::2]  # [[old]] → [[new]]: only the new name exists
            found.extend(t.strip() for t in links if t.strip() not in found)
        return found


def parse_log(text: str) -> list[Entry]:
    """Entries of log.md in file order (oldest first); lines before the first entry are skipped."""
    entries: list[Entry] = []
    for line in text.splitlines():
        match = HEADING.match(line)
        if match:
            entries.append(Entry(match["date"].strip(), match["op"].strip(), match["title"]))
        elif entries and line.strip():
            entries[-1].lines.append(line.rstrip())
    return entries


def ingested_sources(text: str) -> set[str]:
    """The raw/ paths named by the `- source:` line of the log's ingest entries."""
    return {line.removeprefix("- source: ").strip() for entry in parse_log(text)
            if entry.operation == "ingest" for line in entry.lines
            if line.startswith("- source: ")}
