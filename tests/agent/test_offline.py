"""The offline engine on the sample vault, end to end: CLI, disk, log.md, git."""

from __future__ import annotations

import json
import re

from tests.agent.conftest import run_op
from tests.conftest import git
from wiki_tui.agent import operations
from wiki_tui.agent.tasks.dismissed import dismiss
from wiki_tui.agent.events import (
    Answer, ChangesetReady, Done, Failed, FileProposed, FileReady, Findings, Started, Token,
)
from wiki_tui.changes.apply.journal import apply_changeset
from wiki_tui.cli import main as cli_main
from wiki_tui.vault import Vault

SOURCE = "raw/french-chronometers.md"
NEW_PAGE = "sources/The French Chronometer Makers.md"


async def lint_fixes(vault, offline) -> tuple[list, object]:
    """Every event of an offline lint, and its changeset."""
    events = await run_op(operations.lint(vault, offline))
    return events, next(e.changeset for e in events if isinstance(e, ChangesetReady))


def test_cli_ingest_yes_lands_on_disk_in_log_and_git(git_vault, capsys):
    code = cli_main(["--vault", str(git_vault), "ingest", SOURCE, "--yes"])
    assert code == 0
    page = (git_vault / NEW_PAGE).read_text(encoding="utf-8")
    assert page.startswith("---\ntitle: \"The French Chronometer Makers\"\ntype: source\n")
    assert "sources: [raw/french-chronometers.md]" in page
    assert "offline engine — not a language model" in page
    assert "- **[[Pierre Le Roy]]**: Pierre Le Roy, son of the royal clockmaker" in page
    for linked in ("[[John Harrison]]", "[[Marine chronometer]]", "[[H4]]",
                   "[[entities/Board of Longitude]]", "[[Ferdinand Berthoud]]",
                   "[[Connaissance des Temps]]"):
        assert linked in page
    # a page for each name the source gives, citing the source page (links both ways)
    le_roy = (git_vault / "entities/Pierre Le Roy.md").read_text(encoding="utf-8")
    assert 'type: entity' in le_roy and "tags: [person]" in le_roy
    assert 'sources: ["[[The French Chronometer Makers]]"]' in le_roy
    assert "1766. ([[The French Chronometer Makers]])" in le_roy  # the whole sentence, cited
    assert "tags: [work]" in (git_vault / "entities/Connaissance des Temps.md").read_text()
    # an existing page the source mentions: the source in `sources:` and a cited line
    harrison = (git_vault / "entities/John Harrison.md").read_text(encoding="utf-8")
    assert '"[[The French Chronometer Makers]]"]' in harrison.split("---")[1]
    tail = harrison.split("## From the sources", 1)[1]
    assert "John Harrison" in tail and tail.rstrip().endswith(
        "([[The French Chronometer Makers]])")
    log = (git_vault / "log.md").read_text(encoding="utf-8")
    entry = log.split("## [")[-1]
    assert "] ingest | The French Chronometer Makers" in entry
    assert "created: [[sources/The French Chronometer Makers|" in entry
    assert "[[entities/John Harrison|John Harrison]]" in entry
    assert git(git_vault, "log", "-1", "--format=%s").strip().startswith("ingest")
    committed = git(git_vault, "show", "--name-only", "--format=", "HEAD").splitlines()
    assert NEW_PAGE in committed and "entities/John Harrison.md" in committed
    assert "log.md" in committed and "index.md" in committed
    assert git(git_vault, "status", "--porcelain", "--untracked-files=no").strip() == ""
    out = capsys.readouterr()
    assert "@@@ WRITE sources/The French Chronometer Makers.md" in out.out  # streamed reply
    assert "not a language model" in out.err


