"""Edits written in other tools' formats, seen in the prose of a reply: aider's SEARCH/REPLACE
markers (read as meant), and a unified diff, an apply_patch patch, a JSON or XML tool call, an
XML element holding a page (`<write path="...">`), a shell here-document (`cat > path <<EOF`),
aider's whole-file fence, `SEARCH:`/`REPLACE:` words (refused, saying what to send instead).
Beside the reply's own blocks, such text is an illustration only where it shows one of them (a
diff of a block's pair, a page a block writes); otherwise it is an edit left out, and refused
naming its line. Nothing in another format is ever dropped or applied unseen.
"""

from __future__ import annotations

import re

from wiki_tui.changes.reply.fences import WRAPPER_INFO, fence
from wiki_tui.changes.reply.markers import WORD_MARKER
from wiki_tui.changes.reply.paths import clean_path, path_line

# aider's SEARCH/REPLACE markers, read as '@@@ SEARCH' / '@@@ REPLACE' (stream.py, open_block.py)
AIDER_SEARCH = re.compile(r"^[ \t]*<{7} ?SEARCH[ \t\r]*$")
AIDER_DIVIDER = re.compile(r"^[ \t]*={7}[ \t\r]*$")
AIDER_REPLACE = re.compile(r"^[ \t]*>{7} ?REPLACE[ \t\r]*$")
AIDER_NOTE = ("read aider's '<<<<<<< SEARCH' / '=======' / '>>>>>>> REPLACE' markers as "
              "SEARCH/REPLACE")
# Formats refused with what to send instead.
_DIFF_OLD = re.compile(r"^--- (?:a/)?(\S.*?)(?:\t.*)?\s*$")
_DIFF_NEW = re.compile(r"^\+\+\+ (?:b/)?(\S.*?)(?:\t.*)?\s*$")
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+?)\s*$")
# Cline / Roo Code style tool calls written as XML: <write_to_file><path>..</path><content>..
_XML_TOOL = re.compile(r"^\s*<(write_to_file|create_file|replace_in_file|edit_file|apply_diff|"
                       r"insert_content|search_and_replace)>", re.IGNORECASE)
_XML_BODY = re.compile(r"^\s*<(content|diff|new_str|replace)>", re.IGNORECASE)
# A page written as one XML element naming its file: <write path="entities/H4.md">, <file
# name="...">, <edit file='...'> (the shape several chat tools ask models for).
_XML_FILE = re.compile(r"^\s*<(write|file|edit|create|update|replace|patch|new_file|document|"
                       r"artifact)\b[^>]*?\b(?:path|file|filename|file_path|name)\s*=\s*"
                       r"[\"']([^\"']+)[\"']", re.IGNORECASE)
# A page written by a shell here-document: `cat > entities/H4.md <<'EOF'`, `tee path <<EOF`.
_HEREDOC = re.compile(r"^\s*(?:\$\s*)?(?:cat\s*>>?|tee(?:\s+-a)?)\s*['\"]?([^\s'\"<>|]+)['\"]?"
                      r"\s*<<-?\s*['\"]?\w+['\"]?\s*$")
# Function calls written out as XML (<invoke name="str_replace_editor"> with <parameter
# name="path">..</parameter>): the tool's name, its path, the parameter holding the text.
_XML_INVOKE = re.compile(r"^\s*<(?:antml:)?invoke\s+name=[\"']([\w.-]+)[\"']\s*>", re.IGNORECASE)
_XML_PARAM_PATH = re.compile(r"<(?:antml:)?parameter\s+name=[\"'](?:path|file_path|filePath|"
                             r"target_file|filename)[\"']\s*>\s*([^<]+?)\s*<", re.IGNORECASE)
_XML_PARAM_BODY = re.compile(r"^\s*<(?:antml:)?parameter\s+name=[\"'](file_text|content|"
                             r"contents|new_str|old_str|new_string|old_string|diff|patch)[\"']",
                             re.IGNORECASE)
_JSON_PATH = re.compile(r'"(?:path|file_path|filePath|filename|file|target_file)"\s*:\s*"([^"]+)"')
_JSON_EDIT = re.compile(r'"(?:content|new_string|new_str|old_string|old_str|replace|'
                        r'contents|text|diff|patch|edits)"\s*:')
# What to send instead, per foreign format (the message the model gets back).
_SEND_EDIT = ("send '@@@ EDIT {path}', then '@@@ SEARCH' with the old lines exactly as in the "
              "page (no '-'/'+' prefixes), '@@@ REPLACE' with the new lines, and '@@@ END'")
