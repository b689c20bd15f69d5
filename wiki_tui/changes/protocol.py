"""Streaming parser for the edit protocol the model writes inside its reply (docs/edit-protocol.md).

    @@@ WRITE concepts/Foo.md          whole page, up to @@@ END
    @@@ EDIT concepts/Foo.md           one or more @@@ SEARCH / @@@ REPLACE pairs, up to @@@ END
    @@@ DELETE concepts/Old.md         one line
    @@@ RENAME old/Name.md -> new/Name.md   one line

Marker lines start with `@@@` and a keyword; markdown never does, so fences, frontmatter, `---`
rules and git conflict markers inside a page cannot end a block. The parser works on whole lines:
each chunk is split at newlines, complete lines are handled once, and only the unfinished last
line is kept, so feeding a long reply costs O(length) whatever the chunking.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

WRITE, EDIT, DELETE, RENAME = "write", "edit", "delete", "rename"
BLOCK_KINDS = (WRITE, EDIT, DELETE, RENAME)

# `@@@ KEYWORD rest`: leading/trailing blanks and keyword case are forgiven (models drift).
_MARKER = re.compile(r"^[ \t]*@@@[ \t]*([A-Za-z]+)\b[ \t]*(.*?)[ \t\r]*$")
_OPENERS = {"WRITE": WRITE, "EDIT": EDIT, "DELETE": DELETE, "RENAME": RENAME}
_RENAME_ARROW = re.compile(r"\s+(?:->|=>|→)\s+")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*?[ \t\r]*$")
_UNWRAP_INFO = {"", "markdown", "md"}
_PUNCT_ONLY = re.compile(r"[^\w\s]*")
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")  # "x.txt", "x.MD": left for the guards to judge


# -- the parsed data ---------------------------------------------------------------------------

@dataclass
class Block:
    """One edit the model proposed. `complete` is False for a block the reply cut off."""

    kind: str  # WRITE | EDIT | DELETE | RENAME
    path: str  # the page written/edited/deleted, or a rename's source
    content: str | None = None  # WRITE: the whole page text
    edits: list[tuple[str, str]] = field(default_factory=list)  # EDIT: (search, replace) pairs
    new_path: str | None = None  # RENAME: destination
    complete: bool = True
    line: int = 0  # 1-based line of the opening marker in the reply
    end_line: int = 0  # 1-based line of the closing marker (0 if none)
    # What the parser changed to read this block as meant (e.g. "unwrapped a ```markdown fence
    # around the page"): shown in the review and in --json, never applied silently.
    repairs: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class BlockStarted:
    path: str
    kind: str
    line: int = 0


class BlockProgress:
    """A block's body grew. `text_so_far` is joined lazily, so emitting this is O(1)."""

    __slots__ = ("path", "kind", "_lines", "_count", "_start", "_text")

    def __init__(self, path: str, kind: str, lines: list[str], count: int, start: int) -> None:
        self.path, self.kind = path, kind
        self._lines, self._count, self._start = lines, count, start
        self._text: str | None = None

    @property
    def text_so_far(self) -> str:
        """The block's body so far (for EDIT: including its SEARCH/REPLACE marker lines)."""
        if self._text is None:
            self._text = "".join(self._lines[: self._count])
        return self._text

    @property
    def new_text(self) -> str:
        """Only the lines added since the previous progress event of this block."""
        return "".join(self._lines[self._start : self._count])

    def __repr__(self) -> str:
        return f"BlockProgress(path={self.path!r}, kind={self.kind!r}, lines={self._count})"


@dataclass(frozen=True)
class BlockComplete:
    block: Block


@dataclass(frozen=True)
class BlockIncomplete:
    block: Block  # the reply ended inside this block; it must not be applied


@dataclass(frozen=True)
class ProtocolError:
    message: str  # precise and actionable: it is sent back to the model
    line: int  # 1-based line in the reply
    path: str | None = None  # the block it concerns, if any (that block is dropped)

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class Prose:
    text: str  # reply text outside blocks (complete lines)


