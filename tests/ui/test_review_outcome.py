"""The review opens with what the changeset does to the wiki: the title counts the files an
invariant holds, the notes column names each breach of the focused file, and a declared one is
shown with the reply's reason (the real screen, driven by a Pilot)."""

from __future__ import annotations

from textual.widgets import Static

from tests.ui.conftest import ReviewHost, make_changeset, wait_for
from wiki_tui.ui.review import ReviewScreen

H4 = "entities/H4.md"
MC = "concepts/Marine chronometer.md"
RENAME_HEADING = (f"@@@ EDIT {MC}\n@@@ SEARCH\n## Trials at sea\n@@@ REPLACE\n## Sea trials\n"
                  "@@@ END\n")
NEW_SECTION = (f"@@@ EDIT {H4}\n@@@ SEARCH\n## Copies\n@@@ REPLACE\n## Care\n\nCleaned after "
               "each trial ([[John Harrison and the Sea Clocks]]).\n\n## Copies\n@@@ END\n")


def _text(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def _visible_rows_before(screen, needle: str) -> int | None:
    """The row of the notes column where `needle` starts, if it is within the rows shown."""
    static = screen.query_one("#review-notes-text", Static)
    rows = static.render().wrap(static.content_region.width)
    shown = screen.query_one("#review-notes").content_region.height
    for i, row in enumerate(rows[:shown]):
        if needle in row.plain:
            return i
    return None


async def test_a_held_change_is_named_at_the_top_and_per_file(git_vault, open_vault):
    vault = open_vault(git_vault)
    changeset = make_changeset(vault, NEW_SECTION + RENAME_HEADING)
    app = ReviewHost(lambda: ReviewScreen(vault, changeset, grace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert "⚑ 1 held" in _text(screen, "#review-title")
        notes = _text(screen, "#review-notes-text")
        assert "What it does" in notes and "2 modified" in notes
        assert "⚑ " not in notes  # the new section breaks nothing; the heading's link is charged
        await pilot.press("j")
        await wait_for(pilot, lambda: screen.cursor == 1)
        notes = _text(screen, "#review-notes-text")
        assert "⚑ links" in notes and "Trials at sea" in notes and H4 in notes
        assert _visible_rows_before(screen, "⚑ links") is not None  # on screen, not scrolled off


async def test_a_declared_change_shows_its_reason_and_holds_nothing(git_vault, open_vault):
    vault = open_vault(git_vault)
    reply = f"Intended: {MC} — the person renamed the section\n" + RENAME_HEADING
    changeset = make_changeset(vault, reply)
    app = ReviewHost(lambda: ReviewScreen(vault, changeset, grace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert "held" not in _text(screen, "#review-title")
        notes = _text(screen, "#review-notes-text")
        assert "declared: the person renamed the section" in notes
