"""JSON Canvas 1.0 (jsoncanvas.org, the format of Obsidian's `.canvas` files): checked, read.

    {"nodes": [{"id": "h4", "type": "file", "file": "entities/H4.md",
                "x": 0, "y": 0, "width": 400, "height": 300},
               {"id": "c1", "type": "text", "text": "H4 lost 5.1 s in 81 days", ...}],
     "edges": [{"id": "e1", "fromNode": "c1", "toNode": "h4", "label": "measured on"}]}

`check_canvas` refuses what the format does not allow (a node without id, type or integer
geometry; an unknown type or side; a duplicate id; an edge to a node that is not there; a file
node without its file, or naming one outside the vault) with one message naming the node or
edge. `describe` turns a canvas into lines a person reads in the terminal.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from wiki_tui.forms.chart_spec import check_vault_path

NODE_TYPES = ("text", "file", "link", "group")
SIDES = ("top", "right", "bottom", "left")
ENDS = ("none", "arrow")
BACKGROUND_STYLES = ("cover", "ratio", "repeat")
MAX_CANVAS_CHARS = 2_000_000
MAX_ITEMS = 5_000
_COLOR = re.compile(r"^(?:[1-6]|#[0-9A-Fa-f]{6})$")


class CanvasError(ValueError):
    """A text that is not a JSON Canvas 1.0 file; str() says where and why, in one line."""


@dataclass(frozen=True)
class Canvas:
    nodes: list[dict]
    edges: list[dict]

    @property
    def files(self) -> list[str]:
        """The vault files the file nodes name, in order, each once."""
        return list(dict.fromkeys(n["file"] for n in self.nodes if n["type"] == "file"))


def check_canvas(text: str) -> Canvas:
    """The canvas `text` holds, or CanvasError."""
    if len(text) > MAX_CANVAS_CHARS:
        raise CanvasError(f"the canvas is {len(text):,} characters; at most "
                          f"{MAX_CANVAS_CHARS:,}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CanvasError(f"line {exc.lineno}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise CanvasError("not a JSON Canvas: nested too deeply") from None
    if not isinstance(data, dict):
        raise CanvasError("a JSON Canvas is an object with \"nodes\" and \"edges\" lists")
    nodes, edges = data.get("nodes", []), data.get("edges", [])
    for name, items in (("nodes", nodes), ("edges", edges)):
        if not isinstance(items, list):
            raise CanvasError(f"\"{name}\" must be a list")
        if len(items) > MAX_ITEMS:
            raise CanvasError(f"more than {MAX_ITEMS:,} {name}")
    ids: set[str] = set()
    for i, node in enumerate(nodes, 1):
        _node(node, i, ids)
    edge_ids: set[str] = set()
    for i, edge in enumerate(edges, 1):
        _edge(edge, i, ids, edge_ids)
    return Canvas(nodes, edges)


def _where(kind: str, i: int, item: dict) -> str:
    ident = item.get("id") if isinstance(item, dict) else None
    return f"{kind} {i}" + (f" (id {str(ident)[:40]!r})" if isinstance(ident, str) else "")


def _string(item: dict, key: str, where: str, required: bool = True) -> None:
    value = item.get(key)
    if value is None and not required:
        return
    if not isinstance(value, str) or (required and not value.strip()):
        raise CanvasError(f"{where}: \"{key}\" must be a non-empty string")


def _choice(item: dict, key: str, allowed: tuple[str, ...], where: str) -> None:
    if key in item and item[key] not in allowed:
        raise CanvasError(f"{where}: \"{key}\" is {str(item[key])[:20]!r}; one of "
                          f"{', '.join(allowed)}")


def _color(item: dict, where: str) -> None:
    if "color" in item and not (isinstance(item["color"], str) and _COLOR.match(item["color"])):
        raise CanvasError(f"{where}: \"color\" must be \"1\" to \"6\" or a hex colour "
                          "like \"#ff0000\"")


def _node(node: object, i: int, ids: set[str]) -> None:
    where = _where("node", i, node if isinstance(node, dict) else {})
    if not isinstance(node, dict):
        raise CanvasError(f"{where}: a node is an object")
    _string(node, "id", where)
    if node["id"] in ids:
        raise CanvasError(f"{where}: the id is used by another node")
    ids.add(node["id"])
    kind = node.get("type")
    if kind not in NODE_TYPES:
        raise CanvasError(f"{where}: \"type\" is {str(kind)[:20]!r}; one of "
                          f"{', '.join(NODE_TYPES)}")
    for key in ("x", "y", "width", "height"):
        value = node.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise CanvasError(f"{where}: \"{key}\" must be an integer")
    if node["width"] <= 0 or node["height"] <= 0:
        raise CanvasError(f"{where}: \"width\" and \"height\" must be positive")
    _color(node, where)
    if kind == "text":
        _string(node, "text", where)
    elif kind == "file":
        _string(node, "file", where)
        why = check_vault_path(node["file"])
        if why:
            raise CanvasError(f"{where}: the file {node['file'][:80]!r} {why}")
        if "subpath" in node and not (isinstance(node["subpath"], str)
                                      and node["subpath"].startswith("#")):
            raise CanvasError(f"{where}: \"subpath\" must start with '#'")
    elif kind == "link":
        _string(node, "url", where)
    else:
        _string(node, "label", where, required=False)
        _string(node, "background", where, required=False)
        _choice(node, "backgroundStyle", BACKGROUND_STYLES, where)


def _edge(edge: object, i: int, ids: set[str], edge_ids: set[str]) -> None:
    where = _where("edge", i, edge if isinstance(edge, dict) else {})
    if not isinstance(edge, dict):
        raise CanvasError(f"{where}: an edge is an object")
    _string(edge, "id", where)
    if edge["id"] in edge_ids or edge["id"] in ids:
        raise CanvasError(f"{where}: the id is used by another node or edge")
    edge_ids.add(edge["id"])
    for key in ("fromNode", "toNode"):
        _string(edge, key, where)
        if edge[key] not in ids:
            raise CanvasError(f"{where}: \"{key}\" names {edge[key][:40]!r}, which is no node "
                              "of the canvas")
    for key in ("fromSide", "toSide"):
        _choice(edge, key, SIDES, where)
    for key in ("fromEnd", "toEnd"):
        _choice(edge, key, ENDS, where)
    _color(edge, where)
    _string(edge, "label", where, required=False)


def describe(canvas: Canvas, width: int = 72) -> list[str]:
    """The canvas as a person reads it in the terminal: its files, its claims, its relations."""
    names = {n["id"]: _name(n) for n in canvas.nodes}
    files = [n for n in canvas.nodes if n["type"] == "file"]
    texts = [n for n in canvas.nodes if n["type"] == "text"]
    others = [n for n in canvas.nodes if n["type"] in ("link", "group")]
    out = [f"Canvas: {len(canvas.nodes)} nodes, {len(canvas.edges)} edges"]
    if files:
        out.append("Files:")
        out += [_cut(f"  ▣ {n['file']}{n.get('subpath', '')}", width) for n in files]
    if texts:
        out.append("Claims:")
        out += [_cut(f"  ❝ {_one_line(n['text'])}", width) for n in texts]
    if others:
        out.append("Links and groups:")
        out += [_cut(f"  {names[n['id']]}", width) for n in others]
    if canvas.edges:
        out.append("Relations:")
        for e in canvas.edges:
            label = e.get("label") or ""
            arrow = f" —{label}→ " if label else " → "
            out.append(_cut(f"  {names[e['fromNode']]}{arrow}{names[e['toNode']]}", width))
    return out


def _name(node: dict) -> str:
    kind = node["type"]
    if kind == "file":
        return node["file"].rsplit("/", 1)[-1].removesuffix(".md")
    if kind == "text":
        return "❝" + _one_line(node["text"])[:40] + "❞"
    if kind == "link":
        return node["url"]
    return f"[group {node.get('label') or node['id']}]"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
