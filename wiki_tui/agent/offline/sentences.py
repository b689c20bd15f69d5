"""Sentences of a markdown text, the units the offline engine quotes, and the words it compares.

    for s in sentences(page_text):     # Sentence(text, line, heading, kind)
        ...
    words(plain(s.text))               # ["kendall", "copy", "h4", ...], lightly stemmed

`sentences()` reads a page as a person would: frontmatter, code fences, comments (`%% %%`,
`<!-- -->`) and block ids are no sentences; a paragraph or list item is cut at sentence ends
(not after "St." or "p."); a table row becomes one sentence naming its columns ("Machine: H4;
Finished: 1759"); a heading is kept as the sentences' heading, not as a sentence; a line in
capitals is a plain-text title, read as a heading. `text` keeps the markdown as written (links
and all: it is quoted); `plain()` reads it as words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FRONT = re.compile(r"\A---\n.*?\n---[ \t]*\n", re.S)
_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")
_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[*_]*[A-Z0-9£$€])")
_ABBREVIATION = re.compile(r"(?:\b(?:St|Mr|Mrs|Dr|Prof|Sir|No|Vol|vol|pp?|ca?|cf|e\.g|i\.e|etc|"
                           r"vs|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)|\b[A-Z])\.$")
_COMMENT = re.compile(r"%%.*?%%|<!--.*?-->", re.S)
_BLOCK_ID = re.compile(r"\s\^[\w-]+\s*$")
_TAGS_ONLY = re.compile(r"^(?:#[\w/-]+\s*)+$")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
MAX_SENTENCE = 600  # characters: a longer run without a full stop is cut at a word


@dataclass(frozen=True)
class Sentence:
    text: str  # as written (markdown), one line
    line: int  # 1-based line of the text where it starts
    heading: str = ""  # the heading it is under ("" before the first)
    kind: str = "prose"  # "prose" | "item" (a list item) | "row" (a table row)


def sentences(text: str) -> list[Sentence]:
    """The sentences of a markdown page or source (see the module doc)."""
    # comments go, their lines kept blank (line numbers stay true)
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    front = _FRONT.match(text)
    offset = text.count("\n", 0, front.end()) if front else 0
    lines = (text[front.end():] if front else text).splitlines()
    out: list[Sentence] = []
    heading, fence = "", ""
    block: list[str] = []  # the lines of the paragraph or list item being read
    block_line, block_kind = 0, "prose"
    header: list[str] = []  # the current table's column names

    def flush() -> None:
        nonlocal block
        if block:
            joined = " ".join(part.strip() for part in block)
            out.extend(Sentence(s, block_line, heading, block_kind)
                       for s in split_sentences(joined))
        block = []

    for number, line in enumerate(lines, offset + 1):
        if fence:
            if line.strip().startswith(fence):
                fence = ""
            continue
        m = _FENCE.match(line)
        if m:
            flush()
            fence = m.group(1)
            continue
        stripped = line.strip()
        heading_match = _HEADING.match(line)
        if heading_match or _shouted(stripped):
            flush()
            heading = heading_match.group(2) if heading_match else stripped
            header = []
            continue
        if not stripped:
            flush()
            header = []
            continue
        if stripped.startswith("|"):
            flush()
            cells = [c.strip() for c in stripped.strip("|").split("|")]
            if all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c):
                continue  # the separator row
            if not header:
                header = cells
                continue
            pairs = [f"{h}: {c}" if h else c for h, c in zip(header, cells) if c]
            if pairs:
                out.append(Sentence("; ".join(pairs) + ".", number, heading, "row"))
            continue
        if stripped.startswith(("![", "<", ">")) and not stripped.startswith("> "):
            flush()
            continue
        item = _ITEM.match(line)
        if item and block and block_kind == "prose" and re.match(r"\s*\d", line) \
                and not re.match(r"\s*1[.)]", line):
            item = None  # "1766. It was ..." goes on a paragraph (only "1." starts a list there)
        if item:
            flush()
            block, block_line, block_kind = [line[item.end():]], number, "item"
            continue
        if stripped.startswith("> "):
            stripped = stripped[2:]
        if not block:
            block_line, block_kind = number, "prose"
        block.append(stripped)
    flush()
    return out


def _shouted(line: str) -> bool:
    """A line in capitals ("COOK'S SECOND VOYAGE"): a plain-text title, read as a heading."""
    return line.isupper() and len(line.split()) >= 2 and sum(c.isalpha() for c in line) >= 6


def split_sentences(paragraph: str) -> list[str]:
    """A paragraph cut at its sentence ends; tags-only and block-id tails are dropped."""
    paragraph = _BLOCK_ID.sub("", paragraph).strip()
    pieces: list[str] = []
    start = 0
    for m in _END.finditer(paragraph):
        before = paragraph[start:m.start()].rstrip("\"'”’)]")
        if _ABBREVIATION.search(before) or before.count("[[") > before.count("]]") \
                or before.count("(") > before.count(")"):
            continue  # "St. Helena", "(p. 3)", inside a link or brackets
        pieces.append(paragraph[start:m.start()].strip())
        start = m.end()
    pieces.append(paragraph[start:].strip())
    out = []
    for piece in pieces:
        piece = re.sub(r"(?:\s+#[\w/-]+)+$", "", piece).strip()  # trailing #tags
        if not piece or _TAGS_ONLY.match(piece):
            continue
        while len(piece) > MAX_SENTENCE:
            cut = piece.rfind(" ", 0, MAX_SENTENCE)
            cut = cut if cut > MAX_SENTENCE // 2 else MAX_SENTENCE
            out.append(piece[:cut].strip() + " …")
            piece = piece[cut:].strip()
        out.append(piece)
    return out


def plain(markdown: str) -> str:
    """Markdown read as words: a link is its shown text, emphasis and code marks go."""
    text = re.sub(r"!?\[\[([^\]|]+)\|([^\]]+)\]\]", r"\2", markdown)
    text = re.sub(r"!?\[\[([^\]]+)\]\]",
                  lambda m: m.group(1).split("#", 1)[0].rsplit("/", 1)[-1], text)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"(?<!\w)[*_]+|[*_]+(?!\w)|`", "", text)
    return " ".join(text.split())


def stem(word: str) -> str:
    """A word folded for comparison: lower case, no possessive, a plural and a common ending
    off ("received" and "receive" -> "receiv"; "trials", "tried" and "try" -> "tri")."""
    word = word.casefold().replace("’", "'")
    if word.endswith("'s"):
        word = word[:-2]
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed", "al", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[:-len(suffix)]
            break
    if word.endswith("y") and len(word) >= 3:
        word = word[:-1] + "i"
    return word


def words(text: str) -> list[str]:
    """The stemmed words of plain text, in order."""
    return [stem(w) for w in _WORD.findall(text)]
