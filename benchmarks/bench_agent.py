"""Agent benchmarks (prints JSON, medians).

    uv run python benchmarks/bench_agent.py [--runs N] [--vault-dir DIR] [--skip-vault]

- cli_query_first_token_s: `wiki-tui query ... --model openai/test-model` against the local
  server, from launching the process to the first token byte on its stdout;
- first_token_with_import_s: a fresh process, from start to the first streamed token against
  the local OpenAI-compatible server (tests/support/llm_server.py), litellm's import included;
- first_token_first_call_after_warm_up_s: the first call in a process that ran llm.warm_up();
- first_token_without_import_s: later calls (median), litellm loaded and warm;
- per_chunk_*: the client's cost per chunk at 100 chunks/s (CPU time of the event-loop thread
  per chunk, through stream_chat alone and through a whole query operation), and the wall time
  per chunk when the server sends as fast as it can;
- offline_ingest_s: the offline engine ingesting a 50 KB source into the 10,000-page synthetic
  vault (benchmarks/gen_vault.py), from the call to the ChangesetReady event.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from tests.support.llm_server import LLMServer, Reply  # noqa: E402

_CHILD = r"""
import time
t0 = time.perf_counter()
import asyncio, sys
sys.path.insert(0, {root!r})
from wiki_tui.agent.config import AgentSettings
from wiki_tui.agent.events import Token
from wiki_tui.agent.engine.llm import stream_chat

async def main():
    settings = AgentSettings(model="openai/test-model", offline=False, api_base={api_base!r},
                             api_key="sk-test")
    async for item in stream_chat(settings, [{{"role": "user", "content": "hi"}}]):
        if isinstance(item, Token):
            print(time.perf_counter() - t0, flush=True)
            return
