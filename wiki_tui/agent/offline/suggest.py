"""What the offline engine suggests the wiki look into next, deterministically (no model):

- `question`: a name mentioned on several pages that no page, title or alias carries
  ("Pierre Le Roy is mentioned on 3 pages and has no page");
- `data-gap`: a page that cites no source, and a page whose claims rest on one source alone
  (in a vault whose pages keep `sources` at all).

Written as lint's FINDING lines (agent/tasks/lint_findings.py reads them, as it reads a model's), at
most MAX_EACH of each kind, the most telling first.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from wiki_tui.agent.tasks.backlinks import special_files
from wiki_tui.agent.context.pageinfo import page_infos

MAX_EACH = 8
MIN_PAGES = 3  # a name is worth a question when this many pages mention it
_NAME = re.compile(r"\b([A-Z][a-z]+(?:\s+(?:[A-Z][a-z]+|de|la|le|von|van|of|Le|La))*"
                   r"\s+[A-Z][a-z]+)\b")  # two or more capitalised words: "Pierre Le Roy"
_LINK = re.compile(r"!?\[\[[^\]]*\]\]|\[[^\]]*\]\([^)]*\)|`[^`]*`")
_SENTENCE = re.compile(r"[^.!?\n]*[.!?]")
_WORD = re.compile(r"[^\W_]+")


def suggestions(vault: Any) -> list[str]:
    """FINDING lines, names first, then pages without a source, then single-source pages."""
    special = special_files(vault)
    infos = [i for i in page_infos(vault) if i.path not in special]
    return [*_names(vault, infos), *_sourceless(vault, infos)]


def _body(vault: Any, path: str) -> str:
    try:
        text = vault.read_text(path)
    except Exception:
        return ""
    if text.startswith("---"):
        end = text.find("\n---", 3)
        text = text[end + 4:] if end > 0 else text
    return text


def _paragraphs(text: str, *, unlinked: bool = False) -> list[str]:
    """The prose paragraphs of a body, each on one line, links read as their shown text (or,
    `unlinked`, left out: a name inside a link has a page)."""
    out = []
    for block in re.split(r"\n\s*\n", text):
        block = block.strip()
        if not block or block.startswith(("#", "---", "|", "!", "```", "~~~")):
            continue
        shown = _LINK.sub(" " if unlinked else
                          lambda x: x.group(0).strip("[]!`").split("|")[-1].split("](")[0],
                          block)
        out.append(" ".join(shown.split()))
    return out


def _first_sentence(text: str) -> str:
    for paragraph in _paragraphs(text):
        m = _SENTENCE.match(paragraph)
        return (m.group(0) if m else paragraph).strip()[:200]
    return ""


class _Known:
    """Every page name, title and alias, casefolded: `name in known` says whether a name a page
    mentions is one of them, or inside one at word boundaries ("le roy" in "pierre le roy").
    The names are grouped by each word they hold; a name is looked for, by one substring search,
    among those holding its rarest word (a loop over every name for each mention cost minutes
    at 10,000 pages; one search of all names joined, ~40 s at 50,000)."""

    def __init__(self, infos: list) -> None:
        names = set()
        for info in infos:
            for name in (info.name, info.title, *info.aliases):
                if name:
                    names.add(str(name).casefold().replace("\0", " "))
        holding: dict[str, list[str]] = {}
        for name in sorted(names):
            for word in set(_WORD.findall(name)):
                holding.setdefault(word, []).append(name)
        self._holding = {word: "\0" + "\0".join(group) + "\0" for word, group in holding.items()}

    def __contains__(self, name: str) -> bool:
        groups = [self._holding.get(word, "") for word in set(_WORD.findall(name))]
        return bool(groups) and name in min(groups, key=len)


def _names(vault: Any, infos: list) -> list[str]:
    known = _Known(infos)
    has_page: dict[str, bool] = {}  # name -> it is (inside) a known name
    pages_of: dict[str, set[str]] = {}
    mentions: Counter = Counter()
    for info in infos:
        for line in _paragraphs(_body(vault, info.path), unlinked=True):
            for name in _names_in(line):
                folded = name.casefold()
                inside = has_page.get(folded)
                if inside is None:
                    inside = has_page[folded] = folded in known
                if inside:
                    continue
                pages_of.setdefault(name, set()).add(info.path)
                mentions[(name, info.path)] += 1
    found = [(name, paths) for name, paths in pages_of.items() if len(paths) >= MIN_PAGES]
    found.sort(key=lambda np: (-len(np[1]), np[0]))
    out = []
    for name, paths in found[:MAX_EACH]:
        top = max(sorted(paths), key=lambda p: mentions[(name, p)])
        quote = _where(vault, top, name).replace('"', "'")
        out.append(f"FINDING: question | {top} | {name} is mentioned on {len(paths)} pages and "
                   f"has no page: who or what is it, and what do the sources say of it? | "
                   f"\"{quote}\"")
    return out


def _names_in(line: str):
    """The names (two capitalised words or more, "The"/"A"/"An" left off) a paragraph mentions."""
    for m in _NAME.finditer(line):
        name = re.sub(r"^(?:The|A|An)\s+", "", m.group(1))
        if " " in name:
            yield name


def _where(vault: Any, path: str, name: str) -> str:
    """The sentence of `path` where `name` is first mentioned, links shown as their text (only
    for the few names a lint reports: reading it for every mention doubled the scan)."""
    body = _body(vault, path)
    for line, shown in zip(_paragraphs(body, unlinked=True), _paragraphs(body)):
        if name in _names_in(line):
            sentence = next((s for s in _SENTENCE.findall(shown) if name in s), shown)
            return " ".join(sentence.split())[:200]
    return ""


def _sourceless(vault: Any, infos: list) -> list[str]:
    if not any(info.sources for info in infos):
        return []  # the vault does not keep `sources`: every page would be a "gap"
    none, one = [], []
    for info in sorted(infos, key=lambda i: i.path):
        if info.type == "source" or info.path.startswith("raw/"):
            continue
        sources = [s for s in info.sources if str(s).strip()]
        if len(sources) > 1:
            continue
        (none if not sources else one).append((info, sources))
    out = []
    for info, sources in none[:MAX_EACH] + one[:MAX_EACH]:  # only these pages are read
        quote = _first_sentence(_body(vault, info.path)).replace('"', "'")
        tail = f' | "{quote}"' if quote else ""
        if not sources:
            out.append(f"FINDING: data-gap | {info.path} | the page cites no source: where do "
                       f"its claims come from?{tail}")
        else:
            cited = str(sources[0]).replace("|", "/")
            out.append(f"FINDING: data-gap | {info.path} | every claim rests on one source "
                       f"({cited}); a second source would confirm or correct them{tail}")
    return out
