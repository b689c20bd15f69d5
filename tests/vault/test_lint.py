"""Structural lint: each finding names file and line; lint_changes reports only what a change
introduces."""

from __future__ import annotations

import pytest

from wiki_tui.vault import Vault

from .test_index import write

AGENTS = "---\nrequired_fields: [title, type, summary]\ntypes:\n  concept: concepts\n---\nrules\n"


def page(title, body="", **extra):
    fm = {"title": title, "type": "concept", "summary": f"About {title}.", **extra}
    lines = "".join(f"{k}: {v}\n" for k, v in fm.items() if v is not None)
    return f"---\n{lines}---\n{body}\n"


@pytest.fixture
def vault(tmp_path):
    files = {
        "AGENTS.md": AGENTS,
        "index.md": "# Index\n\n- [[concepts/Alpha|Alpha]]\n- [[concepts/Gone|Gone]]\n",
        "log.md": "# Log\n\n## [2026-01-01] ingest | x\n- created: [[concepts/Lonely]]\n",
        "concepts/Alpha.md": page("Alpha", "See [[Beta]] and [[Betta Page]] and [[Gamma]].\n[[AI]]"),
        "concepts/Beta Page.md": page("Beta Page", "Back to [[Alpha]].", aliases="[Beta]"),
        "concepts/Gamma.md": page("Gamma", "[[Alpha]]"),
        "other/Gamma.md": page("Gamma", "x", summary=None),
        "concepts/Lonely.md": page("Lonely", "nobody links here", aliases="[Alpha]"),
        "concepts/Smart.md": page("Smart", "[[Alpha]]", aliases="[AI]"),
        "concepts/Bad.md": "---\ntitle: [unclosed\n---\nbody [[Alpha]]\n",
    }
    v = Vault.open(write(tmp_path / "v", files), use_cache=False)
    yield v
    v.close()


def codes(findings, code):
    return [(f.path, f.line) for f in findings if f.code == code]


def test_full_lint(vault):
    findings = vault.lint()
    assert codes(findings, "broken-link") == [("concepts/Alpha.md", 6)]
    broken = next(f for f in findings if f.code == "broken-link")
    assert broken.suggestion == "[[Beta Page]]" and broken.severity == "error"
    assert codes(findings, "alias-link") == [("concepts/Alpha.md", 6), ("concepts/Alpha.md", 7)]
    assert codes(findings, "ambiguous-link") == [("concepts/Alpha.md", 6)]
    # Lonely is only linked from log.md: an orphan. Smart is reached through its alias (that
    # link is reported as alias-link, not the page as an orphan).
    assert ("concepts/Lonely.md", 1) in codes(findings, "orphan")
    assert ("concepts/Smart.md", 1) not in codes(findings, "orphan")
    assert ("concepts/Alpha.md", 1) not in codes(findings, "orphan")
    assert codes(findings, "missing-field") == [("concepts/Bad.md", 1), ("other/Gamma.md", 1)]
    assert ("index.md", 4) in codes(findings, "index-stale")
    assert ("concepts/Gamma.md", 1) in codes(findings, "index-missing")
    # Lonely's alias "Alpha" is no link target, and a bare [[Gamma]] has one answer by
    # Obsidian's rules (other/Gamma.md, the shorter path): no duplicate-name (test_lint_adopt.py).
    assert codes(findings, "duplicate-name") == []
    warning = next(f for f in findings if f.code == "page-warning")
    assert warning.path == "concepts/Bad.md" and "YAML" in warning.message
    assert all(str(f).startswith(f"{f.path}:{f.line}: ") for f in findings)


def test_lint_changes_reports_only_what_the_change_introduces(vault):
    alpha = vault.read_text("concepts/Alpha.md")
    changed = alpha.replace("[[Gamma]]", "[[Gama]] [[Lonely]]")
    findings = vault.lint_changes({"concepts/Alpha.md": changed})
    # Pre-existing problems ([[Betta Page]], [[AI]]) are not repeated; Gamma loses its only link.
    assert [(f.code, f.path) for f in findings] == [("broken-link", "concepts/Alpha.md"), ("orphan", "concepts/Gamma.md")]
    assert "Gama" in findings[0].message and findings[0].suggestion == "[[concepts/Gamma]]"  # two Gamma pages: by path


