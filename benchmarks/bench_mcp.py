"""MCP round trips on a synthetic 10,000-page vault; prints JSON (milliseconds).

    uv run python benchmarks/bench_mcp.py [--pages 10000] [--dir DIR] [--calls 200]

Generates the vault with gen_vault.py (or reuses --dir), starts `wiki-tui mcp DIR` as a real
subprocess and talks to it with the official SDK's client, over stdio and then over streamable
HTTP (`--transport streamable-http --port 0`), as an agent would:
- start_*_ms: from spawning the server to the end of `initialize` (the first start builds the
  vault's cache; the others are warm);
- search_* / read_page_*: one tool call's round trip (request written, answer parsed), median
  and p95 over --calls calls: searches for words of the vault's vocabulary, pages read by
  title (resolved by the vault's link rules). The first search, which may still wait for the
  search database to be built, is reported apart (first_search_ms);
- huge_query_ms: a 1 MB query (one word repeated) answered (a tool error: too long), and
  after_huge_query_ms: the next ordinary search; on the generated vault and on sample_vault/.
Keys without a prefix are stdio; `http_` ones are streamable HTTP.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import asynccontextmanager
from pathlib import Path

import anyio

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from gen_vault import WORDS, generate  # noqa: E402
from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.types import Implementation  # noqa: E402

WIKI_TUI = str(Path(sys.executable).parent / "wiki-tui")


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _summary(name: str, times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return {f"{name}_median_ms": _ms(statistics.median(ordered)), f"{name}_p95_ms": _ms(p95)}


async def _timed_call(session: ClientSession, tool: str, arguments: dict,
                      error_ok: bool = False) -> float:
    start = time.perf_counter()
    result = await session.call_tool(tool, arguments)
    elapsed = time.perf_counter() - start
    if result.is_error and not error_ok:
        raise SystemExit(f"{tool}({arguments}) failed: {result.content[0].text}")
    return elapsed


@asynccontextmanager
async def _connected(root: Path, transport: str):
    """A client session with `wiki-tui mcp root` over stdio or streamable HTTP."""
    client = Implementation(name="bench", version="1")
    if transport == "stdio":
        params = StdioServerParameters(command=WIKI_TUI, args=["mcp", str(root)])
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, client_info=client) as session:
                await session.initialize()
                yield session
        return
    proc = subprocess.Popen([WIKI_TUI, "mcp", str(root), "--transport", "streamable-http",
                             "--port", "0"], stdin=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"})
    try:
        url = None
        while url is None:
            line = await anyio.to_thread.run_sync(proc.stderr.readline)
            if not line:
                raise SystemExit("the HTTP server ended before listening")
            found = re.search(r"at (http://\S+/mcp) ", line.decode())
            url = found.group(1) if found else None
        async with streamable_http_client(url) as (read, write):
            async with ClientSession(read, write, client_info=client) as session:
                await session.initialize()
                yield session
    finally:
        proc.terminate()
        proc.wait(timeout=60)


async def _huge_query(session: ClientSession, report: dict, prefix: str) -> None:
    report[f"{prefix}huge_query_ms"] = _ms(await _timed_call(
        session, "search", {"query": "river " * 175_000}, error_ok=True))  # ~1 MB
    report[f"{prefix}after_huge_query_ms"] = _ms(await _timed_call(session, "search",
                                                                   {"query": "river"}))


async def _session(root: Path, calls: int, report: dict, key: str,
                   transport: str = "stdio") -> None:
    prefix = "" if transport == "stdio" else "http_"
    start = time.perf_counter()
    async with _connected(root, transport) as session:
        report[f"{prefix}start_{key}_ms"] = _ms(time.perf_counter() - start)
        if calls == 0:
            return
        rng = random.Random(7)
        report[f"{prefix}first_search_ms"] = _ms(await _timed_call(session, "search",
                                                                   {"query": "river"}))
        pages = (await session.call_tool("list_pages", {})).structured_content["pages"]
        titles = [page["title"] for page in rng.sample(pages, min(calls, len(pages)))]
        search_times = [await _timed_call(session, "search",
                                          {"query": " ".join(rng.sample(WORDS, rng.randint(1, 2))),
                                           "limit": 20})
                        for _ in range(calls)]
        read_times = [await _timed_call(session, "read_page", {"page": title})
                      for title in titles]
        report["pages"] = (await session.call_tool("list_pages", {"limit": 1})).structured_content["count"]
        report["calls"] = calls
        report.update(_summary(f"{prefix}search", search_times))
        report.update(_summary(f"{prefix}read_page", read_times))
        await _huge_query(session, report, prefix)


async def _sample_vault(report: dict) -> None:
    """The 1 MB query on a copy of sample_vault/ (the budget: answered within 1 s)."""
    with tempfile.TemporaryDirectory(prefix="wiki-bench-mcp-sample-") as tmp:
        root = Path(tmp) / "vault"
        shutil.copytree(HERE.parent / "sample_vault", root)
        async with _connected(root, "stdio") as session:
            await _timed_call(session, "search", {"query": "river"})  # the database is ready
            await _huge_query(session, report, "sample_")


async def bench(root: Path, calls: int) -> dict:
    report: dict = {"load_average": [round(x, 2) for x in os.getloadavg()]}
    await _session(root, 0, report, "cold")  # builds the vault cache
    await _session(root, calls, report, "warm")
    await _session(root, calls, report, "warm", transport="streamable-http")
    await _sample_vault(report)
    report["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return report


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=10000)
    parser.add_argument("--dir", type=Path, default=None)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    tmp = None
    root = args.dir
    if root is None or not root.exists():
        if root is None:
            tmp = Path(tempfile.mkdtemp(prefix="wiki-bench-mcp-"))
            root = tmp / "vault"
        started = time.perf_counter()
        generate(root, args.pages)
        print(f"generated {args.pages} pages in {time.perf_counter() - started:.1f} s",
              file=sys.stderr)
    try:
        report = anyio.run(bench, root, args.calls)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
