"""A page prepared for display: frontmatter header, render units, and a table of its links.

Wikilinks and markdown page links are rewritten to `[text](wiki:N)`, N indexing `links`, so the
renderer can find them and following one needs no second parse. Block embeds (`![[Page]]` alone on
a line) are expanded into a quote holding the embedded page or section; other embeds name what they
embed. Preparing a unit is done lazily, unit by unit, in the render worker.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

from wiki_tui.vault.parse.links import Link, is_attachment_path, scan
from wiki_tui.vault.parse.sections import block_line, heading_index, section_span
from wiki_tui.ui.browser.units import Unit, split_units

if TYPE_CHECKING:
    from wiki_tui.vault import Vault

EMBED_MAX_LINES = 40
_IMAGE_EXTENSIONS = frozenset("png jpg jpeg gif bmp svg webp avif heic tif tiff ico".split())
_PUNCTUATION_RE = re.compile(r"[!-/:-@\[-`{-~]")  # every ASCII punctuation character


@dataclass(frozen=True, slots=True)
class LinkRef:
    """Where a link in the rendered page goes."""

    kind: str  # "page" | "alias" | "attachment" | "unresolved" | "anchor" | "external"
    target: str  # the linkpath as written (or the URL)
    subpath: str = ""  # "#Heading" / "#^block"
    path: str | None = None  # resolved vault path
    embed: bool = False

    @property
    def followable_in_vault(self) -> bool:
        return self.kind in ("page", "alias", "anchor")


@dataclass
class PageDocument:
    path: str
    title: str
    text: str
    body_start: int
    body_line: int
    header: Text | None
    units: list[Unit]
    headings: list = field(default_factory=list)  # vault.links.Heading(level, text, line)
    links: list[LinkRef] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    full_length: int = 0  # characters in the file when only its head is shown (else 0)
    _scanned: list[Link] = field(default_factory=list, repr=False)
    _starts: list[int] = field(default_factory=list, repr=False)

    @property
    def size(self) -> int:
        return len(self.text.encode("utf-8", "surrogatepass"))

    @property
    def partial(self) -> bool:
        """Only the head of the page is shown (a big start page; see `load_document`)."""
        return self.full_length > len(self.text)

    def add_link(self, ref: LinkRef) -> int:
        self.links.append(ref)
        return len(self.links) - 1


def escape_markdown(text: str) -> str:
    """Backslash-escape ASCII punctuation so link text stays literal (CommonMark allows it)."""
    return _PUNCTUATION_RE.sub(r"\\\g<0>", text)


def _body_start(text: str, body_line: int) -> int:
    offset = 0
    for _ in range(max(body_line - 1, 0)):
        nl = text.find("\n", offset)
        if nl < 0:
            return len(text)
        offset = nl + 1
    return offset


def _frontmatter_end(text: str) -> tuple[int, int]:
    """(offset, 1-based line) where the body starts, for text with no parsed Page."""
    if not text.startswith("---"):
        return 0, 1
    first = text.find("\n")
    if first < 0 or text[:first].strip() != "---":
        return 0, 1
    offset, line = first + 1, 2
    while offset < len(text):
        nl = text.find("\n", offset)
        end = len(text) if nl < 0 else nl
        if text[offset:end].strip() in ("---", "..."):
            return min(end + 1, len(text)), line + 1
        offset, line = end + 1, line + 1
    return 0, 1


def resolve_ref(vault: "Vault", target: str, subpath: str, from_path: str, *, embed: bool = False) -> LinkRef:
    """Resolve a link like Obsidian; fall back to an alias match, shown as such."""
    if not target:
        return LinkRef("anchor", target, subpath, from_path, embed)
    path = vault.resolve(target, from_path)
    if path is not None:
        kind = "page" if vault.is_page(path) else "attachment"
        return LinkRef(kind, target, subpath, path, embed)
    if not is_attachment_path(target):
        alias = vault.resolve_alias(target)
        if alias is not None:
            return LinkRef("alias", target, subpath, alias, embed)
    return LinkRef("unresolved", target, subpath, None, embed)


def link_label(link: Link) -> str:
    if link.display and not (link.embed and is_attachment_path(link.target)):
        return link.display
    if not link.target:
        return link.subpath.lstrip("#^")
    label = link.target
    if label.lower().endswith(".md"):
        label = label[:-3]
    if link.subpath:
        label += " › " + link.subpath.lstrip("#").replace("#", " › ")
    return label


def load_document(vault: "Vault", path: str, *, head: int | None = None) -> PageDocument:
    """Read and scan a page (cheap, linear); units are prepared later by `prepare_unit`.

    With `head`, a page longer than that many characters is cut after its last whole line
    before it: the start page at 50k pages is a 6.5 MB index.md whose full view holds some
    150 MB of rendered lines and links; its head opens at once and the rest on request."""
    text = vault.read_text(path)
    full_length = 0
    if head is not None and len(text) > head:
        full_length = len(text)
        cut = text.rfind("\n", 0, head)
        text = text[: cut + 1 if cut > 0 else head]
    page = vault.page_meta(path)
    warnings = list(getattr(page, "warnings", []) or [])
    if page is not None and getattr(page, "body_line", None):
        body_line = page.body_line
        body_start = _body_start(text, body_line)
    else:
        body_start, body_line = _frontmatter_end(text)
    title = page.title if page is not None else path.rsplit("/", 1)[-1].removesuffix(".md")
    doc = PageDocument(
        path=path, title=title, text=text, body_start=body_start, body_line=body_line,
        header=None, units=split_units(text, body_start, body_line), warnings=warnings,
        full_length=full_length,
    )
    found = scan(text, start=body_start, meta=True)
    scanned = found.links
    doc.headings = found.headings
    doc._scanned = scanned
    doc._starts = [link.start for link in scanned]
    doc.header = build_header(vault, doc, page)
    return doc


def build_header(vault: "Vault", doc: PageDocument, page) -> Text | None:
    """type · #tags · aka aliases / summary / sources: links — instead of raw YAML."""
    if page is None:
        return None
    lines: list[Text] = []
    first = Text(style="wiki.meta")
    if page.type:
        first.append(str(page.type), "wiki.type")
    for tag in page.tags:
        if first:
            first.append("  ")
        first.append(f"#{tag}", "wiki.tag")
    if first:
        lines.append(first)
    if page.aliases:
        lines.append(Text("aka " + ", ".join(str(a) for a in page.aliases), "wiki.meta"))
    if page.summary:
        lines.append(Text(str(page.summary), "wiki.summary"))
    link_fields = [("sources", page.sources)]
    for key, value in (page.frontmatter or {}).items():
        if key in ("title", "type", "tags", "aliases", "summary", "sources"):
            continue
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and "[[" in v for v in values):
            link_fields.append((key, [v for v in values if isinstance(v, str)]))
    for key, values in link_fields:
        if not values:
            continue
        line = Text(f"{key}: ", "wiki.meta")
        for n, value in enumerate(values):
            if n:
                line.append(", ", "wiki.meta")
            _append_value_link(vault, doc, line, str(value))
        lines.append(line)
    if warnings := doc.warnings:
        lines.extend(Text("⚠ " + w, "wiki.warning") for w in warnings)
    if not lines:
        return None
    lines.append(Text("─" * 3, "wiki.meta"))
    return Text("\n").join(lines)


