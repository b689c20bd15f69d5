"""The wiki's own open questions: lint's suggestions (`question`, `source`, `data-gap`) filed as
one page, "Open questions", through the normal review.

    ## Questions to investigate
    - Why did the Board pay Harrison in instalments? ([[entities/H4|H4]]) — "the Board ..."
    ## Sources to find
    - ...
    ## Data gaps
    - ...

The page is in the folder of the `synthesis` type (else the vault root). When it exists, the
new suggestions are added under their headings and nothing else changes; a suggestion already
on the page (by its text) is not added twice. `open_questions_changeset` builds the changeset
the review shows (operation `lint`, title "Open questions").
"""

from __future__ import annotations

from typing import Any

from wiki_tui.agent.tasks.backlinks import link_name
from wiki_tui.agent.tasks.lint_findings import SUGGESTIONS

TITLE = "Open questions"
HEADINGS = {"question": "Questions to investigate", "source": "Sources to find",
            "data-gap": "Data gaps"}
SUMMARY = ("Questions the wiki should investigate, sources worth finding and data gaps, "
           "as lint suggested them.")


def is_suggestion(item: Any) -> bool:
    return item.code in SUGGESTIONS


def page_path(vault: Any) -> str:
    folder = vault.schema.types.get("synthesis", "") if getattr(vault, "schema", None) else ""
    return f"{folder}/{TITLE}.md" if folder else f"{TITLE}.md"


def bullet(vault: Any, item: Any) -> str:
    message = " ".join(item.message.split())
    where = ""
    if item.path in getattr(vault, "pages", {}):
        where = f" ([[{link_name(vault, item.path)}]])"
    quote = f' — "{" ".join(item.evidence.split())}"' if item.evidence else ""
    return f"- {message}{where}{quote}"


def page_text(vault: Any, items: list, existing: str | None) -> str:
    """The page with `items` added (a new page when `existing` is None)."""
    new: dict[str, list[str]] = {code: [] for code in HEADINGS}
    for item in items:
        if item.code in new:
            line = bullet(vault, item)
            if line not in new[item.code] and (existing is None or line not in existing):
                new[item.code].append(line)
    if existing is None:
        out = [f"---\ntitle: {TITLE}\ntype: synthesis\nsummary: {SUMMARY}\n---\n# {TITLE}\n",
               "What the wiki does not know yet: questions to look into, sources to find, "
               "claims that need better support. Strike an item out, or delete it, once it is "
               "settled.\n"]
        for code, heading in HEADINGS.items():
            if new[code]:
                out.append(f"## {heading}\n\n" + "\n".join(new[code]) + "\n")
        return "\n".join(out)
    lines = existing.splitlines()
    for code, heading in HEADINGS.items():
        if not new[code]:
            continue
        at = next((i for i, line in enumerate(lines) if line.strip() == f"## {heading}"), None)
        if at is None:
            if lines and lines[-1].strip():
                lines.append("")
            lines += [f"## {heading}", "", *new[code]]
            continue
        end = at + 1
        while end < len(lines) and not lines[end].startswith("#"):
            end += 1
        while end > at + 1 and not lines[end - 1].strip():
            end -= 1
        lines[end:end] = new[code]
    return "\n".join(lines) + "\n"


def open_questions_changeset(vault: Any, items: list) -> Any:
    """The changeset that files `items` (lint's suggestions; others are left out) on the page.
    None when there is nothing new to file."""
    from wiki_tui.changes.build.changeset import build_changeset
    from wiki_tui.changes.reply.blocks import WRITE, Block

    chosen = [item for item in items if is_suggestion(item)]
    if not chosen:
        return None
    path = page_path(vault)
    try:
        existing = vault.read_text(path) if path in vault.pages else None
    except Exception:
        existing = None
    text = page_text(vault, chosen, existing)
    if existing is not None and text == existing:
        return None
    changeset, errors = build_changeset(vault, [Block(WRITE, path, content=text)],
                                        operation="lint", title=TITLE)
    return changeset if changeset.files else None
