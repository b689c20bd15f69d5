"""The offline ingest: a source's bookkeeping done without a language model.

    reply = ingest(vault, {"source": "raw/x.md", "text": converted_text}, progress)

One reply in the edit protocol, which the person reviews like a model's:
- the **source page**: title (the document's own: frontmatter, first heading, a PDF's or DOCX's
  title metadata, a title line; the file name last), summary from its lead, key points (a
  section's or paragraph's first sentence, a PDF page's), its tables kept, its images embedded,
  the pages it mentions and the names it gives linked;
- a **page for each name it gives** (offline/entities.py: people, places, works, institutions,
  defined terms), holding the source's sentences about it, citing the source page;
- on each **existing page it mentions** (offline/updates.py): the source added to `sources:`,
  and one cited line, the source's sentence about it, under "## From the sources".
It never reads for meaning: it says so, and leaves contradictions to the person.
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

from wiki_tui.agent.tasks.backlinks import blocks_as_text, link_name, name_counts
from wiki_tui.agent.convert import source_title
from wiki_tui.agent.convert.pdf import PAGE_MARK
from wiki_tui.agent.offline.entities import Name, find_names
from wiki_tui.agent.offline.mentions import link_first_mentions, mentioned_pages
from wiki_tui.agent.offline.sentences import plain, split_sentences
from wiki_tui.agent.offline.updates import update_block
from wiki_tui.agent.offline.writing import NOTE, file_name, frontmatter, new_path, yaml_str
from wiki_tui.agent.context.pageinfo import page_infos
from wiki_tui.changes.reply.blocks import WRITE, Block

MAX_UPDATES = 25  # existing pages one ingest updates
_MAX_KEY_POINTS = 30  # sections (or pages) summarised on a source page
_MAX_TABLES, _MAX_ROWS = 3, 25  # tables kept on the source page, rows of each
_MAX_QUOTES = 6  # sentences quoted on a name's page
_KIND_TAGS = {"person": "person", "place": "place", "institution": "institution",
              "work": "work", "ship": "ship"}


def ingest(vault: Any, args: dict, progress: Any) -> str:
    source = args["source"]
    text = args.get("text") or vault.read_text(source)  # converted, for a PDF or a web page
    if args.get("part_number", 1) > 1:  # the whole source was handled with part 1
        return f"{NOTE} Part {args['part_number']} was covered with the first part.\n"
    progress("reading the vault's page names", 1, 4)
    title = source_title(text, source)
    infos = list(page_infos(vault))  # one pass over the records serves every question below
    counts = name_counts(vault)
    existing = _existing_source_page(infos, source)
    page_path = existing or new_path(vault, vault.schema.types.get("source", "sources"),
                                     file_name(title, "Source"))
    progress("finding the pages and names the source mentions", 2, 4)
    mentioned = mentioned_pages(vault, text, exclude={page_path}, infos=infos)
    cite = f"[[{link_name(vault, page_path, counts)}]]"
    names = [] if existing else find_names(text, _known_names(infos), title)
    new_pages = _name_paths(vault, names, {page_path})
    progress("writing the pages", 3, 4)
    links = [(_page_names(vault, p), link_name(vault, p, counts)) for p in mentioned[:MAX_UPDATES]]
    links += [([n.name], _link_target(path)) for n, path in new_pages]
    blocks = []
    if existing is None:  # a page written earlier (by a model, or by hand) is never replaced
        page = _source_page(vault, source, title, text, mentioned, counts, links, new_pages,
                            args.get("images") or [])
        blocks.append(Block(WRITE, page_path, content=page))
        for name, path in new_pages:
            blocks.append(Block(WRITE, path, content=_name_page(vault, name, cite, links, path)))
    updated = []
    for path in mentioned[:MAX_UPDATES]:
        edit = update_block(vault, path, cite, text, _page_names(vault, path))
        if edit is not None:
            blocks.append(edit)
            updated.append(path)
    progress("done", 4, 4)
    if existing is None:
        did = (f"Wrote a source page for `{source}` (title, lead, key points), "
               f"{len(new_pages)} page(s) for the names it gives "
               f"({', '.join(n.name for n, _p in new_pages) or 'none found'}), and a cited line "
               f"on {len(updated)} of the {len(mentioned)} existing page(s) it mentions")
    else:
        did = (f"`{source}` already has its source page, `{existing}`, which is left as it "
               f"is; {len(updated)} of the {len(mentioned)} existing page(s) it mentions get "
               "the source")
    prose = (f"{NOTE} {did}. It does not read for meaning: check the pages, and flag "
             "contradictions yourself.\n\n")
    return prose + blocks_as_text(blocks)


def _existing_source_page(infos: list, source: str) -> str | None:
    for info in infos:
        if info.type == "source" and source in info.sources:
            return info.path
    return None


def _known_names(infos: list) -> set[str]:
    known = set()
    for info in infos:
        for name in (info.name, info.title, *info.aliases):
            if name:
                known.add(" ".join(str(name).split()).casefold())
    return known


def _page_names(vault: Any, path: str) -> list[str]:
    page = vault.pages[path]
    names = {page.title, page.name, *map(str, page.aliases or [])}
    return sorted((n for n in names if n and (len(n) >= 3 or any(c.isdigit() for c in n))),
                  key=len, reverse=True)


def _name_paths(vault: Any, names: list[Name], taken: set[str]) -> list[tuple[Name, str]]:
    out = []
    for name in names:
        kind = "concept" if name.kind == "concept" else "entity"
        folder = vault.schema.types.get(kind, "concepts" if kind == "concept" else "entities")
        path = f"{folder}/{file_name(name.name, '')}.md"
        if not file_name(name.name, "") or path in taken or path in vault.pages \
                or (vault.root / path).exists():
            continue  # never replace a page: a name already filed is no new page
        taken = taken | {path}
        out.append((name, path))
    return out


def _link_target(path: str) -> str:
    return path.rsplit("/", 1)[-1][:-3]


# -- the source page ---------------------------------------------------------------------------
def _sections(text: str, title: str = "") -> tuple[str, list[tuple[str, str]]]:
    """(lead text, [(heading, section text)]) of a markdown or plain-text source: the lead is
    what comes before the first heading below the title (a title line is no lead)."""
    body = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    lead: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    titled = False
    for line in body.splitlines():
        if not titled and not lead and not sections and line.strip() \
                and line.strip().casefold() == title.casefold():
            titled = True  # a plain-text title line
            continue
        m = re.match(r"^(#{1,6})\s+(.+?)\s*#*\s*$", line)
        if m:
            if len(m.group(1)) == 1 and not titled and not sections:
                titled = True  # the title: what follows is still the lead
                continue
            sections.append((m.group(2), []))
            continue
        (sections[-1][1] if sections else lead).append(line)
    return "\n".join(lead), [(h, "\n".join(lines)) for h, lines in sections]


def _paragraphs(text: str) -> list[str]:
    out = []
    for para in re.split(r"\n\s*\n", text):
        para = " ".join(line.strip() for line in para.splitlines()).strip()
        if not para or para.startswith(("|", "```", "<", "![", "- ", "* ", "#")):
            continue
        if PAGE_MARK.fullmatch(para):  # a PDF's page mark: no sentence
            continue
        if re.fullmatch(r"[*_].*[*_]", para):  # an italic line: a byline or a note
            continue
        if len(para.split()) < 4 and not para.endswith((".", "!", "?")):
            continue  # a title line or a label, not a sentence
        out.append(para)
    return out


def lead_sentences(text: str, count: int = 2) -> str:
    for para in _paragraphs(text):
        return " ".join(split_sentences(para)[:count]).strip()
    return ""


def _pages(text: str) -> list[tuple[str, str]]:
    """A converted PDF's [(page label, page text)]; [] for a source without page marks."""
    pieces = PAGE_MARK.split(text)
    return [(pieces[i], pieces[i + 1]) for i in range(1, len(pieces) - 1, 2)]


