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
from dataclasses import dataclass, field

from wiki_tui.changes.protocol_repairs import (
    WORD_MARKER,
    ForeignFormats,
    clean_path,  # noqa: F401  (re-exported: callers import it from here)
    closes,
    fence,
    open_fence,
    path_line,
    read_path,
    split_rewrite,
    trailing_note,
    unwrap_fenced,  # noqa: F401  (re-exported)
    unwrap_page,
    unwrap_yaml_frontmatter,
)

WRITE, EDIT, DELETE, RENAME = "write", "edit", "delete", "rename"
BLOCK_KINDS = (WRITE, EDIT, DELETE, RENAME)

# `@@@ KEYWORD rest`: leading/trailing blanks and keyword case are forgiven (models drift).
_MARKER = re.compile(r"^[ \t]*@@@[ \t]*([A-Za-z]+)\b[ \t]*(.*?)[ \t\r]*$")
_OPENERS = {"WRITE": WRITE, "EDIT": EDIT, "DELETE": DELETE, "RENAME": RENAME}
_RENAME_ARROW = re.compile(r"\s+(?:->|=>|→)\s+")
_PUNCT_ONLY = re.compile(r"[^\w\s]*")


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
    rewrite: bool = False  # a WRITE marked `(rewrite)`: it replaces the page on purpose


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

_UPDATE = "update"  # UPDATE/MODIFY: an EDIT when SEARCH pairs follow, else a whole page (WRITE)
# Other verbs models use for the openers; read with a repair note.
_ALIASES = {"CREATE": WRITE, "NEW": WRITE, "ADD": WRITE, "UPDATE": _UPDATE, "MODIFY": _UPDATE,
            "REMOVE": DELETE, "MOVE": RENAME}
# A marker wrapped in bold or inline code: `**@@@ EDIT a.md**`, `` `@@@ END` ``.
_DECORATED = re.compile(r"^[ \t]*(\*\*|__|\*|`+)[ \t]*(@@@[^`*]*?)[ \t]*\1[ \t\r]*$")
_RENAME_TO = re.compile(r"(?<=\.md)\s+to\s+", re.IGNORECASE)  # RENAME a.md to b.md
_SECTION_WORDS = {"SEARCH": {"FOR"}, "REPLACE": {"WITH", "BY"}}  # `@@@ REPLACE WITH`
_THINK_OPEN = re.compile(r"^[ \t]*<(think|thinking|reasoning)>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</(think|thinking|reasoning)>", re.IGNORECASE)
_THINK_OPEN_ANY = re.compile(r"<(think|thinking|reasoning)>", re.IGNORECASE)
_THINK_STRAY = re.compile(r"^[ \t]*</(think|thinking|reasoning)>|</(think|thinking|reasoning)>"
                          r"[ \t\r]*$", re.IGNORECASE)
_AIDER_SEARCH = re.compile(r"^[ \t]*<{7} ?SEARCH[ \t\r]*$")
_AIDER_DIVIDER = re.compile(r"^[ \t]*={7}[ \t\r]*$")
_AIDER_REPLACE = re.compile(r"^[ \t]*>{7} ?REPLACE[ \t\r]*$")
_XML_TAG_LINE = re.compile(r"^\s*</?[A-Za-z_][\w-]*>\s*$")
_AIDER_NOTE = ("read aider's '<<<<<<< SEARCH' / '=======' / '>>>>>>> REPLACE' markers as "
               "SEARCH/REPLACE")


def _marker(line: str) -> tuple[re.Match[str] | None, str]:
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


def _opener_kind(keyword: str) -> str | None:
    return _OPENERS.get(keyword) or _ALIASES.get(keyword)


def _split_rename(rest: str) -> tuple[list[str], str | None]:
    pieces = _RENAME_ARROW.split(rest, maxsplit=1)
    if len(pieces) == 2:
        return pieces, None
    pieces = _RENAME_TO.split(rest, maxsplit=1)
    if len(pieces) == 2:
        return pieces, f"read 'to' in '@@@ RENAME {rest}' as '->'"
    return [rest], None


