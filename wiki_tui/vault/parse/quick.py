"""The regex-first scan of a page body: links.py's answers, in a handful of C-level searches.

links.py's reference pass walks the body with Python loops (hard lines, backtick runs, one
``[`` at a time): about 100 us of Python a page, most of a cold build. This pass:
1. finds the regions that hide links, left to right, with one compiled regex (``_HIDING``):
   fenced code, inline code spans, ``%% comments %%``; what is left are the prose spans;
2. finds links (wiki and markdown), ATX headings, block ids and tags with one ``finditer``
   each over the whole body, and keeps a match when it lies inside one prose span (matches
   and spans both come in order: a pointer walk).
On a page where the reference's answer depends on more than that, it gives up (returns None)
and ``links.scan`` runs the reference: tabs, carriage returns, ``~~~`` fences, lines indented
4+ spaces (indented code or list content), escaped brackets, quoted fences, a fence whose info
string holds a backtick, a code span whose closer is on a later line (the paragraph rule), a
setext underline, a heading glued to inline code or a comment, a match straddling a region.
tests/vault/test_quick_scan.py checks that every answer equals the reference's: generated
families of markdown, the scanner's own test inputs and every page of a generated vault.
"""

from __future__ import annotations

import re

from wiki_tui.vault.parse.blocks import (
    _BLOCK_ID,
    _HEADING_AT,
    Heading,
    LineIndex,
    _fence_close,
    heading_text,
)
from wiki_tui.vault.parse.link import DESTINATION, Link, Scan, _split_wiki_body, markdown_link

__all__ = ["quick_scan", "quick_links", "add_tags", "tag_of"]

# Anything here makes the reference's answer depend on more than this pass reads.
_GIVE_UP_IN = ("\t", "\r", "~~~", "\\[")
# What a line start may hold that matters here, in one pass: a line indented 4+ spaces (give
# up), an ATX heading (group 1: its marks; group 2: glued to a code span or comment, which
# cuts its line short in the reference: give up), a setext underline (group 3: give up).
_LINE_STARTS = re.compile(
    r"\n(?: {4}| {0,3}(?:(#{1,6})(?:(?=[ \t]|$)|([`%]))|(=+|-{2,})[ \t]*(?:$|[`%])))", re.M
)
_GLUED_FIRST = re.compile(r" {0,3}#{1,6}[`%]")  # the first line of the text, as group 2
_BACKTICKS = re.compile(r"`+")
# Wikilink: the innermost "[[" before the first "]]" on its line (the body starts with no "[",
# holds no "[[" nor "]]"). Markdown link: the innermost "[" before the first "]", then "(dest)".
_LINKS = re.compile(
    r"\[(?:\[((?!\[)[^\[\]\n]*+(?:(?:\[(?!\[)|\](?!\]))[^\[\]\n]*+)*+)\]\]"
    r"|([^\[\]\n]*)\]\(" + DESTINATION + ")"
)  # begins with a literal "[": the engine jumps between them (a "!" first would not)
TAG = re.compile(r"#([\w/-]+)")


def tag_of(text: str, m: re.Match) -> str | None:
    """The tag a `TAG` match in `text` names; None where it is none: "a#b" and "url/#frag"
    (glued to what stands before), "#123" (digits only)."""
    i = m.start()
    if i > 0 and not text[i - 1].isspace():
        return None
    tag = m.group(1)
    return None if tag.replace("/", "").isdigit() else tag


def quick_scan(text: str, start: int, kind: str, meta: bool) -> Scan | None:
    """``links.scan(text, start=start, kind=kind, meta=meta)`` (lines not shifted), or None
    when this page needs the reference pass."""
    if start and text[start - 1] != "\n":
        return None
    for needle in _GIVE_UP_IN:
        if text.find(needle, start) != -1:
            return None
    if start == 0 and (text.startswith("    ") or _GLUED_FIRST.match(text)):
        return None
    heads = []  # the ATX heading matches
    for m in _LINE_STARTS.finditer(text, start - 1 if start else 0):
        if m.group(1) is None or m.group(2) is not None:
            return None  # indented, underlined or glued
        heads.append(m)
    spans = _prose_spans(text, start)
    if spans is None:
        return None
    out = Scan(spans=spans)
    if not spans:
        return out
    ranges: list[tuple[int, int]] = []
    if text.find("[", start) != -1 and not _links(text, spans, kind, out.links, out.external, ranges):
        return None
    if meta:
        _meta(text, start, spans, ranges, heads, out)
    return out