def _cited(sentences: str, label: str) -> str:
    return f"{sentences} (p. {label})" if sentences else ""


def _tables(text: str) -> list[str]:
    """The source's markdown tables (a CSV is one), the first rows of each."""
    out = []
    for m in re.finditer(r"(?m)(?:^\|.*\|[ \t]*\n?){2,}", text):
        rows = m.group(0).rstrip("\n").splitlines()
        kept = rows[:_MAX_ROWS + 2]
        if len(rows) > len(kept):
            kept.append(f"\n_… {len(rows) - len(kept)} more rows in the source._")
        out.append("\n".join(kept))
        if len(out) == _MAX_TABLES:
            break
    return out


def _key_points(text: str, lead: str, sections: list[tuple[str, str]]) -> list[str]:
    if sections:
        points = []
        for heading, body in sections[:_MAX_KEY_POINTS]:
            sentence = lead_sentences(body, 1) or _first_item(body)
            points.append(f"**{heading}**" + (f": {sentence}" if sentence else ""))
        if len(sections) > _MAX_KEY_POINTS:
            points.append(f"… {len(sections) - _MAX_KEY_POINTS} more sections in the source")
        return points
    # no headings: the first sentence of each paragraph after the lead's, a run-in label
    # ("Results. The Arnold watches ...") in bold
    points = []
    for paragraph in _paragraphs(lead or text)[1:_MAX_KEY_POINTS + 1]:
        parts = split_sentences(paragraph)
        label = ""
        if len(parts) > 1 and len(parts[0].split()) <= 3 and parts[0].endswith("."):
            label, parts = f"**{parts[0][:-1]}**: ", parts[1:]
        if parts:
            points.append(label + parts[0])
    return points


