"""`query --save --as FORM` with the offline engine: every form built deterministically from
the sentences the wiki's search finds, through the same checks, review, apply (one commit, one
log entry, index.md) as a model's."""

from __future__ import annotations


import json

import pytest

from tests.conftest import git
from wiki_tui.cli import main as cli_main
from wiki_tui.forms.canvas import check_canvas
from wiki_tui.forms.chart_spec import find_chart_blocks, parse_spec
from wiki_tui.forms.slides import is_deck, slides

QUESTION = "When was H4 tested at sea?"
PAGE = "answers/When was H4 tested at sea"


def save(vault, form: str) -> int:
    return cli_main(["--vault", str(vault), "query", QUESTION, "--save", "--as", form, "--yes"])


def committed(vault) -> list[str]:
    return sorted(git(vault, "show", "--name-only", "--format=", "HEAD").splitlines())


def test_table(git_vault):
    assert save(git_vault, "table") == 0
    assert committed(git_vault) == [f"{PAGE}.md", "index.md", "log.md"]
    text = (git_vault / f"{PAGE}.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    assert rows[0] == "| Page | Key fact | Sources |" and len(rows) >= 3
    assert all("[[" in row for row in rows[1:])
    assert any("H4" in row and "1761" in row for row in rows)
    assert "offline engine" in text


def test_slides(git_vault):
    assert save(git_vault, "slides") == 0
    text = (git_vault / f"{PAGE}.md").read_text(encoding="utf-8")
    deck = slides(text)
    assert is_deck(text) and len(deck) >= 3
    assert deck[0].startswith("# When was H4 tested at sea") and deck[-1].startswith("## Sources")
    assert all("[[" in s for s in deck[1:])


def test_chart_is_a_timeline_of_the_years_found(git_vault):
    assert save(git_vault, "chart") == 0
    assert committed(git_vault) == [f"{PAGE}.md", "attachments/When was H4 tested at sea.svg",
                                    "index.md", "log.md"]
    text = (git_vault / f"{PAGE}.md").read_text(encoding="utf-8")
    (block,) = find_chart_blocks(text)
    spec = parse_spec(block.body, block.first_line)
    assert spec.kind == "timeline"
    assert 1761 in {int(x) for s in spec.series for x, _label, _d in s.points}
    assert "![[attachments/When was H4 tested at sea.svg]]" in text
    assert "<svg" in (git_vault / "attachments/When was H4 tested at sea.svg").read_text()


def test_canvas_names_existing_pages_and_their_links(git_vault):
    assert save(git_vault, "canvas") == 0
    assert committed(git_vault) == [f"{PAGE}.canvas", "index.md", "log.md"]
    text = (git_vault / f"{PAGE}.canvas").read_text(encoding="utf-8")
    canvas = check_canvas(text)
    assert canvas.files and all((git_vault / f).is_file() for f in canvas.files)
    labels = {e.get("label") for e in canvas.edges}
    assert {"says", "links to"} <= labels
    assert f"[[{PAGE}.canvas|When was H4 tested at sea]]" in (git_vault / "index.md").read_text()


@pytest.mark.parametrize("form", ["table", "slides", "chart", "canvas"])
def test_the_same_question_gives_the_same_form_twice(tmp_path, form):
    import shutil

    from tests.conftest import SAMPLE_VAULT, make_git_repo

    texts = []
    for n in range(2):
        vault = tmp_path / f"v{n}"
        shutil.copytree(SAMPLE_VAULT, vault)
        make_git_repo(vault)
        assert save(vault, form) == 0
        written = [p for p in committed(vault) if p.startswith(("answers/", "attachments/"))]
        texts.append({p: (vault / p).read_text(encoding="utf-8") for p in written})
    assert texts[0] == texts[1]


def test_a_question_the_wiki_has_no_page_for_files_nothing(git_vault, capsys):
    head = git(git_vault, "rev-parse", "HEAD")
    code = cli_main(["--vault", str(git_vault), "query", "zyzzyva quokka?", "--save", "--as",
                     "chart", "--yes"])
    assert code == 1
    assert git(git_vault, "rev-parse", "HEAD") == head
    assert "Traceback" not in capsys.readouterr().err


async def test_a_rename_carries_chart_specs_and_canvases_along(git_vault):
    """A chart spec's pages sit in a fence and a canvas is no page: no link index sees them,
    yet a rename must not leave them pointing at the old page."""
    from tests.agent.conftest import run_op
    from wiki_tui.agent import operations
    from wiki_tui.agent.config import AgentSettings
    from wiki_tui.agent.events import ChangesetReady
    from wiki_tui.changes.apply.journal import apply_changeset
    from wiki_tui.vault import Vault

    vault = Vault.open(git_vault)
    events = await run_op(operations.instruct(vault, "rename H4 to Harrison H4", AgentSettings()))
    changeset = next(e.changeset for e in events if isinstance(e, ChangesetReady))
    assert "answers/Who made H4 count.canvas" in [f.path for f in changeset.files]
    changeset.accept_all()
    assert apply_changeset(vault, changeset).commit
    canvas = check_canvas((git_vault / "answers/Who made H4 count.canvas").read_text())
    assert "entities/Harrison H4.md" in canvas.files and "entities/H4.md" not in canvas.files
    assert "[[Harrison H4]]" in json.dumps(canvas.nodes, ensure_ascii=False)
    page = (git_vault / "answers/Longitude timeline.md").read_text(encoding="utf-8")
    (block,) = find_chart_blocks(page)
    assert "Harrison H4" in parse_spec(block.body).pages
