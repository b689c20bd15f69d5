"""The marker lines of the edit protocol and the verbs models use for them.

`@@@ KEYWORD rest` opens, divides or ends a block; inside an open block a line counts as a marker
only when it cannot be page text (see `keyword_in_block`). Models drift: other verbs (`CREATE`,
`UPDATE`, `MOVE`), markers in bold or backticks, `RENAME a.md to b.md`, `REPLACE WITH`: each is
read with a repair note. Also here: the lines that are no marker but a note to the person about
the edit ("Now let me add the link:"), which never become page text.
"""

from __future__ import annotations

import re

from wiki_tui.changes.reply.blocks import DELETE, EDIT, RENAME, WRITE
from wiki_tui.changes.reply.fences import last_text
from wiki_tui.changes.reply.paths import clean_path, read_path

# `@@@ KEYWORD rest`: leading/trailing blanks and keyword case are forgiven (models drift).
# Three `@` or more: a block opened with a longer run (`@@@@ WRITE`) ends only at a marker of
# the same run, so its page may hold lines that are three-`@` markers (see `run`).
_MARKER = re.compile(r"^[ \t]*@@@+[ \t]*([A-Za-z]+)\b[ \t]*(.*?)[ \t\r]*$")
MARKER_RUN = 3  # the `@` of a plain marker line
_OPENERS = {"WRITE": WRITE, "EDIT": EDIT, "DELETE": DELETE, "RENAME": RENAME}
_RENAME_ARROW = re.compile(r"\s+(?:->|=>|→)\s+")
_PUNCT_ONLY = re.compile(r"[^\w\s]*")

UPDATE = "update"  # UPDATE/MODIFY: an EDIT when SEARCH pairs follow, else a whole page (WRITE)
# Other verbs models use for the openers; read with a repair note.
ALIASES = {"CREATE": WRITE, "NEW": WRITE, "ADD": WRITE, "UPDATE": UPDATE, "MODIFY": UPDATE,
           "REMOVE": DELETE, "MOVE": RENAME}
# A marker wrapped in bold or inline code: `**@@@ EDIT a.md**`, `` `@@@ END` ``.
_DECORATED = re.compile(r"^[ \t]*(\*\*|__|\*|`+)[ \t]*(@@@[^`*]*?)[ \t]*\1[ \t\r]*$")
_RENAME_TO = re.compile(r"(?<=\.md)\s+to\s+", re.IGNORECASE)  # RENAME a.md to b.md
_SECTION_WORDS = {"SEARCH": {"FOR"}, "REPLACE": {"WITH", "BY"}}  # `@@@ REPLACE WITH`
# `SEARCH:` / `REPLACE:` written as words instead of the '@@@' marker lines.
WORD_MARKER = re.compile(r"^\W*(?:SEARCH|FIND|REPLACE|REPLACE WITH)\W*$", re.IGNORECASE)
# A line that speaks to the person about the edit, not page text ("Now let me add the link:").
_NOTE_LINE = re.compile(
    r"^(?:(?:sure|certainly|of course|okay|ok|great|done)[!,.]\s*)?"
    r"(?:(?:now|next|then|also|finally|and)[ ,]+)?"
    r"(?:i'll|i will|i'm going to|i've|i have|let me|let's|we'll|here's|here is|"
    r"this (?:edit|change|block|pair|adds|updates|fixes|replaces|removes)\b)"
    # the chat that closes a reply, and a model speaking of itself
    r"|^(?:i )?hope (?:this|that|it) helps|^feel free to\b|^is there anything else\b"
    r"|^(?:please )?let me know\b|^if you (?:need|want|would like|have)\b.*\b(?:let me know|"
    r"happy to|feel free)|^as an ai\b|^i (?:cannot|can't|am unable to) (?:verify|browse|access)\b"
    r"|^(?:now|next),?\s+(?:the|for|update|add|fix|change|replace|remove)\b.*:$"
    r"|^(?:first|second|third|next|another|last|final)\s+(?:edit|change|pair)\b.*:$"
    r"|^(?:edit|change|pair)\s*#?\d+\s*[:)]", re.IGNORECASE)


