"""How the parser reads a reply as the model meant it when the model slipped (docs/edit-protocol.md,
"Repairs"). Pure functions over strings and line lists; protocol.py calls them.

Each repair returns a short sentence for the review (Block.repairs / ParsedReply.repairs): no
repair is silent. Where a slip cannot be read without guessing at a page line, the parser
refuses instead, with a message that says what to send.
"""

from __future__ import annotations

import re
import unicodedata

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*?[ \t\r]*$")
_WRAPPER_INFO = {"", "markdown", "md"}
_YAML_INFO = {"yaml", "yml"}
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,6}$")  # "x.txt", "x.MD", "x.canvas": for the guards
_MD_END = re.compile(r"\.md(?![\w.])")
_TRAILING_MARKER = re.compile(r"[ \t]+@@@+[ \t]*$")
# A note after a path that names no page: `(new page)`, `— new`, `- updated`.
_NOTE_WORDS = r"(?:new|new page|new file|create[sd]?|creating|update[sd]?|updating|edit(?:ed)?|" \
              r"overwrite|rewrite|rewritten|replace[sd]?|draft|modified|changed?)"
_NOTE_ONLY = rf"{_NOTE_WORDS}(?:\s+(?:page|file|note))?"  # nothing more: "(new findings)" is a name
_PATH_NOTE = re.compile(rf"\s+(?:\(\s*{_NOTE_ONLY}\s*\)|[—–-]{{1,2}}\s*{_NOTE_ONLY})\s*$",
                        re.IGNORECASE)
_HEADING_OR_FRONTMATTER = re.compile(r"^(?:---|#{1,6}\s)")
_YAML_LINE = re.compile(r"^(?:[A-Za-z_][\w -]*:(?:\s.*)?|\s+.*|-\s.*|#.*)$")
# A line that speaks to the person about the edit, not page text ("Now let me add the link:").
_NOTE_LINE = re.compile(
    r"^(?:(?:now|next|then|also|finally|and)[ ,]+)?"
    r"(?:i'll|i will|i'm going to|i've|i have|let me|let's|we'll|here's|here is|"
    r"this (?:edit|change|block|pair|adds|updates|fixes|replaces|removes)\b)"
    r"|^(?:now|next),?\s+(?:the|for|update|add|fix|change|replace|remove)\b.*:$"
    r"|^(?:first|second|third|next|another|last|final)\s+(?:edit|change|pair)\b.*:$"
    r"|^(?:edit|change|pair)\s*#?\d+\s*[:)]", re.IGNORECASE)


# -- fences ------------------------------------------------------------------------------------

def fence(line: str) -> tuple[str, str] | None:
    """(fence run, info word lower-cased) if `line` is a fence line, else None."""
    if "`" not in line and "~" not in line:
        return None
    m = _FENCE.match(line.rstrip("\n"))
    if not m:
        return None
    run, info = m.group(1), m.group(2)
    if run[0] == "~" or "`" not in info:
        return run, info.lower()
    return None


def closes(line: str, run: str) -> bool:
    """`line` closes a fence opened with `run` (bare, same character, at least as long)."""
    f = fence(line)
    return f is not None and f[1] == "" and f[0][0] == run[0] and len(f[0]) >= len(run)


def open_fence(lines: list[str]) -> str | None:
    """The run of a fence the lines leave open (CommonMark pairing), None if all are closed."""
    open_run: str | None = None
    for line in lines:
        if open_run is None:
            f = fence(line)
            if f is not None:
                open_run = f[0]
        elif closes(line, open_run):
            open_run = None
    return open_run


def balanced(lines: list[str]) -> bool:
    """Every fence the lines open is closed again."""
    return open_fence(lines) is None


def _last_text(lines: list[str]) -> int:
    last = len(lines) - 1
    while last > 0 and not lines[last].strip():
        last -= 1
    return last


def unwrap_page(lines: list[str]) -> tuple[list[str], str | None]:
    """Drop a ```markdown / ```md / bare fence the model wrapped around a WRITE page.

    - the first line's fence closes on the last non-blank line: both go;
    - the page (frontmatter, or after ```markdown/```md a heading, right after the fence) has
      fences of its own, all paired, and the last non-blank line is one more closing fence
      (even a shorter one): both go;
    - the same, but no closing fence left: the model closed it after '@@@ END' (or forgot):
      the first line goes.
    A page whose first fence is closed by a fence of its own is kept exactly as written.
    """
    if len(lines) < 2:
        return lines, None
    opened = fence(lines[0])
    if opened is None or opened[1] not in _WRAPPER_INFO:
        return lines, None
    run, last = opened[0], _last_text(lines)
    note = f"unwrapped a {lines[0].strip()} fence around the page"
    first_close = next((i for i in range(1, last + 1) if closes(lines[i], run)), None)
    if first_close == last:
        return lines[1:last], note
    body = next((line for line in lines[1:] if line.strip()), "").strip()
    # A bare fence may open a page's first code block (`# install` in a shell block): only a
    # frontmatter line after it says "page". After ```markdown a heading says so too.
    if not (body == "---" or (opened[1] and _HEADING_OR_FRONTMATTER.match(body))):
        return lines, None
    if closes(lines[last], run[0] * 3) and balanced(lines[1:last]):  # ````md ... ``` too:
        return lines[1:last], note  # models ignore a request for a longer fence (aider #2879)
    if balanced(lines[1:]):
        return lines[1:], note + " (its closing fence came after '@@@ END')"
    return lines, None


