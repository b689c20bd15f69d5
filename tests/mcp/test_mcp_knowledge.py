"""The tools a knowledge-base MCP server is expected to have, over a real `wiki-tui mcp` and the
SDK's client: sections, links, tags, properties, recent changes, an agent's own proposals, raw
sources, pages as resources with change notifications, prompts and completion."""

from __future__ import annotations

import subprocess
from pathlib import Path

import anyio
from mcp import types
from mcp.types import Implementation

from tests.conftest import git
from tests.mcp.support import WIKI_TUI, call, call_error, mcp_session
from wiki_tui.changes.apply import pending


def _lines(vault: Path, rel: str) -> list[str]:
    return (vault / rel).read_text(encoding="utf-8").splitlines()


async def test_read_one_section_by_heading(git_vault: Path):
    async with mcp_session(git_vault) as session:
        section = await call(session, "read_page", page="H4#Trials")
        nested = await call(session, "read_page", page="[[entities/H4#trials]]")
        missing = await call_error(session, "read_page", page="H4#No such heading")
    lines = _lines(git_vault, "entities/H4.md")
    start, end = section["section"]["start_line"], section["section"]["end_line"]
    assert lines[start - 1] == "## Trials" and section["section"]["heading"] == "Trials"
    assert section["text"].splitlines() == lines[start - 1:end]
    assert "## Copies" not in section["text"] and lines[end].strip() in ("", "## Copies")
    assert nested["text"] == section["text"]
    assert "Trials" in section["headings"] and "Copies" in section["headings"]
    assert "no section" in missing and "Trials" in missing  # names the headings it has


async def test_links_tags_and_properties(git_vault: Path):
    page = git_vault / "concepts" / "Gnomon.md"
    page.write_text("---\ntitle: Gnomon\ntype: concept\nstatus: draft\nreviewed: 2024-03-01\n"
                    "tags: [Horology, instrument]\n---\n# Gnomon\n\nSee [[H4]], "
                    "[[Shadow clock]] and [site](https://example.org).\n", encoding="utf-8")
    git(git_vault, "add", "-A")
    git(git_vault, "commit", "-qm", "gnomon")
    async with mcp_session(git_vault) as session:
        links = await call(session, "links", page="Gnomon")
        tags = await call(session, "tags")
        tagged = await call(session, "pages_by_tag", tag="#horology")
        props = await call(session, "properties", page="Gnomon")
        drafts = await call(session, "pages_by_property", name="status", value="DRAFT")
        typed = await call(session, "pages_by_property", name="type", value="entity", limit=2)
        nobody = await call(session, "pages_by_tag", tag="no-such-tag")
    by_raw = {link["raw"]: link for link in links["links"]}
    assert by_raw["[[H4]]"]["target"] == "entities/H4.md" and not by_raw["[[H4]]"]["broken"]
    assert by_raw["[[Shadow clock]]"]["target"] is None and by_raw["[[Shadow clock]]"]["broken"]
    assert by_raw["[site](https://example.org)"]["broken"] is False
    assert links["broken"] == 1
    counts = {t["tag"].casefold(): t["pages"] for t in tags["tags"]}
    assert counts["horology"] >= 2  # H4 and Gnomon
    tagged_paths = {p["path"] for p in tagged["pages"]}
    assert {"concepts/Gnomon.md", "entities/H4.md"} <= tagged_paths  # horology/... too
    assert props["properties"]["reviewed"] == "2024-03-01" and props["properties"]["status"] == "draft"
    assert [p["path"] for p in drafts["pages"]] == ["concepts/Gnomon.md"]
    entity_count = sum(1 for p in (git_vault / "entities").glob("*.md"))
    assert typed["count"] == entity_count and len(typed["pages"]) == 2 and typed["next_cursor"]
    assert nobody["pages"] == [] and "tags tool" in nobody["notes"][0]


