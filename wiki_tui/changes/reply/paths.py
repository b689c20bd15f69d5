"""Reading a page path as a model writes it: quoted, bolded, as a wikilink, without `.md`, with a
note after it (`(new page)`), or alone on a prose line before an edit (aider's habit). The path
comes back cleaned, with the repair note when it had to be; whether the vault allows it is for
path_rules.py and the build's guards.
"""

from __future__ import annotations

import re
import unicodedata

_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")  # "x.txt", "x.MD": left for the guards to judge
_MD_END = re.compile(r"\.md(?![\w.])")
_TRAILING_MARKER = re.compile(r"[ \t]+@@@+[ \t]*$")
# A note after a path that names no page: `(new page)`, `— new`, `- updated`.
_NOTE_WORDS = r"(?:new|new page|new file|create[sd]?|creating|update[sd]?|updating|edit(?:ed)?|" \
              r"overwrite|rewrite|rewritten|replace[sd]?|draft|modified|changed?)"
_NOTE_ONLY = rf"{_NOTE_WORDS}(?:\s+(?:page|file|note))?"  # nothing more: "(new findings)" is a name
_PATH_NOTE = re.compile(rf"\s+(?:\(\s*{_NOTE_ONLY}\s*\)|[—–-]{{1,2}}\s*{_NOTE_ONLY})\s*$",
                        re.IGNORECASE)
_QUOTED_PATH = re.compile(r"`([^`]+\.md)`|\*\*([^*]+\.md)\*\*|<path>\s*([^<]+\.md)\s*</path>")
_BARE_PATH = re.compile(r"^\s*(?:[*_`#>]+\s*)?(?:File:\s*)?([^\s`*][^`*]*?\.md)\s*[`*_:]*\s*$",
                        re.IGNORECASE)


def clean_path(raw: str, *, add_md: bool = True) -> str:
    """Forgive how a model may quote a path: `"a b.md"`, 'x.md', `x.md`, <x.md>, [[x]], a
    trailing colon, and a page path without '.md' (wiki links omit it; only pages are written).
    """
    s = raw.strip()
    if s.endswith(":") and not s.endswith("::"):
        s = s[:-1].rstrip()
    for _ in range(3):  # e.g. `"x.md"`, **x.md**
        if len(s) >= 4 and s[:2] == s[-2:] and s[:2] in ("**", "__"):
            s = s[2:-2].strip()
        if len(s) >= 2 and (s[0], s[-1]) in (('"', '"'), ("'", "'"), ("`", "`"), ("<", ">")):
            s = s[1:-1].strip()
    if s.startswith("[[") and s.endswith("]]") and not set(s[2:-2]) & set("[]|#"):
        s = s[2:-2].strip()
    if add_md and s and not s.endswith(".md") and not _EXTENSION.search(s):
        s += ".md"
    while s.startswith("./"):
        s = s[2:]
    return unicodedata.normalize("NFC", s)  # as the vault keys paths (and the guards check)


_REWRITE_MARK = re.compile(r"\s*\(\s*(?:full\s+)?rewrite\s*\)\s*(?:@@@+\s*)?$", re.IGNORECASE)


def split_rewrite(raw: str) -> tuple[str, bool]:
    """`concepts/A.md (rewrite)` -> ("concepts/A.md", True): the reply declares that a WRITE
    replaces the page on purpose (docs/edit-protocol.md, "Whole-page rewrites")."""
    m = _REWRITE_MARK.search(raw)
    return (raw[: m.start()], True) if m else (raw, False)


def read_path(raw: str) -> tuple[str, str | None]:
    """The page path a marker line names, and a repair note when it had to be cleaned.

    Beyond clean_path: a trailing `@@@`, and a note after the path (`concepts/A.md (new page)`,
    `[[A]] — new`): cut after the first `.md` (unless the whole text ends in `.md`), or a
    recognised note such as `(new page)` / `— updated` at the end.
    """
    s = raw.strip()
    t = _TRAILING_MARKER.sub("", s)
    if not clean_path(t, add_md=False).endswith(".md"):
        m = _MD_END.search(t)
        if m and t[m.end():].strip():
            head, tail = t[: m.end()], t[m.end():]
            while tail[:1] in ('"', "'", "`", ">", "]"):
                head, tail = head + tail[0], tail[1:]
            t = head
        else:
            t = _PATH_NOTE.sub("", t)
    path = clean_path(t)
    if path == unicodedata.normalize("NFC", s):
        return path, None
    return path, f"read the path '{path}' from '{s}'"


def path_line(line: str) -> str | None:
    """The page a prose line names when the line is a path (`**concepts/A.md**`, `File: x.md`)
    or quotes exactly one (`Edit `concepts/A.md`:`): aider-style formats put it on the line
    before the edit. A sentence that merely mentions a page names none."""
    if ".md" not in line:
        return None
    quoted = _QUOTED_PATH.findall(line)
    if len(quoted) == 1:
        return clean_path("".join(quoted[0]))
    m = _BARE_PATH.match(line.rstrip("\r\n"))
    if not m:
        return None
    text = m.group(1)
    if (" " in text.split("/", 1)[0]) if "/" in text else len(text.split()) > 4:
        return None  # words before the folder: a sentence, not a path
    return clean_path(text)
