"""log.md entries: format, append-only in fact (earlier bytes identical), CRLF kept."""

from __future__ import annotations

from pathlib import Path

from tests.changes.journal_support import changeset, create, open_vault, page
from wiki_tui.changes.apply import logmd
from wiki_tui.changes.apply.journal import apply_changeset
from wiki_tui.changes.apply.logmd import LogEntry, append_bytes


def test_entry_format_only_lines_with_content():
    entry = LogEntry("ingest", "Title  of\nthe source", "2026-11-20",
                     created=[("sources/Foo.md", "Foo"), ("concepts/Bar.md", "Bar")],
                     updated=[("entities/Baz.md", "Baz")], deleted=["old/page.md"],
                     renamed=[("old/Name.md", "new/Name.md")], rejected=["concepts/Qux.md"])
    assert entry.render() == (
        "## [2026-11-20] ingest | Title of the source\n"
        "- created: [[sources/Foo|Foo]], [[concepts/Bar|Bar]]\n"
        "- updated: [[entities/Baz|Baz]]\n"
        "- deleted: old/page.md\n"
        "- renamed: [[old/Name]] → [[new/Name]]\n"
        "- rejected: concepts/Qux.md\n")
    assert LogEntry("query", "Q", "2026-01-01").render() == "## [2026-01-01] query | Q\n"
    assert logmd.entries(entry.render()) == ["## [2026-11-20] ingest | Title of the source"]


def test_append_bytes_separates_entries_by_one_blank_line():
    e = "## [2026-01-01] apply | X\n"
    assert append_bytes(None, e) == b"# Log\n\n" + e.encode()
    assert append_bytes(b"", e) == b"# Log\n\n" + e.encode()
    assert append_bytes(b"# Log\n", e) == b"\n" + e.encode()
    assert append_bytes(b"# Log\n\n", e) == e.encode()
    assert append_bytes(b"# Log\n\n- last line", e) == b"\n\n" + e.encode()
    assert append_bytes(b"# Log\r\n\r\n## [x] a | b\r\n", e) == b"\r\n" + e.encode().replace(b"\n", b"\r\n")


def test_apply_appends_and_never_rewrites_earlier_bytes(git_vault: Path):
    log = git_vault / "log.md"
    original = log.read_bytes()
    vault = open_vault(git_vault)
    for i in range(3):
        apply_changeset(vault, changeset(create(f"concepts/P{i}.md", page(f"P{i}")), title=f"t{i}"))
        data = log.read_bytes()
        assert data.startswith(original)
        original = data
    text = log.read_text(encoding="utf-8")
    assert [h.split("| ")[1] for h in logmd.entries(text)][-3:] == ["t0", "t1", "t2"]
    assert "\n\n\n" not in text and text.endswith("\n")


def test_log_without_final_newline_gets_one_before_the_entry(git_vault: Path):
    log = git_vault / "log.md"
    log.write_bytes(log.read_bytes().rstrip(b"\n"))
    original = log.read_bytes()
    vault = open_vault(git_vault)
    result = apply_changeset(vault, changeset(create("concepts/P.md", page("P"))))
    assert log.read_bytes() == original + b"\n\n" + result.log_entry.encode()