def quick_links(text: str, a: int, b: int, kind: str) -> list[Link] | None:
    """``links.find_links_in(text, a, b, kind=kind)`` (all of ``text[a:b]`` taken as prose),
    or None when the reference finder must decide (an escaped bracket)."""
    links: list[Link] = []
    if text.find("\\[", a, b) != -1 or not _links(text, [(a, b)], kind, links, [], [], b):
        return None
    return links


def _prose_spans(text: str, start: int) -> list[tuple[int, int]] | None:
    """The body's prose spans, as BlockPass gives them; None where it would decide otherwise.
    The hiding marks are found with str.find (a regex over a character set tests every
    offset: several times slower)."""
    n = len(text)
    spans: list[tuple[int, int]] = []
    pos = seg = start
    tick = text.find("`", pos)
    pct = text.find("%%", pos)
    while tick != -1 or pct != -1:
        if tick != -1 and (pct == -1 or tick < pct):  # a run of backticks
            i = tick
            j = _BACKTICKS.match(text, i).end()
            length = j - i
            le = text.find("\n", j)
            if length >= 3:
                ls = text.rfind("\n", 0, i) + 1
                before = text[ls:i]
                if not before.strip(" ") and len(before) <= 3:  # a fence opener
                    if "`" in (text[j:le] if le != -1 else text[j:]):
                        return None  # not a fence but backticks in prose: the reference pairs them
                    if seg < ls:
                        spans.append((seg, ls))
                    close = _fence_close("`", length).search(text, n if le == -1 else le)
                    nl = -1 if close is None else text.find("\n", close.end())
                    if nl == -1:
                        return spans  # the fence runs to the end
                    pos = seg = nl + 1
                    tick = text.find("`", pos)
                    if pct != -1 and pct < pos:
                        pct = text.find("%%", pos)
                    continue
                if ">" in before and not before.strip(" >"):
                    return None  # a fence inside a quote
            k = text.find("`", j)  # the closer: the next run as long, on this line
            while k != -1:
                if le != -1 and k > le:
                    return None  # maybe closed on a later line: the paragraph rule decides
                e = _BACKTICKS.match(text, k).end()
                if e - k == length:
                    break
                k = text.find("`", e)
            if k == -1:  # never closed: literal backticks
                tick = text.find("`", j)
                continue
            if seg < i:
                spans.append((seg, i))
            pos = seg = k + length
        else:  # %%: a comment to the next %% (anywhere after), or to the end
            if seg < pct:
                spans.append((seg, pct))
            close = text.find("%%", pct + 2)
            if close == -1:
                return spans
            pos = seg = close + 2
        tick = text.find("`", pos)
        if pct != -1 and pct < pos:
            pct = text.find("%%", pos)
    if seg < n:
        spans.append((seg, n))
    return spans


