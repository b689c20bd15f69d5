"""propose_changes: a reply becomes a pending review with the agent's name, never a write;
`wiki-tui apply --pending ID` applies it, or refuses when its pages changed since."""

from __future__ import annotations

import json
from pathlib import Path

from tests.changes.journal_support import full_state, git, head, read
from tests.mcp.support import call, call_refused, mcp_session
from wiki_tui.changes.apply import pending
from wiki_tui.changes.apply.vault_lock import vault_lock
from wiki_tui.cli import main

NEW_PAGE = """@@@ WRITE concepts/Gnomon.md
---
title: Gnomon
type: concept
summary: The part of a sundial that casts the shadow.
---
# Gnomon

Checked against [[Marine chronometer]] and [[Shadow clock]].
@@@ END
"""


def _edit(vault: Path, search: str, replace: str) -> str:
    return (f"@@@ EDIT entities/H4.md\n@@@ SEARCH\n{search}\n@@@ REPLACE\n{replace}\n"
            "@@@ END\n")


def _h4_line(vault: Path) -> str:
    body = read(vault, "entities/H4.md").split("\n---\n", 1)[1]
    return next(ln for ln in body.splitlines() if len(ln) > 30)


async def test_propose_keeps_a_pending_review_and_writes_no_page(git_vault: Path):
    before = full_state(git_vault)
    line = _h4_line(git_vault)
    reply = NEW_PAGE + _edit(git_vault, line, line + "\nAdded by the agent.")
    async with mcp_session(git_vault) as session:
        answer = await call(session, "propose_changes", reply=reply, title="Gnomon")
    assert full_state(git_vault) == before  # not a page, not git: only .wiki-tui/pending
    assert answer["stored"] is True
    assert {f["path"]: f["kind"] for f in answer["files"]} == {
        "concepts/Gnomon.md": "create", "entities/H4.md": "modify"}
    h4 = next(f for f in answer["files"] if f["path"] == "entities/H4.md")
    assert "+Added by the agent." in h4["diff"]
    # the changeset's own lint: the new page links to a page that does not exist
    assert any("Shadow clock" in finding for finding in answer["findings"])
    assert answer["errors"] == []

    records, problems = pending.load_all(git_vault)
    assert problems == [] and [r.name for r in records] == [answer["pending_id"]]
    assert records[0].agent == "test-agent 1.0"
    assert records[0].changeset.title == "Gnomon"
    assert answer["pending_id"] in answer["message"] and "--pending" in answer["message"]

    # the new page's link to a page that does not exist holds it from --yes alone (issue 19)
    assert main(["--vault", str(git_vault), "apply", "--pending", answer["pending_id"][-6:],
                 "--yes"]) == 3
    assert full_state(git_vault) == before
    assert main(["--vault", str(git_vault), "apply", "--pending", answer["pending_id"][-6:],
                 "--yes", "--allow", "links"]) == 0
    assert "Added by the agent." in read(git_vault, "entities/H4.md")
    assert (git_vault / "concepts/Gnomon.md").exists()
    assert "Model: test-agent 1.0" in git(git_vault, "log", "-1", "--format=%B")
    assert "apply | Gnomon" in read(git_vault, "log.md")
    assert pending.load_all(git_vault) == ([], [])  # applied: no longer pending


async def test_a_refused_reply_names_the_file_and_reason_and_keeps_nothing(git_vault: Path):
    before = full_state(git_vault)
    reply = NEW_PAGE + _edit(git_vault, "A line that is not on the page at all.", "x")
    async with mcp_session(git_vault) as session:
        answer = await call_refused(session, "propose_changes", reply=reply)
        empty = await call_refused(session, "propose_changes", reply="Just prose, no blocks.")
        outside = await call_refused(session, "propose_changes",
                                     reply="@@@ WRITE raw/new.md\n---\ntitle: x\n---\nx\n@@@ END\n")
    assert answer["stored"] is False and answer["pending_id"] is None and answer["refused"]
    assert any("entities/H4.md" in error for error in answer["errors"])
    assert empty["stored"] is False and "no edit blocks" in empty["message"]
    assert outside["stored"] is False and any("raw/" in e for e in outside["errors"])
    assert pending.load_all(git_vault) == ([], [])
    assert full_state(git_vault) == before


async def test_propose_while_another_wiki_tui_holds_the_vault_lock(git_vault: Path):
    """The app (or an apply in another terminal) holds the vault's apply lock: proposing does
    not wait for it, since it writes no page."""
    line = _h4_line(git_vault)
    async with mcp_session(git_vault) as session:
        with vault_lock(git_vault):
            answer = await call(session, "propose_changes",
                                reply=_edit(git_vault, line, line + "\nWhile locked."))
    assert answer["stored"] is True
    assert [r.agent for r in pending.load_all(git_vault)[0]] == ["test-agent 1.0"]


async def test_apply_pending_refuses_when_a_page_changed_since(git_vault: Path, capsys):
    line = _h4_line(git_vault)
    async with mcp_session(git_vault) as session:
        answer = await call(session, "propose_changes",
                            reply=_edit(git_vault, line, line + "\nProposed."))
    h4 = git_vault / "entities/H4.md"
    h4.write_text(h4.read_text(encoding="utf-8") + "\nEdited by the person meanwhile.\n",
                  encoding="utf-8")
    commit = head(git_vault)
    capsys.readouterr()
    code = main(["--vault", str(git_vault), "apply", "--pending", answer["pending_id"], "--yes"])
    err = capsys.readouterr().err
    assert code == 1
    assert "entities/H4.md" in err and "changed on disk" in " ".join(err.split())
    assert "Proposed." not in h4.read_text(encoding="utf-8") and head(git_vault) == commit
    assert [r.name for r in pending.load_all(git_vault)[0]] == [answer["pending_id"]]


def test_apply_pending_without_yes_shows_and_an_unknown_id_is_named(git_vault: Path, capsys):
    changeset_file = pending.save(git_vault, pending.new_pending(_changeset(git_vault), "bot"))
    name = changeset_file.stem
    assert main(["--vault", str(git_vault), "apply", "--pending", name, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["applied"] is False and shown["files"][0]["path"] == "concepts/New.md"
    assert changeset_file.exists()
    assert main(["--vault", str(git_vault), "apply", "--pending", "nope"]) == 2
    assert f"no pending changeset 'nope' (pending: {name})" in capsys.readouterr().err
    assert main(["--vault", str(git_vault), "apply"]) == 2  # neither a reply nor --pending
    assert main(["--vault", str(git_vault), "apply", "--pending", name, "--title", "T"]) == 2
    assert "its title and operation are its own" in " ".join(capsys.readouterr().err.split())
    assert changeset_file.exists()


def _changeset(vault: Path):
    from wiki_tui.changes.model import Changeset, FileChange

    cs = Changeset("apply", "New page", model="bot")
    cs.files = [FileChange("concepts/New.md", "create", None,
                           "---\ntitle: New\ntype: concept\nsummary: s\n---\n# New\n")]
    return cs
