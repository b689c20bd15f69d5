"""The footer key bar in the real app: what it shows follows the focus and the keymap, a click
presses the key, keys that do not fit are left out whole."""

from __future__ import annotations

import pytest

from tests.ui.test_app import settle, write_config
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.frame.help import HelpScreen
from wiki_tui.ui.frame.keybar import KeyBar


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def bar_text(app: WikiApp) -> str:
    return app.query_one(KeyBar).render().plain


async def test_bar_follows_the_focus(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        text = bar_text(app)
        assert text.startswith(" ⏎ Send ")  # the focused input's key comes first
        assert " ^o Jump " in text and " f1 Keys " in text
        assert text.rstrip().endswith("▏ ^p Palette")
        assert len(text) == 160  # the palette key sits at the right edge
        await pilot.press("ctrl+w")  # focus the browser
        await pilot.pause()
        text = bar_text(app)
        assert "Send" not in text and " n/p Link " in text  # next and previous share a place
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert bar_text(app).startswith(" ⏎ Send ")


async def test_bar_shows_the_keymap(git_vault):
    write_config('[ui]\nsend_key = "ctrl+j"\n[keys]\n"app.help" = "f5"\n')
    app = WikiApp(git_vault)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        text = bar_text(app)
        assert " ^j Send " in text and " f5 Keys " in text and "f1" not in text


async def test_click_presses_the_key(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        x = bar_text(app).index(" f1 Keys ") + 2
        assert await pilot.click(KeyBar, offset=(x, 0))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_narrow_bar_leaves_out_whole_keys_and_keeps_the_palette(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = bar_text(app)
        assert len(text) == 80 and text.rstrip().endswith("▏ ^p Palette")
        left = text.split("▏")[0].rstrip()
        shown = [shown.description for shown in app.query_one(KeyBar).keys]
        drawn = [d for d in shown if f" {d} " in left + " "]
        assert drawn == shown[:len(drawn)] and 0 < len(drawn) < len(shown)
        assert left.endswith(" f1 Keys")  # the key that lists the rest is never left out


async def test_hover_marks_the_key_and_shows_its_tooltip(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        bar = app.query_one(KeyBar)
        x = bar_text(app).index(" f1 Keys ") + 2
        await pilot.hover(KeyBar, offset=(x, 0))
        await pilot.pause()
        assert bar._hover is not None and bar._hover.description == "Keys"
        assert bar.tooltip == "Keys"
        hover_bg = bar.get_component_rich_style("keybar--hover").bgcolor
        drawn = bar.render()
        assert any(span.style.bgcolor == hover_bg for span in drawn.spans
                   if drawn.plain[span.start:span.end].strip() in ("f1", "Keys"))
        gap = bar_text(app).index("▏") - 3
        await pilot.hover(KeyBar, offset=(gap, 0))  # the empty middle: nothing marked
        await pilot.pause()
        assert bar._hover is None and bar.tooltip is None


def test_next_and_prev_pairs_share_a_place():
    from wiki_tui.ui.frame.keybar import ShownKey, paired

    def key(k, description):
        return ShownKey(k, k, description, True, description)

    keys = [key("enter", "Apply"), key("j", "Next file"), key("n", "Next hunk"),
            key("k", "Prev file"), key("p", "Prev hunk"), key("x", "Prev page")]
    assert [(k.display, k.description) for k in paired(keys)] == [
        ("enter", "Apply"), ("j/k", "File"), ("n/p", "Hunk"), ("x", "Prev page")]


@pytest.mark.parametrize("width", [40, 60, 80, 120])
async def test_the_help_key_is_always_on_the_bar(git_vault, width):
    app = WikiApp(git_vault)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        text = bar_text(app)
        assert " f1 Keys " in text + " " and len(text) == width
