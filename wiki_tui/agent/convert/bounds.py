"""Limits that keep a hostile source from taking the machine, each refusal naming its reason.

The size limit (`max_source_mb`) checks the file as stored; these check what it becomes. Cheap
checks first, on the bytes: a zip (DOCX, PPTX, XLSX) whose members expand to more than
MAX_EXPANDED_MB ("a 3 MB DOCX that inflates to 1 GB"), a CSV with more than MAX_ROWS rows or a
line longer than MAX_LINE_CHARS, an HTML page over MAX_HTML_MB. Rows and cells of a spreadsheet
are counted while it is read (`capped_rows`). Then any sizeable file that is not plain text is
converted in a child process (child.py) with at most CHILD_MEMORY_MB of memory and
CHILD_SECONDS of time, so whatever the checks miss fails there, alone, with its reason.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator

from wiki_tui.agent.convert import ConversionError

MB = 1024 * 1024
MAX_EXPANDED_MB = 200  # a zip's members, uncompressed, all together
MAX_ROWS = 100_000  # rows of a CSV or of all a spreadsheet's sheets
MAX_CELLS = 2_000_000
MAX_LINE_CHARS = 1_000_000  # one CSV line
MAX_HTML_MB = 10
CHILD_MIN_BYTES = 1 * MB  # smaller files convert in this process (a child costs ~0.3 s)
CHILD_MEMORY_MB = 1024
CHILD_SECONDS = 60.0
ZIPPED = (".docx", ".pptx", ".xlsx")


def check(suffix: str, data: bytes, path: str) -> None:
    """ConversionError when the bytes already say the result would be too big."""
    if suffix in ZIPPED:
        _check_zip(data, path, count_rows=suffix == ".xlsx")
    elif suffix == ".csv":
        _check_csv(data, path)
    elif suffix in (".html", ".htm") and len(data) > MAX_HTML_MB * MB:
        raise ConversionError(f"{path}: {len(data) / MB:.0f} MB of HTML is more than the "
                              f"{MAX_HTML_MB} MB a page is converted from; save the article's "
                              "text alone (a reader view, or print to PDF)")


def _check_zip(data: bytes, path: str, *, count_rows: bool = False) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        return  # the converter says it is corrupt, in its own words
    total = sum(member.file_size for member in members)
    if total > MAX_EXPANDED_MB * MB:
        raise ConversionError(f"{path}: expands to more than {MAX_EXPANDED_MB} MB when "
                              f"unzipped ({total / MB:,.0f} MB from {len(data) / MB:.1f} MB): "
                              "refused as a likely zip bomb")
    if count_rows:  # a spreadsheet's rows, counted in its sheets' XML (the reader is slow)
        rows = sum(_count(archive, m, b"<row") for m in members
                   if m.filename.startswith("xl/worksheets/") and m.filename.endswith(".xml"))
        if rows > MAX_ROWS:
            raise ConversionError(f"{path}: more than {MAX_ROWS:,} rows ({rows:,}); split it "
                                  "or keep the rows that matter")


def _count(archive: zipfile.ZipFile, member: zipfile.ZipInfo, token: bytes) -> int:
    """Occurrences of `token` in a member, read in chunks (the member is under the expansion
    limit, but need not fit in memory twice)."""
    found, tail = 0, b""
    try:
        with archive.open(member) as stream:
            while chunk := stream.read(MB):
                window = tail + chunk
                found += window.count(token)
                tail = window[-(len(token) - 1):]  # too short to hold a whole token
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        pass
    return found


def _check_csv(data: bytes, path: str) -> None:
    rows = data.count(b"\n") + (not data.endswith(b"\n"))
    if rows > MAX_ROWS:
        raise ConversionError(f"{path}: more than {MAX_ROWS:,} rows ({rows:,}); split it or "
                              "keep the rows that matter")
    start = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        if end - start > MAX_LINE_CHARS:
            raise ConversionError(f"{path}: a line of more than {MAX_LINE_CHARS:,} characters "
                                  f"(at byte {start:,}): not a table a page can hold")
        start = end + 1


def capped_rows(rows: Iterable[Iterable[object]], path: str) -> Iterator[list[object]]:
    """The rows, until more than MAX_ROWS rows or MAX_CELLS cells: then ConversionError."""
    cells = 0
    for count, row in enumerate(rows, start=1):
        if count > MAX_ROWS:
            raise ConversionError(f"{path}: more than {MAX_ROWS:,} rows; split it or keep the "
                                  "rows that matter")
        values = list(row)
        cells += len(values)
        if cells > MAX_CELLS:
            raise ConversionError(f"{path}: more than {MAX_CELLS:,} cells; split it or keep "
                                  "the rows that matter")
        yield values
