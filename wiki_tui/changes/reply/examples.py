"""Edit blocks shown as examples are never executed.

A block inside a code fence of the prose, an indented code block, a `>` quote, inline code
(a one-line DELETE or RENAME in backticks), a comment (`<!-- -->`, `%% %%`) or an HTML element
that shows code or folds text away (`<pre>`, `<details>`), or right after prose that says it is
an example or a rejected option ("for example:", "I don't think this is needed", "I would not
do this:"), is prose: it is shown, not applied, and the review says so. A fence that wraps the reply's own edit stays a wrapper (stream.py): the
fence line right before a marker, or a fence that opens the reply. When a reply holds only
such examples and no edit block, it is refused naming the line and saying what to send, in
case the model meant it (an example after explanatory words is not refused: it said so).
"""

from __future__ import annotations

import re

from wiki_tui.changes.reply.markers import marker, opener_kind
from wiki_tui.changes.reply.paths import read_path

# Prose that presents what follows as an illustration, a suggestion or a rejected option.
_CUE = re.compile(
    r"\b(?:for example|for instance|e\.\s?g\.|an example|example:|examples?\b.*:$|"
    r"hypothetical(?:ly)?|illustrat\w*|the syntax|in the format|"
    r"(?:i|we) (?:don't|do not|wouldn't|would not) (?:think|recommend|suggest|need)|"
    r"\b(?:would not|wouldn't|should not|shouldn't|will not|won't|must not|mustn't|do not|"
    r"don't|never|avoid)\s+(?:do|doing|write|writing|send|sending|run|running|apply|applying|"
    r"use|using)?\s*(?:this|that|the following|something like this)\s*[:.]?\s*$|"
    r"(?:isn't|is not|aren't|are not|not) (?:needed|necessary|required|recommended)|"
    r"(?:don't|do not|won't|will not) apply|not applied|"
    r"you (?:could|can|might|may) (?:also )?(?:use|write|send|add|do)|if you (?:want|wish|prefer))",
    re.IGNORECASE)
_HEADING_CUE = re.compile(r"^\s*#{1,6}\s+(?:an?\s+)?examples?\b", re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s")
_QUOTED = re.compile(r"^[ \t]*>[ \t>]*(?=@@@)")


# Prose regions that hide or fold what they hold: (opening pattern, closing text, where).
_HIDING = (
    (re.compile(r"<!--(?!.*-->)"), "-->", "inside an HTML comment"),
    (re.compile(r"^\s*%%(?!.*%%)"), "%%", "inside a %% comment"),
    (re.compile(r"<details\b(?!.*</details>)", re.IGNORECASE), "</details>",
     "inside a <details> element"),
    (re.compile(r"<pre\b(?!.*</pre>)", re.IGNORECASE), "</pre>", "inside a <pre> element"),
)


class Hiding:
    """Follows the reply's prose lines into and out of comments and HTML elements that hide or
    fold their text: a block written inside one is shown, never applied."""

    def __init__(self) -> None:
        self.where: str | None = None  # inside one: where, for the note
        self._close = ""

    def line(self, text: str) -> None:
        if self.where is not None:
            if self._close.lower() in text.lower():
                self.where = None
            return
        if "<" not in text and "%%" not in text:
            return
        for opening, close, where in _HIDING:
            if opening.search(text):
                self.where, self._close = where, close
                return


def is_cue(line: str) -> bool:
    """A prose line that presents the block after it as an example."""
    return bool(_CUE.search(line) or _HEADING_CUE.match(line))


def is_list_item(line: str) -> bool:
    return bool(_LIST_ITEM.match(line))


def quoted_marker(line: str) -> re.Match[str] | None:
    """The marker of a line that quotes one (`> @@@ DELETE x.md`), else None."""
    q = _QUOTED.match(line)
    return marker(line[q.end():])[0] if q else None


def described(m: re.Match[str]) -> tuple[str, str]:
    """(kind, path) of the block a marker line opens, for the note."""
    kind = opener_kind(m.group(1).upper()) or m.group(1).lower()
    rest = m.group(2)
    path = read_path(re.split(r"\s+(?:->|=>|→)\s+", rest)[0])[0] if rest.strip() else ""
    return ("edit" if kind == "update" else kind), path


class Examples:
    """The example blocks a reply showed: a note each, and a refusal when they are all it has."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, str, str, str, bool]] = []  # line, kind, path, where, cued

    def add(self, line_no: int, m: re.Match[str], where: str, cued: bool) -> None:
        kind, path = described(m)
        self.seen.append((line_no, kind, path, where, cued))

    def notes(self) -> list[str]:
        return [f"the {kind.upper()} block{' of ' + path if path else ''} on reply line {n} is "
                f"shown {where} as an example: it was not applied"
                for n, kind, path, where, _ in self.seen]

    def refusals(self, any_block: bool) -> list[tuple[str, int, str]]:
        """(message, line, path) when the reply has no edit block besides examples that no
        words called examples: the model may have meant one."""
        if any_block:
            return []
        out = []
        for n, kind, path, where, cued in self.seen:
            if cued:
                continue
            target = path or "path/to/Page.md"
            out.append((f"the reply has no edit block: the {kind.upper()} block on this line is "
                        f"{where}, which shows an example and is never applied. If you meant "
                        f"it, write its marker lines bare, outside fences, quotes and "
                        f"indentation (e.g. '@@@ {kind.upper()} {target}')", n, path))
        return out[:3]
