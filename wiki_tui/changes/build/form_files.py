"""The form files of a changeset: checked before review, and a chart's SVG drawn beside its page.

- A `.canvas` the model writes must be JSON Canvas 1.0 (forms/canvas.py), and its file nodes
  must name files of the vault (or files the same changeset creates).
- A page whose ```chart block is new or changed: the spec is checked (refused naming the line;
  the pages its series name must be pages of the wiki), then drawn to SVG by the program
  (forms/chart_svg.py; matplotlib is imported only here, only then) at the spec's `file` or
  attachments/<page>.svg. The page embeds it (`![[attachments/X.svg]]` is added under the
  block when missing) and the SVG joins the changeset as a file of its own, marked
  `rendered_from` the page: shown in the review, applied, committed and undone with the page.
  Its own accept or reject does not count: at apply (`follow_pages`) it follows the page,
  drawn again from the page's accepted text when only some of the page's hunks are accepted.

A refusal is an EditError (kind "guard") sent back to the model, its file left out of the
changeset, like any edit that cannot be used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from wiki_tui.changes.build import guards
from wiki_tui.changes.model import ACCEPTED, CREATE, DELETE, MODIFY, Changeset, FileChange
from wiki_tui.changes.reply.path_rules import GuardError
from wiki_tui.forms.canvas import CanvasError, check_canvas
from wiki_tui.forms.chart_spec import (ChartBlock, ChartError, ChartSpec, default_file,
                                       find_chart_blocks, parse_spec)

RENDERED_NOTE = ("drawn by wiki-tui from the chart spec on line {line} of {page} (the spec is "
                 "what you review; this SVG is written with that page, as much as its spec is "
                 "accepted)")


class Chart(NamedTuple):
    block: ChartBlock
    spec: ChartSpec
    file: str  # the SVG's vault path


def page_charts(path: str, text: str) -> list[Chart]:
    """The charts of a page with the SVG each is drawn to. Raises ChartError for a bad spec."""
    charts = []
    for index, block in enumerate(find_chart_blocks(text)):
        if not block.closed:
            raise ChartError(block.line, "the ```chart block is not closed (end it with ```)")
        spec = parse_spec(block.body, block.first_line)
        charts.append(Chart(block, spec, spec.file or default_file(path, index)))
    return charts


def complete_forms(vault: Any, changes: list[FileChange]
                   ) -> tuple[list[FileChange], list[tuple[str, str]]]:
    """(`changes` with refused form files taken out and the SVG of every new or changed chart
    added after its page, the refusals as (path, message))."""
    refused: list[tuple[str, str]] = []
    root = Path(vault.root)
    made = {fc.path for fc in changes if fc.proposed_text is not None}
    gone = {fc.path for fc in changes if fc.proposed_text is None}
    out: list[FileChange] = []
    for fc in changes:
        if fc.proposed_text is None or fc.rendered_from:
            out.append(fc)
            continue
        try:
            if fc.path.lower().endswith(".canvas"):
                _check_canvas(root, fc, made, gone)
                out.append(fc)
            elif fc.path.lower().endswith(".md"):
                charts = _charts(vault, root, fc, made)
                out.append(fc)
                out.extend(charts)
            else:
                out.append(fc)
        except (CanvasError, ChartError, GuardError) as exc:
            message = str(exc) if isinstance(exc, GuardError) else f"{fc.path}: {exc}"
            refused.append((fc.path, message))
    return out, refused


def _check_canvas(root: Path, fc: FileChange, made: set[str], gone: set[str]) -> None:
    canvas = check_canvas(fc.proposed_text or "")
    missing = [f for f in canvas.files
               if f in gone or (f not in made and not _is_file(root, f))]
    if missing:
        raise CanvasError(f"file node(s) name files that are not in the vault: "
                          f"{', '.join(missing[:5])}; a file node names an existing page by "
                          "its path from the vault root, with its extension "
                          "(entities/H4.md)")


def _is_file(root: Path, path: str) -> bool:
    try:
        return (root / path).is_file()
    except OSError:
        return False


def _charts(vault: Any, root: Path, fc: FileChange, made: set[str]) -> list[FileChange]:
    """The SVG changes of the page's new or changed charts (its text gets their embeds)."""
    text = fc.proposed_text or ""
    if "chart" not in text:
        return []
    charts = page_charts(fc.path, text)
    if not charts:
        return []
    before = set()
    if fc.base_text:
        try:
            before = {c.block.body for c in page_charts(fc.path, fc.base_text)}
        except ChartError:  # the page had a broken spec: every chart of it is new
            pass
    new = [c for c in charts if c.block.body not in before]
    for chart in new:
        _check_pages(vault, chart, made)
    files = [c.file for c in charts]
    if len(set(files)) < len(files):
        raise ChartError(charts[0].block.line, "two charts of the page are drawn to the same "
                         "file; give each its own `file`")
    for chart in new:
        guards.check_path(root, chart.file, rendered=True)
    embedded = with_embeds(text, charts)
    if embedded != text:
        fc.proposed_text = embedded
        fc.rediff()
        fc.repairs.append("added the embed of each chart's SVG under its spec")
    out = []
    for chart in new:
        svg = draw(chart.spec, fc)
        if svg is None:
            continue
        base = _svg_on_disk(root, chart.file)
        if base == svg:
            continue
        rendered = FileChange(chart.file, CREATE if base is None else MODIFY, base, svg,
                              rendered_from=fc.path)
        rendered.repairs.append(RENDERED_NOTE.format(line=chart.block.line, page=fc.path))
        out.append(rendered)
    return out


