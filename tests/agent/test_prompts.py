"""The edit protocol text the model gets is the one docs/edit-protocol.md documents."""

from __future__ import annotations

import re
from pathlib import Path

from wiki_tui.agent.prompts import EDIT_PROTOCOL, split_source

DOC = Path(__file__).resolve().parents[2] / "docs" / "edit-protocol.md"


def test_protocol_text_matches_the_doc():
    doc = DOC.read_text(encoding="utf-8")
    section = re.search(r"## For the model\n\n(.*?)\n## ", doc, re.S).group(1)
    assert EDIT_PROTOCOL.strip() == section.strip()


def test_large_sources_are_split_in_parts():
    text = "\n\n".join(f"## Part {i}\n\n" + "word " * 400 for i in range(20))
    parts = split_source(text, 1000)
    assert len(parts) > 5
    assert all(len(p) <= 4000 + 100 for p in parts)
    assert "".join(parts).count("word") == text.count("word")
