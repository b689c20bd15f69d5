"""Prompts built from the vault: its AGENTS.md, the edit protocol, the page list, relevant pages.

The vault's AGENTS.md is the standing instruction (the person edits it); the program adds the
edit protocol and what the model needs to link to pages that exist instead of inventing twins.
Everything is fitted into `settings.context_tokens` (litellm's counter when loaded, else an
estimate); large sources are cut into parts that the operation sends one at a time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from wiki_tui.agent.tasks.backlinks import link_name, name_counts, special_files
from wiki_tui.agent.config import OFFLINE_LABEL, OFFLINE_MODEL
from wiki_tui.agent.engine.llm import count_tokens
from wiki_tui.agent.context.pageinfo import page_info

# The model's half of docs/edit-protocol.md ("For the model"); tests/agent/test_prompts.py
# checks that the two stay the same text.
EDIT_PROTOCOL = """\
You change the wiki by writing edit blocks in your reply. Every marker line starts with `@@@`,
stands alone on its line, and is written exactly as shown. Paths are relative to the vault root,
use `/`, and end in `.md`, for example `concepts/Marine chronometer.md`. Anything outside a block
is prose for the person.

### Create a page, or replace a whole page: WRITE

````
@@@ WRITE concepts/Marine chronometer.md
---
title: Marine chronometer
type: concept
summary: A clock accurate enough at sea to find longitude by comparing local and home time.
---
# Marine chronometer

A portable clock that keeps time at sea. See [[John Harrison]].

```python
print("code fences inside a page are fine")
```
@@@ END
````

Everything between `@@@ WRITE path` and `@@@ END` is the complete new page: frontmatter, `---`
rules and ``` fences inside it are page text. Do not wrap the page in a ``` fence. Use WRITE for
new pages and for pages you change heavily.

Never stand in for text with a placeholder line (`...`, `[...]`, `<!-- existing content -->`,
`(rest of the section unchanged)`), here or in a REPLACE: write every line that stays. When you
mean to replace most of an existing page, or give it another title, say so on the marker line:
`@@@ WRITE entities/H4.md (rewrite)`.

### Change part of a page: EDIT with SEARCH / REPLACE pairs

```
@@@ EDIT entities/John Harrison.md
@@@ SEARCH
Harrison built H4 in 1759.
@@@ REPLACE
Harrison completed H4 in 1759; it was tested on a voyage to Jamaica in 1761.
@@@ SEARCH
## See also
- [[H4]]
@@@ REPLACE
## See also
- [[H4]]
- [[Marine chronometer]]
@@@ END
```

- SEARCH holds whole lines copied **exactly** from the page as it is now, in order. Include
  enough lines that they occur only once in the page.
- REPLACE holds the lines that take their place. An empty REPLACE deletes the lines.
- To add lines, SEARCH for a nearby line and repeat it in REPLACE with the new lines.
- One EDIT block may hold several pairs: each SEARCH is matched in the page as it is before
  the block (not in what an earlier pair wrote), pairs must change separate lines, and all of
  them apply or none.
- Use a separate EDIT block per page.

### Delete a page: DELETE (one line, no END)

```
@@@ DELETE concepts/Old duplicate.md
```

### Rename or move a page: RENAME (one line, no END)

```
@@@ RENAME concepts/Longitude.md -> concepts/Longitude problem.md
```

After a RENAME, refer to the page by its new path (for example to EDIT it). Links to the page
from other pages are not rewritten for you: edit them too if they should follow.

### Rules

- Never write `index.md` (it is generated from each page's `title`, `type` and `summary`
  frontmatter) or `log.md` (wiki-tui appends the entry itself). Put a page's one-line
  description in its `summary` frontmatter.
- Never write under `raw/` (the sources are read-only), into hidden folders (`.obsidian/`, ...),
  or files that are not `.md` pages (a JSON Canvas `.canvas` file only when the task asks
  for one).
- Name new pages with letters, digits, spaces, `-`, `_`, `'`, `,`, `(` `)`; not with
  `< > : " | ? * # ^ [ ] \\` and not ending in a dot or space.
- Always finish a WRITE or EDIT block with `@@@ END`. A block the reply cuts off is discarded.
- A page whose own text holds a line that is itself a marker (a page about this protocol):
  write every marker of its block with four `@` (`@@@@ WRITE path` ... `@@@@ END`, or
  `@@@@ EDIT`, `@@@@ SEARCH`, `@@@@ REPLACE`, `@@@@ END`); inside it, lines with three `@` are
  page text.
