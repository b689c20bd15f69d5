"""The offline engine's answer in another form (`query --save --as FORM`), deterministically,
from the sentences the wiki's own search finds for the question (offline/rank.py) and the pages
the answer cites:

- table: one row per page involved, its key fact (the best sentence found on it) and the page
  cited;
- slides: a Marp deck, a title slide, one slide per best sentence (cited), a Sources slide;
- chart: a timeline of the years the found sentences give (each event cited by its page); with
  no year among them, a bar chart of how many found sentences each page holds;
- canvas: a file node per page involved, a text node per best sentence tied to its page
  ("says"), and the links between the pages ("links to").
"""

from __future__ import annotations

import json
import re
from typing import Any

from wiki_tui.agent.tasks.backlinks import blocks_as_text, link_name
from wiki_tui.agent.context.citations import citations
from wiki_tui.agent.offline.rank import best_sentences
from wiki_tui.agent.offline.sentences import plain
from wiki_tui.agent.offline.writing import NOTE, file_name, new_path, yaml_str
from wiki_tui.changes.reply.blocks import WRITE, Block

MAX_PAGES = 6
MAX_POINTS = 8  # slides, claims, events
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")


def form_reply(vault: Any, args: dict) -> str:
    form, question = args["form"], args["question"].strip()
    found = [r for r in best_sentences(vault, question, limit=12).sentences
             if r.path in vault.pages]
    cited = [p for p in citations(vault, args.get("answer", "")) if p in vault.pages]
    pages = list(dict.fromkeys([*cited, *(r.path for r in found)]))[:MAX_PAGES]
    if not pages:
        return (f"{NOTE} The wiki holds no page for this question, so there is nothing to "
                f"file as a {form}.\n")
    name = file_name(question, "Answer", 100)
    folder = vault.schema.types.get("answer", "answers")
    make = {"table": _table, "slides": _slides, "chart": _chart, "canvas": _canvas}[form]
    path, text = make(vault, question, name, folder, pages, found)
    return (f"{NOTE} Filed the answer as a {form}, `{path}`, from the sentences the wiki's "
            "search found.\n\n" + blocks_as_text([Block(WRITE, path, content=text)]))


def _link(vault: Any, path: str) -> str:
    return f"[[{link_name(vault, path)}]]"


def _front(vault: Any, name: str, question: str, pages: list[str], extra: str = "") -> str:
    sources = ", ".join(yaml_str(_link(vault, p)) for p in pages)
    return (f"---\ntitle: {yaml_str(name)}\ntype: answer\nsummary: "
            f"{yaml_str('Answer to: ' + question[:200])}\nsources: [{sources}]\n{extra}---\n")


def _fact(found: list, path: str, vault: Any) -> str:
    best = next((r for r in found if r.path == path), None)
    if best is not None:
        return plain(best.sentence.text)
    summary = getattr(vault.pages[path], "summary", "") or ""
    return " ".join(str(summary).split())


def _table(vault, question, name, folder, pages, found):
    rows = []
    for path in pages:
        title = vault.pages[path].title or path.rsplit("/", 1)[-1][:-3]
        fact = _fact(found, path, vault).replace("|", "\\|") or "(no sentence found)"
        link = f"[[{link_name(vault, path)}\\|{title.replace('|', ' ')}]]"
        rows.append(f"| {title.replace('|', ' ')} | {fact} | {link} |")
    text = (_front(vault, name, question, pages) + f"# {name}\n\n**Question:** {question}\n\n"
            "The pages that bear on the question, each with its key fact (the wiki's own "
            "sentence that best answers it).\n\n| Page | Key fact | Sources |\n|---|---|---|\n"
            + "\n".join(rows) + f"\n\n{NOTE}\n")
    return new_path(vault, folder, name), text


