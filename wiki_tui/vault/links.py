"""One linear pass over a markdown page: links, prose spans, tags, headings, block ids.

The rules follow docs in shared/guide/obsidian-links.md. Everything here works with
``str.find`` and small anchored regexes, never a regex that can backtrack over a link
body: pathological inputs (40,000 ``[`` in a row, megabytes of brackets) stay linear.

Structure of the pass:
1. a line pass separates prose from fenced code, indented code and ``%% comments %%``;
   inside prose lines, inline code spans and inline comments are cut out too, leaving
   *prose spans* (offset ranges);
2. links are found inside prose spans (a link never crosses a span or a line);
3. tags are found in prose spans outside links; headings and block ids come from the
   line pass.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from urllib.parse import unquote

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


@dataclass(frozen=True, slots=True)
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
class Heading:
    level: int
    text: str
    line: int


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
# Line pass: fences, indented code, comments, headings, block ids

_FENCE_OPEN = re.compile(r"(`{3,}|~{3,})(.*)")
_LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_HEADING = re.compile(r"(#{1,6})(?:[ \t]+(.*?))?[ \t]*$")
_HEADING_CLOSE = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_BLOCK_ID = re.compile(r"(?:^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$")
_BACKTICKS = re.compile(r"`+")
_QUOTE_PREFIX = re.compile(r"[ \t]{0,3}(?:>[ \t]?)+")


def _indent_width(line: str) -> tuple[int, int]:
    """(visual indent with tabs to 4, number of leading whitespace chars)."""
    width = 0
    n = 0
    for ch in line:
        if ch == " ":
            width += 1
        elif ch == "\t":
            width += 4 - width % 4
        else:
            break
        n += 1
    return width, n


class _Pass:
    """State of one scan; kept in a class so helpers share it without globals."""

    __slots__ = ("text", "out", "line_starts", "want_meta", "in_comment")

    def __init__(self, text: str, want_meta: bool):
        self.text = text
        self.out = Scan()
        self.line_starts: list[int] = []
        self.want_meta = want_meta
        self.in_comment = False

    # -- inline code and %% comments inside one prose line ------------------
    def inline(self, a: int, b: int) -> None:
        """Add prose spans for text[a:b] minus inline code and %% comments."""
        text = self.text
        spans = self.out.spans
        if self.in_comment:
            j = text.find("%%", a, b)
            if j < 0:
                return
            self.in_comment = False
            a = j + 2
        has_tick = text.find("`", a, b) >= 0
        has_pct = text.find("%%", a, b) >= 0
        if not has_tick and not has_pct:
            if a < b:
                spans.append((a, b))
            return
        runs: list[tuple[int, int]] = []  # (start, length) of backtick runs
        by_len: dict[int, list[int]] = {}  # run length -> indexes into runs
        if has_tick:
            for m in _BACKTICKS.finditer(text, a, b):
                by_len.setdefault(m.end() - m.start(), []).append(len(runs))
                runs.append((m.start(), m.end() - m.start()))
        ri = 0  # next run to consider
        pos = a
        seg = a  # start of the current prose segment
        next_pct = text.find("%%", a, b) if has_pct else -1
        while True:
            while ri < len(runs) and runs[ri][0] < pos:
                ri += 1
            if next_pct != -1 and next_pct < pos:
                next_pct = text.find("%%", pos, b)
            tick = runs[ri][0] if ri < len(runs) else -1
            if tick == -1 and next_pct == -1:
                break
            if next_pct != -1 and (tick == -1 or next_pct < tick):
                if seg < next_pct:
                    spans.append((seg, next_pct))
                close = text.find("%%", next_pct + 2, b)
                if close < 0:
                    self.in_comment = True  # runs on to a closing %% in a later line
                    return
                pos = seg = close + 2
                continue
            start, n = runs[ri]
            same = by_len[n]
            k = bisect_right(same, ri)
            if k < len(same):  # a closing run of the same length: a code span
                close_run = runs[same[k]]
                if seg < start:
                    spans.append((seg, start))
                pos = seg = close_run[0] + n
            else:  # unmatched run: literal backticks
                pos = start + n
        if seg < b:
            spans.append((seg, b))

    # -- the line pass ------------------------------------------------------
    def lines(self, start: int) -> None:
        text = self.text
        out = self.out
        want_meta = self.want_meta
        line_starts = self.line_starts
        fence: tuple[str, int] | None = None
        fence_in_quote = False
        in_icode = False
        in_list = False
        prev_blank = True  # start of body behaves like after a blank line
        prev_heading = False
        pos = start
        n = len(text)
        while pos <= n:
            le = text.find("\n", pos)
            if le < 0:
                le = n
            line_starts.append(pos)
            ls = pos
            pos = le + 1
            if ls == le and ls == n and ls > start:
                break  # no empty "line" after a final newline
            e = le - 1 if le > ls and text[le - 1] == "\r" else le

            if self.in_comment:
                j = text.find("%%", ls, e)
                if j < 0:
                    continue
                self.in_comment = False
                self.inline(j + 2, e)
                prev_blank = prev_heading = False
                continue

            line = text[ls:e]
            stripped = line.lstrip(" \t")
            quoted = False
            if stripped.startswith(">"):
                m = _QUOTE_PREFIX.match(line)
                if m:
                    quoted = True
                    content_start = ls + m.end()
                    stripped = text[content_start:e].lstrip(" \t")
            if fence is not None:
                if fence_in_quote and not quoted:
                    fence = None  # the quote ended, and with it the fence
                else:
                    ch, flen = fence
                    if stripped.startswith(ch * flen) and not stripped.rstrip(" \t").strip(ch):
                        fence = None
                    continue

            if not stripped:
                prev_blank = True
                prev_heading = False
                if in_icode:
                    continue
                continue

            width, nws = _indent_width(line)
            is_item = _LIST_ITEM.match(stripped) is not None

            if in_icode:
                if width >= 4:
                    continue
                in_icode = False

            m = None
            first = stripped[0]
            if first == "`" or first == "~":
                m = _FENCE_OPEN.match(stripped)
                if m and (width < 4 or in_list or quoted):
                    if first == "`" and "`" in m.group(2):
                        m = None
                    else:
                        fence = (first, len(m.group(1)))
                        fence_in_quote = quoted
                        prev_blank = prev_heading = False
                        continue
                m = None
            if width >= 4 and not quoted and not in_list and (prev_blank or prev_heading):
                in_icode = True
                continue

            # A list starts with an item and lasts until an unindented paragraph
            # after a blank line; inside it, indented text is not code.
            if is_item:
                in_list = True
            elif width == 0 and prev_blank and not quoted:
                in_list = False

            prev_blank = False
            prev_heading = False
            content = ls + (len(line) - len(stripped)) if not quoted else e - len(stripped)
            if want_meta and first == "#" and width < 4 and not quoted:
                hm = _HEADING.match(stripped)
                if hm:
                    prev_heading = True
                    htext = hm.group(2) or ""
                    htext = _HEADING_CLOSE.sub("", htext) if htext.endswith("#") else htext
                    out.headings.append(Heading(len(hm.group(1)), htext.strip(), len(line_starts)))
            self.inline(content, e)
            if want_meta and "^" in stripped:
                bm = _BLOCK_ID.search(stripped)
                if bm and not prev_heading:
                    out.block_ids.append(bm.group(1))
        # the final line start list is complete: used for line/col of links


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
    parts = [p.strip() for p in path[hash_ + 1 :].split("#")]
    parts = [p for p in parts if p]
    return target, "".join("#" + p for p in parts)


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{1,31}:")


def _is_external(dest: str) -> bool:
    m = _SCHEME.match(dest)
    if not m:
        return False
    # "C:\..." style drive letters do not occur (scheme needs 2+ chars); anything with
    # a URL scheme (http:, https:, mailto:, obsidian:, file:) is not a page link.
    return True


class _LinkFinder:
    """Finds links in one prose span; every search pointer only moves forward."""

    __slots__ = ("text", "p", "kind")

    def __init__(self, p: _Pass, kind: str):
        self.text = p.text
        self.p = p
        self.kind = kind

    def run(self, a: int, b: int, links: list, external: list, ranges: list) -> None:
        text = self.text
        # cached "next occurrence" pointers: -2 unknown, -1 none left in the span
        wclose = close = nl = -2
        pos = text.find("[", a, b)
        while pos != -1:
            if nl != -1 and nl < pos:
                nl = text.find("\n", pos, b)
            line_end = b if nl == -1 else nl
            if pos + 1 < b and text[pos + 1] == "[":
                if wclose != -1 and wclose < pos + 2:
                    wclose = text.find("]]", pos + 2, b)
                if wclose != -1 and wclose < line_end:
                    o = text.rfind("[[", pos, wclose)  # the innermost "[[" opens the link
                    embed = o > a and text[o - 1] == "!"
                    self._wiki(o, wclose + 2, text[o + 2 : wclose], embed, links, ranges)
                    pos = text.find("[", wclose + 2, b)
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
            o = text.rfind("[", pos, close)  # the innermost "[" opens the link text
            if close + 1 < b and text[close + 1] == "(":
                end, dest = _parse_destination(text, close + 2, line_end)
                if end != -1:
                    self._markdown(o, close, end, dest, a, links, external, ranges)
                    pos = text.find("[", end, b)
                    continue
            pos = text.find("[", close + 1, b)

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
        kind = "markdown" if self.kind == "wiki" else self.kind
        links.append(self._make(path, sub, label, embed, kind, start, end))

    def _wiki(self, o: int, end: int, body: str, embed: bool, links: list, ranges: list) -> None:
        target, sub, display = _split_wiki_body(body)
        start = o - 1 if embed else o
        ranges.append((start, end))
        if not target and not sub:
            return  # [[]], [[ ]], [[|x]], [[#]]: not a link
        links.append(self._make(target, sub, display, embed, self.kind, start, end))

    def _make(self, target, sub, display, embed, kind, start, end) -> Link:
        line_starts = self.p.line_starts
        i = bisect_right(line_starts, start) - 1
        return Link(
            target,
            sub,
            display,
            embed,
            kind,
            i + 1,
            start - line_starts[i],
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

_TAG = re.compile(r"(?<![^\s])#([\w/-]+)")


def _tags_in(text: str, a: int, b: int, out: list[str]) -> None:
    for m in _TAG.finditer(text, a, b):
        tag = m.group(1)
        if not tag.replace("/", "").isdigit():
            out.append(tag)


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
    p = _Pass(text, meta)
    if start:
        # lines before ``start`` still count
        prefix_lines = text.count("\n", 0, start)
        p.line_starts.extend([0] * prefix_lines)  # placeholders; only their count matters
    p.lines(start)
    out = p.out
    finder = _LinkFinder(p, kind)
    ranges: list[tuple[int, int]] = []
    links, external = out.links, out.external
    for a, b in out.spans:
        if text.find("[", a, b) != -1:
            finder.run(a, b, links, external, ranges)
    if meta:
        tags = out.tags
        if ranges:
            ranges.sort()
        ri = 0
        for a, b in out.spans:
            if text.find("#", a, b) == -1:
                continue
            while ri < len(ranges) and ranges[ri][1] <= a:
                ri += 1
            seg = a
            k = ri
            while k < len(ranges) and ranges[k][0] < b:
                if seg < ranges[k][0]:
                    _tags_in(text, seg, ranges[k][0], tags)
                seg = max(seg, ranges[k][1])
                k += 1
            if seg < b:
                _tags_in(text, seg, b, tags)
    if line_offset:
        out.links = [_shift(link, line_offset) for link in out.links]
        out.external = [_shift(link, line_offset) for link in out.external]
        for h in out.headings:
            h.line += line_offset
    return out


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

    Used for frontmatter, where YAML indentation must not look like code. Markdown
    links come back with kind "markdown" only when ``kind`` is "wiki".
    """
    p = _Pass(text, False)
    pos = 0
    starts = p.line_starts
    while True:
        starts.append(pos)
        nl = text.find("\n", pos, b)
        if nl == -1:
            break
        pos = nl + 1
    links: list[Link] = []
    _LinkFinder(p, kind).run(a, b, links, [], [])
    return links
