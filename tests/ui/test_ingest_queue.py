"""`/ingest` with a folder queues its sources in the real app (offline engine, real git): one
review after the other, a left review keeps the queue, esc stops it after the current one."""

from __future__ import annotations

import threading

import pytest

from tests.conftest import git
from tests.support.llm_server import Reply
from tests.ui.conftest import drain
from tests.ui.conftest import wait_for
from tests.ui.test_app import settle
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.chat.conversation import NoteLine
from wiki_tui.ui.chat.ingest_queue import ingest_words
from wiki_tui.ui.review import ReviewScreen


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


@pytest.fixture
def queue_vault(git_vault):
    folder = git_vault / "raw" / "batch"
    folder.mkdir()
    for name, title in (("alpha", "Alpha Widget"), ("beta", "Beta Gadget"),
                        ("gamma", "Gamma Gear")):
        (folder / f"{name}.md").write_text(f"# {title}\n\nThe {title} ticks.\n",
                                           encoding="utf-8")
    (folder / "scan.tiff").write_bytes(b"II*\0")
    git(git_vault, "add", "-A")
    git(git_vault, "commit", "-q", "-m", "sources")
    return git_vault


def notes(app) -> list[str]:
    return [" ".join(str(n.render()).split()) for n in app.query(NoteLine)]


def subjects(vault) -> list[str]:
    return git(vault, "log", "--format=%s").splitlines()


async def review_open(pilot, title: str) -> None:
    """Wait for the review of `title`: it opens by itself, or, when it became ready just after
    a key (the type-ahead rule), it is announced and ctrl+r opens it."""
    app = pilot.app

    def ready() -> bool:
        return any(c.title == title for c in app.pending_changesets)

    await wait_for(pilot, ready, 20)
    await drain(pilot)
    if not isinstance(app.screen, ReviewScreen):
        assert any(n.startswith(f"review ready: ingest | {title}") for n in notes(app))
        await pilot.press("ctrl+r")
    await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen)
                   and app.screen.changeset.title == title and app.screen.armed)


async def test_a_folder_queues_one_review_after_the_other_and_a_left_review_keeps_it(
        queue_vault):
    app = WikiApp(queue_vault)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.submit("/ingest raw/batch/")
        await review_open(pilot, "Alpha Widget")
        assert "ingest 1/3 raw/batch/alpha.md" in str(app.status_bar.render())
        said = notes(app)
        assert any("skipped raw/batch/scan.tiff" in n for n in said)
        assert any("3 sources queued" in n for n in said)
        await pilot.press("escape")  # leave the review: the queue waits for it
        await wait_for(pilot, lambda: app.screen is app.screen_stack[0])
        await drain(pilot)
        assert app.ingest_queue is not None and not app.operation_running
        assert any("the ingest queue waits for this review" in n for n in notes(app))
        await pilot.press("ctrl+r")  # reopen it and apply: the next source starts
        await review_open(pilot, "Alpha Widget")
        await pilot.press("A", "enter")
        await review_open(pilot, "Beta Gadget")
        assert subjects(queue_vault)[0] == "ingest: Alpha Widget"
        assert "ingest 2/3 raw/batch/beta.md" in str(app.status_bar.render())
        await pilot.press("escape")  # leave the second review, then esc stops the queue
        await wait_for(pilot, lambda: app.screen is app.screen_stack[0])
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.ingest_queue is None)
        assert any(n.startswith("ingest queue stopped: 1 applied")
                   and "not run: raw/batch/gamma.md" in n for n in notes(app))
        assert len(app.pending_changesets) == 1  # the left review stays pending
        assert "ingest" not in str(app.status_bar.render()).split("pending")[-1]
    assert subjects(queue_vault)[0] == "ingest: Alpha Widget"


async def test_esc_while_a_source_runs_stops_the_queue_after_it(queue_vault, llm_server):
    page = ("@@@ WRITE entities/Widget.md\n---\ntitle: Widget\ntype: entity\nsummary: A part.\n"
            "---\n# Widget\n\n" + "It ticks. " * 60 + "\n@@@ END\n")
    hold = threading.Event()  # the stream ends when the test says: esc lands while it runs
    llm_server.queue(Reply(page, chunk_size=8, rate=60, hold=hold))
    app = WikiApp(queue_vault, settings=llm_server.settings(tools=False))
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.submit("/ingest raw/batch/alpha.md raw/batch/beta.md")
        await wait_for(pilot, lambda: app.operation_running)
        await pilot.press("escape")
        assert any("the ingest queue stops after raw/batch/alpha.md (1 not run)" in n
                   for n in notes(app))
        assert app.operation_running
        hold.set()
        await review_open(pilot, "Alpha Widget")  # the current source finishes
        await pilot.press("A", "enter")
        await wait_for(pilot, lambda: app.ingest_queue is None, 10)
        assert any(n.startswith("ingest queue stopped: 1 applied")
                   and "not run: raw/batch/beta.md" in n for n in notes(app))
        assert len(llm_server.requests) == 1  # the second source never reached the model
    assert subjects(queue_vault)[0] == "ingest: Alpha Widget"



async def test_a_failed_source_is_named_and_the_queue_goes_on(queue_vault):
    app = WikiApp(queue_vault)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.submit("/ingest raw/batch/scan.tiff raw/batch/gamma.md")  # named: tried, and fails
        await review_open(pilot, "Gamma Gear")
        assert any("raw/batch/scan.tiff: .tiff cannot be ingested" in n for n in notes(app))
        await pilot.press("R", "enter")  # reject every file: closed, nothing written
        await wait_for(pilot, lambda: app.ingest_queue is None)
        assert any(n.startswith("ingest queue done: 1 failed, 1 rejected (failed: "
                                "raw/batch/scan.tiff)") for n in notes(app))
    assert subjects(queue_vault)[0] == "sources"

def test_the_tuis_argument_is_one_path_when_it_names_a_file_else_split(sample_vault):
    (sample_vault / "raw" / "My notes.md").write_text("# N\n", encoding="utf-8")
    assert ingest_words(sample_vault, "raw/My notes.md") == (["raw/My notes.md"], False)
    assert ingest_words(sample_vault, "My notes.md") == (["My notes.md"], False)
    assert ingest_words(sample_vault, "--new 'raw/My notes.md' raw/x.md") == (
        ["raw/My notes.md", "raw/x.md"], True)
