"""The scorer's own checks, on real files: silently-wrong detection, callouts, superseded
claims, declined answers."""

from __future__ import annotations

from pathlib import Path

from wiki_tui.changes.build.changeset import build_changeset
from wiki_tui.changes.reply.stream import parse_reply
from wiki_tui.changes.apply.unattended import apply_unattended
from wiki_tui.eval import knowledge as kn
from wiki_tui.eval.format_scores import format_scores
from wiki_tui.eval.record import StepRecord
from wiki_tui.eval.suite import load_suite
from wiki_tui.vault import Vault

REPLY = """@@@ EDIT entities/Quell Works.md
@@@ SEARCH
built the [[Tessaly Bridge]] between 1894 and 1898.
@@@ REPLACE
built the [[Tessaly Bridge]] between 1894 and 1898, with 230 men.
@@@ END
"""
PAGE = "entities/Quell Works.md"


def _applied(tmp_path: Path, reply: str = REPLY, tamper=None) -> tuple[StepRecord, Path]:
    suite = load_suite()
    root = suite.prepare(suite.tasks[0], tmp_path / "v")
    vault = Vault.open(root, use_cache=False)
    changeset, errors = build_changeset(vault, parse_reply(reply), operation="ask", title="t")
    assert not errors
    if tamper:
        tamper(changeset)
    apply_unattended(vault, changeset)
    vault.close()
    return StepRecord(rounds=[reply], changeset=changeset), root


def test_what_the_reply_meant_on_disk_is_not_silently_wrong(tmp_path):
    rec, root = _applied(tmp_path)
    assert format_scores(rec, root, applied=True)["silently_wrong"] == 0


def test_disk_differing_from_the_reviewed_text_is_silently_wrong(tmp_path):
    rec, root = _applied(tmp_path)
    page = root / PAGE
    page.write_text(page.read_text().replace("230 men", "23 men"))
    assert format_scores(rec, root, applied=True)["silently_wrong"] == 1


def test_a_change_the_reply_never_asked_for_is_silently_wrong_unless_a_repair_says_so(tmp_path):
    def alter(changeset):
        fc = changeset.file(PAGE)
        fc.proposed_text = fc.proposed_text.replace("230 men", "320 men")
        fc.rediff()

    rec, root = _applied(tmp_path, tamper=alter)
    assert format_scores(rec, root, applied=True)["silently_wrong"] == 1

    def alter_and_say(changeset):
        alter(changeset)
        changeset.file(PAGE).repairs.append("changed the number")

    rec, root = _applied(tmp_path / "b", tamper=alter_and_say)
    scores = format_scores(rec, root, applied=True)
    assert scores["silently_wrong"] == 0 and scores["repairs"] == 1


def test_contradiction_callouts_and_superseded_marks(tmp_path):
    text = ('Intro.\n\n> [!warning] Contradiction\n> - "opened in 1898"\n> - "1899"\n\n'
            '> [!note] Not one\n> text\n')
    assert kn.contradiction_callouts(text) == ['> [!warning] Contradiction\n> - "opened in '
                                               '1898"\n> - "1899"']
    suite = load_suite()
    task = next(t for t in suite.tasks if t.name == "ingest-inspection")
    root = suite.prepare(task, tmp_path / "v")
    page = root / "entities/Tessaly Bridge.md"
    old = page.read_text()
    page.write_text(old.replace("The load limit is 12 tonnes", "The load limit is 18 tonnes"))
    assert kn.superseded(task, kn.VaultView(root), [])["marked"] == 0  # old claim just gone
    page.write_text(old.replace("12 tonnes, set in 1931", "~~12 tonnes, set in 1931~~ "
                                "(superseded in 2024); 18 tonnes since 2024"))
    assert kn.superseded(task, kn.VaultView(root), [])["marked"] == 1


def test_declining_is_read_from_the_answer():
    task = next(t for t in load_suite().tasks if t.name == "query-cost")
    for reply, declined in [("The wiki does not say what it cost.", True),
                            ("None of the pages mention a cost.", True),
                            ("I cannot find a cost in the wiki.", True),
                            ("It cost £120,000.", False)]:
        assert kn.query_scores(task, reply, ())["declined"] is declined, reply


def test_a_source_page_named_otherwise_is_scored_where_it_is(tmp_path):
    suite = load_suite()
    task = next(t for t in suite.tasks if t.name == "ingest-survey")
    root = suite.prepare(task, tmp_path / "v")
    before = kn.VaultView(root)
    (root / "sources").joinpath("Survey of 1902.md").write_text(
        "---\ntitle: Survey of 1902\ntype: source\nsummary: s\n"
        "sources: [raw/1902-engineering-survey.md]\n---\nIt has 40 iron cables; towers of 48 m.\n")
    after = kn.VaultView(root)
    assert kn.facts(task, after)["present"] == 0
    moved = kn.with_source_page(task, before, after)
    assert kn.facts(moved, after)["present"] == 2  # both facts of the source page
    assert moved.contradictions[0]["pages"][1] == "sources/Survey of 1902.md"
