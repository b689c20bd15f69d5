"""Building a changeset from a reply against real files in a copy of the sample vault."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from wiki_tui.changes.build.changeset import EditError, build_changeset, read_base_text
from wiki_tui.changes.model import ACCEPTED, CREATE, DELETE, MODIFY, RENAME, proposed_texts
from wiki_tui.changes.reply.stream import parse_reply


def open_vault(root: Path):
    try:
        from wiki_tui.vault import Vault
    except ImportError:  # the real Vault is used as soon as it exists
        return SimpleNamespace(root=root)
    return Vault.open(root, use_cache=False)


def build(vault_root: Path, reply: str):
    return build_changeset(open_vault(vault_root), parse_reply(reply), operation="instruct",
                           title="test", model="test-model")


H4 = "entities/H4.md"


def test_create_and_modify(sample_vault):
    reply = f"""I add a page and fix another.
@@@ WRITE concepts/Escapement.md
---
title: Escapement
type: concept
summary: The part of a clock that releases its power in equal steps.
---
# Escapement

Used in [[H4]].
```text
tick
```
@@@ END
@@@ EDIT {H4}
@@@ SEARCH
# H4
@@@ REPLACE
# H4

Harrison's sea watch.
@@@ END
"""
    cs, errors = build(sample_vault, reply)
    assert errors == []
    assert (cs.operation, cs.title, cs.model) == ("instruct", "test", "test-model")
    assert [(f.kind, f.path) for f in cs.files] == [(CREATE, "concepts/Escapement.md"),
                                                   (MODIFY, H4)]
    new, mod = cs.files
    assert new.base_text is None and new.proposed_text.startswith("---\ntitle: Escapement")
    assert "```text\ntick\n```\n" in new.proposed_text
    disk = (sample_vault / H4).read_text()
    assert mod.base_text == disk and mod.base_hash
    assert mod.proposed_text == disk.replace("# H4\n", "# H4\n\nHarrison's sea watch.\n", 1)
    assert len(mod.hunks) == 1 and mod.hunks[0].old_lines == []
    assert sorted(mod.hunks[0].new_lines) == ["\n", "Harrison's sea watch.\n"]
    mod.accept()
    assert mod.result_text() == mod.proposed_text
    # nothing was written by building
    assert not (sample_vault / "concepts/Escapement.md").exists()
    assert (sample_vault / H4).read_text() == disk


def test_a_files_blocks_apply_together_or_not_at_all(sample_vault):
    reply = f"""@@@ EDIT {H4}
@@@ SEARCH
# H4
@@@ REPLACE
# The H4
@@@ END
@@@ WRITE concepts/Fine.md
fine
@@@ END
@@@ EDIT {H4}
@@@ SEARCH
this line is not in the page
@@@ REPLACE
x
@@@ END
"""
    cs, errors = build(sample_vault, reply)
    assert [f.path for f in cs.files] == ["concepts/Fine.md"]
    [err] = errors
    assert isinstance(err, EditError) and err.path == H4 and err.kind == "match" and err.retry
    assert str(err).startswith(f"{H4}: the edit: the SEARCH text was not found")
    assert cs.errors == [str(err)]


def test_delete_and_rename(sample_vault):
    old = "entities/Larcum Kendall.md"
    reply = f"@@@ DELETE concepts/Dead reckoning.md\n@@@ RENAME {old} -> people/Larcum Kendall.md\n"
    cs, errors = build(sample_vault, reply)
    assert errors == []
    dele, ren = cs.files
    assert (dele.kind, dele.path, dele.proposed_text) == (DELETE, "concepts/Dead reckoning.md", None)
    assert (ren.kind, ren.path, ren.old_path) == (RENAME, "people/Larcum Kendall.md", old)
    base = (sample_vault / old).read_text()
    assert ren.base_text == base and ren.proposed_text == base and ren.hunks == []
    ren.accept()
    assert ren.will_write and ren.result_text() == base
    assert proposed_texts(cs.files) == {"concepts/Dead reckoning.md": None, old: None,
                                    "people/Larcum Kendall.md": base}


def test_rename_then_edit_the_new_path_and_chained_renames(sample_vault):
    reply = f"""@@@ RENAME {H4} -> entities/H4 watch.md
