"""A block being read: the lines of a WRITE page or of an EDIT's SEARCH/REPLACE pairs, from its
opening marker to its end. The stream parser (stream.py) decides which lines are markers that
open or end blocks; this decides what the lines in between are — pair sections, aider's
markers, a fence around the pairs, a note to the person — and what the finished block holds.

Problems are reported through the `report` callable the parser hands in (its error channel),
so a block's refusal lands in the reply's errors in the order it was found.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wiki_tui.changes.reply.blocks import EDIT, WRITE, Block, BlockProgress
from wiki_tui.changes.reply.fences import (closes, fence, frontmatter_first, open_fence,
                                           unwrap_page, unwrap_yaml_frontmatter)
from wiki_tui.changes.reply.foreign import (AIDER_DIVIDER, AIDER_NOTE, AIDER_REPLACE,
                                            AIDER_SEARCH)
from wiki_tui.changes.reply.markers import leading_note, no_pair_hint, quote, trailing_note

# report(message, events, path): the parser's error channel (the reply line is its current one)
Report = Callable[..., None]


class OpenBlock:
    """A block being read."""

    __slots__ = ("block", "lines", "section", "search", "replace", "replace_nos", "bad", "raw",
                 "emitted", "decor", "aider", "standalone", "notes", "fence_run", "update",
                 "decorated_end", "report", "at")

    def __init__(self, block: Block, report: Report, decor: str = "", at: int = 3) -> None:
        self.block = block
        self.report = report
        self.at = at  # the `@` run of its opener: only markers with the same run are markers
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

    # lines --------------------------------------------------------------------------------
    def take(self, line: str, keyword: str | None, rest: str, line_no: int,
             events: list[Any]) -> bool:
        """A body line (`keyword`: the SEARCH/REPLACE marker it is, if any; `rest`: the text
        after that marker's keyword). True when the line ended the block (an aider block in
        the prose ends with its `>>>>>>> REPLACE`)."""
        self.raw.append(line)
        block = self.block
        if block.kind == WRITE:
            self.lines.append(line)
            return False
        if keyword is not None and rest.strip(" :"):
            block.repairs.append(f"read '{quote(line)}' as '@@@ {keyword}'")
        if self.aider and (handled := self._aider_line(line, line_no, events)):
            return handled == "end"
        if keyword == "SEARCH":
            if self.section == "search":
                self.fail("'@@@ SEARCH' again before '@@@ REPLACE'", events)
            elif self.section == "replace":
                self.finish_pair(events)
            self._start_pair()
            return False
        if keyword == "REPLACE":
            if self.section != "search":
                self.fail("'@@@ REPLACE' without a '@@@ SEARCH' before it", events)
                return False
            self.section = "replace"
            return False
        if self.section == "replace" and not self.aider and AIDER_SEARCH.match(line):
            # aider's pair after an '@@@' pair: another pair, not text of this REPLACE
            self.finish_pair(events)
            self.aider = True
            self._start_pair()
            self.block.repairs.append(f"read '<<<<<<< SEARCH' (reply line {line_no}) after an "
                                      "'@@@' pair as the start of another pair")
            return False
        if self.section == "search":
            self.search.append(line)
        elif self.section == "replace":
            self.replace.append(line)
            self.replace_nos.append(line_no)
        else:
            self._outside_pairs(line, line_no)
        return False

    def _start_pair(self) -> None:
        self.section, self.search, self.replace, self.replace_nos = "search", [], [], []

    def _outside_pairs(self, line: str, line_no: int) -> None:
        """An EDIT line before the first SEARCH (or between aider pairs): never page text."""
        if not line.strip():
            return
        if AIDER_SEARCH.match(line):
            self.aider = True
            self._start_pair()
            return
        if self.update:  # `@@@ UPDATE path` followed by page text: a whole page
            self.block.kind, self.block.content, self.lines = WRITE, "", list(self.raw)
            return
        f = fence(line)
        if f is not None and not self.notes and self.fence_run is None:
            self.fence_run = f[0]
            return
        self.notes.append((line_no, quote(line)))

    def _aider_line(self, line: str, line_no: int, events: list[Any]) -> str | None:
        """Handle aider's markers inside an EDIT block: "end" when the line ended the block,
        "taken" for another of its markers, None when `line` is none of them."""
        if AIDER_DIVIDER.match(line):
            if self.section == "search":
                self.section = "replace"
                return "taken"
            if self.section == "replace":
                self.fail(f"a second '=======' in one SEARCH/REPLACE pair (reply line "
                          f"{line_no}) makes the pair ambiguous; write the pair with the "
                          "marker lines '@@@ SEARCH' and '@@@ REPLACE' instead", events)
                return "taken"
            return None
        if AIDER_REPLACE.match(line):
            if self.section != "replace":
                self.fail(f"'>>>>>>> REPLACE' (reply line {line_no}) without "
                          "'=======' before it", events)
                return "taken"
            self.finish_pair(events)
            return "end" if self.standalone else "taken"
        if AIDER_SEARCH.match(line) and self.section is None:
            self._start_pair()
            return "taken"
        return None

    # pairs --------------------------------------------------------------------------------
    def finish_pair(self, events: list[Any] | None = None) -> None:
        """Close the current pair. events=None: the reply was cut off (close()), no checks."""
        cut = events is None
        if self.section == "replace" and not cut:
            self._strip_pair_fences()
            self._check_replace_note(events)  # type: ignore[arg-type]
        if self.section == "replace" or (cut and self.section == "search"):
            self.block.edits.append(("".join(self.search), "".join(self.replace)))
        self.section = None

    def _strip_pair_fences(self) -> None:
        """The model fenced its pairs (a fence before the first SEARCH): drop the fence lines it
        left at the end of a REPLACE, as long as the REPLACE's own fences stay paired."""
        if self.fence_run is None:
            return
        rep = self.replace
        ends = [i for i in range(len(rep)) if rep[i].strip()][-2:]
        tail = [i for i in ends if closes(rep[i], self.fence_run) and all(
            not x.strip() or closes(x, self.fence_run) for x in rep[i:])]
        # A pair may edit part of a code block (its SEARCH leaves a fence open or closes one):
        # cut only where the REPLACE's fences end as the SEARCH's do.
        want = open_fence(self.search)
        for i in tail:  # the earliest such cut
            if open_fence(rep[:i]) == want:
                del rep[i:]
                del self.replace_nos[i:]
                note = f"dropped the {self.fence_run} fence lines around the SEARCH/REPLACE pairs"
                if note not in self.block.repairs:
                    self.block.repairs.append(note)
                return

    def _check_replace_note(self, events: list[Any]) -> None:
        i = trailing_note(self.replace)
        if i is None or self.replace[i].strip() in {s.strip() for s in self.search}:
            return
        self.fail(f"the REPLACE section ends with '{quote(self.replace[i])}' (reply line "
                  f"{self.replace_nos[i]}), which reads as a note to the person, not page text. "
                  "Put notes outside the blocks (after '@@@ END')", events)

    # the end ------------------------------------------------------------------------------
    def finish(self, events: list[Any]) -> None:
        """The block's `@@@ END`: its page or its pairs, checked (a problem marks it bad)."""
        if self.block.kind == WRITE:
            self.block.content = self._page(events)
        else:
            self._end_edit(events)

    def cut(self) -> None:
        """The reply ended inside the block: keep what it holds, unchecked (never applied)."""
        if self.block.kind == WRITE:
            self.block.content = "".join(self.lines)
        elif self.block.kind == EDIT:
            self.finish_pair()

    def _page(self, events: list[Any]) -> str:
        """A WRITE block's page: wrappers the model put around it or its frontmatter removed."""
        block = self.block
        lines, note = unwrap_page(self.lines)
        if (lead := leading_note(lines)) is not None:  # "Sure! Here is the page:" over it
            block.repairs.append(f"dropped '{quote(lines[lead])}' above the page's frontmatter "
                                 "(a note to the person, not page text)")
            lines = lines[lead + 1:]
        lines, yaml_note = unwrap_yaml_frontmatter(frontmatter_first(lines))
        lines = frontmatter_first(lines)
        block.repairs += [n for n in (note, yaml_note) if n]
        i = trailing_note(lines)
        if i is not None:
            idx = len(self.lines) - 1 - self.lines[::-1].index(lines[i])
            self.fail(f"the page ends with '{quote(lines[i])}' (reply line "
                      f"{block.line + 1 + idx}), which reads as a note to the person, not page "
                      "text. Put notes outside the blocks (after '@@@ END')", events)
        elif self.update:
            if not lines or lines[0].rstrip("\r\n") != "---":
                self.fail(f"'@@@ {self.update}' is not a marker, and the text after it is not "
                          "a whole page (it does not start with frontmatter). Send the whole "
                          f"page as '@@@ WRITE {block.path}', or the changes as '@@@ EDIT "
                          f"{block.path}' with SEARCH/REPLACE pairs", events)
            block.repairs.append(f"read '@@@ {self.update}' as '@@@ WRITE' (the block holds a "
                                 "whole page)")
        return "".join(lines)

    def _end_edit(self, events: list[Any]) -> None:
        block = self.block
        if self.section == "search":
            self.fail("'@@@ END' right after a SEARCH section: every SEARCH needs a "
                      "'@@@ REPLACE' section (leave it empty to delete the lines)", events)
        else:
            self.finish_pair(events)
        if self.bad:
            return
        if not block.edits:
            self.fail("an EDIT block without any '@@@ SEARCH' / '@@@ REPLACE' pair"
                      + no_pair_hint([t for _, t in self.notes]), events)
        elif any(not s.strip() for s, _ in block.edits):
            self.fail("a SEARCH section is empty or blank: copy at least one "
                      "existing non-blank line of the page into it", events)
        if self.aider and not self.standalone:  # a standalone block's note says so already
            block.repairs.append(AIDER_NOTE)
        if self.update:
            block.repairs.append(f"read '@@@ {self.update}' as '@@@ EDIT'")
        if self.notes:
            where = ", ".join(f"line {n}: '{t}'" for n, t in self.notes[:3])
            more = f" and {len(self.notes) - 3} more" if len(self.notes) > 3 else ""
            block.repairs.append(f"ignored text outside the SEARCH/REPLACE pairs ({where}{more})")
        if self.fence_run is not None and not any("fence" in r for r in block.repairs):
            block.repairs.append(f"ignored a {self.fence_run} fence line before the first SEARCH")

    # reporting ----------------------------------------------------------------------------
    def fail(self, message: str, events: list[Any]) -> None:
        """Refuse the block (it is dropped at its end); the first reason is the one sent."""
        if self.bad:
            return
        self.bad = True
        kind = self.block.kind.upper() if not self.update else self.update.upper()
        self.report(f"{kind} block for {self.block.path} (line {self.block.line}): {message}. "
                    "The block was not used; send it again", events, self.block.path)

    def progress(self, events: list[Any]) -> None:
        """A progress event for the lines read since the last one."""
        n = len(self.raw)
        if n > self.emitted and self.block.path:  # a pathless aider block was refused: no preview
            events.append(BlockProgress(self.block.path, self.block.kind, self.raw, n,
                                        self.emitted))
            self.emitted = n
