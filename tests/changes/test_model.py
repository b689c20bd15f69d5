"""The changeset model: hunks, review state, result text, diff rendering, diff cost."""

from __future__ import annotations

import re
import time

from hypothesis import given
from hypothesis import strategies as st

from wiki_tui.changes.lines import split_lines
from wiki_tui.changes.model import (
    ACCEPTED,
    CREATE,
    DELETE,
    MODIFY,
    PENDING,
    REJECTED,
    RENAME,
    Changeset,
    FileChange,
    apply_hunks,
    compute_hunks,
    text_hash,
)

lines_st = st.lists(st.sampled_from(["a\n", "b\n", "\n", "---\n", "c\r\n", "ü\n", "```\n", "x"]),
                    max_size=30).map(lambda xs: "".join(x for x in xs if x != "x") +
                                     ("x" if "x" in xs else ""))


def apply_unified(base: str, diff: str) -> str:
    """A tiny `patch` for our own unified diffs (checks every header count)."""
    a = split_lines(base)
    out: list[str] = []
    pos = 0
    rows = diff.split("\n")[2:]  # skip ---/+++
    i = 0
    while i < len(rows) and rows[i]:
        m = re.match(r"@@ -(\d+),(\d+) \+(\d+),(\d+) @@$", rows[i])
        assert m, rows[i]
        old_start, old_len, _new_start, new_len = map(int, m.groups())
        start = old_start - 1 if old_len else old_start
        out.extend(a[pos:start])
        pos = start
        i += 1
        seen_old = seen_new = 0
        while i < len(rows) and rows[i] and not rows[i].startswith("@@"):
            tag, text = rows[i][0], rows[i][1:]
            nl = "\n"
            if i + 1 < len(rows) and rows[i + 1] == "\\ No newline at end of file":
                nl = ""
                i += 1
            if tag in " -":
                assert a[pos] == text + nl, (a[pos], text)
                pos += 1
                seen_old += 1
            if tag in " +":
                out.append(text + nl)
                seen_new += 1
            i += 1
        assert (seen_old, seen_new) == (old_len, new_len)
    out.extend(a[pos:])
    return "".join(out)


@given(lines_st, lines_st)
def test_hunks_round_trip_and_unified_diff_is_exact(a, b):
    hunks = compute_hunks(a, b)
    assert apply_hunks(a, hunks) == a  # nothing accepted
    for h in hunks:
        h.status = ACCEPTED
    assert apply_hunks(a, hunks) == b
    fc = FileChange("p.md", MODIFY, a, b)
    assert apply_unified(a, fc.unified_diff()) == b
    assert apply_unified(a, fc.unified_diff(context=0)) == b


@given(lines_st, lines_st, st.lists(st.booleans(), max_size=30))
def test_any_subset_of_hunks_gives_consistent_text(a, b, picks):
    fc = FileChange("p.md", MODIFY, a, b)
    for i, pick in enumerate(picks[: len(fc.hunks)]):
        fc.set_hunk(i, ACCEPTED if pick else REJECTED)
    result = fc.result_text()
    # the result is the base with exactly the accepted hunks' lines swapped in
    expect = split_lines(a)
    for h in reversed(fc.hunks):
        if h.status == ACCEPTED:
            expect[h.base_start:h.base_end] = h.new_lines
    assert result == "".join(expect)


def test_hunk_headers_and_context_lines():
    base = "".join(f"line {i}\n" for i in range(1, 21))
    proposed = base.replace("line 5\n", "LINE 5\nextra\n").replace("line 18\n", "")
    fc = FileChange("p.md", MODIFY, base, proposed)
    assert [h.header for h in fc.hunks] == ["@@ -5,1 +5,2 @@", "@@ -18,1 +18,0 @@"]
    view = fc.hunk_lines(1, context=2)
    assert [(d.tag, d.old_no, d.new_no, d.text) for d in view] == [
        (" ", 16, 17, "line 16"), (" ", 17, 18, "line 17"), ("-", 18, None, "line 18"),
        (" ", 19, 19, "line 19"), (" ", 20, 20, "line 20")]
    assert fc.stats == (2, 2)


def test_crlf_and_missing_final_newline_lines():
    base = "a\r\nb\r\nc"
    fc = FileChange("p.md", MODIFY, base, "a\r\nB\r\nc")
    [h] = fc.hunks
    assert h.old_lines == ["b\r\n"] and h.new_lines == ["B\r\n"]
    fc.accept()
    assert fc.result_text() == "a\r\nB\r\nc"
    assert fc.hunk_lines(0)[0].text == "a"  # endings are not shown as text