asyncio.run(main())
"""


def first_token_with_import(server: LLMServer, runs: int) -> list[float]:
    times = []
    code = _CHILD.format(root=str(ROOT), api_base=server.api_base)
    for _ in range(runs):
        server.queue(Reply("hello world", chunk_size=4))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env=os.environ | {"LITELLM_LOCAL_MODEL_COST_MAP": "True"})
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return times


def cli_first_token(server: LLMServer, runs: int) -> list[float]:
    """`wiki-tui query` as a person runs it: from process launch to the first token byte on
    stdout (interpreter, imports, vault open, prompt, litellm import, request)."""
    import shutil

    times = []
    with tempfile.TemporaryDirectory() as tmp:
        vault = Path(tmp) / "vault"
        shutil.copytree(ROOT / "sample_vault", vault)
        env = os.environ | {"WIKI_TUI_API_BASE": server.api_base,
                            "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        env.pop("OPENAI_API_KEY", None)
        for _ in range(runs):
            server.queue(Reply("Tokens arrive.", chunk_size=4))
            start = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-c", "import sys; from wiki_tui.cli import main; "
                 "sys.exit(main(sys.argv[1:]))", "--vault", str(vault), "query",
                 "When was the Nautical Almanac first published?", "--model",
                 "openai/test-model"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env=env, cwd=ROOT)
            first = proc.stdout.read(1)
            elapsed = time.perf_counter() - start
            proc.stdout.read()
            proc.wait()
            if not first:
                raise SystemExit("the CLI printed no token")
            times.append(elapsed)
    return times


async def _first_token(settings) -> float:
    from wiki_tui.agent.events import Token
    from wiki_tui.agent.engine.llm import stream_chat

    start = time.perf_counter()
    first = None
    async for item in stream_chat(settings, [{"role": "user", "content": "hi"}]):
        if isinstance(item, Token) and first is None:
            first = time.perf_counter() - start
    return first


async def _stream_cost(settings, n: int) -> tuple[float, float]:
    """(CPU seconds of this thread per chunk, wall seconds per chunk) for one streamed reply."""
    from wiki_tui.agent.engine.llm import stream_chat

    cpu0, wall0 = time.thread_time(), time.perf_counter()
    async for _ in stream_chat(settings, [{"role": "user", "content": "hi"}]):
        pass
    return (time.thread_time() - cpu0) / n, (time.perf_counter() - wall0) / n


async def _query_cost(vault, settings, n: int) -> float:
    from wiki_tui.agent.operations import query

    cpu0 = time.thread_time()
    async for _ in query(vault, "what is this", settings):
        pass
    return (time.thread_time() - cpu0) / n


def make_source(size: int = 50_000) -> str:
    """A 50 KB markdown source: headings, paragraphs, names of pages."""
    words = ("review meeting budget design system network memory signal model theory river "
             "market engine garden protocol archive library window history policy").split()
    out, i = ["# A long benchmark source\n\nThe lead sentence of the source. A second one.\n"], 0
    while sum(map(len, out)) < size:
        out.append(f"\n## Section {i}\n\n")
        sentence = " ".join(words[(i + k) % len(words)] for k in range(14)).capitalize()
        out.append((sentence + ". ") * 6 + "\n")
        i += 1
    return "".join(out)[:size]


async def _offline_ingest(vault, source: str) -> float:
    from wiki_tui.agent.config import AgentSettings
    from wiki_tui.agent.events import ChangesetReady, Failed
    from wiki_tui.agent.operations import ingest

    start = time.perf_counter()
    elapsed = None
    async for event in ingest(vault, source, AgentSettings()):
        if isinstance(event, ChangesetReady):
            elapsed = time.perf_counter() - start
        elif isinstance(event, Failed):
            raise SystemExit(f"offline ingest failed: {event.reason}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--vault-dir", type=Path, default=None,
                        help="where the 10,000-page vault is (generated there if missing)")
    parser.add_argument("--skip-vault", action="store_true")
    args = parser.parse_args()
    result: dict = {}
    with LLMServer() as server:
        cli = cli_first_token(server, args.runs)
        result["cli_query_first_token_s"] = round(statistics.median(cli), 3)
        with_import = first_token_with_import(server, args.runs)
        result["first_token_with_import_s"] = round(statistics.median(with_import), 3)

        from wiki_tui.agent.engine.llm import warm_up

        t = time.perf_counter()
        warm_up()  # what the TUI does in a worker after first paint
        result["warm_up_in_process_s"] = round(time.perf_counter() - t, 3)
        settings = server.settings()

        async def measure():
            out = {}
            server.queue(Reply("hello world", chunk_size=4))
            out["first_token_first_call_after_warm_up_s"] = round(
                await _first_token(settings), 4)
            firsts = []
            for _ in range(max(5, args.runs * 2)):
                server.queue(Reply("hello world", chunk_size=4))
                firsts.append(await _first_token(settings))
            out["first_token_without_import_s"] = round(statistics.median(firsts), 4)
            n = 300
            cpu, wall = [], []
            for _ in range(3):
                server.queue(Reply("x" * n, chunk_size=1, rate=100))
                c, w = await _stream_cost(settings, n)
                cpu.append(c)
                wall.append(w)
            out["per_chunk_cpu_ms_at_100_per_s"] = round(statistics.median(cpu) * 1000, 3)
            out["per_chunk_wall_ms_at_100_per_s"] = round(statistics.median(wall) * 1000, 3)
            fast = []
            for _ in range(3):
                server.queue(Reply("x" * 2000, chunk_size=1))
                fast.append((await _stream_cost(settings, 2000))[1])
            out["per_chunk_wall_ms_unthrottled"] = round(statistics.median(fast) * 1000, 3)
            return out

        result.update(asyncio.run(measure()))

        if not args.skip_vault:
            from wiki_tui.vault import Vault

            vault_dir = args.vault_dir or Path(tempfile.gettempdir()) / "wiki-tui-bench-10k"
            if not (vault_dir / "AGENTS.md").exists():
                subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gen_vault.py"),
                                str(vault_dir), "--pages", "10000"], check=True,
                               capture_output=True)
            source = "raw/bench-50kb-source.md"
            (vault_dir / source).parent.mkdir(exist_ok=True)
            (vault_dir / source).write_text(make_source(), encoding="utf-8")
            t = time.perf_counter()
            vault = Vault.open(vault_dir)
            result["vault_open_10k_s"] = round(time.perf_counter() - t, 3)

            async def per_chunk_pipeline():
                server.queue(Reply("y" * 300, chunk_size=1, rate=100))
                return await _query_cost(vault, settings, 300)

            try:
                result["per_chunk_cpu_ms_query_pipeline_at_100_per_s"] = round(
                    asyncio.run(per_chunk_pipeline()) * 1000, 3)
            except Exception as exc:  # keep the other numbers
                result["per_chunk_query_pipeline_error"] = repr(exc)
            runs = [asyncio.run(_offline_ingest(vault, source)) for _ in range(args.runs)]
            result["offline_ingest_50kb_into_10k_s"] = round(statistics.median(runs), 3)
            result["offline_ingest_runs_s"] = [round(r, 3) for r in runs]
            vault.close()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
