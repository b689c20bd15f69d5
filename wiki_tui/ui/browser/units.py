"""Split a page body into render units: runs of source lines rendered independently.

Rendering unit by unit lets a big page show its first screen early, maps headings and source lines
to rendered rows, and keeps each markdown parse small. Units never split a fenced code block; they
start at every ATX heading, and past `max_chars` also at a blank line followed by an unindented
line (which closes any list or quote, so the markdown means the same) or at a top-level list item
(a long list renders as several lists that look the same; numbered items keep their numbers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True)
class Unit:
    first_line: int  # 1-based line in the file
    start: int  # offset of the unit in the file text
    text: str

    @property
    def line_count(self) -> int:
        return self.text.count("\n") + 1


def split_units(text: str, body_start: int, first_line: int, max_chars: int = 4000) -> list[Unit]:
    """Units of `text[body_start:]`, whose first line is line `first_line` of the file."""
    units: list[Unit] = []
    fence: str | None = None
    unit_start = body_start
    unit_line = first_line
    offset = body_start
    line_no = first_line
    previous_blank = False
    length = len(text)
    while offset < length:
        end = text.find("\n", offset)
        end = length if end == -1 else end + 1
        line = text[offset:end].rstrip("\r\n")
        if fence is not None:
            match = _FENCE.match(line)
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence) \
                    and not line[match.end():].strip():
                fence = None
        else:
            long_unit = offset - unit_start >= max_chars
            boundary = _HEADING.match(line) is not None or (
                long_unit
                and line[:1] not in ("", " ", "\t")
                and (previous_blank or _LIST_ITEM.match(line) is not None)
            )
            if boundary and offset > unit_start:
                units.append(Unit(unit_line, unit_start, text[unit_start:offset]))
                unit_start, unit_line = offset, line_no
            match = _FENCE.match(line)
            if match:
                fence = match.group(1)
        previous_blank = not line.strip()
        offset = end
        line_no += 1
    if unit_start < length and text[unit_start:].strip():
        units.append(Unit(unit_line, unit_start, text[unit_start:]))
    return [u for u in units if u.text.strip()]
