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
from dataclasses import dataclass, field
from urllib.parse import unquote

from wiki_tui.vault.parse.blocks import BlockPass, Heading, LineIndex

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


# Not frozen: a frozen dataclass sets each field through object.__setattr__ (~5 us a link, a
# tenth of a cold build); links are still never changed once made, and hash by value.
@dataclass(slots=True, unsafe_hash=True)
class Link:
    target: str  # linkpath: decoded, trimmed, no subpath; "" for a same-page link ([[#H]])
    subpath: str  # "" or "#Heading" / "#H1#H2" / "#^block-id"; "" for attachments
    display: str | None  # alias text / markdown link text / embed size
    embed: bool
    kind: str  # "wiki" | "markdown" | "frontmatter" | "external"
    line: int  # 1-based line in the file
    col: int  # 0-based column
    start: int  # offset of the whole link (including a leading "!") in the text
    end: int
    raw: str  # the link as written

    @property
    def is_block(self) -> bool:
        return self.subpath.startswith("#^")

    @property
    def heading(self) -> str | None:
        """The last heading of a heading subpath (``#H1#H2`` -> ``H2``), else None."""
        if not self.subpath or self.is_block:
            return None
        return self.subpath.rsplit("#", 1)[-1]


@dataclass(slots=True)
class Scan:
    """Everything one pass over a page body finds."""

    links: list[Link] = field(default_factory=list)  # page links (wiki + markdown)
    external: list[Link] = field(default_factory=list)  # http(s):, mailto:, other URLs
    spans: list[tuple[int, int]] = field(default_factory=list)  # prose outside code/comments
    headings: list[Heading] = field(default_factory=list)
    block_ids: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)  # inline tags, without "#", as written


# Extensions Obsidian opens as attachments; a "#..." after them is not a heading.
ATTACHMENT_EXTENSIONS = frozenset(
    """png jpg jpeg gif bmp svg webp avif heic tif tiff ico
    mp3 wav m4a ogg oga flac 3gp webm mp4 mkv mov ogv
    pdf canvas base excalidraw csv json txt""".split()
)


def is_attachment_path(target: str) -> bool:
    """True if ``target`` names a non-markdown file by its extension (``img.png``)."""
    slash = target.rfind("/")
    dot = target.rfind(".")
    if dot <= slash + 1:
        return False
    return target[dot + 1 :].lower() in ATTACHMENT_EXTENSIONS


# ---------------------------------------------------------------------------
# Links inside prose spans


def _split_wiki_body(body: str) -> tuple[str, str, str | None]:
    """``target#sub|display`` -> (target, subpath, display); handles the table ``\\|``."""
    display = None
    bar = body.find("|")
    if bar >= 0:
        display = body[bar + 1 :]
        body = body[:bar]
        if body.endswith("\\"):
            body = body[:-1]
    return _split_subpath(body) + (display,)


def _split_subpath(path: str) -> tuple[str, str]:
    hash_ = path.find("#")
    if hash_ < 0:
        return path.strip(), ""
    target = path[:hash_].strip()
    if target and is_attachment_path(target):
        return target, ""  # "#..." after an attachment (page=3, icon) is not a heading
    rest = path[hash_ + 1 :]
    if "#" not in rest:  # the common single heading or block
        rest = rest.strip()
        return target, "#" + rest if rest else ""
    parts = [p.strip() for p in rest.split("#")]
    return target, "".join("#" + p for p in parts if p)


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,31}:")


def _is_external(dest: str) -> bool:
    """A URL (http:, https:, mailto:, obsidian:, file: ...), not a page path. The scheme
    needs 2+ characters, so a Windows drive letter would not count (none occur here)."""
    return _SCHEME.match(dest) is not None


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
        text = self.text
        embed = o > a and text[o - 1] == "!"
        start = o - 1 if embed else o
        ranges.append((start, end))
        if not dest:
            return
        label = text[o + 1 : close]
        if _is_external(dest):
            external.append(self._make(dest, "", label, embed, "external", start, end))
            return
        path, sub = _split_subpath(dest)
        path, sub = unquote(path).strip(), unquote(sub)
        if not path and not sub:
            return
        links.append(self._make(path, sub, label, embed, "markdown", start, end))

    def _make(self, target, sub, display, embed, kind, start, end) -> Link:
        line, col = self.lines.at(start)
        return Link(
            target,
            sub,
            display,
            embed,
            kind,
            line,
            col,
            start,
            end,
            self.text[start:end],
        )


# ``(dest)``, ``(<dest>)``, ``(dest "title")``: one level of nested parentheses, so a
# failed match stops at the second "(" and repeated failures stay linear.
_DESTINATION = re.compile(
    r"""[ \t]*(?:<([^<>\n]*)>|((?:[^\s()\\<]|\\.|\((?:[^\s()\\]|\\.)*\))*))"""
    r"""(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*\)"""
)


def _parse_destination(text: str, i: int, limit: int) -> tuple[int, str]:
    """Parse the destination after ``](``; (end offset, dest) or (-1, "")."""
    m = _DESTINATION.match(text, i, limit)
    if not m:
        return -1, ""
    dest = m.group(1) if m.group(1) is not None else m.group(2)
    return m.end(), dest.strip()


# ---------------------------------------------------------------------------
# Tags

_TAG = re.compile(r"#([\w/-]+)")


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
    if line_offset:
        out.links = [_shift(link, line_offset) for link in out.links]
        out.external = [_shift(link, line_offset) for link in out.external]
        for h in out.headings:
            h.line += line_offset
    return out


def _find_tags(text: str, spans, ranges, tags: list[str]) -> None:
    """Inline tags in prose spans, outside links (``ranges``: sorted link extents)."""
    ri = 0
    nr = len(ranges)
    for a, b in spans:
        if text.find("#", a, b) == -1:
            continue
        for m in _TAG.finditer(text, a, b):
            i = m.start()
            while ri < nr and ranges[ri][1] <= i:
                ri += 1
            if ri < nr and ranges[ri][0] <= i:
                continue  # inside a link
            if i > 0 and not text[i - 1].isspace():
                continue  # "a#b", "url/#frag": not tags
            tag = m.group(1)
            if not tag.replace("/", "").isdigit():
                tags.append(tag)


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
    links: list[Link] = []
    _LinkFinder(text, LineIndex(text), kind).run(a, b, links, [], [])
    return links