def unwrap_fenced(lines: list[str]) -> list[str]:
    """The page without a fence the model wrapped around it (see unwrap_page)."""
    return unwrap_page(lines)[0]


def unwrap_yaml_frontmatter(lines: list[str]) -> tuple[list[str], str | None]:
    """Frontmatter the model put in a ```yaml fence becomes frontmatter again.

    Accepted shapes: the fence holds `---`-delimited YAML, or bare `key: value` lines with a
    `title:` (the field every page has); or the fence sits inside the `---` lines. Anything
    else is left alone (a page may well start with a YAML example).
    """
    start = 1 if lines and lines[0].rstrip("\r\n") == "---" else 0
    if len(lines) < start + 3:
        return lines, None
    opened = fence(lines[start])
    if opened is None or opened[1] not in _YAML_INFO:
        return lines, None
    end = next((i for i in range(start + 1, len(lines)) if closes(lines[i], opened[0])), None)
    if end is None:
        return lines, None
    inner, rest = lines[start + 1 : end], lines[end + 1 :]
    nl = "\r\n" if lines[start].endswith("\r\n") else "\n"
    note = f"unwrapped a {lines[start].strip()} fence around the frontmatter"
    texts = [x.rstrip("\r\n") for x in inner]
    if start:  # ---, ```yaml, ..., ```, ---
        if rest and rest[0].rstrip("\r\n") == "---":
            return ["---" + nl, *inner, *rest], note
        return lines, None
    if len(texts) >= 2 and texts[0] == "---" and "---" in texts[1:]:
        return [*inner, *rest], note
    body = [t for t in texts if t.strip()]
    if body and all(_YAML_LINE.match(t) for t in body) and any(t.startswith("title:")
                                                                 for t in body):
        return ["---" + nl, *inner, "---" + nl, *rest], note
    return lines, None


# -- paths -------------------------------------------------------------------------------------

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
    if not clean_path(t, add_md=False).endswith((".md", ".canvas")):
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


# -- notes and other formats -------------------------------------------------------------------

def is_note_to_person(line: str) -> bool:
    """A line that talks about the edit ("Now let me add the link:"), not page text."""
    text = line.strip()
    return bool(text) and bool(_NOTE_LINE.match(text))


def trailing_note(lines: list[str]) -> int | None:
    """Index of a last non-blank line that is a note to the person, else None."""
    last = _last_text(lines) if lines else -1
    if last < 0 or not is_note_to_person(lines[last]):
        return None
    return last


_DIFF_OLD = re.compile(r"^--- (?:a/)?(\S.*?)(?:\t.*)?\s*$")
_DIFF_NEW = re.compile(r"^\+\+\+ (?:b/)?(\S.*?)(?:\t.*)?\s*$")
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+?)\s*$")
# `SEARCH:` / `REPLACE:` written as words instead of the '@@@' marker lines.
WORD_MARKER = re.compile(r"^\W*(?:SEARCH|FIND|REPLACE|REPLACE WITH)\W*$", re.IGNORECASE)
# Cline / Roo Code style tool calls written as XML: <write_to_file><path>..</path><content>..
_XML_TOOL = re.compile(r"^\s*<(write_to_file|create_file|replace_in_file|edit_file|apply_diff|"
                       r"insert_content|search_and_replace)>", re.IGNORECASE)
_XML_BODY = re.compile(r"^\s*<(content|diff|new_str|replace)>", re.IGNORECASE)
_JSON_PATH = re.compile(r'"(?:path|file_path|filePath|filename|file|target_file)"\s*:\s*"([^"]+)"')
_JSON_EDIT = re.compile(r'"(?:content|new_string|new_str|old_string|old_str|replace|'
                        r'contents|text|diff|patch|edits)"\s*:')
_QUOTED_PATH = re.compile(r"`([^`]+\.md)`|\*\*([^*]+\.md)\*\*|<path>\s*([^<]+\.md)\s*</path>")
_BARE_PATH = re.compile(r"^\s*(?:[*_`#>]+\s*)?(?:File:\s*)?([^\s`*][^`*]*?\.md)\s*[`*_:]*\s*$",
                        re.IGNORECASE)

# What to send instead, per foreign format (the message the model gets back).
_SEND_EDIT = ("send '@@@ EDIT {path}', then '@@@ SEARCH' with the old lines exactly as in the "
              "page (no '-'/'+' prefixes), '@@@ REPLACE' with the new lines, and '@@@ END'")
