"""The offline engine's replies: deterministic text in the edit protocol, built from the vault.

It is no language model and says so in every reply. What it can do honestly:
- ingest: a source summary page from the source's title, headings and lead sentences; links to
  the existing pages whose titles or aliases the source mentions; the source added to those
  pages' `sources` frontmatter;
- query: the best-matching passages (BM25, the vault's search) quoted with [[Page]] citations;
- save: the answer filed as a page;
- lint: mechanical fixes for structural findings (a broken link -> the suggested target);
- instruct: "rename PAGE to NAME" and "merge PAGE into PAGE" (backlinks follow).
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

from wiki_tui.agent.backlinks import (
    SPECIAL_FILES, blocks_as_text, link_name, name_counts, rewrite_blocks,
)
from wiki_tui.agent.config import OFFLINE_LABEL
from wiki_tui.agent.convert.pdf import PAGE_MARK
from wiki_tui.agent.instructions import merge_parts, rename_parts
from wiki_tui.agent.pageinfo import page_infos
from wiki_tui.changes.reply.blocks import DELETE, EDIT, RENAME, WRITE, Block

NOTE = f"_({OFFLINE_LABEL}.)_"
_MAX_UPDATES = 25  # pages whose `sources` an ingest extends
_MAX_NAME_WORDS = 6
_MAX_KEY_POINTS = 30  # headings summarised on a source page
_TYPO_SIMILARITY = 0.85  # a broken link is re-pointed only when the suggestion looks like a typo fix
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_BAD_NAME = re.compile(r'[\\/#|^\[\]:*?"<>]')


def respond(task: Any, messages: list) -> str:
    if task is None:
        return (f"{OFFLINE_LABEL}: it answers wiki-tui's own operations only, and this call "
                "carried no task.\n")
    handler = {"ingest": _ingest, "query": _query, "save": _save, "lint": _lint,
               "instruct": _instruct}.get(task.operation)
    if handler is None:
        return f"{OFFLINE_LABEL}: nothing to do for {task.operation!r}.\n"
    return handler(task.vault, task.args)


# -- ingest -----------------------------------------------------------------------------------
def _ingest(vault: Any, args: dict) -> str:
    from wiki_tui.agent.operations import source_title

    source = args["source"]
    text = args.get("text") or vault.read_text(source)  # converted, for a PDF or a web page
    if args.get("part_number", 1) > 1:  # the whole source was handled with part 1
        return f"{NOTE} Part {args['part_number']} was covered with the first part.\n"
    title = source_title(text, source)
    infos = list(page_infos(vault))  # one pass over the records serves every question below
    counts = name_counts(vault)
    existing = _existing_source_page(infos, source)
    page_path = existing or _source_page_path(vault, title)
    mentioned = mentioned_pages(vault, text, exclude={page_path}, infos=infos)
    blocks = []
    if existing is None:  # a page written earlier (by a model, or by hand) is never replaced
        page = _source_page(vault, source, title, text, mentioned, counts,
                            args.get("images") or [])
        blocks.append(Block(WRITE, page_path, content=page))
    cite = f"[[{link_name(vault, page_path, counts)}]]"
    updated = []
    for path in mentioned[:_MAX_UPDATES]:
        edit = _add_source_edit(vault, path, cite)
        if edit is not None:
            blocks.append(edit)
            updated.append(path)
    if existing is None:
        did = (f"Wrote a source summary page for `{source}` from its title, headings and lead "
               f"sentences; it links {len(mentioned)} existing page(s) the source mentions")
    else:
        did = (f"`{source}` already has its source page, `{existing}`, which is left as it "
               f"is; the source mentions {len(mentioned)} existing page(s)")
    prose = (f"{NOTE} {did}, and the source is added to the `sources` of {len(updated)} of "
             "them. It does not read for meaning: check the summary, and flag contradictions "
             "yourself.\n\n")
    return prose + blocks_as_text(blocks)


def _existing_source_page(infos: list, source: str) -> str | None:
    for info in infos:
        if info.type == "source" and source in info.sources:
            return info.path
    return None


def _source_page_path(vault: Any, title: str) -> str:
    folder = vault.schema.types.get("source", "sources")
    name = _BAD_NAME.sub(" ", title).strip(" .")
    name = re.sub(r"\s+", " ", name)[:120].strip(" .") or "Source"
    path = f"{folder}/{name}.md"
    n = 2
    while path in vault.pages or (vault.root / path).exists():
        path = f"{folder}/{name} ({n}).md"
        n += 1
    return path


def _sections(text: str) -> tuple[str, list[tuple[str, str]]]:
    """(lead paragraph text, [(heading, section text)]) of a markdown or plain-text source."""
    body = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    lead: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    for line in body.splitlines():
        m = re.match(r"^(#{1,6})\s+(.+?)\s*#*\s*$", line)
        if m:
            if len(m.group(1)) > 1:
                sections.append((m.group(2), []))
            continue
        (sections[-1][1] if sections else lead).append(line)
    return "\n".join(lead), [(h, "\n".join(lines)) for h, lines in sections]


def _paragraphs(text: str) -> list[str]:
    out = []
    for para in re.split(r"\n\s*\n", text):
        para = " ".join(line.strip() for line in para.splitlines()).strip()
        if not para or para.startswith(("|", "```", "<", "![", "- ", "* ")):
            continue
        if PAGE_MARK.fullmatch(para):  # a PDF's page mark: no sentence
            continue
        if re.fullmatch(r"[*_].*[*_]", para):  # an italic line: a byline or a note
            continue
        out.append(para)
    return out


def lead_sentences(text: str, count: int = 2) -> str:
    for para in _paragraphs(text):
        sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z\"'(\[])", para)
        return " ".join(sentences[:count]).strip()
    return ""


def _yaml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _pages(text: str) -> list[tuple[str, str]]:
    """A converted PDF's [(page label, page text)]; [] for a source without page marks."""
    pieces = PAGE_MARK.split(text)
    return [(pieces[i], pieces[i + 1]) for i in range(1, len(pieces) - 1, 2)]


