"""Hostile sources, made at test time: each refused with its real reason, nothing written, and
conversion bounded in memory and time (a child process with limits; benchmarks/bench_hostile.py
measures peak memory and time)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import hostile
from wiki_tui.agent.convert import ConversionError, bounds, convert_source
from wiki_tui.agent.convert.child import convert_in_child


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    (tmp_path / "raw").mkdir()
    return tmp_path


def _refusal(root: Path, rel: str) -> str:
    before = sorted(p.name for p in (root / "raw").iterdir())
    with pytest.raises(ConversionError) as caught:
        convert_source(root, rel)
    assert sorted(p.name for p in (root / "raw").iterdir()) == before  # raw/ untouched
    return str(caught.value)


def test_a_docx_zip_bomb_is_refused_by_what_it_expands_to(raw: Path):
    hostile.docx_bomb(raw / "raw" / "bomb.docx", expands_mb=300)
    assert (raw / "raw" / "bomb.docx").stat().st_size < 5 * hostile.MB
    message = _refusal(raw, "raw/bomb.docx")
    assert f"expands to more than {bounds.MAX_EXPANDED_MB} MB" in message
    assert message.startswith("raw/bomb.docx:")


def test_a_million_row_spreadsheet_is_refused_by_its_rows(raw: Path):
    hostile.xlsx_rows(raw / "raw" / "rows.xlsx", rows=1_000_000)
    message = _refusal(raw, "raw/rows.xlsx")
    assert f"more than {bounds.MAX_ROWS:,} rows" in message


def test_a_spreadsheet_under_the_limits_converts(raw: Path):
    hostile.xlsx_rows(raw / "raw" / "small.xlsx", rows=50)
    converted = convert_source(raw, "raw/small.xlsx")
    assert converted.kind == "xlsx" and "| 50 | 100 |" in converted.text


def test_a_one_line_csv_of_40_mb_is_refused(raw: Path):
    hostile.one_line_csv(raw / "raw" / "line.csv", size_mb=40)
    message = _refusal(raw, "raw/line.csv")
    assert f"a line of more than {bounds.MAX_LINE_CHARS:,} characters" in message


def test_a_csv_of_too_many_rows_is_refused(raw: Path):
    (raw / "raw" / "rows.csv").write_bytes(b"a,b\n" * (bounds.MAX_ROWS + 5))
    assert f"more than {bounds.MAX_ROWS:,} rows" in _refusal(raw, "raw/rows.csv")


def test_an_html_page_of_48_mb_is_refused(raw: Path):
    hostile.big_html(raw / "raw" / "page.html", size_mb=48)
    message = _refusal(raw, "raw/page.html")
    assert f"more than the {bounds.MAX_HTML_MB} MB" in message


def test_a_sizeable_file_converts_in_a_child_that_runs_out_of_time(raw: Path):
    hostile.big_html(raw / "raw" / "page.html", size_mb=2)
    with pytest.raises(ConversionError, match="took more than 0.001 s to convert"):
        convert_in_child(str(raw), "raw/page.html", seconds=0.001)


def test_a_child_over_its_memory_limit_says_so(raw: Path):
    hostile.big_html(raw / "raw" / "page.html", size_mb=3)
    with pytest.raises(ConversionError, match="needs more than 120 MB of memory"):
        convert_in_child(str(raw), "raw/page.html", memory_mb=120)


def test_a_sizeable_file_within_the_limits_converts_in_the_child(raw: Path):
    big = raw / "raw" / "article.csv"
    big.write_bytes(b"name,value\n" + b"".join(b"row%d,%d\n" % (n, n) for n in range(80_000)))
    assert big.stat().st_size >= bounds.CHILD_MIN_BYTES  # so it goes through the child
    converted = convert_source(raw, "raw/article.csv")
    assert converted.kind == "csv" and "| row79999 | 79999 |" in converted.text
