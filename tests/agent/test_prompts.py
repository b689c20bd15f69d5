"""The edit protocol text the model gets is the one docs/edit-protocol.md documents."""

from __future__ import annotations

import re
from pathlib import Path

from wiki_tui.agent.context.prompts import EDIT_PROTOCOL, split_source

DOC = Path(__file__).resolve().parents[2] / "docs" / "edit-protocol.md"


def model_section(doc: str) -> str:
    """The "For the model" section, up to the next `## ` heading outside a code fence (the
    examples hold `## See also` lines, which must not end it)."""
    start = doc.index("## For the model\n\n") + len("## For the model\n\n")
    fence = None
    pos = start
    for line in doc[start:].splitlines(keepends=True):
        m = re.match(r"(`{3,}|~{3,})(.*)", line.rstrip("\n"))
        if m and fence is None:
            fence = m.group(1)
        elif m and m.group(1).startswith(fence) and not m.group(2).strip():
            fence = None  # a bare fence at least as long closes it
        elif fence is None and line.startswith("## "):
            return doc[start:pos]
        pos += len(line)
    return doc[start:]


def test_protocol_text_matches_the_doc():
    doc = DOC.read_text(encoding="utf-8")
    section = model_section(doc)
    assert "### Rules" in section and "@@@ RENAME" in section  # the whole section, not a part
    assert EDIT_PROTOCOL.strip() == section.strip()


def test_large_sources_are_split_in_parts():
    text = "\n\n".join(f"## Part {i}\n\n" + "word " * 400 for i in range(20))
    parts = split_source(text, 1000)
    assert len(parts) > 5
    assert all(len(p) <= 4000 + 100 for p in parts)
    assert "".join(parts).count("word") == text.count("word")
