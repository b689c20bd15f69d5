"""Each converter on real files made at test time, and each refusal (encrypted, scanned,
corrupt, too big, not a format): a clear error naming the file and the reason."""

from __future__ import annotations

import pytest

from tests.support.documents import (
    PNG_1PX, encrypt_pdf, make_docx, make_pdf, make_pptx, make_xlsx,
)
from wiki_tui.agent.convert import ConversionError, convert_source, image_refs
from wiki_tui.agent.convert.pdf import page_of
from wiki_tui.agent.operations import carry_page_marks


def _write(root, path: str, data: bytes | str) -> str:
    file = root / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def _refusal(root, path: str, **kwargs) -> str:
    with pytest.raises(ConversionError) as caught:
        convert_source(root, path, **kwargs)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")  # every refusal names the file
    return message


def test_a_pdf_keeps_its_pages_as_marks_and_its_title(tmp_path):
    pdf = make_pdf(["First page (one).", "", "Third page text."], title="A Paper")
    got = convert_source(tmp_path, _write(tmp_path, "raw/paper.pdf", pdf))
    assert got.kind == "pdf" and got.pages == 3
    assert got.text.startswith("# A Paper\n\n[p. 1]\n\nFirst page (one).")
    assert "[p. 2]\n\n[p. 3]\n\nThird page text." in got.text  # an empty page keeps its mark
    assert page_of(got.text) == "3"


def test_a_line_that_looks_like_a_page_mark_is_escaped(tmp_path):
    got = convert_source(tmp_path, _write(tmp_path, "raw/p.pdf", make_pdf(["[p. 99]\nText."])))
    assert page_of(got.text) == "1" and "\\[p. 99]" in got.text


def test_parts_of_a_long_pdf_each_start_in_their_page():
    parts = carry_page_marks(["[p. 1]\n\nA.\n\n[p. 2]\n\nB starts", "B goes on", "[p. 3]\n\nC"])
    assert parts[1].startswith("[p. 2]\n\nB goes on") and parts[2].startswith("[p. 3]")


def test_pdf_refusals_name_the_reason(tmp_path):
    text = make_pdf(["Secret text."])
    assert "encrypted" in _refusal(tmp_path, _write(tmp_path, "raw/locked.pdf",
                                                    encrypt_pdf(text)))
    scanned = _refusal(tmp_path, _write(tmp_path, "raw/scan.pdf", make_pdf(["", ""])))
    assert "no text layer" in scanned and "OCR" in scanned
    assert "corrupt" in _refusal(tmp_path, _write(tmp_path, "raw/cut.pdf", text[:200]))
    assert "not a PDF" in _refusal(tmp_path, _write(tmp_path, "raw/fake.pdf", "hello"))


def test_a_pdf_encrypted_with_an_empty_password_is_read(tmp_path):
    data = encrypt_pdf(make_pdf(["Open to all."]), password="")
    assert "Open to all." in convert_source(tmp_path, _write(tmp_path, "raw/o.pdf", data)).text


def test_a_file_over_the_size_limit_is_refused_naming_its_size(tmp_path):
    path = _write(tmp_path, "raw/big.md", "x" * 300_000)
    message = _refusal(tmp_path, path, max_mb=0.25)
    assert "0.3 MB is over the 0.25 MB limit" in message and "max_source_mb" in message
    assert convert_source(tmp_path, path, max_mb=1).kind == "markdown"


def test_html_keeps_the_article_headings_links_and_tables(tmp_path):
    page = ("<html><head><title>Page title</title><style>p{color:red}</style>"
            "<script>alert('x')</script></head><body><nav><a href='/'>Home</a></nav>"
            "<div class='sidebar'>Subscribe now</div><article><h1>Clocks at Sea</h1>"
            "<p>The <a href='https://example.org/h4'>H4</a> kept time.</p><h2>Trials</h2>"
            "<table><tr><th>Year</th><th>Error</th></tr><tr><td>1762</td><td>5 s</td></tr>"
            "</table><img src='assets/h4.png' alt='H4'></article><footer>© 2024</footer>"
            "</body></html>")
    _write(tmp_path, "raw/assets/h4.png", PNG_1PX)
    got = convert_source(tmp_path, _write(tmp_path, "raw/clip.html", page))
    assert got.text.startswith("# Clocks at Sea\n")
    assert "[H4](https://example.org/h4)" in got.text and "## Trials" in got.text
    assert "| Year | Error |\n| --- | --- |\n| 1762 | 5 s |" in got.text
    for dropped in ("alert", "color:red", "Home", "Subscribe", "©"):
        assert dropped not in got.text
    assert got.images == ["raw/assets/h4.png"]


