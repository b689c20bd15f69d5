"""Benchmarks of the full-screen app; prints JSON (medians over fresh subprocesses).

    uv run python benchmarks/bench_app.py [--runs 5] [--stream-runs 3] [--pages 10000]

- first_paint: process start -> first screen refresh, WikiApp vs a bare Textual app, same run
  (target ratio <= 1.3), and the same through the `wiki-tui VAULT` entry point (argparse and the
  command table included), with modules loading from cached bytecode (as after any first start)
  and with every module compiled at start (PYTHONDONTWRITEBYTECODE=1, these machines' default).
- first_paint_vault (--vault): the same with a big vault, in pairs of fresh processes whose
  order alternates; beside the ratio of the medians, the median of the pairs' ratios and the
  ratio of CPU time to first paint (steadiest on a loaded machine).
- streaming: 100 tokens/s into a conversation holding 200 earlier messages; worst event-loop
  lag (a 10 ms ticker measuring its own lateness, kept running 0.5 s past the end) and total
  time / token time (targets <= 100 ms and <= 1.15). Tokens arrive on a fixed 10 ms schedule, as from a server streaming
  at 100 tokens/s; the total ends when the last token is on screen, so a UI that falls behind
  (or stalls at the end) lengthens it.
- idle lag: the same ticker in a bare Textual app doing nothing, in the same run, shows what
  the machine itself costs (on a loaded machine the process is simply not scheduled).
- memory: RSS once the 10,000-page synthetic vault is loaded, before any model call
  (target <= 150 MB).
"""

from __future__ import annotations

import time

# The children measure from here. Only what every child needs is imported before the app, so
# nothing the app would import itself (json, argparse...) is paid for it in advance; the
# parent's own modules load in main().
START = time.perf_counter()
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SIZE = (120, 40)


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _emit(data: dict) -> None:
    import json

    sys.stdout.write("BENCH " + json.dumps(data) + "\n")
    sys.stdout.flush()


# -- children (each runs in a fresh process) ----------------------------------------------

async def _vault_settled(app) -> None:
    """Wait until the vault is loaded and the browser has shown its first page (every other
    worker finished; this benchmark's own worker is among them, so not wait_for_complete)."""
    import asyncio

    from textual.worker import get_current_worker

    me = get_current_worker()
    deadline = time.perf_counter() + 300
    while time.perf_counter() < deadline:
        vault_done = app.vault is not None or any(
            w.group == "vault" and w.is_finished for w in app.workers)  # loaded, or failed
        busy = any(w is not me and w.group != "bench" and not w.is_finished
                   for w in app.workers)
        if vault_done and not busy:
            return
        await asyncio.sleep(0.05)


def first_paint_app(kind: str, vault: str):
    """The app whose first paint is timed: `bare`, a Textual App with one Static (and the key
    bar), the anchor; otherwise wiki-tui's app on `vault`."""
    from textual.app import App

    if kind == "bare":
        from textual.widgets import Footer, Static

        class Bare(App):
            def compose(self):
                yield Static("hello")
                yield Footer()

        return Bare()
    from wiki_tui.ui.app import WikiApp

    return WikiApp(Path(vault))


def child_first_paint(kind: str, vault: str) -> None:
    from textual.app import App

    if kind == "cli":  # as a person starts it: `wiki-tui VAULT` (argument parsing included)
        run = App.run

        def run_headless(app: App, *args, **kwargs):
            app.call_after_refresh(lambda: _painted(app))
            return run(app, headless=True, size=SIZE)

        App.run = run_headless  # type: ignore[method-assign]
        from wiki_tui.cli import main

        main([vault])
        return
    app = first_paint_app(kind, vault)
    app.call_after_refresh(lambda: _painted(app))  # queued before mount: after the first refresh
    app.run(headless=True, size=SIZE)


def _painted(app) -> None:
    _emit({"seconds": time.perf_counter() - START, "cpu_seconds": time.process_time(),
           "litellm_imported": "litellm" in sys.modules})
    app.exit()


ANSWER_PARAGRAPH = (
    "The **Board of Longitude** weighed [[Harrison's sea clocks|H4]] against the method of "
    "[[Lunar Distances]]; both needed careful observation at sea. See also `almanac` tables, "
    "and the trials aboard the *Deptford* in 1761. "
)