def _append_value_link(vault: "Vault", doc: PageDocument, line: Text, value: str) -> None:
    links = scan(value, meta=False).links
    if links:
        link = links[0]
        ref = resolve_ref(vault, link.target, link.subpath, doc.path)
        label = link_label(link)
    else:
        ref = resolve_ref(vault, value.strip(), "", doc.path)
        if ref.kind == "unresolved":
            line.append(value, "wiki.meta")
            return
        label = value.strip()
    link_id = doc.add_link(ref)
    line.append(label, Style(link=f"wiki:{link_id}"))


def prepare_unit(vault: "Vault", doc: PageDocument, unit: Unit) -> str:
    """The unit's markdown with links rewritten and block embeds expanded."""
    lo = bisect_left(doc._starts, unit.start)
    hi = bisect_left(doc._starts, unit.start + len(unit.text))
    return _rewrite(vault, doc, unit.text, unit.start, doc._scanned[lo:hi], doc.path, expand_embeds=True)


def _rewrite(vault, doc, text, base, links, from_path, *, expand_embeds) -> str:
    out: list[str] = []
    pos = 0
    for link in links:
        start, end = link.start - base, link.end - base
        if start < pos:
            continue
        ref = resolve_ref(vault, link.target, link.subpath, from_path, embed=link.embed)
        link_id = doc.add_link(ref)
        if link.embed and expand_embeds and ref.kind == "page":
            line_start = text.rfind("\n", 0, start) + 1
            line_end = text.find("\n", end)
            line_end = len(text) if line_end < 0 else line_end
            if not text[line_start:start].strip() and not text[end:line_end].strip() and line_start >= pos:
                out.append(text[pos:line_start])
                out.append(_embed_block(vault, doc, link, ref, link_id))
                pos = line_end
                continue
        out.append(text[pos:start])
        out.append(f"[{escape_markdown(inline_label(link, ref))}](wiki:{link_id})")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def inline_label(link: Link, ref: LinkRef) -> str:
    label = link_label(link)
    if not link.embed:
        return label
    if ref.kind == "attachment" or is_attachment_path(link.target):
        ext = link.target.rsplit(".", 1)[-1].lower()
        return f"{'image' if ext in _IMAGE_EXTENSIONS else 'attachment'}: {link.target}"
    return f"embed: {label}"


def _embed_block(vault, doc: PageDocument, link: Link, ref: LinkRef, link_id: int) -> str:
    """A quote holding the embedded page (or its heading section / block), capped in length."""
    try:
        text = vault.read_text(ref.path)
    except Exception as error:  # a vanished or unreadable file: say so, never fail the page
        return f"\n> [{escape_markdown('embed: ' + link_label(link))}](wiki:{link_id}) — {escape_markdown(str(error))}\n"
    body_start, _ = _frontmatter_end(text)
    section = section_span(text, body_start, link.subpath)
    if section is None:
        lines = [f"*{escape_markdown(link.subpath)} not found in the embedded page*"]
    else:
        start, end = section
        inner_links = [l for l in scan(text, start=start, meta=False).links if l.end <= end]
        inner = _rewrite(vault, doc, text[start:end], start, inner_links, ref.path, expand_embeds=False)
        lines = inner.strip("\n").split("\n")
    more = len(lines) - EMBED_MAX_LINES
    if more > 0:
        lines = lines[:EMBED_MAX_LINES] + ["", f"*… {more} more lines*"]
    title = f"[{escape_markdown(link_label(link))}](wiki:{link_id}) *(embedded)*"
    quoted = "\n".join(("> " + line) if line else ">" for line in [title, ""] + lines)
    return f"\n{quoted}\n"


def find_subpath_line(doc: PageDocument, subpath: str) -> int | None:
    """Line of `#Heading` or `#^block` in the document."""
    if subpath.startswith("#^"):
        return block_line(doc.text.splitlines(), subpath)
    index = heading_index(doc.headings, subpath)
    return None if index is None else doc.headings[index].line
