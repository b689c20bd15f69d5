"""The offline engine's replies: deterministic text in the edit protocol, built from the vault.

It is no language model and says so in every reply. What it can do honestly:
- ingest (offline/ingest.py): a source page (title, summary from its lead, key points, its
  tables), pages for the people, places, works and terms the source names, and a cited line
  plus the source in `sources:` on the existing pages it mentions;
- query (offline/answer.py): the wiki's own sentences that answer, the best first, each cited;
  or a plain "the wiki does not hold an answer";
- save: the answer filed as a short cited page, or as a table, a Marp deck, a chart or a
  canvas (offline/forms.py);
- lint: mechanical fixes for structural findings (a broken link -> the suggested target), and
  suggestions of what to look into next (offline/suggest.py);
- instruct: "rename PAGE to NAME" and "merge PAGE into PAGE" (backlinks follow).
"""

from __future__ import annotations

import re
from typing import Any

from wiki_tui.agent.tasks.backlinks import blocks_as_text, link_name, rewrite_blocks
from wiki_tui.agent.context.citations import citations
from wiki_tui.agent.config import OFFLINE_LABEL
from wiki_tui.agent.tasks.instructions import merge_parts, rename_parts
from wiki_tui.agent.offline.writing import NOTE, file_name, new_path, yaml_str
from wiki_tui.changes.reply.blocks import DELETE, EDIT, RENAME, WRITE, Block

_TYPO_SIMILARITY = 0.85  # a broken link is re-pointed only when it looks like a typo fix


def _quiet(stage: str, done: int = 0, total: int = 0) -> None:
    """A progress callback that shows nothing."""


def respond(task: Any, messages: list, progress: Any = _quiet) -> str:
    """The reply to `task` in the edit protocol; `progress(stage, done, total)` hears the steps
    of a long one."""
    if task is None:
        return (f"{OFFLINE_LABEL}: it answers wiki-tui's own operations only, and this call "
                "carried no task.\n")
    handler = HANDLERS.get(task.operation)
    if handler is None:
        return f"{OFFLINE_LABEL}: nothing to do for {task.operation!r}.\n"
    return handler(task.vault, task.args, progress)


# -- ingest, query and save ------------------------------------------------------------------
def _ingest(vault: Any, args: dict, progress: Any = _quiet) -> str:
    from wiki_tui.agent.offline.ingest import ingest

    return ingest(vault, args, progress)


def _query(vault: Any, args: dict, progress: Any = _quiet) -> str:
    from wiki_tui.agent.offline.answer import answer

    return answer(vault, args["question"])


def _save(vault: Any, args: dict, progress: Any = _quiet) -> str:
    """The answer filed as a short page: the question, the answer as it was given (its
    sentences cited), the cited pages in `sources:`."""
    from wiki_tui.agent.offline.answer import NOTE as ANSWER_NOTE

    if args.get("form", "page") != "page":  # a table, a deck, a chart, a canvas
        from wiki_tui.agent.offline.forms import form_reply

        return form_reply(vault, args)
    question = args["question"].strip()
    ours = ANSWER_NOTE in args["answer"]  # the engine's own answer, not a model's
    answer = args["answer"].replace(ANSWER_NOTE, "").strip()
    name = file_name(question, "Answer", 100)
    path = new_path(vault, vault.schema.types.get("answer", "answers"), name)
    cited = [p for p in citations(vault, answer) if p in vault.pages]
    sources = ", ".join(yaml_str(f"[[{link_name(vault, p)}]]") for p in cited)
    page = (f"---\ntitle: {yaml_str(name)}\ntype: answer\nsummary: "
            f"{yaml_str('Answer to: ' + question[:200])}\naliases: []\ntags: [answer]\n"
            f"sources: [{sources}]\n---\n# {name}\n\n**Question:** {question}\n\n{answer}\n")
    if ours:
        page += f"\n_(Answered by the {OFFLINE_LABEL}: the wiki's own sentences, quoted.)_\n"
    return f"{NOTE} Filed the answer as `{path}`.\n\n" + blocks_as_text(
        [Block(WRITE, path, content=page)])


