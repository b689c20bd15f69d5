"""ReviewScreen on a real git vault: decisions per file and hunk, apply, conflicts, $EDITOR."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import git
from tests.support.clock import FakeClock
from tests.ui.conftest import wait_for
from tests.ui.conftest import DEAD, MAYER, NEW, ReviewHost, make_changeset, read
from wiki_tui.changes.model import ACCEPTED, CONFLICT, PENDING, REJECTED
from wiki_tui.ui.review import ReviewScreen

SIZE = (120, 36)


@pytest.fixture
def review(git_vault, open_vault):
    """Factory: (app, screen getter, changeset) for a review of REPLY on the git vault."""

    def _make(grace: float = 0.0, clock=None):
        vault = open_vault(git_vault)
        changeset = make_changeset(vault)
        extra = {"clock": clock} if clock is not None else {}
        app = ReviewHost(lambda: ReviewScreen(vault, changeset, grace=grace, **extra))
        return app, changeset

    return _make


def status(app) -> str:
    return str(app.screen.query_one("#review-status").render())


def head(root) -> str:
    return git(root, "rev-parse", "HEAD").strip()


async def test_keys_ignored_during_grace_period(review):
    clock = FakeClock()  # the grace period ends when the test says, however busy the machine
    app, changeset = review(grace=0.5, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "keys active in 0.5 s" in status(app)
        clock.advance(0.45)
        await pilot.press("A", "a", "enter")
        assert all(f.status == PENDING for f in changeset.files)
        assert not app.screen.armed and "keys active" in status(app)
        clock.advance(0.05)
        assert app.screen.armed
        await pilot.press("a")
        assert changeset.files[0].status == ACCEPTED
        assert "keys active" not in status(app)
        assert app.results == []  # the enter in the grace period applied nothing


async def test_accept_one_reject_another_and_one_hunk_then_apply(review, git_vault):
    app, changeset = review()
    before_mayer = read(git_vault, MAYER)
    first_commit = head(git_vault)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert [f.path for f in changeset.files] == [DEAD, MAYER, NEW]
        assert len(changeset.files[0].hunks) == 2
        await pilot.press("a", "n", "space")  # Dead reckoning: accept, then reject hunk 2
        dead = changeset.files[0]
        assert [h.status for h in dead.hunks] == [ACCEPTED, REJECTED]
        assert screen.diff.focus_hunk == 1
        await pilot.press("j", "r", "j", "a")  # reject Tobias Mayer, accept the new page
        assert [f.status for f in changeset.files] == [ACCEPTED, REJECTED, ACCEPTED]
        assert "2 accepted, 1 rejected" in status(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.results)
    result = app.results[0]
    assert sorted(result.written) == [DEAD, NEW]
    text = read(git_vault, DEAD)
    assert "works out the new one" in text
    assert "(see [[Sandglass]])" not in text  # the rejected hunk
    assert read(git_vault, MAYER) == before_mayer
    assert "Timed the run of the log line" in read(git_vault, NEW)
    log = read(git_vault, "log.md")
    assert "] instruct | Tidy navigation pages" in log.splitlines()[-4] or \
        "instruct | Tidy navigation pages" in log
    assert f"- rejected: {MAYER}" in log
    assert result.commit == head(git_vault) != first_commit
    files = git(git_vault, "show", "--name-only", "--format=%B", "HEAD")
    assert "instruct: Tidy navigation pages" in files
    assert "Model: test-model" in files
    for path in (DEAD, NEW, "log.md", "index.md"):
        assert path in files
    assert MAYER not in files
    assert git(git_vault, "status", "--porcelain") == ""


async def test_escape_leaves_and_writes_nothing(review, git_vault):
    app, changeset = review()
    before = read(git_vault, DEAD)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("A", "escape")
        await wait_for(pilot, lambda: app.results)
    assert app.results == [None]
    assert read(git_vault, DEAD) == before
    assert not (git_vault / NEW).exists()
    assert git(git_vault, "status", "--porcelain") == ""
    assert all(f.status == ACCEPTED for f in changeset.files)  # decisions kept, still pending


async def test_apply_with_nothing_accepted_says_so(review, git_vault):
    app, _changeset = review()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("r", "enter")  # one file rejected, two still pending
        await pilot.pause()
        assert "Nothing accepted, nothing written" in status(app)
        assert not app.results
    assert git(git_vault, "status", "--porcelain") == ""


async def test_a_review_with_every_file_rejected_closes_on_enter(review, git_vault):
    from wiki_tui.ui.review.screen import ALL_REJECTED

    app, changeset = review()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("R", "enter")
        await wait_for(pilot, lambda: app.results)
    assert app.results == [ALL_REJECTED]
    assert all(f.status == REJECTED for f in changeset.files)
    assert git(git_vault, "status", "--porcelain") == ""


async def test_pending_files_need_a_second_enter(review, git_vault):
    app, changeset = review()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("G", "a", "enter")
        await pilot.pause()
        assert "2 files still pending" in status(app)
        assert not (git_vault / NEW).exists()
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.results)
    assert app.results[0].written == [NEW]
    assert set(app.results[0].rejected) == {DEAD, MAYER}


async def test_conflict_from_outside_edit(review, git_vault):
    app, changeset = review()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("A")
        outside = read(git_vault, MAYER).replace("Göttingen", "Goettingen")
        (git_vault / MAYER).write_text(outside, encoding="utf-8")  # someone edits it meanwhile
        await pilot.press("enter")
        await wait_for(pilot, lambda: changeset.files[1].status == CONFLICT)
        assert "changed on disk" in status(app)
        assert not (git_vault / NEW).exists()  # nothing written yet
        await pilot.press("j", "a")  # accepting the stale file is refused
        assert changeset.files[1].status == CONFLICT
        assert "d re-diffs" in status(app)
        await pilot.press("enter")  # apply the rest
        await wait_for(pilot, lambda: app.results)
    result = app.results[0]
    assert result.conflicts == [MAYER]
    assert sorted(result.written) == [DEAD, NEW]
    assert read(git_vault, MAYER) == outside


async def test_rediff_after_disk_change_keeps_both_edits(review, git_vault):
    app, changeset = review()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        outside = read(git_vault, MAYER).replace("Göttingen", "Goettingen")
        (git_vault / MAYER).write_text(outside, encoding="utf-8")
        app.screen.files_changed([("modified", MAYER)])  # what the app's watcher passes on
        await wait_for(pilot, lambda: changeset.files[1].status == CONFLICT)
        assert MAYER in app.screen.stale
        await pilot.press("j", "d")
        await wait_for(pilot, lambda: changeset.files[1].status == PENDING)
        await pilot.press("a", "enter")
        await pilot.press("enter")  # two files still pending: confirm
        await wait_for(pilot, lambda: app.results)
    text = read(git_vault, MAYER)
    assert "Goettingen" in text and "a share of the longitude prizes" in text


async def test_edit_in_editor_rediffs(review, git_vault, tmp_path, monkeypatch):
    script = tmp_path / "editor.py"
    script.write_text("import sys\np = sys.argv[1]\nt = open(p).read()\n"
                      "open(p, 'w').write(t.replace('half-minute', 'twenty-eight second'))\n")
    monkeypatch.setenv("EDITOR", f"{sys.executable} {script}")
    app, changeset = review()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("G", "e")
        await wait_for(pilot, lambda: changeset.files[2].edited_by_hand)
        new = changeset.files[2]
        assert "twenty-eight second" in new.proposed_text
        assert new.status == PENDING
        assert "edited by hand" in status(app)
        await pilot.press("a", "R", "G", "a", "enter")
        await wait_for(pilot, lambda: app.results)
    assert "twenty-eight second glass" in read(git_vault, NEW)


async def test_edit_without_editor_says_so(review):
    app, changeset = review()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("e")
        assert "No editor set" in status(app)
        assert not any(f.edited_by_hand for f in changeset.files)


async def test_navigation_and_split(review):
    app, changeset = review()
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.diff.split  # wide terminal: side by side
        await pilot.press("G")
        assert screen.cursor == 2
        await pilot.press("g", "n", "n")  # past the last hunk of file 1 into file 2
        assert (screen.cursor, screen.hunk) == (1, 0)
        await pilot.press("p")
        assert (screen.cursor, screen.hunk) == (0, 1)
        await pilot.press("s")
        assert not screen.diff.split
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert not screen.diff.split


async def test_end_to_end_offline_ingest_review_apply(git_vault):
    """Through the real app: offline ingest of the un-ingested raw source -> review -> apply."""
    from wiki_tui.ui.app import WikiApp

    before = read(git_vault, "log.md")
    app = WikiApp(git_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_for(pilot, lambda: app.vault is not None, 30)
        app.submit("/ingest raw/french-chronometers.md")
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen), 90)
        screen = app.screen
        changeset = screen.changeset
        assert len(changeset.files) >= 2
        await wait_for(pilot, lambda: screen.armed)
        await pilot.press("A", "G", "r", "enter")  # everything but the last file
        await wait_for(pilot, lambda: not isinstance(app.screen, ReviewScreen), 30)
        await pilot.pause()
    accepted = [f.path for f in changeset.files if f.status == ACCEPTED]
    rejected = changeset.files[-1]
    assert rejected.status == REJECTED
    assert accepted == [f.path for f in changeset.files[:-1]]  # accept-all held for the rest
    committed = git(git_vault, "show", "--name-only", "--format=%s", "HEAD")
    assert committed.startswith("ingest: ")
    for path in accepted:
        assert path in committed
        assert read(git_vault, path) == changeset.file(path).result_text()
    assert rejected.path not in committed
    log = read(git_vault, "log.md")
    # one entry appended to what was there (sample_vault's own log has six since the form examples)
    assert log.startswith(before) and log[len(before):].count("## [") == 1
    assert f"- rejected: {rejected.path}" in log


async def test_findings_and_model_errors_are_listed(git_vault, open_vault):
    from wiki_tui.changes.build.changeset import build_changeset
    from wiki_tui.changes.reply.stream import parse_reply

    vault = open_vault(git_vault)
    reply = (f"@@@ WRITE {NEW}\n---\ntitle: Sandglass\ntype: concept\nsummary: A glass.\n---\n"
             "# Sandglass\n\nSee [[Nowhere at all]] and [[Dead reckoning]].\n@@@ END\n\n"
             f"@@@ EDIT {MAYER}\n@@@ SEARCH\nThis line is not in the page.\n@@@ REPLACE\nx\n@@@ END\n")
    changeset, _errors = build_changeset(vault, parse_reply(reply), operation="instruct",
                                         title="t", model="m")
    assert changeset.findings and changeset.errors
    app = ReviewHost(lambda: ReviewScreen(vault, changeset, grace=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        notes = str(app.screen.query_one("#review-notes-text").render())
        assert "Lint (" in notes and "Nowhere at all" in notes
        assert "model errors (1)" in notes and MAYER in notes


async def test_rename_and_delete(git_vault, open_vault):
    vault = open_vault(git_vault)
    reply = (f"@@@ RENAME {MAYER} -> entities/Johann Tobias Mayer.md\n\n"
             "@@@ DELETE concepts/Longitude and time.md\n")
    changeset = make_changeset(vault, reply, title="Rename and delete")
    kinds = sorted(f.kind for f in changeset.files)
    assert kinds == ["delete", "rename"]
    app = ReviewHost(lambda: ReviewScreen(vault, changeset, grace=0))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in changeset.files:  # space decides a file without hunks; a deletion is one hunk
            await pilot.press("space", "j")
        assert all(f.status == ACCEPTED for f in changeset.files)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.results)
    result = app.results[0]
    assert result.renamed == [(MAYER, "entities/Johann Tobias Mayer.md")]
    assert result.deleted == ["concepts/Longitude and time.md"]
    assert not (git_vault / MAYER).exists() and (git_vault / "entities/Johann Tobias Mayer.md").exists()


def test_rows_share_context_and_pair_changed_lines(git_vault, open_vault):
    from wiki_tui.ui.review.diff_view import changed_spans
    from wiki_tui.ui.review.rows import build_rows

    change = make_changeset(open_vault(git_vault)).files[0]
    unified = build_rows(change, split=False)
    numbers = [r.left.old_no for r in unified if r.kind == "line" and r.left.old_no]
    assert numbers == sorted(set(numbers))  # no context line shown twice
    assert [r.kind for r in unified].count("header") == 2
    split = build_rows(change, split=True)
    changed = [r for r in split if r.kind == "line" and r.left.tag == "-"]
    assert changed and all(r.right.tag == "+" and r.left.pair == r.right.text for r in changed)
    old, new = changed[0].left.text, changed[0].right.text
    spans = changed_spans(new, old)
    assert [new[a:b] for a, b in spans] == ["works out"]


async def test_at_80x24_every_key_that_finishes_a_review_shows_and_messages_read_whole(review):
    from wiki_tui.ui.frame.keybar import KeyBar

    app, _changeset = review()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        bar = app.screen.query_one(KeyBar)
        shown = bar.render().plain
        for key in (" ⏎ Apply ", " a Accept ", " r Reject ", " space Hunk ", " A Accept all ",
                    " R Reject all ", " esc Leave ", " j/k File ", " n/p Hunk ", " e Edit ",
                    " s Split ", " ? Keys "):  # every review key, at 80 columns
            assert key in shown, (key, shown)
        # the files above the diff, their names whole
        listed = app.screen.query_one("#review-files")
        assert listed.region.width == 80 and listed.region.y < app.screen.query_one(
            "#review-diff").region.y
        rows = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        for path in (DEAD, MAYER, NEW):
            assert path in rows, rows
        assert bar.region.height == 2 and bar.region.bottom == 24
        await pilot.press("G", "a", "enter")  # two files still pending: a long message
        await pilot.pause()
        box = app.screen.query_one("#review-status")
        said = status(app)
        assert "2 files still pending will not be written: enter again applies the accepted " \
               "ones" in said
        assert box.region.height >= 2 and box.region.bottom <= bar.region.y  # wrapped, in view
        lines = app.screen.query_one("#review-status").render_lines(box.region.reset_offset)
        assert "accepted ones" in "".join(seg.text for line in lines for seg in line)


async def test_the_key_bar_keeps_re_diff_and_the_help_key_at_80_columns(review, git_vault):
    from wiki_tui.ui.frame.keybar import KeyBar

    app, changeset = review()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        (git_vault / DEAD).write_text(read(git_vault, DEAD) + "\nA line from outside.\n",
                                      encoding="utf-8")
        app.screen.files_changed([DEAD])
        await wait_for(pilot, lambda: DEAD in app.screen.stale)
        await pilot.pause()
        shown = app.screen.query_one(KeyBar).render().plain
        assert " d Re-diff " in shown and shown.rstrip().endswith("? Keys"), shown


async def test_question_mark_in_a_review_lists_every_key_the_reviews_first(git_vault,
                                                                          monkeypatch, tmp_path):
    from tests.ui.test_app import settle
    from wiki_tui.ui.app import WikiApp
    from wiki_tui.ui.frame.help import HelpScreen

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    app = WikiApp(git_vault)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.open_review(make_changeset(app.vault))
        await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.armed)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        ids = [row[0] for row in app.screen.rows]
        reviews = [i for i in ids if i.startswith("review.")]
        assert ids[:len(reviews)] == reviews  # this screen's keys first
        assert {"review.edit", "review.toggle_split", "review.rediff", "review.help"} <= set(ids)
        assert "app.quit" in ids  # and then every other key


async def test_n_in_a_review_of_one_new_page_says_it_is_the_last_hunk_and_scrolls(
        git_vault, open_vault):
    """Reported once: n did nothing for a whole review. A review of one created page (a /save)
    is one file with one hunk: n had nowhere to go and said nothing."""
    vault = open_vault(git_vault)
    body = "\n".join(f"Line {i} of a long answer about clocks." for i in range(80))
    reply = (f"@@@ WRITE answers/Long answer.md\n---\ntitle: Long answer\ntype: answer\n"
             f"summary: A long one.\n---\n# Long answer\n\n{body}\n@@@ END\n")
    changeset = make_changeset(vault, reply, title="Long answer")
    assert len(changeset.files) == 1 and len(changeset.files[0].hunks) == 1
    app = ReviewHost(lambda: ReviewScreen(vault, changeset, grace=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        diff = app.screen.diff
        assert diff.scroll_y == 0
        await pilot.press("n")
        await pilot.pause()
        assert diff.scroll_y > 0  # the rest of the long hunk
        assert "last hunk: 1 of 1 in answers/Long answer.md; scrolled" in status(app)
        await pilot.press("p")
        await pilot.pause()
        assert diff.scroll_y == 0 and "first hunk" in status(app)
