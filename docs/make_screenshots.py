"""Make the SVG screenshots in docs/screenshots/ with Textual's own screenshot export.

    uv run python docs/make_screenshots.py

Each picture drives the real app (offline engine, no network) on a fresh demo copy of
sample_vault/ in a temporary folder, so the repository's vault stays pristine. Run it again
after a visible change to the app.

Besides main, search and review (140x40, wiki-dark), the review of an ingest is pictured at
80x24 and 120x40 in every shipped theme (review-THEME-80x24.svg, …), on a modified page so the
changed words show.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "screenshots"
SIZE = (140, 40)
REVIEW_SIZES = {"80x24": (80, 24), "120x40": (120, 40)}


async def settled(pilot, condition=lambda: True, timeout: float = 60) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        busy = any(w.is_running for w in pilot.app.workers)
        if not busy and condition():
            await pilot.pause(0.3)
            return
        await pilot.pause(0.1)
    raise TimeoutError("the app did not settle")


def save(app, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    app.save_screenshot(filename=f"{name}.svg", path=str(OUT))
    print(f"docs/screenshots/{name}.svg")


async def shoot(vault: Path) -> None:
    from wiki_tui.ui.app import WikiApp
    from wiki_tui.ui.browser import SearchScreen
    from wiki_tui.ui.chat.prompt import PromptInput
    from wiki_tui.ui.review import ReviewScreen

    app = WikiApp(vault)
    async with app.run_test(size=SIZE) as pilot:
        app.query_one(PromptInput).cursor_blink = False
        await settled(pilot, lambda: app.vault is not None)
        app.open_page("entities/H4.md")
        app.submit("When was H4 tested at sea?")
        await settled(pilot, lambda: not app.operation_running)
        save(app, "main")

        await pilot.press("ctrl+f")
        await settled(pilot, lambda: isinstance(app.screen, SearchScreen))
        await pilot.press(*"Harrison watch")
        await settled(pilot, lambda: getattr(app.screen, "shown_query", "") == "Harrison watch")
        save(app, "search")
        await pilot.press("escape")
        await settled(pilot)

        app.submit("/ingest raw/french-chronometers.md")
        await settled(pilot, lambda: isinstance(app.screen, ReviewScreen), 120)
        await pilot.pause(0.7)  # past the review's key guard
        await pilot.press("a", "j", "n")
        await settled(pilot)
        save(app, "review")


async def shoot_reviews(vault: Path) -> None:
    """The review of one ingest at each size, on its first modified page, in every theme."""
    from wiki_tui.changes.model import MODIFY
    from wiki_tui.ui.app import WikiApp
    from wiki_tui.ui.review import ReviewScreen
    from wiki_tui.ui.frame.themes import BUILTIN_THEMES_DIR, load_theme_dir

    themes = [t.name for t in load_theme_dir(BUILTIN_THEMES_DIR)[0]]
    for label, size in REVIEW_SIZES.items():
        app = WikiApp(vault)
        async with app.run_test(size=size) as pilot:
            await settled(pilot, lambda: app.vault is not None)
            app.submit("/ingest raw/french-chronometers.md")
            await settled(pilot, lambda: isinstance(app.screen, ReviewScreen), 120)
            await pilot.pause(0.7)  # past the review's key guard
            screen = app.screen
            kinds = [change.kind for change in screen.changeset.files]
            for _ in range(kinds.index(MODIFY) if MODIFY in kinds else 0):
                await pilot.press("j")
            for theme in themes:
                app.theme = theme
                await settled(pilot)
                save(app, f"review-{theme}-{label}")
            await pilot.press("escape")
            await settled(pilot)


def main() -> None:
    on_a_demo_vault(shoot, shoot_reviews)


def on_a_demo_vault(*shooters) -> None:
    """Run each `shooter(vault)` coroutine on one fresh demo copy of sample_vault/."""
    from wiki_tui.cli.app_commands import make_demo_vault

    os.environ.setdefault("TEXTUAL_COLOR_SYSTEM", "truecolor")
    with tempfile.TemporaryDirectory(prefix="wiki-tui-shots-") as scratch:
        # no user config, state or themes leak into the pictures
        os.environ["XDG_CONFIG_HOME"] = str(Path(scratch) / "config")
        os.environ["XDG_STATE_HOME"] = str(Path(scratch) / "state")
        os.environ.pop("WIKI_TUI_MODEL", None)
        vault = make_demo_vault(Path(scratch) / "vault")
        for shooter in shooters:
            asyncio.run(shooter(vault))


if __name__ == "__main__":
    main()