_SEND_WRITE = "send '@@@ WRITE {path}', the complete page (no ``` fence around it), and '@@@ END'"


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
        self._whole_next: tuple[str, int] | None = None  # ...whose first line decides
        self.pages: list[tuple[str, int]] = []  # whole pages in a fence under their path
        self.hunks: list[tuple[int, list[str], list[str]]] = []  # bare hunks: line, -, +
        self._hunk: tuple[int, list[str], list[str]] | None = None

    def prose_line(self, line: str, line_no: int) -> None:
        text = line.rstrip("\r\n")
        if self._hunk is not None and self._hunk_line(text):
            return
        if self._whole_next is not None and text.strip():
            if text.strip() == "---" or text.startswith("# "):  # frontmatter or a title: a page
                self.pages.append(self._whole_next)
            self._whole_next = None
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
            self._hunk = (line_no, [], [])
            return
        if _HUNK.match(text):
            self._hunk = None
            return
        if m := _PATCH_FILE.match(text):
            self._add("an apply_patch patch ('*** Begin Patch')", m.group(1), line_no, _SEND_EDIT)
            return
        if "<" in text and self._xml_line(text, line_no):
            return
        if "<<" in text and (m := _HEREDOC.match(text)):
            self._add("a shell here-document", m.group(1), line_no, _SEND_WRITE)
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
        if named is not None and (f := fence(text)) is not None and f[1] in WRAPPER_INFO:
            self.whole = self.whole or named
            self._whole_next = named
            return
        if (path := path_line(text)) is not None:
            self._path_line = (path, line_no)
            self._named = path
        elif WORD_MARKER.match(text) and not self.alone and not fence(text):
            self.alone.append(("SEARCH/REPLACE sections written without the '@@@' marker lines",
                               self._named or "", line_no, _SEND_EDIT))

    def _hunk_line(self, text: str) -> bool:
        """A line of a bare hunk's body ('-', '+' or ' ' lines); False when the hunk ended."""
        assert self._hunk is not None
        if text[:1] == "-" and text[:3] != "---":
            self._hunk[1].append(text[1:].strip())
        elif text[:1] == "+" and text[:3] != "+++":
            self._hunk[2].append(text[1:].strip())
        elif text[:1] != " " and text.strip():
            self.hunks.append(self._hunk)
            self._hunk = None
            return False
        return True

    def _xml_line(self, text: str, line_no: int) -> bool:
        if m := _XML_FILE.match(text):
            kind = m.group(1).lower()
            self._add(f"an XML element holding a page (<{kind} ...>)", m.group(2), line_no,
                      _SEND_EDIT if kind in ("edit", "update", "replace", "patch") else _SEND_WRITE)
        elif m := _XML_TOOL.match(text):
            self._xml_tool, self._xml_path = m.group(1).lower(), None
        elif m := _XML_INVOKE.match(text):
            self._xml_tool, self._xml_path = "invoke " + m.group(1), None
        elif self._xml_tool and (m := re.search(r"<path>\s*([^<]+?)\s*</path>", text)
                                 or _XML_PARAM_PATH.search(text)):
            self._xml_path = (m.group(1), line_no)
        elif self._xml_tool and self._xml_path and (
                (m := _XML_BODY.match(text)) or (m := _XML_PARAM_BODY.match(text))):
            path, n = self._xml_path
            whole = self._xml_tool in ("write_to_file", "create_file") or \
                m.group(1).lower() in ("file_text", "content", "contents")
            tool = self._xml_tool
            what = (f"an XML function call (<invoke name=\"{tool[7:]}\">)"
                    if tool.startswith("invoke ") else f"an XML tool call (<{tool}>)")
            self._add(what, path, n, _SEND_WRITE if whole else _SEND_EDIT)
            self._xml_tool = None
        else:
            return False
        return True

    def _add(self, what: str, path: str, line_no: int, send: str) -> None:
        path = clean_path(path) if path else ""
        if not any(p == path and w == what for w, p, _, _ in self.found):
            self.found.append((what, path, line_no, send))

    def refusals(self, blocks: list) -> list[tuple[str, int, str]]:
        """(message, line, path) for every foreign edit no block of the reply accounts for: an
        edit of a page no block touches, a bare hunk that is no block's pair shown as a diff,
        `SEARCH:`/`REPLACE:` words or a whole page fenced under its path for a page no block
        touches (beside a block of the same page they illustrate it)."""
        touched = {p for b in blocks for p in (b.path, b.new_path) if p}
        if self._hunk is not None:
            self.hunks.append(self._hunk)
            self._hunk = None
        out = []
        for what, path, line_no, send in self.found:
            if (path and path in touched) or (not path and blocks and self._shown(line_no, blocks)):
                continue  # shown beside a block of the same page, or a hunk of a block's pair
            target = path or "path/to/Page.md"
            out.append((f"this looks like {what}" + (f" for {path}" if path else "")
                        + "; wiki-tui only reads its own edit blocks, so it was not applied. "
                        "Instead, " + send.format(path=target), line_no, path))
        for what, path, line_no, send in self.alone:
            if path and path in touched:
                continue
            lead = "the reply has no edit block; " if not blocks else ""
            out.append((f"{lead}this looks like {what}" + (f" for {path}" if path else "")
                        + ", which is not applied. Instead, "
                        + send.format(path=path or "path/to/Page.md"), line_no, path))
        wholes = self.pages if blocks else ([self.whole] if self.whole else [])
        for path, line_no in wholes:
            if path in touched:
                continue
            lead = "the reply has no edit block; " if not blocks else ""
            out.append((f"{lead}'{path}' followed by a ``` fence looks like a whole page in a "
                        "code fence, which is not applied. Instead, "
                        + _SEND_WRITE.format(path=path), line_no, path))
        return out

    def _shown(self, line_no: int, blocks: list) -> bool:
        """A bare hunk (no page named) whose lines are an EDIT pair of the reply: the model
        showed its change as a diff. A hunk that is no block's is an edit left out."""
        hunk = next((h for h in self.hunks if h[0] == line_no), None)
        if hunk is None:
            return False
        old = {t.strip() for b in blocks for s, _ in b.edits for t in s.splitlines()}
        new = {t.strip() for b in blocks for _, r in b.edits for t in r.splitlines()}
        new |= {t.strip() for b in blocks if b.content for t in b.content.splitlines()}
        return bool(hunk[1] or hunk[2]) and set(hunk[1]) <= old and set(hunk[2]) <= new
