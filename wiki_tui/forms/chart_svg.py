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


MANY_BARS = 150  # above this, bars are drawn as one collection
MAX_LABELS = 40  # bar labels and timeline events written out; the rest are drawn unlabelled
MAX_BAR_LABELS = 20  # labels under a bar chart of more bars than MAX_LABELS (every n-th bar)


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
        fig = Figure(figsize=(_FIG_W, _FIG_H))
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
            # "best" tries every place against every point: seconds for thousands of them
            ax.legend(frameon=False, loc="best" if spec.points <= 200 else "upper right")
        _fit_margins(fig, spec)
        out = io.StringIO()
        fig.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


_FIG_W, _FIG_H = 8.0, 4.5  # inches
_CHAR_IN = 10 * 0.6 / 72  # the width of a character at 10 pt, in inches (about)
LABEL_CHARS = 24  # bar labels longer than this are cut with "…"


def _fit_margins(fig, spec: ChartSpec) -> None:
    """Margins worked out from the spec's words instead of a layout pass: matplotlib's tight
    layout draws the whole figure once more to measure it (a third to half of the render)."""
    left = 0.25 if spec.kind == "timeline" else 0.75 + (0.3 if spec.y_label else 0.0)
    bottom = 0.45 + (0.25 if spec.x_label else 0.0)
    if spec.kind == "bar":
        labels = {label for s in spec.series for label, _ in s.points}
        longest = max((len(_cut(str(label))) for label in labels), default=0)
        rotated = min(len(labels), MAX_LABELS) > 6
        if rotated:  # at 30°: half the label's length goes down
            bottom += longest * _CHAR_IN * 0.5
    top = 0.45 if spec.title else 0.2
    fig.subplots_adjust(left=left / _FIG_W, right=1 - 0.2 / _FIG_W,
                        bottom=min(0.45, bottom / _FIG_H), top=1 - top / _FIG_H)


def _cut(label: str) -> str:
    return label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"


def _bar(ax, spec: ChartSpec) -> None:
    labels = list(dict.fromkeys(label for s in spec.series for label, _ in s.points))
    at = {label: i for i, label in enumerate(labels)}
    width = 0.8 / max(1, len(spec.series))
    for n, series in enumerate(spec.series):
        xs = [at[label] + (n - (len(spec.series) - 1) / 2) * width for label, _ in series.points]
        ys = [y for _, y in series.points]
        if len(labels) <= MANY_BARS:
            ax.bar(xs, ys, width=width, label=series.name or None)
        else:  # one patch per bar costs seconds for thousands: one collection of lines
            ax.vlines(xs, 0, ys, linewidth=max(0.5, 300 / len(labels)),
                      label=series.name or None, color=f"C{n}")
    most = MAX_LABELS if len(labels) <= MAX_LABELS else MAX_BAR_LABELS  # slanted ones fit fewer
    step = max(1, -(-len(labels) // most))  # a label for every step-th bar at most
    shown = range(0, len(labels), step)
    ax.set_xticks(list(shown), [_cut(str(labels[i])) for i in shown],
                  rotation=30 if len(shown) > 6 else 0, ha="right" if len(shown) > 6 else "center")


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
    step = max(1, -(-len(events) // MAX_LABELS))  # a label for every step-th event at most
    labelled = events[::step]
    heights = [(1 + i % 3) * (1 if i % 2 == 0 else -1) for i in range(len(labelled))]
    ax.vlines([x for x, _l, _n in labelled], 0, heights, color="0.6", linewidth=0.8)
    for (x, label, _n), height in zip(labelled, heights):
        ax.annotate(label, (x, height), xytext=(0, 4 if height > 0 else -4),
                    textcoords="offset points", ha="center",
                    va="bottom" if height > 0 else "top", fontsize=8)
    ax.set_ylim(-4.5, 4.5)
    ax.yaxis.set_visible(False)
    ax.spines["left"].set_visible(False)


_DRAW = {"bar": _bar, "line": _line, "scatter": _scatter, "timeline": _timeline}
