"""The side-by-side diff: a created file takes the full width, and a row whose other side wraps
longer shows nothing (not a continuation mark) on its short side."""

from __future__ import annotations

from tests.ui.conftest import DEAD, NEW, ReviewHost, make_changeset, wait_for
from wiki_tui.ui.review import ReviewScreen

SHORTER = f"""@@@ EDIT {DEAD}
@@@ SEARCH
The navigator starts from a known position and estimates the new one from the course steered,
@@@ REPLACE
Short.
@@@ END
"""


def screen_lines(diff) -> list[str]:
    return [diff.render_line(y).text for y in range(diff.scrollable_content_region.height)]


async def open_review(pilot, app) -> ReviewScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.armed)
    return app.screen


async def test_created_file_is_shown_full_width_side_by_side(git_vault, open_vault):
    vault = open_vault(git_vault)
    changeset = make_changeset(vault)
    app = ReviewHost(lambda: ReviewScreen(vault, changeset, grace=0))
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_review(pilot, app)
        assert screen.split
        while screen.current.path != NEW:
            await pilot.press("j")
        await pilot.pause()
        diff = screen.diff
        assert diff.split and not diff.side_by_side
        lines = screen_lines(diff)
        body = next(line for line in lines if "Timed the run of the log line" in line)
        assert body.index("Timed") < 20  # from the left edge, not in the right half
        assert not any("│" in line for line in lines)
        await pilot.press("k")  # back to a modified file: side by side again
        await pilot.pause()
        assert diff.side_by_side


async def test_short_side_of_a_wrapped_row_is_blank(git_vault, open_vault):
    vault = open_vault(git_vault)
    changeset = make_changeset(vault, SHORTER)
    app = ReviewHost(lambda: ReviewScreen(vault, changeset, grace=0))
    async with app.run_test(size=(160, 40)) as pilot:
        screen = await open_review(pilot, app)
        await pilot.pause()
        lines = screen_lines(screen.diff)
        first = next(i for i, line in enumerate(lines) if "Short." in line)
        left, right = lines[first + 1].split("│", 1)
        assert "↪" in left  # the long old line goes on
        assert right.strip() == ""  # nothing continues on the new side
