"""Every style the review, the findings and the browser draw is readable in every shipped theme:
4.5:1 (7:1 in wiki-high-contrast), in truecolor and after the 256-colour mapping.

The pairs are read off the real app (benchmarks/contrast.py walks it; wiki_tui/ui/frame/contrast.py
reads the composed screen and every widget's component classes), so a style added to a .tcss
file or a widget is checked without being listed here.
"""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from benchmarks.contrast import shipped_themes, threshold, walk
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.frame.contrast import Pair, component_pairs, contrast_ratio, screen_pairs, to_256


@pytest.fixture(autouse=True)
def _env(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "truecolor")


def test_ratio_and_256_mapping_follow_wcag_and_rich():
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    assert to_256((0, 0x3a, 0)) == (0, 0x5f, 0)  # Rich's nearest palette colour


class Faint(App[None]):
    CSS = """
    Static { background: #1c1c1c; color: #3a3a3a; }
    Static > .faint--mark { color: #262626; }
    """

    def compose(self) -> ComposeResult:
        yield Faint.Widget("barely there")

    class Widget(Static):
        COMPONENT_CLASSES = {"faint--mark"}


async def test_collector_reads_styles_from_the_css_and_the_screen():
    app = Faint()
    async with app.run_test(size=(30, 3)) as pilot:
        await pilot.pause()
        drawn = screen_pairs(app)
        components = component_pairs(app)
    assert any(p.sample == "barely there" and p.fg == (0x3a, 0x3a, 0x3a)
               and p.bg == (0x1c, 0x1c, 0x1c) for p in drawn)
    assert any(p.where.endswith(".faint--mark") and p.fg == (0x26, 0x26, 0x26)
               for p in components)


async def test_every_style_passes_in_every_theme(git_vault):
    themes = shipped_themes()
    assert {"wiki-dark", "wiki-light", "wiki-high-contrast"} <= set(themes)
    found = await walk(WikiApp(git_vault), themes)
    for name, pairs in found.items():
        wheres = {p.where for p in pairs}
        # the walk saw what it is meant to check
        assert any("DiffView" in w and "emphasis" in w for w in wheres), name
        assert any("diff-view--added-word" in w for w in wheres), name
        assert any(w.startswith("FindingsScreen") for w in wheres), name
        assert any("PageView" in w and "page-view--link" in w for w in wheres), name
        assert any("BacklinksPanel" in w for w in wheres), name
        need = threshold(name)
        low = sorted((round(p.ratio, 2), round(p.ratio_256, 2), p.where, p.sample)
                     for p in pairs if min(p.ratio, p.ratio_256) < need)
        assert not low, f"{name}: below {need}:1: {low}"


def test_pair_ratios_use_both_colour_systems():
    pair = Pair("x", (0x87, 0xd7, 0x87), (0x00, 0x3a, 0x00))
    assert pair.ratio > 7 > pair.ratio_256 > 4.5  # #003a00 shows as #005f00 in 256 colours