@@@ EDIT entities/H4 watch.md
@@@ SEARCH
# H4
@@@ REPLACE
# H4 (the sea watch)
@@@ END
@@@ RENAME entities/H4 watch.md -> instruments/H4.md
"""
    cs, errors = build(sample_vault, reply)
    assert errors == []
    [ren] = cs.files
    assert (ren.kind, ren.old_path, ren.path) == (RENAME, H4, "instruments/H4.md")
    assert len(ren.hunks) == 1 and ren.hunks[0].new_lines == ["# H4 (the sea watch)\n"]


def test_rename_group_fails_together(sample_vault):
    reply = f"""@@@ RENAME {H4} -> entities/H4 watch.md
@@@ EDIT entities/H4 watch.md
@@@ SEARCH
no such line
@@@ REPLACE
x
@@@ END
"""
    cs, errors = build(sample_vault, reply)
    assert cs.files == []
    assert "SEARCH text was not found" in str(errors[0])
    assert "go together with the failed one" in str(errors[1]) and H4 in str(errors[1])


def test_incomplete_block_is_never_applied(sample_vault):
    cs, errors = build(sample_vault, "@@@ WRITE concepts/Cut.md\n---\ntitle: Cut\n")
    assert cs.files == []
    [err] = errors
    assert err.kind == "incomplete" and "ended in the middle" in str(err)


def test_protocol_errors_are_carried(sample_vault):
    cs, errors = build(sample_vault, "@@@ REPLACE\n@@@ WRITE concepts/Ok.md\nok\n@@@ END\n")
    assert [f.path for f in cs.files] == ["concepts/Ok.md"]
    assert errors[0].kind == "protocol" and str(errors[0]).startswith("reply line 1:")


def test_already_applied_is_a_notice_and_no_change(sample_vault):
    disk = (sample_vault / H4).read_text()
    first = next(x for x in disk.splitlines()[8:] if len(x) > 30)
    reply = f"@@@ EDIT {H4}\n@@@ SEARCH\nnot there any more\n@@@ REPLACE\n{first}\n@@@ END\n"
    cs, errors = build(sample_vault, reply)
    assert cs.files == []
    [note] = errors
    assert note.kind == "notice" and not note.retry and "already in the page" in str(note)
    assert cs.errors == []


def test_write_identical_to_disk_is_no_change(sample_vault):
    disk = (sample_vault / H4).read_text()
    cs, errors = build(sample_vault, f"@@@ WRITE {H4}\n{disk}@@@ END\n")
    assert cs.files == [] and errors == []


def test_crlf_page_keeps_crlf_on_write_and_edit(sample_vault):
    page = sample_vault / "concepts" / "Crlf.md"
    page.write_bytes(b"---\r\ntitle: Crlf\r\n---\r\nline one\r\nline two\r\n")
    cs, errors = build(sample_vault, "@@@ WRITE concepts/Crlf.md\n---\ntitle: Crlf\n---\n"
                                     "line one\nline 2\n@@@ END\n")
    assert errors == []
    [fc] = cs.files
    assert fc.proposed_text == "---\r\ntitle: Crlf\r\n---\r\nline one\r\nline 2\r\n"
    assert len(fc.hunks) == 1
    cs, _ = build(sample_vault, "@@@ EDIT concepts/Crlf.md\n@@@ SEARCH\nline two\n@@@ REPLACE\n"
                                "line 2\nline 3\n@@@ END\n")
    assert cs.files[0].proposed_text.endswith("line one\r\nline 2\r\nline 3\r\n")


def test_non_utf8_page_is_refused_not_mangled(sample_vault):
    (sample_vault / "concepts" / "Latin1.md").write_bytes("caf\xe9\n".encode("latin-1"))
    cs, errors = build(sample_vault, "@@@ EDIT concepts/Latin1.md\n@@@ SEARCH\ncaf\n@@@ REPLACE\n"
                                     "x\n@@@ END\n")
    assert cs.files == []
    assert errors[0].kind == "unreadable" and "not valid UTF-8 (byte 0xe9 at offset 3)" in str(
        errors[0])
    with pytest.raises(Exception, match="binary"):
        (sample_vault / "b.md").write_bytes(b"\x00\x01")
        read_base_text(sample_vault, "b.md")


def test_edit_of_a_missing_page_suggests_write(sample_vault):
    cs, errors = build(sample_vault, "@@@ EDIT concepts/Nope.md\n@@@ SEARCH\nx\n@@@ REPLACE\ny\n"
                                     "@@@ END\n")
    assert cs.files == [] and "send the whole page with '@@@ WRITE concepts/Nope.md'" in str(errors[0])


def test_write_then_edit_same_new_page(sample_vault):
    reply = ("@@@ WRITE concepts/Two step.md\nalpha\nbeta\n@@@ END\n"
             "@@@ EDIT concepts/Two step.md\n@@@ SEARCH\nbeta\n@@@ REPLACE\ngamma\n@@@ END\n")
    cs, errors = build(sample_vault, reply)
    assert errors == [] and cs.files[0].kind == CREATE
    assert cs.files[0].proposed_text == "alpha\ngamma\n"


def test_paths_are_normalised(sample_vault):
    cs, errors = build(sample_vault, "@@@ WRITE ./concepts/Cafe\u0301.md\nx\n@@@ END\n")
    assert errors == [] and cs.files[0].path == "concepts/Caf\u00e9.md"


def test_accepting_some_hunks(sample_vault):
    disk = (sample_vault / H4).read_text()
    lines = disk.splitlines(keepends=True)
    proposed = "".join(["# The H4\n" if x == "# H4\n" else x for x in lines]) + "More.\n"
    cs, _ = build(sample_vault, f"@@@ WRITE {H4}\n{proposed}@@@ END\n")
    [fc] = cs.files
    assert len(fc.hunks) == 2
    fc.toggle_hunk(1)
    assert fc.status == ACCEPTED and fc.result_text() == disk + "More.\n"


def test_lint_findings_travel_with_the_changeset(sample_vault):
    vault = open_vault(sample_vault)
    reply = ("@@@ WRITE concepts/Linky.md\n---\ntitle: Linky\ntype: concept\nsummary: s\n---\n"
             "See [[Page That Does Not Exist Anywhere]].\n@@@ END\n")
    cs, errors = build_changeset(vault, parse_reply(reply), operation="ingest", title="t")
    assert errors == []
    assert any("Page That Does Not Exist Anywhere" in str(f) for f in cs.findings), cs.findings


def test_lint_failure_does_not_lose_the_changeset(sample_vault):
    class Broken:
        root = sample_vault

        def lint_changes(self, files):
            raise RuntimeError("boom")

    cs, errors = build_changeset(Broken(), parse_reply("@@@ WRITE a.md\nx\n@@@ END\n"),
                                 operation="ingest", title="t")
    assert [f.path for f in cs.files] == ["a.md"] and cs.findings == []
    assert any("could not be linted" in e for e in cs.errors)


def test_old_path_of_a_rename_cannot_be_written_in_the_same_reply(sample_vault):
    reply = f"@@@ RENAME {H4} -> entities/H4 watch.md\n@@@ WRITE {H4}\nnew\n@@@ END\n"
    cs, errors = build(sample_vault, reply)
    assert cs.files == []
    assert "was renamed to entities/H4 watch.md earlier in the reply" in str(errors[0])


def test_reply_to_disk_through_the_journal(git_vault):
    """The whole pipe: a streamed reply -> changeset -> accepted -> written, logged, committed."""
    from wiki_tui.changes.apply.journal import apply_changeset
    from wiki_tui.changes.reply.stream import StreamParser

    crlf = git_vault / "concepts" / "Dead reckoning.md"
    crlf.write_bytes(crlf.read_bytes().replace(b"\n", b"\r\n"))
    reply = (f"Updating two pages.\n```\n@@@ EDIT {H4}\n@@@ SEARCH\n# H4\n@@@ REPLACE\n# H4\n\n"
             "See also [[Dead reckoning]].\n@@@ END\n```\n@@@ EDIT concepts/Dead reckoning.md\n"
             "@@@ SEARCH\n---\ntitle: Dead reckoning\n@@@ REPLACE\n---\ntitle: Dead reckoning (DR)\n"
             "@@@ END\n")
    parser = StreamParser()
    for i in range(0, len(reply), 3):
        parser.feed(reply[i : i + 3])
    parser.close()
    vault = open_vault(git_vault)
    cs, errors = build_changeset(vault, parser.result(), operation="instruct", title="pipe")
    assert errors == [] and len(cs.files) == 2
    h4_before = (git_vault / H4).read_text()
    cs.accept_all()
    result = apply_changeset(vault, cs, date="2026-11-22")
    assert sorted(result.written) == sorted([H4, "concepts/Dead reckoning.md"])
    assert (git_vault / H4).read_text() == h4_before.replace(
        "# H4\n", "# H4\n\nSee also [[Dead reckoning]].\n", 1)
    data = crlf.read_bytes()
    assert b"title: Dead reckoning (DR)\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")
    assert "## [2026-11-22] instruct | pipe" in (git_vault / "log.md").read_text()


def test_write_over_a_bom_page_keeps_the_bom_out_of_the_diff(sample_vault):
    page = sample_vault / "concepts" / "Bom.md"
    page.write_bytes("\ufeff---\ntitle: Bom\n---\nold\n".encode())
    cs, errors = build(sample_vault, "@@@ WRITE concepts/Bom.md\n---\ntitle: Bom\n---\nnew\n@@@ END\n")
    [fc] = cs.files
    assert fc.proposed_text == "\ufeff---\ntitle: Bom\n---\nnew\n"
    assert [h.old_lines for h in fc.hunks] == [["old\n"]]


# -- read as meant: paths, placeholders, rewrites, tolerant matches ------------------------------

EDIT_H4 = "@@@ SEARCH\n# H4\n@@@ REPLACE\n# H4 (the Sea Watch)\n@@@ END\n"


@pytest.mark.parametrize("path, note", [
    ("H4.md", "same file name"), ("Entities/h4.md", "same letter case"),
    ("Sea Watch.md", "title or alias"), ("Harrison's H4.md", "title or alias"), ("vault/entities/H4.md", "vault's own folder name"),
])
def test_an_edit_of_a_path_that_names_no_page_finds_the_page_meant(sample_vault, path, note):
    cs, errors = build(sample_vault, f"@@@ EDIT {path}\n{EDIT_H4}")
    assert errors == [] and [f.path for f in cs.files] == [H4]
    assert any(note in r and H4 in r for r in cs.files[0].repairs), cs.files[0].repairs
    assert not (sample_vault / path).exists()


def test_a_name_several_pages_share_is_refused_naming_them(sample_vault):
    cs, errors = build(sample_vault, "@@@ DELETE Board of Longitude.md\n")
    assert cs.files == []
    msg = str(errors[0])
    assert "entities/Board of Longitude.md" in msg and "sources/Board of Longitude.md" in msg
    assert "WRITE" not in msg


def test_a_wrong_folder_is_refused_naming_the_page_not_suggesting_a_twin(sample_vault):
    cs, errors = build(sample_vault, f"@@@ EDIT concepts/H4.md\n{EDIT_H4}")
    assert cs.files == [] and H4 in str(errors[0]) and "WRITE" not in str(errors[0])


def test_a_page_written_earlier_in_the_reply_is_not_looked_for_elsewhere(sample_vault):
    reply = ("@@@ WRITE concepts/New.md\n---\ntitle: New\n---\n# New\n@@@ END\n"
             "@@@ EDIT concepts/New.md\n@@@ SEARCH\n# New\n@@@ REPLACE\n# New!\n@@@ END\n")
    cs, errors = build(sample_vault, reply)
    assert errors == [] and cs.files[0].proposed_text.endswith("# New!\n")
    assert cs.files[0].repairs == []


def test_a_write_to_a_bare_name_goes_to_the_existing_page_not_a_root_twin(sample_vault):
    base = (sample_vault / H4).read_text()
    cs, errors = build(sample_vault, f"@@@ WRITE H4.md\n{base}More.\n@@@ END\n")
    assert errors == [] and [f.path for f in cs.files] == [H4]
    assert "instead of creating a twin" in cs.files[0].repairs[0]


def test_a_write_named_after_an_alias_is_refused_as_a_near_twin(sample_vault):
    cs, errors = build(sample_vault, "@@@ WRITE Sea Watch.md\n# x\n@@@ END\n")
    assert cs.files == [] and "near-twin" in str(errors[0]) and H4 in str(errors[0])


def test_a_placeholder_line_in_a_write_is_refused_quoting_it(sample_vault):
    cs, errors = build(sample_vault, "@@@ WRITE concepts/New.md\n# New\n\n...\n@@@ END\n")
    assert cs.files == [] and "line 3 of the WRITE is a placeholder" in str(errors[0])
    assert "'...'" in str(errors[0]) and "Send the whole page" in str(errors[0])


def test_a_placeholder_line_the_page_already_had_is_page_text(sample_vault):
    (sample_vault / "concepts/Poem.md").write_text("# Poem\n\n...\nend\n")
    cs, errors = build(sample_vault, "@@@ WRITE concepts/Poem.md\n# Poem\n\n...\nthe end\n@@@ END\n")
    assert errors == [] and cs.files[0].proposed_text.endswith("...\nthe end\n")


def test_a_placeholder_in_replace_not_in_search_is_refused(sample_vault):
    reply = ("@@@ EDIT entities/H4.md\n@@@ SEARCH\n## Trials\n@@@ REPLACE\n## Trials\n"
             "<!-- existing content -->\n@@@ END\n")
    cs, errors = build(sample_vault, reply)
    assert cs.files == [] and "'<!-- existing content -->'" in str(errors[0])
    assert "REPLACE has a placeholder line" in str(errors[0])


def test_a_heavy_rewrite_is_warned_and_held_unless_marked(sample_vault):
    page = "---\ntitle: H4\ntype: entity\nsummary: A watch.\n---\n# H4\n\nA watch.\n"
    cs, errors = build(sample_vault, f"@@@ WRITE {H4}\n{page}@@@ END\n")
    fc = cs.files[0]
    assert errors == [] and fc.warnings and fc.warnings[0].startswith("rewrites the whole page")
    assert fc.hold and "(rewrite)" in fc.hold
    from wiki_tui.changes.build.guards import held
    assert held(cs) == [fc]
    cs, errors = build(sample_vault, f"@@@ WRITE {H4} (rewrite)\n{page}@@@ END\n")
    assert errors == [] and [f.path for f in cs.files] == [H4]
    assert cs.files[0].hold is None and "marked it as a rewrite" in cs.files[0].warnings[0]
    # the marker declares the rewrite; the fields, citations and links it drops still hold it
    assert {b.code for b in cs.files[0].breaches if b.holds} == {"fields", "links", "claims"}
    assert [b.declared for b in cs.files[0].breaches if b.code == "rewrite"] in ([], ["marked (rewrite)"])


def test_a_write_that_replaces_an_unrelated_page_is_held(sample_vault):
    page = "---\ntitle: Escapement\ntype: concept\nsummary: x\n---\n# Escapement\n\nTicks.\n"
    cs, _ = build(sample_vault, f"@@@ WRITE {H4}\n{page}@@@ END\n")
    assert cs.files[0].hold and "unrelated page (title 'H4' → 'Escapement')" in cs.files[0].hold


def test_an_ordinary_write_update_is_not_held(sample_vault):
    base = (sample_vault / H4).read_text()
    cs, _ = build(sample_vault, f"@@@ WRITE {H4}\n{base}\nOne more line.\n@@@ END\n")
    assert cs.files[0].warnings == [] and cs.files[0].hold is None


def test_a_tolerant_match_is_a_repair_note_of_the_file(sample_vault):
    reply = ("@@@ EDIT entities/H4.md\n@@@ SEARCH\n- Barbados, 1764: confirmed the first result "
             "([[sources/Board of Longitude|Board of Longitude entry]]).\n@@@ REPLACE\n"
             "- Barbados, 1764.\n@@@ END\n").replace("- Barbados", "  - Barbados", 1)
    cs, errors = build(sample_vault, reply)
    assert errors == [] and cs.files[0].repairs == ["the edit matched ignoring indentation"]


def test_a_page_whose_type_does_not_fit_its_folder_is_a_finding_of_the_changeset(sample_vault):
    page = "---\ntitle: Escapement\ntype: concept\nsummary: x\n---\n# Escapement\n\n[[H4]]\n"
    cs, errors = build(sample_vault, f"@@@ WRITE entities/Escapement.md\n{page}@@@ END\n"
                                     f"@@@ WRITE concepts/Gnomon.md\n{page}@@@ END\n")
    wrong = [f for f in cs.findings if f.code == "wrong-folder"]
    assert [(f.path, f.line) for f in wrong] == [("entities/Escapement.md", 3)]
    assert "belong in concepts/" in wrong[0].message
    cs, _ = build(sample_vault, "@@@ WRITE concepts/Odd.md\n" + page.replace("concept", "gizmo")
                  + "@@@ END\n")
    assert [f.code for f in cs.findings if f.code.endswith("type")] == ["unknown-type"]
    cs, _ = build(sample_vault, f"@@@ EDIT {H4}\n{EDIT_H4}")
    assert not [f for f in cs.findings if f.code in ("wrong-folder", "unknown-type")]


def test_a_build_leaves_the_garbage_collector_as_it_found_it(sample_vault):
    """The build holds the cyclic GC off while it runs (vault/gc_pause.py): on again after a
    good reply, a refused one, and a build that raises."""
    import gc

    assert gc.isenabled()
    build(sample_vault, f"@@@ EDIT {H4}\n@@@ SEARCH\n# H4\n@@@ REPLACE\n# H4 watch\n@@@ END\n")
    assert gc.isenabled()
    _cs, errors = build(sample_vault, "@@@ EDIT ../outside.md\n@@@ SEARCH\nx\n@@@ REPLACE\ny\n"
                                      "@@@ END\n")
    assert errors and gc.isenabled()
    with pytest.raises(AttributeError):
        build_changeset(object(), parse_reply(f"@@@ DELETE {H4}\n"), operation="x", title="t")
    assert gc.isenabled()