async def test_recent_changes_from_git_and_log(git_vault: Path):
    h4 = git_vault / "entities" / "H4.md"
    h4.write_text(h4.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    git(git_vault, "commit", "-qam", "H4: one more line")
    (git_vault / "concepts" / "Other.md").write_text("# Other\n", encoding="utf-8")
    git(git_vault, "add", "-A")
    git(git_vault, "commit", "-qm", "another page")
    async with mcp_session(git_vault) as session:
        everything = await call(session, "recent_changes", limit=1)
        h4_only = await call(session, "recent_changes", page="H4")
    assert everything["commits"][0]["subject"] == "another page"
    assert everything["commits"][0]["files"] == [{"path": "concepts/Other.md", "change": "created"}]
    assert [c["subject"] for c in h4_only["commits"]] == ["H4: one more line", "initial vault"]
    assert h4_only["page"] == "entities/H4.md"
    assert all(any("H4" in line for line in entry["lines"]) for entry in h4_only["log"])


async def test_recent_changes_without_git_says_so(sample_vault: Path):
    async with mcp_session(sample_vault) as session:
        answer = await call(session, "recent_changes")
    assert answer["commits"] == [] and "not a git repository" in answer["notes"][0]
    assert answer["log"]  # log.md still answers


async def test_an_agent_lists_and_withdraws_only_its_own_proposals(git_vault: Path):
    reply = "@@@ WRITE concepts/Gnomon.md\n---\ntitle: Gnomon\n---\n# Gnomon\n@@@ END\n"
    other = Implementation(name="other-agent", version="2")
    async with mcp_session(git_vault, client=other) as session:
        theirs = (await call(session, "propose_changes", reply=reply))["pending_id"]
    async with mcp_session(git_vault) as session:
        mine = (await call(session, "propose_changes", reply=reply, title="Mine"))["pending_id"]
        listed = await call(session, "my_proposals")
        not_mine = await call_error(session, "withdraw_proposal", pending_id=theirs)
        withdrawn = await call(session, "withdraw_proposal", pending_id=mine[-6:])
        again = await call_error(session, "withdraw_proposal", pending_id=mine)
        after = await call(session, "my_proposals")
    assert listed["agent"] == "test-agent 1.0"
    assert [(p["pending_id"], p["title"], p["files"]) for p in listed["proposals"]] == [
        (mine, "Mine", ["concepts/Gnomon.md"])]
    assert "no pending proposal of yours" in not_mine and "no pending proposal" in again
    assert withdrawn == {"withdrawn": mine, "title": "Mine"}
    assert after["proposals"] == []
    assert [r.name for r in pending.load_all(git_vault)[0]] == [theirs]  # theirs stays


async def test_raw_sources_are_listed_and_read_never_written(git_vault: Path):
    before = {p: p.read_bytes() for p in (git_vault / "raw").rglob("*") if p.is_file()}
    async with mcp_session(git_vault) as session:
        listed = await call(session, "list_sources")
        text = await call(session, "read_source", path="cook-and-k1.txt")
        outside = await call_error(session, "read_source", path="../AGENTS.md")
        a_page = await call_error(session, "read_source", path="entities/H4.md")
    assert {s["path"] for s in listed["sources"]} == {
        p.relative_to(git_vault).as_posix() for p in before}
    assert text["text"] == (git_vault / "raw/cook-and-k1.txt").read_text(encoding="utf-8")
    assert text["next_offset"] is None
    assert "no source" in outside and "no source" in a_page
    assert before == {p: p.read_bytes() for p in (git_vault / "raw").rglob("*") if p.is_file()}


async def test_a_long_source_comes_in_parts(git_vault: Path):
    body = "".join(f"Line {n} of a long source.\n" for n in range(5000))
    (git_vault / "raw" / "long.md").write_text(body, encoding="utf-8")
    async with mcp_session(git_vault) as session:
        parts, offset = [], 0
        while offset is not None:
            part = await call(session, "read_source", path="raw/long.md", offset=offset)
            parts.append(part["text"])
            offset = part["next_offset"]
    assert len(parts) > 1 and "".join(parts) == body


async def test_pages_as_resources_and_a_notification_when_one_changes(git_vault: Path):
    updated: list[str] = []
    seen = anyio.Event()

    async def on_message(message) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            updated.append(str(message.params.uri))
            seen.set()

    uri = "wiki://page/entities/H4.md"
    async with mcp_session(git_vault, message_handler=on_message) as session:
        templates = (await session.list_resource_templates()).resource_templates
        assert [t.uri_template for t in templates] == ["wiki://page/{+path}"]
        text = (await session.read_resource(uri)).contents[0].text
        assert text == (git_vault / "entities/H4.md").read_text(encoding="utf-8")
        spaced = (await session.read_resource("wiki://page/concepts/Marine%20chronometer.md"))
        assert spaced.contents[0].text.startswith("---")
        await session.subscribe_resource(uri)
        (git_vault / "entities/H4.md").write_text(text + "\nChanged outside.\n", encoding="utf-8")
        with anyio.fail_after(60):  # the watcher sees it, the server tells the client
            await seen.wait()
    assert updated[0] == uri


async def test_prompts_completion_and_log_level(git_vault: Path):
    async with mcp_session(git_vault) as session:
        names = {p.name for p in (await session.list_prompts()).prompts}
        ingest = await session.get_prompt("ingest", {"source": "cook-and-k1.txt"})
        query = await session.get_prompt("query", {"question": "Who built H4?"})
        paths = await session.complete(types.ResourceTemplateReference(
            type="ref/resource", uri="wiki://page/{+path}"),
            {"name": "path", "value": "entities/J"})
        raws = await session.complete(types.PromptReference(type="ref/prompt", name="ingest"),
                                      {"name": "source", "value": "raw/c"})
        nothing = await session.complete(types.PromptReference(type="ref/prompt", name="lint"),
                                         {"name": "x", "value": "y"})
        assert await session.set_logging_level("info") is not None
    assert names == {"ingest", "query", "lint"}
    assert "raw/cook-and-k1.txt" in ingest.messages[0].content.text
    assert "propose_changes" in ingest.messages[0].content.text
    assert "Who built H4?" in query.messages[0].content.text
    assert paths.completion.values == ["entities/James Cook.md", "entities/John Harrison.md"]
    assert raws.completion.values == ["raw/cook-and-k1.txt"]
    assert nothing.completion.values == []


def test_the_cli_help_names_the_transports():
    done = subprocess.run([WIKI_TUI, "mcp", "--help"], capture_output=True, text=True,
                          timeout=60)
    assert "streamable-http" in done.stdout and "--token" in done.stdout