def _slides(vault, question, name, folder, pages, found):
    deck = [f"# {name}\n\n{question}"]
    for r in found[:MAX_POINTS]:
        deck.append(f"## {r.title}\n\n- {plain(r.sentence.text)} ({_link(vault, r.path)})")
    if len(deck) == 1:
        deck += [f"## {vault.pages[p].title or p}\n\n- {_fact(found, p, vault)} "
                 f"({_link(vault, p)})" for p in pages]
    deck.append("## Sources\n\n" + "\n".join(f"- {_link(vault, p)}" for p in pages)
                + f"\n\n{NOTE}")
    text = _front(vault, name, question, pages, "marp: true\n") + "\n\n---\n\n".join(deck) + "\n"
    return new_path(vault, folder, name), text


def _chart(vault, question, name, folder, pages, found):
    events = []
    for r in found:
        sentence = plain(r.sentence.text)
        for year in dict.fromkeys(_YEAR.findall(sentence)):
            label = sentence if len(sentence) <= 60 else sentence[:59].rstrip() + "…"
            events.append((int(year), label, r.path))
    events = sorted(dict.fromkeys(events))[:MAX_POINTS]
    if events:
        by_page = {}
        for year, label, path in events:
            by_page.setdefault(path, []).append((year, label))
        series = "\n".join(
            f"  - name: {json.dumps(vault.pages[p].title or p, ensure_ascii=False)}\n"
            f"    pages: [{json.dumps(_link(vault, p), ensure_ascii=False)}]\n"
            f"    data: {json.dumps([[y, lab] for y, lab in points], ensure_ascii=False)}"
            for p, points in by_page.items())
        spec = f"kind: timeline\ntitle: {json.dumps(name, ensure_ascii=False)}\nx: Year\n"
        what = "the years the wiki's sentences for the question give, each from its page"
    else:
        counts = [(vault.pages[p].title or p, sum(1 for r in found if r.path == p)) for p in pages]
        series = (f"  - name: Sentences found\n    pages: "
                  f"{json.dumps([_link(vault, p) for p in pages], ensure_ascii=False)}\n"
                  f"    data: {json.dumps([[t, n] for t, n in counts], ensure_ascii=False)}")
        spec = (f"kind: bar\ntitle: {json.dumps(name, ensure_ascii=False)}\n"
                "y: Sentences found\n")
        what = "how many of the wiki's sentences for the question each page holds (no year"
        what += " among them for a timeline)"
    cited = ", ".join(_link(vault, p) for p in pages)
    text = (_front(vault, name, question, pages) + f"# {name}\n\n**Question:** {question}\n\n"
            f"```chart\n{spec}series:\n{series}\n```\n\nThe chart shows {what}: {cited}.\n\n"
            f"{NOTE}\n")
    return new_path(vault, folder, name), text


def _canvas(vault, question, name, folder, pages, found):
    nodes, edges = [], []
    ids = {p: f"page-{i}" for i, p in enumerate(pages, 1)}
    for i, path in enumerate(pages):
        nodes.append({"id": ids[path], "type": "file", "file": path,
                      "x": (i % 3) * 460, "y": (i // 3) * 560, "width": 400, "height": 240})
    claims = [r for r in found if r.path in ids][:MAX_POINTS]
    for i, r in enumerate(claims, 1):
        node = f"claim-{i}"
        nodes.append({"id": node, "type": "text",
                      "text": f"{plain(r.sentence.text)} ({_link(vault, r.path)})",
                      "x": ((i - 1) % 3) * 460, "y": 1200 + ((i - 1) // 3) * 260,
                      "width": 400, "height": 200})
        edges.append({"id": f"says-{i}", "fromNode": ids[r.path], "toNode": node,
                      "label": "says"})
    for source in pages:
        for _raw, target, _alias in vault.outgoing(source):
            if target in ids and target != source:
                edge = f"link-{len(edges) + 1}"
                if not any(e["fromNode"] == ids[source] and e["toNode"] == ids[target]
                           for e in edges):
                    edges.append({"id": edge, "fromNode": ids[source], "toNode": ids[target],
                                  "label": "links to"})
    path = new_path(vault, folder, name)[:-3] + ".canvas"
    n = 2
    while (vault.root / path).exists():
        path = f"{folder}/{name} ({n}).canvas"
        n += 1
    return path, json.dumps({"nodes": nodes, "edges": edges}, indent="\t",
                            ensure_ascii=False) + "\n"
