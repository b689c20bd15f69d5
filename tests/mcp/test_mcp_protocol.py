"""Protocol hygiene over stdio: every malformed line answered (never silence), output schemas
that say something, plain-language argument errors, caps said, bounded queries."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import anyio
import pytest
from mcp.server.mcpserver.exceptions import ToolError

from tests.mcp.support import WIKI_TUI, call, call_error, mcp_session
from wiki_tui import __version__
from wiki_tui.mcp_server import calls
from wiki_tui.mcp_server.tools import lookups as tools
from wiki_tui.mcp_server.transport import envelope
from wiki_tui.vault import Vault

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "raw", "version": "0"}}}


def test_malformed_lines_on_stdin_each_get_an_error_and_the_session_goes_on(git_vault: Path):
    lines = [
        json.dumps(INIT),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        "{this is not json",
        json.dumps([{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]),
        json.dumps({"jsonrpc": "1.0", "id": 3, "method": "tools/list"}),
        json.dumps({"jsonrpc": "2.0", "id": 4}),
        json.dumps({"jsonrpc": "2.0", "id": 5, "method": 12}),
        json.dumps({"jsonrpc": "2.0", "id": 6, "method": "tools/list", "params": [1]}),
        "",  # a blank line is no message
        "42",
        json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/list"}),
    ]
    proc = subprocess.Popen([WIKI_TUI, "mcp", str(git_vault)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    answers = []
    while not answers or answers[-1].get("id") != 9:  # (silence would hang: the test's timeout)
        answers.append(json.loads(proc.stdout.readline()))
    _, err = proc.communicate(timeout=60)  # closing stdin ends the session
    assert [a.get("id") for a in answers] == [1, None, None, 3, 4, 5, 6, None, 9]
    codes = [a["error"]["code"] for a in answers[1:-1]]
    assert codes == [-32700, -32600, -32600, -32600, -32600, -32600, -32600]
    assert "batch" in answers[2]["error"]["message"]
    assert '"2.0"' in answers[3]["error"]["message"] and "method" in answers[4]["error"]["message"]
    assert answers[0]["result"]["serverInfo"] == {"name": "wiki-tui", "version": __version__}
    assert {t["name"] for t in answers[-1]["result"]["tools"]} >= {"search", "read_page"}
    assert proc.returncode == 0 and "Traceback" not in err


@pytest.mark.parametrize("raw", [b"", b"[]", b"null", b"{", b'{"jsonrpc": "2.0"}',
                                 b'{"jsonrpc": "2.0", "id": true, "method": "ping"}',
                                 b'{"jsonrpc": "2.0", "id": null, "method": "ping"}',
                                 b'{"jsonrpc": "2.0", "id": 1, "method": "x", "params": 3}',
                                 b"[" * 100_000])
def test_envelope_refusals_are_json_rpc_errors(raw: bytes):
    error = envelope.refusal(raw)
    assert error is not None and error["jsonrpc"] == "2.0" and "id" in error
    assert error["error"]["code"] in (-32700, -32600)


def test_sound_messages_pass_the_envelope():
    for message in (INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": "a", "result": {}},
                    {"jsonrpc": "2.0", "id": 3, "error": {"code": 1, "message": "m"}}):
        assert envelope.refusal(json.dumps(message)) is None


async def test_output_schemas_describe_every_field(git_vault: Path):
    async with mcp_session(git_vault) as session:
        listed = (await session.list_tools()).tools
    for tool in listed:
        schema = tool.output_schema
        assert schema and schema.get("properties"), tool.name
        for name, prop in schema["properties"].items():
            assert prop.get("description"), (tool.name, name)
        assert all(p.get("description") for p in tool.input_schema.get("properties", {}).values()
                   if tool.name in ("search", "read_page")), tool.name


async def test_argument_mistakes_are_told_in_plain_words(git_vault: Path):
    async with mcp_session(git_vault) as session:
        missing = await call_error(session, "search")
        wrong_type = await call_error(session, "search", query=3)
        too_small = await call_error(session, "list_pages", limit=0)
        words = await call_error(session, "search", query="x", limit="ten")
        refused_cursor = await call_error(session, "list_pages", cursor="not-one-of-ours")
    assert missing == "search: query is missing"
    assert wrong_type == "search: query must be text (got 3)"
    assert too_small == "list_pages: limit must be at least 1 (got 0)"
    assert words == 'search: limit must be a whole number (got "ten")'
    assert "cursor" in refused_cursor
    for text in (missing, wrong_type, too_small, words, refused_cursor):
        assert "pydantic" not in text and "validation error" not in text


async def test_caps_are_said_and_listings_come_in_parts(git_vault: Path):
    async with mcp_session(git_vault) as session:
        capped = await call(session, "search", query="the", limit=1000)
        log = await call(session, "recent_log", limit=5000)
        first = await call(session, "list_pages", limit=3)
        rest, seen = [], [p["path"] for p in first["pages"]]
        cursor = first["next_cursor"]
        while cursor:
            part = await call(session, "list_pages", limit=3, cursor=cursor)
            seen += [p["path"] for p in part["pages"]]
            cursor = part["next_cursor"]
        everything = await call(session, "list_pages")
    assert capped["limit"] == tools.SEARCH_LIMIT
    assert any("1000" in note and str(tools.SEARCH_LIMIT) in note for note in capped["notes"])
    assert any("5000" in note for note in log["notes"])
    assert first["truncated"] is True and first["count"] == everything["count"]
    assert seen == [p["path"] for p in everything["pages"]]
    assert everything["next_cursor"] is None and everything["notes"] == []


async def test_a_huge_query_is_refused_and_the_next_search_is_unaffected(git_vault: Path):
    async with mcp_session(git_vault) as session:
        huge = await call_error(session, "search", query="harrison " * 120_000)  # ~1 MB
        many = await call_error(session, "search",
                                query=" ".join(f"word{n}" for n in range(40)))
        repeated = await call(session, "search", query="harrison " * 100)
        after = await call(session, "search", query="harrison")
    assert "characters" in huge and f"{tools.QUERY_MAX_CHARS:,}" in huge
    assert "40 different words" in many
    assert repeated["hits"] and [h["path"] for h in repeated["hits"]] == [
        h["path"] for h in after["hits"]]


async def test_a_call_past_its_time_limit_is_an_error_and_others_are_served(sample_vault: Path):
    """The limit itself, with a tool body held on an event: the stuck call is answered with an
    error when its time is up, and calls made meanwhile are served."""
    vault = Vault.open(sample_vault)
    release = __import__("threading").Event()

    def stuck(_vault: Vault) -> dict:
        release.wait(60)
        return {}

    def quick(_vault: Vault) -> dict:
        return {"ok": True}

    slow = calls.answers(vault, stuck, None, seconds=0.2)
    fast = calls.answers(vault, quick, None, seconds=30)
    try:
        async with anyio.create_task_group() as tasks:
            outcome: dict = {}

            async def run_slow() -> None:
                with pytest.raises(ToolError, match="took longer than 0.2 s"):
                    await slow()
                outcome["slow"] = "refused"

            tasks.start_soon(run_slow)
            assert await fast() == {"ok": True}
        assert outcome == {"slow": "refused"}
    finally:
        release.set()
        vault.close()
