"""Split and parse YAML frontmatter quickly, with precise errors.

Most pages carry a few ``key: value`` / ``key: [a, b]`` / ``- item`` lines. Those are read
by a small exact parser (``fast_load``) that gives up (returns None) on anything it does
not fully understand; the rest goes to PyYAML's C loader. Both give identical results
(tested against PyYAML on generated frontmatter).
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import yaml

try:  # the C loader is ~10x faster; fall back where libyaml is missing
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader

__all__ = ["split_frontmatter", "load_frontmatter", "yaml_frontmatter", "fast_load", "yaml_load"]


def split_frontmatter(text: str) -> tuple[str | None, int, int, int]:
    """Find frontmatter between ``---`` lines at the very top.

    Returns (yaml_text or None, yaml_start offset, body_start offset, body_line 1-based).
    An unclosed opening ``---`` is not frontmatter (the whole text is body). A leading
    BOM (text not read through read_page_text) is allowed before it.
    """
    bom = 1 if text.startswith("\ufeff") else 0
    if not text.startswith("---", bom):
        return None, 0, 0, 1
    first_nl = text.find("\n")
    if first_nl == -1 or text[3 + bom : first_nl].strip():
        return None, 0, 0, 1
    yaml_start = first_nl + 1
    n = len(text)
    j = first_nl
    while True:
        j = text.find("\n---", j)
        if j == -1:
            return None, 0, 0, 1
        nl = text.find("\n", j + 4)
        end = n if nl == -1 else nl
        if not text[j + 4 : end].strip():
            body_start = n if nl == -1 else nl + 1
            body_line = text.count("\n", 0, body_start) + 1 if nl != -1 else text.count("\n") + 1
            return text[yaml_start : j + 1], yaml_start, body_start, body_line
        j += 4


def yaml_load(source: str) -> Any:
    return yaml.load(source, Loader=_Loader)  # noqa: S506 - a safe loader


def load_frontmatter(source: str, first_line: int = 2) -> tuple[dict, str | None]:
    """Parse frontmatter YAML; (mapping, warning or None). Never raises.

    ``first_line`` is the file line of the YAML's first line (for messages).
    """
    data = fast_load(source)
    if data is not None:
        return data, None
    return yaml_frontmatter(source, first_line)


def yaml_frontmatter(source: str, first_line: int = 2) -> tuple[dict, str | None]:
    """`load_frontmatter` through PyYAML alone (the fast path already gave up)."""
    try:
        data = yaml_load(source)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + first_line}" if mark is not None else "frontmatter"
        problem = exc.problem or exc.context or "invalid YAML"
        return {}, f"broken YAML frontmatter at {where}: {problem}; frontmatter ignored"
    except Exception as exc:  # noqa: BLE001 - e.g. an impossible date, deep nesting
        return {}, f"broken YAML frontmatter: {type(exc).__name__}: {exc}; frontmatter ignored"
    if data is None:
        return {}, None
    if not isinstance(data, dict):
        kind = type(data).__name__
        return {}, f"frontmatter is a YAML {kind}, not a mapping of properties; ignored"
    return data, None


# ---------------------------------------------------------------------------
# The fast path

_KEY = re.compile(r"([A-Za-z_](?:[\w -]*[\w-])?):(?: +(.*))?$")
_ITEM = re.compile(r"( *)-(?: +(.*))?$")
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)$")
_SIMPLE_FLOAT = re.compile(r"[-+]?[0-9]+\.[0-9]*$")
_DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})$")
# YAML's printable set; anything else (and YAML's extra line breaks) goes to PyYAML
_NOT_SIMPLE = re.compile(
    "[^\x0a\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
)
_PLAIN_START_FORBIDDEN = set("-?:,[]{}#&*!|>'\"%@`")
_RESOLVERS = yaml.resolver.Resolver.yaml_implicit_resolvers
_STR = "tag:yaml.org,2002:str"
_BOOL_TRUE = {"yes", "true", "on"}


class _GiveUp(Exception):
    pass


_LINES: dict[str, tuple[str, Any]] = {}  # a one-line property -> (key, value; a list as a tuple)
_LINES_KEPT = 8192
_KEY_TAGS: dict[str, str] = {}  # keys repeat on every page: remember their implicit tag
_PLAIN_BAD = re.compile(r": | #|:$")
_FLOW_BAD = re.compile(r"[,\[\]{}]")


def _implicit_tag(value: str) -> str:
    resolvers = _RESOLVERS.get(value[:1])
    if resolvers:
        for tag, regexp in resolvers:
            if regexp.match(value):
                return tag
    return _STR


def _key_tag(key: str) -> str:
    tag = _KEY_TAGS.get(key)
    if tag is None:
        tag = _implicit_tag(key)
        if len(_KEY_TAGS) < 10_000:
            _KEY_TAGS[key] = tag
    return tag


def _plain(value: str, flow: bool) -> Any:
    if value[0] in _PLAIN_START_FORBIDDEN or _PLAIN_BAD.search(value):
        raise _GiveUp
    if flow and _FLOW_BAD.search(value):
        raise _GiveUp
    tag = _implicit_tag(value)
    if tag == _STR:
        return value
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:bool":
        return value.lower() in _BOOL_TRUE
    if tag == "tag:yaml.org,2002:int" and _DECIMAL.match(value):
        return int(value)
    if tag == "tag:yaml.org,2002:float" and _SIMPLE_FLOAT.match(value):
        return float(value)
    if tag == "tag:yaml.org,2002:timestamp":
        m = _DATE.match(value)
        if m:
            try:
                return datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            except ValueError:
                raise _GiveUp from None
    raise _GiveUp  # floats, dates, octal, ...: leave them to PyYAML


def _scalar(raw: str, flow: bool = False) -> Any:
    """A one-line scalar, already stripped of surrounding spaces."""
    if not raw:
        return None
    q = raw[0]
    if q == '"':
        inner = raw[1:-1]
        if len(raw) < 2 or raw[-1] != '"' or '"' in inner or "\\" in inner:
            raise _GiveUp
        return inner
    if q == "'":
        inner = raw[1:-1]
        if len(raw) < 2 or raw[-1] != "'" or "'" in inner.replace("''", ""):
            raise _GiveUp
        return inner.replace("''", "'")
    return _plain(raw, flow)


def _flow_list(raw: str) -> list:
    if raw[-1] != "]":
        raise _GiveUp
    inner = raw[1:-1].strip()
    if not inner:
        return []
    items = []
    for part in inner.split(","):
        part = part.strip(" ")
        if not part:
            raise _GiveUp
        items.append(_scalar(part, flow=True))
    return items


def fast_load(source: str) -> dict | None:
    """Parse simple frontmatter exactly as PyYAML would, or return None to defer to it."""
    if _NOT_SIMPLE.search(source):
        return None  # tabs, CR, control characters, NEL/LS/PS, BOM: PyYAML decides
    try:
        return _fast_load(source.split("\n"))
    except _GiveUp:
        return None


def _fast_load(lines: list[str]) -> dict:
    result: dict = {}
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        i += 1
        if not line.strip(" "):
            continue
        known = _LINES.get(line)
        if known is not None:  # "type: concept", "tags: [a, b]": the same lines on many pages
            key, value = known
            result[key] = list(value) if type(value) is tuple else value
            continue
        m = _KEY.match(line)
        if not m:
            raise _GiveUp  # indentation, comments, "---" docs, complex keys ...
        key = m.group(1)
        if _key_tag(key) != _STR:
            raise _GiveUp
        raw = (m.group(2) or "").rstrip(" ")
        if raw:
            value = _flow_list(raw) if raw[0] == "[" else _scalar(raw)
            result[key] = value
            if len(_LINES) >= _LINES_KEPT:
                _LINES.clear()
            _LINES[line] = (key, tuple(value) if type(value) is list else value)
            continue
        items: list = []
        indent = None
        while i < n:
            im = _ITEM.match(lines[i])
            if not im:
                if not lines[i].strip(" ") and items:
                    # a blank line inside a list: fine only if another item follows
                    j = i
                    while j < n and not lines[j].strip(" "):
                        j += 1
                    if j < n and _ITEM.match(lines[j]):
                        i = j
                        continue
                break
            if indent is None:
                indent = len(im.group(1))
            elif len(im.group(1)) != indent:
                raise _GiveUp
            items.append(_scalar((im.group(2) or "").rstrip(" ")))
            i += 1
        result[key] = items if indent is not None else None
    return result
