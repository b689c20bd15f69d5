"""`wiki-tui init | links | backlinks | find | search | lint` end to end on the sample vault."""

from __future__ import annotations

import json

import pytest

from wiki_tui.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, " ".join(err.split())  # rich wraps long error lines


def test_links_json_and_human(sample_vault, capsys):
    code, out, _ = run(capsys, "--vault", str(sample_vault), "links", "H4", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["page"] == "entities/H4.md"
    assert all({"line", "raw", "resolved", "via_alias"} <= set(row) for row in data["links"])
    assert any(row["resolved"] == "entities/John Harrison.md" for row in data["links"])
    code, out, _ = run(capsys, "--vault", str(sample_vault), "links", "entities/H4.md")
    assert code == 0 and "John Harrison" in out


def test_backlinks_linked_then_unlinked(sample_vault, capsys):
    code, out, _ = run(capsys, "--vault", str(sample_vault), "backlinks", "Marine chronometer", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["page"] == "concepts/Marine chronometer.md"
    assert data["linked"] and all(b["source"] != data["page"] for b in data["linked"])
    assert all("[[" not in m["text"] for m in data["unlinked"])
    code, out, _ = run(capsys, "--vault", str(sample_vault), "backlinks", "Marine chronometer")
    assert out.index("Linked mentions") < out.index("Unlinked mentions")


def test_find_and_search(sample_vault, capsys):
    code, out, _ = run(capsys, "--vault", str(sample_vault), "find", "mrn chrn", "--json")
    assert code == 0 and json.loads(out)[0]["path"] == "concepts/Marine chronometer.md"
    code, out, _ = run(capsys, "--vault", str(sample_vault), "search", "chronometer", "--json")
    hits = json.loads(out)
    assert code == 0 and hits and all(h["line"] >= 0 and "snippet" in h for h in hits)
    code, out, _ = run(capsys, "--vault", str(sample_vault), "search", 'chrono" AND (')
    assert code == 0


def test_lint_json(sample_vault, capsys):
    code, out, _ = run(capsys, "--vault", str(sample_vault), "lint", "--json")
    findings = json.loads(out)
    assert all({"code", "path", "line", "message", "severity"} <= set(f) for f in findings)
    # The sample vault holds one deliberately unresolved link: an error, so exit 1.
    assert any(f["code"] == "broken-link" for f in findings)
    assert code == 1


def test_errors_have_clear_messages_and_exit_codes(sample_vault, tmp_path, capsys):
    code, _, err = run(capsys, "--vault", str(tmp_path / "missing"), "find", "x")
    assert code == 2 and "does not exist" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(capsys, "--vault", str(empty), "lint")
    assert code == 2 and "wiki-tui init" in err
    code, _, err = run(capsys, "--vault", str(sample_vault), "links", "Marine chronometr")
    assert code == 1 and "Marine chronometer" in err  # suggests the close name
    with pytest.raises(SystemExit) as exc:
        main(["--vault", str(sample_vault), "find", "x", "--limit", "zero"])
    assert exc.value.code == 2
    code, _, err = run(capsys, "--vault", str(sample_vault), "lint", "--yes")
    assert code == 2 and "--fix" in err


def test_init_then_commands(tmp_path, capsys):
    target = tmp_path / "new"
    code, out, _ = run(capsys, "init", str(target), "--json")
    assert code == 0 and json.loads(out)["vault"] == str(target.resolve())
    code, out, _ = run(capsys, "--vault", str(target), "lint", "--json")
    assert code == 0 and json.loads(out) == []
    code, _, err = run(capsys, "init", str(target))
    assert code == 2 and "already holds a vault" in err
