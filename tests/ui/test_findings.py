"""Lint findings in the app: the note, the findings screen, opening a finding's page, dismissing
it for good (dismissed.json, left out of the next run), and contradiction evidence quoted.

The real WikiApp on real vaults with the offline engine; a model finding (which the offline
engine never produces) is fed through the real presenter as the `Findings` event lint emits.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.ui.test_app import settle
from tests.ui.test_app_operations import notes, until
from tests.ui.conftest import drain, still_cursor
from wiki_tui.agent import events as ev
from wiki_tui.agent.tasks.dismissed import finding_id
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.findings import FindingsScreen, split_evidence
from wiki_tui.ui.chat.prompt import PromptInput

BROKEN_PAGE = "entities/Board of Longitude.md"  # sample_vault: [[Board of Longitude Minutes]]


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("TEXTUAL_COLOR_SYSTEM", "truecolor")


CONTRADICTION = ev.LintItem(
    finding_id("contradiction", "entities/H4.md", "The pages disagree on when H4 was finished.",
               'H4 was completed in 1759, after six years of work." vs "Harrison finished H4 '
               'only in 1761'),
    "contradiction", "entities/H4.md", "The pages disagree on when H4 was finished.",
    evidence='H4 was completed in 1759, after six years of work." vs "Harrison finished H4 only '
             'in 1761', source="model")


def feed_lint(app: WikiApp, items, dismissed: int = 0) -> None:
    """What a lint run without fixes emits, through the app's own presenter."""
    from wiki_tui.ui.chat.presenter import EventPresenter

    presenter = EventPresenter(app.conversation, "lint")
    for event in (ev.Started("lint", "lint", "offline", True),
                  ev.Findings(tuple(items), dismissed), ev.Done()):
        presenter.handle(event)


def structural_items(vault) -> list[ev.LintItem]:
    from wiki_tui.agent.operations import structural_item

    return [structural_item(f) for f in vault.lint()]


def findings_shown(app) -> bool:
    """The findings screen is up and composed (pushing it comes a frame before its list)."""
    return isinstance(app.screen, FindingsScreen) and bool(app.screen.query("#findings-list"))


def rows(screen: FindingsScreen) -> list[str]:
    listing = screen.findings_list
    return [f"{screen.report.items[i].code} {screen.report.items[i].path}"
            for i in range(listing.option_count)]


def detail(screen: FindingsScreen) -> list[tuple[str, str]]:
    """(classes, text) of each part of the focused finding's detail."""
    from textual.widgets import Static

    return [(" ".join(sorted(w.classes)), str(w.render()))
            for w in screen.query_one("#findings-detail").query(Static)]


def lint_notes(app) -> list[str]:
    return [n for n in notes(app) if re.match(r"lint: (\d+ finding|no findings)", n)]


async def leave_review(pilot) -> None:
    from wiki_tui.ui.review import ReviewScreen

    from wiki_tui.ui.review.pending import PendingScreen

    app = pilot.app
    before = len(app.pending_changesets)
    await until(pilot, lambda: isinstance(app.screen, ReviewScreen)
                or len(app.pending_changesets) > before, 90)
    if not isinstance(app.screen, ReviewScreen):  # keys were pressed just before: announced
        await pilot.press("ctrl+r")
        await until(pilot, lambda: isinstance(app.screen, (ReviewScreen, PendingScreen)), 90)
        if isinstance(app.screen, PendingScreen):  # several pending: the newest is highlighted
            await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), 90)
    await until(pilot, lambda: app.screen.armed)  # keys count after its grace period
    await pilot.press("escape")
    await until(pilot, lambda: not isinstance(app.screen, ReviewScreen), 90)