def _tokens(count: int) -> list[str]:
    text = ""
    section = 0
    while len(text) < count * 5:
        section += 1
        text += f"\n\n## Point {section}\n\n" + ANSWER_PARAGRAPH * 2
        text += "\n\n- first item with a [[Link]]\n- second item\n- third item\n"
    return [text[i:i + 5] for i in range(0, count * 5, 5)]


def child_streaming(vault: str, tokens: int, earlier: int) -> None:
    import asyncio
    import os

    from wiki_tui.agent import events as ev
    from wiki_tui.ui.app import WikiApp
    from wiki_tui.ui.chat.presenter import EventPresenter

    app = WikiApp(Path(vault))
    result: dict = {}

    async def run() -> None:
        await _vault_settled(app)
        conv = app.conversation
        for i in range(earlier // 2):
            conv.add_user(f"Question {i}: what did the board decide about chronometers?")
            conv.add_markdown(f"### Answer {i}\n\n" + ANSWER_PARAGRAPH * 3
                              + "\n\n- a point\n- another point\n")
        await asyncio.sleep(2.0)  # let the history lay out before measuring

        lags: list[float] = []
        when: list[float] = []
        stop = asyncio.Event()

        async def ticker() -> None:
            interval = 0.01
            while not stop.is_set():
                before = time.perf_counter()
                await asyncio.sleep(interval)
                lags.append(time.perf_counter() - before - interval)
                when.append(round(before - began, 2))

        presenter = EventPresenter(conv, "query")
        pieces = _tokens(tokens)
        profile = None
        if os.environ.get("BENCH_PROFILE"):  # CPU profile of the streaming phase only
            import cProfile

            profile = cProfile.Profile(time.process_time)
            profile.enable()
        began = time.perf_counter()
        tick = asyncio.create_task(ticker())
        cpu_began = time.process_time()
        presenter.handle(ev.Started("query", "bench", "bench"))
        for index, piece in enumerate(pieces, 1):
            # The server sends at 100 tokens/s whatever the app does (a network stream does
            # not wait for its reader): the token is handled as soon as the loop gets to it.
            await asyncio.sleep(max(0.0, began + index * 0.01 - time.perf_counter()))
            presenter.handle(ev.Token(piece))
        presenter.handle(ev.Done())
        await asyncio.sleep(0)  # the final render is queued; count it
        done = asyncio.Event()
        app.call_after_refresh(done.set)
        await done.wait()
        total = time.perf_counter() - began
        cpu = time.process_time() - cpu_began
        await asyncio.sleep(0.5)  # any work the app put off until the reply ended counts too
        if profile is not None:
            profile.disable()
            profile.dump_stats(os.environ["BENCH_PROFILE"])
        stop.set()
        await tick
        token_time = len(pieces) * 0.01
        result.update(tokens=len(pieces), earlier_messages=earlier,
                      token_seconds=round(token_time, 3), total_seconds=round(total, 3),
                      ratio=round(total / token_time, 3),
                      max_lag_ms=round(max(lags) * 1000, 1),
                      p99_lag_ms=round(sorted(lags)[int(len(lags) * 0.99)] * 1000, 1),
                      reply_chars=len(conv.replies()[-1].text),
                      lag_samples=len(lags),
                      worst_lags=sorted(((round(l * 1000), w) for l, w in zip(lags, when)),
                                        reverse=True)[:5],
                      cpu_seconds=round(cpu, 3), load_average=os.getloadavg()[0])
        app.exit()

    app.call_later(lambda: app.run_worker(run(), group="bench"))
    app.run(headless=True, size=SIZE)
    _emit(result)


def child_idle_lag(seconds: float) -> None:
    """The same ticker in a bare Textual app doing nothing: what this machine gives anyway."""
    import asyncio

    from textual.app import App
    from textual.widgets import Footer, Static

    class Bare(App):
        def compose(self):
            yield Static("idle")
            yield Footer()

    app = Bare()
    result: dict = {}

    async def run() -> None:
        lags = []
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - before - 0.01)
        result.update(max_lag_ms=round(max(lags) * 1000, 1),
                      p99_lag_ms=round(sorted(lags)[int(len(lags) * 0.99)] * 1000, 1))
        app.exit()

    app.call_later(lambda: app.run_worker(run()))
    app.run(headless=True, size=SIZE)
    _emit(result)


