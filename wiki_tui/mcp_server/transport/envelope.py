"""The JSON-RPC envelope of one incoming message, checked before the SDK sees it.

The SDK drops what it cannot read (over stdio a bad line got no reply at all, so the client
waited forever). Here every such message gets a JSON-RPC error naming what is wrong, in plain
words: a line that is not JSON (-32700), a batch (MCP has none since 2025-06-18), something other
than one object, a `jsonrpc` other than "2.0", a request without a method, an id that is neither
a string nor a number (-32600). Both transports use it: stdio (stdio.py) and HTTP (http.py).
"""

from __future__ import annotations

import json
from typing import Any

from mcp_types import INVALID_REQUEST, PARSE_ERROR, jsonrpc_message_adapter
from pydantic import ValidationError

MAX_MESSAGE_BYTES = 4 * 1024 * 1024  # the SDK's own HTTP body limit, for stdio lines too


def _error(code: int, message: str, id_: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}}


def _id_of(message: dict[str, Any]) -> tuple[Any, str | None]:
    """The id to answer with, and what is wrong with it (None: nothing)."""
    if "id" not in message:
        return None, None
    value = message["id"]
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value, None
    if value is None:
        return None, "the id is null: a request needs a string or number id (leave it out for a notification)"
    return None, f"the id must be a string or a number, not {_kind(value)}"


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", bool: "true/false", float: "a fraction",
            str: "a string", int: "a number", type(None): "null"}.get(type(value), type(value).__name__)


def refusal(raw: bytes | str) -> dict[str, Any] | None:
    """The JSON-RPC error answering `raw` (one message as received), or None when the envelope
    is sound and the SDK can take it."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return _error(INVALID_REQUEST, f"the message is {len(raw):,} bytes; at most "
                                       f"{MAX_MESSAGE_BYTES:,} are read")
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        return _error(PARSE_ERROR, "parse error: the message is not valid JSON")
    if isinstance(message, list):
        return _error(INVALID_REQUEST, "batches are not supported: send one JSON-RPC message "
                                       "at a time (MCP removed batching in 2025-06-18)")
    if not isinstance(message, dict):
        return _error(INVALID_REQUEST, f"a JSON-RPC message is one object, not {_kind(message)}")
    id_, bad_id = _id_of(message)
    if bad_id:
        return _error(INVALID_REQUEST, f"invalid request: {bad_id}")
    if message.get("jsonrpc") != "2.0":
        got = json.dumps(message["jsonrpc"]) if "jsonrpc" in message else "nothing"
        return _error(INVALID_REQUEST, f'invalid request: "jsonrpc" must be "2.0" (got {got})', id_)
    is_reply = "result" in message or "error" in message
    if "method" not in message and not is_reply:
        return _error(INVALID_REQUEST, "invalid request: no method", id_)
    if "method" in message and not isinstance(message["method"], str):
        return _error(INVALID_REQUEST, "invalid request: the method must be a string", id_)
    if "params" in message and not isinstance(message["params"], dict):
        return _error(INVALID_REQUEST, "invalid request: params must be an object", id_)
    try:
        jsonrpc_message_adapter.validate_python(message, by_name=False)
    except ValidationError:
        return _error(INVALID_REQUEST, "invalid request: not a JSON-RPC request, notification "
                                       "or response", id_)
    return None
