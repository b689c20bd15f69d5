"""Source files made at test time: real PDFs (written by hand: pypdf reads text but does not
lay it out), and what the converters' own libraries write (DOCX, PPTX, XLSX)."""

from __future__ import annotations

import io


def make_pdf(pages: list[str], *, title: str = "") -> bytes:
    """A valid PDF with one page per string (lines split on \\n, Helvetica 11 pt); an empty
    string is a page without text (as a scan's page is: no text layer)."""
    objects: list[bytes] = []
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(len(pages)))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for i, text in enumerate(pages):
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents "
                       f"{5 + 2 * i} 0 R /Resources << /Font << /F1 3 0 R >> >> >>".encode())
        lines = [ln.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
                 for ln in text.splitlines()]
        ops = "".join(f"({ln}) Tj T* " for ln in lines)
        stream = f"BT /F1 11 Tf 14 TL 72 740 Td {ops}ET".encode("latin-1") if lines else b""
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    info = ""
    if title:
        objects.append(f"<< /Title ({title}) >>".encode("latin-1"))
        info = f" /Info {len(objects)} 0 R"
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R{info} >>\nstartxref\n{xref}\n"
              "%%EOF\n".encode())
    return out.getvalue()


def encrypt_pdf(data: bytes, password: str = "secret") -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.encrypt(password, algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def make_docx(title: str, paragraphs: list[str], table: list[list[str]] = ()) -> bytes:
    import docx

    document = docx.Document()
    document.add_heading(title, level=0)
    document.add_heading("Findings", level=1)
    for text in paragraphs:
        document.add_paragraph(text)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def make_pptx(slides: list[tuple[str, str]]) -> bytes:
    import pptx

    presentation = pptx.Presentation()
    for title, body in slides:
        slide = presentation.slides.add_slide(presentation.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
    out = io.BytesIO()
    presentation.save(out)
    return out.getvalue()


def make_xlsx(sheets: dict[str, list[list[object]]]) -> bytes:
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


PNG_1PX = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d4944415478da63f8cfc0f01f0005000201a5b2d6c30000000049454e44ae426082")
