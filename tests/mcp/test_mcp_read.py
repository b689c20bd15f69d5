"""`wiki-tui mcp`: the read-only tools and resources, through the SDK's client over stdio."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from mcp import MCPError

from tests.mcp.support import call, call_error, mcp_session

TOOLS = {"search", "read_page", "backlinks", "list_pages", "lint", "recent_log",
         "propose_changes", "links", "tags", "pages_by_tag", "properties", "pages_by_property",
         "recent_changes", "my_proposals", "withdraw_proposal", "list_sources", "read_source"}
WRITERS = {"propose_changes", "withdraw_proposal"}


async def test_read_tools_answer_from_the_vault(git_vault: Path):
    async with mcp_session(git_vault) as session:
        listed = {t.name: t for t in (await session.list_tools()).tools}
        assert set(listed) == TOOLS
        assert all(t.annotations.read_only_hint for n, t in listed.items() if n not in WRITERS)
        propose = listed["propose_changes"]
        assert propose.annotations.read_only_hint is False and "@@@ WRITE" in propose.description

        hits = (await call(session, "search", query="chronometer", limit=3))["hits"]
        assert 1 <= len(hits) <= 3
        first = hits[0]
        line = (git_vault / first["path"]).read_text(encoding="utf-8").splitlines()[first["line"] - 1]
        assert first["snippet"].strip() in line and "chronomet" in first["snippet"].lower()

        by_title = await call(session, "read_page", page="Marine chronometer")
        assert by_title["path"] == "concepts/Marine chronometer.md"
        assert by_title["text"] == (git_vault / by_title["path"]).read_text(encoding="utf-8")
        by_link = await call(session, "read_page", page="[[entities/H4]]")
        assert by_link["path"] == "entities/H4.md"

        back = await call(session, "backlinks", page="John Harrison")
        assert back["page"] == "entities/John Harrison.md"
        assert any(b["source"] == "entities/H4.md" for b in back["linked"])
        for b in back["linked"]:
            source_line = (git_vault / b["source"]).read_text(encoding="utf-8").splitlines()[b["line"] - 1]
            assert "John Harrison" in source_line or "Harrison" in source_line

        concepts = await call(session, "list_pages", type="concept")
        assert {p["path"] for p in concepts["pages"]} == {
            f"concepts/{p.name}" for p in (git_vault / "concepts").glob("*.md")}
        entities = await call(session, "list_pages", folder="entities/")
        assert entities["count"] == len(list((git_vault / "entities").glob("*.md")))
        assert all(p["path"].startswith("entities/") for p in entities["pages"])

        findings = (await call(session, "lint"))["findings"]
        assert all({"code", "path", "line", "message", "severity"} <= set(f) for f in findings)

        log = (await call(session, "recent_log", limit=2))["entries"]
        headings = [ln for ln in (git_vault / "log.md").read_text(encoding="utf-8").splitlines()
                    if ln.startswith("## [")]
        assert len(log) == min(2, len(headings))
        assert log[0]["title"] in headings[-1]  # newest first

        index = (await session.read_resource("wiki://index.md")).contents[0].text
        assert index == (git_vault / "index.md").read_text(encoding="utf-8")
        agents = (await session.read_resource("wiki://AGENTS.md")).contents[0].text
        assert agents == (git_vault / "AGENTS.md").read_text(encoding="utf-8")


async def test_outside_edits_are_seen_and_lint_reports_a_broken_link(git_vault: Path):
    async with mcp_session(git_vault) as session:
        assert not (await call(session, "search", query="quasicrystal"))["hits"]
        page = git_vault / "concepts" / "Quasicrystal.md"
        page.write_text("---\ntitle: Quasicrystal\ntype: concept\nsummary: s\n---\n# Quasicrystal\n\n"
                        "See [[Nowhere page]].\n", encoding="utf-8")
        subprocess.run(["git", "-C", str(git_vault), "add", "-A"], check=True)
        # the server watches the vault: the page is found once the watcher has seen it
        for _ in range(100):
            hits = (await call(session, "search", query="quasicrystal"))["hits"]
            if hits:
                break
            import anyio
            await anyio.sleep(0.05)
        assert hits and hits[0]["path"] == "concepts/Quasicrystal.md"
        findings = (await call(session, "lint"))["findings"]
        assert any(f["path"] == "concepts/Quasicrystal.md" and "Nowhere page" in f["message"]
                   for f in findings)


async def test_bad_arguments_and_an_unknown_page_are_errors_the_agent_can_read(git_vault: Path):
    async with mcp_session(git_vault) as session:
        assert "no page 'No such page'" in await call_error(session, "read_page", page="No such page")
        assert "no page" in await call_error(session, "backlinks", page="Zzzz qqqq")
        assert "limit" in await call_error(session, "search", query="moon", limit="many")
        assert "at least 1" in await call_error(session, "search", query="moon", limit=0)
        assert "query" in await call_error(session, "search", query="   ")
        assert "query" in await call_error(session, "search")  # a required argument missing
        assert "at least 1" in await call_error(session, "recent_log", limit=-3)
        assert "reply" in await call_error(session, "propose_changes", reply="")
        unknown = await session.call_tool("no_such_tool", {})
        assert unknown.is_error and "no_such_tool" in unknown.content[0].text
        with pytest.raises(MCPError):
            await session.read_resource("wiki://nothing-here.md")
        # the server is still there after all of that
        assert (await call(session, "read_page", page="H4"))["path"] == "entities/H4.md"


def test_a_folder_that_is_not_a_vault_is_refused_on_stderr(tmp_path: Path):
    from tests.mcp.support import WIKI_TUI

    done = subprocess.run([WIKI_TUI, "mcp", str(tmp_path)], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=30)
    assert done.returncode == 2
    assert done.stdout == ""  # stdout is the protocol's
    assert f"{tmp_path} holds no markdown pages" in done.stderr  # (an empty folder)
    assert "wiki-tui init" in done.stderr


def test_the_server_does_not_import_litellm_or_the_ui():
    code = ("import sys; from wiki_tui.cli import parse_args; "
            "parse_args(['mcp', '.']); import wiki_tui.mcp_server.server; "
            "print(sorted(m for m in sys.modules if m == 'litellm' or m.startswith(('textual', 'wiki_tui.ui'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert out.strip() == "[]"


async def test_the_catalog_resource_is_the_catalog_wherever_it_lives(git_vault: Path):
    """With `catalog: wiki-index.md`, wiki://index.md serves that file, not the home page."""
    agents = git_vault / "AGENTS.md"
    agents.write_text(agents.read_text(encoding="utf-8").replace("---\n", "---\ncatalog: wiki-index.md\n", 1),
                      encoding="utf-8")
    catalog = (git_vault / "index.md").read_text(encoding="utf-8")
    (git_vault / "wiki-index.md").write_text(catalog, encoding="utf-8")
    (git_vault / "index.md").write_text("# My home\n\nMine.\n", encoding="utf-8")
    async with mcp_session(git_vault) as session:
        served = (await session.read_resource("wiki://index.md")).contents[0].text
    assert served == catalog


def test_change_notices_name_the_catalog_wherever_it_lives():
    from wiki_tui.mcp_server.feed import page_uri

    assert page_uri("index.md") == "wiki://index.md" and page_uri("AGENTS.md") == "wiki://AGENTS.md"
    assert page_uri("wiki-index.md", "wiki-index.md") == "wiki://index.md"
    assert page_uri("index.md", "wiki-index.md") == "wiki://page/index.md"  # the home page
