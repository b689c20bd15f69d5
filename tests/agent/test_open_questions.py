"""The wiki's own open questions: a model's lint reply names questions, sources and data gaps
(read like its other findings, from the streaming server); the offline engine suggests them
deterministically; they are filed as the "Open questions" page through a changeset."""

from __future__ import annotations

from tests.agent.conftest import run_op
from tests.conftest import git
from tests.support.llm_server import Reply
from wiki_tui.agent import operations
from wiki_tui.agent.events import Findings
from wiki_tui.agent.tasks.open_questions import open_questions_changeset, page_text
from wiki_tui.changes.apply.journal import apply_changeset
from wiki_tui.vault import Vault

LINT_REPLY = """I checked the pages.

1. **FINDING:** question | [[H4]] | Why did the Board ask for copies before paying in full? | "The Board of Longitude demanded that H4 be copied"
- FINDING: source | entities/Tobias Mayer.md | Mayer's own lunar tables of 1755 would settle how accurate they were | "tables of the Moon's motion accurate enough for navigation"
FINDING: data gap | `entities/Nautical Almanac.md` | The first edition's date rests on one source | "first published for 1767"
FINDING: contradiction | entities/H4.md | Two dates | "A" vs "B"
"""


async def test_a_models_questions_sources_and_gaps_are_findings(llm_server, sample_vault):
    vault = Vault.open(sample_vault)
    llm_server.queue(Reply(LINT_REPLY))
    events = await run_op(operations.lint(vault, llm_server.settings(), fix=False))
    found = next(e for e in events if isinstance(e, Findings))
    model = {(i.code, i.path) for i in found.items if i.source == "model"}
    assert {("question", "entities/H4.md"), ("source", "entities/Tobias Mayer.md"),
            ("data-gap", "entities/Nautical Almanac.md"),
            ("contradiction", "entities/H4.md")} == model
    system = llm_server.requests[0].messages[0]["content"]
    assert "`question`" in system and "`data-gap`" in system and "`source`" in system


async def test_the_offline_engine_suggests_deterministically(sample_vault, offline):
    vault = Vault.open(sample_vault)
    runs = []
    for _ in range(2):
        events = await run_op(operations.lint(vault, offline, fix=False))
        runs.append([i for i in next(e for e in events if isinstance(e, Findings)).items
                     if i.code in ("question", "source", "data-gap")])
    assert runs[0] == runs[1] and runs[0]
    said = {(i.code, i.path, i.message.split(" is mentioned")[0]) for i in runs[0]}
    assert ("question", "concepts/Marine chronometer.md", "John Arnold") in said
    gaps = {i.path: i.message for i in runs[0] if i.code == "data-gap"}
    assert "rests on one source ([[Reading the Moon]])" in gaps["entities/Tobias Mayer.md"]
    assert "entities/H4.md" not in gaps  # three sources
    assert all(not i.path.startswith("sources/") for i in runs[0])  # a source page is one


def test_a_page_without_sources_is_a_data_gap(sample_vault, offline):
    from wiki_tui.agent.offline.suggest import suggestions

    page = sample_vault / "concepts/Sandglass.md"
    page.write_text("---\ntitle: Sandglass\ntype: concept\nsummary: s\n---\n# Sandglass\n\n"
                    "It ran for thirty seconds.\n", encoding="utf-8")
    lines = suggestions(Vault.open(sample_vault, use_cache=False))
    assert ('FINDING: data-gap | concepts/Sandglass.md | the page cites no source: where do its '
            'claims come from? | "It ran for thirty seconds."') in lines


async def test_suggestions_are_filed_as_one_page_then_added_to(git_vault, offline):
    vault = Vault.open(git_vault)
    events = await run_op(operations.lint(vault, offline, fix=False))
    items = next(e for e in events if isinstance(e, Findings)).items
    changeset = open_questions_changeset(vault, list(items))
    assert [f.path for f in changeset.files] == ["syntheses/Open questions.md"]
    text = changeset.files[0].proposed_text
    assert text.startswith("---\ntitle: Open questions\ntype: synthesis\n")
    assert "## Questions to investigate\n\n- Astronomer Royal is mentioned" in text
    assert "\n- John Arnold is mentioned on 3 pages" in text
    assert "## Data gaps\n\n- " in text and "broken-link" not in text
    changeset.accept_all()
    assert apply_changeset(vault, changeset).commit
    assert git(git_vault, "log", "-1", "--format=%s").startswith("lint: Open questions")
    vault = Vault.open(git_vault, use_cache=False)
    assert open_questions_changeset(vault, list(items)) is None  # nothing new to file
    added = page_text(vault, [type(items[0])("x", "source", "entities/H4.md",
                                             "The ship's log of HMS Deptford")], text)
    assert added.count("## Sources to find") == 1
    assert added.index("## Sources to find") > added.index("## Data gaps")
    assert "- The ship's log of HMS Deptford ([[H4]])" in added
    assert added.startswith(text.rstrip("\n"))  # nothing else changed
