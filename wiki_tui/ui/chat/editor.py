"""The person's $VISUAL / $EDITOR, with the app suspended while it runs."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path
from typing import Any


class EditorError(Exception):
    """The editor could not run, or its text could not be read back (a sentence for the person)."""


def run_editor(app: Any, file: Path) -> None:
    """Suspend `app`, edit `file`, resume. Raises EditorError with a clear message."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not editor:
        raise EditorError("No editor set: export EDITOR (for example EDITOR=nano) and try again.")
    command = shlex.split(editor) + [str(file)]
    try:
        if app.is_headless:
            subprocess.run(command, check=False)  # no terminal to hand over
        else:
            with app.suspend():
                subprocess.run(command, check=False)
    except FileNotFoundError:
        raise EditorError(f"Editor not found: {command[0]}") from None
    except Exception as error:  # SuspendNotSupported (e.g. Textual web) and friends
        raise EditorError(f"Cannot run the editor here: {error}") from None


def edit_text(app: Any, text: str, filename: str) -> str:
    """`text` as the person left it in their editor (a temp file named `filename`).

    Bytes that are not UTF-8 survive the round trip (surrogateescape), as everywhere else in
    the changes layer.
    """
    with tempfile.TemporaryDirectory(prefix="wiki-tui-edit-") as folder:
        path = Path(folder) / Path(filename).name
        with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as handle:
            handle.write(text)
        run_editor(app, path)
        try:
            with open(path, encoding="utf-8", errors="surrogateescape", newline="") as handle:
                return handle.read()
        except OSError as error:
            raise EditorError(f"The edited text could not be read back: {error}") from None
