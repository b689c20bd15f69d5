"""Converting one source in a child process with a memory and a time limit (bounds.py).

The parent runs `python -m wiki_tui.agent.convert.child ROOT PATH` and reads one JSON object
from its stdout: the Converted fields, or `error`. The child caps its own address space
(RLIMIT_AS) before it reads anything, so a file that needs more memory fails there with a
MemoryError, never in the app; the parent kills it when it runs out of time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import PurePosixPath

from wiki_tui.agent.convert import ConversionError, Converted
from wiki_tui.agent.convert.bounds import CHILD_MEMORY_MB, CHILD_SECONDS


def convert_in_child(root: str, path: str, *, memory_mb: int = CHILD_MEMORY_MB,
                     seconds: float = CHILD_SECONDS) -> Converted:
    command = [sys.executable, "-m", "wiki_tui.agent.convert.child", root, path, str(memory_mb)]
    try:
        done = subprocess.run(command, capture_output=True, timeout=seconds,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise ConversionError(f"{path}: took more than {seconds:g} s to convert; refused (a "
                              "smaller or simpler file converts in seconds)") from None
    try:
        answer = json.loads(done.stdout.decode("utf-8"))
    except ValueError:
        answer = {"error": f"{path}: needs more than {memory_mb:,} MB of memory to convert; "
                           "refused" if done.returncode != 0 else f"{path}: cannot be converted"}
    if "error" in answer:
        raise ConversionError(answer["error"])
    return Converted(answer["text"], answer["kind"], pages=answer.get("pages", 0))


def _main(root: str, path: str, memory_mb: int) -> dict:
    import resource

    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from wiki_tui.agent.convert import bounds, by_format
    from pathlib import Path

    try:
        data = (Path(root) / path).read_bytes()
        suffix = PurePosixPath(path).suffix.lower()
        bounds.check(suffix, data, path)
        converted = by_format(suffix, data, path)
    except ConversionError as exc:
        return {"error": str(exc)}
    except MemoryError:
        return {"error": f"{path}: needs more than {memory_mb:,} MB of memory to convert; "
                         "refused"}
    except Exception as exc:  # noqa: BLE001 - a converter's own fault on a corrupt file
        return {"error": f"{path}: cannot be converted ({PurePosixPath(path).suffix[1:].upper()}"
                         f" looks corrupt: {type(exc).__name__}: {exc})"}
    return {"text": converted.text, "kind": converted.kind, "pages": converted.pages}


if __name__ == "__main__":
    result = _main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
    sys.stdout.write(json.dumps(result))