def marker(line: str) -> tuple[re.Match[str] | None, str]:
    """The marker match of a line, and the decoration ('**', '`', ...) a model put around it."""
    if "@@@" not in line:
        return None, ""
    m = _MARKER.match(line)
    if m:
        return m, ""
    d = _DECORATED.match(line)
    if d and (m := _MARKER.match(d.group(2))):
        return m, d.group(1)
    return None, ""


def run(m: re.Match[str]) -> int:
    """How many `@` a marker line starts with (3 for a plain marker)."""
    text = m.string.lstrip(" \t")
    return len(text) - len(text.lstrip("@"))


def opener_kind(keyword: str) -> str | None:
    return _OPENERS.get(keyword) or ALIASES.get(keyword)


def split_rename(rest: str) -> tuple[list[str], str | None]:
    pieces = _RENAME_ARROW.split(rest, maxsplit=1)
    if len(pieces) == 2:
        return pieces, None
    pieces = _RENAME_TO.split(rest, maxsplit=1)
    if len(pieces) == 2:
        return pieces, f"read 'to' in '@@@ RENAME {rest}' as '->'"
    return [rest], None


def keyword_in_block(m: re.Match[str]) -> str | None:
    """The marker a line inside an open block really is, or None for page text.

    Stricter than outside a block, because a page line is at stake: openers must be upper case
    and name a page (or a rename), END/SEARCH/REPLACE may only be followed by punctuation, the
    kind (`@@@ END WRITE`), a path (`@@@ END concepts/A.md`) or `WITH`/`FOR`.
    """
    word, rest = m.group(1), m.group(2)
    kw = word.upper()
    if kw in _SECTION_WORDS:
        quiet = _PUNCT_ONLY.fullmatch(rest) or rest.upper().rstrip(":") in _SECTION_WORDS[kw]
        return kw if quiet else None
    if kw == "END":
        quiet = (_PUNCT_ONLY.fullmatch(rest) or rest.upper() in ("WRITE", "EDIT")
                 or clean_path(rest, add_md=False).endswith(".md"))
        return kw if quiet else None
    kind = opener_kind(kw)
    if kind is not None and word == kw:
        if kind == RENAME:
            return kw if len(split_rename(rest)[0]) == 2 else None
        return kw if (".md" in rest or ".canvas" in rest) \
            and read_path(rest)[0].endswith((".md", ".canvas")) else None
    return None


def no_pair_hint(notes: list[str]) -> str:
    """What the text of an EDIT block without pairs looks like, said so the model can fix it."""
    if any(WORD_MARKER.match(t) for t in notes):
        return (" (write the marker lines '@@@ SEARCH' and '@@@ REPLACE'; a line such as "
                "'SEARCH:' is page text)")
    removed = any(t[:1] == "-" and t[:3] != "---" for t in notes)
    added = any(t[:1] == "+" and t[:3] != "+++" for t in notes)
    if (removed and added) or any(t.startswith("@@ ") for t in notes):
        return (" (a diff is not a pair: put the old lines, without '-', under '@@@ SEARCH' and "
                "the new lines, without '+', under '@@@ REPLACE')")
    return " (for a whole page use '@@@ WRITE')" if notes else ""


def quote(line: str) -> str:
    text = line.strip()
    return text if len(text) <= 80 else text[:77] + "..."


def is_note_to_person(line: str) -> bool:
    """A line that talks about the edit ("Now let me add the link:"), not page text."""
    text = line.strip()
    return bool(text) and bool(_NOTE_LINE.match(text))


def leading_note(lines: list[str]) -> int | None:
    """Index of a first non-blank line that is a note to the person ("Sure! Here is the new
    page:") right above the page's frontmatter, else None."""
    text = [i for i, line in enumerate(lines[:20]) if line.strip()]
    if len(text) < 2 or not is_note_to_person(lines[text[0]]):
        return None
    return text[0] if lines[text[1]].rstrip("\r\n") == "---" else None


def trailing_note(lines: list[str]) -> int | None:
    """Index of a last non-blank line that is a note to the person, else None."""
    last = last_text(lines) if lines else -1
    if last < 0 or not is_note_to_person(lines[last]):
        return None
    return last