def _first_item(text: str) -> str:
    m = re.search(r"(?m)^\s*(?:[-*+]|\d+[.)])\s+(.+)$", text)
    return m.group(1).strip() if m else ""


def _title_line(text: str, title: str) -> str:
    """The source's first line when it is the title written out (any case), else ""."""
    for line in text.splitlines()[:5]:
        if line.strip():
            return line.strip() if line.strip().casefold() == title.casefold() else ""
    return ""


def _source_page(vault: Any, source: str, title: str, text: str, mentioned: list[str],
                 counts: dict[str, int], links: list, new_pages: list,
                 images: list[str] = ()) -> str:
    lead, sections = _sections(text, _title_line(text, title))
    pages = _pages(text)
    label = ""
    if pages:  # a PDF: the summary cites its page, the key points are its pages'
        label, lead = next(((n, body) for n, body in pages if lead_sentences(body)), pages[0])
        sections = []
    summary = re.sub(r"\s+", " ", plain(lead_sentences(lead or text, 1) or title))[:240]
    fields = {"title": yaml_str(title), "type": "source", "summary": yaml_str(summary),
              "aliases": "[]", "tags": "[source]", "sources": f"[{source}]",
              "ingested": _dt.date.today().isoformat()}
    lines = [frontmatter(vault, fields), f"# {title}", "", f"Source file: `{source}`.", "",
             NOTE, "", "## Summary", "",
             (_cited(lead_sentences(lead, 3), label) if pages else lead_sentences(lead or text, 3))
             or "(the source has no lead paragraph)"]
    if pages:
        points = [f"{s} (p. {n})" for n, s in ((n, lead_sentences(b, 1)) for n, b in pages) if s]
        if len(points) > _MAX_KEY_POINTS:
            points = points[:_MAX_KEY_POINTS] + [
                f"… {len(points) - _MAX_KEY_POINTS} more pages in the source"]
    else:
        points = _key_points(text, lead, sections)
    if points:
        lines += ["", "## Key points", "", *(f"- {p}" for p in points)]
    tables = _tables(text)
    if tables:
        lines += ["", "## Tables", ""]
        for table in tables:
            lines += [table, ""]
        lines.pop()
    body_from = lines.index("## Summary")
    lines[body_from:] = link_first_mentions(lines[body_from:], links)
    if images:  # embedded where they are, never copied
        lines += ["", "## Images", "", *(f"![[{p}]]" for p in images)]
    if new_pages:
        lines += ["", "## Names in this source", ""]
        lines += [f"- [[{_link_target(p)}]]" + (f" ({n.kind})" if n.kind in _KIND_TAGS
                                                   or n.kind == "concept" else "")
                  for n, p in new_pages]
    if mentioned:
        lines += ["", "## Pages this source mentions", ""]
        lines += [f"- [[{link_name(vault, p, counts)}]]" for p in mentioned]
    return "\n".join(lines) + "\n"


# -- a page for each name ----------------------------------------------------------------------
def _name_page(vault: Any, name: Name, cite: str, links: list, path: str) -> str:
    quotes = [plain_line(s.text) for s in name.sentences[:_MAX_QUOTES]]
    first = next((plain(s.text) for s in name.sentences if name.name in plain(s.text)), "")
    summary = plain(name.definition) if name.definition else (first or name.name)
    if len(summary) > 240:
        summary = summary[:summary.rfind(" ", 0, 237)] + " …"
    tag = _KIND_TAGS.get(name.kind)
    fields = {"title": yaml_str(name.name),
              "type": "concept" if name.kind == "concept" else "entity",
              "summary": yaml_str(summary), "aliases": "[]",
              "tags": f"[{tag}]" if tag else "[]", "sources": f"[{yaml_str(cite)}]"}
    others = [(names, target) for names, target in links if target != _link_target(path)]
    body = link_first_mentions([f"- {q} ({cite})" for q in quotes], others)
    lines = [frontmatter(vault, fields), f"# {name.name}", "", NOTE, "",
             f"## In {cite}", "", *body]
    return "\n".join(lines) + "\n"


def plain_line(text: str) -> str:
    """A sentence of the source on one line, its links kept."""
    return " ".join(text.split())
