"""Hostile sources made at test time, each small on disk and huge once read: a DOCX zip bomb,
a 1,000,000-row XLSX, a 40 MB one-line CSV, a 48 MB HTML page. Used by the conversion tests
and benchmarks/bench_hostile.py."""

from __future__ import annotations

import zipfile
from pathlib import Path

MB = 1024 * 1024
_XLSX_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
        'package/2006/content-types"><Default Extension="rels" ContentType="application/'
        'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType='
        '"application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName='
        '"/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.worksheet+xml"/></Types>'),
    "_rels/.rels": (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
        'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://'
        'schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target='
        '"xl/workbook.xml"/></Relationships>'),
    "xl/workbook.xml": (
        '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.'
        'org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/'
        'officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"'
        '/></sheets></workbook>'),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
        'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://'
        'schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target='
        '"worksheets/sheet1.xml"/></Relationships>'),
}


def docx_bomb(path: Path, expands_mb: int = 1024) -> Path:
    """A DOCX whose document.xml inflates to `expands_mb` MB of one repeated paragraph."""
    paragraph = b"<w:p><w:r><w:t>" + b"A" * 1000 + b"</w:t></w:r></w:p>"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        with zf.open("word/document.xml", "w", force_zip64=True) as out:
            block = paragraph * (MB // len(paragraph))
            for _ in range(expands_mb):
                out.write(block)
    return path


def xlsx_rows(path: Path, rows: int = 1_000_000) -> Path:
    """An XLSX of `rows` rows of two numbers each, written as raw sheet XML (quick to make)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in _XLSX_PARTS.items():
            zf.writestr(name, text)
        with zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as out:
            out.write(b'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://'
                      b'schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
            chunk = []
            for n in range(1, rows + 1):
                chunk.append(f'<row r="{n}"><c r="A{n}"><v>{n}</v></c><c r="B{n}"><v>{n * 2}'
                             f'</v></c></row>')
                if len(chunk) == 10_000:
                    out.write("".join(chunk).encode())
                    chunk = []
            out.write("".join(chunk).encode() + b"</sheetData></worksheet>")
    return path


def one_line_csv(path: Path, size_mb: int = 40) -> Path:
    path.write_bytes(b"a," * (size_mb * MB // 2))
    return path


def big_html(path: Path, size_mb: int = 48) -> Path:
    row = b"<tr><td>cell</td><td><a href='#x'>link</a></td></tr>\n"
    with path.open("wb") as out:
        out.write(b"<html><body><table>\n")
        block = row * (MB // len(row))
        for _ in range(size_mb):
            out.write(block)
        out.write(b"</table></body></html>\n")
    return path
