"""Streaming parser for the edit protocol the model writes inside its reply (docs/edit-protocol.md).

    @@@ WRITE concepts/Foo.md          whole page, up to @@@ END
    @@@ EDIT concepts/Foo.md           one or more @@@ SEARCH / @@@ REPLACE pairs, up to @@@ END
    @@@ DELETE concepts/Old.md         one line
    @@@ RENAME old/Name.md -> new/Name.md   one line

Marker lines start with `@@@` and a keyword; markdown never does, so fences, frontmatter, `---`
rules and git conflict markers inside a page cannot end a block. The parser works on whole lines:
each chunk is split at newlines, complete lines are handled once, and only the unfinished last
line is kept, so feeding a long reply costs O(length) whatever the chunking.

This is the state machine over the reply's lines: prose, opening and closing blocks, reasoning
sections. What a line inside a block means is open_block.py's; marker lines are markers.py's;
other tools' formats foreign.py's; fences and wrappers fences.py's.
"""

from __future__ import annotations

import re

from wiki_tui.changes.reply.blocks import (DELETE, EDIT, RENAME, WRITE, Block, BlockComplete,
                                           BlockIncomplete, BlockStarted, ParsedReply,
                                           ParseEvent, ProtocolError, Prose)
from wiki_tui.changes.reply.examples import Examples, Hiding, is_cue, is_list_item, quoted_marker
from wiki_tui.changes.reply.fences import closes, fence
from wiki_tui.changes.reply.foreign import AIDER_SEARCH, ForeignFormats
from wiki_tui.changes.reply.markers import (ALIASES, UPDATE, keyword_in_block, marker,
                                            opener_kind, quote, run, split_rename)
from wiki_tui.changes.reply.open_block import OpenBlock
from wiki_tui.changes.reply.paths import path_line, read_path, split_rewrite
from wiki_tui.changes.reply.think import Reasoning, opens, stray_close, stray_note
from wiki_tui.vault.gc_pause import no_gc
from wiki_tui.vault.parse.blocks import indent_width

_XML_TAG_LINE = re.compile(r"^\s*</?[A-Za-z_][\w-]*>\s*$")


