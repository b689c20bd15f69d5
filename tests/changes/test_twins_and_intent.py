"""Twin page names (reply/twins.py, aimed by page_paths.py, refused in build) and declared intent
(reply/intent.py): families of names a person reads as one page, on a real copy of sample_vault."""

from __future__ import annotations

import pytest

from wiki_tui.changes.build.changeset import build_changeset
from wiki_tui.changes.reply.intent import declared_intents
from wiki_tui.changes.reply.stream import parse_reply
from wiki_tui.changes.reply.twins import TwinIndex, twin_key
from wiki_tui.vault import Vault

DR = "concepts/Dead reckoning.md"
H4 = "entities/H4.md"
PAGES = [DR, H4, "entities/John Harrison.md", "concepts/Marine chronometer.md"]


@pytest.mark.parametrize("name,meant", [
    ("concepts/Dead_reckoning.md", DR), ("concepts/Dead%20reckoning.md", DR),
    ("concepts/dead-reckoning.md", DR), ("concepts/Dead  reckoning.md", DR),
    ("concepts/Dead\u00a0reckoning.md", DR),  # a no-break space
    ("concept/Dead reckoning.md", DR), ("entity/H4.md", H4), ("Entities/h4.md", H4),
    ("wiki/entities/H4.md", H4), ("vault/concepts/Dead reckoning.md", DR),
    ("entities/\u041d4.md", H4),  # Cyrillic Н
    ("entities/\uff284.md", H4),  # full-width Ｈ
    ("entities\uff0fH4.md", H4),  # full-width slash
    ("concepts/Dead reckoning..md", DR), ("concepts/De\u0430d reckoning.md", DR),  # Cyrillic а
])
def test_twin_names_find_the_page(name, meant):
    assert TwinIndex(PAGES).of(name) == [meant]
    assert twin_key(name) == twin_key(meant) or name.startswith(("wiki/", "vault/"))


@pytest.mark.parametrize("name", ["concepts/Dead reckoning 2.md", "entities/H5.md",
                                  "entities/John Harrisons watch.md", "people/H4 watch.md"])
def test_different_names_are_not_twins(name):
    assert TwinIndex(PAGES).of(name) == []


def _build(root, reply: str):
    with Vault.open(root, use_cache=False) as vault:
        return build_changeset(vault, parse_reply(reply), operation="apply", title="t")


def test_a_write_to_a_twin_name_writes_the_existing_page_visibly(sample_vault):
    text = (sample_vault / DR).read_text() + "\nOne more line.\n"
    cs, errors = _build(sample_vault, f"@@@ WRITE concepts/Dead_reckoning.md\n{text}@@@ END\n")
    assert errors == [] and [(f.path, f.kind) for f in cs.files] == [(DR, "modify")]
    assert "would be a second page beside concepts/Dead reckoning.md" in cs.files[0].repairs[-1]
    assert not (sample_vault / "concepts/Dead_reckoning.md").exists()


def test_an_edit_of_a_twin_name_edits_the_page(sample_vault):
    reply = ("@@@ EDIT entity/H4.md\n@@@ SEARCH\n## Copies\n@@@ REPLACE\n## The copies\n"
             "@@@ END\n")
    cs, errors = _build(sample_vault, reply)
    assert errors == [] and [f.path for f in cs.files] == [H4]
    assert "used entities/H4.md" in cs.files[0].repairs[-1]


def test_a_twin_of_several_pages_is_refused_naming_them(sample_vault):
    (sample_vault / "notes").mkdir()
    for name in ("Sea_log.md", "Sea log.md"):
        (sample_vault / "notes" / name).write_text("x\n")
    cs, errors = _build(sample_vault, "@@@ WRITE notes/sea-log.md\ny\n@@@ END\n")
    assert cs.files == [] and "twins 2 existing pages" in str(errors[0])
    assert "notes/Sea log.md" in str(errors[0]) and "notes/Sea_log.md" in str(errors[0])


