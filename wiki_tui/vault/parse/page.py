"""A page: frontmatter properties plus what one scan of its body finds.

``parse_page`` never raises on content: bad YAML, odd property types and the like become
``Page.warnings``. ``read_page_text`` turns bytes on disk into text without losing any:
invalid UTF-8 is shown with replacement characters (and reported with its byte offset),
UTF-16 with a BOM is decoded (with a warning), any other file with NUL bytes is binary.
"""

from __future__ import annotations

import codecs
import os
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from wiki_tui.vault.parse.frontmatter import fast_load, split_frontmatter, yaml_frontmatter
from wiki_tui.vault.layout import GENERATED_MARK, INDEX_TEMPLATE
from wiki_tui.vault.parse.links import Heading, Link, find_links_in, scan
from wiki_tui.vault.indexing.resolve import normalize_path

LOG_PAGE = "log.md"

__all__ = ["Page", "Heading", "parse_page", "parse_page_spans", "read_page_text",
           "decode_page_bytes", "page_name"]


@dataclass(slots=True)
class Page:
    path: str  # vault-relative POSIX path, NFC
    name: str  # file stem
    title: str  # frontmatter title, else the stem
    aliases: list[str]
    tags: list[str]  # frontmatter + inline, without "#", as first written, no duplicates
    summary: str | None
    type: str | None
    sources: list[str]
    frontmatter: dict
    headings: list[Heading]
    block_ids: list[str]
    links: list[Link]  # frontmatter links first, then body links, in file order
    warnings: list[str]
    size: int  # bytes of the text as UTF-8
    mtime: float
    body_line: int  # 1-based line where the body starts
    body_start: int = 0  # offset where the body starts
    external_links: list[Link] = field(default_factory=list)  # http(s):, mailto:, ...


def page_name(path: str) -> str:
    """File stem: ``concepts/Foo.md`` -> ``Foo`` (only ``.md`` is stripped)."""
    base = path.rsplit("/", 1)[-1]
    if base[-3:].lower() == ".md":
        return base[:-3]
    return base


# ---------------------------------------------------------------------------
# Property helpers: tolerant of the shapes people (and models) actually write


def _text_or_none(value: Any) -> str | None:
    if type(value) is str:  # the usual property
        return value.strip() or None
    if value is None or isinstance(value, (dict, list)):
        return None
    text = str(value).strip() if not isinstance(value, str) else value.strip()
    return text or None


def _str_list(value: Any) -> list[str]:
    """A list property; a lone string is a one-item list; None items are dropped."""
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        out = []
        for item in value:
            text = _text_or_none(item)
            if text is not None:
                out.append(text)
        return out
    text = _text_or_none(value)
    return [text] if text is not None else []


def _tag_list(value: Any) -> list[str]:
    """Frontmatter tags: a list, or a string separated by commas/spaces; '#' dropped."""
    if isinstance(value, str):
        items = value.replace(",", " ").split()
    else:
        items = _str_list(value)
    return [t.lstrip("#") for t in items if t.lstrip("#")]


def _link_strings(fm: dict) -> list[str]:
    """Every string value holding "[[" anywhere in the frontmatter. Iterative, and each
    container is visited once: nesting depth is the file's choice, and YAML aliases can
    even make a list contain itself (``a: &x [*x]``)."""
    out: list[str] = []
    stack: list[Any] = []
    for v in fm.values():  # the usual flat shapes first, without the general walk
        if isinstance(v, str):
            if "[[" in v:
                out.append(v)
        elif isinstance(v, list) and all(isinstance(x, str) for x in v):
            out.extend(x for x in v if "[[" in x)
        else:
            stack.append(v)
    seen: set[int] = set()
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if "[[" in v:
                out.append(v)
        elif isinstance(v, (dict, list, tuple)):
            if id(v) in seen:
                continue
            seen.add(id(v))
            stack.extend(v.values() if isinstance(v, dict) else v)
    return out