def test_html_in_a_declared_charset_and_an_empty_page(tmp_path):
    latin = "<meta charset='iso-8859-1'><p>Caf\xe9 cr\xe8me</p>".encode("latin-1")
    assert "Café crème" in convert_source(tmp_path, _write(tmp_path, "raw/l.html", latin)).text
    assert "holds no text" in _refusal(tmp_path, _write(tmp_path, "raw/e.htm",
                                                        "<script>x</script>"))


def test_csv_is_a_markdown_table(tmp_path):
    got = convert_source(tmp_path, _write(tmp_path, "raw/trials.csv",
                                          "year;maker;note\n1761;Harrison;H4 | sea\n\n"))
    assert got.text == ("# trials\n\n| year | maker | note |\n| --- | --- | --- |\n"
                        "| 1761 | Harrison | H4 \\| sea |\n")
    assert "not UTF-8" in _refusal(tmp_path, _write(tmp_path, "raw/bin.csv", b"\xff\xfe\x00a"))


def test_docx_pptx_and_xlsx_through_the_documents_extra(tmp_path):
    docx = make_docx("Report", ["The H4 was tested in 1761."], [["Year", "Trial"],
                                                                ["1761", "Jamaica"]])
    got = convert_source(tmp_path, _write(tmp_path, "raw/report.docx", docx)).text
    assert got.startswith("# Report\n\n## Findings\n\nThe H4 was tested in 1761.")
    assert "| Year | Trial |\n| --- | --- |\n| 1761 | Jamaica |" in got
    pptx = make_pptx([("Longitude", "Clocks\nLunars"), ("Outcome", "H4 won")])
    got = convert_source(tmp_path, _write(tmp_path, "raw/talk.pptx", pptx)).text
    assert got == ("## Slide 1: Longitude\n\n- Clocks\n- Lunars\n\n## Slide 2: Outcome\n\n"
                   "H4 won\n")
    xlsx = make_xlsx({"Trials": [["Year", "Error s"], [1761, 5.0], [1764, 39.2]],
                      "Empty": []})
    got = convert_source(tmp_path, _write(tmp_path, "raw/data.xlsx", xlsx)).text
    assert "## Trials\n\n| Year | Error s |\n| --- | --- |\n| 1761 | 5 |\n| 1764 | 39.2 |" in got
    assert "## Empty\n\n(empty sheet)" in got
    assert "corrupt" in _refusal(tmp_path, _write(tmp_path, "raw/bad.docx", b"PK\x03\x04junk"))


def test_images_are_sources_and_corrupt_ones_are_refused(tmp_path):
    got = convert_source(tmp_path, _write(tmp_path, "raw/harrison-h4.png", PNG_1PX))
    assert got.kind == "image" and got.images == ["raw/harrison-h4.png"]
    assert got.text == "# Harrison h4\n\n![[raw/harrison-h4.png]]\n"
    assert "not a readable image" in _refusal(tmp_path, _write(tmp_path, "raw/x.jpg", "GIF"))
    assert "cannot be ingested" in _refusal(tmp_path, _write(tmp_path, "raw/x.tiff", b"II*"))


def test_image_refs_resolve_inside_raw_only(tmp_path):
    for path in ("raw/assets/a.png", "raw/clips/b.gif", "c.png"):
        _write(tmp_path, path, PNG_1PX)
    text = ("![a](assets/a.png) ![[b.gif]] ![](../c.png) ![](https://x.org/d.png) "
            "![[a.png|200]] ![](missing.png)")
    assert image_refs(tmp_path, "raw/clips/note.md", text) == ["raw/assets/a.png",
                                                                "raw/clips/b.gif"]


def test_image_parts_keep_within_the_budget_and_the_size_limit(tmp_path, monkeypatch):
    from wiki_tui.agent.convert import images

    for name in ("a.png", "b.png", "c.png"):
        _write(tmp_path, f"raw/{name}", PNG_1PX)
    _write(tmp_path, "raw/big.png", PNG_1PX + b"\0" * 2000)
    monkeypatch.setattr(images, "MAX_IMAGE_BYTES", 1000)
    parts, left_out = images.image_parts(
        tmp_path, ["raw/a.png", "raw/big.png", "raw/b.png", "raw/c.png"],
        budget_tokens=2 * images.IMAGE_TOKENS)
    assert [p["image_url"]["url"][:22] for p in parts] == ["data:image/png;base64,"] * 2
    assert left_out == ["raw/big.png", "raw/c.png"]


def test_a_pdf_with_page_labels_marks_its_printed_numbers(tmp_path):
    import io

    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(make_pdf(["Preface.", "Chapter one."]))))
    writer.set_page_label(0, 0, style="/r")
    writer.set_page_label(1, 1, style="/D", start=12)
    out = io.BytesIO()
    writer.write(out)
    got = convert_source(tmp_path, _write(tmp_path, "raw/book.pdf", out.getvalue())).text
    assert "[p. i]\n\nPreface." in got and "[p. 12]\n\nChapter one." in got
