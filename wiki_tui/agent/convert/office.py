"""DOCX, PPTX and XLSX -> markdown through the optional extra `wiki-tui[documents]`
(python-docx, python-pptx, openpyxl): installed, each reads its own format; missing, the
ingest says which extra to install."""

from __future__ import annotations

import importlib
import io
import re

from wiki_tui.agent.convert import ConversionError, missing_extra
from wiki_tui.agent.convert.tables import markdown_table

_MODULES = {".docx": ("docx", "python-docx"), ".pptx": ("pptx", "python-pptx"),
            ".xlsx": ("openpyxl", "openpyxl")}


def convert(suffix: str, data: bytes, path: str) -> str:
    module, package = _MODULES[suffix]
    try:
        library = importlib.import_module(module)
    except ImportError:
        raise missing_extra(path, package) from None
    text = {".docx": _docx, ".pptx": _pptx, ".xlsx": _xlsx}[suffix](library, data)
    if not text.strip():
        raise ConversionError(f"{path}: the {suffix[1:].upper()} file holds no text")
    return text.strip() + "\n"


def _docx(docx, data: bytes) -> str:
    from docx.table import Table

    document = docx.Document(io.BytesIO(data))
    out = []
    for item in document.iter_inner_content():
        if isinstance(item, Table):
            out.append(markdown_table([cell.text for cell in row.cells] for row in item.rows))
            continue
        text = item.text.strip()
        if not text:
            continue
        style = (item.style.name if item.style is not None else "") or ""
        level = re.match(r"Heading (\d)", style)
        if style == "Title":
            out.append(f"# {text}")
        elif level:
            out.append("#" * min(6, int(level.group(1)) + 1) + f" {text}")
        elif style.startswith("List"):
            out.append(f"- {text}")
        else:
            out.append(text)
    title = (document.core_properties.title or "").strip()
    if title and not any(block.startswith("# ") for block in out):
        out.insert(0, f"# {title}")  # the title metadata, as a PDF's (a file name is no title)
    return _join(out)


def _pptx(pptx, data: bytes) -> str:
    presentation = pptx.Presentation(io.BytesIO(data))
    out = []
    for number, slide in enumerate(presentation.slides, 1):
        title_shape = slide.shapes.title
        title = title_shape.text_frame.text.strip() if title_shape is not None else ""
        out.append(f"## Slide {number}" + (f": {title}" if title else ""))
        for shape in slide.shapes:
            if title_shape is not None and shape.shape_id == title_shape.shape_id:
                continue
            if getattr(shape, "has_table", False) and shape.has_table:
                out.append(markdown_table([c.text for c in row.cells]
                                          for row in shape.table.rows))
            elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
                lines = [p.text.strip() for p in shape.text_frame.paragraphs if p.text.strip()]
                out.append("\n".join(f"- {line}" for line in lines) if len(lines) > 1
                           else "\n".join(lines))
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame.text.strip()
            if notes:
                out.append(f"Notes: {notes}")
    return _join(out)


def _xlsx(openpyxl, data: bytes) -> str:
    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        out = []
        for sheet in book.worksheets:
            table = markdown_table(sheet.iter_rows(values_only=True))
            out.append(f"## {sheet.title}\n\n{table or '(empty sheet)'}")
        return _join(out)
    finally:
        book.close()


def _join(blocks: list[str]) -> str:
    return "\n\n".join(b for b in blocks if b)