def test_lint_changes_deletion_breaks_links_and_orphans(vault):
    findings = vault.lint_changes({"concepts/Alpha.md": None})
    got = {(f.code, f.path, f.line) for f in findings}
    assert got == {
        ("broken-link", "concepts/Beta Page.md", 7),
        ("broken-link", "concepts/Gamma.md", 6),
        ("broken-link", "concepts/Smart.md", 7),
        ("broken-link", "concepts/Bad.md", 4),
        ("orphan", "concepts/Gamma.md", 1),  # only Alpha linked to it
    }
    assert all("deleted or renamed" in f.message for f in findings if f.code == "broken-link")


def test_lint_changes_new_page(vault):
    findings = vault.lint_changes({"concepts/New.md": "---\ntitle: New\n---\n[[Nowhere]]\n"})
    got = {(f.code, f.path) for f in findings}
    assert got == {("broken-link", "concepts/New.md"), ("missing-field", "concepts/New.md"), ("orphan", "concepts/New.md")}
    linked = vault.lint_changes({
        "concepts/New.md": page("New", "x"),
        "concepts/Gamma.md": page("Gamma", "[[Alpha]] [[New]]"),
    })
    assert linked == []


def test_lint_changes_unlinking_orphans_a_page(vault):
    findings = vault.lint_changes({"concepts/Gamma.md": page("Gamma", "nothing")})
    assert [(f.code, f.path) for f in findings] == []  # Alpha is still linked from Beta Page
    findings = vault.lint_changes({
        "concepts/Gamma.md": page("Gamma", "nothing"),
        "concepts/Beta Page.md": page("Beta Page", "nothing", aliases="[Beta]"),
        "concepts/Smart.md": page("Smart", "nothing", aliases="[AI]"),
        "concepts/Bad.md": "---\ntitle: Bad\ntype: concept\nsummary: s\n---\n",
    })
    assert ("orphan", "concepts/Alpha.md") in {(f.code, f.path) for f in findings}


def test_type_checks_against_the_schema(vault):
    (vault.root / "concepts/Odd.md").write_text(page("Odd", "[[Alpha]]", type="gizmo"))
    (vault.root / "misplaced/Placed.md").parent.mkdir()
    (vault.root / "misplaced/Placed.md").write_text(page("Placed", "[[Alpha]]"))
    vault.refresh_file("concepts/Odd.md")
    vault.refresh_file("misplaced/Placed.md")
    findings = vault.lint()
    assert codes(findings, "unknown-type") == [("concepts/Odd.md", 3)]
    assert ("misplaced/Placed.md", 3) in codes(findings, "wrong-folder")


def test_lint_changes_link_to_a_page_the_change_deletes(vault):
    gamma = page("Gamma", "[[Alpha]] and [[Beta Page]]")
    findings = vault.lint_changes({"concepts/Gamma.md": gamma, "concepts/Beta Page.md": None})
    broken = [f for f in findings if f.code == "broken-link" and f.path == "concepts/Gamma.md"]
    assert len(broken) == 1 and "deleted or renamed by this change" in broken[0].message
    assert broken[0].suggestion is None


def test_log_history_is_not_linted_as_broken_links(tmp_path):
    """After /undo removed a page, log.md still names it: history, not a fixable link."""
    files = {
        "AGENTS.md": AGENTS,
        "log.md": "# Log\n\n## [2026-01-01] ingest | x\n- created: [[concepts/Removed]]\n"
                  "- updated: [[Beta]] [[concepts/Alpha]]\n",
        "concepts/Alpha.md": page("Alpha", "See [[Nowhere]]."),
        "concepts/Beta Page.md": page("Beta Page", "[[Alpha]]", aliases="[Beta]"),
    }
    v = Vault.open(write(tmp_path / "v", files), use_cache=False)
    try:
        findings = v.lint()
        assert [f.path for f in findings if f.code in ("broken-link", "alias-link", "ambiguous-link")] == [
            "concepts/Alpha.md"]
        assert not [f for f in findings if f.path == "log.md"]
    finally:
        v.close()


