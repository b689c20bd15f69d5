"""Run the person's $VISUAL/$EDITOR on a file, handing the terminal over while it runs."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path


class EditorError(Exception):
    """Why the editor could not run (a sentence for the person)."""


def run_editor(app, file: Path) -> None:
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