def test_form_feed_and_line_separator_are_not_line_breaks():
    fc = FileChange("p.md", MODIFY, "a\x0cb\nc\u2028d\n", "a\x0cb\nC\u2028d\n")
    assert len(fc.hunks) == 1 and fc.hunks[0].base_start == 1


def test_review_state_transitions():
    fc = FileChange("p.md", MODIFY, "a\nb\nc\nd\ne\nf\ng\n", "A\nb\nc\nd\ne\nf\nG\n")
    assert fc.status == PENDING and len(fc.hunks) == 2
    fc.toggle_hunk(0)
    assert fc.status == ACCEPTED and fc.result_text() == "A\nb\nc\nd\ne\nf\ng\n"
    fc.toggle_hunk(0)
    fc.set_hunk(1, REJECTED)
    assert fc.status == REJECTED
    fc.reject()
    assert fc.result_text() == fc.base_text and not fc.will_write
    fc.set_proposed("a\nb\nc\nd\ne\nf\nH\n")
    assert fc.edited_by_hand and fc.status == PENDING and len(fc.hunks) == 1


def test_delete_is_all_or_nothing():
    fc = FileChange("p.md", DELETE, "a\n\nb\n", None)
    fc.toggle_hunk(0)
    assert fc.status == ACCEPTED and all(h.status == ACCEPTED for h in fc.hunks)
    assert fc.result_text() is None
    fc.set_hunk(0, REJECTED)
    assert fc.status == REJECTED and fc.result_text() == "a\n\nb\n"
    fc.set_proposed("kept, edited\n")
    assert fc.kind == MODIFY and fc.proposed_text == "kept, edited\n"


def test_create_and_rename():
    fc = FileChange("n.md", CREATE, None, "x\ny\n")
    assert fc.base_hash is None and fc.unified_diff().startswith("--- /dev/null\n+++ b/n.md\n")
    fc.accept()
    assert fc.result_text() == "x\ny\n"
    ren = FileChange("new.md", RENAME, "t\n", "t\n", old_path="old.md")
    assert ren.hunks == [] and ren.unified_diff() == "--- a/old.md\n+++ b/new.md\n"
    ren.accept()
    assert ren.will_write and ren.result_text() == "t\n"


def test_changeset_helpers():
    a = FileChange("a.md", CREATE, None, "a\n")
    b = FileChange("b.md", MODIFY, "b\n", "B\n")
    cs = Changeset("ingest", "t", files=[a, b])
    assert cs.file("b.md") is b and cs.pending == [a, b]
    cs.accept_all()
    assert cs.accepted == [a, b]
    cs.reject_all()
    assert cs.rejected == [a, b]
    assert text_hash("x") == text_hash("x") != text_hash("y") and text_hash(None) is None


def test_diff_of_a_big_repetitive_page_is_bounded():
    rows = ["- item", "", "---", "| a | b |", "|---|---|", "```", "x = 1", "```"]
    base_lines = [rows[i % len(rows)] for i in range(12_000)]  # ~60 KB of repeated lines
    new_lines = [x + " !" if i % 97 == 0 else x for i, x in enumerate(base_lines)]
    base, new = "\n".join(base_lines) + "\n", "\n".join(new_lines) + "\n"
    t = time.process_time()  # this process's CPU: a busy machine does not inflate it
    hunks = compute_hunks(base, new)
    assert time.process_time() - t < 2.0  # plain difflib (autojunk=False) takes ~20 s here
    for h in hunks:
        h.status = ACCEPTED
    assert apply_hunks(base, hunks) == new


def test_intraline_spans():
    from wiki_tui.changes.model import intraline_spans

    old, new = "Harrison built H4 in 1759.", "Harrison finished H4 in 1759."
    a, b = intraline_spans(old, new)
    assert a and b
    # everything outside the spans is shared text, in order
    keep_a = "".join(ch for k, ch in enumerate(old) if not any(i <= k < j for i, j in a))
    keep_b = "".join(ch for k, ch in enumerate(new) if not any(i <= k < j for i, j in b))
    assert keep_a == keep_b and "Harrison " in keep_a and " H4 in 1759." in keep_a
    assert intraline_spans("x" * 3000, "y") == ([(0, 3000)], [(0, 1)])
    assert intraline_spans("", "new") == ([], [(0, 3)])
