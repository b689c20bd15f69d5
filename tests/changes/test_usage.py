"""Usage: the log.md line and commit trailers of an operation's tokens and cost, and the totals
`wiki-tui usage` reads back from log.md."""

from __future__ import annotations

import json

from wiki_tui.changes.apply.logmd import LogEntry
from wiki_tui.changes.usage import Spend, parse_line, totals
from wiki_tui.cli import main

LOG = """# Log

## [2026-10-30] ingest | First source
- created: [[sources/First|First]]
- usage: openai/gpt-4o-mini, 1000 tokens in, 200 tokens out, cost $0.00027

## [2026-11-02] ingest | Second source
- created: [[sources/Second|Second]]
- usage: openai/gpt-4o-mini, 3000 tokens in, 400 tokens out, cost $0.00069

## [2026-11-03] undo | Second source
- deleted: sources/Second.md

## [2026-11-04] query | A question
- created: [[answers/Q|Q]]
- usage: ollama/llama3, 500 tokens in, 50 tokens out, cost unknown
- usage: written by hand in a note, not a usage line
"""


def test_the_log_line_reads_back_as_written():
    for spend in (Spend("openai/gpt-4o-mini", 12408, 913, 0.002413), Spend("local", 3, 4, None),
                  Spend("offline", 0, 0, 0.0)):
        entry = LogEntry("ingest", "T", "2026-11-25", created=[("a.md", "A")], spend=spend)
        line = entry.render().splitlines()[-1]
        assert parse_line(line) == spend, line
    assert Spend("m", 1, 2, 0.002413).trailers() == {"Tokens-In": "1", "Tokens-Out": "2", "Cost-USD": "0.002413"}
    assert "Cost-USD" not in Spend("m", 1, 2, None).trailers()  # no price known: no cost claimed


def test_totals_per_model_operation_and_month():
    found = totals(LOG).to_dict()
    assert found["total"] == {"operations": 3, "tokens_in": 4500, "tokens_out": 650,
                              "cost_usd": 0.00096, "cost_unknown": 1}
    assert found["by_model"]["openai/gpt-4o-mini"]["operations"] == 2
    assert found["by_model"]["ollama/llama3"]["cost_unknown"] == 1
    assert {k: v["operations"] for k, v in found["by_operation"].items()} == {"ingest": 2, "query": 1}
    assert {k: v["tokens_in"] for k, v in found["by_month"].items()} == {"2026-10": 1000, "2026-11": 3500}


def test_cli_usage_reads_log_md(tmp_path, capsys):
    (tmp_path / "AGENTS.md").write_text("rules\n")
    (tmp_path / "log.md").write_text(LOG)
    assert main(["usage", "--vault", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == totals(LOG).to_dict()
    assert main(["--vault", str(tmp_path), "usage"]) == 0
    out = capsys.readouterr().out
    assert "openai/gpt-4o-mini" in out and "2026-10" in out and "(+1 of unknown price)" in out
    (tmp_path / "log.md").write_text("# Log\n")
    assert main(["usage", "--vault", str(tmp_path)]) == 0
    assert "records no model usage yet" in capsys.readouterr().out
