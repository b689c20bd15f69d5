"""An agent's argument mistakes in plain words, instead of pydantic's validation report.

"search: query is missing" and "list_pages: limit must be a whole number (got "ten")" tell a
model what to send next; the SDK's own text ("1 validation error for search_toolArguments ...
For further information visit https://errors.pydantic.dev/...") does not.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

_WANTS = {
    "string_type": "must be text",
    "int_type": "must be a whole number",
    "int_parsing": "must be a whole number",
    "int_from_float": "must be a whole number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "list_type": "must be a list",
    "dict_type": "must be an object",
    "model_type": "must be an object",
}


def _shown(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _one(error: dict[str, Any]) -> str:
    name = ".".join(str(part) for part in error.get("loc", ())) or "the arguments"
    kind = error.get("type", "")
    context = error.get("ctx") or {}
    if kind == "missing":
        return f"{name} is missing"
    if kind == "greater_than_equal":
        return f"{name} must be at least {context.get('ge')} (got {_shown(error.get('input'))})"
    if kind == "less_than_equal":
        return f"{name} must be at most {context.get('le')} (got {_shown(error.get('input'))})"
    if kind == "string_too_long":
        return f"{name} is too long (at most {context.get('max_length'):,} characters)"
    wants = _WANTS.get(kind)
    if wants:
        return f"{name} {wants} (got {_shown(error.get('input'))})"
    return f"{name}: {error.get('msg', 'not accepted')}"


def plain_message(tool: str, error: ValidationError) -> str:
    """One sentence naming each argument that was wrong and what it should be."""
    problems = [_one(e) for e in error.errors(include_url=False)]
    return f"{tool}: " + "; ".join(dict.fromkeys(problems))
