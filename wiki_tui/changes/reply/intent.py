"""Declared intent: the lines of a reply that say a damaging-looking change is meant.

A reply declares, outside its edit blocks, one line per page (docs/edit-protocol.md, "Declared
intent"):

    Intended: entities/Larcum Kendall.md — the person asked to merge it into H4
    Intended: concepts/A.md, concepts/B.md — figures corrected from the 1767 almanac

The path may be written as in a block (`.md` optional, `[[...]]` or backticks around it); the
reason after a dash (—, –, -- or " - ") is shown in the review beside each released breach.
A declaration releases the declarable invariants (build/knowledge/invariants.py) of the pages it names; it never
releases hidden characters, changes spread over many pages or mass deletions: those need the
person's `--allow`.
"""

from __future__ import annotations

import re
import unicodedata

_LINE = re.compile(r"^[ \t]*(?:[-*+>][ \t]*)?\**intended\**[ \t]*:\**[ \t]*(.+?)[ \t]*$",
                   re.IGNORECASE | re.MULTILINE)
_REASON = re.compile(r"[ \t]+(?:—|–|--|-)[ \t]+|[ \t]*(?:—|–)[ \t]*")
NO_REASON = "(no reason given)"


def _path(raw: str) -> str:
    p = raw.strip().strip("`*'\"").strip()
    if p.startswith("[[") and p.endswith("]]"):
        p = p[2:-2].split("|", 1)[0].strip()
    p = unicodedata.normalize("NFC", p).lstrip("./")
    if p and not p.lower().endswith(".md"):
        p += ".md"
    return p


def declared_intents(prose: str) -> dict[str, str]:
    """path -> reason for each `Intended: path — reason` line of the reply's prose."""
    out: dict[str, str] = {}
    if "ntended" not in prose and "NTENDED" not in prose:
        return out
    for m in _LINE.finditer(prose):
        body = m.group(1)
        cut = _REASON.search(body)
        paths, reason = (body[: cut.start()], body[cut.end():].strip()) if cut else (body, "")
        for piece in paths.split(","):
            path = _path(piece)
            if path:
                out[path] = reason or NO_REASON
    return out


def aim(intents: dict[str, str], repaired: dict[str, str]) -> dict[str, str]:
    """The declarations keyed by the paths the blocks were aimed at (`repaired`: the path as
    written -> the page it was read as), so a declaration follows its block's repair."""
    out = dict(intents)
    for written, meant in repaired.items():
        if written in intents and meant not in out:
            out[meant] = intents[written]
    return out
