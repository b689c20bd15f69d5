"""Pages: frontmatter, properties, body facts, and bad input (never raises, loses nothing)."""

from __future__ import annotations

import datetime
import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from wiki_tui.vault.parse.frontmatter import fast_load, split_frontmatter, yaml_load
from wiki_tui.vault.parse.page import parse_page, read_page_text

PAGE = """---
title: Retrieval Augmented Generation
type: concept
summary: Answering with retrieved passages.
aliases: [RAG, "Retrieval-augmented generation"]
tags:
  - ml
  - "#retrieval"
sources:
  - "[[sources/Lewis 2020]]"
related: "[[Vector search|vectors]]"
created: 2025-01-02
---
# Retrieval Augmented Generation

RAG combines [[Language model|LLMs]] with [[Vector search]]. #nlp ^intro

## Details
See `[[not a link]]` and [the paper](https://arxiv.org/abs/2005.11401).
"""


def test_typical_page():
    page = parse_page("concepts/RAG.md", PAGE, mtime=12.5)
    assert page.path == "concepts/RAG.md"
    assert page.name == "RAG"
    assert page.title == "Retrieval Augmented Generation"
    assert page.type == "concept"
    assert page.summary == "Answering with retrieved passages."
    assert page.aliases == ["RAG", "Retrieval-augmented generation"]
    assert page.tags == ["ml", "retrieval", "nlp"]
    assert page.sources == ["[[sources/Lewis 2020]]"]
    assert page.frontmatter["created"] == datetime.date(2025, 1, 2)
    assert [(h.level, h.text, h.line) for h in page.headings] == [
        (1, "Retrieval Augmented Generation", 14),
        (2, "Details", 18),
    ]
    assert page.block_ids == ["intro"]
    assert page.body_line == 14
    assert PAGE[page.body_start :].startswith("# Retrieval")
    assert page.mtime == 12.5 and page.size == len(PAGE.encode())
    assert page.warnings == []
    assert [e.target for e in page.external_links] == ["https://arxiv.org/abs/2005.11401"]


def test_frontmatter_links_are_links_with_their_file_line():
    page = parse_page("concepts/RAG.md", PAGE)
    fm = [(link.target, link.display, link.line, link.kind) for link in page.links[:2]]
    assert fm == [
        ("sources/Lewis 2020", None, 10, "frontmatter"),
        ("Vector search", "vectors", 11, "frontmatter"),
    ]
    body = [(link.target, link.line, link.kind) for link in page.links[2:]]
    assert body == [("Language model", 16, "wiki"), ("Vector search", 16, "wiki")]
    for link in page.links:
        assert PAGE[link.start : link.end] == link.raw


def test_unquoted_frontmatter_link_is_reported_not_linked():
    text = "---\nrelated: [[Other]]\n---\nbody\n"
    page = parse_page("a.md", text)
    assert page.links == []
    assert page.frontmatter == {"related": [["Other"]]}
    assert len(page.warnings) == 1 and "line 2" in page.warnings[0]


def test_markdown_links_in_frontmatter_are_not_links():
    page = parse_page("a.md", '---\nsee: "[t](Other.md)"\n---\n')
    assert page.links == [] and page.warnings == []


def test_many_frontmatter_links_stay_fast():
    items = "".join(f'  - "[[Page {i}]]"\n' for i in range(20_000))
    text = f"---\nrelated:\n{items}---\nbody\n"
    t0 = time.process_time()
    page = parse_page("a.md", text)
    assert len(page.links) == 20_000 and page.links[-1].line == 20_002
    assert time.process_time() - t0 < 2.0


def test_path_is_nfc():
    page = parse_page("c/Cafe\u0301.md", "")
    assert page.path == "c/Caf\u00e9.md" and page.name == "Caf\u00e9"


def test_title_falls_back_to_stem():
    assert parse_page("a/My Page.md", "body").title == "My Page"
    assert parse_page("a/My Page.md", "---\ntitle: ''\n---\n").title == "My Page"
    assert parse_page("a/Year.md", "---\ntitle: 1984\n---\n").title == "1984"


def test_lone_strings_tolerated():
    page = parse_page("a.md", "---\naliases: Solo\ntags: one two,#three\nsources: src\n---\n")
    assert page.aliases == ["Solo"]
    assert page.tags == ["one", "two", "three"]
    assert page.sources == ["src"]