def child_memory(vault: str) -> None:
    import asyncio

    from wiki_tui.ui.app import WikiApp

    app = WikiApp(Path(vault))
    result: dict = {}

    async def run() -> None:
        began = time.perf_counter()
        await _vault_settled(app)
        await asyncio.sleep(0.3)
        result.update(rss_mb=round(_rss_mb(), 1),
                      pages=len(app.vault.pages) if app.vault is not None else None,
                      vault_loaded=app.vault is not None,
                      load_seconds=round(time.perf_counter() - began, 2),
                      litellm_imported="litellm" in sys.modules)
        app.exit()

    app.call_later(lambda: app.run_worker(run(), group="bench"))
    app.run(headless=True, size=SIZE)
    _emit(result)


# -- parent --------------------------------------------------------------------------------

def _child(*args: str) -> dict:
    import json
    import os
    import subprocess

    proc = subprocess.run([sys.executable, __file__, "--child", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "TEXTUAL_COLOR_SYSTEM": "truecolor"})
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            return json.loads(line[6:])
    raise RuntimeError(f"child {args} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


def _paint_pairs(vault: str, runs: int) -> dict:
    """First paint of the app and of a bare App, in pairs of fresh processes whose order
    alternates, so a machine that gets busier or quieter during the run weighs on both alike.
    Beside the ratio of the medians: the median of each pair's own ratio, and the same from
    the processes' CPU time (what a loaded machine inflates least)."""
    import os
    import statistics

    bare, wiki = [], []
    for run in range(runs):
        kinds = ("bare", "wiki") if run % 2 == 0 else ("wiki", "bare")
        for kind in kinds:
            (bare if kind == "bare" else wiki).append(_child("paint", kind, vault))
    bare_s, wiki_s = _median(bare, "seconds"), _median(wiki, "seconds")
    bare_cpu, wiki_cpu = _median(bare, "cpu_seconds"), _median(wiki, "cpu_seconds")
    return {
        "bare_textual_s": bare_s, "wiki_app_s": wiki_s, "ratio": round(wiki_s / bare_s, 3),
        "pair_ratio_median": round(statistics.median(
            w["seconds"] / b["seconds"] for w, b in zip(wiki, bare)), 3),
        "bare_cpu_s": bare_cpu, "wiki_cpu_s": wiki_cpu, "cpu_ratio": round(wiki_cpu / bare_cpu, 3),
        "target_ratio": 1.3, "runs": runs, "load_average_1min": round(os.getloadavg()[0], 2)}


def _median(rows: list[dict], key: str) -> float:
    import statistics

    return round(statistics.median(row[key] for row in rows), 3)


def main() -> None:
    import argparse
    import json
    import os
    import shutil
    import subprocess
    import tempfile

    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--stream-runs", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=670)
    parser.add_argument("--earlier", type=int, default=200)
    parser.add_argument("--pages", type=int, default=10000)
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--vault", type=Path, default=None,
                        help="an existing (big) vault: memory and a second first-paint row use it")
    parser.add_argument("--skip-sample", action="store_true", help="only the --vault rows")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="bench-app-"))
    os.environ["XDG_STATE_HOME"] = str(scratch / "state")  # never touch the person's state
    os.environ["XDG_CONFIG_HOME"] = str(scratch / "config")
    os.environ.pop("WIKI_TUI_MODEL", None)
    try:
        sample = scratch / "sample"
        shutil.copytree(ROOT / "sample_vault", sample)
        report: dict = {}

        # Two conditions. "cached": modules load from cached bytecode, as on a person's
        # machine after the first start (one unmeasured start of each kind fills a cache folder
        # of this run's; nothing is written in the project). "compiled": every start compiles
        # every module, as under PYTHONDONTWRITEBYTECODE=1 (set on these machines), which
        # mostly measures the compiler and makes the app's share look smaller.
        first_paint_env = {k: os.environ.get(k) for k in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
        report["first_paint"] = {}
        conditions = () if args.skip_sample else ("cached", "compiled")
        for condition in conditions:
            if condition == "cached":
                os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
                os.environ["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
                for kind in ("bare", "wiki", "cli"):
                    _child("paint", kind, str(sample))
            else:
                os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
                os.environ["PYTHONPYCACHEPREFIX"] = str(scratch / "no-pycache")
            bare, wiki, cli = [], [], []
            for _ in range(args.runs):  # interleaved, so machine noise hits all alike
                bare.append(_child("paint", "bare", str(sample)))
                wiki.append(_child("paint", "wiki", str(sample)))
                cli.append(_child("paint", "cli", str(sample)))
            bare_s, wiki_s = _median(bare, "seconds"), _median(wiki, "seconds")
            cli_s = _median(cli, "seconds")
            report["first_paint"][condition] = {
                "bare_textual_s": bare_s, "wiki_app_s": wiki_s,
                "ratio": round(wiki_s / bare_s, 3), "target_ratio": 1.3,
                "via_wiki_tui_command_s": cli_s, "via_command_ratio": round(cli_s / bare_s, 3),
                "litellm_imported_before_paint": any(r["litellm_imported"] for r in wiki + cli),
                "runs": args.runs}
        for key, value in first_paint_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value

        if args.vault is not None:  # first paint with a big vault: the start page opens at once
            os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
            os.environ["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
            _child("paint", "bare", str(args.vault))
            _child("paint", "wiki", str(args.vault))
            report["first_paint_vault"] = {"vault": str(args.vault),
                                           **_paint_pairs(str(args.vault), args.runs)}
            for key, value in first_paint_env.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value

        streams, idle = [], []
        for _ in range(0 if args.skip_sample else args.stream_runs):
            streams.append(_child("stream", str(sample), str(args.tokens), str(args.earlier)))
            idle.append(_child("idle", "7"))
        if streams:  # --stream-runs 0 skips it
            report["streaming"] = {
                "tokens": streams[0]["tokens"], "earlier_messages": args.earlier,
                "token_seconds": streams[0]["token_seconds"],
                "total_seconds": _median(streams, "total_seconds"),
                "ratio": _median(streams, "ratio"), "target_ratio": 1.15,
                "max_lag_ms": _median(streams, "max_lag_ms"), "target_max_lag_ms": 100,
                "worst_run_max_lag_ms": max(r["max_lag_ms"] for r in streams),
                "p99_lag_ms": _median(streams, "p99_lag_ms"),
                "cpu_seconds": _median(streams, "cpu_seconds"),
                "idle_bare_app_max_lag_ms": _median(idle, "max_lag_ms"),
                "idle_bare_app_p99_lag_ms": _median(idle, "p99_lag_ms"),
                "load_average_1min": _median(streams, "load_average"), "runs": args.stream_runs}

        if not args.skip_memory:
            big = args.vault or scratch / "big"
            if args.vault is None:
                subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gen_vault.py"), str(big),
                                "--pages", str(args.pages)], check=True, capture_output=True)
            _child("memory", str(big))  # first run builds the index cache
            memory = [_child("memory", str(big)) for _ in range(3)]
            report["memory"] = {
                "pages": memory[0]["pages"], "vault_loaded": memory[0]["vault_loaded"],
                "rss_mb": _median(memory, "rss_mb"), "target_mb": 150,
                "load_seconds": _median(memory, "load_seconds"),
                "litellm_imported": any(r["litellm_imported"] for r in memory),
                "load_average_1min": round(os.getloadavg()[0], 2)}
        print(json.dumps(report, indent=2))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _run_child(kind: str, *rest: str) -> None:
    if kind == "paint":
        child_first_paint(rest[0], rest[1])
    elif kind == "stream":
        child_streaming(rest[0], int(rest[1]), int(rest[2]))
    elif kind == "idle":
        child_idle_lag(float(rest[0]))
    elif kind == "memory":
        child_memory(rest[0])


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:  # no argparse here: the app's start must pay for its own
        _run_child(*sys.argv[2:])
    else:
        main()