def _cited(sentences: str, label: str) -> str:
    return f"{sentences} (p. {label})" if sentences else ""


def _source_page(vault: Any, source: str, title: str, text: str, mentioned: list[str],
                 counts: dict[str, int], images: list[str] = ()) -> str:
    lead, sections = _sections(text)
    pages = _pages(text)
    if pages:  # a PDF: the summary cites its page, the key points are its pages'
        label, lead = next(((n, body) for n, body in pages if lead_sentences(body)), pages[0])
        sections = []
    summary = lead_sentences(lead or text, 1) or title
    summary = re.sub(r"\s+", " ", summary)[:240]
    fields = {"title": _yaml_str(title), "type": "source", "summary": _yaml_str(summary),
              "aliases": "[]", "tags": "[source]", "sources": f"[{source}]",
              "ingested": _dt.date.today().isoformat()}
    for name in vault.schema.required_fields:
        fields.setdefault(name, '""')
    front = "\n".join(f"{k}: {v}" for k, v in fields.items())
    lines = [f"---\n{front}\n---", f"# {title}", "",
             f"Source file: `{source}`.", "", NOTE, "", "## Summary", "",
             (_cited(lead_sentences(lead, 3), label) if pages else lead_sentences(lead or text, 3))
             or "(the source has no lead paragraph)"]
    key_pages = [(n, lead_sentences(body, 1)) for n, body in pages]
    key_pages = [(n, sentence) for n, sentence in key_pages if sentence]
    if key_pages:
        lines += ["", "## Key points", ""]
        lines += [f"- {sentence} (p. {n})" for n, sentence in key_pages[:_MAX_KEY_POINTS]]
        if len(key_pages) > _MAX_KEY_POINTS:
            lines.append(f"- … {len(key_pages) - _MAX_KEY_POINTS} more pages in the source")
    if sections:
        lines += ["", "## Key points", ""]
        for heading, body in sections[:_MAX_KEY_POINTS]:
            sentence = lead_sentences(body, 1)
            lines.append(f"- **{heading}**" + (f": {sentence}" if sentence else ""))
        if len(sections) > _MAX_KEY_POINTS:
            lines.append(f"- … {len(sections) - _MAX_KEY_POINTS} more sections in the source")
    body_from = lines.index("## Summary")
    lines[body_from:] = link_first_mentions(vault, lines[body_from:], mentioned, counts)
    if images:  # embedded where they are, never copied
        lines += ["", "## Images", "", *(f"![[{p}]]" for p in images)]
    if mentioned:
        lines += ["", "## Pages this source mentions", ""]
        lines += [f"- [[{link_name(vault, p, counts)}]]" for p in mentioned]
    return "\n".join(lines) + "\n"


