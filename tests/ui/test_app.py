"""The real WikiApp driven with Pilot on a git copy of sample_vault/ (offline engine)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from tests.ui.conftest import drain, wait_for
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.chat.conversation import NoteLine, ReplyMessage, UserMessage
from wiki_tui.ui.frame.help import HelpScreen
from wiki_tui.ui.chat.prompt import PromptInput


@pytest.fixture(autouse=True)
def _state_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


def state_file(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "state" / "wiki-tui" / "state.json").read_text())


def notes(app: WikiApp) -> list[str]:
    return [str(n.render()) for n in app.query(NoteLine)]


def picker_shows(app: WikiApp, text: str) -> bool:
    """The screen on top lists `text` first (its search worker has reported)."""
    from textual.widgets import OptionList

    from wiki_tui.ui.browser.rows import RowList

    # the browser's pickers list with RowList, the command palette with Textual's OptionList
    for options in [*app.screen.query(RowList), *app.screen.query(OptionList)]:
        if options.option_count and text in str(options.get_option_at_index(0).prompt):
            return True
    return False


async def send(pilot, text: str) -> None:
    prompt = pilot.app.query_one(PromptInput)
    prompt.focus()
    prompt.text = text
    await pilot.press("enter")
    await pilot.pause()


async def settle(pilot) -> None:
    """Wait until no worker runs (vault load, browser loaders); cancelled ones are fine; the
    input has taken its stand-in's place (right after the first frame)."""
    from textual.worker import WorkerCancelled

    await pilot.pause()
    await wait_for(pilot, lambda: not pilot.app.query("#prompt-standin"))
    for _ in range(50):
        try:
            await pilot.app.workers.wait_for_complete()
        except WorkerCancelled:
            continue
        if not any(w.is_running for w in pilot.app.workers):
            break
    await pilot.pause()


