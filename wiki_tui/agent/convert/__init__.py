"""Sources beyond markdown: each raw file's text as markdown, for the model and the offline
engine alike. raw/ is never written; a conversion lives in memory (cached per file version).

    converted = convert_source(vault.root, "raw/paper.pdf")   # -> Converted, or ConversionError

Formats: markdown and plain text as they are; PDF (pypdf; a `[p. N]` line opens each page, so
pages can be cited), HTML (the main text as markdown: headings, links, tables; scripts, styles
and navigation dropped), CSV (a markdown table) in the core install; DOCX, PPTX and XLSX
through the optional extra `wiki-tui[documents]`; images (png, jpg, webp, gif) as an embed the
model sees when it supports vision. A file that cannot be converted raises ConversionError
naming the file and the reason, before anything is written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

MARKDOWN = (".md", ".markdown", ".txt", ".text")
IMAGES = (".png", ".jpg", ".jpeg", ".webp", ".gif")
DOCUMENTS = (".docx", ".pptx", ".xlsx")  # need the `documents` extra
CORE = (".pdf", ".html", ".htm", ".csv")
INGESTIBLE = MARKDOWN + CORE + DOCUMENTS + IMAGES
MAX_SOURCE_MB = 50.0  # default size limit (config key `max_source_mb`)
EXTRA = "documents"
_IMAGE_REF = re.compile(r"!\[\[([^\]|#]+)(?:[|#][^\]]*)?\]\]|!\[[^\]]*\]\(<?([^)\s>]+)>?")


class ConversionError(ValueError):
    """A source that cannot be converted; the message names the file and the reason."""


@dataclass
class Converted:
    text: str  # markdown
    kind: str  # "markdown", "pdf", "html", "csv", "docx", "pptx", "xlsx", "image"
    images: list[str] = field(default_factory=list)  # vault paths of the images it shows
    pages: int = 0  # a PDF's page count (its text holds a `[p. N]` line per page)


def convert_source(root: Path | str, path: str, *, max_mb: float = MAX_SOURCE_MB) -> Converted:
    """The source at vault path `path` as markdown (see the module doc)."""
    file = Path(root) / path
    try:
        stat = file.stat()
    except OSError as exc:
        raise ConversionError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    if stat.st_size > max_mb * 1024 * 1024:
        raise ConversionError(
            f"{path}: {stat.st_size / 1024 / 1024:.1f} MB is over the {max_mb:g} MB limit for a "
            "source (config key max_source_mb); split it or raise the limit")
    return _convert(str(root), path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=16)  # a tool call reads the same source again in parts (offset)
def _convert(root: str, path: str, _mtime_ns: int, _size: int) -> Converted:
    suffix = PurePosixPath(path).suffix.lower()
    from wiki_tui.agent.convert import bounds

    try:
        data = (Path(root) / path).read_bytes()
    except OSError as exc:  # vanished or unreadable since it was found
        raise ConversionError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    bounds.check(suffix, data, path)  # what the bytes already say is too big (bounds.py)
    if len(data) >= bounds.CHILD_MIN_BYTES and suffix not in MARKDOWN + IMAGES:
        from wiki_tui.agent.convert.child import convert_in_child

        converted = convert_in_child(root, path)  # memory and time limited
    else:
        try:
            converted = by_format(suffix, data, path)
        except ConversionError:
            raise
        except Exception as exc:  # a converter's own fault on a corrupt file
            raise ConversionError(f"{path}: cannot be converted ({suffix[1:].upper()} looks "
                                  f"corrupt: {type(exc).__name__}: {exc})") from exc
    if converted.kind != "image":
        converted.images = image_refs(root, path, converted.text)
    return converted


def by_format(suffix: str, data: bytes, path: str) -> Converted:
    """`data` (the file at `path`) as markdown, by its format; in this process, unbounded."""
    if suffix in MARKDOWN:  # read as the vault reads pages (UTF-16 with a BOM, U+FFFD ...)
        from wiki_tui.vault.parse.page import decode_page_bytes

        return Converted(decode_page_bytes(data)[0], "markdown")
    if suffix == ".pdf":
        from wiki_tui.agent.convert.pdf import pdf_markdown

        text, pages = pdf_markdown(data, path)
        return Converted(text, "pdf", pages=pages)
    if suffix in (".html", ".htm"):
        from wiki_tui.agent.convert.html import html_markdown

        return Converted(html_markdown(_decode(data, path, html=True), path), "html")
    if suffix == ".csv":
        from wiki_tui.agent.convert.tables import csv_markdown

        return Converted(csv_markdown(_decode(data, path), path), "csv")
    if suffix in DOCUMENTS:
        from wiki_tui.agent.convert import office

        return Converted(office.convert(suffix, data, path), suffix[1:])
    if suffix in IMAGES:
        from wiki_tui.agent.convert.images import image_markdown

        return Converted(image_markdown(data, path), "image", images=[path])
    raise ConversionError(f"{path}: {suffix or 'a file without an extension'} cannot be "
                          "ingested (" + ", ".join(e[1:] for e in INGESTIBLE) + " can)")


def source_title(text: str, path: str) -> str:
    """A source's title: its frontmatter title, else its first `#` heading (a PDF's or a
    DOCX's title metadata becomes one, see pdf.py and office.py), else a first line that reads
    as a title (short, no full stop; capitals softened), else the file name made readable."""
    m = re.search(r"(?m)^title:\s*[\"']?(.+?)[\"']?\s*$", text[:2000]) if text.startswith("---") \
        else None
    if m:
        return m.group(1).strip()
    m = re.search(r"(?m)^#\s+(.+?)\s*#*\s*$", text)
    if m:
        return m.group(1).strip()
    line = _title_line(text)
    if line:
        return line
    stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return re.sub(r"[-_]+", " ", stem).strip().capitalize() or stem


_SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to",
                "with", "from", "upon"}


def _title_line(text: str) -> str:
    """The first line of the text when it reads as a title: up to 14 words, not a sentence,
    not a page mark, a table or a list."""
    for line in text.splitlines()[:12]:
        line = line.strip()
        if not line or re.fullmatch(r"\[p\. [^\]]+\]", line) or line == "---":
            continue
        line = re.sub(r"^#{2,6}\s+", "", line).strip()
        words = line.split()
        if not 1 <= len(words) <= 14 or line.endswith((".", ",", ";", ":")) \
                or line.startswith(("|", "- ", "* ", "!", "<", "[", ">")):
            return ""
        if line.isupper():  # "COOK'S SECOND VOYAGE" -> "Cook's Second Voyage"
            line = " ".join(w.capitalize() if i == 0 or w.lower() not in _SMALL_WORDS
                            else w.lower() for i, w in enumerate(line.split()))
        return line
    return ""


def _decode(data: bytes, path: str, *, html: bool = False) -> str:
    """UTF-8 (a BOM is dropped); an HTML page may declare another charset."""
    if html:
        m = re.search(rb"""<meta[^>]+charset=["']?([\w-]+)""", data[:4096], re.I)
        if m and m.group(1).lower() not in (b"utf-8", b"utf8"):
            try:
                return data.decode(m.group(1).decode("ascii"))
            except (LookupError, UnicodeDecodeError):
                pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConversionError(f"{path}: is not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                              f"offset {exc.start})") from exc