- An edit block shown inside a ``` fence, an indented code block, a `>` quote or inline code,
  or as an example ("for example:", "this would look like"), is not applied. Write the blocks
  you mean as bare lines, outside fences and quotes.
- Notes for the person go outside the blocks (before or after them), never between
  `@@@ SEARCH`/`@@@ REPLACE` pairs or inside a page.
- If an edit fails you will be told why, with the page's real lines; send a corrected block.
- Keep what pages already hold: their frontmatter fields, links, citations, headings other pages
  link to, figures and dates. When a change removes or alters such things on purpose (the person
  asked to delete a page or a section, you correct a figure from a new source, you rewrite a
  page), say so on a line of its own outside the blocks, one line per page:
  `Intended: entities/H4.md — the person asked to drop the Copies section`.
"""

# What each operation asks of the model, after the vault's own rules.
TASKS = {
    "ingest": (
        "Ingest the source below into the wiki, following the vault's rules: write its source "
        "summary page, update the entity and concept pages it touches (or create them when no "
        "page covers the subject under its title or any alias), add cross-links, add the "
        "source page to each touched page's `sources`, and flag contradictions with existing "
        "pages on both pages, quoting both claims. Propose every change as edit blocks; say "
        "in one or two sentences of prose what you did."),
    "query": (
        "Answer the question from the wiki pages below. Cite every claim with a [[Page]] link "
        "to the page it comes from (and `raw/...` for a raw source). If the pages do not hold "
        "the answer, say plainly that the wiki does not hold it; do not answer from memory. "
        "Do not write edit blocks."),
    "save": (
        "File the answer below as a new page of type `answer` in the answers folder, with "
        "frontmatter per the vault's rules (title, type, summary, sources), keeping its "
        "[[Page]] citations. Use one WRITE block."),
    "lint": (
        "Check the wiki pages below for problems the program cannot see: contradictions "
        "between pages, claims a newer source supersedes, concepts mentioned on several pages "
        "without their own page, missing cross-references. List each finding on its own line "
        "as `FINDING: <code> | <page path> | <one sentence> | \"<quoted evidence>\"` with code "
        "one of contradiction, superseded, missing-page, missing-link. The evidence is "
        "required: copy, word for word and in double quotes, the sentence of the page the "
        "finding rests on; for a contradiction quote both claims, `\"<claim on this page>\" vs "
        "\"<claim on the other page>\"`. Report only what you can quote; no table, no "
        "numbering. Then list, the same way, what the wiki should look into next: `question` "
        "(a question worth investigating; the page it starts from, and in the sentence the "
        "other [[Page]] links it rests on), `source` (a source worth finding: what it is and "
        "which claim it would settle), `data-gap` (a claim resting on one source, a number "
        "without a source, a page with no source); quote the claim each rests on. Then "
        "propose the fixes (including fixes for the structural findings listed) as edit "
        "blocks."),
    "instruct": (
        "Carry out the person's instruction below as edit blocks. When you rename or merge a "
        "page, also EDIT every page that links to it so its links follow (the backlinks are "
        "listed). Say briefly what you did."),
}


# What a save asks for when the answer is filed in another form (`query --save --as FORM`);
# docs/forms.md shows each. The program checks the form (agent/tasks/answer_forms.py), the chart
# spec and the canvas (changes/build/form_files.py), and sends back what is wrong.
FORM_TASKS = {
    "table": (
        "File the answer below as a comparison page of type `answer` in the answers folder, "
        "with frontmatter per the vault's rules (title, type, summary, sources). Its core is a "
        "markdown table: one row per thing compared, one column per attribute, and a last "
        "column `Sources` citing in every row the [[Page]] links its facts come from (inside "
        "a table write a link with shown text as `[[Page\\|shown]]`). One or two sentences "
        "before the table say what it compares. Use only facts the pages state. Use one "
        "WRITE block."),
    "slides": (
        "File the answer below as a Marp slide deck: one WRITE block of a page in the answers "
        "folder whose frontmatter holds `marp: true` beside the vault's fields (title, type "
        "`answer`, summary, sources). Slides are separated by a line holding only `---`. The "
        "first slide is the title (a `# ` heading and the question); then one idea per slide, "
        "a `## ` heading and at most five bullets, each citing its [[Page]] links (keep them "
        "as [[wikilinks]]); the last slide, `## Sources`, lists the pages cited."),
    "chart": (
        "File the answer below as a chart: one WRITE block of a page of type `answer` in the "
        "answers folder (title, type, summary, sources) holding a fenced ```chart block. The "
        "block is a declarative spec in YAML, never code:\n\n"
        "```chart\nkind: bar            # bar, line, scatter or timeline\ntitle: What the chart "
        "shows\nx: label of the x axis\ny: label of the y axis\nseries:\n  - name: a name\n"
        "    pages: [\"[[Page]]\"]      # the pages the data comes from\n"
        "    data: [[x, y], [x, y]]   # bar [label, number]; line and scatter [number or date, "
        "number]; timeline [date, event]\n```\n\n"
        "Dates are years or YYYY-MM-DD. Use only numbers and dates the pages state. Under the "
        "block, a sentence says what the chart shows, citing the same [[Page]] links. "
        "wiki-tui draws the chart to an SVG under attachments/ and embeds it: write no SVG "
        "and no embed."),
    "canvas": (
        "File the answer below as a JSON Canvas 1.0 file (Obsidian's `.canvas`): one WRITE "
        "block of `answers/<Title>.canvas` holding only the JSON, no fence: {\"nodes\": [...], "
        "\"edges\": [...]}. A file node for each page involved: {\"id\": \"h4\", \"type\": "
        "\"file\", \"file\": \"entities/H4.md\", \"x\": 0, \"y\": 0, \"width\": 400, "
        "\"height\": 200} (the page's path from the vault root, with .md; integers); a text "
        "node for each claim that connects them ({\"type\": \"text\", \"text\": \"the claim, "
        "citing [[Page]]\"}); edges between nodes with the relation as their label "
        "({\"id\": \"e1\", \"fromNode\": \"h4\", \"toNode\": \"c1\", \"label\": \"measured "
        "in\"}). Ids are unique; lay the nodes out on a grid without overlaps. Name only pages "
        "that exist. Write no other file."),
}