def _check_pages(vault: Any, chart: Chart, made: set[str]) -> None:
    resolve = getattr(vault, "resolve", None)
    for name in chart.spec.pages:
        target = resolve(name) if resolve is not None else None
        if target is None and not any(p.rsplit("/", 1)[-1].removesuffix(".md").casefold()
                                      == name.rsplit("/", 1)[-1].casefold() for p in made):
            raise ChartError(chart.block.line, f"the chart's data cites [[{name}]], which is no "
                             "page of the wiki; cite the pages the numbers come from")


def _svg_on_disk(root: Path, path: str) -> str | None:
    try:
        return (root / path).read_bytes().decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise GuardError(path, "a file that is not text is already at this path; name "
                                "another `file` for the chart") from None


def draw(spec: ChartSpec, page: FileChange | None = None) -> str | None:
    """The spec's SVG; None (a warning on the page) when matplotlib is missing."""
    from wiki_tui.forms.chart_svg import ChartRenderError, render_svg

    try:
        return render_svg(spec)
    except ChartRenderError as exc:
        if page is not None and str(exc) not in page.warnings:
            page.warnings.append(f"the chart was not drawn: {exc}")
        return None


def with_embeds(text: str, charts: list[Chart]) -> str:
    """The page with `![[file]]` under each chart block that the page does not embed yet."""
    out, pos = [], 0
    for chart in charts:
        if f"![[{chart.file}" in text:
            continue
        end = chart.block.end
        out.append(text[pos:end])
        newline = "" if text[:end].endswith("\n") else "\n"
        out.append(f"{newline}\n![[{chart.file}]]\n")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def follow_pages(changeset: Changeset) -> None:
    """Before an apply: each drawn SVG takes its page's decision. Written when the page is
    accepted whole; drawn again from the accepted text when only some hunks are; rejected when
    the page is rejected, in conflict, or its accepted text no longer draws to this file."""
    for fc in changeset.files:
        if not fc.rendered_from:
            continue
        page = changeset.file(fc.rendered_from)
        if page is None or page.status != ACCEPTED or page.kind == DELETE:
            fc.reject()
            continue
        accepted = page.result_text() or ""
        if accepted == page.proposed_text:
            fc.accept()
            continue
        try:
            chart = next((c for c in page_charts(page.path, accepted) if c.file == fc.path), None)
        except ChartError:
            chart = None
        svg = draw(chart.spec) if chart is not None else None
        if svg is None or svg == fc.base_text:
            fc.reject()
            continue
        fc.proposed_text = svg
        fc.rediff()
        fc.accept()