_SEND_WRITE = "send '@@@ WRITE {path}', the complete page (no ``` fence around it), and '@@@ END'"


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


class ForeignFormats:
    """Watches prose lines for edits written in another tool's format (unified diff, apply_patch,
    JSON tool calls, aider's whole-file fence) so the reply can be refused with what to send."""

    def __init__(self) -> None:
        self.found: list[tuple[str, str, int, str]] = []  # (what, path, line, send)
        self.alone: list[tuple[str, str, int, str]] = []  # as found, for replies without blocks
        self._named: str | None = None  # the last prose line that was a page path
        self._old: str | None = None  # path of a '--- a/x' line just seen
        self._json_path: tuple[str, int] | None = None
        self._json_edit = False
        self._path_line: tuple[str, int] | None = None  # a prose line that is only a page path
        self._xml_tool: str | None = None  # an XML tool call is open: its tag
        self._xml_path: tuple[str, int] | None = None
        self.whole: tuple[str, int] | None = None  # such a path followed by a fence opener

    def prose_line(self, line: str, line_no: int) -> None:
        text = line.rstrip("\r\n")
        named, self._path_line = self._path_line, None
        old, self._old = self._old, None
        if text.startswith("--- "):
            m = _DIFF_OLD.match(text)
            self._old = m.group(1) if m else None
            return
        if old is not None and (m := _DIFF_NEW.match(text)):
            path = m.group(1) if m.group(1) != "/dev/null" else old
            self._add("a unified diff", path, line_no, _SEND_EDIT)
            return
        if _HUNK.match(text) and not any(w == "a unified diff" for w, *_ in self.found):
            self._add("a unified diff", "", line_no, _SEND_EDIT)
            return
        if m := _PATCH_FILE.match(text):
            self._add("an apply_patch patch ('*** Begin Patch')", m.group(1), line_no, _SEND_EDIT)
            return
        if "<" in text and self._xml_line(text, line_no):
            return
        if '"' in text:
            if m := _JSON_PATH.search(text):
                self._json_path = (m.group(1), line_no)
            if _JSON_EDIT.search(text):
                self._json_edit = True
            if self._json_path and self._json_edit:
                path, n = self._json_path
                self._add("a JSON tool call", path, n, _SEND_WRITE)
                self._json_path, self._json_edit = None, False
            return
        if named is not None and (f := fence(text)) is not None and f[1] in _WRAPPER_INFO:
            self.whole = self.whole or named
            return
        if (path := path_line(text)) is not None:
            self._path_line = (path, line_no)
            self._named = path
        elif WORD_MARKER.match(text) and not self.alone:
            self.alone.append(("SEARCH/REPLACE sections written without the '@@@' marker lines",
                               self._named or "", line_no, _SEND_EDIT))

    def _xml_line(self, text: str, line_no: int) -> bool:
        if m := _XML_TOOL.match(text):
            self._xml_tool, self._xml_path = m.group(1).lower(), None
        elif self._xml_tool and (m := re.search(r"<path>\s*([^<]+?)\s*</path>", text)):
            self._xml_path = (m.group(1), line_no)
        elif self._xml_tool and self._xml_path and _XML_BODY.match(text):
            path, n = self._xml_path
            send = _SEND_WRITE if self._xml_tool in ("write_to_file", "create_file") else _SEND_EDIT
            self._add(f"an XML tool call (<{self._xml_tool}>)", path, n, send)
            self._xml_tool = None
        else:
            return False
        return True

    def _add(self, what: str, path: str, line_no: int, send: str) -> None:
        path = clean_path(path) if path else ""
        if not any(p == path and w == what for w, p, _, _ in self.found):
            self.found.append((what, path, line_no, send))

    def refusals(self, touched: set[str], any_block: bool) -> list[tuple[str, int, str]]:
        """(message, line, path) for every foreign edit of a page no block of the reply touches;
        aider's whole-file shape only when the reply has no block at all (else it may be an
        illustration)."""
        out = []
        for what, path, line_no, send in self.found:
            if (path in touched) if path else any_block:
                continue  # shown beside a block of the same page, or a hunk naming no page
            target = path or "path/to/Page.md"
            out.append((f"this looks like {what}" + (f" for {path}" if path else "")
                        + "; wiki-tui only reads its own edit blocks, nothing was changed. "
                        "Instead, " + send.format(path=target), line_no, path))
        for what, path, line_no, send in self.alone if not any_block else ():
            out.append((f"the reply has no edit block; this looks like {what}"
                        + (f" for {path}" if path else "") + ". Instead, "
                        + send.format(path=path or "path/to/Page.md"), line_no, path))
        if self.whole and not any_block and self.whole[0] not in touched:
            path, line_no = self.whole
            out.append((f"the reply has no edit block; '{path}' followed by a ``` fence looks "
                        "like a whole page in a code fence, which is not applied. Instead, "
                        + _SEND_WRITE.format(path=path), line_no, path))
        return out
