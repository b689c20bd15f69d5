"""What reading a reply yields: its blocks (the edits the model proposed), the events a streaming
parse emits as they become known, the protocol errors sent back to the model, and the parsed
reply as a whole. `format_block` writes a block back as protocol text (docs/edit-protocol.md).

Pure data: no parsing here (see stream.py), so every stage can import it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

WRITE, EDIT, DELETE, RENAME = "write", "edit", "delete", "rename"
BLOCK_KINDS = (WRITE, EDIT, DELETE, RENAME)


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