async def test_lint_notes_findings_keeps_the_review_and_f4_lists_them(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        app.submit("/lint")
        await leave_review(pilot)  # the fixes' review opens as before; findings wait
        note = lint_notes(app)[-1]
        assert note.startswith("lint: 5 findings (1 broken-link, 1 alias-link, 3 ambiguous-link)")
        assert note.endswith("f4 lists them")
        assert not isinstance(app.screen, FindingsScreen)

        await pilot.press("f4")
        await until(pilot, lambda: findings_shown(app), 90)
        screen = app.screen
        assert rows(screen)[0] == f"broken-link {BROKEN_PAGE}"
        errors = [r for r in rows(screen) if r.split()[0] not in ("question", "data-gap")]
        assert len(errors) == 5 and rows(screen)[:5] == errors  # suggestions come after
        assert "suggestions to look into" in note
        shown = detail(screen)
        assert any("[[Board of Longitude Minutes]]: no page" in text for _c, text in shown)
        # a structural finding quotes its page line; the suggestion is shown
        assert any("finding-quote" in c and "[[Board of Longitude Minutes]]" in text
                   for c, text in shown)
        assert any("finding-suggestion" in c and "[[entities/Board of Longitude]]" in text
                   for c, text in shown)

        await pilot.press("j", "G", "g")  # moves; g is back on the first
        assert screen.focused_item.code == "broken-link"
        await pilot.press("enter")
        await until(pilot, lambda: not isinstance(app.screen, FindingsScreen), 90)
        browser = app.query_one("#browser")
        await until(pilot, lambda: browser.current_path == BROKEN_PAGE, 90)


async def lint_and_open_findings(pilot) -> FindingsScreen:
    """/lint on the settled app, leave the review of fixes, F4: the findings screen."""
    app = pilot.app
    await settle(pilot)
    app.submit("/lint")
    await leave_review(pilot)
    await pilot.press("f4")
    await until(pilot, lambda: findings_shown(app), 90)
    return app.screen


async def test_dismiss_is_recorded_and_left_out_of_the_next_run(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await lint_and_open_findings(pilot)
        broken = screen.focused_item
        assert broken.code == "broken-link"

        await pilot.press("d")
        await until(pilot, lambda: broken.id in screen.report.dismissed_now, 90)
        recorded = json.loads((git_vault / ".wiki-tui" / "dismissed.json").read_text())
        assert recorded["dismissed"][broken.id]["path"] == BROKEN_PAGE
        assert recorded["dismissed"][broken.id]["code"] == "broken-link"
        assert screen.focused_item is not broken  # on to the next finding still open
        assert "1 dismissed now" in str(screen.query_one("#findings-title").render())
        await pilot.press("k")
        assert any("finding-dismissed" in c for c, _t in detail(screen))

        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, FindingsScreen), 90)
        assert isinstance(app.focused, PromptInput) or app.screen is app.screen_stack[0]

        app.submit("/lint")
        await leave_review(pilot)
        second = lint_notes(app)[-1]
        assert second.startswith("lint: 4 findings (1 alias-link, 3 ambiguous-link)")
        assert "1 dismissed earlier" in second
        await pilot.press("f4")
        await until(pilot, lambda: findings_shown(app), 90)
        assert all(not r.startswith("broken-link") for r in rows(app.screen))
        assert "1 dismissed earlier" in str(app.screen.query_one("#findings-title").render())


async def test_d_again_takes_a_dismissal_back(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await lint_and_open_findings(pilot)
        broken = screen.focused_item
        await pilot.press("d")
        await until(pilot, lambda: broken.id in screen.report.dismissed_now, 90)
        await pilot.press("k")  # back on it
        assert screen.focused_item is broken
        await pilot.press("d")
        await until(pilot, lambda: broken.id not in screen.report.dismissed_now, 90)
        recorded = json.loads((git_vault / ".wiki-tui" / "dismissed.json").read_text())
        assert broken.id not in recorded["dismissed"]
        assert "dismissed" not in str(screen.query_one("#findings-title").render())
        assert not any("finding-dismissed" in c for c, _t in detail(screen))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, FindingsScreen), 90)

        app.submit("/lint")
        await leave_review(pilot)
        assert "1 broken-link" in lint_notes(app)[-1]  # reported again


async def test_lint_without_fixes_opens_the_findings_by_itself(tiny_vault):
    root = tiny_vault({
        "concepts/Alpha.md": "---\ntitle: Alpha\ntype: concept\nsummary: The first.\n---\n"
                             "# Alpha\n\nSee [[Beta]] and [[Quasar drift engine]].\n",
        "concepts/Beta.md": "---\ntitle: Beta\ntype: concept\nsummary: The second.\n---\n"
                            "# Beta\n\nBack to [[Alpha]].\n",
    })
    app = WikiApp(root)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.submit("/lint")
        await until(pilot, lambda: findings_shown(app), 90)
        assert app.pending_changesets == []
        screen = app.screen
        assert rows(screen) == ["broken-link concepts/Alpha.md"]
        assert screen.focused_item.line == 8
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, FindingsScreen), 90)
        await pilot.press("f4")  # the same findings again
        await until(pilot, lambda: findings_shown(app), 90)
        await pilot.press("f4")  # and the same key closes them
        await until(pilot, lambda: not isinstance(app.screen, FindingsScreen), 90)


