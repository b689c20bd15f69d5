"""Which pages a text cites: the vault paths its [[links]] resolve to, and the raw/ files it names.

Used on an answer (the conversation's citations, a saved answer's `sources:`), by the
operations and the offline engine alike.
"""

from __future__ import annotations

import re
from typing import Any


def citations(vault: Any, text: str) -> list[str]:
    """Vault paths the text links to ([[Page]] links that resolve, and raw/ files named)."""
    from wiki_tui.vault.parse.links import scan_links

    found: list[str] = []
    for link in scan_links(text):
        if link.kind in ("wiki", "markdown") and link.target:
            target = vault.resolve(link.target)
            if target and target not in found:
                found.append(target)
    for raw in re.findall(r"\braw/[^\s`'\")\]]+", text):
        raw = raw.rstrip(".,;:")
        if (vault.root / raw).is_file() and raw not in found:
            found.append(raw)
    return found
