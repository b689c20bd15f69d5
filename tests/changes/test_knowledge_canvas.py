"""A canvas judged by its board, not its JSON lines (build/knowledge/canvas.py), on real copies
of sample_vault: re-serialised or rearranged boards pass `--yes`; nodes, edges, labels and the
claims of text nodes taken away are held — and `apply --yes` leaves the vault untouched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.changes.journal_support import disk_state
from tests.changes.test_knowledge import diff_of
from wiki_tui.changes.build.knowledge.invariants import holding
from wiki_tui.cli import main

BOARD = "answers/Who made H4 count.canvas"


def _board(vault: Path) -> dict:
    return json.loads((vault / BOARD).read_text(encoding="utf-8"))


def _write(data: dict, indent: int | None = 2) -> str:
    return f"Updated the board.\n\n@@@ WRITE {BOARD}\n{json.dumps(data, indent=indent)}\n@@@ END\n"


def _held(cs) -> set[str]:
    return {b.code for fc in cs.files for b in holding(fc)} | {"rewrite" for fc in cs.files if fc.hold}


def test_a_board_re_serialised_and_rearranged_is_no_change_of_meaning(sample_vault):
    data = _board(sample_vault)
    data["nodes"].reverse()
    for node in data["nodes"]:
        node["x"] += 100
    data["nodes"].append({"id": "m", "type": "file", "file": "entities/Nevil Maskelyne.md",
                          "x": 0, "y": 900, "width": 400, "height": 240})
    cs = diff_of(sample_vault, _write(data, indent=None))
    assert _held(cs) == set(), [str(b) for fc in cs.files for b in fc.breaches]
    assert cs.knowledge.page(BOARD).rewritten == 0.0


def _mutate(data: dict, how: str) -> None:
    nodes, edges = data["nodes"], data["edges"]
    text = next(n for n in nodes if n["id"] == "trial")
    built = next(e for e in edges if e["id"] == "built")
    if how == "file node dropped":
        data["nodes"] = [n for n in nodes if n["id"] != "cook"]
        data["edges"] = [e for e in edges if "cook" not in (e["fromNode"], e["toNode"])]
    elif how == "edge turned round":
        built["fromNode"], built["toNode"] = built["toNode"], built["fromNode"]
    elif how == "edge relabelled":
        built["label"] = "copied"
    elif how == "edge removed":
        data["edges"] = [e for e in edges if e["id"] != "tested"]
    elif how == "figure changed in a text node":
        text["text"] = text["text"].replace("5.1 seconds", "5.1 minutes")
    elif how == "opposite in a text node":
        text["text"] = text["text"].replace("slow", "fast")
    elif how == "link dropped from a text node":
        text["text"] = text["text"].replace(" ([[H4]])", "")


@pytest.mark.parametrize("how, code", [
    ("file node dropped", "links"), ("edge turned round", "claims"),
    ("edge relabelled", "claims"), ("edge removed", "claims"),
    ("figure changed in a text node", "claims"), ("opposite in a text node", "claims"),
    ("link dropped from a text node", "links"),
])
def test_what_a_board_says_taken_away_is_held(sample_vault, how, code):
    data = _board(sample_vault)
    _mutate(data, how)
    cs = diff_of(sample_vault, _write(data))
    assert code in _held(cs), cs.knowledge.page(BOARD).notes()
    assert "rewrite" not in _held(cs)  # judged by what it says, not by its re-serialised lines


def test_most_of_a_board_replaced_is_a_rewrite(sample_vault):
    data = _board(sample_vault)
    data["nodes"] = data["nodes"][:2]
    data["edges"] = [e for e in data["edges"] if e["id"] == "built"]
    cs = diff_of(sample_vault, _write(data))
    assert "rewrite" in _held(cs)
    assert "canvas" in cs.files[0].hold


def test_apply_yes_holds_a_board_turned_round_and_writes_nothing(sample_vault, capsys):
    data = _board(sample_vault)
    _mutate(data, "edge turned round")
    reply = sample_vault / "reply.txt"
    reply.write_text(_write(data), encoding="utf-8")
    before = disk_state(sample_vault)
    code = main(["apply", "--vault", str(sample_vault), "--yes", "--json", str(reply)])
    assert code == 3
    out = json.loads(capsys.readouterr().out)
    assert out["applied"] is False or out.get("result") is None
    after = disk_state(sample_vault)
    assert {k: v for k, v in after.items() if k != "reply.txt"} == \
        {k: v for k, v in before.items() if k != "reply.txt"}
