"""Form files in a changeset, against real files and a real git repository: a chart spec is
checked and drawn to the SVG its page embeds (applied, indexed, committed and undone with the
page), a canvas is checked against JSON Canvas 1.0 and listed in index.md, and what is broken
is refused with nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import git
from wiki_tui.changes.apply.journal import apply_changeset, undo_last
from wiki_tui.changes.build.changeset import build_changeset
from wiki_tui.changes.model import CREATE
from wiki_tui.changes.reply.stream import parse_reply
from wiki_tui.vault import Vault

CHART_PAGE = """\
@@@ WRITE answers/H4 error.md
---
title: H4 error
type: answer
summary: How much time H4 lost on the voyage to Jamaica.
sources: ["[[H4]]"]
---
# H4 error

```chart
kind: line
title: Error of H4 on the voyage to Jamaica
x: Day
y: Seconds lost
series:
  - name: H4
    pages: ["[[H4]]"]
    data: [[0, 0], [40, 2.5], [81, 5.1]]
```

From [[H4]].
@@@ END
"""


def canvas_reply(path: str = "answers/Harrison map.canvas", **extra) -> str:
    data = {"nodes": [
        {"id": "h4", "type": "file", "file": "entities/H4.md", "x": 0, "y": 0, "width": 300,
         "height": 200},
        {"id": "jh", "type": "file", "file": "entities/John Harrison.md", "x": 500, "y": 0,
         "width": 300, "height": 200},
        {"id": "c1", "type": "text", "text": "Harrison built H4 to win the longitude prize",
         "x": 250, "y": 300, "width": 300, "height": 120}],
        "edges": [{"id": "e1", "fromNode": "jh", "toNode": "h4", "label": "built"},
                  {"id": "e2", "fromNode": "c1", "toNode": "h4", "label": "about"}]}
    data.update(extra)
    return f"@@@ WRITE {path}\n{json.dumps(data, indent=1)}\n@@@ END\n"


def build(root: Path, reply: str):
    vault = Vault.open(root, use_cache=False)
    cs, errors = build_changeset(vault, parse_reply(reply), operation="save", title="t",
                                 model="test-model")
    return vault, cs, errors


def test_a_chart_is_drawn_embedded_applied_and_undone(git_vault: Path):
    vault, cs, errors = build(git_vault, CHART_PAGE)
    assert [e for e in errors if e.retry] == []
    assert [(f.kind, f.path) for f in cs.files] == [(CREATE, "answers/H4 error.md"),
                                                   (CREATE, "attachments/H4 error.svg")]
    page, svg = cs.files
    assert "![[attachments/H4 error.svg]]" in page.proposed_text
    assert page.proposed_text.index("```\n\n![[attachments/H4 error.svg]]") > 0
    assert svg.rendered_from == "answers/H4 error.md"
    assert svg.proposed_text.startswith("<?xml") and "<svg" in svg.proposed_text
    assert "Error of H4 on the voyage to Jamaica" in svg.proposed_text
    assert any("drawn by wiki-tui" in r for r in svg.repairs)
    assert not [f for f in cs.findings if f.code != "orphan"]  # the embed resolves
    cs.accept_all()
    result = apply_changeset(vault, cs)
    assert result.commit
    assert (git_vault / "attachments/H4 error.svg").read_text() == svg.proposed_text
    committed = git(git_vault, "show", "--name-only", "--format=", "HEAD").split()
    assert sorted(committed) == ["answers/H4", "attachments/H4", "error.md", "error.svg",
                                 "index.md", "log.md"]
    assert "[[answers/H4 error|H4 error]]" in (git_vault / "index.md").read_text()
    undo_last(Vault.open(git_vault, use_cache=False))
    assert not (git_vault / "attachments/H4 error.svg").exists()
    assert not (git_vault / "answers/H4 error.md").exists()


def test_the_svg_follows_its_page_not_its_own_decision(git_vault: Path):
    vault, cs, _errors = build(git_vault, CHART_PAGE)
    page, svg = cs.files
    page.reject()
    svg.accept()
    result = apply_changeset(vault, cs)
    assert not result.commit
    assert not (git_vault / "attachments/H4 error.svg").exists()
    vault, cs, _errors = build(git_vault, CHART_PAGE)
    page, svg = cs.files
    page.accept()
    svg.reject()  # the person's word on the drawing does not count: the page's does
    apply_changeset(vault, cs)
    assert (git_vault / "attachments/H4 error.svg").is_file()


def test_an_unchanged_spec_is_not_drawn_again(git_vault: Path):
    vault, cs, _ = build(git_vault, CHART_PAGE)
    cs.accept_all()
    apply_changeset(vault, cs)
    edit = ("@@@ EDIT answers/H4 error.md\n@@@ SEARCH\nFrom [[H4]].\n@@@ REPLACE\n"
            "From [[H4]] and its log.\n@@@ END\n")
    _vault, cs, errors = build(git_vault, edit)
    assert [f.path for f in cs.files] == ["answers/H4 error.md"]
    changed = edit.replace("From [[H4]].\n@@@ REPLACE\nFrom [[H4]] and its log.",
                           "    data: [[0, 0], [40, 2.5], [81, 5.1]]\n@@@ REPLACE\n"
                           "    data: [[0, 0], [40, 2.5], [81, 5.1], [120, 9]]")
    _vault, cs, errors = build(git_vault, changed)
    assert [(f.kind, f.path) for f in cs.files] == [("modify", "answers/H4 error.md"),
                                                   ("modify", "attachments/H4 error.svg")]


@pytest.mark.parametrize("spec, line, words", [
    ("kind: pie\ntitle: T\nseries: []", 9, "kind 'pie' is not one of"),
    ("kind: bar\ntitle: T\nseries:\n  - pages: ['[[H4]]']\n    data: [[a, 1], [b, many]]",
     13, "point 2: 'many' is not a number"),
    ("kind: bar\ntitle: T\nseries:\n  - pages: ['[[H4]]']\n    data: ../secret.csv", 13,
     "a chart spec cannot read files"),
    ("kind: bar\ntitle: T\nfile: ../../outside.svg\nseries:\n  - pages: ['[[H4]]']\n"
     "    data: [[a, 1]]", 11, "is outside the vault"),
    ("kind: bar\ntitle: T\nfile: /etc/x.svg\nseries:\n  - pages: ['[[H4]]']\n"
     "    data: [[a, 1]]", 11, "is outside the vault"),
    ("kind: bar\ntitle: T\nseries:\n  - pages: ['[[../../etc/passwd]]']\n    data: [[a, 1]]",
     12, "is outside the vault"),
    ("kind: bar\ntitle: T\nseries:\n  - pages: ['[[No such page]]']\n    data: [[a, 1]]",
     8, "[[No such page]], which is no page"),
    ("kind: bar\ntitle: T\nscript: import os\nseries: []", 11, "unknown key 'script'"),
    ("!!python/object/apply:os.system ['true']", 9, "tags are not allowed"),
    ("kind: bar\ntitle: [unclosed\n", 10, "not readable as YAML"),
])
def test_a_broken_spec_is_refused_naming_the_line(git_vault: Path, spec, line, words):
    reply = ("@@@ WRITE answers/Bad.md\n---\ntitle: Bad\ntype: answer\nsummary: s\n---\n"
             f"# Bad\n\n```chart\n{spec}\n```\n@@@ END\n")
    vault, cs, errors = build(git_vault, reply)
    assert cs.files == []
    (error,) = [e for e in errors if e.retry]
    assert error.path == "answers/Bad.md"
    assert f"answers/Bad.md: line {line}: " in str(error) and words in str(error)
    assert not (git_vault / "attachments/Bad.svg").exists()


def test_the_model_cannot_write_an_svg_or_other_files(git_vault: Path):
    reply = "@@@ WRITE attachments/x.svg\n<svg onload='x'/>\n@@@ END\n"
    _vault, cs, errors = build(git_vault, reply)
    assert cs.files == [] and "can be written" in str(errors[0])


def test_a_canvas_is_checked_listed_and_applied(git_vault: Path):
    vault, cs, errors = build(git_vault, canvas_reply())
    assert [e for e in errors if e.retry] == []
    assert [(f.kind, f.path) for f in cs.files] == [(CREATE, "answers/Harrison map.canvas")]
    cs.accept_all()
    assert apply_changeset(vault, cs).commit
    index = (git_vault / "index.md").read_text()
    assert ("- [[answers/Harrison map.canvas|Harrison map]] — Harrison built H4 to win the "
            "longitude prize") in index
    assert index.index("## Answers") < index.index("Harrison map.canvas")
    log = (git_vault / "log.md").read_text()
    assert "answers/Harrison map.canvas" in log


@pytest.mark.parametrize("change, words", [
    ({"nodes": [{"id": "a", "type": "file", "file": "entities/Nobody.md", "x": 0, "y": 0,
                 "width": 1, "height": 1}], "edges": []}, "entities/Nobody.md"),
    ({"nodes": [{"id": "a", "type": "file", "file": "../../etc/passwd", "x": 0, "y": 0,
                 "width": 1, "height": 1}], "edges": []}, "is outside the vault"),
    ({"nodes": [{"id": "a", "type": "text", "text": "t", "x": 0.5, "y": 0, "width": 1,
                 "height": 1}], "edges": []}, "\"x\" must be an integer"),
    ({"nodes": [{"id": "a", "type": "circle", "x": 0, "y": 0, "width": 1, "height": 1}],
      "edges": []}, "\"type\" is 'circle'"),
    ({"edges": [{"id": "e", "fromNode": "h4", "toNode": "ghost"}]}, "which is no node"),
])
def test_an_invalid_canvas_is_refused_with_nothing_written(git_vault: Path, change, words):
    vault, cs, errors = build(git_vault, canvas_reply(**change))
    assert cs.files == []
    (error,) = [e for e in errors if e.retry]
    assert words in str(error) and error.path == "answers/Harrison map.canvas"


def test_not_json_is_refused_naming_the_line(git_vault: Path):
    reply = '@@@ WRITE answers/X.canvas\n{"nodes": [\n  {"id": "a",,}\n]}\n@@@ END\n'
    _vault, cs, errors = build(git_vault, reply)
    assert cs.files == [] and "line 2: not valid JSON" in str(errors[0])
