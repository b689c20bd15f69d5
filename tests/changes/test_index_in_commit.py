"""index.md in a commit lists exactly the pages of that commit's tree: a page the person made
and has not committed is left out (and said so), so a clone has no entry for a missing page."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.changes.journal_support import changeset, create, git, open_vault, page, read
from wiki_tui.changes.apply.journal import apply_changeset, undo_last

LISTED = re.compile(r"^- \[\[([^|\]]+)\|", re.M)


def _listed(text: str) -> set[str]:
    return {t if t.endswith(".canvas") else t + ".md" for t in LISTED.findall(text)}


def _clone(origin: Path, dest: Path) -> Path:
    subprocess.run(["git", "clone", "-q", str(origin), str(dest)], check=True, capture_output=True)
    return dest


def _pages(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")
            if p.suffix in (".md", ".canvas")
            and not p.relative_to(root).as_posix().startswith(("raw/", ".")) and
            p.name not in ("index.md", "log.md", "AGENTS.md")}


def test_a_clone_of_the_result_has_every_page_its_index_lists(git_vault: Path, tmp_path: Path):
    mine = "concepts/My draft.md"
    (git_vault / mine).write_text(page("My draft"), encoding="utf-8")  # untracked, the person's
    ignored = "notes/Private.md"
    (git_vault / ".gitignore").write_text("notes/\n", encoding="utf-8")
    git(git_vault, "add", ".gitignore")
    git(git_vault, "commit", "-q", "-m", "ignore notes")
    (git_vault / "notes").mkdir()
    (git_vault / ignored).write_text(page("Private"), encoding="utf-8")
    vault = open_vault(git_vault)
    result = apply_changeset(vault, changeset(create("concepts/Model page.md", page("Model page"))))
    assert result.commit
    assert mine in result.notice and ignored in result.notice and "not committed" in result.notice
    clone = _clone(git_vault, tmp_path / "clone")
    listed = _listed(read(clone, "index.md"))
    assert "concepts/Model page.md" in listed
    assert listed == _pages(clone)  # every entry has its page, every page its entry
    assert mine not in listed and (git_vault / mine).read_text(encoding="utf-8")  # left, not lost
    assert git(git_vault, "status", "--porcelain", "--", mine).startswith("??")  # never committed

    # The person commits the draft: the next change lists it.
    git(git_vault, "add", mine)
    git(git_vault, "commit", "-q", "-m", "my draft")
    vault.sync_with_disk()
    result = apply_changeset(vault, changeset(create("concepts/Second.md", page("Second"))))
    clone2 = _clone(git_vault, tmp_path / "clone2")
    listed = _listed(read(clone2, "index.md"))
    assert mine in listed and listed == _pages(clone2)
    assert mine not in (result.notice or "")

    undo_last(vault)  # the undo's index.md follows the same rule
    clone3 = _clone(git_vault, tmp_path / "clone3")
    assert _listed(read(clone3, "index.md")) == _pages(clone3)


def test_without_git_every_page_on_disk_is_listed(sample_vault: Path):
    mine = "concepts/My draft.md"
    (sample_vault / mine).write_text(page("My draft"), encoding="utf-8")
    vault = open_vault(sample_vault)
    apply_changeset(vault, changeset(create("concepts/Model page.md", page("Model page"))))
    assert mine in _listed(read(sample_vault, "index.md"))
