"""The app opening a folder of notes that is not adopted (no AGENTS.md, no .wiki-tui/) reads it
and writes nothing into it: its index and search database go to the user cache (vault/state.py).
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from tests.ui.conftest import wait_for
from tests.ui.test_app import settle
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.browser import SearchScreen
from wiki_tui.vault.state import cache_state_dir


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else b"/"
            for p in folder.rglob("*")}


async def test_the_app_reads_a_folder_not_adopted_and_writes_nothing_into_it(tmp_path):
    folder = tmp_path / "notes"
    (folder / "sub").mkdir(parents=True)
    (folder / "Clocks.md").write_text("---\ndescription: About clocks.\n---\n# Clocks\n\n"
                                      "The marine chronometer, see [[sub/Harrison]].\n", "utf-8")
    (folder / "sub/Harrison.md").write_text("# Harrison\n\nA clockmaker. [[Missing]]\n", "utf-8")
    before = _tree(folder)
    app = WikiApp(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: isinstance(app.screen, SearchScreen))
        screen = app.screen
        screen.query_one("#picker-input", Input).cursor_blink = False
        await pilot.press(*"chronometer")
        await wait_for(pilot, lambda: screen.shown_query == "chronometer")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
    assert _tree(folder) == before  # no .wiki-tui/, no index.md, nothing
    assert (cache_state_dir(folder) / "index.sqlite").is_file()  # its state went to the cache
