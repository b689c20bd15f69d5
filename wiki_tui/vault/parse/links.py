"""One linear pass over a markdown page: links, prose spans, tags, headings, block ids.

The rules are those of shared/guide/obsidian-links.md. Everything here works with
``str.find`` and small regexes that cannot backtrack over a link body, and every search
pointer only moves forward: pathological inputs (40,000 ``[`` in a row, megabytes of
brackets or backticks) stay linear.

The pass:
1. blocks.py finds the prose: it jumps from one line that may open a fence or indented
   code (or holds ``%%``) to the next, skips fenced code (any fence length, to EOF when
   unclosed), indented code and ``%% comments %%``, and cuts inline code spans (backtick
   runs of any length) out, leaving *prose spans* (offset ranges, see ``prose_spans``);
   it also reads headings (ATX and setext) and block ids there;
2. this module finds links inside prose spans, and tags in prose outside links.

That pass is the reference (``reference_scan``). ``scan`` first tries quick.py's regex-first
pass, which gives the same answers in a few C-level searches on the pages it takes (most
pages; tested equal), and runs the reference on the rest.

Decisions where the guide says *open* or Obsidian is unclear (tested):
- an unclosed ``%%`` comments out the rest of the page (as Obsidian renders it);
- a code span may run over lines inside one paragraph (CommonMark); a blank line or a
  line starting a list item, heading, quote or table row ends the paragraph;
- links inside raw HTML are links; ``$$ math $$`` is prose;
- ``\\[[x]]`` (escaped bracket) is text; in ``[[a [[b]]`` the innermost ``[[`` opens;
- a ``[text](dest)`` destination may hold one level of parentheses;
- any URL scheme (``http:``, ``mailto:``, ``obsidian:`` ...) in a markdown link is external,
  while ``[[https://x.y]]`` stays a note link (observed in Obsidian);
- indented text inside a list (even after a blank line) is list content, not code.
"""

from __future__ import annotations

import re

from wiki_tui.vault.parse.blocks import BlockPass, Heading, LineIndex
from wiki_tui.vault.parse.quick import TAG, add_tags, quick_links, quick_scan
from wiki_tui.vault.parse.link import (
    ATTACHMENT_EXTENSIONS,
    DESTINATION,
    Link,
    Scan,
    _split_wiki_body,
    is_attachment_path,
    markdown_link,
)

__all__ = [
    "Link",
    "Heading",
    "Scan",
    "scan",
    "scan_links",
    "prose_spans",
    "iter_prose_text",
    "find_links_in",
    "is_attachment_path",
    "ATTACHMENT_EXTENSIONS",
]


class _LinkFinder:
    """Finds links in one prose span; every search pointer only moves forward."""

    __slots__ = ("text", "lines", "kind")

    def __init__(self, text: str, lines: LineIndex, kind: str):
        self.text = text
        self.lines = lines
        self.kind = kind

    def run(self, a: int, b: int, links: list, external: list, ranges: list) -> None:
        text = self.text
        at = self.lines.at
        kind = self.kind
        # cached "next occurrence" pointers: -2 unknown, -1 none left in the span
        wclose = close = nl = failed = -2
        pos = text.find("[", a, b)
        while pos != -1:
            if nl != -1 and nl < pos:
                nl = text.find("\n", pos, b)
            line_end = b if nl == -1 else nl
            if pos + 1 < b and text[pos + 1] == "[":
                if pos > a and text[pos - 1] == "\\" and (pos < 2 or text[pos - 2] != "\\"):
                    pos += 1  # "\[[" is an escaped bracket, not a link
                    continue
                if wclose != -1 and wclose < pos + 2:
                    wclose = text.find("]]", pos + 2, b)
                if wclose != -1 and wclose < line_end:
                    o = text.rfind("[[", pos, wclose)  # the innermost "[[" opens the link
                    end = wclose + 2
                    pos = text.find("[", end, b)
                    # the common case inline (this loop is the hot path of a vault build)
                    body = text[o + 2 : wclose]
                    if "|" in body or "#" in body:
                        target, sub, display = _split_wiki_body(body)
                    else:
                        target, sub, display = body.strip(), "", None
                    start = o - 1 if o > a and text[o - 1] == "!" else o
                    ranges.append((start, end))
                    if not target and not sub:
                        continue  # [[]], [[ ]], [[|x]], [[#]]: not a link
                    line, col = at(start)
                    links.append(
                        Link(
                            target,
                            sub,
                            display,
                            start != o,
                            kind,
                            line,
                            col,
                            start,
                            end,
                            text[start:end],
                        )
                    )
                else:
                    pos += 1  # "[[" with no closer on its line is text
                continue
            # a single "[": maybe a markdown link [text](dest)
            if close != -1 and close <= pos:
                close = text.find("]", pos + 1, b)
            if close == -1:
                return  # no "]" left: neither link form can follow
            if close > line_end:
                pos = text.find("[", line_end, b)
                continue
            if close != failed:
                o = text.rfind("[", pos, close)  # the innermost "[" opens the link text
                if close + 1 < b and text[close + 1] == "(":
                    end, dest = _parse_destination(text, close + 2, line_end)
                    if end != -1:
                        self._markdown(o, close, end, dest, a, links, external, ranges)
                        pos = text.find("[", end, b)
                        continue
                failed = close  # every "[" before this "]" would fail the same way
            # go on from the next "[": a [[wikilink]] may sit inside "[text [[x]]]"
            pos = text.find("[", pos + 1, b)

    def _markdown(self, o, close, end, dest, a, links, external, ranges) -> None:
        embed = o > a and self.text[o - 1] == "!"
        ranges.append((o - 1 if embed else o, end))
        markdown_link(self.text, o, close, end, dest, embed, self.lines.at, links, external)


