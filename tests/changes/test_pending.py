"""Pending changesets on disk: a round trip keeps every decision, a base changed on disk since
shows as a conflict once re-checked, and a damaged file is reported, not fatal."""

from __future__ import annotations

import json

from tests.conftest import git
from tests.ui.conftest import DEAD, MAYER, NEW, make_changeset
from wiki_tui.changes.apply import journal, pending
from wiki_tui.changes.model import ACCEPTED, CONFLICT, PENDING, REJECTED
from wiki_tui.vault import Vault


def test_round_trip_keeps_texts_hashes_and_decisions(git_vault):
    vault = Vault.open(git_vault, use_cache=False)
    changeset = make_changeset(vault)
    dead, mayer, new = changeset.files
    dead.accept()
    dead.toggle_hunk(1)  # accept the file but its second hunk
    mayer.reject()
    kept = pending.new_pending(changeset)
    path = pending.save(git_vault, kept)
    assert path == git_vault / ".wiki-tui" / "pending" / f"{kept.name}.json"
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == 1

    (loaded,), problems = pending.load_all(git_vault)
    assert problems == []
    assert loaded.name == kept.name and loaded.created == kept.created
    back = loaded.changeset
    assert (back.operation, back.title, back.model) == ("instruct", changeset.title, "test-model")
    assert [f.path for f in back.files] == [DEAD, MAYER, NEW]
    assert [f.status for f in back.files] == [ACCEPTED, REJECTED, PENDING]
    assert [h.status for h in back.file(DEAD).hunks] == [ACCEPTED, REJECTED]
    for before, after in zip(changeset.files, back.files):
        assert (after.base_text, after.base_hash, after.proposed_text, after.kind) == \
            (before.base_text, before.base_hash, before.proposed_text, before.kind)
        assert after.result_text() == before.result_text()
    assert journal.check_conflicts(vault, back) == []  # nothing changed on disk
    assert git(git_vault, "status", "--porcelain") == ""  # .wiki-tui/ stays out of git
    vault.close()


def test_a_base_changed_on_disk_since_shows_as_changed(git_vault):
    vault = Vault.open(git_vault, use_cache=False)
    pending.save(git_vault, pending.new_pending(make_changeset(vault)))
    page = git_vault / MAYER
    page.write_text(page.read_text(encoding="utf-8") + "\nAn outside edit.\n", encoding="utf-8")
    (loaded,), _ = pending.load_all(git_vault)
    found = journal.check_conflicts(vault, loaded.changeset)
    assert [f.path for f in found] == [MAYER]
    assert loaded.changeset.file(MAYER).status == CONFLICT
    assert "changed on disk after the change was proposed" in loaded.changeset.file(MAYER).conflict
    vault.close()


def test_damaged_file_is_reported_and_discard_removes(git_vault):
    vault = Vault.open(git_vault, use_cache=False)
    kept = pending.new_pending(make_changeset(vault))
    pending.save(git_vault, kept)
    (pending.pending_dir(git_vault) / "broken.json").write_text("{not json", encoding="utf-8")
    found, problems = pending.load_all(git_vault)
    assert [p.name for p in found] == [kept.name]
    assert len(problems) == 1 and problems[0].startswith("broken.json: ")
    pending.discard(git_vault, kept.name)
    pending.discard(git_vault, kept.name)  # already gone: no error
    assert pending.load_all(git_vault)[0] == []
    vault.close()


def test_the_proposing_agent_round_trips_and_older_files_read_as_none(git_vault):
    vault = Vault.open(git_vault, use_cache=False)
    by_agent = pending.save(git_vault, pending.new_pending(make_changeset(vault), "claude-code 2.1"))
    older = pending.save(git_vault, pending.new_pending(make_changeset(vault)))
    data = json.loads(older.read_text(encoding="utf-8"))
    del data["agent"]  # written before agents were recorded
    older.write_text(json.dumps(data), encoding="utf-8")
    records, problems = pending.load_all(git_vault)
    assert problems == []
    assert {r.name: r.agent for r in records} == {by_agent.stem: "claude-code 2.1", older.stem: None}
    assert pending.load_one(git_vault, by_agent.stem[-6:]).agent == "claude-code 2.1"
    vault.close()


def test_two_proposed_in_one_second_load_in_the_order_they_came(git_vault):
    # Names carry whole seconds and a random suffix: the suffix must not decide the order.
    vault = Vault.open(git_vault, use_cache=False)
    first, second = pending.new_pending(make_changeset(vault)), pending.new_pending(
        make_changeset(vault))
    stamp = "20261125-110000-instruct"
    first.name, second.name = f"{stamp}-ffffff", f"{stamp}-000000"  # suffixes in reverse
    for kept in (first, second):
        pending.save(git_vault, kept)
    loaded, _problems = pending.load_all(git_vault)
    assert [p.name for p in loaded] == [first.name, second.name]
    vault.close()
