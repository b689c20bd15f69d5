"""Source conversion benchmark (prints JSON).

    uv run python benchmarks/bench_convert.py [--runs 3]

Converts, with `convert_source` (what `wiki-tui ingest` runs before the model is called), files
generated into a temporary vault's raw/:
- pdf: 100 pages of ~40 lines each (tests/support/documents.make_pdf), via pypdf;
- html_5mb_article: a 5 MB page that is nearly all article (headings, paragraphs with links,
  tables; the worst case), via beautifulsoup4 (html.parser) + markdownify;
- html_5mb_saved_page: a 5 MB saved web page as browsers save them: ~0.5 MB of article, the
  rest inline scripts, styles and SVG (dropped);
- xlsx: a workbook of 10 sheets x 1,000 rows x 8 columns (the `documents` extra: openpyxl).
For each: the file's size, the markdown's size, and the median seconds over --runs conversions
(the in-memory cache cleared before each).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.documents import make_pdf, make_xlsx  # noqa: E402
from wiki_tui.agent.convert import _convert, convert_source  # noqa: E402

LINE = "The marine chronometer (p. {n}) and the lunar distance method, line {i}, compared."


def make_html(size: int, article: int | None = None) -> str:
    """A page of `size` bytes of which `article` (default: all) are the article's."""
    furniture = size - article if article else 5_000
    script = "var x = 1;" * (furniture // 3 // 10)
    style = ".c{margin:0}" * (furniture // 3 // 12)
    svg = "<svg><path d='M0 0L1 1'/></svg>" * (furniture // 3 // 32)
    size = article or size
    head = (f"<html><head><title>Bench page</title><style>{style}</style><script>{script}"
            f"</script></head><body>{svg}<nav>" +
            "".join(f"<a href='/s{i}'>Section {i}</a>" for i in range(50)) + "</nav><article>")
    section = ("<h2>Section {n}</h2><p>John Harrison built <a href='https://example.org/h{n}'>"
               "H{n}</a>; the Board of Longitude paid in part. " + "Text of the section. " * 20
               + "</p><table><tr><th>Year</th><th>Error</th><th>Ship</th></tr>"
               + "<tr><td>1762</td><td>5 s</td><td>Deptford</td></tr>" * 8 + "</table>")
    parts, total, n = [head], 0, 0
    while total < size:
        chunk = section.format(n=n)
        parts.append(chunk)
        total += len(chunk)
        n += 1
    parts.append("</article><footer>end</footer></body></html>")
    return "".join(parts)


def make_files(raw: Path) -> dict[str, str]:
    pages = ["\n".join(LINE.format(n=n, i=i) for i in range(40)) for n in range(1, 101)]
    (raw / "book.pdf").write_bytes(make_pdf(pages, title="A hundred pages"))
    mb5 = 5 * 1024 * 1024
    (raw / "article.html").write_text(make_html(mb5), encoding="utf-8")
    (raw / "saved.html").write_text(make_html(mb5, article=mb5 // 10), encoding="utf-8")
    sheets = {f"Sheet {s}": [[f"col {c}" for c in range(8)]]
              + [[r, r * 1.5, f"name {r}", "Harrison", 1761 + r % 10, True, None, "x" * 10]
                 for r in range(1000)] for s in range(10)}
    (raw / "book.xlsx").write_bytes(make_xlsx(sheets))
    return {"pdf_100_pages": "raw/book.pdf", "html_5mb_article": "raw/article.html",
            "html_5mb_saved_page": "raw/saved.html",
            "xlsx_10_sheets": "raw/book.xlsx"}


def measure(root: Path, path: str, runs: int) -> dict:
    times, converted = [], None
    for _ in range(runs):
        _convert.cache_clear()
        started = time.perf_counter()
        converted = convert_source(root, path)
        times.append(time.perf_counter() - started)
    return {"file_bytes": (root / path).stat().st_size, "markdown_chars": len(converted.text),
            "median_s": round(statistics.median(times), 3),
            "runs_s": [round(t, 3) for t in times]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "raw").mkdir()
        files = make_files(root / "raw")
        print(json.dumps({name: measure(root, path, args.runs) for name, path in files.items()},
                         indent=2))


if __name__ == "__main__":
    main()