# -- lint -------------------------------------------------------------------------------------
def _lint(vault: Any, args: dict, progress: Any = _quiet) -> str:
    from wiki_tui.agent.offline.suggest import suggestions

    asks = "\n".join(suggestions(vault))
    asks = f"\n\nWhat the wiki could look into next:\n\n{asks}" if asks else ""
    if not args.get("fix", True):
        return f"{NOTE} Only structural checks; no model-checked findings.{asks}\n"
    fixes: dict[str, dict[int, list[tuple[str, str]]]] = {}
    asked = []  # ambiguous links the context does not settle: the person chooses
    repointed: set[str] = set()  # pages whose ambiguous link now names the page it means
    for item in args.get("findings", []):
        if item.path not in vault.pages:
            continue
        if item.code == "ambiguous-link":
            new = _ambiguous_fix(vault, item)
            if new is None:
                asked.append(str(item))
            else:
                repointed.add(item.path)
        else:
            new = _link_fix(item)
        if new is None:
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
             "(links pointed at the page the check suggests; an ambiguous link at the page "
             "whose type fits its sentence). Contradictions and superseded claims need a "
             "language model.")
    if asked:
        prose += (f" {len(asked)} ambiguous link(s) are left for you to choose, their sentence "
                  "does not say which page they mean:\n" + "\n".join(f"- {a}" for a in asked))
    fixed = sorted(repointed & {b.path for b in blocks})
    if fixed:  # the link now reaches another page than Obsidian opened: meant, and said so
        prose += ("\n\nIntended: " + ", ".join(fixed) + " — an ambiguous link pointed at the "
                  "page its sentence means")
    return prose + asks + "\n\n" + blocks_as_text(blocks)


_CITING = re.compile(r"(?:\(|;\s*|\b(?:see|per|cf\.?|according to|agrees? with|disagrees? "
                     r"with|entry|source|as in|quoted in|cited in|from)\s+(?:the\s+)?)$", re.I)


def _ambiguous_fix(vault: Any, item: Any) -> tuple[str, str] | None:
    """(old link, new link) for a link several pages' names fit, when its sentence says which
    kind of page it means: a link that cites ("([[X]])", "see [[X]]", "agrees with [[X]]")
    means the source page; one the sentence speaks of ("judged by the [[X]]") means the page
    about the thing (an entity or concept). None when that leaves not exactly one page."""
    m = re.match(r"\s*(!?\[\[[^\]]+\]\])", item.message)
    lines = vault.read_text(item.path).splitlines()
    if not m or not 1 <= item.line <= len(lines):
        return None
    old = m.group(1)
    line = lines[item.line - 1]
    at = line.find(old)
    if at < 0:
        return None
    before = line[:at]
    if not before.strip() and item.line > 1:  # the link opens a line: its sentence goes on above
        before = lines[item.line - 2] + " "
    inner = old.lstrip("!")[2:-2]
    target, _, shown = inner.partition("|")
    written = target.split("#", 1)[0].strip()
    name = written.casefold()
    # the pages of that file name, from the resolver's table (not a walk of every page: 20 ms
    # a finding at 10k pages, minutes for a lint of 50k)
    candidates = [p for p in vault.candidates(written) if p.endswith(".md")
                  and p.rsplit("/", 1)[-1][:-3].casefold() == name] if "/" not in written else []
    citing = bool(_CITING.search(before.rstrip() if before.rstrip().endswith("(") else before))
    fitting = [p for p in candidates
               if (getattr(vault.pages[p], "type", None) == "source") == citing]
    if len(fitting) != 1:
        return None
    anchor = target[len(target.split("#", 1)[0]):]
    new = f"[[{fitting[0][:-3]}{anchor}|{shown or target.strip()}]]"
    return old, ("!" + new if old.startswith("!") else new)


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
def _instruct(vault: Any, args: dict, progress: Any = _quiet) -> str:
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
        new_text = re.sub(r"(?m)^title:.*$", f"title: {yaml_str(name)}", text, count=1)
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
    # the person asked for exactly this: the page's removal is declared, not hidden
    touched = ", ".join(dict.fromkeys(b.path for b in blocks))
    intent = f"Intended: {touched} — merged as asked (\"merge {source} into {target}\")"
    return (f"{NOTE} Merged `{src.path}` into `{dst.path}` (its text appended under a heading), "
            f"deleted it, and pointed its backlinks at the merged page.\n\n{intent}\n\n"
            + blocks_as_text(blocks))


HANDLERS = {"ingest": _ingest, "query": _query, "save": _save, "lint": _lint,
            "instruct": _instruct}  # operation -> handler(vault, args, progress) -> reply