def _dedupe_tags(tags: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for tag in tags:
        key = tag.lower()
        if key not in seen:
            seen.add(key)
            out.append(tag)
    return out


# ---------------------------------------------------------------------------


def _frontmatter_links(
    text: str, yaml_start: int, yaml_end: int, fm: dict, warnings: list[str], *, simple: bool = False
) -> list[Link]:
    """Wikilinks in property values, located on their line in the file.

    A link counts only if it is inside a string value (``related: "[[X]]"``); an unquoted
    ``related: [[X]]`` is a nested YAML list, which Obsidian does not read as a link.

    ``simple``: the frontmatter was read by the fast path (frontmatter.py), whose string
    values are their source text, minus quotes, on one line, and which gives up on any ``[``
    outside a quoted flow item. There a link holding no quote and no comma lies inside one
    string value, so every one found counts, with no match against the values (the usual
    page; tested equal to the general way on generated frontmatter).
    """
    in_source = [
        link
        for link in find_links_in(text, yaml_start, yaml_end, kind="frontmatter")
        if link.kind == "frontmatter"
    ]
    if not in_source:
        return []
    if simple and not any(_UNSAFE_IN_LINK.search(link.raw) for link in in_source):
        return in_source
    strings = _link_strings(fm)
    if len(in_source) <= 8:  # the usual few: a substring test each
        wanted = Counter({link.raw: sum(s.count(link.raw) for s in strings) for link in in_source})
    else:  # many: the links inside all string values, found in one pass
        values = "\n".join(strings)
        wanted = Counter(
            link.raw
            for link in find_links_in(values, 0, len(values), kind="frontmatter")
            if link.kind == "frontmatter"
        )
    found = []
    for link in in_source:
        if wanted[link.raw] > 0:
            wanted[link.raw] -= 1
            found.append(link)
        elif fm:
            warnings.append(
                f"frontmatter line {link.line}: {link.raw} is not a link because it is not "
                f'inside a quoted property value (write "{link.raw}")'
            )
    return found


_UNSAFE_IN_LINK = re.compile("[\"',]")  # see _frontmatter_links
SUMMARY_FIELDS = ("summary", "description")  # wiki-tui's own, then the common Obsidian one
SUMMARY_MAX = 200
_LINK = re.compile(r"!?\[\[([^\]|#]*)(?:#[^\]|]*)?(?:\|([^\]]*))?\]\]|!?\[([^\]]*)\]\([^)]*\)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")
_NOT_PROSE = ("#", ">", "-", "*", "+", "|", "```", "~~~", "<", "![[", "%%", "$$", "---", "===")


def _is_listing(path: str, text: str) -> bool:
    """log.md, or a catalog wiki-tui generated (index.md, or where AGENTS.md's `catalog:` puts
    it: known by its generated line). A person's own index.md is a page like any other."""
    return path == LOG_PAGE or GENERATED_MARK in text[: len(INDEX_TEMPLATE) + 8]


def page_summary(fm: dict, text: str, body_start: int, *, prose: bool = True) -> str | None:
    """The page's one-line summary: its `summary:` or `description:` property, else (`prose`)
    the first sentence of its first paragraph of prose (links shown as their text), at most
    200 chars. The listings (a generated catalog, wherever it lives, and log.md) take no
    sentence: theirs is boilerplate."""
    for key in SUMMARY_FIELDS:
        value = _text_or_none(fm.get(key))
        if value and value.strip():
            return value
    if not prose:
        return None
    lines = text[body_start:body_start + 8000].splitlines()
    fence = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fence = not fence
            continue
        if fence or not stripped or stripped.startswith(_NOT_PROSE) or stripped[0].isdigit() and ". " in stripped[:4]:
            continue
        paragraph = [stripped]
        for more in lines[i + 1:]:  # a sentence may wrap onto the next lines
            more = more.strip()
            if not more or more.startswith(_NOT_PROSE) or len(" ".join(paragraph)) > SUMMARY_MAX:
                break
            paragraph.append(more)
        prose = _LINK.sub(lambda m: m[2] or m[3] or m[1] or "", " ".join(paragraph))
        prose = " ".join(prose.replace("**", "").replace("__", "").split())
        sentence = _SENTENCE_END.split(prose, 1)[0]
        if len(sentence) > SUMMARY_MAX:
            sentence = sentence[:SUMMARY_MAX - 1].rstrip() + "…"
        return sentence or None
    return None


def parse_page(path: str, text: str, *, mtime: float = 0.0) -> Page:
    """Parse one page's text. Never raises on content."""
    return parse_page_spans(path, text, mtime=mtime)[0]


def parse_page_spans(path: str, text: str, *, mtime: float = 0.0
                     ) -> tuple[Page, list[tuple[int, int]]]:
    """`parse_page`, and the body's prose spans its scan found (links.prose_spans of the text
    from `Page.body_start`): for a reader of the prose that would otherwise scan it again."""
    warnings: list[str] = []
    fm_text, yaml_start, body_start, body_line = split_frontmatter(text)
    fm: dict = {}
    fm_links: list[Link] = []
    if fm_text is not None:
        fast = fast_load(fm_text)
        if fast is not None:
            fm = fast
        else:
            fm, warning = yaml_frontmatter(fm_text, first_line=2)
            if warning:
                warnings.append(warning)
        if "[[" in fm_text:
            simple = fast is not None and "''" not in fm_text
            fm_links = _frontmatter_links(text, yaml_start, yaml_start + len(fm_text), fm, warnings,
                                          simple=simple)

    body = scan(text, start=body_start)
    path = normalize_path(path)
    name = page_name(path)
    title = _text_or_none(fm.get("title")) or name
    # "tag"/"alias" are the pre-1.4 Obsidian spellings, still read by Obsidian
    fm_tags = _tag_list(fm.get("tags"))
    if "tag" in fm:
        fm_tags += _tag_list(fm["tag"])
    tags = _dedupe_tags(fm_tags + body.tags) if fm_tags or body.tags else []
    aliases = _str_list(fm.get("aliases"))
    if "alias" in fm:
        aliases += _str_list(fm["alias"])
    return Page(
        path=path,
        name=name,
        title=title,
        aliases=aliases,
        tags=tags,
        summary=page_summary(fm, text, body_start, prose=not _is_listing(path, text)),
        type=_text_or_none(fm.get("type")),
        sources=_str_list(fm.get("sources")),
        frontmatter=fm,
        headings=body.headings,
        block_ids=body.block_ids,
        links=fm_links + body.links if fm_links else body.links,
        warnings=warnings,
        size=len(text.encode("utf-8", "surrogatepass")),
        mtime=mtime,
        body_line=body_line,
        body_start=body_start,
        external_links=body.external,
    ), body.spans


# ---------------------------------------------------------------------------
# Reading files

_BOM = b"\xef\xbb\xbf"
_bad_offsets = threading.local()


def _record_and_replace(exc: UnicodeError) -> tuple[str, int]:
    """Like errors="replace", but remembers where each bad byte sequence was."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    _bad_offsets.value.append(exc.start)
    return "\ufffd", exc.end


codecs.register_error("wiki_tui.record_replace", _record_and_replace)


def decode_page_bytes(data: bytes) -> tuple[str, list[str]]:
    """Bytes of a page -> (text, warnings). See ``read_page_text``."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with a BOM (NULs are normal)
        _bad_offsets.value = []
        try:
            text = data.decode("utf-16", "wiki_tui.record_replace")
            bad = list(_bad_offsets.value)
        finally:
            _bad_offsets.value = []
        note = f"; {len(bad)} undecodable sequences shown as \ufffd" if bad else ""
        return text, [f"UTF-16 file (not UTF-8): read as UTF-16{note}; the file is left as it is"]
    nul = data.find(b"\x00")
    if nul != -1:
        return "", [
            f"binary file (NUL byte at byte offset {nul}): not read as a page; "
            "the file is left as it is"
        ]
    skip = len(_BOM) if data.startswith(_BOM) else 0
    try:
        return data[skip:].decode("utf-8") if skip else data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    _bad_offsets.value = []
    try:
        text = data[skip:].decode("utf-8", "wiki_tui.record_replace")
        bad = [offset + skip for offset in _bad_offsets.value]
    finally:
        _bad_offsets.value = []
    first = bad[0]
    count = f"{len(bad)} invalid byte sequences" if len(bad) > 1 else "1 invalid byte sequence"
    return text, [
        f"not valid UTF-8: {count}, first at byte offset {first} (byte 0x{data[first]:02x}); "
        "shown as \ufffd, the file is not rewritten"
    ]


def read_page_text(abs_path: str | os.PathLike[str], size: int = -1) -> tuple[str, list[str]]:
    """Read a page file: UTF-8 (a BOM is dropped); never decodes with errors="ignore".
    `size`: the file's size as listed, when known (read in one go; a file that has grown or
    shrunk since is still read whole).

    Raises OSError if the file cannot be read (vanished, permissions): callers decide.
    """
    return decode_page_bytes(read_file_bytes(abs_path, size))


def read_file_bytes(abs_path: str | os.PathLike[str], size: int = -1) -> bytes:
    """The whole file, through the file descriptor: no file object is made (a cold build reads
    every page: that saved ~5 us a file, a fifth of reading them)."""
    fd = os.open(abs_path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    try:
        first = os.read(fd, size + 1 if size >= 0 else 1 << 16)
        if not first:
            return first
        more = os.read(fd, 1 << 16)  # empty at the end of the file: the usual case
        if not more:
            return first
        chunks = [first, more]
        while more:
            more = os.read(fd, 1 << 20)
            chunks.append(more)
        return b"".join(chunks)
    finally:
        os.close(fd)