def _keyword_in_block(m: re.Match[str]) -> str | None:
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
    kind = _opener_kind(kw)
    if kind is not None and word == kw:
        if kind == RENAME:
            return kw if len(_split_rename(rest)[0]) == 2 else None
        return kw if (".md" in rest or ".canvas" in rest) \
            and read_path(rest)[0].endswith((".md", ".canvas")) else None
    return None


def _no_pair_hint(notes: list[str]) -> str:
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


def _frontmatter_first(lines: list[str]) -> list[str]:
    """Blank lines a model put before a page's frontmatter would stop it being frontmatter."""
    k = 0
    while k < len(lines) and not lines[k].strip():
        k += 1
    if k and k < len(lines) and lines[k].rstrip("\r\n") == "---":
        return lines[k:]
    return lines


def _quote(line: str) -> str:
    text = line.strip()
    return text if len(text) <= 80 else text[:77] + "..."


# -- the parser --------------------------------------------------------------------------------

class _Open:
    """A block being read."""

    __slots__ = ("block", "lines", "section", "search", "replace", "replace_nos", "bad", "raw",
                 "emitted", "decor", "aider", "standalone", "notes", "fence_run", "update",
                 "decorated_end")

    def __init__(self, block: Block, decor: str = "") -> None:
        self.block = block
        self.raw: list[str] = []  # every body line, for progress previews
        self.lines: list[str] = []  # WRITE content lines
        self.section: str | None = None  # EDIT: None (before first SEARCH) | "search" | "replace"
        self.search: list[str] = []
        self.replace: list[str] = []
        self.replace_nos: list[int] = []  # reply line of each REPLACE line (for messages)
        self.bad = False  # a protocol error was reported; the block is dropped at END
        self.emitted = 0  # raw lines already covered by a progress event
        self.decor = decor  # the opener was written `**@@@ ...**`: so may its other markers
        self.aider = False  # the pairs use aider's <<<<<<< SEARCH / ======= / >>>>>>> REPLACE
        self.standalone = False  # an aider block in prose: `>>>>>>> REPLACE` closes it
        self.notes: list[tuple[int, str]] = []  # EDIT: ignored lines outside any pair
        self.fence_run: str | None = None  # EDIT: a fence opened before the first SEARCH
        self.update: str | None = None  # the verb of an UPDATE/MODIFY block
        self.decorated_end: tuple[int, str] | None = None  # `**@@@ END**` read as page text


