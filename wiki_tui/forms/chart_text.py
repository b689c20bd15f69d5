"""A chart spec drawn as lines of text: the terminal's view of a chart (review, browser).

No dependency: bars of block characters, a grid of markers for lines and scatters (one marker
per series, a legend under the chart), a rail of dated events for a timeline. The output fits
`width` columns; `height` is the plot's rows for line and scatter charts.
"""

from __future__ import annotations

from wiki_tui.forms.chart_spec import ChartSpec

MARKERS = "•×◦+*#@%"
_BAR = "█"
_PARTS = " ▏▎▍▌▋▊▉"


def render_text(spec: ChartSpec, width: int = 72, height: int = 12) -> list[str]:
    width = max(30, width)
    lines = [f"{spec.title} ({spec.kind} chart)"]
    if spec.kind == "bar":
        lines += _bar(spec, width)
    elif spec.kind == "timeline":
        lines += _timeline(spec, width)
    else:
        lines += _grid(spec, width, max(4, height))
    if len(spec.series) > 1 or (spec.series and spec.series[0].name):
        lines.append("  ".join(f"{_marker(spec, n)} {s.name}" for n, s in
                               enumerate(spec.series)))
    pages = ", ".join(f"[[{p}]]" for p in spec.pages)
    if pages:
        lines.append(_cut(f"data from {pages}", width))
    return lines


def _marker(spec: ChartSpec, n: int) -> str:
    return _BAR if spec.kind == "bar" and len(spec.series) == 1 else MARKERS[n % len(MARKERS)]


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _number(value: float) -> str:
    return f"{value:.0f}" if value == int(value) and abs(value) < 1e15 else f"{value:.3g}"


def _bar(spec: ChartSpec, width: int) -> list[str]:
    rows = [(label, y, n) for n, s in enumerate(spec.series) for label, y in s.points]
    label_w = min(20, max(len(label) for label, _y, _n in rows))
    values = [y for _l, y, _n in rows]
    top = max(max(values), 0.0)
    bottom = min(min(values), 0.0)
    span = (top - bottom) or 1.0
    value_w = max(len(_number(v)) for v in values)
    room = max(5, width - label_w - value_w - 6)
    out = [f"{spec.y_label}" if spec.y_label else ""] if spec.y_label else []
    for label, y, n in rows:
        cells = abs(y) / span * room
        bar = _BAR * int(cells) + _PARTS[int((cells - int(cells)) * 8)].strip()
        mark = "" if len(spec.series) == 1 else MARKERS[n % len(MARKERS)] + " "
        sign = "-" if y < 0 else ""
        out.append(f"{_cut(label, label_w):<{label_w}} │{mark}{sign}{bar} {_number(y)}")
    return out


def _grid(spec: ChartSpec, width: int, height: int) -> list[str]:
    points = [(x, y, n) for n, s in enumerate(spec.series) for x, y in s.points]
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    label_w = max(len(_number(y0)), len(_number(y1)))
    cols = max(10, width - label_w - 3)
    grid = [[" "] * cols for _ in range(height)]

    def at(x: float, y: float) -> tuple[int, int]:
        c = 0 if x1 == x0 else round((x - x0) / (x1 - x0) * (cols - 1))
        r = 0 if y1 == y0 else round((y - y0) / (y1 - y0) * (height - 1))
        return height - 1 - r, c

    for n, series in enumerate(spec.series):
        mark = MARKERS[n % len(MARKERS)]
        ordered = sorted(series.points)
        if spec.kind == "line":
            for (xa, ya), (xb, yb) in zip(ordered, ordered[1:]):
                (ra, ca), (rb, cb) = at(xa, ya), at(xb, yb)
                steps = max(abs(cb - ca), abs(rb - ra), 1)
                for k in range(1, steps):
                    r = round(ra + (rb - ra) * k / steps)
                    c = round(ca + (cb - ca) * k / steps)
                    if grid[r][c] == " ":
                        grid[r][c] = "·"
        for x, y in ordered:
            r, c = at(x, y)
            grid[r][c] = mark
    out = [spec.y_label] if spec.y_label else []
    for i, row in enumerate(grid):
        label = _number(y1) if i == 0 else _number(y0) if i == height - 1 else ""
        out.append(f"{label:>{label_w}} ┤{''.join(row)}")
    out.append(" " * label_w + " └" + "─" * cols)
    left, right = _number(x0), _number(x1)
    axis = left + " " * max(1, cols - len(left) - len(right)) + right
    out.append(" " * (label_w + 2) + axis)
    if spec.x_label:
        out.append(" " * (label_w + 2) + _cut(spec.x_label, cols))
    return out


def _timeline(spec: ChartSpec, width: int) -> list[str]:
    events = sorted((x, shown, label, n) for n, s in enumerate(spec.series)
                    for x, label, shown in s.points)
    date_w = max(len(shown) for _x, shown, _l, _n in events)
    out = []
    for i, (_x, shown, label, n) in enumerate(events):
        rail = "┬" if i == 0 else "┴" if i == len(events) - 1 else "┼"
        rail = "●" if len(events) == 1 else rail
        mark = "" if len(spec.series) == 1 else MARKERS[n % len(MARKERS)] + " "
        out.append(_cut(f"{shown:>{date_w}} {rail} {mark}{label}", width))
    return out
