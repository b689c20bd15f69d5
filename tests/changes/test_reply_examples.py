"""Reading the reply: examples are never executed, marker-like page text has a way through,
and paths written as links are read as the page they reach."""

from __future__ import annotations

import pytest

from wiki_tui.changes.reply.blocks import DELETE, WRITE, Block, format_block
from wiki_tui.changes.reply.paths import clean_path, read_path
from wiki_tui.changes.reply.stream import StreamParser, parse_reply

H4 = "entities/H4.md"
EDIT = f"@@@ EDIT {H4}\n@@@ SEARCH\n# H4\n@@@ REPLACE\n# H4 (x)\n@@@ END\n"
DELETE_OLD = "@@@ DELETE concepts/Old.md\n"


def kinds(reply: str) -> list[tuple[str, str]]:
    return [(b.kind, b.path) for b in parse_reply(reply).blocks]


@pytest.mark.parametrize("shown", [
    f"I don't think this page is needed:\n\n    {DELETE_OLD}",  # indented, after a cue
    f"For example, to delete a page:\n\n```\n{DELETE_OLD}```\n",  # fenced, after a cue
    f"The syntax:\n```text\nOne line per page.\n{DELETE_OLD}```\n",  # inside a prose code block
    f"`{DELETE_OLD.strip()}`\n",  # inline code
    f"> {DELETE_OLD}",  # a quote
    f"For example:\n{DELETE_OLD}",  # a bare marker right after a cue
    "e.g.\n\n\t@@@ RENAME concepts/Old.md -> concepts/New.md\n",  # a tab is indentation too
])
def test_an_example_beside_an_edit_is_prose_and_said(shown):
    parsed = parse_reply(EDIT + "\n" + shown)
    assert [(b.kind, b.path) for b in parsed.blocks] == [("edit", H4)]
    assert not parsed.errors
    assert any("as an example: it was not applied" in r for r in parsed.repairs)
    assert "@@@" in parsed.prose  # shown to the person, not dropped


def test_an_example_write_is_prose_up_to_its_end_and_what_follows_is_read():
    reply = ("For example, a new page:\n@@@ WRITE concepts/X.md\n# X\n@@@ SEARCH\n@@@ END\n"
             "Now the real change:\n" + EDIT)
    parsed = parse_reply(reply)
    assert [b.kind for b in parsed.blocks] == ["edit"] and not parsed.errors
    assert "# X\n" in parsed.prose


def test_an_indented_example_ends_where_the_indentation_does():
    reply = f"Not needed:\n\n    @@@ WRITE concepts/X.md\n    # X\n    @@@ END\n\n{EDIT}"
    assert kinds(reply) == [("edit", H4)]


def test_a_reply_of_mechanical_examples_only_is_refused_naming_the_line():
    parsed = parse_reply(f"Maybe later:\n\n    {DELETE_OLD}")
    assert not parsed.blocks
    [err] = parsed.errors
    assert err.line == 3 and "indented code block" in err.message
    assert "'@@@ DELETE concepts/Old.md'" in err.message  # what to send, if it was meant


def test_a_reply_of_a_cued_example_only_is_not_refused():
    parsed = parse_reply(f"I don't think this is needed:\n\n    {DELETE_OLD}")
    assert not parsed.blocks and not parsed.errors and parsed.repairs


@pytest.mark.parametrize("reply", [
    f"```markdown\n{EDIT}```\n",  # the fence right before the block wraps it
    f"```\n\n{EDIT}```\n",  # a blank line between changes nothing
    f"```\n{H4}\n{EDIT}```\n",  # nor a line naming the page
    f"```markdown\nHere is my change.\n\n{EDIT}\nDone.\n```\n",  # a fence around the reply
    f"1. Retitle the page:\n\n    {EDIT.replace(chr(10), chr(10) + '    ').rstrip()}\n",  # a list
    f"**Step 2.** Retitle H4:\n\n{EDIT}",
])
def test_a_wrapped_or_listed_edit_is_no_example(reply):
    parsed = parse_reply(reply)
    assert [(b.kind, b.path) for b in parsed.blocks] == [("edit", H4)], parsed
    assert not any("example" in r for r in parsed.repairs)


def test_example_detection_is_the_same_in_any_chunking():
    reply = (f"For example:\n```\n{DELETE_OLD}```\n{EDIT}\n    {DELETE_OLD}"
             f"> @@@ WRITE a.md\n")
    whole = parse_reply(reply)
    p = StreamParser()
    for ch in reply:
        p.feed(ch)
    p.close()
    assert p.result() == whole


# -- marker lines as page text ----------------------------------------------------------------
PROTOCOL_PAGE = ("---\ntitle: Edit protocol\n---\n# Edit protocol\n\nA block ends with\n"
                 "@@@ END\nand a pair starts with\n@@@ SEARCH\n@@@ WRITE concepts/X.md\n")


def test_a_block_with_four_at_signs_holds_three_at_marker_lines_as_text():
    parsed = parse_reply(f"@@@@ WRITE concepts/Edit protocol.md\n{PROTOCOL_PAGE}@@@@ END\n")
    [block] = parsed.blocks
    assert block.content == PROTOCOL_PAGE and not parsed.errors