def test_one_reply_cannot_create_twins_or_write_a_page_twice(sample_vault):
    cs, errors = _build(sample_vault, "@@@ WRITE notes/Dup.md\na\n@@@ END\n"
                        "@@@ WRITE notes/DUP.md\nb\n@@@ END\n")
    assert [f.path for f in cs.files] == ["notes/Dup.md"]
    assert "already creates notes/Dup.md" in str(errors[0])
    cs, errors = _build(sample_vault, "@@@ WRITE notes/New.md\na\n@@@ END\n"
                        "@@@ WRITE notes/New.md\nb\n@@@ END\n")
    assert "already WRITEs notes/New.md" in str(errors[0])
    cs, errors = _build(sample_vault, "@@@ WRITE notes/New.md\na\n@@@ END\n"
                        "@@@ WRITE notes/New.md (rewrite)\nb\n@@@ END\n")
    assert errors == [] and cs.files[0].proposed_text == "b\n"


def test_a_name_ending_in_a_dot_is_refused_and_the_twin_named(sample_vault):
    cs, errors = _build(sample_vault, "@@@ WRITE notes/Trailing..md\nx\n@@@ END\n")
    assert cs.files == [] and "ends with a dot" in str(errors[0])
    cs, errors = _build(sample_vault, "@@@ WRITE entities/H4..md\nx\n@@@ END\n")
    assert cs.files == [] and "probably entities/H4.md" in str(errors[0])


def test_declared_intent_lines():
    prose = ("I removed the section.\n"
             "Intended: entities/H4.md — the person asked to drop it\n"
             "- **Intended:** concepts/A, [[concepts/B]] -- figures corrected\n"
             "> Intended: `syntheses/C.md` – merged\n"
             "INTENDED: x\n"
             "Unintended consequences are not declarations.\n")
    assert declared_intents(prose) == {
        "entities/H4.md": "the person asked to drop it", "concepts/A.md": "figures corrected",
        "concepts/B.md": "figures corrected", "syntheses/C.md": "merged",
        "x.md": "(no reason given)"}
    assert declared_intents("no declaration here") == {}


def test_a_declaration_follows_its_block_when_the_path_is_repaired(sample_vault):
    reply = ("Intended: entity/H4.md — the person asked to drop the Copies heading\n"
             "@@@ EDIT entity/H4.md\n@@@ SEARCH\n## Copies\n@@@ REPLACE\nCopies:\n@@@ END\n")
    cs, errors = _build(sample_vault, reply)
    assert errors == [] and cs.files[0].path == H4
    assert all(not b.holds for b in cs.files[0].breaches)


def test_the_vaults_twin_index_is_kept_until_its_pages_change(sample_vault):
    """One twin index per vault, not per reply: kept across builds, made again when a page is
    added (a twin of the new page is then found) or removed (its twins are then free)."""
    from wiki_tui.changes.reply.page_paths import twin_index

    reply = "@@@ WRITE concepts/Sea_clock.md\n---\ntitle: Sea clock\n---\n# Sea clock\n@@@ END\n"
    with Vault.open(sample_vault, use_cache=False) as vault:
        first = twin_index(vault)
        assert twin_index(vault) is first
        cs, errors = build_changeset(vault, parse_reply(reply), operation="apply", title="t")
        assert errors == [] and [f.path for f in cs.files] == ["concepts/Sea_clock.md"]
        assert twin_index(vault) is first  # a build reads it, and changes nothing
        (sample_vault / "concepts/Sea clock.md").write_text("---\ntitle: Sea clock\n---\n# S\n")
        vault.refresh_file("concepts/Sea clock.md")
        cs, errors = build_changeset(vault, parse_reply(reply), operation="apply", title="t")
        assert errors == [] and [f.path for f in cs.files] == ["concepts/Sea clock.md"]
        assert twin_index(vault) is not first
        again = twin_index(vault)
        (sample_vault / "concepts/Sea clock.md").unlink()
        vault.refresh_file("concepts/Sea clock.md")
        assert twin_index(vault) is not again
        assert twin_index(vault).of("concepts/Sea_clock.md") == []
        vault.refresh_file(DR)  # the same pages, re-read: the index is kept
        kept = twin_index(vault)
        (sample_vault / DR).write_text((sample_vault / DR).read_text() + "\nMore.\n")
        vault.refresh_file(DR)
        assert twin_index(vault) is kept