def link_first_mentions(vault: Any, lines: list[str], paths: list[str],
                        counts: dict[str, int]) -> list[str]:
    """Turn the first mention of each page (title, file name or alias, as written) into a
    link, outside existing links and code spans."""
    out = list(lines)
    for path in paths[:_MAX_UPDATES]:
        page = vault.pages[path]
        names = sorted({page.title, page.name, *map(str, page.aliases or [])}, key=len,
                       reverse=True)
        names = [n for n in names if len(n) >= 3 or any(c.isdigit() for c in n)]
        target = link_name(vault, path, counts)
        done = False
        for i, line in enumerate(out):
            for name in names:
                for m in re.finditer(rf"(?<![\w\[|/]){re.escape(name)}(?![\w\]|])", line, re.I):
                    before = line[:m.start()]
                    if before.count("[[") > before.count("]]") or before.count("`") % 2:
                        continue  # inside a link or a code span
                    shown = m.group(0)
                    link = f"[[{target}]]" if shown == target else f"[[{target}|{shown}]]"
                    out[i] = before + link + line[m.end():]
                    done = True
                    break
                if done:
                    break
            if done:
                break
    return out


def mentioned_pages(vault: Any, text: str, exclude: set[str] = frozenset(),
                    infos: list | None = None) -> list[str]:
    """Existing pages whose title, file name or an alias occurs in `text`, most mentioned first.

    Word n-grams of the text are looked up in a name table: linear in the text, whatever the
    number of pages."""
    names: dict[str, set[str]] = {}
    for page in infos if infos is not None else page_infos(vault):
        path = page.path
        if path in exclude or path in SPECIAL_FILES or page.type == "source":
            continue
        for name in {page.name, page.title, *map(str, page.aliases)}:
            key = " ".join(w.casefold() for w in _WORD.findall(name or ""))
            if len(key) < 3 and not (len(key) == 2 and any(c.isdigit() for c in key)):
                continue  # "H4" is a name; "of" is not
            words = key.count(" ") + 1
            if words > _MAX_NAME_WORDS:
                continue
            names.setdefault(key, set()).add(path)
    reach: dict[str, int] = {}  # first word of a name -> most words a name starting so has
    for key in names:
        first, _, rest = key.partition(" ")
        reach[first] = max(reach.get(first, 0), rest.count(" ") + 2 if rest else 1)
    words = [w.casefold() for w in _WORD.findall(text)]
    counts: dict[str, int] = {}
    for i, word in enumerate(words):
        for n in range(1, reach.get(word, 0) + 1):
            if i + n > len(words):
                break
            key = " ".join(words[i:i + n]) if n > 1 else word
            paths = names.get(key)
            if paths and len(paths) == 1:  # an ambiguous name links nothing
                path = next(iter(paths))
                counts[path] = counts.get(path, 0) + 1
    return sorted(counts, key=lambda p: (-counts[p], p))


def _add_source_edit(vault: Any, path: str, cite: str) -> Block | None:
    """An EDIT adding `cite` to the page's `sources` frontmatter (None: already there/no YAML)."""
    text = vault.read_text(path)
    if not text.startswith("---"):
        return None
    end = text.find("\n---", 3)
    if end < 0:
        return None
    front = text[:end + 1].splitlines(keepends=True)
    if cite in "".join(front):
        return None
    quoted = _yaml_str(cite)
    for i, line in enumerate(front):
        m = re.match(r"^sources:\s*(.*?)\s*$", line)
        if not m:
            continue
        value = m.group(1)
        block_list = i + 1 < len(front) and front[i + 1].lstrip().startswith("- ")
        if value in ("", "null", "~") and block_list:
            j = i + 1
            while j + 1 < len(front) and front[j + 1].lstrip().startswith("- "):
                j += 1
            indent = front[j][:len(front[j]) - len(front[j].lstrip())]
            return Block(EDIT, path, edits=[(front[j], front[j] + f"{indent}- {quoted}\n")])
        if value in ("", "[]", "null", "~"):
            return Block(EDIT, path, edits=[(line, f"sources: [{quoted}]\n")])
        if value.startswith("[") and value.endswith("]"):
            inner = value[1:-1].strip()
            new = f"sources: [{inner}, {quoted}]\n" if inner else f"sources: [{quoted}]\n"
            return Block(EDIT, path, edits=[(line, new)])
        return None  # a form we do not rewrite mechanically
    last = front[-1]
    return Block(EDIT, path, edits=[(last, last + f"sources: [{quoted}]\n")])