class StreamParser:
    """Feed a reply in chunks of any size; get events as soon as they are known."""

    def __init__(self) -> None:
        self._tail: list[str] = []  # pieces of the unfinished last line
        self._line_no = 0
        self._open: OpenBlock | None = None
        self._held_fence: str | None = None  # a prose fence line that may wrap the next block
        self._held_extra: list[str] = []  # blank or path lines after it (still maybe a wrapper)
        self._held_first = False  # the held fence is the reply's first text
        self._prose_fence: str | None = None  # a code block open in the prose (its fence run)
        self._fence_is_reply = False  # ...opened by the reply's first line: a wrapper, no example
        self._seen_text = False  # a non-blank line was read
        self._cue: str | None = None  # the last prose line, when it announces an example
        self._in_list = False  # the last prose line was a list item (indentation continues it)
        self._quiet: tuple[str, int] | None = None  # an example being shown: ("indent", 0) or
        #                                              ("end", its `@` run), up to its END
        self._examples = Examples()
        self._hiding = Hiding()  # a comment or a folding element open in the prose
        self._after_block = False  # the previous line closed a block (a wrapping fence may follow)
        self._after_block_oneliner = False  # a stray END right after DELETE/RENAME is forgiven
        self._prose_out: list[str] = []  # prose lines of the current feed() call
        self._closed = False
        self._think: Reasoning | None = None  # an open <think> section
        self._recent_path: str | None = None  # a prose line naming a page (aider puts it there)
        self._last_edit: str | None = None  # an EDIT that just ended (blank lines since)
        self._last_closed: Block | None = None  # the last WRITE/EDIT closed by an END...
        self._text_since = 0  # ...and the non-blank prose lines read since
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
        i, count = 0, len(parts)
        while i < count:
            op = self._open
            if op is not None and op.block.kind == WRITE and self._think is None and (
                    self._seen_text):
                # a WRITE's page text up to the next line that may be a marker, taken as is
                # (what _line would do with each: most of a long reply, at list speed)
                j = i
                while j < count and "@@@" not in parts[j]:
                    j += 1
                if j > i:
                    text = [line + "\n" for line in parts[i:j]]
                    op.raw += text
                    op.lines += text
                    self._line_no += j - i
                    i = j
                    continue
            self._line(parts[i] + "\n", events)
            i += 1
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
            self._prose_out += [self._held_fence, *self._held_extra]
            self._held_fence, self._held_extra = None, []
        self._close_think(events)
        op = self._open
        if op is not None:
            self._open = None
            op.progress(events)
            block = op.block
            block.complete = False
            op.cut()
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
        self.repairs += self._examples.notes()
        for message, line_no, path in self._examples.refusals(bool(self.blocks or self.incomplete)):
            self._error(message, events, path or None, line=line_no)
        self._flush(events)
        return events

    def result(self) -> ParsedReply:
        return ParsedReply(list(self.blocks), list(self.errors), "".join(self._prose),
                           list(self.incomplete), list(self.repairs))

    # lines --------------------------------------------------------------------------------
    def _line(self, line: str, events: list[ParseEvent]) -> None:
        self._line_no += 1
        self._dispatch(line, events)
        if not self._seen_text and line.strip():
            self._seen_text = True

    def _dispatch(self, line: str, events: list[ParseEvent]) -> None:
        if self._think is not None:
            self._think_line(line, events)
            return
        m, decor = marker(line)
        if self._open is not None:
            self._block_line(line, m, decor, events)
            return
        if self._quiet is not None and self._quiet_line(line, m):
            return
        if m is not None:
            where = self._example_where(line, m, decor)
            if where is None:
                self._outside_marker(m, events, decor, line)
            else:
                self._show_example(line, m, where)
            return
        if "<" in line:
            if t := opens(line):
                self._think = Reasoning(self._line_no, t.group(1))
                self._think_line(line[t.end():], events)
                return
            if (tag := stray_close(line)) is not None:
                self._stray_think_close(tag)
                return
            if AIDER_SEARCH.match(line):
                self._aider_open(events)
                return
        after, self._after_block = self._after_block, False
        if line.strip():
            self._after_block_oneliner = False
            self._last_edit = None
            self._text_since += 1
        if after and (f := fence(line)) is not None and f[1] == "":
            return  # the closing fence of a fence the model wrapped around a block
        self._prose_line(line)

    def _prose_line(self, line: str) -> None:
        self._foreign.prose_line(line, self._line_no)
        if (q := quoted_marker(line)) is not None and opener_kind(q.group(1).upper()):
            self._examples.add(self._line_no, q, "in a > quote", cued=self._cue is not None)
        if self._held_fence is not None:
            named = path_line(line) if line.strip() else None
            if not line.strip() or named:  # a blank or a path line: the fence may still wrap
                self._held_extra.append(line)
                self._recent_path = named or self._recent_path
                return
            self._open_prose_fence()  # it opened a code block in the prose
        if fence(line) is not None:
            if self._prose_fence is not None and closes(line, self._prose_fence):
                self._prose_fence = None  # it closes a code block of the prose: no wrapper
            else:
                self._held_fence = line  # decided by the next line: a block marker drops it
                self._held_first = not self._seen_text
                return
        if line.strip():
            if not _XML_TAG_LINE.match(line):  # `<diff>` keeps a `<path>` line's
                self._recent_path = path_line(line)
            if self._prose_fence is None:
                self._hiding.line(line)
                self._cue = line if is_cue(line) else None
                self._in_list = is_list_item(line) or (self._in_list and line[:1] in " \t")
        self._prose_out.append(line)

    def _open_prose_fence(self) -> None:
        """The held fence opened a code block of the prose (it wrapped no block)."""
        held = self._held_fence
        assert held is not None
        self._prose_out += [held, *self._held_extra]
        self._prose_fence = fence(held)[0]  # type: ignore[index]
        self._fence_is_reply = self._held_first
        self._held_fence, self._held_extra = None, []

    def _take_wrapper_fence(self) -> str | None:
        """A fence line just before a block only wrapped it: the repair note, if there was one."""
        held, self._held_fence = self._held_fence, None
        self._prose_out += self._held_extra
        self._held_extra = []
        return f"ignored the {held.strip()} fence around the block" if held else None

    # examples -----------------------------------------------------------------------------
    def _example_where(self, line: str, m: re.Match[str], decor: str) -> str | None:
        """Where a marker line outside a block shows an example, or None (it is an edit)."""
        if self._prose_fence is not None and not self._fence_is_reply:
            return f"inside a {self._prose_fence} code block"
        if opener_kind(m.group(1).upper()) is None:
            return None
        if self._hiding.where is not None:
            return self._hiding.where
        if self._cue is not None:
            return f"after '{quote(self._cue)}'"
        if self._indented(line):
            return "in an indented code block"
        if decor.startswith("`") and opener_kind(m.group(1).upper()) in (DELETE, RENAME):
            return "in inline code"
        return None

    def _indented(self, line: str) -> bool:
        """Indented as a code block (in a list item, past the item's own indentation)."""
        return indent_width(line) >= (8 if self._in_list else 4)

    def _show_example(self, line: str, m: re.Match[str], where: str) -> None:
        """A marker line shown as an example: prose, and so is the block it opens."""
        kind = opener_kind(m.group(1).upper())
        cued, self._cue = self._cue is not None, None  # a cue announces one example
        if self._held_fence is not None:
            self._open_prose_fence()  # a fence right before it: the example's code block
        if kind is not None:
            self._examples.add(self._line_no, m, where, cued)
            if kind not in (DELETE, RENAME) and self._prose_fence is None:
                self._quiet = ("indent", 0) if self._indented(line) else ("end", run(m))
        self._after_block = False
        self._prose_out.append(line)

    def _quiet_line(self, line: str, m: re.Match[str] | None) -> bool:
        """A line of an example block outside a fence: prose, up to its END (or, indented,
        up to the first line that is not). False when the example ended before `line`."""
        how, at = self._quiet  # type: ignore[misc]
        if how == "indent" and line.strip() and indent_width(line) < 4:
            self._quiet = None
            return False
        if how == "end" and m is not None and run(m) == at and m.group(1).upper() == "END":
            self._quiet = None
        self._prose_out.append(line)
        return True

    # blocks -------------------------------------------------------------------------------
    def _outside_marker(self, m: re.Match[str], events: list[ParseEvent], decor: str = "",
                        raw: str = "") -> None:
        keyword, rest = m.group(1).upper(), m.group(2)
        wrapper = self._take_wrapper_fence()
        self._after_block = False
        last_edit, self._last_edit = self._last_edit, None
        if keyword == "SEARCH" and last_edit:
            self._continue_edit(last_edit, run(m), events)
            return
        kind = opener_kind(keyword)
        if kind is None:
            if keyword == "END" and self._ended_early(keyword, events):
                pass
            elif keyword == "END":
                if not self._after_block_oneliner:
                    self._error("'@@@ END' outside a block (no WRITE or EDIT is open); nothing "
                                "was closed", events)
            elif keyword in ("SEARCH", "REPLACE"):
                self._error(f"'@@@ {keyword}' outside an EDIT block: start the block with "
                            "'@@@ EDIT path/to/Page.md' first", events)
            else:
                self._error(f"unknown marker '{quote(raw) or '@@@ ' + m.group(1)}': use "
                            "WRITE, EDIT, DELETE, RENAME, SEARCH, REPLACE or END", events)
            self._after_block_oneliner = False
            return
        self._after_block_oneliner = False
        self._flush_prose(events)
        self._recent_path = self._prose_fence = self._cue = None
        notes = [n for n in (wrapper, decor and f"read '{raw.strip()}' as a marker") if n]
        if keyword in ALIASES and kind != UPDATE:
            notes.append(f"read '@@@ {m.group(1)}' as '@@@ {kind.upper()}'")
        line = self._line_no
        if kind == RENAME:
            pieces, note = split_rename(rest)
            paths = [read_path(p) for p in pieces]
            if len(pieces) != 2 or not paths[0][0] or not paths[1][0]:
                self._error(f"'{quote(raw) or '@@@ RENAME'}': RENAME needs both paths: "
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
        block = Block(EDIT if kind == UPDATE else kind, path, line=line,
                      repairs=notes + ([note] if note else []), rewrite=rewrite)
        if kind == DELETE:
            block.end_line = line
            self._oneliner(block, events)
            return
        if kind == WRITE:
            block.content = ""
        self._open = OpenBlock(block, self._error, decor, run(m))
        if kind == UPDATE:
            self._open.update = m.group(1)
        events.append(BlockStarted(path, block.kind, line))

    def _ended_early(self, keyword: str, events: list[ParseEvent]) -> bool:
        """A stray `@@@ END` after a block that closed, with page-like text
        between: the block most likely ended early, at a marker line of its own page (a page
        about this protocol). It is withdrawn, never applied cut short, and the error says how
        to send such a page. False when no block is suspect."""
        last = self._last_closed
        if last is None or not self._text_since or not self.blocks or self.blocks[-1] is not last:
            return False
        self.blocks.pop()  # withdrawn: reported incomplete (an event after its complete)
        last.complete = False
        self.incomplete.append(last)
        events.append(BlockIncomplete(last))
        self._last_closed = None
        kind = last.kind.upper()
        self._error(f"'@@@ {keyword}' outside a block: the {kind} block for {last.path} (line "
                    f"{last.line}) seems to have ended early, at a line '@@@ END' of its own "
                    f"text (reply line {last.end_line}), so it was not used. A page that holds "
                    "marker lines as text is sent with four @ on each marker of its block: "
                    f"'@@@@ {kind} {last.path}' ... '@@@@ END'", events, last.path)
        return True

    def _continue_edit(self, path: str, at: int, events: list[ParseEvent]) -> None:
        """`@@@ SEARCH` right after an EDIT block's END: the model closed the block after each
        pair; the pair continues the same page (a new EDIT block, applied after the first)."""
        self._flush_prose(events)
        line = self._line_no
        block = Block(EDIT, path, line=line, repairs=[
            f"read '@@@ SEARCH' after '@@@ END' (line {line}) as another pair for {path}"])
        self._open = OpenBlock(block, self._error, at=at)
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
        if m is None and op.block.kind == WRITE:  # the common line: page text (kept cheap)
            op.raw.append(line)
            op.lines.append(line)
            return
        if m is not None and run(m) != op.at:
            m = None  # another `@` run than the block's opener: page text
        keyword = keyword_in_block(m) if m and decor in ("", op.decor) else None
        if m and decor and keyword is None and op.decorated_end is None and (
                keyword_in_block(m) == "END"):  # remembered for the message if END never comes
            op.decorated_end = (self._line_no, quote(line))
        if keyword == "END":
            self._end(op, events)
            return
        if keyword is not None and opener_kind(keyword):
            # The model started another block without closing this one: the open block may be
            # cut short, so it is dropped, and the new marker is handled as an opener.
            op.progress(events)
            self._open = None
            if not op.bad and op.block.path:
                self._error(f"the {op.block.kind.upper()} block for {op.block.path} "
                            f"(line {op.block.line}) was not closed with '@@@ END' before the "
                            "next block began; it was not used. Send it again, ending with "
                            f"'@@@ END'. If its page holds the line '{quote(line)}' as text, "
                            f"send it with four @: '@@@@ {op.block.kind.upper()} "
                            f"{op.block.path}' ... '@@@@ END'", events, op.block.path)
            self._outside_marker(m, events, decor, line)  # type: ignore[arg-type]
            return
        rest = m.group(2) if keyword is not None and m is not None else ""
        if op.take(line, keyword, rest, self._line_no, events):
            self._end(op, events)

    def _aider_open(self, events: list[ParseEvent]) -> None:
        """`<<<<<<< SEARCH` in prose: aider's format, with the page path on a line before it."""
        if self._held_fence is not None:  # a fence before it wraps the aider block
            self._take_wrapper_fence()
        self._prose_fence = None
        self._flush_prose(events)
        path = self._recent_path or ""
        block = Block(EDIT, path, line=self._line_no)
        op = OpenBlock(block, self._error)
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

    def _end(self, op: OpenBlock, events: list[ParseEvent]) -> None:
        op.progress(events)
        self._open = None
        self._after_block = True
        block = op.block
        block.end_line = self._line_no
        op.finish(events)
        if op.bad:
            return
        if block.kind == EDIT and not op.standalone:
            self._last_edit = block.path
        self._last_closed, self._text_since = block, 0
        self.blocks.append(block)
        events.append(BlockComplete(block))

    # reasoning sections -------------------------------------------------------------------
    def _think_line(self, line: str, events: list[ParseEvent]) -> None:
        assert self._think is not None
        end = self._think.close_at(line)
        if end is None:
            return
        self.repairs.append(self._think.closed_note(self._line_no))
        self._think = None
        rest = line[end:]
        if rest.strip():
            self._dispatch(rest, events)

    def _close_think(self, events: list[ParseEvent]) -> None:
        if self._think is None:
            return
        error, note = self._think.unclosed(self._line_no)
        start, self._think = self._think.start, None
        if error:
            self._error(error, events, line=start)
        if note:
            self.repairs.append(note)

    def _stray_think_close(self, tag: str) -> None:
        """`</think>` with no `<think>`: what came before was reasoning (the opening tag was in
        the chat template), so nothing drafted there is applied."""
        drafts = len(self.blocks) + len(self.errors)
        self.blocks, self.errors, self._prose, self._prose_out = [], [], [], []
        self._held_fence, self._recent_path, self._foreign = None, None, ForeignFormats()
        self._held_extra, self._examples, self._cue = [], Examples(), None
        self.repairs.append(stray_note(self._line_no, tag, drafts))

    # other formats ------------------------------------------------------------------------
    def _refuse_foreign(self, events: list[ParseEvent]) -> None:
        for message, line, path in self._foreign.refusals([*self.blocks, *self.incomplete]):
            self._error(message, events, path or None, line=line)

    # events -------------------------------------------------------------------------------
    def _error(self, message: str, events: list[ParseEvent], path: str | None = None,
               line: int | None = None) -> None:
        self._flush_prose(events)
        err = ProtocolError(message, self._line_no if line is None else line, path)
        self.errors.append(err)
        events.append(err)

    def _flush_prose(self, events: list[ParseEvent]) -> None:
        if self._prose_out:
            text = "".join(self._prose_out)
            self._prose_out = []
            self._prose.append(text)
            events.append(Prose(text))

    def _flush(self, events: list[ParseEvent]) -> None:
        self._flush_prose(events)
        if self._open is not None:
            self._open.progress(events)


def parse_reply(text: str) -> ParsedReply:
    """Parse a whole reply at once (same result as streaming it in any chunking). A burst of
    allocation (a line, a list entry per reply line): the cyclic GC waits (vault/gc_pause.py)."""
    with no_gc():
        parser = StreamParser()
        parser.feed(text)
        parser.close()
        return parser.result()
