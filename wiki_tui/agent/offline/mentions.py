"""Which existing pages a text mentions, and links on their first mention.

    mentioned_pages(vault, text)                      # paths, most mentioned first
    link_first_mentions(lines, [(names, target)])     # the first mention of each, linked

Names are pages' titles, file names and aliases; an ambiguous name (two pages) links nothing.
"""

from __future__ import annotations

import re
from typing import Any

from wiki_tui.agent.tasks.backlinks import special_files
from wiki_tui.agent.context.pageinfo import page_infos

_MAX_NAME_WORDS = 6
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def link_first_mentions(lines: list[str], links: list[tuple[list[str], str]]) -> list[str]:
    """Turn the first mention of each (names, link target) into a link, outside existing links
    and code spans; the names are tried longest first."""
    out = list(lines)
    for names, target in links:
        names = sorted(names, key=len, reverse=True)
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
    special = special_files(vault)
    for page in infos if infos is not None else page_infos(vault):
        path = page.path
        if path in exclude or path in special or page.type == "source":
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
