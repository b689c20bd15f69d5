"""The review of each form, in the real review screen: the file title says what the file is and
`v` shows it as a person reads it — a deck slide by slide (→/← step), a chart drawn as text (on
the page and on its SVG), a canvas as its files, claims and relations; esc goes back."""

from __future__ import annotations

import pytest

from tests.support.forms import REPLIES
from tests.ui.conftest import ReviewHost, make_changeset, wait_for
from wiki_tui.ui.review import ReviewScreen
from wiki_tui.ui.review.form_preview import FormPreviewScreen


def shown(app) -> str:
    screen = app.screen
    return "\n".join(str(screen.query_one(f"#preview-{part}").render())
                     for part in ("title", "body", "keys"))


def title(app) -> str:
    return str(app.screen.query_one("#review-file-title").render())


@pytest.fixture
def review(git_vault, open_vault):
    def _make(form: str):
        vault = open_vault(git_vault)
        changeset = make_changeset(vault, REPLIES[form], title="How did H4 do at sea?")
        return ReviewHost(lambda: ReviewScreen(vault, changeset, grace=0)), changeset

    return _make


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_deck_is_reviewed_slide_by_slide(review, size):
    app, changeset = review("slides")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert "Marp deck, 3 slides" in title(app)
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, FormPreviewScreen))
        assert "Slide 1 of 3" in shown(app) and "# H4 at sea" in shown(app)
        await pilot.press("right")
        assert "Slide 2 of 3" in shown(app) and "5.1 seconds slow" in shown(app)
        assert "---" not in str(app.screen.query_one("#preview-body").render())
        await pilot.press("right", "right")
        assert "Slide 3 of 3" in shown(app) and "## Sources" in shown(app)
        await pilot.press("left")
        assert "Slide 2 of 3" in shown(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen))
        await pilot.press("a")  # the review's keys are the review's again
        assert changeset.files[0].status == "accepted"


async def test_a_chart_is_drawn_as_text_on_its_page_and_on_its_svg(review):
    app, changeset = review("chart")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert [f.path for f in changeset.files] == ["answers/H4 error.md",
                                                     "attachments/H4 error.svg"]
        assert "chart · v views it" in title(app)
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, FormPreviewScreen))
        text = shown(app)
        assert "Seconds H4 lost per trial (bar chart)" in text
        assert "Jamaica  │" in text and "█" in text and "data from [[H4]]" in text
        await pilot.press("escape", "j")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen)
                       and app.screen.cursor == 1)
        assert "chart drawn from answers/H4 error.md" in title(app)
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, FormPreviewScreen))
        assert "Chart of answers/H4 error.md (line 9)" in shown(app)


async def test_a_canvas_is_read_as_files_claims_and_relations(review):
    app, _changeset = review("canvas")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, FormPreviewScreen))
        text = shown(app)
        assert "Canvas: 3 nodes, 2 edges" in text
        assert "▣ entities/H4.md" in text and "❝ 5.1 s slow in Jamaica" in text
        assert "John Harrison —built→ H4" in text


async def test_a_plain_page_has_no_view(review):
    app, _changeset = review("table")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)


@pytest.mark.parametrize("form", ["slides", "chart", "canvas"])
async def test_every_review_key_is_on_the_bar_at_80x24_with_v_for_a_form(review, form):
    """The key bar's two rows hold every key the review shows, `v` (a form's view) and `?` too."""
    from wiki_tui.ui.frame.keybar import KeyBar

    app, _changeset = review(form)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        text = bar.render().plain
        assert bar.size.height == 2 and " v View " in text and " ? Keys" in text
        shown = [*bar.keys, bar.help_key]
        assert [k.description for k in shown] == [
            "Apply", "Accept", "Reject", "Hunk", "Accept all", "Reject all", "Leave", "File",
            "Hunk", "Edit", "Split", "View", "Keys"]
        for key in shown:  # none left out for want of room
            assert f" {key.display} {key.description} " in text + " ", key
