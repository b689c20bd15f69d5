"""The knowledge diff of a JSON Canvas file (`.canvas`): what a change takes from the board.

A canvas says things as a page does: its file nodes put pages on the board, its link nodes
point outside, its edges relate two nodes under a label ("built", "copied as K1"), its text
nodes hold sentences with figures, names and links. A change is read by that structure, never
by its JSON lines: a model that re-serialises the file (tabs for spaces, keys reordered) or
moves a node has changed nothing, while one that drops a file node, turns an edge round,
relabels it or changes a figure in a text node has — whatever the JSON looks like.

`items(text)` gives the canvas's meaning as a multiset (geometry and colours left out), which
the rewrite guard compares instead of lines; `canvas_findings(d, base, proposed)` fills a
knowledge diff's `PageDiff` (links, edges, claims). An unreadable canvas has no items (the form
check refuses a new one that is not JSON Canvas; a broken one on disk has nothing to lose).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from wiki_tui.changes.build.knowledge import claim_words as cw
from wiki_tui.changes.build.knowledge import text as kt



def _read(text: str | None) -> tuple[list[dict], list[dict]] | None:
    if not text:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    nodes = [n for n in data.get("nodes") or [] if isinstance(n, dict)]
    edges = [e for e in data.get("edges") or [] if isinstance(e, dict)]
    return nodes, edges


def _name(node: dict) -> str:
    """How the review names a node: its file, its URL, its label, or its text's start."""
    kind = node.get("type")
    if kind == "file":
        return str(node.get("file", ""))
    if kind == "link":
        return str(node.get("url", ""))
    if kind == "group":
        return f"group {node.get('label') or node.get('id')}"
    text = " ".join(str(node.get("text", "")).split())
    return f"“{text[:40]}{'…' if len(text) > 40 else ''}”"


def _meaning(node: dict) -> str:
    kind = node.get("type")
    what = {"file": "file", "link": "url", "group": "label", "text": "text"}.get(str(kind), "id")
    return f"{kind}:{node.get(what, '')}" + (f"#{node['subpath']}" if node.get("subpath") else "")


def _edges(nodes: list[dict], edges: list[dict]) -> Counter:
    """Edges by what they join and say: (from, label, to), nodes named by their meaning."""
    by_id = {str(n.get("id")): _name(n) for n in nodes}
    return Counter((by_id.get(str(e.get("fromNode")), "?"), " ".join(str(e.get("label") or "")
                                                                      .split()),
                    by_id.get(str(e.get("toNode")), "?")) for e in edges)


def items(text: str | None) -> Counter | None:
    """The canvas's meaning as a multiset: its nodes (what each shows) and its edges (what
    each joins and says); None when the text is not a canvas."""
    read = _read(text)
    if read is None:
        return None
    nodes, edges = read
    found = Counter(_meaning(n) for n in nodes)
    found.update(f"edge:{a} —{label}→ {b}" for (a, label, b) in _edges(nodes, edges).elements())
    return found


def rewritten_share(base: str, proposed: str) -> float | None:
    """The share of the base canvas's nodes and edges the change takes away (None: either side
    is not a canvas)."""
    then, now = items(base), items(proposed)
    if then is None or now is None:
        return None
    total = sum(then.values())
    return sum((then - now).values()) / total if total else 0.0


def canvas_findings(d: Any, base: str | None, proposed: str | None) -> None:
    """Fill `d` (a knowledge.PageDiff) with what a change of a canvas takes from the board."""
    old, new = _read(base), _read(proposed)
    if old is None or new is None:
        return  # created (nothing to lose), deleted (what links to it: the caller), or unreadable
    nodes_then, _edges_then = old
    nodes_now, _edges_now = new
    meaning_now = Counter(_meaning(n) for n in nodes_now)
    for node in nodes_then:
        key = _meaning(node)
        if meaning_now[key] > 0:
            meaning_now[key] -= 1
        elif node.get("type") in ("file", "link"):
            d.links_removed.append(f"{node['type']} node {_name(node)}")
    texts_then = "\n".join(str(n.get("text", "")) for n in nodes_then if n.get("type") == "text")
    texts_now = "\n".join(str(n.get("text", "")) for n in nodes_now if n.get("type") == "text")
    written = kt.LINKS_WRITTEN
    links = Counter(written.findall(texts_then)) - Counter(written.findall(texts_now))
    d.links_removed.extend(sorted(links.elements()))
    e_then, e_now = _edges(*old), _edges(*new)
    gone, came = e_then - e_now, e_now - e_then
    for edge in sorted(gone.elements()):  # the same two nodes, joined otherwise: turned round
        a, label, b = edge
        twin = next((t for t in sorted(came.elements()) if {t[0], t[2]} == {a, b}), None)
        if twin is not None:
            came[twin] -= 1
            gone[edge] -= 1
            d.polarity_changed.append(f"edge {a} —{label or '(no label)'}→ {b} now {twin[0]} "
                                      f"—{twin[1] or '(no label)'}→ {twin[2]}")
    d.edges_removed = [f"{a} —{label or '(no label)'}→ {b}"
                       for (a, label, b) in (+gone).elements()]
    figures_then = cw.figures(kt.link_shown(texts_then))
    figures_now = cw.figures(kt.link_shown(texts_now))
    lost, found = figures_then - figures_now, figures_now - figures_then
    if lost:
        d.figures_removed, d.figures_added = sorted(lost), sorted(found)
    old_lines = set(texts_then.splitlines())
    new_lines = set(texts_now.splitlines())
    gone_text = "\n".join(line for line in texts_then.splitlines() if line not in new_lines)
    came_text = "\n".join(line for line in texts_now.splitlines() if line not in old_lines)
    if cw.names_swapped(kt.link_shown(gone_text), kt.link_shown(came_text)):
        then, now = cw.names(kt.link_shown(gone_text)), cw.names(kt.link_shown(came_text))
        d.names_removed, d.names_added = sorted(then - now), sorted(now - then)
    d.polarity_changed.extend(f"“{a}” → “{b}”" for a, b in kt.polarity_flips(gone_text, came_text))
    d.prose_dropped = [f"“{line}”" for line in kt.dropped_lines(gone_text, "", texts_now)]
    d.rewritten = rewritten_share(base or "", proposed or "") or 0.0
