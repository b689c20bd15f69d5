"""Fixtures for UI tests: a host app around one widget, a real vault, waiting helpers."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import pytest
from textual.app import App, ComposeResult
from textual.message import Message
from textual.widgets import Footer


class BrowserHost(App[None]):
    """A bare app that mounts a WikiBrowser (no conversation, no model) and records its messages."""

    def __init__(self, vault) -> None:
        super().__init__()
        self.vault = vault
        self.messages: list[Message] = []

    def compose(self) -> ComposeResult:
        from wiki_tui.ui.browser import WikiBrowser

        yield WikiBrowser(self.vault, id="browser")
        yield Footer()

    @property
    def browser(self):
        return self.query_one("#browser")

    def on_wiki_browser_page_opened(self, message: Message) -> None:
        self.messages.append(message)

    def on_wiki_browser_create_page_requested(self, message: Message) -> None:
        self.messages.append(message)

    def on_wiki_browser_page_edited(self, message: Message) -> None:
        self.messages.append(message)


@pytest.fixture
def open_vault() -> Callable[[Path], object]:
    """Open a real Vault on a folder (no cache, no watcher); closed after the test."""
    opened = []

    def _open(root: Path):
        from wiki_tui.vault import Vault

        vault = Vault.open(Path(root), use_cache=False)
        opened.append(vault)
        return vault

    yield _open
    for vault in opened:
        close = getattr(vault, "close", None)
        if close is not None:
            close()


@pytest.fixture
def browser_app(open_vault) -> Callable[[Path], BrowserHost]:
    """Factory: `browser_app(vault_root)` -> a BrowserHost on a real vault of that folder."""

    def _make(root: Path) -> BrowserHost:
        return BrowserHost(open_vault(root))

    return _make


@pytest.fixture
def tiny_vault(tmp_path: Path) -> Callable[[dict[str, str]], Path]:
    """Factory: write {path: text} files into a fresh folder and return it."""

    def _make(files: dict[str, str]) -> Path:
        root = tmp_path / "tiny"
        for rel, text in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return root

    return _make


async def wait_for(pilot, condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """Let the app run until `condition()` holds (fails the test after `timeout`)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the UI")
        await pilot.pause(0.01)


async def drain(pilot) -> None:
    """Let the app finish what it was given, decided by the app's state, not a wall-clock wait:
    the conversation's pending tokens flushed (its timer does that every 0.12 s), messages
    handled, layout, scrolling and refreshes done. Holds on a busy machine as on an idle one."""
    from textual.css.query import NoMatches

    app = pilot.app
    for _ in range(3):
        try:
            from wiki_tui.ui.chat.conversation import Conversation

            app.screen_stack[0].query_one(Conversation).flush()
        except NoMatches:
            pass
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()


async def wait_page(pilot, browser, path: str | None = None, timeout: float = 60.0) -> None:
    """Wait until `path` (or any page) is loaded and fully rendered in the browser."""

    def ready() -> bool:
        if browser.loading:  # a newer load (of this page too) is still to be shown
            return False
        doc = browser.document
        if doc is None or (path is not None and doc.path != path):
            return False
        view = browser.page_view
        return view.document is doc and not view.rendering

    await wait_for(pilot, ready, timeout)
    await pilot.pause(0.01)  # one more turn so the rendered page is painted


# -- review and history (ui-review) ------------------------------------------------------------

DEAD = "concepts/Dead reckoning.md"
MAYER = "entities/Tobias Mayer.md"
NEW = "concepts/Sandglass.md"

# Two hunks in Dead reckoning (first and last paragraph), one in Tobias Mayer, one new page.
REPLY = f"""Here are the changes.

@@@ EDIT {DEAD}
@@@ SEARCH
The navigator starts from a known position and estimates the new one from the course steered,
@@@ REPLACE
The navigator starts from a known position and works out the new one from the course steered,
@@@ SEARCH
A log of the kind kept aboard, shown as plain text:
@@@ REPLACE
A log of the kind kept aboard, shown as plain text (see [[Sandglass]]):
@@@ END

@@@ EDIT {MAYER}
@@@ SEARCH
British government for them.
@@@ REPLACE
British government for them, and a share of the longitude prizes.
@@@ END

@@@ WRITE {NEW}
---
title: Sandglass
type: concept
summary: The half-minute glass used with the log line to measure a ship's speed.
---
# Sandglass

Timed the run of the log line for [[Dead reckoning]].
@@@ END
"""


def make_changeset(vault, reply: str = REPLY, title: str = "Tidy navigation pages"):
    """A real changeset built from reply text against the vault's files."""
    from wiki_tui.changes.build.changeset import build_changeset
    from wiki_tui.changes.reply.stream import parse_reply

    changeset, errors = build_changeset(vault, parse_reply(reply), operation="instruct",
                                        title=title, model="test-model")
    assert not errors, [str(e) for e in errors]
    return changeset


class ReviewHost(App[None]):
    """A bare app that pushes one screen and records what it dismisses with."""

    def __init__(self, make_screen) -> None:
        super().__init__()
        self.make_screen = make_screen
        self.results: list = []

    def compose(self) -> ComposeResult:
        from textual.widgets import Static

        yield Static("host")

    def on_mount(self) -> None:
        self.push_screen(self.make_screen(), callback=self.results.append)


def read(root: Path, path: str) -> str:
    return (root / path).read_text(encoding="utf-8")


def still_cursor(app) -> None:
    """The input's cursor drawn steadily, for snapshots. The input replaces its stand-in just
    after the first frame, so it may have drawn a line before it had the focus or in a blink's
    off phase; Textual caches a line by the cursor only while it blinks, so the cache is
    dropped too."""
    from wiki_tui.ui.chat.prompt import PromptInput

    prompt = app.query_one(PromptInput)
    prompt.cursor_blink = False
    prompt.notify_style_update()
    prompt.refresh()
