"""HistoryScreen on a real git vault: log.md entries with their commits, open a page, undo."""

from __future__ import annotations

from rich.console import Console

from tests.conftest import git
from tests.ui.conftest import DEAD, MAYER, NEW, ReviewHost, make_changeset, read, wait_for
from wiki_tui.changes.apply.journal import apply_changeset
from wiki_tui.ui.review import ConfirmScreen, HistoryScreen
from wiki_tui.ui.review.history_data import parse_log

SIZE = (120, 36)


def status(app) -> str:
    return str(app.screen.query_one("#history-status").render())


def plain(renderable) -> str:
    console = Console(width=100, color_system=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def applied(vault):
    changeset = make_changeset(vault)
    changeset.accept_all()
    return apply_changeset(vault, changeset, date="2026-11-21")


def test_parse_log_entries_and_targets():
    text = ("# Log\n\n## [2026-11-20] ingest | A source\n- created: [[sources/A|A]], [[B]]\n"
            "- deleted: old/page.md\n- renamed: [[old/Name]] → [[new/Name]]\n"
            "- rejected: concepts/Q.md\n\n## [2026-11-21] undo | A source\n- deleted: B.md\n")
    entries = parse_log(text)
    assert [(e.date, e.operation, e.title) for e in entries] == [
        ("2026-11-20", "ingest", "A source"), ("2026-11-21", "undo", "A source")]
    assert entries[0].targets == ["sources/A", "B", "new/Name"]
    assert entries[1].targets == []


async def test_history_lists_entries_newest_first_with_commits(git_vault, open_vault):
    vault = open_vault(git_vault)
    result = applied(vault)
    app = ReviewHost(lambda: HistoryScreen(vault))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.history is not None)
        history = app.screen.history
        newest = history.entries[0]
        assert (newest.date, newest.operation, newest.title) == \
            ("2026-11-21", "instruct", "Tidy navigation pages")
        assert newest.commit is not None and newest.commit.sha == result.commit
        assert history.entries[-1].title == "John Harrison and the Sea Clocks"
        first = plain(app.screen.entries_list.get_option_at_index(0).prompt)
        assert "Tidy navigation pages" in first and result.commit[:7] in first
        assert "created: Sandglass" in first and "updated: Dead reckoning, Tobias Mayer" in first
        assert "u undoes “Tidy navigation pages”" in status(app)
        pages = [str(app.screen.pages_list.get_option_at_index(i).prompt)
                 for i in range(app.screen.pages_list.option_count)]
        assert pages == [NEW, DEAD, MAYER]
        await pilot.press("enter")  # opens the entry's first page
        await wait_for(pilot, lambda: app.results)
    assert app.results == [NEW]


async def test_undo_with_confirmation_reverts_disk_and_git(git_vault, open_vault):
    vault = open_vault(git_vault)
    before = read(git_vault, DEAD)
    result = applied(vault)
    assert read(git_vault, DEAD) != before
    app = ReviewHost(lambda: HistoryScreen(vault))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.history is not None)
        history_screen = app.screen
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")  # cancelled: nothing happens
        await wait_for(pilot, lambda: app.screen is history_screen)
        assert "Undo cancelled" in status(app)
        assert git(git_vault, "rev-parse", "HEAD").strip() == result.commit
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: "Undone “Tidy navigation pages”" in status(app))
        await wait_for(pilot, lambda: history_screen.history.entries[0].operation == "undo")
        assert history_screen.history.entries[1].commit.undone
    assert read(git_vault, DEAD) == before
    assert not (git_vault / NEW).exists()
    message = git(git_vault, "log", "-1", "--format=%B")
    assert message.startswith("undo: Tidy navigation pages")
    assert f"Wiki-Tui-Reverts: {result.commit}" in message
    assert "] undo | Tidy navigation pages" in read(git_vault, "log.md")
    assert git(git_vault, "status", "--porcelain") == ""


async def test_undo_refusal_shows_its_reason(git_vault, open_vault):
    vault = open_vault(git_vault)  # only the initial commit: not made by wiki-tui
    app = ReviewHost(lambda: HistoryScreen(vault))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.history is not None)
        assert "nothing wiki-tui made is left to undo" in status(app)
        await pilot.press("u")  # no confirmation: the journal says why
        await wait_for(pilot, lambda: "Not undone" in status(app))
        assert "was not made by wiki-tui" in status(app)
    assert git(git_vault, "status", "--porcelain") == ""


async def test_history_without_git_lists_log_and_undo_explains(sample_vault, open_vault):
    vault = open_vault(sample_vault)
    app = ReviewHost(lambda: HistoryScreen(vault))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.screen.history is not None)
        entries = app.screen.history.entries
        # sample_vault's log.md: four ingests, one instruct, one save (the answer forms)
        assert [e.operation for e in entries].count("ingest") == 4
        assert len(entries) == 6 and {e.operation for e in entries} == {"ingest", "instruct", "save"}
        assert all(e.commit is None for e in app.screen.history.entries)
        await pilot.press("u")
        await wait_for(pilot, lambda: "Not undone" in status(app))
        assert "not a git repository" in status(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.results)
    assert app.results == [None]