async def test_opens_with_status_bar(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        status = str(app.status_bar.render())
        assert git_vault.name in status
        assert "offline engine" in status
        assert "⎇ main" in status
        assert "0 pending reviews" in status
        assert isinstance(app.focused, PromptInput)
        assert app.raw_files and all(p.startswith("raw/") for p in app.raw_files)


async def test_layout_side_by_side_when_wide_and_stacked_when_narrow(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        conv, browser = app.query_one("#conversation"), app.query_one("#browser-pane")
        assert not app.screen.has_class("-narrow")
        assert conv.region.y == browser.region.y and conv.region.right <= browser.region.x
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.screen.has_class("-narrow")
        assert conv.region.bottom <= browser.region.y  # stacked
        assert app.query_one(PromptInput).region.height >= 1  # usable at 80x24


async def test_maximise_the_focused_pane(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        conv, browser = app.query_one("#conversation"), app.query_one("#browser-pane")
        await pilot.press("f2")  # the input has the focus
        assert app.maximised == "conversation" and not browser.display
        await pilot.press("f2")  # again: both panes
        assert app.maximised == "" and conv.display and browser.display
        await pilot.press("ctrl+w", "f2")  # the browser has the focus
        assert app.maximised == "browser" and not conv.display
        await pilot.press("escape")  # the Esc ladder restores the layout
        assert app.maximised == "" and conv.display and browser.display


async def test_escape_backs_out_one_level_at_a_time_when_nothing_runs(git_vault):
    from wiki_tui.ui.browser import WikiBrowser

    app = WikiApp(git_vault)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        page = app.query_one(WikiBrowser).page_view
        await pilot.press("ctrl+w", "f2", "l")  # the browser maximised, its backlinks focused
        assert app.maximised == "browser" and app.focused.id == "backlinks"
        await pilot.press("escape")  # panel -> page
        assert app.focused is page and app.maximised == "browser"
        await pilot.press("escape")  # maximised -> restored
        assert app.focused is page and app.maximised == ""
        await pilot.press("escape")  # -> the input
        assert isinstance(app.focused, PromptInput)


async def test_help_command_and_unknown_command(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await send(pilot, "/help")
        assert "/ingest" in app.query(ReplyMessage).last().text
        await send(pilot, "/frobnicate")
        assert any("unknown command /frobnicate" in n for n in notes(app))
        await send(pilot, "/ingest")
        assert any("/ingest needs a path" in n for n in notes(app))


async def test_model_command_shows_and_switches(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await send(pilot, "/model")
        assert any("offline engine" in n for n in notes(app))
        await send(pilot, "/model offline")
        assert app.settings.offline
        assert "offline engine" in str(app.status_bar.render())


async def test_history_recall_and_persistence(git_vault, tmp_path):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await send(pilot, "/help")
        await send(pilot, "/model")
        prompt = app.query_one(PromptInput)
        prompt.text = "draft"
        await pilot.press("up")
        assert prompt.text == "/model"
        await pilot.press("up")
        assert prompt.text == "/help"
        await pilot.press("down", "down")
        assert prompt.text == "draft"
    assert state_file(tmp_path)["history"][-2:] == ["/help", "/model"]
    again = WikiApp(git_vault)
    async with again.run_test(size=(120, 40)) as pilot:
        await pilot.press("up")
        assert again.query_one(PromptInput).text == "/model"


async def test_ctrl_j_inserts_newline_and_enter_sends(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "h", "e", "l", "p", "ctrl+j", "x")
        assert app.query_one(PromptInput).text == "/help\nx"
        assert not app.query(UserMessage)
        await pilot.press("enter")
        await pilot.pause()
        assert app.query(UserMessage).last().render().plain == "/help\nx"


async def test_a_burst_of_keys_sends_the_whole_line(git_vault):
    """A paste or fast typing over SSH: every key arrives before the app handles the first.
    enter must still send the whole line, and ctrl+j must land where it was typed."""
    from textual import events

    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        burst = [*"/help me", "ctrl+j", *"now", "enter"]
        for key in burst:  # no await between keys: nothing is processed yet
            char = key if len(key) == 1 else ("\r" if key == "enter" else None)
            app.post_message(events.Key(key if key != " " else "space", char))
        await wait_for(pilot, lambda: app.query(UserMessage))
        await drain(pilot)
        assert [m.render().plain for m in app.query(UserMessage)] == ["/help me\nnow"]
        assert app.query_one(PromptInput).text == ""


async def test_ingest_completion_of_raw_files(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        prompt = app.query_one(PromptInput)
        await pilot.press("slash", "i", "n")
        await pilot.pause()
        await pilot.press("tab")
        assert prompt.text == "/ingest "
        await pilot.press("r", "a", "w", "slash", "l", "u")
        await pilot.pause()
        assert app.query_one("#completions").display
        await pilot.press("tab")
        assert prompt.text == "/ingest raw/lunar-distances.md"
        assert app.focused is prompt


async def test_f1_lists_every_binding_with_its_id(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        ids = {row[0] for row in app.screen.rows}
        assert {"app.quit", "app.help", "app.command_palette", "app.maximise", "app.cancel",
                "conversation.send", "conversation.newline", "wiki.jump"} <= ids
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


def write_config(text: str) -> None:
    import os

    folder = Path(os.environ["XDG_CONFIG_HOME"]) / "wiki-tui"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(text, encoding="utf-8")


async def test_keymap_override_from_config(git_vault):
    write_config('[keys]\n"app.help" = "f5"\n"no.such.binding" = "f6"\n')
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert any("no.such.binding" in n for n in notes(app))
        await pilot.press("f1")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert ("app.help", "f5") in {(r[0], r[1]) for r in app.screen.rows}


async def test_send_key_ctrl_j_swaps_enter(git_vault):
    write_config('[ui]\nsend_key = "ctrl+j"\n')
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", "h", "e", "l", "p", "enter")
        assert app.query_one(PromptInput).text == "/help\n"
        await pilot.press("backspace", "ctrl+j")
        await pilot.pause()
        assert app.query(UserMessage).last().render().plain == "/help"


async def test_palette_lists_actions(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        titles = [title for title, _help, _cb in app.palette_actions()]
        assert "Lint the wiki" in titles and "Jump to page" in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen.__class__.__name__ == "CommandPalette"
        await pilot.press("escape")


async def test_escape_cancels_a_running_operation(git_vault):
    """A slow event stream, cancelled with Esc: partial reply kept and marked, nothing written."""
    from wiki_tui.agent import events as ev
    from tests.conftest import git

    gate = asyncio.Event()

    async def slow_stream():
        yield ev.Started("query", "how?", "offline", offline=True)
        for word in "The answer starts here and".split():
            yield ev.Token(word + " ")
        gate.set()
        await asyncio.sleep(30)
        yield ev.Done()

    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.run_operation("query", slow_stream)
        await asyncio.wait_for(gate.wait(), 60)
        await drain(pilot)
        assert app.operation_running
        await pilot.press("escape")
        await settle(pilot)
        reply = app.query(ReplyMessage).last()
        assert reply.has_class("-cancelled")
        assert reply.text.startswith("The answer starts here")
        assert any("cancelled — nothing written" in n for n in notes(app))
        assert not app.operation_running
    assert git(git_vault, "status", "--porcelain") == ""


async def test_streamed_events_show_proposed_files_and_tool_lines(git_vault):
    from wiki_tui.agent import events as ev

    async def stream():
        yield ev.Started("ingest", "raw/lunar-distances.md", "offline", offline=True)
        yield ev.ToolActivity("read_source", "read raw/lunar-distances.md")
        yield ev.Retry("rate limited", 1, 2.0)
        yield ev.FileProposed("concepts/Lunar Distance.md", "write")
        yield ev.FileProgress("concepts/Lunar Distance.md", "x" * 120)
        yield ev.Token("Filed one page.")
        yield ev.Done()

    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.run_operation("ingest", stream)
        await settle(pilot)
        await drain(pilot)
        lines = notes(app)
        assert any("read_source: read raw/lunar-distances.md" in n for n in lines)
        assert any("retry 1: rate limited" in n for n in lines)
        proposed = str(app.query_one("#proposed").render())
        assert "concepts/Lunar Distance.md" in proposed and "120 chars" in proposed
        assert app.query(ReplyMessage).last().text == "Filed one page."


async def test_unresolved_link_offers_create_in_the_input(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        app.query_one("#browser").open_page("No Such Page Yet")
        await wait_for(pilot, lambda: app.query_one(PromptInput).text)
        assert app.query_one(PromptInput).text == "/create No Such Page Yet"
        assert any("[[No Such Page Yet]] has no page yet" in n for n in notes(app))


async def test_palette_opens_pages_by_title(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"tobias")
        await wait_for(pilot, lambda: picker_shows(app, "Tobias Mayer"))
        await pilot.press("enter")
        browser = app.query_one("#browser")
        await wait_for(pilot, lambda: browser.current_path == "entities/Tobias Mayer.md")
        await drain(pilot)
        assert app.focused is not None and browser in app.focused.ancestors_with_self


async def test_a_page_picked_with_the_jump_gets_the_focus(git_vault):
    app = WikiApp(git_vault)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert isinstance(app.focused, PromptInput)
        await pilot.press("ctrl+o")
        await pilot.pause()
        await pilot.press(*"tobias")
        await wait_for(pilot, lambda: picker_shows(app, "Tobias Mayer"))
        await pilot.press("enter")
        browser = app.query_one("#browser")
        await wait_for(pilot, lambda: browser.current_path == "entities/Tobias Mayer.md")
        await drain(pilot)
        assert browser in app.focused.ancestors_with_self  # j/k and the links work at once
        await pilot.press("ctrl+o", "escape")  # nothing picked: the focus stays
        await pilot.pause()
        assert browser in app.focused.ancestors_with_self
        await pilot.press("ctrl+l")
        assert isinstance(app.focused, PromptInput)


async def test_the_demo_says_where_its_vault_is(git_vault):
    app = WikiApp(git_vault, demo=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert any(str(git_vault) in n and n.startswith("demo vault") for n in notes(app))


async def test_warm_start_shows_what_changed_while_closed(git_vault):
    """The app answers from the index on disk at once; the freshness check that follows (in
    the vault worker) finds a page written while wiki-tui was not running, and the page tree
    shows it like any outside change."""
    from wiki_tui.ui.browser.panels import PageTree
    from wiki_tui.vault import Vault

    Vault.open(git_vault).close()  # an index on disk, as a previous session leaves it
    (git_vault / "concepts" / "Written meanwhile.md").write_text("About [[Dead reckoning]].\n")
    (git_vault / "concepts" / "Dead reckoning.md").unlink()
    app = WikiApp(git_vault)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        vault = app.vault
        assert vault.checked
        assert "concepts/Written meanwhile.md" in vault.pages
        assert "concepts/Dead reckoning.md" not in vault.pages
        tree = app.query_one(PageTree)
        assert "concepts/Written meanwhile.md" in tree.paths
        assert "concepts/Dead reckoning.md" not in tree.paths
        assert vault.unresolved_links["concepts/Written meanwhile.md"] == {"Dead reckoning": 1}


async def test_usable_before_the_vault_worker_finishes_and_the_deferred_work_follows(
        git_vault, monkeypatch):
    """Issue 21: the first frame needs no vault, and once the index on disk answers, the
    browser, the jump and reading a page work while the vault worker still lists the disk (held
    here on an explicit event). What it was doing then still happens: the page written while
    wiki-tui was closed shows up, the finder and the search database are prepared, and the
    page caches the load filled are given back."""
    import threading

    from wiki_tui.vault import Vault
    from wiki_tui.vault.model import Vault as VaultClass

    Vault.open(git_vault).close()  # an index on disk, as a previous session leaves it
    (git_vault / "concepts" / "Written meanwhile.md").write_text("About [[Dead reckoning]].\n")
    release, reached = threading.Event(), threading.Event()
    check, give_back, released = VaultClass.check_freshness, VaultClass.release_memory, []

    def held_check(vault):
        reached.set()
        release.wait(120)  # a safety against a hang only: the test sets it
        return check(vault)

    def counted_release(vault):
        released.append(vault)
        give_back(vault)

    monkeypatch.setattr(VaultClass, "check_freshness", held_check)
    monkeypatch.setattr(VaultClass, "release_memory", counted_release)
    app = WikiApp(git_vault)
    try:
        async with app.run_test(size=(140, 40)) as pilot:
            await wait_for(pilot, reached.is_set)
            await wait_for(pilot, lambda: app.vault is not None and app._browser is not None)
            vault = app.vault
            assert not vault.checked and released == []  # the worker is still at work
            assert "concepts/Written meanwhile.md" not in vault.pages  # the index as it was
            await pilot.press("ctrl+o")
            await pilot.pause()
            await pilot.press(*"tobias")
            await wait_for(pilot, lambda: picker_shows(app, "Tobias Mayer"))
            await pilot.press("enter")
            browser = app.query_one("#browser")
            await wait_for(pilot, lambda: browser.current_path == "entities/Tobias Mayer.md")
            assert not vault.checked  # all of that before the worker finished
            release.set()
            await settle(pilot)
            assert vault.checked and released == [vault]
            assert "concepts/Written meanwhile.md" in vault.pages
            assert vault._search_synced and vault._fuzzy is not None
            assert [h.path for h in vault.find("written meanwhile")][:1] == [
                "concepts/Written meanwhile.md"]
            assert browser.current_path == "entities/Tobias Mayer.md"  # the reader stays put
    finally:
        release.set()
