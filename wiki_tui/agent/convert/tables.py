"""Tables as markdown: CSV (the standard library's csv) and the rows of a spreadsheet sheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from wiki_tui.agent.convert import ConversionError
from wiki_tui.agent.convert.bounds import capped_rows


def csv_markdown(text: str, path: str) -> str:
    try:
        dialect = csv.Sniffer().sniff(text[:8192], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = list(capped_rows(csv.reader(io.StringIO(text), dialect), path))
    except csv.Error as exc:
        raise ConversionError(f"{path}: the CSV cannot be read: {exc}") from exc
    table = markdown_table(rows)
    if not table:
        raise ConversionError(f"{path}: the CSV holds no rows")
    name = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    return f"# {name}\n\n{table}\n"


def markdown_table(rows: Iterable[Iterable[object]]) -> str:
    """A markdown table: the first row is the header; empty rows and trailing empty cells go."""
    cleaned = []
    for row in rows:
        cells = [_cell(value) for value in row]
        while cells and not cells[-1]:
            cells.pop()
        if cells:
            cleaned.append(cells)
    if not cleaned:
        return ""
    width = max(len(r) for r in cleaned)
    cleaned = [r + [""] * (width - len(r)) for r in cleaned]
    lines = ["| " + " | ".join(cleaned[0]) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(r) + " |" for r in cleaned[1:]]
    return "\n".join(lines)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "<br>") \
        .replace("\n", "<br>")
