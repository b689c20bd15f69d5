"""One test per rule of shared/guide/obsidian-links.md (scanner side)."""

from __future__ import annotations

import pytest

from wiki_tui.vault.parse.links import is_attachment_path, prose_spans, scan, scan_links


def one(text: str):
    links = scan_links(text)
    assert len(links) == 1, links
    return links[0]


def targets(text: str) -> list[str]:
    return [link.target for link in scan_links(text)]


# -- forms -------------------------------------------------------------------


def test_plain_wikilink():
    link = one("see [[Page]] here")
    assert (link.target, link.subpath, link.display, link.embed, link.kind) == (
        "Page",
        "",
        None,
        False,
        "wiki",
    )
    assert (link.start, link.end, link.raw) == (4, 12, "[[Page]]")


def test_md_extension_kept_in_target():
    assert one("[[Page.md]]").target == "Page.md"


def test_folder_path():
    assert one("[[Folder/Page]]").target == "Folder/Page"


def test_display_text():
    link = one("[[Page|shown text]]")
    assert (link.target, link.display) == ("Page", "shown text")


def test_display_after_heading():
    link = one("[[Page#Heading|shown]]")
    assert (link.target, link.subpath, link.display) == ("Page", "#Heading", "shown")


def test_pipe_before_hash_belongs_to_display():
    link = one("[[Page|a#b]]")
    assert (link.target, link.subpath, link.display) == ("Page", "", "a#b")


def test_table_escaped_pipe():
    link = one("| [[Page\\|shown]] | x |")
    assert (link.target, link.display) == ("Page", "shown")
    embed = one("| ![[img.png\\|100]] |")
    assert (embed.target, embed.display, embed.embed) == ("img.png", "100", True)


def test_heading_link():
    assert one("[[Page#Heading]]").subpath == "#Heading"


def test_chained_headings():
    link = one("[[Page#H1#H2]]")
    assert link.subpath == "#H1#H2"
    assert link.heading == "H2"


def test_same_page_heading():
    link = one("[[#Heading]]")
    assert (link.target, link.subpath) == ("", "#Heading")


def test_block_link():
    link = one("[[Page#^block-id]]")
    assert (link.target, link.subpath, link.is_block) == ("Page", "#^block-id", True)


def test_embeds():
    page = one("![[Page]]")
    assert page.embed and page.raw == "![[Page]]" and page.start == 0
    block = one("![[Page#^id]]")
    assert block.embed and block.subpath == "#^id"
    img = one("![[img.png|100x145]]")
    assert (img.target, img.display, img.embed) == ("img.png", "100x145", True)


def test_hash_after_attachment_is_not_a_heading():
    pdf = one("![[doc.pdf#page=3]]")
    assert (pdf.target, pdf.subpath, pdf.raw) == ("doc.pdf", "", "![[doc.pdf#page=3]]")
    svg = one("![[icon.svg#icon]]")
    assert (svg.target, svg.subpath) == ("icon.svg", "")


def test_attachment_detection():
    assert is_attachment_path("Figure 1.png")
    assert is_attachment_path("a/doc.PDF")
    assert not is_attachment_path("Page")
    assert not is_attachment_path("Dr. Who")
    assert not is_attachment_path("v1.2")
    assert not is_attachment_path("folder.png/Page")


def test_non_markdown_target_keeps_extension():
    assert one("[[Figure 1.png]]").target == "Figure 1.png"


def test_markdown_link_percent_decoded():
    link = one("[text](Page%20Name.md)")
    assert (link.target, link.display, link.kind) == ("Page Name.md", "text", "markdown")


def test_markdown_link_angle_brackets():
    assert one("[t](<Page Name.md>)").target == "Page Name.md"


def test_markdown_link_heading():
    link = one("[t](Page.md#Heading)")
    assert (link.target, link.subpath) == ("Page.md", "#Heading")
    assert one("[t](Page%20Name.md#Some%20Heading)").subpath == "#Some Heading"


