"""changes/ is a pipeline: reply/ reads the reply, build/ builds the changeset, apply/ writes
it. Imports run one way (apply → build → reply → the shared top of changes/), never back, and
no module of changes/ is part of an import cycle, inside a folder or across."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "wiki_tui" / "changes"
STAGES = {"reply": 0, "build": 1, "apply": 2}
PACKAGES = {"wiki_tui.changes", *(f"wiki_tui.changes.{s}" for s in STAGES)}


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT.parent.parent).with_suffix("").parts
    return ".".join(p for p in parts if p != "__init__")


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[2] if len(parts) > 3 else "top"


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        mod = _module(path)
        graph.setdefault(mod, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "wiki_tui.changes"):
                for alias in node.names:
                    name = f"{node.module}.{alias.name}" if node.module in PACKAGES else node.module
                    graph[mod].add(name)
    return graph


def test_imports_run_one_way_between_the_stages():
    backwards = []
    for mod, targets in _imports().items():
        for target in targets:
            here, there = _stage(mod), _stage(target)
            if here == "top" and there != "top":
                backwards.append((mod, target))  # the shared top imports no stage
            elif here in STAGES and there in STAGES and STAGES[there] > STAGES[here]:
                backwards.append((mod, target))
    assert backwards == []


def test_no_import_cycles_in_changes():
    graph = _imports()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(mod: str, path: list[str]) -> None:
        state[mod] = 1
        for target in sorted(graph.get(mod, ())):
            if state.get(target) == 1:
                cycles.append([*path[path.index(target):], target] if target in path else path)
            elif target in graph and not state.get(target):
                visit(target, [*path, target])
        state[mod] = 2

    for mod in sorted(graph):
        if not state.get(mod):
            visit(mod, [mod])
    assert cycles == []


def test_every_module_says_its_job():
    silent = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*.py")
              if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert silent == []
