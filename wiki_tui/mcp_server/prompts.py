"""The prompts an MCP client offers its user (as slash commands, say): ingest a source, answer a
question from the wiki, lint it. Each tells the agent which tools to use and that every change
goes through propose_changes, to be reviewed by the person. Plain text, no SDK here."""

from __future__ import annotations

INGEST = """\
Ingest the source {source} into this wiki.

1. Read it with read_source (in parts: pass next_offset until it is null).
2. Read the wiki's rules (resource wiki://AGENTS.md) and find the pages it touches: search,
   read_page, backlinks, pages_by_tag.
3. Propose ONE changeset with propose_changes: a summary page for the source (with
   `sources: [{source}]` in its frontmatter), updates to the entity and concept pages it
   informs, [[links]] both ways, and contradictions with what the wiki says flagged in the
   pages, quoting both sides.
4. If the answer lists findings (broken links, missing frontmatter) or errors, fix them and
   propose again. Nothing is written until the person accepts it in wiki-tui.
"""

QUERY = """\
Answer from this wiki: {question}

Search it (search; several phrasings), read the pages that answer (read_page; `page#heading`
reads one section), and follow their links (links, backlinks). Answer with citations as
[[page]] links to the pages you used, and say plainly what the wiki does not cover.
If the answer is worth keeping, offer to file it back as a page: propose it with
propose_changes (a `type: query` page linking the pages it cites), for the person to review.
"""

LINT = """\
Check this wiki's health and propose fixes.

1. Run lint and read its findings (broken links, orphans, missing frontmatter, pages missing
   from index.md).
2. For each one worth fixing, read the pages involved and decide the fix (link the right page,
   create the missing one, add the frontmatter the schema asks for). Look for contradictions
   between pages too (search for the claims), quoting both sides.
3. Propose the fixes as one changeset with propose_changes; the person reviews each file.
"""


def ingest(source: str) -> str:
    path = source.strip()
    return INGEST.format(source=path if path.startswith("raw/") else f"raw/{path.lstrip('/')}")


def query(question: str) -> str:
    return QUERY.format(question=question.strip())


def lint() -> str:
    return LINT
