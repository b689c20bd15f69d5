"""One part of a page named by a link's subpath: a heading's section (`#Heading`) or a block
(`#^id`), as Obsidian reads them. Used by embeds in the browser and by the MCP server's
`read_page` of `page#heading`."""

from __future__ import annotations

import re

from wiki_tui.vault.parse.links import scan


def section_span(text: str, body_start: int, subpath: str) -> tuple[int, int] | None:
    """Offsets (start, end) of the part `subpath` names: the whole body (""), a heading's
    section (`#H` or `#H1#H2`: up to the next heading of its level or above), or a block (`#^id`:
    the paragraph ending with the id); None when the page has no such part."""
    if not subpath:
        return body_start, len(text)
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    if subpath.startswith("#^"):
        number = block_line(lines, subpath)
        if number is None:
            return None
        first = number - 1
        while first > 0 and lines[first - 1].strip() and starts[first] > body_start:
            first -= 1  # the block is the paragraph ending with the id
        return starts[first], starts[number]
    headings = scan(text, start=body_start, meta=True).headings
    index = heading_index(headings, subpath)
    if index is None:
        return None
    heading = headings[index]
    end_line = next((h.line for h in headings[index + 1 :] if h.level <= heading.level),
                    len(lines) + 1)
    return starts[heading.line - 1], starts[min(end_line - 1, len(lines))]


_BLOCK_ID = re.compile(r"(?:^|\s)\^([A-Za-z0-9-]+)\s*$")


def block_line(lines: list[str], subpath: str) -> int | None:
    """1-based line ending with the block id of `#^id`."""
    wanted = subpath[2:].lower()
    for number, line in enumerate(lines, start=1):
        match = _BLOCK_ID.search(line)
        if match and match.group(1).lower() == wanted:
            return number
    return None


def heading_index(headings: list, subpath: str) -> int | None:
    """Index of the heading named by the last part of `#H1#H2` (case-insensitive)."""
    wanted = subpath.rsplit("#", 1)[-1].strip().casefold()
    return next((n for n, h in enumerate(headings) if h.text.strip().casefold() == wanted), None)
