"""Lint findings the person dismissed: recorded in dismissed.json in the vault's state folder
(`<vault>/.wiki-tui/`, or the user cache for a folder not adopted: vault/state.py), never
shown again (contradiction lint is noisy; a dismissal must stick)."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from wiki_tui.vault.state import state_dir

FILE = "dismissed.json"
SEEN_FILE = "findings-seen.json"  # model-checked findings shown, by id
SEEN_KEEP = 5000  # the most recent ones: enough for any id a person copies from a run


def finding_id(code: str, path: str, message: str, evidence: str = "") -> str:
    """Stable id of a finding: the same problem on the same page gets the same id next run."""
    key = "\x1f".join((code, path, message, evidence))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def load_dismissed(vault_root: Path | str) -> dict[str, dict]:
    path = state_dir(vault_root) / FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):  # unreadable: treat as empty rather than lose the run
        return {}
    items = data.get("dismissed", {}) if isinstance(data, dict) else {}
    return items if isinstance(items, dict) else {}


def dismiss(vault_root: Path | str, item) -> None:
    """Record `item` (a LintItem) as dismissed; atomic write."""
    root = Path(vault_root)
    items = load_dismissed(root)
    items[item.id] = {"code": item.code, "path": item.path, "message": item.message,
                      "at": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    _write(root, items)


def undismiss(vault_root: Path | str, item_id: str) -> bool:
    """Take a dismissal back (later lint runs report the finding again); False if it was not
    recorded."""
    root = Path(vault_root)
    items = load_dismissed(root)
    if items.pop(item_id, None) is None:
        return False
    _write(root, items)
    return True


def remember_findings(vault_root: Path | str, items) -> None:
    """Record model-checked findings shown to the person, so that `dismiss ID` can tell an id
    from an earlier run from a mistyped one (a model finding is not re-found without the model)."""
    root = Path(vault_root)
    seen = load_seen(root)
    for item in items:
        seen.pop(item.id, None)  # re-inserted last: the newest are kept
        seen[item.id] = {"code": item.code, "path": item.path, "message": item.message}
    if items:
        _write(root, dict(list(seen.items())[-SEEN_KEEP:]), SEEN_FILE, "seen")


def load_seen(vault_root: Path | str) -> dict[str, dict]:
    try:
        data = json.loads((state_dir(vault_root) / SEEN_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    items = data.get("seen", {}) if isinstance(data, dict) else {}
    return items if isinstance(items, dict) else {}


def _write(root: Path, items: dict[str, dict], name: str = FILE, key: str = "dismissed") -> None:
    target = state_dir(root) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.stem}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({key: items}, fh, ensure_ascii=False, indent=2)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