ParseEvent = BlockStarted | BlockProgress | BlockComplete | BlockIncomplete | ProtocolError | Prose


@dataclass
class ParsedReply:
    blocks: list[Block]  # complete, well-formed blocks in reply order
    errors: list[ProtocolError]
    prose: str
    incomplete: list[Block] = field(default_factory=list)  # cut off by the end of the reply
    repairs: list[str] = field(default_factory=list)  # reply-wide repairs (not one block's)


# -- helpers -----------------------------------------------------------------------------------

def clean_path(raw: str, *, add_md: bool = True) -> str:
    """Forgive how a model may quote a path: `"a b.md"`, 'x.md', `x.md`, <x.md>, [[x]], a
    trailing colon, and a page path without '.md' (wiki links omit it; only pages are written).
    """
    s = raw.strip()
    if s.endswith(":") and not s.endswith("::"):
        s = s[:-1].rstrip()
    for _ in range(2):  # e.g. `"x.md"`
        if len(s) >= 2 and (s[0], s[-1]) in (('"', '"'), ("'", "'"), ("`", "`"), ("<", ">")):
            s = s[1:-1].strip()
    if s.startswith("[[") and s.endswith("]]") and not set(s[2:-2]) & set("[]|#"):
        s = s[2:-2].strip()
    if add_md and s and not s.endswith(".md") and not _EXTENSION.search(s):
        s += ".md"
    while s.startswith("./"):
        s = s[2:]
    return unicodedata.normalize("NFC", s)  # as the vault keys paths (and the guards check)


def _fence(line: str) -> tuple[str, str] | None:
    """(fence run, info word) if `line` is a fence line, else None."""
    if "`" not in line and "~" not in line:
        return None
    m = _FENCE.match(line.rstrip("\n"))
    if not m:
        return None
    run, info = m.group(1), m.group(2)
    if run[0] == "~" or "`" not in info:
        return run, info.lower()
    return None


def _is_closing_fence(line: str, run: str) -> bool:
    f = _fence(line)
    return f is not None and f[1] == "" and f[0][0] == run[0] and len(f[0]) >= len(run)


def unwrap_fenced(lines: list[str]) -> list[str]:
    """Drop a fence the model wrapped around a whole page (```markdown ... ```).

    Only when the first line opens a bare/markdown fence and that same fence closes on the last
    non-blank line: a page whose fences close earlier is left exactly as written.
    """
    if len(lines) < 2:
        return lines
    opened = _fence(lines[0])
    if opened is None or opened[1] not in _UNWRAP_INFO:
        return lines
    last = len(lines) - 1
    while last > 0 and not lines[last].strip():
        last -= 1
    for i in range(1, last + 1):
        if _is_closing_fence(lines[i], opened[0]):
            return lines[1:i] if i == last else lines
    return lines


def _keyword_in_block(m: re.Match[str]) -> str | None:
    """The marker a line inside an open block really is, or None for page text.

    Stricter than outside a block, because a page line is at stake: openers must be upper case
    and name a page (or a rename), END/SEARCH/REPLACE may only be followed by punctuation, the
    kind (`@@@ END WRITE`) or a path (`@@@ END concepts/A.md`).
    """
    word, rest = m.group(1), m.group(2)
    kw = word.upper()
    if kw in ("SEARCH", "REPLACE"):
        return kw if _PUNCT_ONLY.fullmatch(rest) else None
    if kw == "END":
        quiet = (_PUNCT_ONLY.fullmatch(rest) or rest.upper() in ("WRITE", "EDIT")
                 or clean_path(rest, add_md=False).endswith(".md"))
        return kw if quiet else None
    if kw in _OPENERS and word == kw:
        if kw == "RENAME":
            return kw if _RENAME_ARROW.search(rest) else None
        return kw if clean_path(rest, add_md=False).endswith(".md") else None
    return None


