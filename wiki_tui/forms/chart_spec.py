"""A chart spec: the declarative ```chart block a page carries, read and checked.

    ```chart
    kind: line                         # bar | line | scatter | timeline
    title: Error of H4 on the Jamaica voyage
    x: Day of the voyage               # axis labels, optional
    y: Seconds lost
    series:
      - name: H4
        pages: ["[[H4]]"]              # the pages the data comes from (at least one)
        data: [[0, 0], [81, 5.1]]
    file: attachments/h4-error.svg     # optional; default attachments/<page name>.svg
    ```

Points: bar `[label, number]`; line and scatter `[number or date, number]`; timeline
`[date, label]` (a date is a year, `YYYY-MM` or `YYYY-MM-DD`; `{x: .., y: ..}` mappings are
read too). The spec is YAML read safely (no tags, anchors or aliases) or JSON; every key is
known, data is inline: a spec names no file to read (its `file` is where the program writes the
SVG, under the attachments folder) and holds nothing to run. Each refusal is a ChartError naming
the line of the page it is on; sizes are bounded (MAX_POINTS, MAX_SERIES, MAX_SPEC_CHARS).
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from dataclasses import dataclass, field

import yaml

KINDS = ("bar", "line", "scatter", "timeline")
MAX_SPEC_CHARS = 400_000
MAX_SERIES = 20
MAX_POINTS = 20_000  # all series together
MAX_TEXT = 200  # a title, label or name
ATTACHMENTS = "attachments"

_KEYS = {"kind": "kind", "type": "kind", "title": "title", "x": "x", "x_label": "x",
         "xlabel": "x", "x-label": "x", "y": "y", "y_label": "y", "ylabel": "y", "y-label": "y",
         "series": "series", "file": "file"}
_SERIES_KEYS = {"name": "name", "label": "name", "pages": "pages", "sources": "pages",
                "data": "data", "points": "data"}
_DATE = re.compile(r"^(-?\d{1,4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$")
_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*chart\s*$")
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


class ChartError(ValueError):
    """A spec the program refuses; `line` is the page's line (1-based)."""

    def __init__(self, line: int, message: str) -> None:
        self.line, self.message = line, message
        super().__init__(f"line {line}: {message}")


@dataclass(frozen=True)
class Series:
    name: str
    pages: tuple[str, ...]  # page names as written, without [[ ]]
    points: tuple[tuple, ...]  # bar (label, y); line/scatter (x, y); timeline (x, label, date)


@dataclass(frozen=True)
class ChartSpec:
    kind: str
    title: str
    x_label: str = ""
    y_label: str = ""
    series: tuple[Series, ...] = ()
    file: str = ""  # where the SVG goes ("" : the default for the page)
    dates: bool = False  # the x values are dates (shown as years)

    @property
    def pages(self) -> list[str]:
        return list(dict.fromkeys(p for s in self.series for p in s.pages))

    @property
    def points(self) -> int:
        return sum(len(s.points) for s in self.series)


@dataclass(frozen=True)
class ChartBlock:
    """A ```chart fence of a page: the spec text and where it is."""

    line: int  # the page line of the opening fence (1-based)
    body: str
    start: int  # offsets of the whole fence in the page text
    end: int
    closed: bool = True

    @property
    def first_line(self) -> int:
        return self.line + 1


@dataclass
class _Context:
    first_line: int
    loader: yaml.SafeLoader = field(default_factory=lambda: yaml.SafeLoader(""))

    def line(self, node: yaml.Node) -> int:
        return self.first_line + node.start_mark.line

    def value(self, node: yaml.Node):
        return self.loader.construct_object(node, deep=True)


def find_chart_blocks(text: str) -> list[ChartBlock]:
    """Every ```chart (or ~~~chart) fence of the page, in order; one left open runs to the end."""
    blocks: list[ChartBlock] = []
    lines = text.splitlines(keepends=True)
    offset, i = 0, 0
    fence = ""
    starts: list[int] = []
    for line in lines:
        starts.append(offset)
        offset += len(line)
    starts.append(offset)
    while i < len(lines):
        stripped = lines[i].rstrip("\r\n")
        m = _FENCE.match(stripped)
        if fence:
            run = stripped.strip()
            if run and set(run) == {fence[0]} and len(run) >= len(fence):
                fence = ""
            i += 1
            continue
        if m is None:
            other = re.match(r"^ {0,3}(`{3,}|~{3,})", stripped)
            if other:
                fence = other.group(1)  # another fenced block: a chart inside it is text
            i += 1
            continue
        run = m.group(2)
        j = i + 1
        while j < len(lines):
            close = lines[j].rstrip("\r\n").strip()
            if close and set(close) == {run[0]} and len(close) >= len(run):
                break
            j += 1
        closed = j < len(lines)
        body = "".join(lines[i + 1:j])
        end = starts[j + 1] if closed else starts[-1]
        blocks.append(ChartBlock(i + 1, body, starts[i], end, closed))
        i = j + 1
    return blocks