def test_legacy_singular_keys():
    page = parse_page("a.md", "---\ntag: x\nalias: Y\n---\n")
    assert (page.tags, page.aliases) == (["x"], ["Y"])


def test_odd_property_types_do_not_crash():
    text = "---\ntitle: [a, b]\naliases: {x: 1}\ntags: 5\ntype: [x]\nsummary: 3\n---\n"
    page = parse_page("a.md", text)
    assert page.title == "a"
    assert page.aliases == []
    assert page.tags == ["5"]
    assert page.type is None
    assert page.summary == "3"


def test_tags_deduplicated_case_insensitively():
    page = parse_page("a.md", "---\ntags: [ML]\n---\n#ml #Other #other\n")
    assert page.tags == ["ML", "Other"]


def test_broken_yaml_page_still_loads_with_precise_warning():
    text = "---\ntitle: ok\nbad: [unclosed\nmore: x\n---\n# Body\n[[Link]]\n"
    page = parse_page("a.md", text)
    assert page.frontmatter == {}
    assert page.title == "a"
    assert [link.target for link in page.links] == ["Link"]
    assert page.headings[0].text == "Body"
    (warning,) = page.warnings
    assert "broken YAML" in warning and "line " in warning


def test_broken_yaml_warning_names_the_line():
    text = "---\ntitle: ok\nkey: a: b\n---\n"
    (warning,) = parse_page("a.md", text).warnings
    assert "line 3" in warning and "mapping values are not allowed" in warning


def test_frontmatter_not_a_mapping():
    page = parse_page("a.md", "---\n- a\n- b\n---\nbody")
    assert page.frontmatter == {} and "not a mapping" in page.warnings[0]


def test_impossible_date_is_a_warning():
    page = parse_page("a.md", "---\ncreated: 2024-13-45\n---\n")
    assert page.frontmatter == {} and page.warnings


def test_deeply_nested_yaml_does_not_raise():
    page = parse_page("a.md", "---\nx: " + "[" * 5000 + "]" * 5000 + "\n---\n[[B]]")
    assert [link.target for link in page.links] == ["B"]
    page = parse_page("a.md", "---\nx: " + '["[[A]]", ' * 300 + "]" * 300 + "\n---\n")
    assert len(page.links) == 300 or page.warnings


def test_self_containing_yaml_alias():
    page = parse_page("a.md", '---\na: &x ["[[A]]", *x]\nb: *x\n---\n')
    assert [link.target for link in page.links] == ["A"]


def test_no_frontmatter_variants():
    assert parse_page("a.md", "").frontmatter == {}
    assert parse_page("a.md", "---\nunclosed: x\n").frontmatter == {}  # not frontmatter
    page = parse_page("a.md", "text\n---\ntitle: x\n---\n")
    assert page.frontmatter == {} and page.body_line == 1
    assert parse_page("a.md", "---\n---\nbody").body_line == 3


def test_bom_before_frontmatter():
    page = parse_page("a.md", "\ufeff---\ntitle: T\n---\nbody")
    assert page.title == "T" and page.body_line == 4


def test_crlf_page():
    text = "---\r\ntitle: T\r\ntags: [a]\r\n---\r\n# H\r\n[[L]] ^b\r\n"
    page = parse_page("a.md", text)
    assert page.title == "T" and page.tags == ["a"]
    assert [(h.text, h.line) for h in page.headings] == [("H", 5)]
    assert [(link.target, link.line) for link in page.links] == [("L", 6)]
    assert page.block_ids == ["b"]


def test_empty_page():
    page = parse_page("Empty.md", "")
    assert (page.title, page.links, page.warnings, page.size) == ("Empty", [], [], 0)