def test_markdown_link_with_title_and_parens():
    assert one('[t](Page.md "title")').target == "Page.md"
    assert one("[t](Page_(film).md)").target == "Page_(film).md"


def test_markdown_link_with_space_is_not_a_link():
    assert scan_links("[t](Page Name.md)") == []


def test_markdown_embed():
    link = one("![alt](img.png)")
    assert (link.target, link.display, link.embed) == ("img.png", "alt", True)


def test_markdown_same_page_link():
    link = one("[up](#Top)")
    assert (link.target, link.subpath) == ("", "#Top")


@pytest.mark.parametrize(
    "text", ["[a](https://x.y/p)", "[a](http://x.y)", "[m](mailto:a@b.c)", "[o](obsidian://open)"]
)
def test_urls_are_external_not_page_links(text):
    assert scan_links(text) == []
    result = scan(text)
    assert len(result.external) == 1 and result.external[0].kind == "external"


def test_whitespace_trimmed():
    assert one("[[ foo ]]").target == "foo"
    link = one("[[ foo # Bar | shown ]]")
    assert (link.target, link.subpath, link.display) == ("foo", "#Bar", " shown ")


def test_single_bracket_does_not_end_a_link():
    assert one("[[Sq]uare]]").target == "Sq]uare"


def test_unclosed_is_text():
    assert scan_links("[[Page and more") == []
    assert scan_links("[[Page\n]]") == []  # a link does not cross lines
    assert targets("[[open [[Closed]]") == ["Closed"]


def test_empty_link_is_not_a_link():
    assert scan_links("[[]]") == []
    assert scan_links("[[ ]]") == []
    assert scan_links("[[|x]]") == []


def test_url_in_wikilink_is_a_note_link():
    link = one("[[https://x.y]]")
    assert (link.target, link.kind) == ("https://x.y", "wiki")


def test_wikilink_inside_bracketed_text():
    assert targets("[see [[X]] here] and [a [[Y]]](Z.md)") == ["X", "Y"]


def test_escaped_bracket_is_not_a_link():
    assert scan_links("\\[[Page]]") == []
    assert targets("\\\\[[Page]]") == ["Page"]  # an escaped backslash escapes nothing


def test_extra_brackets_around():
    assert targets("[[[Page]]]") == ["Page"]


def test_positions_lines_and_columns():
    text = "first\nsecond [[A]]\r\nthird ![[B]]\n"
    a, b = scan_links(text)
    assert (a.line, a.col, text[a.start : a.end]) == (2, 7, "[[A]]")
    assert (b.line, b.col, text[b.start : b.end]) == (3, 6, "![[B]]")
    shifted = scan_links(text, line_offset=10)
    assert [link.line for link in shifted] == [12, 13]


def test_scan_from_offset_counts_lines_from_text_start():
    text = "---\ntitle: x\n---\n[[A]]\n"
    (link,) = scan_links(text, start=text.index("[[A]]"))
    assert (link.line, link.start) == (4, text.index("[[A]]"))


# -- what is not a link ----------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "```\n[[A]]\n```\n",
        "```python\n[[A]]\n```\n",
        "~~~\n[[A]]\n~~~\n",
        "````\n```\n[[A]]\n```\n````\n",  # a longer fence is closed only by as long a fence
        "~~~~\n[[A]]\n~~~\n",  # a shorter closer does not close
        "```\n[[A]]\n",  # unclosed fence: to the end of the file
        "   ```\n[[A]]\n   ```\n",
        "> ```\n> [[A]]\n> ```\n",
        "- item\n\n    ```\n    [[A]]\n    ```\n",
        "text\n\n    [[A]] indented code\n",
        "    [[A]] indented code at the top\n",
        "# Heading\n    [[A]] code right after a heading\n",
        "\t[[A]] tab-indented code\n",
        "`[[A]]`",
        "``[[A]]``",
        "`` a ` [[A]] ``",
        "```[[A]]```",  # inline code with a 3-backtick run
        "%%[[A]]%%",
        "%%\n[[A]]\n%%\n",
        "text %% comment\n[[A]]\nstill %% text",
        "%% unclosed comment\n[[A]]\n",
    ],
)
def test_no_links_in_code_or_comments(text):
    assert "A" not in targets(text)


