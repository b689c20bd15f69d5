"""Fences and wrappers: reading ``` / ~~~ fence lines, and taking off the wrappers a model puts
around a page (a ```markdown fence around a WRITE, a ```yaml fence around its frontmatter, blank
lines before it). Pure functions over lines; each unwrapping returns the repair note the review
shows (docs/edit-protocol.md, "Repairs").
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*?[ \t\r]*$")
WRAPPER_INFO = {"", "markdown", "md"}  # the info words of a fence that wraps a page
_YAML_INFO = {"yaml", "yml"}
_HEADING_OR_FRONTMATTER = re.compile(r"^(?:---|#{1,6}\s)")
_YAML_LINE = re.compile(r"^(?:[A-Za-z_][\w -]*:(?:\s.*)?|\s+.*|-\s.*|#.*)$")


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


def last_text(lines: list[str]) -> int:
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
    if opened is None or opened[1] not in WRAPPER_INFO:
        return lines, None
    run, last = opened[0], last_text(lines)
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


def frontmatter_first(lines: list[str]) -> list[str]:
    """Blank lines a model put before a page's frontmatter would stop it being frontmatter."""
    k = 0
    while k < len(lines) and not lines[k].strip():
        k += 1
    if k and k < len(lines) and lines[k].rstrip("\r\n") == "---":
        return lines[k:]
    return lines
