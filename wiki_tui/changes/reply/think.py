"""Reasoning sections in a reply: `<think>` (or `<thinking>`, `<reasoning>`) up to its closing
tag is the model thinking aloud, never edits. Blocks drafted there are not applied; a section
left open, or a closing tag whose opening was in the chat template, is said in a repair note or
refused when it swallowed edit blocks.
"""

from __future__ import annotations

import re

from wiki_tui.changes.reply.markers import marker

_OPEN = re.compile(r"^[ \t]*<(think|thinking|reasoning)>", re.IGNORECASE)
_CLOSE = re.compile(r"</(think|thinking|reasoning)>", re.IGNORECASE)
_OPEN_ANY = re.compile(r"<(think|thinking|reasoning)>", re.IGNORECASE)
_STRAY = re.compile(r"^[ \t]*</(think|thinking|reasoning)>|</(think|thinking|reasoning)>"
                    r"[ \t\r]*$", re.IGNORECASE)


def opens(line: str) -> re.Match[str] | None:
    """A line that opens a reasoning section (the tag's match)."""
    return _OPEN.match(line)


def stray_close(line: str) -> str | None:
    """The tag of a closing `</think>` on a line that opens none (the opening tag was in the
    chat template): everything before it was reasoning."""
    if _STRAY.search(line) and not _OPEN_ANY.search(line):
        return _CLOSE.search(line).group(1).lower()  # type: ignore[union-attr]
    return None


def stray_note(line_no: int, tag: str, drafts: int) -> str:
    note = f"ignored lines 1-{line_no} as reasoning (they end with '</{tag}>')"
    return note + ("; the edit blocks drafted there were not used" if drafts else "")


class Reasoning:
    """An open reasoning section: where it began, its tag, and the marker lines drafted in it."""

    __slots__ = ("start", "tag", "markers")

    def __init__(self, start: int, tag: str) -> None:
        self.start, self.tag, self.markers = start, tag.lower(), 0

    def close_at(self, line: str) -> int | None:
        """Where the text after the closing tag begins on `line`, or None (still reasoning)."""
        m = _CLOSE.search(line)
        if m is None:
            if marker(line)[0] is not None:
                self.markers += 1
            return None
        return m.end()

    def closed_note(self, line_no: int) -> str:
        note = f"ignored a <{self.tag}> section (lines {self.start}-{line_no})"
        return note + ("; the edit blocks drafted in it were not used" if self.markers else "")

    def unclosed(self, line_no: int) -> tuple[str | None, str | None]:
        """The reply ended inside the section: (error, None) when edit blocks were swallowed,
        else (None, repair note)."""
        if self.markers:
            return (f"the <{self.tag}> section opened on line {self.start} is never closed, so "
                    f"the edit blocks after it were read as reasoning and not used. Close the "
                    f"reasoning with '</{self.tag}>' and write the edit blocks after it"), None
        return None, f"ignored an unclosed <{self.tag}> section (lines {self.start}-{line_no})"
