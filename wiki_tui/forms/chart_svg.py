"""A chart spec drawn to SVG with matplotlib: headless, and imported only when a chart is drawn.

matplotlib (the optional extra `charts`, ~60 MB with numpy) is never imported by the start-up
path: `render_svg` imports its Figure and SVG canvas (no pyplot, no GUI backend) the first time
it runs. The bytes are deterministic for a spec (fixed id salt, no date in the metadata), so an
unchanged spec renders the same file. Text stays text in the SVG (`svg.fonttype: none`): small,
searchable, drawn in the reader's font.
"""

from __future__ import annotations

import io

from wiki_tui.forms.chart_spec import ChartSpec

MISSING = ("drawing a chart needs matplotlib, which is not installed: install the extra "
           "(`uv tool install 'wiki-tui[charts]'`, or `uv sync --extra charts` in a checkout)")
_RC = {"svg.hashsalt": "wiki-tui", "svg.fonttype": "none", "font.size": 10,
       "axes.spines.top": False, "axes.spines.right": False}


class ChartRenderError(RuntimeError):
    """The chart could not be drawn (matplotlib missing); the message says what to do."""


def render_svg(spec: ChartSpec) -> str:
    """The chart as an SVG document (text)."""
    try:
        import matplotlib
        from matplotlib.backends.backend_svg import FigureCanvasSVG
        from matplotlib.figure import Figure
        from matplotlib.ticker import FuncFormatter, MaxNLocator
    except ImportError:
        raise ChartRenderError(MISSING) from None
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(8, 4.5))
        FigureCanvasSVG(fig)
        ax = fig.add_subplot()
        _DRAW[spec.kind](ax, spec)
        ax.set_title(spec.title)
        if spec.x_label:
            ax.set_xlabel(spec.x_label)
        if spec.y_label and spec.kind != "timeline":
            ax.set_ylabel(spec.y_label)
        if spec.dates:
            ax.xaxis.set_major_locator(MaxNLocator(nbins=8, integer=True))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:.0f}"))
        if len(spec.series) > 1 or (spec.series and spec.series[0].name):
            ax.legend(frameon=False)
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None}, bbox_inches="tight")
    return out.getvalue()


def _bar(ax, spec: ChartSpec) -> None:
    labels = list(dict.fromkeys(label for s in spec.series for label, _ in s.points))
    at = {label: i for i, label in enumerate(labels)}
    width = 0.8 / max(1, len(spec.series))
    for n, series in enumerate(spec.series):
        xs = [at[label] + (n - (len(spec.series) - 1) / 2) * width for label, _ in series.points]
        ax.bar(xs, [y for _, y in series.points], width=width, label=series.name or None)
    ax.set_xticks(range(len(labels)), labels, rotation=30 if len(labels) > 6 else 0,
                  ha="right" if len(labels) > 6 else "center")


def _line(ax, spec: ChartSpec) -> None:
    for series in spec.series:
        xs, ys = zip(*sorted(series.points))
        ax.plot(xs, ys, marker="o" if len(xs) <= 40 else None, label=series.name or None)


def _scatter(ax, spec: ChartSpec) -> None:
    for series in spec.series:
        xs, ys = zip(*series.points)
        ax.scatter(xs, ys, s=14, label=series.name or None)


def _timeline(ax, spec: ChartSpec) -> None:
    events = sorted((x, label, n) for n, s in enumerate(spec.series) for x, label, _d in s.points)
    ax.axhline(0, color="0.5", linewidth=1)
    for n, series in enumerate(spec.series):
        xs = [x for x, _label, _d in series.points]
        ax.scatter(xs, [0] * len(xs), s=30, zorder=3, label=series.name or None)
    for i, (x, label, _n) in enumerate(events):
        height = (1 + i % 3) * (1 if i % 2 == 0 else -1)
        ax.vlines(x, 0, height, color="0.6", linewidth=0.8)
        ax.annotate(label, (x, height), xytext=(0, 4 if height > 0 else -4),
                    textcoords="offset points", ha="center",
                    va="bottom" if height > 0 else "top", fontsize=8)
    ax.set_ylim(-4.5, 4.5)
    ax.yaxis.set_visible(False)
    ax.spines["left"].set_visible(False)


_DRAW = {"bar": _bar, "line": _line, "scatter": _scatter, "timeline": _timeline}