async def test_no_findings_is_one_line_and_the_palette_says_so(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        feed_lint(app, [], dismissed=2)
        await drain(pilot)
        assert "lint: no findings · 2 dismissed earlier" in notes(app)
        assert not isinstance(app.screen, FindingsScreen)
        palette = {title: callback for title, _help, callback in app.palette_actions()}
        palette["Lint findings"]()
        await drain(pilot)
        assert not isinstance(app.screen, FindingsScreen)  # nothing to list: a notification


# Both claims are on pages of sample_vault (written as a model quotes them: links as their text).
ON_H4 = "The fourth and decisive timekeeper of John Harrison, completed in 1759"
ON_SOURCE = "H4 was completed in 1759; on the 1761-62 trial to Jamaica it was 5.1 seconds slow"
SIDES = ev.LintItem(
    finding_id("contradiction", "entities/H4.md", "A year in dispute.", "x"),
    "contradiction", "entities/H4.md", "A year in dispute.",  # listed first (by message)
    evidence=f'{ON_H4}" but "{ON_SOURCE}', source="model")


def sides_text(app, width: int) -> str:
    """The side-by-side evidence as it reads at `width` columns."""
    from rich.console import Console

    sides = app.screen.query(".finding-sides").last()
    console = Console(width=width, record=True, color_system=None)
    console.print(sides.content)
    return console.export_text()


async def test_contradiction_shows_both_claims_side_by_side_each_under_its_page(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        feed_lint(app, [SIDES, CONTRADICTION])
        await until(pilot, lambda: findings_shown(app), 90)
        await until(pilot, lambda: "looking up" not in sides_text(app, 110), 90)
        wide = sides_text(app, 110).splitlines()
        # the two page titles on the first line, left and right, their paths under them, then
        # the claims
        assert wide[0].index("H4") < wide[0].index("John Harrison and the Sea Clocks")
        assert wide[1].index("entities/H4.md") < wide[1].index(
            "sources/John Harrison and the Sea Clocks.md")
        body = " ".join(" ".join(wide[2:]).split())
        assert "but" in body and "decisive timekeeper" in body and "5.1 seconds" in body
        narrow = sides_text(app, 50)  # too narrow for columns: one above the other
        assert narrow.index("entities/H4.md") < narrow.index("decisive") < narrow.index(
            "sources/John Harrison and the Sea Clocks.md") < narrow.index("5.1 seconds")
        await pilot.press("j")  # quotes no page holds: said so, not hidden
        await until(pilot, lambda: "looking up" not in sides_text(app, 110), 90)
        assert sides_text(app, 110).count("on no page: check this quote") == 2
        shown = detail(app.screen)
        assert any("model-checked" in text for _c, text in shown)
        assert any("2 quotes" in text for _c, text in shown)


async def test_every_findings_key_has_an_id_known_to_f1(git_vault):
    from wiki_tui.ui.frame.help import binding_rows

    ids = {b.id for b in FindingsScreen.BINDINGS}
    assert None not in ids
    assert {"findings.dismiss", "findings.open", "findings.close", "findings.first",
            "findings.last", "findings.down", "findings.up"} <= ids
    app = WikiApp(git_vault)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        known = {row[0] for row in binding_rows(app, app._screen_classes())}
        assert ids | {"app.findings"} <= known


@pytest.mark.parametrize("evidence, expected", [
    ('A claim made once', [("quote", "A claim made once")]),
    ('The clock lost 5 s." vs "The clock lost 54 s', [
        ("quote", "The clock lost 5 s."), ("gap", "vs"), ("quote", "The clock lost 54 s")]),
    ('“Cook praised K1 highly” / “Cook doubted the watch”', [
        ("quote", "Cook praised K1 highly"), ("gap", "/"), ("quote", "Cook doubted the watch")]),
    ('He said "hello" to the crew', [("quote", 'He said "hello" to the crew')]),
    ('', []),
])
def test_split_evidence(evidence, expected):
    assert split_evidence(evidence) == expected


# -- snapshots --------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
def test_findings_screen_snapshot(snap_compare, git_vault, size):
    app = WikiApp(git_vault)

    async def run_before(pilot) -> None:
        await settle(pilot)
        still_cursor(app)
        await settle(pilot)
        await drain(pilot)
        await settle(pilot)
        feed_lint(app, structural_items(app.vault) + [CONTRADICTION])
        await until(pilot, lambda: findings_shown(app), 90)
        await pilot.press("j")  # the contradiction: both quotes
        await drain(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


async def test_suggestions_come_after_errors_and_o_files_them_for_review(git_vault):
    from wiki_tui.ui.review import ReviewScreen

    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        feed_lint(app, structural_items(app.vault) + [CONTRADICTION, QUESTION, GAP])
        await until(pilot, lambda: findings_shown(app), 10)
        screen = app.screen
        codes = [screen.report.items[i].code for i in range(screen.findings_list.option_count)]
        assert codes[-2:] == ["data-gap", "question"] and "contradiction" in codes[:-2]
        assert "2 suggestions to look into" in str(screen.query_one("#findings-title").render())
        await pilot.press("G")
        assert any("not an error" in text for _c, text in detail(screen))
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), 20)
        changeset = app.screen.changeset
        assert [f.path for f in changeset.files] == ["syntheses/Open questions.md"]
        text = changeset.files[0].proposed_text
        assert "- Who paid for K1? ([[H4]])" in text and "## Data gaps" in text
        assert "disagree" not in text  # the contradiction is an error, not filed


QUESTION = ev.LintItem(finding_id("question", "entities/H4.md", "Who paid for K1?"), "question",
                       "entities/H4.md", "Who paid for K1?", source="model")
GAP = ev.LintItem(finding_id("data-gap", "entities/James Cook.md", "One source only"),
                  "data-gap", "entities/James Cook.md", "One source only", source="model")