def task_for(operation: str, form: str = "page") -> str:
    """What the operation asks of the model (a save in another form asks for that form)."""
    if operation == "save" and form in FORM_TASKS:
        return FORM_TASKS[form]
    return TASKS[operation]


@dataclass
class Prompt:
    messages: list[dict]
    pages: list[str]  # vault paths whose text was included
    listed: int  # pages in the page list
    omitted: int  # pages left out of the page list for the budget
    tokens: int  # estimated prompt size


def system_prompt(vault: Any, operation: str, form: str = "page") -> str:
    schema_text = (getattr(vault.schema, "text", "") or "").strip()
    parts = ["You maintain a markdown wiki (an Obsidian vault) for a person who reviews every "
             "change before it is saved.",
             "# The vault's rules (AGENTS.md)\n\n" + (schema_text or "(this vault has no "
                                                      "AGENTS.md; use plain conventions)")]
    if operation != "query":
        parts.append("# How to propose changes: the edit protocol\n\n" + EDIT_PROTOCOL
                     + _catalog_rule(getattr(vault.schema, "catalog", "index.md")))
    parts.append("# Your task\n\n" + task_for(operation, form))
    return "\n\n".join(parts)


def _catalog_rule(catalog: str) -> str:
    """The protocol's rule about index.md, for a vault whose catalog lives elsewhere."""
    if catalog == "index.md":
        return ""
    return (f"- In this vault the generated catalog is `{catalog}` (AGENTS.md's `catalog:`): "
            "never write it either. `index.md` is the person's own home page, a page like any "
            "other: change it only when the person asks.\n")


def page_line(page: Any, name: str) -> str:
    line = f"- [[{name}]]"
    if page.title and page.title != page.name:
        line += f" — title: {page.title}"
    if page.aliases:
        line += f" — aliases: {', '.join(map(str, page.aliases))}"
    if page.summary:
        line += f" — {_one_line(page.summary)}"
    return line


def _one_line(text: Any) -> str:
    return re.sub(r"\s+", " ", str(text)).strip()[:200]


def page_list(vault: Any, budget: int, model: str | None,
              first: list[str] = ()) -> tuple[str, int, int]:
    """The page list (`first` paths first), cut to `budget` tokens: (text, listed, omitted)."""
    order = list(dict.fromkeys([p for p in first if p in vault.pages] + sorted(vault.pages)))
    special = special_files(vault)
    order = [p for p in order if p not in special]
    counts = name_counts(vault)
    lines: list[str] = []
    used = 0
    for path in order:
        line = page_line(page_info(vault, path), link_name(vault, path, counts))
        cost = count_tokens(line, None) + 1  # the cheap estimate: thousands of lines
        if used + cost > budget:
            break
        lines.append(line)
        used += cost
    omitted = len(order) - len(lines)
    text = "\n".join(lines)
    if omitted:
        text += (f"\n({omitted} more pages not listed for space; search before creating a "
                 "page that may exist)")
    return text, len(lines), omitted


