"""The input's stand-in of the first frame (chat/standin.py): keys typed before the real input
exists reach it as if typed at it, enter included; the first frame needs no TextArea."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from textual import events
from textual.app import App, ComposeResult
from textual.containers import Vertical

from tests.ui.conftest import drain
from wiki_tui.ui.chat.prompt import PromptInput
from wiki_tui.ui.chat.standin import PromptStandIn

ROOT = Path(__file__).resolve().parents[2]


class Sent(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.sent: list[str] = []

    def on_prompt_input_submitted(self, event: PromptInput.Submitted) -> None:
        self.sent.append(event.text)


class Host(Sent):
    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield PromptStandIn(id="prompt-standin")

    def on_mount(self) -> None:
        self.query_one(PromptStandIn).focus()


def burst(app: App, keys: list[str]) -> None:
    """Keys as a fast typist, a paste or tmux delivers them: all queued before any is handled."""
    for key in keys:
        char = key if len(key) == 1 else {"enter": "\r", "space": " "}.get(key)
        app.post_message(events.Key(key, char))


BURST = [*"/help", "enter", *"ab", "ctrl+j", "c", "left", "x", "up"]


class InputHost(Sent):
    """The same keys typed at the input itself: what the stand-in must amount to."""

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield PromptInput(id="prompt")

    def on_mount(self) -> None:
        self.query_one(PromptInput).focus()


async def test_keys_typed_at_the_stand_in_reach_the_input_in_order():
    direct = InputHost()
    async with direct.run_test() as pilot:
        burst(direct, BURST)
        await drain(pilot)
        expected = (direct.sent, direct.query_one(PromptInput).text,
                    direct.query_one(PromptInput).cursor_location)
    assert expected[0] == ["/help"] and expected[1].startswith("ab\n")

    app = Host()
    async with app.run_test() as pilot:
        standin = app.query_one(PromptStandIn)
        assert app.focused is standin
        burst(app, BURST)
        await drain(pilot)
        assert not app.sent  # nothing is lost and nothing is sent while no input exists
        assert [key for key, _ in standin.typed] == BURST
        standin.hand_over(lambda: PromptInput(id="prompt"))
        await drain(pilot)
        prompt = app.query_one(PromptInput)
        assert app.focused is prompt
        assert (app.sent, prompt.text, prompt.cursor_location) == expected
        assert not app.query(PromptStandIn)  # it removed itself


async def test_a_key_typed_during_the_hand_over_comes_after_the_kept_ones():
    app = Host()
    async with app.run_test() as pilot:
        standin = app.query_one(PromptStandIn)
        burst(app, [*"ab"])
        await drain(pilot)
        standin.hand_over(lambda: PromptInput(id="prompt"))
        burst(app, ["c"])  # reaches the stand-in while the input is being mounted
        await drain(pilot)
        assert app.query_one(PromptInput).text == "abc"


async def test_a_stand_in_without_the_focus_hands_over_without_taking_it():
    app = Host()
    async with app.run_test() as pilot:
        app.set_focus(None)
        app.query_one(PromptStandIn).hand_over(lambda: PromptInput(id="prompt"))
        await drain(pilot)
        assert app.focused is None
        assert app.query_one(PromptInput).text == ""


def test_the_first_frame_of_the_app_needs_no_text_area(tmp_path):
    """WikiApp's first frame shows the stand-in, focused, and TextArea is not imported yet;
    right after it the input takes its place with the focus. The cyclic GC, off until the
    first frame, runs again after it."""
    (tmp_path / "AGENTS.md").write_text("# Schema\n")
    code = f"""
import gc, sys
from pathlib import Path
from wiki_tui.ui.app import WikiApp

app = WikiApp(Path({str(tmp_path)!r}))
seen = []

def painted():
    seen.append(('textual.widgets._text_area' in sys.modules, type(app.focused).__name__,
                 gc.isenabled()))
    app.set_timer(0.05, later)

def later():
    from wiki_tui.ui.chat.prompt import PromptInput
    if not app.query(PromptInput):
        app.set_timer(0.05, later)
        return
    seen.append((type(app.focused).__name__, len(app.query('#prompt-standin')), gc.isenabled()))
    app.exit()

app.call_after_refresh(painted)
app.run(headless=True, size=(120, 40))
print(seen)
"""
    env = {"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().splitlines()[-1] == (
        "[(False, 'PromptStandIn', False), ('PromptInput', 0, True)]")