# -- query and save ---------------------------------------------------------------------------
def _query(vault: Any, args: dict) -> str:
    from wiki_tui.agent.prompts import search_terms

    question = args["question"]
    terms = search_terms(question, limit=12)
    # index.md, log.md and AGENTS.md restate pages; answers quote the pages themselves
    hits = [hit for hit in (vault.search(terms, limit=10) if terms else [])
            if hit.path not in SPECIAL_FILES][:5]
    if not hits:
        return (f"The wiki does not hold an answer to this question: no page matches its words. "
                f"{NOTE}\n")
    out = [f"{NOTE} These are the passages that best match the question (BM25 search); read "
           "them for the answer:", ""]
    for hit in hits:
        passage = _passage(vault, hit.path, hit.line) or hit.snippet
        quote = "\n".join(f"> {line}" for line in passage.splitlines())
        out += [quote, f"> — [[{link_name(vault, hit.path)}]]", ""]
    return "\n".join(out)


def _passage(vault: Any, path: str, line: int) -> str:
    try:
        lines = vault.read_text(path).splitlines()
    except Exception:
        return ""
    if not 1 <= line <= len(lines):
        return ""
    start = end = line - 1
    while start > 0 and lines[start - 1].strip() and not lines[start - 1].startswith(("#", "---")):
        start -= 1
    while end + 1 < len(lines) and lines[end + 1].strip():
        end += 1
    return "\n".join(lines[start:end + 1][:8]).strip()


def _save(vault: Any, args: dict) -> str:
    question, answer = args["question"].strip(), args["answer"].strip()
    folder = vault.schema.types.get("answer", "answers")
    name = _BAD_NAME.sub(" ", question).strip(" .?!")
    name = re.sub(r"\s+", " ", name)[:100].strip(" .") or "Answer"
    path = f"{folder}/{name}.md"
    n = 2
    while path in vault.pages:
        path = f"{folder}/{name} ({n}).md"
        n += 1
    from wiki_tui.agent.operations import citations

    cited = [p for p in citations(vault, answer) if p in vault.pages]
    sources = ", ".join(_yaml_str(f"[[{link_name(vault, p)}]]") for p in cited)
    page = (f"---\ntitle: {_yaml_str(name)}\ntype: answer\nsummary: "
            f"{_yaml_str('Answer to: ' + question[:200])}\naliases: []\ntags: [answer]\n"
            f"sources: [{sources}]\n---\n# {name}\n\n**Question:** {question}\n\n{answer}\n")
    return f"{NOTE} Filed the answer as `{path}`.\n\n" + blocks_as_text(
        [Block(WRITE, path, content=page)])


# -- lint -------------------------------------------------------------------------------------
def _lint(vault: Any, args: dict) -> str:
    if not args.get("fix", True):
        return f"{NOTE} Only structural checks; no model-checked findings.\n"
    fixes: dict[str, dict[int, list[tuple[str, str]]]] = {}
    for item in args.get("findings", []):
        new = _link_fix(item)
        if new is None or item.path not in vault.pages:
            continue
        fixes.setdefault(item.path, {}).setdefault(item.line, []).append(new)
    blocks = []
    for path, lines in sorted(fixes.items()):
        text_lines = vault.read_text(path).splitlines(keepends=True)
        edits = []
        for number, pairs in sorted(lines.items()):
            if not 1 <= number <= len(text_lines):
                continue
            old = text_lines[number - 1]
            new = old
            for a, b in pairs:
                new = new.replace(a, b, 1)
            if new != old:
                edits.append((old, new))
        if edits:
            blocks.append(Block(EDIT, path, edits=edits))
    prose = (f"{NOTE} Structural checks only; {len(blocks)} page(s) get mechanical fixes "
             "(links pointed at the page the check suggests). Contradictions and superseded "
             "claims need a language model.\n\n")
    return prose + blocks_as_text(blocks)


