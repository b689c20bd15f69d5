"""A link as written on a page: the `Link` and `Scan` records, and how a link's text splits
into target, subpath and display. Shared by the two scanners (links.py, the reference;
quick.py, the regex-first pass that gives the same answers on the pages it takes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote

from wiki_tui.vault.parse.blocks import Heading

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


# ``(dest)``, ``(<dest>)``, ``(dest "title")``: one level of nested parentheses, so a
# failed match stops at the second "(" and repeated failures stay linear.
DESTINATION = (
    r"""[ \t]*(?:<([^<>\n]*)>|((?:[^\s()\\<]|\\.|\((?:[^\s()\\]|\\.)*\))*))"""
    r"""(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?[ \t]*\)"""
)


def markdown_link(text: str, o: int, close: int, end: int, dest: str, embed: bool, at,
                  links: list, external: list) -> None:
    """The link ``[label](dest)`` whose "[" is at `o` and "]" at `close` (`embed`: a "!"
    before it); appended to `links` or `external`, or to neither (an empty destination)."""
    if not dest:
        return
    start = o - 1 if embed else o
    label = text[o + 1 : close]
    if _is_external(dest):
        line, col = at(start)
        external.append(Link(dest, "", label, embed, "external", line, col, start, end, text[start:end]))
        return
    path, sub = _split_subpath(dest)
    path, sub = unquote(path).strip(), unquote(sub)
    if not path and not sub:
        return
    line, col = at(start)
    links.append(Link(path, sub, label, embed, "markdown", line, col, start, end, text[start:end]))
