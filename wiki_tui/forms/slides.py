"""A Marp deck: a markdown page with `marp: true` in its frontmatter, slides split by `---`.

    ---
    title: Clock versus Moon
    marp: true
    ---
    # Clock versus Moon
    ---
    ## The chronometer
    - [[H4]] lost 5.1 s in 81 days

`slides` cuts a deck into its slides (a `---` inside a code fence is text); `is_deck` tells a
deck from a page.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_MARP = re.compile(r"(?m)^marp\s*:\s*(?:true|yes|on)\s*$", re.IGNORECASE)


def split_frontmatter(text: str) -> tuple[str, str]:
    """(frontmatter text without its `---` lines, the body after it); ('', text) without one."""
    if not text.startswith("---"):
        return "", text
    lines = text.splitlines(keepends=True)
    if lines[0].rstrip("\r\n") != "---":
        return "", text
    for i in range(1, len(lines)):
        if lines[i].rstrip("\r\n") in ("---", "..."):
            return "".join(lines[1:i]), "".join(lines[i + 1:])
    return "", text


def is_deck(text: str) -> bool:
    front, _body = split_frontmatter(text)
    return bool(_MARP.search(front))


def slides(text: str) -> list[str]:
    """The deck's slides, in order, each without its separator line (blank slides dropped)."""
    _front, body = split_frontmatter(text)
    out, current, fence = [], [], ""
    for line in body.splitlines():
        m = _FENCE.match(line)
        if m and not fence:
            fence = m.group(1)
        elif m and fence and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
            fence = ""
        if not fence and line.strip() == "---":
            out.append("\n".join(current).strip("\n"))
            current = []
            continue
        current.append(line)
    out.append("\n".join(current).strip("\n"))
    return [s for s in out if s.strip()]
