"""The read-only tools the model may call, on the sample vault."""

from __future__ import annotations

from wiki_tui.agent.engine.tools import MAX_TOOL_CHARS, TOOLS, describe, parse_arguments, run_tool
from wiki_tui.vault import Vault


def test_tools_read_search_and_list(sample_vault):
    vault = Vault.open(sample_vault)
    assert [t["function"]["name"] for t in TOOLS] == [
        "read_page", "search", "backlinks", "read_source", "list_pages"]
    assert run_tool(vault, "read_page", {"path": "Maskelyne"}).startswith("---\ntitle: Nevil")
    assert "entities/Nautical Almanac.md" in run_tool(vault, "search", {"query": "almanac"})
    assert "concepts/Marine chronometer.md:" in run_tool(vault, "backlinks", {"path": "H4"})
    pages = run_tool(vault, "list_pages", {"folder": "concepts"}).splitlines()
    assert pages and all(p.startswith("concepts/") for p in pages)
    assert "Pierre Le Roy" in run_tool(vault, "read_source", {"path": "french-chronometers.md"})


def test_tool_faults_are_sentences_and_raw_reads_in_parts(sample_vault):
    (sample_vault / "raw" / "long.md").write_text("x" * (MAX_TOOL_CHARS + 10), encoding="utf-8")
    vault = Vault.open(sample_vault)
    first = run_tool(vault, "read_source", {"path": "raw/long.md"})
    assert f"call again with offset={MAX_TOOL_CHARS}" in first
    assert run_tool(vault, "read_source", {"path": "raw/long.md",
                                           "offset": MAX_TOOL_CHARS}) == "x" * 10
    assert run_tool(vault, "read_page", {"path": "No such page"}).startswith("read_page failed")
    assert "under raw/ only" in run_tool(vault, "read_source", {"path": "../../etc/passwd"})
    assert "under raw/ only" in run_tool(vault, "read_source", {"path": "raw/../AGENTS.md"})
    assert run_tool(vault, "write_page", {}).startswith("unknown tool 'write_page'")
    assert parse_arguments("{not json") == {} and describe("search", {"query": "q"}) == "search 'q'"


def test_read_source_reads_a_pdf_as_its_converted_text(sample_vault):
    from tests.support.documents import make_pdf

    (sample_vault / "raw" / "paper.pdf").write_bytes(make_pdf(["The H4 kept time."]))
    (sample_vault / "raw" / "out.pdf").symlink_to(sample_vault / "AGENTS.md")
    vault = Vault.open(sample_vault)
    assert run_tool(vault, "read_source", {"path": "raw/paper.pdf"}).startswith(
        "[p. 1]\n\nThe H4 kept time.")
    assert "not a file inside raw/" in run_tool(vault, "read_source", {"path": "raw/out.pdf"})
