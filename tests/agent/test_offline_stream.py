"""The offline engine serves the streaming interface of a real model, without litellm."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading

import pytest

from wiki_tui.agent.config import AgentSettings
from wiki_tui.agent.engine.engines import stream_reply
from wiki_tui.agent.events import Progress, Token
from wiki_tui.agent.engine.stream import ChatResult, LLMError, Task


async def collect(task, cancel=None) -> list:
    return [item async for item in stream_reply(AgentSettings(),
                                                [{"role": "user", "content": "hi"}],
                                                task=task, cancel=cancel)]


async def test_the_task_reaches_the_engine_and_the_turn_ends_like_a_model_turn():
    items = await collect(Task("nothing-known", vault=None))
    text = "".join(i.text for i in items if isinstance(i, Token))
    result = items[-1]
    assert "nothing to do for 'nothing-known'" in text  # the engine saw our task
    assert "not a language model" in text
    assert isinstance(result, ChatResult) and result.text == text
    assert result.usage.cost_usd == 0.0 and result.finish_reason == "stop"
    assert result.usage.completion_tokens == len(text) // 4


async def test_without_a_task_the_engine_says_what_it_is():
    items = await collect(None)
    assert "carried no task" in items[-1].text


async def test_a_long_reply_streams_in_pieces_that_add_up(sample_vault):
    from wiki_tui.vault import Vault

    vault = Vault.open(sample_vault)
    items = await collect(Task("query", vault, {"question": "Who made K1 and when?"}))
    tokens = [i.text for i in items if isinstance(i, Token)]
    assert len(tokens) >= 2 and "".join(tokens) == items[-1].text


async def test_progress_from_the_engine_thread_arrives_before_the_reply(monkeypatch):
    from wiki_tui.agent.offline import engine

    def slow(vault, args, progress):
        for n in range(1, 4):
            progress("reading", n, 3)
        return "done\n"

    monkeypatch.setitem(engine.HANDLERS, "ingest", slow)
    items = await collect(Task("ingest", vault=None))
    steps = [i for i in items if isinstance(i, Progress)]
    assert [(s.done, s.total) for s in steps] == [(1, 3), (2, 3), (3, 3)]
    assert steps[-1].fraction == 1.0
    first_token = next(n for n, i in enumerate(items) if isinstance(i, Token))
    assert items.index(steps[-1]) < first_token


async def test_cancel_stops_a_turn_while_the_engine_works(monkeypatch):
    from wiki_tui.agent.offline import engine

    release = threading.Event()

    def stuck(vault, args, progress):
        progress("reading", 0, 0)
        release.wait(30)
        return "late\n"

    monkeypatch.setitem(engine.HANDLERS, "ingest", stuck)
    cancel = asyncio.Event()
    seen = []
    with pytest.raises(LLMError) as fault:
        async for item in stream_reply(AgentSettings(), [], task=Task("ingest", None),
                                       cancel=cancel):
            seen.append(item)
            if isinstance(item, Progress):
                cancel.set()  # the person presses Esc while the engine is still reading
    release.set()
    assert fault.value.kind == "cancelled"
    assert not any(isinstance(i, (Token, ChatResult)) for i in seen)


async def test_a_fault_of_the_engine_is_an_llm_error_not_a_traceback(monkeypatch):
    from wiki_tui.agent.offline import engine

    def broken(vault, args, progress):
        raise KeyError("page")

    monkeypatch.setitem(engine.HANDLERS, "query", broken)
    with pytest.raises(LLMError, match="offline engine failed: KeyError") as fault:
        await collect(Task("query", vault=None))
    assert fault.value.kind == "error"


async def test_a_cancel_set_before_the_turn_starts_nothing():
    cancel = asyncio.Event()
    cancel.set()
    with pytest.raises(LLMError, match="Cancelled"):
        await collect(Task("query", None), cancel)


def _modules_after(code: str, cwd) -> set[str]:
    """Run `code` in a fresh interpreter; the top-level modules it imported."""
    probe = (code + "\nimport sys\n"
             "print('MODULES', ' '.join(sorted({m.split('.')[0] for m in sys.modules})))")
    env = {k: v for k, v in os.environ.items()
           if k not in ("WIKI_TUI_MODEL", "PYTEST_CURRENT_TEST")}
    env["XDG_CONFIG_HOME"] = str(cwd / ".no-config")
    out = subprocess.run([sys.executable, "-c", probe], cwd=cwd, capture_output=True, text=True,
                         timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("MODULES "))
    return set(line.split()[1:])


def test_an_offline_query_in_a_real_process_never_imports_litellm(sample_vault):
    code = ("import sys\nfrom wiki_tui.cli import main\n"
            f"code = main(['--vault', {str(sample_vault)!r}, 'query', 'Who made K1 and when?'])\n"
            "assert code == 0, code")
    modules = _modules_after(code, sample_vault)
    assert "wiki_tui" in modules and "litellm" not in modules and "openai" not in modules


def test_an_offline_ingest_in_a_real_process_never_imports_litellm(git_vault):
    code = ("from wiki_tui.cli import main\n"
            f"code = main(['--vault', {str(git_vault)!r}, 'ingest', "
            "'raw/french-chronometers.md', '--yes'])\nassert code == 0, code")
    modules = _modules_after(code, git_vault)
    assert "litellm" not in modules


_TUI = """
import asyncio
from wiki_tui.ui.app import WikiApp
from wiki_tui.ui.chat.conversation import ReplyMessage

async def main():
    app = WikiApp({root!r})
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(2000):  # the vault loads in a worker after the first paint
            if app.vault is not None:
                break
            await pilot.pause(0.01)
        app.submit("Who made K1 and when?")
        for _ in range(3000):
            await pilot.pause(0.01)
            if app.query(ReplyMessage) and not app.operation_running:
                break
        assert "made K1 in 1769" in app.query(ReplyMessage).last().text

asyncio.run(main())
"""


def test_the_tui_starts_and_answers_offline_without_litellm(git_vault):
    modules = _modules_after(_TUI.format(root=str(git_vault)), git_vault)
    assert "textual" in modules and "litellm" not in modules
