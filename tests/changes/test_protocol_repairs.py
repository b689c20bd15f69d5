"""Repairs the parser makes to read a slipped reply as meant, and the refusals where it will not
guess. End-to-end replies are in the corpus (tests/corpus); these pin the helpers' edges."""

from __future__ import annotations

import pytest

from wiki_tui.changes.reply.stream import StreamParser, parse_reply
from wiki_tui.changes.reply.markers import is_note_to_person
from wiki_tui.changes.reply.paths import path_line, read_path
from wiki_tui.changes.reply.fences import unwrap_page


@pytest.mark.parametrize("raw, path, noted", [
    ("concepts/A.md", "concepts/A.md", False),
    ("concepts/A.md (new page)", "concepts/A.md", True),
    ("concepts/A.md @@@", "concepts/A.md", True),
    ("`concepts/A.md` — created", "concepts/A.md", True),
    ('"concepts/A b.md" (update)', "concepts/A b.md", True),
    ("concepts/A — new page", "concepts/A.md", True),
    ("[[concepts/A]] (new)", "concepts/A.md", True),
    ("**concepts/A.md**", "concepts/A.md", True),
    # the name's own parentheses, dashes and dots are kept
    ("concepts/Clock (history).md", "concepts/Clock (history).md", False),
    ("concepts/Clock (history)", "concepts/Clock (history).md", True),
    ("concepts/A - new design.md", "concepts/A - new design.md", False),
    ("concepts/Notes on .md files.md", "concepts/Notes on .md files.md", False),
    ("concepts/Clock — new findings", "concepts/Clock — new findings.md", True),
    ("concepts/Clock (new findings)", "concepts/Clock (new findings).md", True),
])
def test_read_path(raw, path, noted):
    got, note = read_path(raw)
    assert got == path
    assert (note is not None) == noted
    if note:
        assert path in note and raw in note


@pytest.mark.parametrize("line, path", [
    ("entities/H4.md\n", "entities/H4.md"),
    ("**entities/H4.md**\n", "entities/H4.md"),
    ("File: entities/H4.md\n", "entities/H4.md"),
    ("Edit `entities/H4.md` like this:\n", "entities/H4.md"),
    ("I will now edit entities/H4.md\n", None),
    ("Compare `a.md` with `b.md`:\n", None),
    ("No page here.\n", None),
])
def test_path_line_names_a_page_only_when_the_line_is_a_path(line, path):
    assert path_line(line) == path


def test_notes_to_the_person():
    for line in ("Now let me add the link:", "I'll also fix the date.", "Next, the trials:",
                 "This edit adds the date.", "Let's update the list:", "Second change:",
                 "Edit 2: the trials", "Next change - the trials:"):
        assert is_note_to_person(line), line
    for line in ("Also see:", "Then the Board paid him.", "> I'll be back", "Now-famous clock.",
                 "Next steps", "This clock was slow.", "Step 2: wind the clock.",
                 "Change 2 was made in 1762."):
        assert not is_note_to_person(line), line


def test_unwrap_page_keeps_pages_that_only_look_wrapped():
    lines = ["```markdown\n", "example\n", "```\n", "prose\n", "```\n", "code\n", "```\n"]
    assert unwrap_page(lines) == (lines, None)
    shell = ["```\n", "# install\n", "```\n", "```\n", "run\n", "```\n"]  # starts with code
    assert unwrap_page(shell) == (shell, None)
    unclosed = ["```python\n", "x\n"]  # only bare/markdown/md fences wrap pages
    assert unwrap_page(unclosed) == (unclosed, None)


def test_inline_think_mention_in_prose_is_not_a_section():
    r = parse_reply("@@@ DELETE a.md\nModels write <think>...</think>\n")
    assert [b.path for b in r.blocks] == ["a.md"] and r.repairs == []


def test_stray_think_close_withdraws_drafts_and_result_is_authoritative():
    reply = "draft\n@@@ DELETE a.md\n</think>\n@@@ DELETE b.md\n"
    whole = parse_reply(reply)
    assert [b.path for b in whole.blocks] == ["b.md"]
    assert "not used" in whole.repairs[0]
    p = StreamParser()
    for ch in reply:
        p.feed(ch)
    p.close()
    assert p.result() == whole


def test_think_section_in_one_char_chunks_equals_whole():
    reply = ("<think>\nplan\n@@@ WRITE x.md\ny\n@@@ END\n</think>\n**@@@ WRITE a.md**\n"
             "```markdown\n# A\n**@@@ END**\n```\nentities/H4.md\n<<<<<<< SEARCH\n# H4\n=======\n"
             "# H\n>>>>>>> REPLACE\n")
    whole = parse_reply(reply)
    assert [b.path for b in whole.blocks] == ["a.md", "entities/H4.md"]
    assert whole.blocks[0].content == "# A\n"
    p = StreamParser()
    for ch in reply:
        p.feed(ch)
    p.close()
    assert p.result() == whole


def test_foreign_formats_are_refused_only_for_pages_no_block_touches():
    hunk = "```diff\n@@ -1 +1 @@\n-a\n+b\n```\n"
    assert parse_reply(hunk).errors[0].message.startswith("this looks like a unified diff")
    assert parse_reply(hunk + "@@@ DELETE a.md\n").errors == []  # an illustration
    diff = "--- a/x.md\n+++ b/x.md\n@@ -1 +1 @@\n-a\n+b\n"
    r = parse_reply(diff + "@@@ DELETE a.md\n")
    assert [e.path for e in r.errors] == ["x.md"] and r.errors[0].line == 2


def test_decorated_end_inside_a_plain_block_is_page_text():
    r = parse_reply("@@@ WRITE a.md\nx\n**@@@ END**\n`@@@ END`\n")
    assert r.blocks == [] and r.incomplete[0].content == "x\n**@@@ END**\n`@@@ END`\n"


def test_update_block_decides_its_kind_from_its_body():
    r = parse_reply("@@@ UPDATE a.md\n\n---\ntitle: A\n---\n@@@ END\n")
    assert (r.blocks[0].kind, r.blocks[0].content) == ("write", "---\ntitle: A\n---\n")
    r = parse_reply("@@@ UPDATE a.md\n@@@ SEARCH\nx\n@@@ REPLACE\ny\n@@@ END\n")
    assert (r.blocks[0].kind, r.blocks[0].edits) == ("edit", [("x\n", "y\n")])


def test_fenced_pairs_keep_a_closing_fence_that_mirrors_the_search():
    # the pair edits the end of a code block; the model also fenced its pairs
    r = parse_reply("@@@ EDIT a.md\n```\n@@@ SEARCH\nx\n```\n@@@ REPLACE\ny\n```\n@@@ END\n```\n")
    assert r.blocks[0].edits == [("x\n```\n", "y\n```\n")]
    r = parse_reply("@@@ EDIT a.md\n```\n@@@ SEARCH\nx\n```\n@@@ REPLACE\ny\n```\n```\n@@@ END\n")
    assert r.blocks[0].edits == [("x\n```\n", "y\n```\n")]
    assert "dropped the ``` fence lines" in r.blocks[0].repairs[0]


def test_every_corpus_reply_parses_the_same_in_small_chunks():
    from tests.corpus.runner import all_cases

    for case in all_cases():
        for reply in filter(None, (case.reply, case.retry)):
            p = StreamParser()
            for i in range(0, len(reply), 3):
                p.feed(reply[i : i + 3])
            p.close()
            assert p.result() == parse_reply(reply), case.name