def test_cli_without_yes_and_without_a_terminal_applies_nothing(git_vault, capsys):
    code = cli_main(["--vault", str(git_vault), "ingest", SOURCE])
    assert code == 3 and not (git_vault / NEW_PAGE).exists()
    assert "pass --yes" in capsys.readouterr().err
    assert git(git_vault, "rev-list", "--count", "HEAD").strip() == "1"


def test_cli_json_events(git_vault, capsys):
    assert cli_main(["--vault", str(git_vault), "ingest", SOURCE, "--json", "--yes"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    names = [e["event"] for e in events]
    assert names[0] == "Started" and events[0]["offline"] is True
    assert "FileProposed" in names and "ChangesetReady" in names and names[-1] == "Applied"
    assert names.index("ChangesetReady") < names.index("Done")


async def test_ingest_events_stream_in_order(sample_vault, offline):
    vault = Vault.open(sample_vault)
    events = await run_op(operations.ingest(vault, SOURCE, offline))
    kinds = [type(e) for e in events]
    assert kinds[0] is Started and kinds[-1] is Done
    assert kinds.index(Token) < kinds.index(FileProposed) < kinds.index(FileReady) \
        < kinds.index(ChangesetReady)
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    assert changeset.files[0].path == NEW_PAGE and changeset.files[0].kind == "create"
    assert not changeset.errors
    assert not (sample_vault / NEW_PAGE).exists()  # operations never write


async def test_ingest_refuses_a_missing_source(sample_vault, offline):
    vault = Vault.open(sample_vault)
    events = await run_op(operations.ingest(vault, "raw/nope.md", offline))
    assert isinstance(events[-1], Failed) and "no such file" in events[-1].reason


async def test_query_quotes_passages_with_citations(sample_vault, offline):
    vault = Vault.open(sample_vault)
    events = await run_op(operations.query(vault, "When was the first Nautical Almanac "
                                                  "published?", offline))
    answer = next(e for e in events if isinstance(e, Answer))
    assert "not a language model" in answer.text and "1766" in answer.text
    assert "entities/Nautical Almanac.md" in answer.citations
    events = await run_op(operations.query(vault, "zebra quantum blockchain", offline))
    answer = next(e for e in events if isinstance(e, Answer))
    assert "does not hold an answer" in answer.text and answer.citations == ()


async def test_save_answer_files_a_page(git_vault, offline):
    vault = Vault.open(git_vault)
    events = await run_op(operations.save_answer(
        vault, "When was the Almanac first published?",
        "In 1766 ([[Nautical Almanac]]).", offline))
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    (change,) = changeset.files
    assert change.path == "answers/When was the Almanac first published.md"
    changeset.accept_all()
    apply_changeset(vault, changeset)
    text = (git_vault / change.path).read_text(encoding="utf-8")
    assert "type: answer" in text and 'sources: ["[[Nautical Almanac]]"]' in text


async def test_lint_fixes_links_and_remembers_dismissals(git_vault, offline):
    vault = Vault.open(git_vault)
    events = await run_op(operations.lint(vault, offline))
    findings = next(e for e in events if isinstance(e, Findings))
    codes = {i.code for i in findings.items}
    assert {"broken-link", "ambiguous-link"} <= codes
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    change = changeset.file("entities/Larcum Kendall.md")
    assert "[[entities/John Harrison|Longitude Harrison]]" in change.proposed_text
    broken = next(i for i in findings.items if i.code == "broken-link")
    dismiss(git_vault, broken)
    events = await run_op(operations.lint(vault, offline))
    again = next(e for e in events if isinstance(e, Findings))
    assert broken.id not in {i.id for i in again.items} and again.dismissed == 1
    assert json.loads((git_vault / ".wiki-tui/dismissed.json").read_text())["dismissed"]


async def test_instruct_rename_rewrites_every_backlink(git_vault, offline):
    vault = Vault.open(git_vault)
    linking = sorted({b.source for b in vault.backlinks("entities/H4.md")})
    assert len(linking) >= 3
    events = await run_op(operations.instruct(vault, "rename H4 to Harrison H4", offline))
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    renamed = changeset.file("entities/Harrison H4.md")
    assert renamed.kind == "rename" and renamed.old_path == "entities/H4.md"
    changeset.accept_all()
    result = apply_changeset(vault, changeset)
    assert result.commit and not result.conflicts
    vault = Vault.open(git_vault)
    assert vault.backlinks("entities/Harrison H4.md")
    for path in linking:
        text = (git_vault / path).read_text(encoding="utf-8")
        assert not re.search(r"\[\[H4[\]|#]", text), path
    # only log.md's history keeps the old name (append-only: old entries are not rewritten)
    assert {f.path for f in vault.lint() if f.code == "broken-link" and "H4" in f.message} \
        <= {"log.md"}


async def test_cancel_event_gives_cancelled_and_applies_nothing(sample_vault, offline):
    import asyncio

    vault = Vault.open(sample_vault)
    cancel = asyncio.Event()
    cancel.set()
    events = await run_op(operations.ingest(vault, SOURCE, offline, cancel=cancel))
    assert isinstance(events[-1], Failed) and events[-1].kind == "cancelled"
    assert not any(isinstance(e, ChangesetReady) for e in events)


def test_cli_query_save_and_ask_and_lint_fix(git_vault, capsys):
    assert cli_main(["--vault", str(git_vault), "query", "When was the Nautical Almanac "
                     "first published?", "--save", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "1766" in out and "[[Nautical Almanac]]" in out
    saved = git_vault / "answers/When was the Nautical Almanac first published.md"
    assert "type: answer" in saved.read_text(encoding="utf-8")
    assert git(git_vault, "log", "-1", "--format=%s").startswith("save")

    assert cli_main(["--vault", str(git_vault), "ask", "rename Dead reckoning to "
                     "Deduced reckoning", "--yes"]) == 0
    assert (git_vault / "concepts/Deduced reckoning.md").exists()
    assert not (git_vault / "concepts/Dead reckoning.md").exists()
    assert git(git_vault, "log", "-1", "--format=%s").startswith("instruct")

    assert cli_main(["--vault", str(git_vault), "lint", "--fix", "--yes"]) == 0
    kendall = (git_vault / "entities/Larcum Kendall.md").read_text(encoding="utf-8")
    assert "[[entities/John Harrison|Longitude Harrison]]" in kendall
    log_md = (git_vault / "log.md").read_text(encoding="utf-8")
    assert "] lint | fixes for " in log_md and "] lint | lint" not in log_md
    subject = git(git_vault, "log", "-1", "--format=%s")
    assert subject.startswith("lint: fixes for ") and "finding" in subject  # not "lint: lint"


def test_cli_unknown_model_fails_with_a_clear_message(git_vault, capsys):
    code = cli_main(["--vault", str(git_vault), "query", "x", "--model", "nosuch-provider/x"])
    assert code == 1
    err = capsys.readouterr().err
    assert "Unknown model or provider" in err and "Traceback" not in err


def test_cli_dismiss_hides_a_finding_for_good(git_vault, capsys):
    assert cli_main(["--vault", str(git_vault), "lint", "--fix"]) == 3  # no terminal, no --yes
    out = capsys.readouterr().out
    line = next(l for l in out.splitlines() if "[broken-link]" in l)
    finding_id = re.search(r"\(id ([0-9a-f]+)\)", line).group(1)
    assert cli_main(["--vault", str(git_vault), "dismiss", finding_id]) == 0
    cli_main(["--vault", str(git_vault), "lint", "--fix"])
    out = capsys.readouterr()
    assert "[broken-link]" not in out.out and "1 dismissed finding(s) not shown" in out.err
    assert cli_main(["--vault", str(git_vault), "dismiss", "--undo", finding_id]) == 0
    assert cli_main(["--vault", str(git_vault), "dismiss", "--undo", finding_id]) == 2
    assert f"not dismissed: {finding_id}" in capsys.readouterr().err
    cli_main(["--vault", str(git_vault), "lint", "--fix"])
    assert "[broken-link]" in capsys.readouterr().out  # reported again


async def test_ingesting_an_ingested_source_keeps_its_page(sample_vault, offline):
    vault = Vault.open(sample_vault)
    events = await run_op(operations.ingest(vault, "raw/cook-and-k1.txt", offline))
    changesets = [e.changeset for e in events if isinstance(e, ChangesetReady)]
    touched = {f.path for cs in changesets for f in cs.files}
    assert "sources/Cook's Second Voyage and the Kendall Watch.md" not in touched
    assert "already has its source page" in events[-1].reply


async def test_lint_repoints_typos_but_not_links_to_other_pages(git_vault, offline):
    page = git_vault / "concepts/Dead reckoning.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [[Nevil Maskelyn]].\n",
                    encoding="utf-8")
    vault = Vault.open(git_vault)
    events, changeset = await lint_fixes(vault, offline)
    fixed = changeset.file("concepts/Dead reckoning.md")
    typo = next(i for i in next(e for e in events if isinstance(e, Findings)).items
                if "Nevil Maskelyn]]" in i.message)
    assert typo.suggestion == "[[Nevil Maskelyne]]"
    assert "See [[Nevil Maskelyne|Nevil Maskelyn]]." in fixed.proposed_text
    # "Board of Longitude Minutes" -> the Board's page is a different page, not a typo
    assert changeset.file("entities/Board of Longitude.md") is None


async def test_an_ambiguous_link_goes_to_the_page_its_sentence_means_or_is_left_to_ask(
        git_vault, offline):
    """"judged by the [[Board of Longitude]]" speaks of the institution (its entity page), a
    link that cites ("agree with [[X]]", "([[X]])") means the source page; a sentence that
    settles nothing (two pages of the same kind) is left for the person."""
    extra = git_vault / "concepts/Board of Longitude.md"
    extra.write_text("---\ntitle: Board of Longitude (idea)\ntype: concept\n---\n# Idea\n",
                     encoding="utf-8")
    note = git_vault / "concepts/Dead reckoning.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nCited ([[Nautical Almanac]]).\n",
                    encoding="utf-8")
    vault = Vault.open(git_vault)
    events, changeset = await lint_fixes(vault, offline)
    problem = changeset.file("concepts/Longitude problem.md")
    act = changeset.file("entities/Longitude Act 1714.md")
    # three pages now share the name: entity and concept both fit prose, so nothing is chosen
    assert problem is None and act is None
    assert "left for you to choose" in next(e for e in events if isinstance(e, Done)).reply
    extra.unlink()
    vault = Vault.open(git_vault)
    events, changeset = await lint_fixes(vault, offline)
    assert "judged by the\n  [[entities/Board of Longitude|Board of Longitude]]." in \
        changeset.file("concepts/Longitude problem.md").proposed_text
    assert "known as the [[entities/Board of Longitude|Board of Longitude]] to judge" in \
        changeset.file("entities/Longitude Act 1714.md").proposed_text
    assert "dates agree with [[sources/Board of Longitude|Board of Longitude]]" in \
        changeset.file("sources/John Harrison and the Sea Clocks.md").proposed_text


def test_a_lint_changeset_is_titled_by_what_it_fixes():
    from wiki_tui.agent.events import LintItem
    from wiki_tui.agent.operations import lint_title

    def item(code):
        return LintItem(code + "1", code, "a.md", "m")

    assert lint_title([]) == "fixes (no findings)"
    assert lint_title([item("broken-link")]) == "fixes for 1 finding (1 broken-link)"
    assert lint_title([item("orphan"), item("ambiguous-link"), item("ambiguous-link")]) == (
        "fixes for 3 findings (2 ambiguous-link, 1 orphan)")