def test_text_after_code_still_scanned():
    text = "```\n[[A]]\n```\n[[B]] `[[C]]` [[D]] %%[[E]]%% [[F]]\n~~~\nx\n~~~\n[[G]]"
    assert targets(text) == ["B", "D", "F", "G"]


def test_fence_inside_a_comment_does_not_open():
    assert targets("%%\n```\n%%\n[[B]]\n") == ["B"]


def test_code_span_runs_over_lines_within_a_paragraph():
    assert targets("a `x [[A]]\ny` [[B]]") == ["B"]
    assert targets("a `x\n\n[[B]] y`") == ["B"]  # a blank line ends the paragraph
    assert targets("- a `x\n- [[B]] y`") == ["B"]  # so does a new list item
    assert targets("# H `x\n[[B]] y`") == ["B"]  # a heading is one line
    assert targets("a `x\n# H [[B]] y`") == ["B"]


def test_unmatched_backtick_is_literal():
    assert targets("a ` [[B]]") == ["B"]
    assert targets("`` a ` [[B]]") == ["B"]


def test_indented_text_in_list_is_not_code():
    text = "- item\n\n    [[Continued]]\n- next\n    - [[Nested]]\n"
    assert targets(text) == ["Continued", "Nested"]


def test_long_list_with_indented_paragraphs():
    text = "- item\n" + "\n    more [[A]]\n" * 600
    assert targets(text) == ["A"] * 600


def test_indented_continuation_of_paragraph_is_not_code():
    assert targets("para\n    [[Lazy]]\n") == ["Lazy"]


def test_fence_in_quote_ends_with_the_quote():
    assert targets("> ```\n> [[A]]\n\n[[B]]\n") == ["B"]


def test_fence_with_backtick_in_info_is_inline():
    # "``` a`b" is not a fence opener (backtick in the info string)
    assert targets("``` a`b\n[[B]]\n") == ["B"]


def test_prose_spans_exclude_code_and_comments():
    text = "a `b` c\n```\nd\n```\ne %%f%% g"
    prose = "".join(text[a:b] for a, b in prose_spans(text))
    assert "b" not in prose.replace("```", "") and "d" not in prose and "f" not in prose
    for ch in "aceg":
        assert ch in prose


# -- tags, headings, block ids -------------------------------------------------------


def test_inline_tags():
    text = "#tag text #nested/tag-x_y #Ünïcode #1984 #1984a a#b `#code` [[P#h]] (#x)\n# Heading"
    assert scan(text).tags == ["tag", "nested/tag-x_y", "Ünïcode", "1984a"]


def test_tags_not_in_urls_links_or_code():
    text = "https://x.y/#frag [t](u.md#frag) [[A#h]] `#no`\n```\n#no\n```\n%%#no%%"
    assert scan(text).tags == []


def test_headings():
    text = (
        "# One\n## Two ##\ntext\n####### seven\n#nospace\n"
        "```\n# code\n```\n   ### Three\n    # code"
    )
    headings = scan(text).headings
    assert [(h.level, h.text, h.line) for h in headings] == [
        (1, "One", 1),
        (2, "Two", 2),
        (3, "Three", 9),
    ]


def test_setext_headings():
    text = "Title\n=====\n\nSub\ntitle\n---\n\n- item\n---\n\n---\n# A\n---\n"
    headings = scan(text).headings
    assert [(h.level, h.text, h.line) for h in headings] == [
        (1, "Title", 1),
        (2, "Sub title", 4),
        (1, "A", 12),
    ]


def test_block_ids():
    text = "para text ^para-1\n\n- item\n- item\n\n^list-id\n\n`code ^no`\n# H ^no\ntext^no\n"
    assert scan(text).block_ids == ["para-1", "list-id"]