def parse_spec(body: str, first_line: int = 1) -> ChartSpec:
    """The spec of a ```chart block whose text starts on page line `first_line`."""
    if len(body) > MAX_SPEC_CHARS:
        raise ChartError(first_line, f"the spec is {len(body):,} characters; at most "
                         f"{MAX_SPEC_CHARS:,}")
    if not body.strip():
        raise ChartError(first_line, "the chart block is empty; write kind, title and series")
    ctx = _Context(first_line)
    try:
        for token in yaml.scan(body, Loader=yaml.SafeLoader):
            if isinstance(token, (yaml.AnchorToken, yaml.AliasToken, yaml.TagToken)):
                raise ChartError(ctx.first_line + token.start_mark.line,
                                 "YAML anchors, aliases and tags are not allowed in a chart spec")
        root = yaml.compose(body, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        if mark is None or (exc.context_mark is not None and mark.index >= len(body.rstrip())):
            mark = exc.context_mark  # "expected ']'" at the end: the line the list opened
        where = first_line + (mark.line if mark is not None else 0)
        raise ChartError(where, f"not readable as YAML or JSON: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise ChartError(first_line, f"not readable as YAML or JSON: {exc}") from None
    if not isinstance(root, yaml.MappingNode):
        raise ChartError(first_line, "a chart spec is a mapping of kind, title, x, y, series")
    fields: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key, value in root.value:
        name = _KEYS.get(str(key.value).strip().lower()) if isinstance(key, yaml.ScalarNode) \
            else None
        if name is None:
            raise ChartError(ctx.line(key), f"unknown key {str(key.value)[:40]!r} (a chart spec "
                             "has kind, title, x, y, series and file)")
        if name in fields:
            raise ChartError(ctx.line(key), f"{name!r} is given twice")
        fields[name] = (key, value)
    if "kind" not in fields:
        raise ChartError(first_line, f"the spec has no kind (one of {', '.join(KINDS)})")
    kind_node = fields["kind"][1]
    kind = str(_scalar(ctx, kind_node, "kind")).strip().lower()
    if kind not in KINDS:
        raise ChartError(ctx.line(kind_node), f"kind {kind[:40]!r} is not one of "
                         f"{', '.join(KINDS)}")
    title = _text(ctx, fields, "title", required=True)
    x_label, y_label = _text(ctx, fields, "x"), _text(ctx, fields, "y")
    file = _file(ctx, fields["file"][1]) if "file" in fields else ""
    if "series" not in fields:
        raise ChartError(first_line, "the spec has no series (each with name, pages, data)")
    series_node = fields["series"][1]
    if isinstance(series_node, yaml.MappingNode):  # one series written without the list
        items = [series_node]
    elif isinstance(series_node, yaml.SequenceNode):
        items = list(series_node.value)
    else:
        raise ChartError(ctx.line(series_node), "series is a list of series, each with name, "
                         "pages and data")
    if not items:
        raise ChartError(ctx.line(series_node), "series is empty")
    if len(items) > MAX_SERIES:
        raise ChartError(ctx.line(items[MAX_SERIES]), f"more than {MAX_SERIES} series")
    series, dates, total = [], False, 0
    for number, item in enumerate(items, 1):
        one, is_date = _series(ctx, item, kind, number, len(items))
        total += len(one.points)
        if total > MAX_POINTS:
            raise ChartError(ctx.line(item), f"more than {MAX_POINTS:,} points in all")
        series.append(one)
        dates = dates or is_date
    return ChartSpec(kind, title, x_label, y_label, tuple(series), file, dates)


def _scalar(ctx: _Context, node: yaml.Node, what: str):
    if not isinstance(node, yaml.ScalarNode):
        raise ChartError(ctx.line(node), f"{what} must be a single value")
    return ctx.value(node)


def _text(ctx: _Context, fields: dict, name: str, required: bool = False) -> str:
    if name not in fields:
        if required:
            raise ChartError(ctx.first_line, f"the spec has no {name}")
        return ""
    node = fields[name][1]
    value = _scalar(ctx, node, name)
    text = "" if value is None else " ".join(str(value).split())
    if required and not text:
        raise ChartError(ctx.line(node), f"{name} is empty")
    if len(text) > MAX_TEXT:
        raise ChartError(ctx.line(node), f"{name} is longer than {MAX_TEXT} characters")
    return text


def check_vault_path(value: str) -> str | None:
    """Why a path a spec names cannot be used ('' -> None when it is a plain vault path)."""
    if _URL.match(value) and not re.match(r"^[A-Za-z]:[\\/]", value):
        return "is a URL; a chart spec reads nothing and writes only into the vault"
    if value.startswith(("/", "~", "\\")) or re.match(r"^[A-Za-z]:[\\/]", value) \
            or "\\" in value or ".." in value.split("/"):
        return "is outside the vault"
    return None


def _file(ctx: _Context, node: yaml.Node) -> str:
    value = str(_scalar(ctx, node, "file") or "").strip()
    line = ctx.line(node)
    why = check_vault_path(value)
    if why:
        raise ChartError(line, f"file {value[:80]!r} {why}; name an SVG under {ATTACHMENTS}/, "
                         f"e.g. {ATTACHMENTS}/my-chart.svg")
    if not value.lower().endswith(".svg"):
        raise ChartError(line, f"file {value[:80]!r} must end in .svg (the program writes the "
                         "chart there; the spec stays in the page)")
    if not value.startswith(ATTACHMENTS + "/"):
        raise ChartError(line, f"file {value[:80]!r} must be under {ATTACHMENTS}/")
    return value


def _series(ctx: _Context, node: yaml.Node, kind: str, number: int, count: int
            ) -> tuple[Series, bool]:
    where = f"series {number}"
    if not isinstance(node, yaml.MappingNode):
        raise ChartError(ctx.line(node), f"{where} must be a mapping with name, pages and data")
    fields: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key, value in node.value:
        name = _SERIES_KEYS.get(str(key.value).strip().lower()) \
            if isinstance(key, yaml.ScalarNode) else None
        if name is None:
            raise ChartError(ctx.line(key), f"{where}: unknown key {str(key.value)[:40]!r} (a "
                             "series has name, pages and data)")
        fields[name] = (key, value)
    name = _text(ctx, fields, "name") or (f"Series {number}" if count > 1 else "")
    if "pages" not in fields:
        raise ChartError(ctx.line(node), f"{where} names no pages: give the pages its data "
                         "comes from, as pages: [\"[[Page]]\"]")
    pages = _pages(ctx, fields["pages"][1], where)
    if "data" not in fields:
        raise ChartError(ctx.line(node), f"{where} has no data")
    data = fields["data"][1]
    if not isinstance(data, yaml.SequenceNode):
        raise ChartError(ctx.line(data), f"{where}: data must be written inline as a list of "
                         "points; a chart spec cannot read files or run anything")
    if not data.value:
        raise ChartError(ctx.line(data), f"{where}: data is empty")
    if len(data.value) > MAX_POINTS:
        raise ChartError(ctx.line(data), f"{where}: more than {MAX_POINTS:,} points")
    points, dates = [], False
    for i, point in enumerate(data.value, 1):
        a, b = _pair(ctx, point, f"{where}, point {i}")
        if kind == "bar":
            label = _label(ctx, point, a, f"{where}, point {i}")
            points.append((label, _number(ctx, point, b, f"{where}, point {i}")))
        elif kind == "timeline":
            x, shown = _date(ctx, point, a, f"{where}, point {i}")
            points.append((x, _label(ctx, point, b, f"{where}, point {i}"), shown))
            dates = True
        else:
            x, is_date = _x(ctx, point, a, f"{where}, point {i}")
            dates = dates or is_date
            points.append((x, _number(ctx, point, b, f"{where}, point {i}")))
    return Series(name, pages, tuple(points)), dates


def _pages(ctx: _Context, node: yaml.Node, where: str) -> tuple[str, ...]:
    values = node.value if isinstance(node, yaml.SequenceNode) else [node]
    pages = []
    for item in values:
        raw = _scalar(ctx, item, f"{where}: a page")
        text = str(raw or "").strip()
        m = re.fullmatch(r"\[\[([^\[\]|#]+)(?:[#|][^\[\]]*)?\]\]", text)
        name = (m.group(1) if m else text).strip()
        if not name:
            raise ChartError(ctx.line(item), f"{where}: an empty page name")
        why = check_vault_path(name)
        if why:
            raise ChartError(ctx.line(item), f"{where}: the page {name[:80]!r} {why}; name the "
                             "wiki pages the data comes from, as [[Page]]")
        pages.append(name)
    if not pages:
        raise ChartError(ctx.line(node), f"{where} names no pages")
    return tuple(pages)


def _pair(ctx: _Context, node: yaml.Node, where: str) -> tuple[yaml.Node, yaml.Node]:
    if isinstance(node, yaml.SequenceNode) and len(node.value) == 2:
        return node.value[0], node.value[1]
    if isinstance(node, yaml.MappingNode) and len(node.value) == 2:
        keyed = {str(k.value).lower(): v for k, v in node.value}
        for a, b in (("x", "y"), ("label", "value"), ("date", "label"), ("date", "event"),
                     ("label", "y"), ("x", "label")):
            if a in keyed and b in keyed:
                return keyed[a], keyed[b]
    raise ChartError(ctx.line(node), f"{where} must be a pair such as [x, y]")


def _number(ctx: _Context, point: yaml.Node, node: yaml.Node, where: str) -> float:
    value = ctx.value(node) if isinstance(node, yaml.ScalarNode) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ChartError(ctx.line(node), f"{where}: {_shown(node)} is not a number")
    if not math.isfinite(value):
        raise ChartError(ctx.line(node), f"{where}: {_shown(node)} is not a finite number")
    return float(value)


def _label(ctx: _Context, point: yaml.Node, node: yaml.Node, where: str) -> str:
    if not isinstance(node, yaml.ScalarNode):
        raise ChartError(ctx.line(node), f"{where}: the label must be text")
    text = " ".join(str(node.value).split())
    if not text:
        raise ChartError(ctx.line(node), f"{where}: the label is empty")
    if len(text) > MAX_TEXT:
        raise ChartError(ctx.line(node), f"{where}: the label is longer than {MAX_TEXT} "
                         "characters")
    return text


def _date(ctx: _Context, point: yaml.Node, node: yaml.Node, where: str) -> tuple[float, str]:
    value = ctx.value(node) if isinstance(node, yaml.ScalarNode) else None
    if isinstance(value, _dt.datetime):
        value = value.date()
    if isinstance(value, _dt.date):
        return decimal_year(value.year, value.month, value.day), value.isoformat()
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value), str(value)
    m = _DATE.match(str(value).strip()) if isinstance(value, str) else None
    if m:
        year, month, day = int(m.group(1)), int(m.group(2) or 1), int(m.group(3) or 1)
        if 1 <= month <= 12 and 1 <= day <= 31:
            return decimal_year(year, month, day), str(value).strip()
    raise ChartError(ctx.line(node), f"{where}: {_shown(node)} is not a date (write a year, "
                     "YYYY-MM or YYYY-MM-DD)")


def _x(ctx: _Context, point: yaml.Node, node: yaml.Node, where: str) -> tuple[float, bool]:
    value = ctx.value(node) if isinstance(node, yaml.ScalarNode) else None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _number(ctx, point, node, where), False
    try:
        return _date(ctx, point, node, where)[0], True
    except ChartError:
        raise ChartError(ctx.line(node), f"{where}: {_shown(node)} is neither a number nor a "
                         "date") from None


def _shown(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        return repr(str(node.value)[:40])
    return "a list" if isinstance(node, yaml.SequenceNode) else "a mapping"


def decimal_year(year: int, month: int = 1, day: int = 1) -> float:
    """A date as a number of years (1761-07-02 -> 1761.5): an axis that also holds BC years."""
    days = 366 if (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)) else 365
    before = sum((31, 29 if days == 366 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
                 [: month - 1])
    return year + (before + min(day, 31) - 1) / days


def default_file(page_path: str, index: int = 0) -> str:
    """Where the SVG of a page's chart goes when its spec names no file:
    attachments/<page name>.svg (a second chart: <page name>-2.svg)."""
    stem = page_path.rsplit("/", 1)[-1]
    stem = stem[:-3] if stem.lower().endswith(".md") else stem
    return f"{ATTACHMENTS}/{stem}{'' if index == 0 else f'-{index + 1}'}.svg"