def relevant_paths(vault: Any, query: str, limit: int = 8) -> list[str]:
    """Pages the vault's search finds for `query`, then the pages they link to."""
    found: list[str] = []
    try:
        terms = search_terms(query)
        hits = vault.search(terms, limit=limit) if terms else []
    except Exception:  # a search syntax the index rejects: fall back to titles
        hits = []
    for hit in hits:
        if hit.path in vault.pages and hit.path not in found and hit.path not in special_files(vault):
            found.append(hit.path)
    linked: list[str] = []
    for path in found[:4]:
        for _link, target, _alias in vault.outgoing(path):
            if target and target in vault.pages and target not in found and target not in linked:
                linked.append(target)
    return found + linked


_STOP = frozenset("""about above after again against also among been before being below
between both could does doing down during each from further have having here into itself just
more most much must only other over same should some such than that their theirs them then
there these they this those through under until very were what when where which while whom
whose will with would your yours the and for was are not but""".split())


def search_terms(text: str, limit: int = 30) -> str:
    """A short OR-query from the most telling words of a text (headings, capitalised names)."""
    words = re.findall(r"[^\W\d_][\w'’-]{2,}", text)
    seen: dict[str, int] = {}
    for w in words:
        key = w.lower()
        if key in _STOP:
            continue
        seen[key] = seen.get(key, 0) + (3 if w[0].isupper() else 1)
    best = sorted(seen, key=lambda k: -seen[k])[:limit]
    return " OR ".join(best)


def part_tokens(vault: Any, operation: str, budget: int, model: str | None = None) -> int:
    """How many tokens one part of a source may take so that the whole prompt fits `budget`.

    Half the budget at most; less when the rules (AGENTS.md and the edit protocol) take much
    of it, leaving an eighth of the budget for the page list and the pages the part touches.
    Never under 1,000 tokens (a smaller part says too little to be worth a call)."""
    if model == OFFLINE_MODEL:
        return max(1000, budget // 2)
    fixed = count_tokens(system_prompt(vault, operation), model)
    return max(1000, min(budget // 2, budget - fixed - budget // 8))


def split_source(text: str, max_tokens: int, model: str | None = None) -> list[str]:
    """Cut a source into parts of at most ~max_tokens, at headings or blank lines."""
    if count_tokens(text, model) <= max_tokens:
        return [text]
    max_chars = max(2000, max_tokens * 4)
    parts: list[str] = []
    current = ""
    for piece in re.split(r"(?m)(?=^#{1,3} )|\n\n", text):
        if not piece:
            continue
        while len(piece) > max_chars:  # one huge paragraph: hard cut at a line end
            cut = piece.rfind("\n", 0, max_chars)
            cut = cut if cut > max_chars // 2 else max_chars
            if current:
                parts.append(current)
                current = ""
            parts.append(piece[:cut])
            piece = piece[cut:]
        if current and len(current) + len(piece) + 2 > max_chars:
            parts.append(current)
            current = ""
        current = f"{current}\n\n{piece}" if current else piece
    if current.strip():
        parts.append(current)
    return parts


def build_prompt(vault: Any, operation: str, task_text: str, *, model: str | None,
                 budget: int, search_query: str = "", extra_paths: list[str] = (),
                 extra_sections: list[str] = (), form: str = "page") -> Prompt:
    """System + user messages: rules, protocol, task, page list, relevant pages, in budget.

    The offline engine reads the vault itself, not the prompt: it gets the task alone (the
    page list and relevant pages would cost a search and ~0.2 s on a 10,000-page vault)."""
    if model == OFFLINE_MODEL:
        user = "\n\n".join([task_text, *extra_sections])
        messages = [{"role": "system",
                     "content": f"{OFFLINE_LABEL}: {task_for(operation, form)}"},
                    {"role": "user", "content": user}]
        return Prompt(messages, [], 0, 0, count_tokens(user))
    system = system_prompt(vault, operation, form)
    used = count_tokens(system, model) + count_tokens(task_text, model)
    sections = list(extra_sections)
    used += sum(count_tokens(s, model) for s in sections)
    remaining = max(0, budget - used)

    relevant = list(dict.fromkeys([*extra_paths, *relevant_paths(vault, search_query)]))
    list_text, listed, omitted = page_list(vault, remaining // 3, model, relevant)
    remaining -= count_tokens(list_text, model)

    included: list[str] = []
    page_texts: list[str] = []
    for path in relevant:
        try:
            text = vault.read_text(path)
        except Exception:
            continue
        block = f"## {path}\n\n{text.rstrip()}\n"
        cost = count_tokens(block, model)
        if cost > remaining:
            continue
        page_texts.append(block)
        included.append(path)
        remaining -= cost

    user_parts = [task_text, *sections, "# Pages in the wiki\n\n" + (list_text or "(none yet)")]
    if page_texts:
        user_parts.append("# Relevant pages as they are now\n\n" + "\n".join(page_texts))
    user = "\n\n".join(user_parts)
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return Prompt(messages, included, listed, omitted, budget - remaining)