def test_an_edit_with_four_at_signs():
    reply = ("@@@@ EDIT concepts/P.md\n@@@@ SEARCH\nA block ends with\n@@@@ REPLACE\n"
             "A block ends with\n@@@ END\n@@@@ END\n")
    [block] = parse_reply(reply).blocks
    assert block.edits == [("A block ends with\n", "A block ends with\n@@@ END\n")]


def test_format_block_picks_the_run_its_text_needs_and_reads_back():
    block = Block(WRITE, "concepts/Edit protocol.md", content=PROTOCOL_PAGE)
    text = format_block(block)
    assert text.startswith("@@@@ WRITE ") and text.endswith("@@@@ END\n")
    [back] = parse_reply(text).blocks
    assert (back.kind, back.path, back.content) == (block.kind, block.path, block.content)
    plain = Block(WRITE, "a.md", content="# A\n")
    assert format_block(plain).startswith("@@@ WRITE ")


def test_a_page_that_ended_early_at_its_own_end_line_is_withdrawn_and_the_way_is_said():
    page = PROTOCOL_PAGE.replace("@@@ WRITE concepts/X.md\n", "")
    reply = f"@@@ WRITE concepts/Edit protocol.md\n{page}@@@ END\n"
    parsed = parse_reply(reply)
    assert not parsed.blocks  # never applied cut short
    assert [b.path for b in parsed.incomplete] == ["concepts/Edit protocol.md"]
    assert any("'@@@@ WRITE concepts/Edit protocol.md' ... '@@@@ END'" in e.message
               for e in parsed.errors)


def test_two_end_lines_in_a_row_are_a_stray_end_not_an_early_end():
    parsed = parse_reply(f"@@@ WRITE a.md\n# A\n@@@ END\n@@@ END\n")
    assert [b.path for b in parsed.blocks] == ["a.md"]
    assert "outside a block" in parsed.errors[0].message


# -- paths written as links -------------------------------------------------------------------
@pytest.mark.parametrize("written, path", [
    ("[H4](entities/H4.md)", "entities/H4.md"),
    ("[Dead reckoning](concepts/Dead%20reckoning.md)", "concepts/Dead reckoning.md"),
    ("[x](<concepts/A b.md>)", "concepts/A b.md"),
    ("[[H4#Trials]]", "H4.md"),
    ("[[H4|the watch]]", "H4.md"),
    ("[[H4#^block-id]]", "H4.md"),
    ("entities/H4.md.", "entities/H4.md"),
    ("`entities/H4.md`.", "entities/H4.md"),
])
def test_a_path_written_as_a_link_or_in_a_sentence_is_read_as_the_page(written, path):
    assert read_path(written)[0] == path
    assert read_path(written)[1]  # and said


def test_clean_path_leaves_real_names_alone():
    assert clean_path("concepts/Mr. Smith.md") == "concepts/Mr. Smith.md"
    assert clean_path("notes/v1.2") == "notes/v1.2"  # an extension: the guards judge it
    assert [b.kind for b in parse_reply("@@@ DELETE [Old](concepts/Old.md)\n").blocks] == [DELETE]


# -- edit-like text outside the blocks --------------------------------------------------------
T_OLD = "- Barbados, 1764: confirmed the first result.\n"
T_NEW = "- Barbados, 1764: confirmed the first result, 39 seconds off.\n"


def test_an_aider_pair_after_an_at_pair_in_one_edit_is_another_pair():
    reply = (f"@@@ EDIT {H4}\n@@@ SEARCH\n# H4\n@@@ REPLACE\n# H4 (x)\n<<<<<<< SEARCH\n{T_OLD}"
             f"=======\n{T_NEW}>>>>>>> REPLACE\n@@@ END\n")
    [block] = parse_reply(reply).blocks
    assert block.edits == [("# H4\n", "# H4 (x)\n"), (T_OLD, T_NEW)]  # no conflict markers
    assert any("reply line 6" in r for r in block.repairs)


@pytest.mark.parametrize("left_out, line", [
    ("concepts/Longitude.md\n```markdown\n---\ntitle: Longitude\n---\n# Longitude\n```\n", 8),
    ("Also in **concepts/Longitude.md**:\n\nSEARCH:\nfoo\nREPLACE:\nbar\n", 10),
    ("```diff\n@@ -3 +3 @@\n-old line\n+new line\n```\n", 9),
])
def test_edit_like_text_beside_blocks_is_refused_naming_its_line(left_out, line):
    parsed = parse_reply(EDIT + "\n" + left_out)
    assert [b.kind for b in parsed.blocks] == ["edit"]
    [err] = parsed.errors
    assert err.line == line and "Instead, send '@@@ " in err.message


@pytest.mark.parametrize("shown", [
    f"{H4}\n```markdown\n---\ntitle: H4\n---\n# H4 (x)\n```\n",  # the page a block edits
    "```diff\n@@ -8 +8 @@\n-# H4\n+# H4 (x)\n```\n",  # a block's own pair as a diff
    "The source raw/notes.md says:\n```\nH4 was tested in 1761.\n```\n",  # a quoted source
])
def test_edit_like_text_that_shows_a_block_is_prose(shown):
    parsed = parse_reply(EDIT + "\n" + shown)
    assert [b.kind for b in parsed.blocks] == ["edit"] and not parsed.errors