def _frontmatter_first(lines: list[str]) -> list[str]:
    """Blank lines a model put before a page's frontmatter would stop it being frontmatter."""
    k = 0
    while k < len(lines) and not lines[k].strip():
        k += 1
    if k and k < len(lines) and lines[k].rstrip("\r\n") == "---":
        return lines[k:]
    return lines


# -- the parser --------------------------------------------------------------------------------

class _Open:
    """A block being read."""

    __slots__ = ("block", "lines", "section", "search", "replace", "bad", "raw", "emitted")

    def __init__(self, block: Block) -> None:
        self.block = block
        self.raw: list[str] = []  # every body line, for progress previews
        self.lines: list[str] = []  # WRITE content lines
        self.section: str | None = None  # EDIT: None (before first SEARCH) | "search" | "replace"
        self.search: list[str] = []
        self.replace: list[str] = []
        self.bad = False  # a protocol error was reported; the block is dropped at END
        self.emitted = 0  # raw lines already covered by a progress event


class StreamParser:
    """Feed a reply in chunks of any size; get events as soon as they are known."""

    def __init__(self) -> None:
        self._tail: list[str] = []  # pieces of the unfinished last line
        self._line_no = 0
        self._open: _Open | None = None
        self._held_fence: str | None = None  # a prose fence line that may wrap the next block
        self._after_block = False  # the previous line closed a block (a wrapping fence may follow)
        self._after_block_oneliner = False  # a stray END right after DELETE/RENAME is forgiven
        self._prose_out: list[str] = []  # prose lines of the current feed() call
        self._closed = False
        self.blocks: list[Block] = []
        self.incomplete: list[Block] = []
        self.errors: list[ProtocolError] = []
        self.repairs: list[str] = []  # reply-wide repairs
        self._prose: list[str] = []

    # public API ---------------------------------------------------------------------------
    @property
    def in_block(self) -> bool:
        """A block is open: what streams now is page content, not prose."""
        return self._open is not None

    def feed(self, chunk: str) -> list[ParseEvent]:
        if "\n" not in chunk:  # the common streaming case: nothing to decide yet
            if self._closed:
                raise RuntimeError("StreamParser.feed() after close(): start a new parser")
            if chunk:
                self._tail.append(chunk)
            return []
        if self._closed:
            raise RuntimeError("StreamParser.feed() after close(): start a new parser")
        parts = chunk.split("\n")
        if self._tail:
            self._tail.append(parts[0])
            parts[0] = "".join(self._tail)
        last = parts.pop()
        self._tail = [last] if last else []
        events: list[ParseEvent] = []
        for line in parts:
            self._line(line + "\n", events)
        self._flush(events)
        return events

    def close(self) -> list[ParseEvent]:
        """The reply ended: handle the unfinished last line; an open block becomes incomplete."""
        if self._closed:
            return []
        self._closed = True
        events: list[ParseEvent] = []
        if self._tail:
            line = "".join(self._tail)
            self._tail = []
            self._line(line, events)
        if self._held_fence is not None:
            self._prose_out.append(self._held_fence)
            self._held_fence = None
        op = self._open
        if op is not None:
            self._open = None
            self._progress(op, events)
            block = op.block
            block.complete = False
            if block.kind == WRITE:
                block.content = "".join(op.lines)
            elif block.kind == EDIT:
                self._finish_pair(op, cut=True)
            self.incomplete.append(block)
            events.append(BlockIncomplete(block))
        self._flush(events)
        return events

    def result(self) -> ParsedReply:
        return ParsedReply(list(self.blocks), list(self.errors), "".join(self._prose),
                           list(self.incomplete), list(self.repairs))

    # lines --------------------------------------------------------------------------------
    def _line(self, line: str, events: list[ParseEvent]) -> None:
        self._line_no += 1
        marker = _MARKER.match(line) if "@@@" in line else None
        if self._open is not None:
            self._block_line(line, marker, events)
            return
        if marker is not None:
            self._outside_marker(marker, events)
            return
        after, self._after_block = self._after_block, False
        if line.strip():
            self._after_block_oneliner = False
        if after and (f := _fence(line)) is not None and f[1] == "":
            return  # the closing fence of a fence the model wrapped around a block
        self._prose_line(line)

    def _prose_line(self, line: str) -> None:
        if self._held_fence is not None:
            self._prose_out.append(self._held_fence)
            self._held_fence = None
        if _fence(line) is not None:
            self._held_fence = line  # decided by the next line: a block marker drops it
            return
        self._prose_out.append(line)

    def _outside_marker(self, m: re.Match[str], events: list[ParseEvent]) -> None:
        keyword, rest = m.group(1).upper(), m.group(2)
        self._held_fence = None  # a fence right before a marker only wrapped the block
        self._after_block = False
        kind = _OPENERS.get(keyword)
        if kind is None:
            if keyword == "END":
                if not self._after_block_oneliner:
                    self._error("'@@@ END' outside a block (no WRITE or EDIT is open); "
                                "nothing was closed", events)
            elif keyword in ("SEARCH", "REPLACE"):
                self._error(f"'@@@ {keyword}' outside an EDIT block: start the block with "
                            "'@@@ EDIT path/to/Page.md' first", events)
            else:
                self._error(f"unknown marker '@@@ {m.group(1)}': use WRITE, EDIT, DELETE, "
                            "RENAME, SEARCH, REPLACE or END", events)
            self._after_block_oneliner = False
            return
        self._after_block_oneliner = False
        self._flush_prose(events)
        line = self._line_no
        if kind == RENAME:
            pieces = _RENAME_ARROW.split(rest, maxsplit=1)
            if len(pieces) != 2 or not clean_path(pieces[0]) or not clean_path(pieces[1]):
                self._error("RENAME needs both paths: '@@@ RENAME old/Name.md -> new/Name.md'",
                            events)
                return
            block = Block(RENAME, clean_path(pieces[0]), new_path=clean_path(pieces[1]),
                          line=line, end_line=line)
            self._oneliner(block, events)
            return
        path = clean_path(rest)
        if not path:
            self._error(f"'@@@ {keyword}' needs a page path, e.g. "
                        f"'@@@ {keyword} concepts/Page Name.md'", events)
            return
        block = Block(kind, path, line=line)
        if kind == DELETE:
            block.end_line = line
            self._oneliner(block, events)
            return
        if kind == WRITE:
            block.content = ""
        self._open = _Open(block)
        events.append(BlockStarted(path, kind, line))

    def _oneliner(self, block: Block, events: list[ParseEvent]) -> None:
        events.append(BlockStarted(block.path, block.kind, block.line))
        self.blocks.append(block)
        events.append(BlockComplete(block))
        self._after_block = True
        self._after_block_oneliner = True

    def _block_line(self, line: str, m: re.Match[str] | None, events: list[ParseEvent]) -> None:
        op = self._open
        assert op is not None
        keyword = _keyword_in_block(m) if m else None
        if keyword == "END":
            self._end(op, events)
            return
        if keyword in _OPENERS:
            # The model started another block without closing this one: the open block may be
            # cut short, so it is dropped, and the new marker is handled as an opener.
            self._progress(op, events)
            self._open = None
            if not op.bad:
                self._error(f"the {op.block.kind.upper()} block for {op.block.path} "
                            f"(line {op.block.line}) was not closed with '@@@ END' before the "
                            "next block began; it was not used. Send it again, ending with "
                            "'@@@ END'", events, op.block.path)
            self._outside_marker(m, events)  # type: ignore[arg-type]
            return
        op.raw.append(line)
        block = op.block
        if block.kind == WRITE:
            op.lines.append(line)
            return
        # EDIT
        if keyword == "SEARCH":
            if op.section == "search":
                self._bad(op, "'@@@ SEARCH' again before '@@@ REPLACE'", events)
            elif op.section == "replace":
                self._finish_pair(op)
            op.section, op.search, op.replace = "search", [], []
            return
        if keyword == "REPLACE":
            if op.section != "search":
                self._bad(op, "'@@@ REPLACE' without a '@@@ SEARCH' before it", events)
                return
            op.section = "replace"
            return
        if op.section == "search":
            op.search.append(line)
        elif op.section == "replace":
            op.replace.append(line)
        elif line.strip() and not op.bad:
            hint = (" (write the marker lines '@@@ SEARCH' and '@@@ REPLACE', not "
                    "'<<<<<<< SEARCH' / '=======' / '>>>>>>> REPLACE')"
                    if line.lstrip().startswith("<<<<<<<") else "")
            self._bad(op, "text after '@@@ EDIT' before the first '@@@ SEARCH'; an EDIT block "
                      "holds only SEARCH/REPLACE pairs" + hint, events)

    def _finish_pair(self, op: _Open, cut: bool = False) -> None:
        if op.section == "replace" or (cut and op.section == "search"):
            op.block.edits.append(("".join(op.search), "".join(op.replace)))
        op.section = None

    def _end(self, op: _Open, events: list[ParseEvent]) -> None:
        self._progress(op, events)
        self._open = None
        self._after_block = True
        block = op.block
        block.end_line = self._line_no
        if block.kind == WRITE:
            block.content = "".join(_frontmatter_first(unwrap_fenced(op.lines)))
        else:
            if op.section == "search":
                self._bad(op, "'@@@ END' right after a SEARCH section: every SEARCH needs a "
                          "'@@@ REPLACE' section (leave it empty to delete the lines)", events)
            else:
                self._finish_pair(op)
            if not op.bad:
                if not block.edits:
                    self._bad(op, "an EDIT block without any '@@@ SEARCH' / '@@@ REPLACE' pair",
                              events)
                elif any(not s.strip() for s, _ in block.edits):
                    self._bad(op, "a SEARCH section is empty or blank: copy at least one "
                              "existing non-blank line of the page into it", events)
        if op.bad:
            return
        self.blocks.append(block)
        events.append(BlockComplete(block))

    def _bad(self, op: _Open, message: str, events: list[ParseEvent]) -> None:
        if op.bad:
            return
        op.bad = True
        self._error(f"EDIT block for {op.block.path} (line {op.block.line}): {message}. "
                    "The block was not used; send it again", events, op.block.path)

    # events -------------------------------------------------------------------------------
    def _error(self, message: str, events: list[ParseEvent], path: str | None = None) -> None:
        self._flush_prose(events)
        err = ProtocolError(message, self._line_no, path)
        self.errors.append(err)
        events.append(err)

    def _progress(self, op: _Open, events: list[ParseEvent]) -> None:
        n = len(op.raw)
        if n > op.emitted:
            events.append(BlockProgress(op.block.path, op.block.kind, op.raw, n, op.emitted))
            op.emitted = n

    def _flush_prose(self, events: list[ParseEvent]) -> None:
        if self._prose_out:
            text = "".join(self._prose_out)
            self._prose_out = []
            self._prose.append(text)
            events.append(Prose(text))

    def _flush(self, events: list[ParseEvent]) -> None:
        self._flush_prose(events)
        if self._open is not None:
            self._progress(self._open, events)


def _with_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def format_block(block: Block) -> str:
    """The protocol text for a block (what a model would write); parse_reply reads it back.

    A text that does not end with a newline gets one: every line before a marker ends in one.
    """
    if block.kind == WRITE:
        return f"@@@ WRITE {block.path}\n{_with_newline(block.content or '')}@@@ END\n"
    if block.kind == EDIT:
        pairs = "".join(f"@@@ SEARCH\n{_with_newline(s)}@@@ REPLACE\n{_with_newline(r)}"
                        for s, r in block.edits)
        return f"@@@ EDIT {block.path}\n{pairs}@@@ END\n"
    if block.kind == DELETE:
        return f"@@@ DELETE {block.path}\n"
    return f"@@@ RENAME {block.path} -> {block.new_path}\n"


def parse_reply(text: str) -> ParsedReply:
    """Parse a whole reply at once (same result as streaming it in any chunking)."""
    parser = StreamParser()
    parser.feed(text)
    parser.close()
    return parser.result()
