"""The simplified view for very large pages: the markdown source, styled line by line.

Past `LITE_LIMIT` a full markdown render costs seconds of CPU (Rich lays out every list item and
table cell); showing the source with headings, code and quotes styled, and links replaced by their
text (still followable), is 4-7x cheaper. The title bar says the page is shown simplified.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

from wiki_tui.ui.browser.document import PageDocument, inline_label, resolve_ref
from wiki_tui.ui.browser.units import Unit

if TYPE_CHECKING:
    from wiki_tui.vault import Vault

LITE_LIMIT = 300 * 1024


def lite_unit_text(vault: "Vault", doc: PageDocument, unit: Unit) -> Text:
    text = doc.text
    start, end = unit.start, unit.start + len(unit.text)
    links = doc._scanned[bisect_left(doc._starts, start) : bisect_left(doc._starts, end)]
    out = Text(no_wrap=False)
    link_index = 0
    fence: str | None = None
    offset = start
    while offset < end:
        line_end = text.find("\n", offset, end)
        line_end = end if line_end < 0 else line_end
        line = text[offset:line_end]
        stripped = line.lstrip()
        marker = stripped[:3]
        if fence is not None or marker in ("```", "~~~"):
            out.append(line, "markdown.code_block")
            if fence is None:
                fence = marker
            elif marker == fence:
                fence = None
        else:
            style = _line_style(stripped)
            position = offset
            while link_index < len(links) and links[link_index].start < line_end:
                link = links[link_index]
                link_index += 1
                if link.start < position:
                    continue
                out.append(text[position : link.start], style)
                ref = resolve_ref(vault, link.target, link.subpath, doc.path, embed=link.embed)
                link_id = doc.add_link(ref)
                out.append(inline_label(link, ref), Style(link=f"wiki:{link_id}"))
                position = link.end
            out.append(text[position:line_end], style)
        out.append("\n")
        offset = line_end + 1
    out.rstrip()
    return out


def _line_style(stripped: str) -> str | None:
    if stripped.startswith("#"):
        level = len(stripped) - len(stripped.lstrip("#"))
        if level <= 6 and stripped[level : level + 1] in (" ", ""):
            return f"markdown.h{level}"
    if stripped.startswith(">"):
        return "markdown.block_quote"
    if stripped.startswith("|"):
        return "markdown.table.border"
    return None
