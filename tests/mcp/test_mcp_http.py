"""`wiki-tui mcp --transport streamable-http`: a real server process, the SDK's HTTP client, and
requests a browser page or a stranger on the network would send."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import httpx2
import pytest

from tests.mcp.support import (WIKI_TUI, call, call_error, http_server, mcp_http_session)
from wiki_tui import __version__
from wiki_tui.changes.apply import pending

TOKEN = "s3cret-token-for-tests-0123456789"
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "raw", "version": "0"}}}
JSON_POST = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


async def test_tools_answer_over_http_and_a_proposal_names_the_agent(git_vault: Path):
    reply = "@@@ WRITE concepts/Gnomon.md\n---\ntitle: Gnomon\n---\n# Gnomon\n\nOver HTTP.\n@@@ END\n"
    with http_server(git_vault) as (url, _proc):
        assert url.startswith("http://127.0.0.1:")
        async with mcp_http_session(url) as session:
            hits = (await call(session, "search", query="chronometer", limit=3))["hits"]
            assert hits and all(h["path"].endswith(".md") for h in hits)
            page = await call(session, "read_page", page="H4")
            assert page["text"] == (git_vault / "entities/H4.md").read_text(encoding="utf-8")
            assert "no page" in await call_error(session, "read_page", page="Nowhere at all")
            answer = await call(session, "propose_changes", reply=reply)
            assert answer["stored"] is True
    [record], _ = pending.load_all(git_vault)
    assert record.agent == "test-agent 1.0"


async def test_server_info_says_the_package_version(git_vault: Path):
    with http_server(git_vault) as (url, _proc):
        async with httpx2.AsyncClient() as client:
            answer = await client.post(url, json=INIT, headers=JSON_POST)
    assert answer.status_code == 200
    body = answer.text
    data = json.loads(body[body.index("{"):body.rindex("}") + 1])  # JSON or one SSE event
    assert data["result"]["serverInfo"] == {"name": "wiki-tui", "version": __version__}


async def test_malformed_messages_get_json_rpc_errors(git_vault: Path):
    bodies = {
        b"{not json": -32700,
        json.dumps([INIT]).encode(): -32600,  # a batch
        json.dumps({**INIT, "jsonrpc": "1.0"}).encode(): -32600,
        json.dumps({"jsonrpc": "2.0", "id": 7}).encode(): -32600,  # no method
        json.dumps({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}).encode(): -32600,
        b'"just a string"': -32600,
    }
    with http_server(git_vault) as (url, _proc):
        async with httpx2.AsyncClient() as client:
            for body, code in bodies.items():
                answer = await client.post(url, content=body, headers=JSON_POST)
                assert answer.status_code == 400, body
                error = answer.json()
                assert error["jsonrpc"] == "2.0" and error["error"]["code"] == code, body
                assert "pydantic" not in error["error"]["message"]
            # the id of a request it could read is echoed
            answer = await client.post(url, json={"jsonrpc": "2.0", "id": 7}, headers=JSON_POST)
            assert answer.json()["id"] == 7
            # and the server still serves
            assert (await client.post(url, json=INIT, headers=JSON_POST)).status_code == 200


async def test_dns_rebinding_is_refused_by_host_and_origin(git_vault: Path):
    with http_server(git_vault) as (url, _proc):
        async with httpx2.AsyncClient() as client:
            foreign_host = await client.post(url, json=INIT,
                                             headers={**JSON_POST, "Host": "evil.example:80"})
            foreign_origin = await client.post(url, json=INIT, headers={
                **JSON_POST, "Origin": "http://evil.example"})
            local_origin = await client.post(url, json=INIT, headers={
                **JSON_POST, "Origin": "http://localhost:5173"})
    assert foreign_host.status_code == 421
    assert foreign_origin.status_code == 403
    assert local_origin.status_code == 200


async def test_a_token_is_required_when_one_is_set(git_vault: Path):
    with http_server(git_vault, token=TOKEN) as (url, _proc):
        async with httpx2.AsyncClient() as client:
            none = await client.post(url, json=INIT, headers=JSON_POST)
            wrong = await client.post(url, json=INIT, headers={
                **JSON_POST, "Authorization": "Bearer " + TOKEN[:-1] + "x"})
            # a malformed body is not even read without the token
            bad_body = await client.post(url, content=b"{x", headers=JSON_POST)
        assert none.status_code == wrong.status_code == bad_body.status_code == 401
        assert none.headers["www-authenticate"].startswith("Bearer")
        assert "Authorization: Bearer" in none.json()["error"]
        async with mcp_http_session(url, headers={"Authorization": f"Bearer {TOKEN}"}) as session:
            assert (await call(session, "search", query="harrison"))["hits"]


@pytest.mark.parametrize("args, message", [
    (["--host", "0.0.0.0"], "--token"),
    (["--host", "0.0.0.0", "--token", "short"], "at least 16"),
    (["--port", "70000"], "between 0 and 65535"),
])
def test_unsafe_or_impossible_setups_are_refused_before_serving(git_vault: Path, args, message):
    done = subprocess.run([WIKI_TUI, "mcp", str(git_vault), "--transport", "streamable-http",
                           *args], capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(git_vault.parent)})
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_port_in_use_is_a_one_line_error(git_vault: Path):
    with http_server(git_vault) as (url, _proc):
        port = url.rsplit(":", 1)[1].split("/")[0]
        done = subprocess.run([WIKI_TUI, "mcp", str(git_vault), "--transport",
                               "streamable-http", "--port", port],
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
async def test_the_server_stops_cleanly_on_a_signal_with_a_session_open(git_vault: Path, sig):
    with http_server(git_vault) as (url, proc):
        async with mcp_http_session(url) as session:
            await call(session, "search", query="harrison")
            proc.send_signal(sig)
            proc.wait(timeout=60)
    assert proc.returncode == 0
