"""A vault indexed in bulk shows how far the indexing has come, while the person types: the
first opening in the browser pane, pages changed since the last session in the status line.
The indexing is held mid-way by an event (no timing): the test looks, types, then lets it go."""

from __future__ import annotations

import os
import threading

import pytest

from tests.ui.conftest import drain, wait_for
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.chat.conversation import NoteLine, ReplyMessage
from wiki_tui.vault import model


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


class Gate:
    """Vault._parse_file, held before its `at`-th page until `go` is set."""

    def __init__(self, monkeypatch, at: int) -> None:
        self.go, self.waiting, self.count = threading.Event(), threading.Event(), 0
        parse = model.Vault._parse_file

        def held(vault, *args, **kwargs):
            self.count += 1
            if self.count == at:
                self.waiting.set()
                assert self.go.wait(60), "the test never let the indexing go on"
            return parse(vault, *args, **kwargs)

        monkeypatch.setattr(model.Vault, "_parse_file", held)


@pytest.fixture
def held_at_fifth_page(monkeypatch) -> Gate:
    """The first opening stores two steps of two pages, then holds before the fifth page."""
    monkeypatch.setattr(model, "PARSE_CHUNK", 2)
    return Gate(monkeypatch, at=5)


def _placeholder(app) -> str:
    found = app.query("#browser-placeholder")
    return str(found.first().render()) if found else ""


async def test_first_opening_counts_pages_in_the_pane_and_the_prompt_takes_keys(git_vault, held_at_fifth_page):
    gate = held_at_fifth_page
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        try:
            await wait_for(pilot, lambda: " 4 of " in _placeholder(app))
            shown = _placeholder(app)
            assert shown.startswith("Indexing the vault for the first time: 4 of ")
            assert app.vault is None
            await pilot.press("w", "h", "o")  # typing does not wait for the index
            assert app.query_one("#prompt").text == "who"
        finally:
            gate.go.set()
        await wait_for(pilot, lambda: app.vault is not None and app.query("#browser"))
        await pilot.pause()  # the browser's own mounting done
        assert not app.query("#browser-placeholder")
        assert f" 4 of {len(app.vault.pages):,} pages." in shown
        assert app.query_one("#prompt").text == "who"


async def test_pages_changed_since_last_time_show_in_the_status_line(git_vault, monkeypatch):
    model.Vault.open(git_vault).close()  # an index from an earlier session
    for path in (git_vault / "concepts").glob("*.md"):  # changed while nothing watched
        path.write_text(path.read_text(encoding="utf-8") + "\nEdited elsewhere.\n", encoding="utf-8")
        st = path.stat()
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    changed = len(list((git_vault / "concepts").glob("*.md")))
    assert changed >= 3
    monkeypatch.setattr(model, "PARSE_CHUNK", 2)
    gate = Gate(monkeypatch, at=3)
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        try:
            await wait_for(pilot, lambda: gate.waiting.is_set() and app.query("#browser"))
            await wait_for(pilot, lambda: "re-indexing changed pages: 2 of" in str(app.status_bar.render()))
        finally:
            gate.go.set()
        await wait_for(pilot, lambda: "re-indexing" not in str(app.status_bar.render()))
        first = sorted((git_vault / "concepts").glob("*.md"))[0]
        page = app.vault.pages[first.relative_to(git_vault).as_posix()]
        assert page.size == first.stat().st_size  # the index holds the edited text


def _notes(app) -> str:
    return " ".join(str(n.render()) for n in app.query(NoteLine))


async def _held_opening(pilot, app, gate, question: str) -> None:
    """Ask `question` while the first opening is held mid-way."""
    await wait_for(pilot, lambda: " 4 of " in _placeholder(app))
    await pilot.press(*question, "enter")
    await wait_for(pilot, lambda: "runs as soon as it is open" in _notes(app))
    assert not app.query(ReplyMessage)


async def test_a_question_asked_while_the_vault_opens_is_answered_once_it_is(git_vault, held_at_fifth_page):
    gate = held_at_fifth_page
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        try:
            await _held_opening(pilot, app, gate, "When was K1 made?")
        finally:
            gate.go.set()
        await wait_for(pilot, lambda: app.query(ReplyMessage))  # the offline engine answers
        await drain(pilot)
        assert app.last_question == "When was K1 made?"
        assert app.held_request is None


async def test_esc_drops_the_request_that_waits_for_the_vault(git_vault, held_at_fifth_page):
    gate = held_at_fifth_page
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        try:
            await _held_opening(pilot, app, gate, "first question")
            await pilot.press(*"When was K1 made?", "enter")  # a newer one takes its place
            await wait_for(pilot, lambda: "instead of the request that waited" in _notes(app))
            await pilot.press("escape")
            await wait_for(pilot, lambda: "dropped: the request that waited" in _notes(app))
        finally:
            gate.go.set()
        await wait_for(pilot, lambda: app.vault is not None and app.query("#browser"))
        await drain(pilot)
        assert not app.query(ReplyMessage) and not app.operation_running