def image_refs(root: Path | str, path: str, text: str) -> list[str]:
    """Vault paths of the images under raw/ that the source's text shows (`![alt](x.png)`,
    `![[x.png]]`), relative to the source's folder or to raw/ (a clipper's raw/assets/)."""
    root = Path(root)
    folder = PurePosixPath(path).parent
    found: list[str] = []
    for m in _IMAGE_REF.finditer(text):
        target = (m.group(1) or m.group(2) or "").strip()
        if not target.lower().endswith(IMAGES) or "://" in target:
            continue
        for base in (folder, PurePosixPath("raw"), PurePosixPath("raw/assets"),
                     PurePosixPath()):
            candidate = _normal(base / target.replace("%20", " "))
            if candidate and candidate.startswith("raw/") and (root / candidate).is_file():
                if candidate not in found:
                    found.append(candidate)
                break
    return found


def _normal(path: PurePosixPath) -> str:
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if not parts:
                return ""
            parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return "/".join(parts)


def missing_extra(path: str, module: str) -> ConversionError:
    kind = PurePosixPath(path).suffix[1:].upper()
    return ConversionError(
        f"{path}: {kind} sources need the optional extra wiki-tui[{EXTRA}] ({module} is not "
        f"installed): `uv tool install 'wiki-tui[{EXTRA}]'`, or `uv sync --extra {EXTRA}` in a "
        "checkout, or `pip install 'wiki-tui[documents]'`")