_DESTINATION = re.compile(DESTINATION)  # see link.py


def _parse_destination(text: str, i: int, limit: int) -> tuple[int, str]:
    """Parse the destination after ``](``; (end offset, dest) or (-1, "")."""
    m = _DESTINATION.match(text, i, limit)
    if not m:
        return -1, ""
    dest = m.group(1) if m.group(1) is not None else m.group(2)
    return m.end(), dest.strip()


# ---------------------------------------------------------------------------
# Tags



# ---------------------------------------------------------------------------
# Public API


def scan(
    text: str,
    *,
    start: int = 0,
    line_offset: int = 0,
    kind: str = "wiki",
    meta: bool = True,
) -> Scan:
    """Scan ``text[start:]``. Offsets are into ``text``; lines count from its beginning.

    ``line_offset`` is added to every line number (for text cut out of a larger file).
    ``meta=False`` skips headings, block ids and tags.
    """
    out = quick_scan(text, start, kind, meta)  # the same answers, where it can tell them
    if out is None:
        out = reference_scan(text, start=start, kind=kind, meta=meta)
    if line_offset:
        out.links = [_shift(link, line_offset) for link in out.links]
        out.external = [_shift(link, line_offset) for link in out.external]
        for h in out.headings:
            h.line += line_offset
    return out


def reference_scan(text: str, *, start: int = 0, kind: str = "wiki", meta: bool = True) -> Scan:
    """`scan` by the line-walking pass this module describes: the reference quick.py is
    tested against, and what runs on any page quick.py gives up on. Lines are not shifted."""
    p = BlockPass(text, start)
    p.blocks()
    out = Scan(spans=p.spans)
    finder = _LinkFinder(text, p.lines, kind)
    ranges: list[tuple[int, int]] = []
    links, external = out.links, out.external
    for a, b in out.spans:
        if text.find("[", a, b) != -1:
            finder.run(a, b, links, external, ranges)
    if meta:
        p.meta()
        out.headings, out.block_ids = p.headings, p.block_ids
        _find_tags(text, out.spans, ranges, out.tags)
    return out


def _find_tags(text: str, spans, ranges, tags: list[str]) -> None:
    """Inline tags in prose spans, outside links (``ranges``: sorted link extents)."""
    add_tags(text, (m for a, b in spans if text.find("#", a, b) != -1
                    for m in TAG.finditer(text, a, b)), ranges, tags)


def _shift(link: Link, lines: int) -> Link:
    return Link(
        link.target,
        link.subpath,
        link.display,
        link.embed,
        link.kind,
        link.line + lines,
        link.col,
        link.start,
        link.end,
        link.raw,
    )


def scan_links(text: str, *, line_offset: int = 0, start: int = 0) -> list[Link]:
    """Page links (wiki and markdown, not external URLs) in reading order; linear time."""
    return scan(text, start=start, line_offset=line_offset, meta=False).links


def prose_spans(text: str, *, start: int = 0) -> list[tuple[int, int]]:
    """(start, end) offsets of the text outside code blocks, inline code and comments."""
    return scan(text, start=start, meta=False).spans


def iter_prose_text(text: str, *, start: int = 0):
    """Yield (offset, piece) for each prose span."""
    for a, b in prose_spans(text, start=start):
        yield a, text[a:b]


def find_links_in(text: str, a: int, b: int, *, kind: str = "wiki") -> list[Link]:
    """Links in ``text[a:b]`` taken as plain prose (no code or comment rules).

    Used for frontmatter, where YAML indentation must not look like code. ``kind`` is
    given to wikilinks; markdown links keep kind "markdown".
    """
    links = quick_links(text, a, b, kind)  # the same answer, where it can tell it
    if links is None:
        links = []
        _LinkFinder(text, LineIndex(text), kind).run(a, b, links, [], [])
    return links
