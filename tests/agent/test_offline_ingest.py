"""The offline ingest's bookkeeping: the names a source gives get pages, junk does not, the
pages it mentions get a cited line, converted formats keep their title, paragraphs and tables.

Real vaults and real files (DOCX and PDF made at test time), the real operation and CLI."""

from __future__ import annotations

import pytest

from tests.agent.conftest import run_op
from tests.conftest import git
from tests.support.documents import make_docx, make_pdf
from wiki_tui.agent import operations
from wiki_tui.agent.events import ChangesetReady, Progress, Started
from wiki_tui.agent.offline.entities import find_names
from wiki_tui.cli import main as cli_main
from wiki_tui.vault import Vault

STORY = """# Notes on the Tay Bridge

The Tay Bridge crossed the Firth of Tay at Dundee. Thomas Bouch designed it, and Queen
Victoria crossed it in 1879. In December 1879 the bridge fell in a storm.

## Introduction

The engineer William Barlow later built the second bridge. Barlow used stronger iron.
After the fall, Henry Rothery led the inquiry. Rothery blamed Thomas Bouch.

A wind brace is a diagonal member that stiffens a frame against the wind.

## Why it matters

- Monday mornings were busy. The North British Railway ran the trains.
- The North British Railway never recovered its reputation.
"""


def names_of(text: str, known=frozenset()) -> dict[str, str]:
    return {n.name: n.kind for n in find_names(text, set(known), "Notes on the Tay Bridge")}


def test_names_people_places_and_terms_but_no_junk():
    found = names_of(STORY)
    assert found.get("Thomas Bouch") == "person"
    assert found.get("William Barlow") == "person"  # "the engineer William Barlow"
    assert found.get("Henry Rothery") == "person"  # named once, then "Rothery"
    assert found.get("North British Railway") in ("name", "institution")
    assert found.get("Wind brace") == "concept"  # "A wind brace is a ..."
    for junk in ("December", "Monday", "Introduction", "Why it matters", "The Tay Bridge",
                 "In December", "After", "Barlow", "Notes on the Tay Bridge"):
        assert junk not in found


def test_names_of_existing_pages_are_not_new_pages():
    found = names_of(STORY, known={"tay bridge", "thomas bouch", "firth of tay"})
    assert "Thomas Bouch" not in found and "Tay Bridge" not in found
    assert "Firth of Tay" not in found and "William Barlow" in found


@pytest.mark.parametrize("text", [
    "", "#", "The. The. The.", "JANUARY FEBRUARY MARCH APRIL", "A" * 5000,
    "In July The Board Met.\n" * 200, "| a | b |\n| - | - |\n| X Y | Z W |\n",
])
def test_odd_sources_give_few_names_and_no_crash(text):
    assert len(find_names(text, set())) <= 12


async def test_an_ingest_writes_name_pages_cited_lines_and_links_both_ways(git_vault, offline):
    (git_vault / "raw/tay.md").write_text(
        STORY + "\nJohn Harrison had nothing to do with it; nor had H4.\n", encoding="utf-8")
    vault = Vault.open(git_vault)
    events = await run_op(operations.ingest(vault, "raw/tay.md", offline))
    assert isinstance(events[0], Started)
    steps = [e for e in events if isinstance(e, Progress)]
    assert steps and steps[-1].done == steps[-1].total  # the engine's steps, counted
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    files = {f.path: f for f in changeset.files}
    source = files["sources/Notes on the Tay Bridge.md"].proposed_text
    bouch = files["entities/Thomas Bouch.md"].proposed_text
    assert "[[Thomas Bouch]]" in source and "[[Wind brace]]" in source  # source -> names
    assert 'sources: ["[[Notes on the Tay Bridge]]"]' in bouch  # name -> source
    assert "- Rothery blamed Thomas Bouch. ([[Notes on the Tay Bridge]])" in bouch
    assert "type: concept" in files["concepts/Wind brace.md"].proposed_text
    harrison = files["entities/John Harrison.md"]
    assert harrison.kind == "modify"
    assert harrison.proposed_text.rstrip().endswith(
        "- John Harrison had nothing to do with it; nor had H4. ([[Notes on the Tay Bridge]])")
    assert not changeset.errors and not any(p.startswith("raw/") for p in files)


def test_ingesting_twice_adds_nothing_twice(git_vault, capsys):
    (git_vault / "raw/tay.md").write_text(
        STORY + "\nH4 is mentioned here once, in passing, by these notes.\n", encoding="utf-8")
    assert cli_main(["--vault", str(git_vault), "ingest", "raw/tay.md", "--yes"]) == 0
    first = (git_vault / "entities/H4.md").read_text(encoding="utf-8")
    assert first.count("([[Notes on the Tay Bridge]])") == 1
    assert "… finding the pages and names the source mentions (2/4)" in capsys.readouterr().err
    cli_main(["--vault", str(git_vault), "ingest", "raw/tay.md", "--yes"])
    assert (git_vault / "entities/H4.md").read_text(encoding="utf-8") == first
    assert not (git_vault / "entities/Thomas Bouch (2).md").exists()


def test_a_docx_keeps_its_title_headings_paragraphs_and_table(git_vault, capsys):
    data = make_docx("Harbour Trials", ["The harbour clock was tested in 1764 at Portsmouth "
                                        "by the Admiralty. It kept good time."],
                     [["Year", "Error"], ["1764", "3 s"]])
    (git_vault / "raw/trials.docx").write_bytes(data)
    git(git_vault, "add", "-A")
    git(git_vault, "commit", "-q", "-m", "source")
    assert cli_main(["--vault", str(git_vault), "ingest", "raw/trials.docx", "--yes"]) == 0
    page = (git_vault / "sources/Harbour Trials.md").read_text(encoding="utf-8")
    summary = page.split("summary:", 1)[1].splitlines()[0]
    assert "tested in 1764" in summary and "#" not in summary  # no stray heading
    assert "- **Findings**: The harbour clock was tested in 1764" in page
    assert "| Year | Error |" in page and "| 1764 | 3 s |" in page  # the table is kept


def test_a_csv_keeps_its_table_and_a_pdf_its_title_line(git_vault, capsys):
    (git_vault / "raw/trials.csv").write_text("year,ship,error\n1761,Deptford,5 s\n"
                                              "1764,Tartar,39 s\n", encoding="utf-8")
    (git_vault / "raw/scan-0042.pdf").write_bytes(make_pdf(
        ["Chronometer Trials at Sea\nThe chronometer was tried at sea in 1764 and kept time."]))
    git(git_vault, "add", "-A")
    git(git_vault, "commit", "-q", "-m", "sources")
    assert cli_main(["--vault", str(git_vault), "ingest", "raw/trials.csv", "--yes"]) == 0
    csv_page = next(text for p in (git_vault / "sources").glob("*.md")
                    if "raw/trials.csv" in (text := p.read_text(encoding="utf-8")))
    assert "| 1764 | Tartar | 39 s |" in csv_page
    assert cli_main(["--vault", str(git_vault), "ingest", "raw/scan-0042.pdf", "--yes"]) == 0
    assert (git_vault / "sources/Chronometer Trials at Sea.md").exists()  # not "Scan 0042"