def test_five_megabyte_page_parses_quickly():
    para = (
        "A paragraph of ordinary prose about the subject, long enough to be typical, with "
        "a [[Link]] to another page, some `inline code`, a #tag and more words after them "
        "so that the page reads like the pages a model writes: sentences, not markup.\n\n"
    )
    text = "---\ntitle: Big\n---\n" + para * (5_000_000 // len(para))
    t0 = time.process_time()  # CPU time: the test machine is shared
    page = parse_page("Big.md", text)
    elapsed = time.process_time() - t0
    assert len(page.links) == 5_000_000 // len(para)
    assert elapsed < 2.0  # ~0.2 s of CPU


# -- reading files ---------------------------------------------------------------------


def test_read_utf8_and_bom(tmp_path):
    path = tmp_path / "a.md"
    path.write_bytes("\ufeff# Café".encode())
    assert read_page_text(path) == ("# Café", [])


def test_read_non_utf8_keeps_everything_and_names_the_offset(tmp_path):
    path = tmp_path / "a.md"
    raw = b"ok caf\xe9 and \xff\xfe end"
    path.write_bytes(raw)
    text, warnings = read_page_text(path)
    assert text == "ok caf\ufffd and \ufffd\ufffd end"
    (warning,) = warnings
    assert "offset 6" in warning and "0xe9" in warning and "3 invalid" in warning
    assert path.read_bytes() == raw  # never rewritten


def test_read_non_utf8_after_bom_reports_file_offset(tmp_path):
    path = tmp_path / "a.md"
    path.write_bytes(b"\xef\xbb\xbfab\x80")
    text, warnings = read_page_text(path)
    assert text == "ab\ufffd" and "offset 5" in warnings[0]


def test_binary_file_named_md(tmp_path):
    path = tmp_path / "img.md"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    text, warnings = read_page_text(path)
    assert text == "" and "binary" in warnings[0] and "offset 8" in warnings[0]


def test_utf16_file_is_decoded_not_binary(tmp_path):
    path = tmp_path / "w.md"
    path.write_bytes("# Wïndows [[Link]]".encode("utf-16"))
    text, warnings = read_page_text(path)
    assert text == "# Wïndows [[Link]]" and "UTF-16" in warnings[0]


def test_read_missing_file_raises_oserror(tmp_path):
    with pytest.raises(OSError):
        read_page_text(tmp_path / "gone.md")


# -- the frontmatter fast path equals PyYAML ------------------------------------------------

_words = st.sampled_from(
    [
        "a",
        "x y",
        "yes",
        "No",
        "null",
        "~",
        "true",
        "12",
        "012",
        "-3",
        "1.5",
        "2024-01-02",
        "2024-13-01",
        "http://x.y",
        "a: b",
        "a #b",
        "#c",
        "[[P]]",
        "'q'",
        '"d"',
        "it's",
        "-",
        "- x",
        "é",
        "a,b",
        "{x}",
        "[x]",
        "*ref",
        "&anc",
        "!tag",
        "%p",
        "@a",
        "`b`",
        "|",
        ">",
        "?",
        ":",
        "a:",
        "",
        " ",
        "=",
        "<<",
        "0x1F",
        "1_000",
        ".inf",
        "NaN",
        "1e5",
        "0o7",
    ]
)
_keys = st.sampled_from(["title", "tags", "aliases", "on", "Yes", "my key", "k-1", "_x", "null"])


@st.composite
def _frontmatter(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        key = draw(_keys)
        form = draw(st.integers(0, 5))
        if form == 0:
            lines.append(f"{key}: {draw(_words)}")
        elif form == 1:
            items = draw(st.lists(_words, max_size=4))
            lines.append(f"{key}: [{', '.join(items)}]")
        elif form == 2:
            lines.append(f"{key}:")
            indent = draw(st.sampled_from(["", "  ", "    "]))
            for item in draw(st.lists(_words, max_size=3)):
                lines.append(f"{indent}- {item}")
        elif form == 3:
            lines.append(f'{key}: "{draw(_words)}"')
        elif form == 4:
            lines.append(f"{key}: '{draw(_words)}'")
        else:
            lines.append(draw(st.sampled_from(["", "# comment", "  indented: x", "key:value"])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n"]))


def _pyyaml(source: str):
    try:
        return ("ok", yaml_load(source))
    except Exception as exc:  # noqa: BLE001
        return ("error", type(exc).__name__)


@given(_frontmatter())
def test_fast_path_equals_pyyaml(source):
    fast = fast_load(source)
    if fast is None:
        return  # deferred to PyYAML: equal by construction
    expected = _pyyaml(source)
    if expected == ("ok", None):
        expected = ("ok", {})
    assert ("ok", fast) == expected


def test_fast_path_handles_the_common_shapes():
    source = (
        "title: Foo bar\ntype: concept\nsummary: A thing about things\n"
        "aliases: [Foo, 'Bar']\ntags:\n  - x\n  - y/z\ncreated: 2025-01-02\nn: 3\n"
        'sources:\n- "[[sources/A]]"\nempty:\n'
    )
    fast = fast_load(source)
    assert fast is not None and fast == yaml_load(source)


def test_split_frontmatter():
    assert split_frontmatter("---\na: 1\n---\nbody") == ("a: 1\n", 4, 13, 4)
    assert split_frontmatter("--- \na: 1\n--- \nb")[0] == "a: 1\n"
    assert split_frontmatter("---\na: 1\n----\nb")[0] is None
    assert split_frontmatter("x\n---\na: 1\n---\n")[0] is None


_link_values = st.sampled_from([
    "[[A]]", "[[B|shown]]", "[[C#H]]", "x [[A]] y", "[[A]] and [[B]]", "[[it''s]]", "[[a, b]]",
    '[[q"t]]', "![[img.png]]", "[[A", "B]]", "plain", "[[ ]]", "[[A]]]", "[[[A]]",
])


@st.composite
def _frontmatter_with_links(draw) -> str:
    lines = []
    for i in range(draw(st.integers(1, 5))):
        key = f"k{i}"
        form = draw(st.integers(0, 5))
        value = draw(_link_values)
        if form == 0:
            lines.append(f"{key}: {value}")
        elif form == 1:
            lines.append(f'{key}: "{value}"')
        elif form == 2:
            lines.append(f"{key}: '{value}'")
        elif form == 3:
            items = draw(st.lists(_link_values, min_size=1, max_size=3))
            quote = draw(st.sampled_from(['"', "'", ""]))
            lines.append(f"{key}: [{', '.join(quote + x + quote for x in items)}]")
        elif form == 4:
            lines.append(f"{key}:")
            for item in draw(st.lists(_link_values, min_size=1, max_size=3)):
                quote = draw(st.sampled_from(['"', "'", ""]))
                lines.append(f"  - {quote}{item}{quote}")
        else:
            lines.append(f"{key}: {value}, {draw(_link_values)}")
    return "\n".join(lines) + "\n"


@given(_frontmatter_with_links())
@example('k: ["[[A", "B]]"]\n')  # a link across two quoted items: not inside one value
@example("k: ['[[A', 'B]]']\n")
@example('k:\n  - "[[A]]"\n  - [[B]]\n')
@settings(max_examples=300)
def test_frontmatter_links_shortcut_equals_matching_the_values(source):
    """The fast path's shortcut (every link found counts) gives what matching each link
    against the parsed string values gives, warnings included."""
    from wiki_tui.vault.parse.page import _frontmatter_links

    fm = fast_load(source)
    if fm is None or "''" in source:
        return  # not taken: the general way runs
    text = f"---\n{source}---\nbody\n"
    general: list[str] = []
    shortcut: list[str] = []
    expected = _frontmatter_links(text, 4, 4 + len(source), fm, general)
    assert _frontmatter_links(text, 4, 4 + len(source), fm, shortcut, simple=True) == expected
    assert shortcut == general
    assert parse_page("p.md", text).links == expected


def test_repeated_property_lines_give_each_page_its_own_values():
    """Lines seen before are remembered: the same answer, and a list is a new list each time."""
    first = fast_load("type: concept\ntags: [a, b]\ncreated: 2025-01-02\n")
    first["tags"].append("changed")
    again = fast_load("tags: [a, b]\ntype: concept\ncreated: 2025-01-02\n")
    assert again == yaml_load("tags: [a, b]\ntype: concept\ncreated: 2025-01-02\n")
    assert again["tags"] == ["a", "b"] and again["tags"] is not first["tags"]
    assert fast_load("tags: [a, b]\ntags: [c]\n") == {"tags": ["c"]}  # the later key wins, as in YAML


def test_read_file_bytes_reads_the_whole_file_whatever_size_was_listed(tmp_path):
    from wiki_tui.vault.parse.page import read_file_bytes

    path = tmp_path / "a.md"
    for content in (b"", b"x", b"[[a]]\n" * 3, bytes(range(256)) * 1000):  # empty, tiny, > 64 KB
        path.write_bytes(content)
        for listed in (-1, 0, 1, len(content), len(content) - 1, len(content) + 7):
            assert read_file_bytes(path, listed) == content, (len(content), listed)
    assert read_page_text(path, 3) == read_page_text(path)
    with pytest.raises(OSError):
        read_file_bytes(tmp_path / "gone.md", 5)
    with pytest.raises(OSError):
        read_file_bytes(tmp_path, 5)  # a folder