class StreamParser:
    """Feed a reply in chunks of any size; get events as soon as they are known."""

    def __init__(self) -> None:
        self._tail: list[str] = []  # pieces of the unfinished last line
        self._line_no = 0
        self._open: _Open | None = None
        self._held_fence: str | None = None  # a prose fence line that may wrap the next block
        self._prose_fence: str | None = None  # a code block open in the prose (its fence run)
        self._after_block = False  # the previous line closed a block (a wrapping fence may follow)
        self._after_block_oneliner = False  # a stray END right after DELETE/RENAME is forgiven
        self._prose_out: list[str] = []  # prose lines of the current feed() call
        self._closed = False
        self._think: tuple[int, str] | None = None  # an open <think> section: (line, tag)
        self._think_markers = 0  # marker lines seen inside it
        self._recent_path: str | None = None  # a prose line naming a page (aider puts it there)
        self._last_edit: str | None = None  # an EDIT that just ended (blank lines since)
        self._foreign = ForeignFormats()
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
        self._close_think(events)
        op = self._open
        if op is not None:
            self._open = None
            self._progress(op, events)
            block = op.block
            block.complete = False
            if block.kind == WRITE:
                block.content = "".join(op.lines)
            elif block.kind == EDIT:
                self._finish_pair(op)
            if op.decorated_end and not op.bad:
                n, text = op.decorated_end
                self._error(f"the {block.kind.upper()} block for {block.path} (line {block.line}) "
                            f"opened with a plain marker, so '{text}' (reply line {n}) was read as "
                            "page text, not as its end. End the block with a bare '@@@ END' line",
                            events, block.path, line=n)
            if block.path:
                self.incomplete.append(block)
                events.append(BlockIncomplete(block))
        self._refuse_foreign(events)
        self._flush(events)
        return events

    def result(self) -> ParsedReply:
        return ParsedReply(list(self.blocks), list(self.errors), "".join(self._prose),
                           list(self.incomplete), list(self.repairs))

    # lines --------------------------------------------------------------------------------
    def _line(self, line: str, events: list[ParseEvent]) -> None:
        self._line_no += 1
        self._dispatch(line, events)

    def _dispatch(self, line: str, events: list[ParseEvent]) -> None:
        if self._think is not None:
            self._think_line(line, events)
            return
        marker, decor = _marker(line)
        if self._open is not None:
            self._block_line(line, marker, decor, events)
            return
        if marker is not None:
            self._outside_marker(marker, events, decor, line)
            return
        if "<" in line:
            if m := _THINK_OPEN.match(line):
                self._think_start(m, line, events)
                return
            if _THINK_STRAY.search(line) and not _THINK_OPEN_ANY.search(line):
                self._stray_think_close(line, events)
                return
            if _AIDER_SEARCH.match(line):
                self._aider_open(events)
                return
        after, self._after_block = self._after_block, False
        if line.strip():
            self._after_block_oneliner = False
            self._last_edit = None
        if after and (f := fence(line)) is not None and f[1] == "":
            return  # the closing fence of a fence the model wrapped around a block
        self._prose_line(line)

    def _prose_line(self, line: str) -> None:
        self._foreign.prose_line(line, self._line_no)
        if self._held_fence is not None:  # it opened a code block in the prose
            self._prose_out.append(self._held_fence)
            self._prose_fence = fence(self._held_fence)[0]  # type: ignore[index]
            self._held_fence = None
        if fence(line) is not None:
            if self._prose_fence is not None and closes(line, self._prose_fence):
                self._prose_fence = None  # it closes a code block of the prose: no wrapper
            else:
                self._held_fence = line  # decided by the next line: a block marker drops it
                return
        if line.strip() and not _XML_TAG_LINE.match(line):  # `<diff>` keeps a `<path>` line's
            self._recent_path = path_line(line)
        self._prose_out.append(line)

    def _take_wrapper_fence(self) -> str | None:
        """A fence line just before a block only wrapped it: the repair note, if there was one."""
        held, self._held_fence = self._held_fence, None
        return f"ignored the {held.strip()} fence around the block" if held else None

    def _outside_marker(self, m: re.Match[str], events: list[ParseEvent], decor: str = "",
                        raw: str = "") -> None:
        keyword, rest = m.group(1).upper(), m.group(2)
        wrapper = self._take_wrapper_fence()
        self._after_block = False
        last_edit, self._last_edit = self._last_edit, None
        if keyword == "SEARCH" and last_edit:
            self._continue_edit(last_edit, events)
            return
        kind = _opener_kind(keyword)
        if kind is None:
            if keyword == "END":
                if not self._after_block_oneliner:
                    self._error("'@@@ END' outside a block (no WRITE or EDIT is open); "
                                "nothing was closed", events)
            elif keyword in ("SEARCH", "REPLACE"):
                self._error(f"'@@@ {keyword}' outside an EDIT block: start the block with "
                            "'@@@ EDIT path/to/Page.md' first", events)
            else:
                self._error(f"unknown marker '{_quote(raw) or '@@@ ' + m.group(1)}': use "
                            "WRITE, EDIT, DELETE, RENAME, SEARCH, REPLACE or END", events)
            self._after_block_oneliner = False
            return
        self._after_block_oneliner = False
        self._flush_prose(events)
        self._recent_path = self._prose_fence = None
        notes = [n for n in (wrapper, decor and f"read '{raw.strip()}' as a marker") if n]
        if keyword in _ALIASES and kind != _UPDATE:
            notes.append(f"read '@@@ {m.group(1)}' as '@@@ {kind.upper()}'")
        line = self._line_no
        if kind == RENAME:
            pieces, note = _split_rename(rest)
            paths = [read_path(p) for p in pieces]
            if len(pieces) != 2 or not paths[0][0] or not paths[1][0]:
                self._error(f"'{_quote(raw) or '@@@ RENAME'}': RENAME needs both paths: "
                            "'@@@ RENAME old/Name.md -> new/Name.md'", events)
                return
            notes += [n for n in (note, paths[0][1], paths[1][1]) if n]
            block = Block(RENAME, paths[0][0], new_path=paths[1][0], line=line, end_line=line,
                          repairs=notes)
            self._oneliner(block, events)
            return
        rest, rewrite = split_rewrite(rest) if kind == WRITE else (rest, False)
        path, note = read_path(rest)
        if not path:
            self._error(f"'@@@ {keyword}' needs a page path, e.g. "
                        f"'@@@ {keyword} concepts/Page Name.md'", events)
            return
        block = Block(EDIT if kind == _UPDATE else kind, path, line=line,
                      repairs=notes + ([note] if note else []), rewrite=rewrite)
        if kind == DELETE:
            block.end_line = line
            self._oneliner(block, events)
            return
        if kind == WRITE:
            block.content = ""
        self._open = _Open(block, decor)
        if kind == _UPDATE:
            self._open.update = m.group(1)
        events.append(BlockStarted(path, block.kind, line))

    def _continue_edit(self, path: str, events: list[ParseEvent]) -> None:
        """`@@@ SEARCH` right after an EDIT block's END: the model closed the block after each
        pair; the pair continues the same page (a new EDIT block, applied after the first)."""
        self._flush_prose(events)
        line = self._line_no
        block = Block(EDIT, path, line=line, repairs=[
            f"read '@@@ SEARCH' after '@@@ END' (line {line}) as another pair for {path}"])
        self._open = _Open(block)
        self._open.section = "search"
        events.append(BlockStarted(path, EDIT, line))

    def _oneliner(self, block: Block, events: list[ParseEvent]) -> None:
        events.append(BlockStarted(block.path, block.kind, block.line))
        self.blocks.append(block)
        events.append(BlockComplete(block))
        self._after_block = True
        self._after_block_oneliner = True

    def _block_line(self, line: str, m: re.Match[str] | None, decor: str,
                    events: list[ParseEvent]) -> None:
        op = self._open
        assert op is not None
        keyword = _keyword_in_block(m) if m and decor in ("", op.decor) else None
        if m and decor and keyword is None and op.decorated_end is None and (
                _keyword_in_block(m) == "END"):  # remembered for the message if END never comes
            op.decorated_end = (self._line_no, _quote(line))
        if keyword == "END":
            self._end(op, events)
            return
        if keyword is not None and _opener_kind(keyword):
            # The model started another block without closing this one: the open block may be
            # cut short, so it is dropped, and the new marker is handled as an opener.
            self._progress(op, events)
            self._open = None
            if not op.bad and op.block.path:
                self._error(f"the {op.block.kind.upper()} block for {op.block.path} "
                            f"(line {op.block.line}) was not closed with '@@@ END' before the "
                            "next block began; it was not used. Send it again, ending with "
                            "'@@@ END'", events, op.block.path)
            self._outside_marker(m, events, decor, line)  # type: ignore[arg-type]
            return
        op.raw.append(line)
        block = op.block
        if block.kind == WRITE:
            op.lines.append(line)
            return
        if keyword is not None and m is not None and m.group(2).strip(" :"):
            block.repairs.append(f"read '{_quote(line)}' as '@@@ {keyword}'")
        if op.aider and self._aider_line(op, line, events):
            return
        if keyword == "SEARCH":
            if op.section == "search":
                self._bad(op, "'@@@ SEARCH' again before '@@@ REPLACE'", events)
            elif op.section == "replace":
                self._finish_pair(op, events)
            op.section, op.search, op.replace, op.replace_nos = "search", [], [], []
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
            op.replace_nos.append(self._line_no)
        else:
            self._outside_pairs(op, line)

    def _outside_pairs(self, op: _Open, line: str) -> None:
        """An EDIT line before the first SEARCH (or between aider pairs): never page text."""
        if not line.strip():
            return
        if _AIDER_SEARCH.match(line):
            op.aider = True
            op.section, op.search, op.replace, op.replace_nos = "search", [], [], []
            return
        if op.update:  # `@@@ UPDATE path` followed by page text: a whole page
            op.block.kind, op.block.content, op.lines = WRITE, "", list(op.raw)
            return
        f = fence(line)
        if f is not None and not op.notes and op.fence_run is None:
            op.fence_run = f[0]
            return
        op.notes.append((self._line_no, _quote(line)))

    def _aider_line(self, op: _Open, line: str, events: list[ParseEvent]) -> bool:
        """Handle aider's markers inside an EDIT block; False when `line` is none of them."""
        if _AIDER_DIVIDER.match(line):
            if op.section == "search":
                op.section = "replace"
                return True
            if op.section == "replace":
                self._bad(op, f"a second '=======' in one SEARCH/REPLACE pair (reply line "
                          f"{self._line_no}) makes the pair ambiguous; write the pair with the "
                          "marker lines '@@@ SEARCH' and '@@@ REPLACE' instead", events)
                return True
            return False
        if _AIDER_REPLACE.match(line):
            if op.section != "replace":
                self._bad(op, f"'>>>>>>> REPLACE' (reply line {self._line_no}) without "
                          "'=======' before it", events)
                return True
            self._finish_pair(op, events)
            if op.standalone:
                self._end(op, events)
            return True
        if _AIDER_SEARCH.match(line) and op.section is None:
            op.section, op.search, op.replace, op.replace_nos = "search", [], [], []
            return True
        return False

    def _aider_open(self, events: list[ParseEvent]) -> None:
        """`<<<<<<< SEARCH` in prose: aider's format, with the page path on a line before it."""
        self._held_fence = self._prose_fence = None  # a fence before it wraps the aider block
        self._flush_prose(events)
        path = self._recent_path or ""
        block = Block(EDIT, path, line=self._line_no)
        op = _Open(block)
        op.aider = op.standalone = True
        op.section = "search"
        self._open = op
        if not path:
            op.bad = True
            self._error("'<<<<<<< SEARCH' (aider's SEARCH/REPLACE format) without a page path "
                        "on the line before it; nothing was changed. Write '@@@ EDIT "
                        "path/to/Page.md', then '@@@ SEARCH' / '@@@ REPLACE' pairs, then "
                        "'@@@ END'", events)
            return
        block.repairs.append(f"read an aider '<<<<<<< SEARCH' block after the line naming "
                             f"{path} as '@@@ EDIT {path}'")
        events.append(BlockStarted(path, EDIT, block.line))

    def _finish_pair(self, op: _Open, events: list[ParseEvent] | None = None) -> None:
        """Close the current pair. events=None: the reply was cut off (close()), no checks."""
        cut = events is None
        if op.section == "replace" and not cut:
            self._strip_pair_fences(op)
            self._check_replace_note(op, events)
        if op.section == "replace" or (cut and op.section == "search"):
            op.block.edits.append(("".join(op.search), "".join(op.replace)))
        op.section = None

    def _strip_pair_fences(self, op: _Open) -> None:
        """The model fenced its pairs (a fence before the first SEARCH): drop the fence lines it
        left at the end of a REPLACE, as long as the REPLACE's own fences stay paired."""
        if op.fence_run is None:
            return
        rep = op.replace
        ends = [i for i in range(len(rep)) if rep[i].strip()][-2:]
        tail = [i for i in ends if closes(rep[i], op.fence_run) and all(
            not x.strip() or closes(x, op.fence_run) for x in rep[i:])]
        # A pair may edit part of a code block (its SEARCH leaves a fence open or closes one):
        # cut only where the REPLACE's fences end as the SEARCH's do.
        want = open_fence(op.search)
        for i in tail:  # the earliest such cut
            if open_fence(rep[:i]) == want:
                del rep[i:]
                del op.replace_nos[i:]
                note = f"dropped the {op.fence_run} fence lines around the SEARCH/REPLACE pairs"
                if note not in op.block.repairs:
                    op.block.repairs.append(note)
                return

    def _check_replace_note(self, op: _Open, events: list[ParseEvent]) -> None:
        i = trailing_note(op.replace)
        if i is None or op.replace[i].strip() in {s.strip() for s in op.search}:
            return
        self._bad(op, f"the REPLACE section ends with '{_quote(op.replace[i])}' (reply line "
                  f"{op.replace_nos[i]}), which reads as a note to the person, not page text. "
                  "Put notes outside the blocks (after '@@@ END')", events)

    def _end(self, op: _Open, events: list[ParseEvent]) -> None:
        self._progress(op, events)
        self._open = None
        self._after_block = True
        block = op.block
        block.end_line = self._line_no
        if block.kind == WRITE:
            block.content = self._page(op, events)
        else:
            self._end_edit(op, events)
        if op.bad:
            return
        if block.kind == EDIT and not op.standalone:
            self._last_edit = block.path
        self.blocks.append(block)
        events.append(BlockComplete(block))

    def _page(self, op: _Open, events: list[ParseEvent]) -> str:
        """A WRITE block's page: wrappers the model put around it or its frontmatter removed."""
        block = op.block
        lines, note = unwrap_page(op.lines)
        lines, yaml_note = unwrap_yaml_frontmatter(_frontmatter_first(lines))
        lines = _frontmatter_first(lines)
        block.repairs += [n for n in (note, yaml_note) if n]
        i = trailing_note(lines)
        if i is not None:
            idx = len(op.lines) - 1 - op.lines[::-1].index(lines[i])
            self._bad(op, f"the page ends with '{_quote(lines[i])}' (reply line "
                      f"{block.line + 1 + idx}), which reads as a note to the person, not page "
                      "text. Put notes outside the blocks (after '@@@ END')", events)
        elif op.update:
            if not lines or lines[0].rstrip("\r\n") != "---":
                self._bad(op, f"'@@@ {op.update}' is not a marker, and the text after it is not "
                          "a whole page (it does not start with frontmatter). Send the whole "
                          f"page as '@@@ WRITE {block.path}', or the changes as '@@@ EDIT "
                          f"{block.path}' with SEARCH/REPLACE pairs", events)
            block.repairs.append(f"read '@@@ {op.update}' as '@@@ WRITE' (the block holds a "
                                 "whole page)")
        return "".join(lines)

    def _end_edit(self, op: _Open, events: list[ParseEvent]) -> None:
        block = op.block
        if op.section == "search":
            self._bad(op, "'@@@ END' right after a SEARCH section: every SEARCH needs a "
                      "'@@@ REPLACE' section (leave it empty to delete the lines)", events)
        else:
            self._finish_pair(op, events)
        if op.bad:
            return
        if not block.edits:
            self._bad(op, "an EDIT block without any '@@@ SEARCH' / '@@@ REPLACE' pair"
                      + _no_pair_hint([t for _, t in op.notes]), events)
        elif any(not s.strip() for s, _ in block.edits):
            self._bad(op, "a SEARCH section is empty or blank: copy at least one "
                      "existing non-blank line of the page into it", events)
        if op.aider and not op.standalone:  # a standalone block's note says so already
            block.repairs.append(_AIDER_NOTE)
        if op.update:
            block.repairs.append(f"read '@@@ {op.update}' as '@@@ EDIT'")
        if op.notes:
            where = ", ".join(f"line {n}: '{t}'" for n, t in op.notes[:3])
            more = f" and {len(op.notes) - 3} more" if len(op.notes) > 3 else ""
            block.repairs.append(f"ignored text outside the SEARCH/REPLACE pairs ({where}{more})")
        if op.fence_run is not None and not any("fence" in r for r in block.repairs):
            block.repairs.append(f"ignored a {op.fence_run} fence line before the first SEARCH")

    def _bad(self, op: _Open, message: str, events: list[ParseEvent]) -> None:
        if op.bad:
            return
        op.bad = True
        kind = op.block.kind.upper() if not op.update else op.update.upper()
        self._error(f"{kind} block for {op.block.path} (line {op.block.line}): {message}. "
                    "The block was not used; send it again", events, op.block.path)

    # reasoning sections -------------------------------------------------------------------
    def _think_start(self, m: re.Match[str], line: str, events: list[ParseEvent]) -> None:
        self._think = (self._line_no, m.group(1).lower())
        self._think_markers = 0
        self._think_line(line[m.end():], events)

    def _think_line(self, line: str, events: list[ParseEvent]) -> None:
        m = _THINK_CLOSE.search(line)
        if m is None:
            if _marker(line)[0] is not None:
                self._think_markers += 1
            return
        assert self._think is not None
        start, tag = self._think
        self._think = None
        note = f"ignored a <{tag}> section (lines {start}-{self._line_no})"
        if self._think_markers:
            note += "; the edit blocks drafted in it were not used"
        self.repairs.append(note)
        rest = line[m.end():]
        if rest.strip():
            self._dispatch(rest, events)

    def _close_think(self, events: list[ParseEvent]) -> None:
        if self._think is None:
            return
        start, tag = self._think
        self._think = None
        if self._think_markers:
            self._error(f"the <{tag}> section opened on line {start} is never closed, so the "
                        f"edit blocks after it were read as reasoning and not used. Close the "
                        f"reasoning with '</{tag}>' and write the edit blocks after it", events,
                        line=start)
        else:
            self.repairs.append(f"ignored an unclosed <{tag}> section (lines "
                                f"{start}-{self._line_no})")

    def _stray_think_close(self, line: str, events: list[ParseEvent]) -> None:
        """`</think>` with no `<think>`: what came before was reasoning (the opening tag was in
        the chat template), so nothing drafted there is applied."""
        tag = _THINK_CLOSE.search(line).group(1).lower()  # type: ignore[union-attr]
        drafts = len(self.blocks) + len(self.errors)
        self.blocks, self.errors, self._prose, self._prose_out = [], [], [], []
        self._held_fence, self._recent_path, self._foreign = None, None, ForeignFormats()
        note = f"ignored lines 1-{self._line_no} as reasoning (they end with '</{tag}>')"
        if drafts:
            note += "; the edit blocks drafted there were not used"
        self.repairs.append(note)

    # other formats ------------------------------------------------------------------------
    def _refuse_foreign(self, events: list[ParseEvent]) -> None:
        blocks = [*self.blocks, *self.incomplete]
        touched = {p for b in blocks for p in (b.path, b.new_path) if p}
        for message, line, path in self._foreign.refusals(touched, bool(blocks)):
            self._error(message, events, path or None, line=line)

    # events -------------------------------------------------------------------------------
    def _error(self, message: str, events: list[ParseEvent], path: str | None = None,
               line: int | None = None) -> None:
        self._flush_prose(events)
        err = ProtocolError(message, self._line_no if line is None else line, path)
        self.errors.append(err)
        events.append(err)

    def _progress(self, op: _Open, events: list[ParseEvent]) -> None:
        n = len(op.raw)
        if n > op.emitted and op.block.path:  # a pathless aider block was refused: no preview
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