@pytest.mark.parametrize("new_body, lost", [
    ("# Trials\n\nNew words.\n\nA step. ^step\n", []),  # text added, every anchor kept
    ("# TRIALS\n\nA step. ^STEP\n\n## More\n", []),  # anchors compare ignoring case; one added
    ("# Voyages\n\nA step. ^step\n", ["concepts/Reader.md"]),  # the heading goes
    ("# Trials\n\nA step.\n", ["concepts/Other reader.md"]),  # the block id goes
    ("Nothing left.\n", ["concepts/Other reader.md", "concepts/Reader.md"]),
])
def test_lint_changes_links_into_a_changed_page_losing_their_anchor(tmp_path, new_body, lost):
    """An untouched page's `[[Page#Heading]]` / `[[Page#^id]]` breaks when the change removes
    that heading or block id from the page; a change that keeps every anchor breaks none."""
    files = {
        "AGENTS.md": AGENTS,
        "concepts/Target.md": page("Target", "# Trials\n\nA step. ^step\n"),
        "concepts/Reader.md": page("Reader", "See [[Target#Trials]]."),
        "concepts/Other reader.md": page("Other reader", "See [[Target#^step]] and [[Reader]]."),
    }
    with Vault.open(write(tmp_path / "v", files), use_cache=False) as v:
        findings = v.lint_changes({"concepts/Target.md": page("Target", new_body)})
    assert sorted(f.path for f in findings if f.code == "broken-anchor") == lost


def test_the_search_of_every_name_stops_at_the_runs_budget(tmp_path, monkeypatch):
    """Typos the finder cannot see (a letter doubled, one swapped) are found by comparing every
    name, while the run's budget lasts; past it a dangling link is still reported, with no
    suggestion, so a vault with thousands of them lints in seconds."""
    from wiki_tui.vault import lint

    files = {"Beta.md": page("Beta", "x"), "Gamma.md": page("Gamma", "x"),
             "Home.md": page("Home", "See [[Betta]].\n\nAnd [[Gamna]].\n")}
    with Vault.open(write(tmp_path / "v", files), use_cache=False) as v:
        def suggestions() -> dict[str, str | None]:
            return {f.message.split(":")[0]: f.suggestion for f in v.lint() if f.code == "broken-link"}

        assert suggestions() == {"[[Betta]]": "[[Beta]]", "[[Gamna]]": "[[Gamma]]"}
        suggester = lint.Suggester(v)
        suggester.prepare()
        monkeypatch.setattr(lint, "TYPO_WORK", len(suggester._keys))  # one search of every name
        assert suggestions() == {"[[Betta]]": "[[Beta]]", "[[Gamna]]": None}


def test_lint_lets_other_threads_at_the_vault_between_its_steps(tmp_path, monkeypatch):
    """A whole-vault lint takes seconds at 50k pages: the app's jump and page views (other
    threads) must get the vault's lock between its steps, not wait for the end."""
    import threading

    from wiki_tui.vault import lint

    files = {f"P{n}.md": page(f"P{n}", f"[[P{(n + 1) % 200}]] [[Nowhere {n}]]") for n in range(200)}
    with Vault.open(write(tmp_path / "v", files), use_cache=False) as v:
        monkeypatch.setattr(lint, "LINT_STEP", 1)
        order: list[str] = []
        findings = lint._page_findings

        def other() -> None:
            with v._lock:
                order.append("other")

        def counted(vault, source, *args):
            if not order:
                threading.Thread(target=other).start()  # waits for the lock the lint holds
            order.append("page")
            return findings(vault, source, *args)

        monkeypatch.setattr(lint, "_page_findings", counted)
        assert len([f for f in v.lint() if f.code == "broken-link"]) == 200
        assert "other" in order and order.index("other") < len(order) - 1  # before the last page