def _links(text: str, spans, kind: str, links: list, external: list, ranges: list,
           endpos: int = -1) -> bool:
    """Links in the prose spans; False where a match straddles a span's end. `endpos`: where
    the text ends for the search (the reference's finder stops at its span's end too)."""
    at = LineIndex(text).at  # for markdown links; wikilinks count their lines inline
    count, rfind = text.count, text.rfind
    pos, line, line_start = 0, 1, 0  # the line of offset `pos`, and where it starts
    si, ns = 0, len(spans)
    a, b = spans[0]
    last = 0  # the end of the last link
    for m in _LINKS.finditer(text, spans[0][0], len(text) if endpos < 0 else endpos):
        o, end = m.span()  # o: the "["
        while b <= o:
            si += 1
            if si == ns:
                return True
            a, b = spans[si]
        if o < a:
            if end > a:
                return False  # begins in hidden text, ends in prose
            continue
        if end > b:
            return False  # runs out of its span
        embed = o > a and text[o - 1] == "!"
        s = o - 1 if embed else o
        ranges.append((s, end))
        prev, last = last, end
        body = m.group(1)
        if body is not None:  # a wikilink
            if "|" in body or "#" in body:
                target, sub, display = _split_wiki_body(body)
            else:
                target, sub, display = body.strip(), "", None
            if not target and not sub:
                continue  # [[]], [[ ]], [[|x]], [[#]]: not a link
            k = count("\n", pos, s)  # (LineIndex.at, inline: a call per link costs)
            if k:
                line += k
                line_start = rfind("\n", pos, s) + 1
            pos = s
            links.append(Link(target, sub, display, embed, kind, line, s - line_start, s, end,
                              text[s:end]))
        else:
            # the reference, at an earlier "[[" on this line, takes the link of the first
            # "]]" after it, skipping what lies between: this markdown link may be skipped
            if text.find("[[", max(a, prev, text.rfind("\n", 0, o) + 1), o + 1) != -1:
                return False
            dest = m.group(3) if m.group(3) is not None else m.group(4)
            markdown_link(text, o, o + 1 + len(m.group(2)), end, dest.strip(), embed, at,
                          links, external)
    return True


def _meta(text: str, start: int, spans, ranges, heads: list[re.Match], out: Scan) -> None:
    """Headings (of `heads`, the ATX heading matches), block ids and tags in the prose spans."""
    lines = LineIndex(text)
    headings = out.headings
    if start == 0 and spans[0][0] == 0:
        m = _HEADING_AT.match(text)
        if m and m.end() <= spans[0][1]:
            headings.append(_heading(text, 0, m, lines))
    if heads:
        si, ns = 0, len(spans)
        a, b = spans[0]
        for m in heads:
            ls = m.start() + 1
            while b <= ls and si + 1 < ns:
                si += 1
                a, b = spans[si]
            if a <= ls < b and m.end() <= b:
                headings.append(_heading(text, ls, m, lines))
    if text.find("#", start) != -1:
        _tags(text, start, spans, ranges, out.tags)
    if text.find("^", start) != -1:
        _block_ids(text, start, spans, out.block_ids)


def _heading(text: str, ls: int, m: re.Match, lines: LineIndex) -> Heading:
    return Heading(len(m.group(1)), heading_text(text, m.end()), lines.at(ls)[0])


def _in_prose(matches, spans):
    """The matches (in order) that lie inside one prose span (`spans`, in order): a pointer
    walk over both."""
    si, ns = 0, len(spans)
    a, b = spans[0]
    for m in matches:
        i, end = m.span()
        while b <= i:
            si += 1
            if si == ns:
                return
            a, b = spans[si]
        if a <= i and end <= b:
            yield m


def add_tags(text: str, matches, ranges, tags: list[str]) -> None:
    """The tags of `matches` (TAG matches, in order) not inside a link (`ranges`: sorted link
    extents), appended to `tags`. Shared with links.py's reference pass."""
    ri, nr = 0, len(ranges)
    for m in matches:
        i = m.start()
        while ri < nr and ranges[ri][1] <= i:
            ri += 1
        if ri < nr and ranges[ri][0] <= i:
            continue  # inside a link
        tag = tag_of(text, m)
        if tag is not None:
            tags.append(tag)


def _tags(text: str, start: int, spans, ranges, tags: list[str]) -> None:
    add_tags(text, _in_prose(TAG.finditer(text, start), spans), ranges, tags)


def _block_ids(text: str, start: int, spans, block_ids: list[str]) -> None:
    n = len(text)
    for m in _in_prose(_BLOCK_ID.finditer(text, start), spans):
        i, end = m.span()
        if i > 0 and text[i - 1] not in " \t\n":
            continue
        if end < n and text[end] != "\n":
            continue  # the line goes on (inline code)
        if _HEADING_AT.match(text, text.rfind("\n", 0, i) + 1):
            continue
        block_ids.append(m.group(1))
