"""`wiki-tui ingest PATH... | --new`: one operation per source, in order, each applied before
the next (real files, real git; the offline engine and the scripted test server)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import git
from tests.support.llm_server import Reply
from wiki_tui.cli import main as cli_main

ALPHA = "# Alpha Widget\n\nThe Alpha Widget is a clockwork part. It ticks.\n"
BETA = "# Beta Gadget\n\nThe Beta Gadget improves on the Alpha Widget. It tocks.\n"


@pytest.fixture
def batch_vault(git_vault):
    """The sample vault with two new sources and a picture in raw/batch/, committed."""
    folder = git_vault / "raw" / "batch"
    folder.mkdir()
    (folder / "alpha.md").write_text(ALPHA, encoding="utf-8")
    (folder / "beta.md").write_text(BETA, encoding="utf-8")
    (folder / "photo.tiff").write_bytes(b"II*\0")
    git(git_vault, "add", "-A")
    git(git_vault, "commit", "-q", "-m", "sources")
    return git_vault


def _commits(vault) -> list[str]:
    return git(vault, "log", "--format=%s").splitlines()


def _ingest(vault, *args: str) -> int:
    return cli_main(["--vault", str(vault), "ingest", *args])


def test_new_with_yes_ingests_each_source_once_in_order(batch_vault, capsys):
    before = len(_commits(batch_vault))
    assert _ingest(batch_vault, "--new", "--yes") == 0
    subjects = _commits(batch_vault)[:3]
    assert subjects == ["ingest: The French Chronometer Makers", "ingest: Beta Gadget",
                        "ingest: Alpha Widget"]  # one commit per source, sorted by path
    assert len(_commits(batch_vault)) == before + 3
    log = (batch_vault / "log.md").read_text(encoding="utf-8")
    for source in ("raw/batch/alpha.md", "raw/batch/beta.md", "raw/french-chronometers.md"):
        assert log.count(f"- source: {source}\n") == 1
    err = capsys.readouterr().err
    assert "skipped raw/batch/photo.tiff: not a format wiki-tui ingests" in err
    assert "[1/3] raw/batch/alpha.md: applied" in err and "[3/3] raw/french-chronometers.md" in err
    assert "ingested 3 of 3 source(s)" in err
    # a second run finds nothing new and writes nothing
    assert _ingest(batch_vault, "--new", "--yes") == 0
    assert len(_commits(batch_vault)) == before + 3
    assert "nothing to ingest" in capsys.readouterr().err


def test_each_source_sees_the_pages_the_one_before_wrote(batch_vault):
    # the same text twice: the first page exists when the second runs, which gets a page of
    # its own (run together, both would have proposed the same path)
    (batch_vault / "raw" / "again.md").write_bytes(
        (batch_vault / "raw" / "french-chronometers.md").read_bytes())
    assert _ingest(batch_vault, "raw/french-chronometers.md", "raw/again.md", "--yes") == 0
    assert (batch_vault / "sources/The French Chronometer Makers (2).md").is_file()


def test_without_yes_and_a_terminal_it_shows_the_first_and_stops(batch_vault, capsys):
    head = git(batch_vault, "rev-parse", "HEAD")
    assert _ingest(batch_vault, "raw/batch", "--new") == 3
    assert git(batch_vault, "rev-parse", "HEAD") == head
    out = capsys.readouterr()
    assert "Alpha Widget" in out.out and "Beta Gadget" not in out.out
    assert "not applied: raw/batch/alpha.md; not run: raw/batch/beta.md" in out.err


def test_a_failure_stops_the_batch_naming_the_source_and_those_not_run(batch_vault, capsys):
    code = _ingest(batch_vault, "raw/batch/alpha.md", "raw/nope.md", "raw/batch/beta.md",
                   "--yes")
    assert code == 1
    assert _commits(batch_vault)[0] == "ingest: Alpha Widget"  # the one before stays applied
    err = capsys.readouterr().err
    assert "raw/nope.md: no such file" in err
    assert "failed: raw/nope.md; not run: raw/batch/beta.md" in err


def test_keep_going_runs_the_rest_and_still_exits_1(batch_vault, capsys):
    code = _ingest(batch_vault, "raw/batch/alpha.md", "raw/nope.md", "raw/batch/beta.md",
                   "--yes", "--keep-going")
    assert code == 1
    assert _commits(batch_vault)[:2] == ["ingest: Beta Gadget", "ingest: Alpha Widget"]
    assert "ingested 2 of 3 source(s); failed: raw/nope.md" in capsys.readouterr().err


def test_json_events_name_their_source(batch_vault, capsys):
    assert _ingest(batch_vault, "raw/batch/*.md", "--yes", "--json") == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    started = [e["source"] for e in events if e["event"] == "Started"]
    assert started == ["raw/batch/alpha.md", "raw/batch/beta.md"]
    assert all("source" in e for e in events if e["event"] != "BatchDone")
    done = [e for e in events if e["event"] == "SourceDone"]
    assert [(e["number"], e["total"], e["status"]) for e in done] == [(1, 2, "applied"),
                                                                      (2, 2, "applied")]
    assert events[-1] == {"event": "BatchDone", "applied": ["raw/batch/alpha.md",
                                                            "raw/batch/beta.md"],
                          "failed": [], "not_applied": [], "not_run": []}


def test_a_glob_that_matches_nothing_runs_nothing(batch_vault, capsys):
    assert _ingest(batch_vault, "raw/*.docx", "--yes") == 2
    assert "raw/*.docx: no file matches" in capsys.readouterr().err


WIDGET = "entities/Widget.md"


def test_through_the_model_the_second_source_updates_the_page_the_first_created(
        batch_vault, llm_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    llm_server.queue(
        Reply(f"@@@ WRITE {WIDGET}\n---\ntitle: Widget\ntype: entity\nsummary: A part.\n"
              "sources: [raw/batch/alpha.md]\n---\n# Widget\n\nIt ticks.\n@@@ END\n"),
        Reply(f"@@@ EDIT {WIDGET}\n@@@ SEARCH\nIt ticks.\n@@@ REPLACE\nIt ticks and tocks.\n"
              "@@@ END\n"))
    code = cli_main(["--vault", str(batch_vault), "--model", "openai/test-model", "--api-base",
                     llm_server.api_base, "ingest", "raw/batch/", "--yes"])
    assert code == 0
    assert "It ticks and tocks." in (batch_vault / WIDGET).read_text(encoding="utf-8")
    assert WIDGET in llm_server.requests[1].text()  # the second prompt lists the new page
    log = (batch_vault / "log.md").read_text(encoding="utf-8")
    assert "- source: raw/batch/beta.md\n- updated: [[entities/Widget|Widget]]" in log


@pytest.mark.parametrize("terminal", [True, False])
def test_progress_is_a_bar_on_a_terminal_and_plain_lines_otherwise(terminal, monkeypatch):
    import io

    from rich.console import Console

    from wiki_tui.cli import batch

    out = io.StringIO()
    monkeypatch.setattr(batch, "console_err", Console(file=out, force_terminal=terminal,
                                                      width=100, color_system=None))
    progress = batch.Progress(3)
    progress.start(1, "raw/a.md")
    progress.finish(1, batch.SourceResult("raw/a.md", 0, "applied", 1234, 0.25))
    progress.start(2, "raw/b.md")
    lines = out.getvalue().splitlines()
    assert lines[1].endswith("[1/3] raw/a.md: applied in 0.2 s · 1,234 tokens so far")
    assert lines[2].endswith("[2/3] raw/b.md · 1,234 tokens so far")
    assert ("━" in out.getvalue()) is terminal


def test_a_source_with_unusable_edits_applies_nothing_of_it_and_stops(batch_vault, llm_server,
                                                                       monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    bad = ("@@@ EDIT entities/John Harrison.md\n@@@ SEARCH\nHarrison was born on the Moon.\n"
           "@@@ REPLACE\nHarrison was born in Yorkshire.\n@@@ END\n")
    good = (f"@@@ WRITE {WIDGET}\n---\ntitle: Widget\ntype: entity\nsummary: A part.\n---\n"
            "# Widget\n\nIt ticks.\n@@@ END\n")
    llm_server.queue(Reply(good + bad), Reply(bad), Reply(bad))  # three rounds, still refused
    head = git(batch_vault, "rev-parse", "HEAD")
    code = cli_main(["--vault", str(batch_vault), "--model", "openai/test-model", "--api-base",
                     llm_server.api_base, "ingest", "raw/batch/", "--yes"])
    assert code == 1
    assert not (batch_vault / WIDGET).exists()  # the usable part of it is not applied either
    assert git(batch_vault, "rev-parse", "HEAD") == head
    assert len(llm_server.requests) == 3  # the second source never ran
    err = capsys.readouterr().err
    assert "failed: raw/batch/alpha.md; not run: raw/batch/beta.md" in err
