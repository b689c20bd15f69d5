"""Images (png, jpg, webp, gif) as sources, and as parts a vision model is sent.

The bytes are checked for the format's signature (no imaging library needed); the text an image
source becomes is its embed, `![[raw/x.png]]`: the model sees the picture itself when it
supports vision, and the review says so when it does not."""

from __future__ import annotations

import base64
from pathlib import Path, PurePosixPath

from wiki_tui.agent.convert import ConversionError

_MIME = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
         ".webp": "image/webp", ".gif": "image/gif"}
IMAGE_TOKENS = 1_500  # what one image is counted as against the prompt budget (an estimate:
# providers charge ~85-1,600 tokens for an image, by its size)
MAX_IMAGE_BYTES = 5 * 1024 * 1024  # the common provider limit for one image


def image_kind(data: bytes) -> str:
    """The suffix the bytes are (".png", ".jpg", ".gif", ".webp"), or "" if none of them."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 24:
        return ".png"
    if data.startswith(b"\xff\xd8\xff"):
        return ".jpg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return ".gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return ".webp"
    return ""


def image_markdown(data: bytes, path: str) -> str:
    if not image_kind(data):
        raise ConversionError(f"{path}: is not a readable image (its bytes are not "
                              f"{PurePosixPath(path).suffix[1:].upper()}); the file may be "
                              "corrupt")
    name = PurePosixPath(path).stem.replace("-", " ").replace("_", " ").strip()
    return f"# {name.capitalize() or 'Image'}\n\n![[{path}]]\n"


def image_parts(root: Path | str, paths: list[str], budget_tokens: int
                ) -> tuple[list[dict], list[str]]:
    """(image_url message parts, the paths left out) for a vision model: each image once, at
    most MAX_IMAGE_BYTES each and IMAGE_TOKENS each within `budget_tokens`."""
    parts: list[dict] = []
    left_out: list[str] = []
    for path in paths:
        data = (Path(root) / path).read_bytes()
        kind = image_kind(data)
        if not kind or len(data) > MAX_IMAGE_BYTES or (len(parts) + 1) * IMAGE_TOKENS > \
                budget_tokens:
            left_out.append(path)
            continue
        url = f"data:{_MIME[kind]};base64,{base64.b64encode(data).decode('ascii')}"
        parts.append({"type": "image_url", "image_url": {"url": url}})
    return parts, left_out
