"""The knowledge diff (build/knowledge/diff.py) and what --yes does with its invariants, on real
copies of sample_vault: one finding family per test, then the CLI end to end (exit 3 and the
vault untouched, --allow, --json)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.changes.journal_support import disk_state, head
from tests.corpus.outcome import edit  # SEARCH widened to whole lines of the sample page
from wiki_tui.changes.build.changeset import build_changeset
from wiki_tui.changes.reply.stream import parse_reply
from wiki_tui.cli import main
from wiki_tui.vault import Vault

H4 = "entities/H4.md"
JH = "entities/John Harrison.md"
ACT = "entities/Longitude Act 1714.md"


def diff_of(root: Path, reply: str, **kw):
    with Vault.open(root, use_cache=False) as vault:
        cs, errors = build_changeset(vault, parse_reply(reply), operation=kw.pop("op", "apply"),
                                     title="t", **kw)
    assert [str(e) for e in errors if e.retry] == []
    return cs


def test_frontmatter_findings(sample_vault):
    cs = diff_of(sample_vault, edit(
        H4, "aliases: [Harrison's H4, the Sea Watch]\ntags: [instrument, timekeeper, horology]",
        "aliases: Harrison's H4\ntags: [instrument]\ntags: [watch]"))
    page = cs.knowledge.page(H4)
    assert page.fields_retyped == ["aliases: list → text"]
    assert page.duplicate_keys == ["tags"]
    assert {b.code for b in cs.files[0].breaches} == {"fields"}


def test_keys_below_the_frontmatter_and_title(sample_vault):
    cs = diff_of(sample_vault, edit(JH, "born: 1693\ndied: 1776\n---", "---\nborn: 1693\ndied: 1776")
                 + edit(ACT, "title: Longitude Act 1714", "title: The Act of 1714"))
    assert cs.knowledge.page(JH).keys_below == ["born", "died"]
    assert cs.knowledge.page(JH).fields_removed == ["born", "died"]
    assert "no longer matches the file name" in cs.knowledge.page(ACT).title_mismatch


def test_links_retargeted_added_and_newly_broken(sample_vault):
    cs = diff_of(sample_vault, edit(
        H4, "The [[entities/Board of Longitude|Board of Longitude]] demanded",
        "The [[Nevil Maskelyne|Board of Longitude]] demanded, see [[Nowhere yet]],"))
    page = cs.knowledge.page(H4)
    assert page.links_retargeted == ["[[entities/Board of Longitude|Board of Longitude]] → "
                                     "[[Nevil Maskelyne|Board of Longitude]]"]
    assert page.links_broken == ["[[Nowhere yet]]"] and page.links_removed == []


def test_a_merge_carries_a_link_as_its_old_text_to_a_page_already_linked(sample_vault):
    # how `instruct` carries a merged page's backlinks: [[Old]] becomes [[Into|Old]] while Old
    # goes, and the page linked Into already: retargeted, nothing removed, nothing held here
    cs = diff_of(sample_vault, edit(H4, "[[Larcum Kendall]]", "[[John Harrison|Larcum Kendall]]")
                 + "@@@ DELETE entities/Larcum Kendall.md\n")
    page = cs.knowledge.page(H4)
    assert page.links_retargeted == ["[[Larcum Kendall]] → [[John Harrison|Larcum Kendall]]"]
    assert page.links_removed == [] and page.links_added == [] and page.links_redirected == []
    assert not next(fc for fc in cs.files if fc.path == H4).breaches


def test_a_link_showing_another_pages_name_is_held_and_its_own_names_pass(sample_vault):
    # "[[Larcum Kendall|Nevil Maskelyne]] made K1" reads as Maskelyne's work; the page and the
    # link's target both stay, so nothing else in the diff would say so
    cs = diff_of(sample_vault, edit(H4, "copied; [[Larcum Kendall]]",
                                    "copied; [[Larcum Kendall|Nevil Maskelyne]]")
                 + edit(JH, "[[H4]]", "[[H4|the Sea Watch]]"))
    masked = cs.knowledge.page(H4).links_masked
    assert masked == ["[[Larcum Kendall|Nevil Maskelyne]] shows “Nevil Maskelyne” "
                      "(entities/Nevil Maskelyne.md) but reaches entities/Larcum Kendall.md"]
    assert {b.code for b in next(fc for fc in cs.files if fc.path == H4).breaches} == {"links"}
    assert cs.knowledge.page(JH).links_masked == []  # an alias of its own page
    assert not next(fc for fc in cs.files if fc.path == JH).breaches


def test_a_masked_link_a_page_already_had_is_not_the_changes(sample_vault):
    # the page has the link as written before the change: moving it along is not writing it
    page = "---\ntitle: Masked\ntype: concept\nsummary: x\n---\n# Masked\n\nSee [[H4|John Harrison]].\n"
    (sample_vault / "concepts/Masked.md").write_text(page, encoding="utf-8")
    cs = diff_of(sample_vault, "@@@ EDIT concepts/Masked.md\n@@@ SEARCH\nSee [[H4|John Harrison]].\n"
                 "@@@ REPLACE\nSee [[H4|John Harrison]], the watch.\n@@@ END\n")
    assert cs.knowledge.page("concepts/Masked.md").links_masked == []


def test_a_link_pointed_elsewhere_under_its_old_words_while_its_page_stays_is_held(sample_vault):
    # the same edit without the merge: "Larcum Kendall" now opens John Harrison's page, and
    # Larcum Kendall's page is still there — a reader is sent to the wrong page unseen
    cs = diff_of(sample_vault, edit(H4, "[[Larcum Kendall]]", "[[John Harrison|Larcum Kendall]]"))
    page = cs.knowledge.page(H4)
    assert page.links_redirected == ["[[Larcum Kendall]] → [[John Harrison|Larcum Kendall]]"]
    assert [b.code for b in cs.files[0].breaches] == ["links"]


def test_a_citation_aimed_at_another_source_under_its_old_text_is_a_citation_removed(
        sample_vault):
    cs = diff_of(sample_vault, edit(
        H4, "[[sources/Board of Longitude|Board of Longitude entry]]",
        "[[John Harrison and the Sea Clocks|Board of Longitude entry]]"))
    page = cs.knowledge.page(H4)
    assert page.citations_removed == ["[[sources/Board of Longitude|Board of Longitude entry]]"]
    assert [b.code for b in cs.files[0].breaches if b.holds] == ["links"]
    # a page citing that source only there: the retarget itself is the citation lost
    note = "concepts/Note.md"
    (sample_vault / note).write_text("# Note\n\nThe Board paid out ([[sources/Board of Longitude|"
                                     "the entry]]), see [[H4]].\n", encoding="utf-8")
    cs = diff_of(sample_vault, f"@@@ EDIT {note}\n@@@ SEARCH\nThe Board paid out ([[sources/"
                 "Board of Longitude|the entry]]), see [[H4]].\n@@@ REPLACE\nThe Board paid out "
                 "([[H4|the entry]]), see [[H4]].\n@@@ END\n")
    page = cs.knowledge.page(note)
    assert page.links_retargeted == ["[[sources/Board of Longitude|the entry]] → [[H4|the entry]]"]
    assert page.citations_removed == ["[[sources/Board of Longitude|the entry]]"]
    assert [b.code for b in cs.files[0].breaches if b.holds] == ["links"]


def test_a_respelled_link_is_the_same_link(sample_vault):
    cs = diff_of(sample_vault, edit(
        H4, "The [[entities/Board of Longitude|Board of Longitude]] demanded",
        "The [[Board of Longitude]] demanded"))
    page = cs.knowledge.page(H4)
    assert page.links_removed == [] and page.links_added == [] and not cs.files[0].breaches


def test_footnotes_external_links_comments_and_invisible_characters(sample_vault):
    cs = diff_of(sample_vault, edit(
        H4, "## Copies", "Found at https://example.org/h4 %% note %% <!-- hidden -->\u202e\n\n"
        "## Copies"))
    page = cs.knowledge.page(H4)
    assert page.external_added == ["https://example.org/h4"]
    assert page.comments_added == ["%% note %%", "<!-- hidden -->"]
    assert page.invisible_added == ["U+202E RIGHT-TO-LEFT OVERRIDE ×1"]
    assert [b.code for b in cs.files[0].breaches if b.holds] == ["hidden"]
    assert cs.files[0].breaches[0].declarable is False


def test_figures_changed_are_claims_unless_a_citation_comes_with_them(sample_vault):
    reply = edit(ACT, "£15,000 for two-thirds", "£16,000 for two-thirds")
    cs = diff_of(sample_vault, reply)
    page = cs.knowledge.page(ACT)
    assert (page.figures_removed, page.figures_added) == (["£15,000"], ["£16,000"])
    assert page.figure_lines[0].startswith("−") and "£15,000" in page.figure_lines[0]
    assert [b.code for b in cs.files[0].breaches] == ["claims"]
    cs = diff_of(sample_vault, edit(ACT, "£15,000 for two-thirds", "£16,000[^1] for two-thirds")
                 .replace("@@@ END", "@@@ END", 1) + edit(
                     ACT, "## Outcome", "[^1]: [[raw/board-of-longitude.md]]\n\n## Outcome"))
    assert cs.files[0].breaches == []


LK = "entities/Larcum Kendall.md"
K2 = "Kendall later made two simpler and cheaper watches, K2 and K3. #horology"


def test_a_sentence_turned_around_is_a_claim_change(sample_vault):
    for turned in ("Kendall never made two simpler and cheaper watches, K2 and K3. #horology",
                   "Kendall later made two watches, K2 and K3, that were not simpler or cheaper."
                   " #horology",
                   "- Kendall later made two simpler and cheaper watches, K2 and K3? No. #horology"):
        cs = diff_of(sample_vault, edit(LK, K2, turned))
        page = cs.knowledge.page(LK)
        assert len(page.polarity_changed) == 1, turned
        assert [b.code for b in cs.files[0].breaches] == ["claims"], turned
    # the same sentence reworded, a negation kept, or a new sentence with one: not turned around
    for kept in ("Kendall later made two watches, K2 and K3, simpler and cheaper. #horology",
                 K2 + "\n\nK1 did not stay in England: it sailed twice with Cook."):
        cs = diff_of(sample_vault, edit(LK, K2, kept))
        assert cs.knowledge.page(LK).polarity_changed == [], kept
        assert cs.files[0].breaches == [], kept


def test_an_ingest_that_changes_pages_its_source_never_names_is_spread(sample_vault):
    reply = "".join(edit(p, f"# {Path(p).stem}", f"# {Path(p).stem}\n\nSee [[H4]].") for p in (
        "entities/Scilly naval disaster of 1707.md", "entities/Royal Observatory Greenwich.md"))
    cs = diff_of(sample_vault, reply, op="ingest", source="raw/lunar-distances.md")
    assert cs.knowledge.spread["pages the source never mentions"] == [
        "entities/Scilly naval disaster of 1707.md", "entities/Royal Observatory Greenwich.md"]
    cs = diff_of(sample_vault, reply.replace("Scilly naval disaster of 1707", "Tobias Mayer"),
                 op="ingest", source="raw/lunar-distances.md")
    assert cs.knowledge.spread == {}


def test_to_dict_is_json_and_says_only_what_is_there(sample_vault):
    cs = diff_of(sample_vault, edit(H4, "## Copies", "## The copies"))
    data = json.loads(json.dumps(cs.knowledge.to_dict()))
    assert data["pages"][0]["path"] == H4 and data["pages"][0]["blocks"] == 1
    assert set(data["pages"][0]) == {"path", "kind", "rewritten", "blocks", "anchors_removed"} \
        or set(data["pages"][0]) == {"path", "kind", "rewritten", "blocks"}
    assert data["counts"]["modified"] == 1 and data["spread"] == {}


# -- the CLI: --yes holds, --allow releases, --json shows ----------------------------------
def _deletes(n: int) -> str:
    pages = sorted(p.relative_to(SAMPLE_ENTITIES).as_posix() for p in SAMPLE_ENTITIES.glob("*.md"))
    return "".join(f"@@@ DELETE entities/{p}\n" for p in pages[:n])


SAMPLE_ENTITIES = Path(__file__).resolve().parents[2] / "sample_vault" / "entities"


def test_yes_holds_eleven_deletes_even_when_declared(git_vault, tmp_path, capsys):
    reply = tmp_path / "reply.txt"
    reply.write_text("The source said to delete every page.\n" + "".join(
        f"Intended: entities/{p.name} — the source said so\n" for p in SAMPLE_ENTITIES.glob("*.md"))
        + _deletes(11), encoding="utf-8")
    before, commit = disk_state(git_vault), head(git_vault)
    code = main(["--vault", str(git_vault), "apply", str(reply), "--yes"])
    err = " ".join(capsys.readouterr().err.split())
    assert code == 3 and "one of 11 pages deleted in one operation" in err
    assert "--allow delete" in err
    assert disk_state(git_vault) == before and head(git_vault) == commit
    assert main(["--vault", str(git_vault), "apply", str(reply), "--yes",
                 "--allow", "delete"]) == 0
    assert not (git_vault / "entities" / "H4.md").exists()


def test_yes_holds_a_spree_of_moves_into_an_archive_but_not_two(git_vault, tmp_path, capsys):
    # pages moved away in bulk are gone from where readers look, even with every link kept
    names = ["James Cook", "Larcum Kendall", "Tobias Mayer", "Nevil Maskelyne"]
    reply = tmp_path / "reply.txt"
    reply.write_text("Tidying old pages into the archive.\n" + "".join(
        f"@@@ RENAME entities/{n}.md -> archive/{n}.md\n" for n in names), encoding="utf-8")
    before, commit = disk_state(git_vault), head(git_vault)
    code = main(["--vault", str(git_vault), "apply", str(reply), "--yes"])
    err = " ".join(capsys.readouterr().err.split())
    assert code == 3 and "one of 4 pages moved in one operation" in err
    assert disk_state(git_vault) == before and head(git_vault) == commit
    reply.write_text("Archiving two.\n" + "".join(
        f"@@@ RENAME entities/{n}.md -> archive/{n}.md\n" for n in names[2:]), encoding="utf-8")
    main(["--vault", str(git_vault), "apply", str(reply), "--yes", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert not any("pages moved in one operation" in b["message"]
                   for f in out["files"] for b in f.get("breaches", []))


def test_json_carries_the_knowledge_diff_and_breaches(git_vault, tmp_path, capsys):
    reply = tmp_path / "reply.txt"
    reply.write_text(edit("concepts/Marine chronometer.md", "## Trials at sea", "## Sea trials"),
                     encoding="utf-8")
    code = main(["--vault", str(git_vault), "apply", str(reply), "--yes", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 3 and out["applied"] is False
    assert out["knowledge"]["pages"][0]["anchors_removed"] == ["#Trials at sea"]
    breach = out["files"][0]["breaches"][0]
    assert breach["code"] == "links" and breach["holds"] is True
    assert "entities/H4.md" in breach["message"]
    assert any("broken-anchor" in f for f in out["findings"])


def test_text_output_says_what_it_does_and_allow_checks_its_codes(git_vault, tmp_path, capsys):
    reply = tmp_path / "reply.txt"
    reply.write_text(edit(ACT, "£15,000 for two-thirds", "£16,000 for two-thirds"),
                     encoding="utf-8")
    assert main(["--vault", str(git_vault), "apply", str(reply), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "outcome: 1 modified" in out and "held: entities/Longitude Act 1714.md: [claims]" in out
    assert main(["--vault", str(git_vault), "apply", str(reply), "--yes", "--allow",
                 "claims,nonsense"]) == 2
    assert "unknown code(s) nonsense" in capsys.readouterr().err
    assert main(["--vault", str(git_vault), "apply", str(reply), "--yes", "--allow",
                 "claims"]) == 0
    assert "£16,000" in (git_vault / ACT).read_text(encoding="utf-8")


def test_a_pending_changeset_keeps_its_breaches_and_intents(sample_vault):
    from wiki_tui.changes.apply.pending import from_dict, new_pending, to_dict

    cs = diff_of(sample_vault, f"Intended: {ACT} — corrected\n" + edit(
        ACT, "£15,000 for two-thirds", "£16,000 for two-thirds") + edit(
        JH, "born: 1693\n", ""))
    back = from_dict("x", json.loads(json.dumps(to_dict(new_pending(cs))))).changeset
    assert back.intents == {ACT: "corrected"}
    assert [[str(b) for b in f.breaches] for f in back.files] == \
        [[str(b) for b in f.breaches] for f in cs.files]
