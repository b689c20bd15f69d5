"""PDF -> markdown with pypdf (pure Python). Each page opens with a line `[p. N]` (its printed
number when the PDF labels its pages, else its place), so the model and the offline engine can
cite "p. 12"; the parts of a long PDF carry the page they start in (see page_of)."""

from __future__ import annotations

import io
import logging
import re

from wiki_tui.agent.convert import ConversionError

PAGE_MARK = re.compile(r"(?m)^\[p\. ([^\]\n]+)\]$")


def pdf_markdown(data: bytes, path: str) -> tuple[str, int]:
    """(markdown, page count). Encrypted, textless (scanned) and corrupt PDFs raise."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings would litter the CLI
    if not data.lstrip().startswith(b"%PDF"):
        raise ConversionError(f"{path}: is not a PDF (no %PDF header); the file may be corrupt")
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not _opens_without_password(reader):
            raise ConversionError(f"{path}: the PDF is encrypted (password-protected); save "
                                  "an unprotected copy to ingest it")
        labels = _labels(reader)
        pages = []
        for index, page in enumerate(reader.pages):
            text = _tidy(page.extract_text() or "")
            pages.append((labels[index] if index < len(labels) else str(index + 1), text))
    except ConversionError:
        raise
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise ConversionError(f"{path}: the PDF cannot be read (corrupt?): {exc}") from exc
    if not pages:
        raise ConversionError(f"{path}: the PDF has no pages")
    if not any(text for _label, text in pages):
        raise ConversionError(f"{path}: the PDF has no text layer ({len(pages)} page(s) of "
                              "images only: a scan?); run OCR on it first (e.g. ocrmypdf)")
    title = _title(reader)
    body = "\n\n".join(f"[p. {label}]\n\n{text}" if text else f"[p. {label}]"
                       for label, text in pages)
    return (f"# {title}\n\n{body}\n" if title else body + "\n"), len(pages)


def _opens_without_password(reader) -> bool:
    """Many PDFs are encrypted with an empty user password (printing rights only): readable."""
    try:
        return bool(reader.decrypt(""))
    except Exception:  # an unsupported cipher (AES without the cryptography package ...)
        return False


def _labels(reader) -> list[str]:
    try:
        return list(reader.page_labels)
    except Exception:
        return []


def _title(reader) -> str:
    try:
        title = (reader.metadata or {}).get("/Title")
    except Exception:
        return ""
    title = re.sub(r"\s+", " ", str(title or "")).strip()
    return "" if title.lower() in ("", "untitled") else title


def _tidy(text: str) -> str:
    """Trailing spaces off, runs of blank lines to one, a line looking like a page mark
    escaped (only our own marks may match PAGE_MARK)."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").splitlines()]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    return PAGE_MARK.sub(lambda m: "\\" + m.group(0), text)


def page_of(text: str) -> str:
    """The page label of the last `[p. N]` mark in `text` ("" when there is none)."""
    marks = PAGE_MARK.findall(text)
    return marks[-1] if marks else ""