def _similarity(old_link: str, new_link: str) -> float:
    """How alike two link targets' names are (0..1), ignoring folders and display text."""
    from difflib import SequenceMatcher

    def name(link: str) -> str:
        return link.lstrip("!")[2:-2].split("|", 1)[0].split("#", 1)[0].rsplit("/", 1)[-1]

    return SequenceMatcher(None, name(old_link).casefold(), name(new_link).casefold()).ratio()


def _link_fix(item: Any) -> tuple[str, str] | None:
    """(old link, new link) for a finding whose suggestion is a link, keeping the shown text."""
    suggestion = str(item.suggestion or "")
    m = re.match(r"\s*(!?\[\[[^\]]+\]\])", item.message)
    if not item.line or not m or not suggestion.startswith("[["):
        return None
    old = m.group(1)
    if item.code == "broken-link" and _similarity(old, suggestion) < _TYPO_SIMILARITY:
        return None  # a different page, not a typo: the person decides (or writes the page)
    if "|" not in suggestion and "|" not in old:
        shown = old.lstrip("!")[2:-2].split("#", 1)[0]
        suggestion = suggestion[:-2] + f"|{shown}]]"
    return old, suggestion


# -- instruct ---------------------------------------------------------------------------------
def _instruct(vault: Any, args: dict) -> str:
    instruction = args["instruction"]
    parts = rename_parts(instruction)
    if parts:
        return _rename(vault, *parts)
    parts = merge_parts(instruction)
    if parts:
        return _merge(vault, *parts)
    return (f"{NOTE} It understands only \"rename PAGE to NAME\" and \"merge PAGE into PAGE\"; "
            "configure a model (--model or WIKI_TUI_MODEL) for other instructions.\n")


def _rename(vault: Any, old: str, new: str) -> str:
    page = vault.page(old)
    if page is None:
        return f"{NOTE} There is no page {old!r} to rename.\n"
    new_path = new if new.endswith(".md") else new + ".md"
    if "/" not in new_path:
        folder = page.path.rsplit("/", 1)[0] if "/" in page.path else ""
        new_path = f"{folder}/{new_path}" if folder else new_path
    name = new_path.rsplit("/", 1)[-1][:-3]
    blocks = [Block(RENAME, page.path, new_path=new_path)]
    text = vault.read_text(page.path)
    if page.title == page.name:  # the title followed the file name: keep it so
        new_text = re.sub(r"(?m)^title:.*$", f"title: {_yaml_str(name)}", text, count=1)
        new_text = re.sub(rf"(?m)^# {re.escape(page.title)}[ \t]*$", f"# {name}", new_text, count=1)
        changed = [(a, b) for a, b in zip(text.splitlines(keepends=True),
                                          new_text.splitlines(keepends=True)) if a != b]
        if changed:
            blocks.append(Block(EDIT, new_path, edits=changed))
    # backlinks follow: written here so the reply shows them (operations adds any it misses)
    blocks += rewrite_blocks(vault, {page.path: new_path})
    return (f"{NOTE} Renamed `{page.path}` to `{new_path}` and pointed its backlinks at the new "
            "name.\n\n" + blocks_as_text(blocks))


def _merge(vault: Any, source: str, target: str) -> str:
    src, dst = vault.page(source), vault.page(target)
    if src is None or dst is None:
        missing = source if src is None else target
        return f"{NOTE} There is no page {missing!r}.\n"
    src_text = vault.read_text(src.path)
    body = src_text[src.body_start:] if getattr(src, "body_start", 0) else src_text
    body = re.sub(rf"(?m)\A\s*# {re.escape(src.title)}\s*\n", "", body).strip()
    dst_text = vault.read_text(dst.path)
    merged = f"{dst_text.rstrip()}\n\n## From {src.title}\n\n{body}\n"
    blocks = [Block(WRITE, dst.path, content=merged), Block(DELETE, src.path)]
    blocks += rewrite_blocks(vault, {src.path: dst.path}, skip={dst.path}, keep_text=True)
    return (f"{NOTE} Merged `{src.path}` into `{dst.path}` (its text appended under a heading), "
            "deleted it, and pointed its backlinks at the merged page.\n\n"
            + blocks_as_text(blocks))
