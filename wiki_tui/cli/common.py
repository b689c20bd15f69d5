"""Helpers shared by the CLI command modules."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

console = Console(highlight=False)
console_err = Console(stderr=True, highlight=False)
# Output to a pipe or a file is not wrapped at rich's 80-column default: whole lines for
# scripts and pagers.
for _console in (console, console_err):
    _console.soft_wrap = not _console.is_terminal


class CliError(Exception):
    """A user-facing error: printed without a traceback, exits with `code`."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


# A folder with any of these is taken for a vault where a command looks for one in the current
# folder (eval's config); `--vault DIR` accepts any folder of markdown for reading.
VAULT_MARKERS = ("AGENTS.md", "index.md", ".obsidian")


def vault_root(args: Any, *, write: bool = False) -> Path:
    """The vault folder named by --vault (or the current folder), checked by `require_vault`."""
    root = Path(getattr(args, "vault", None) or Path.cwd()).expanduser()
    if not root.exists():
        raise CliError(f"no vault at {root}: the folder does not exist", 2)
    if not root.is_dir():
        raise CliError(f"no vault at {root}: not a folder", 2)
    return require_vault(root.resolve(), write=write)


def require_vault(root: Path, *, write: bool = False) -> Path:
    """`root` when a command may work there, else a CliError that says what to do.

    Reading (`lint`, `search`, `mcp`, the app...) takes any folder of markdown: an adopted vault
    keeps its state in `.wiki-tui/`, any other folder is left untouched (its state goes to the
    user cache, vault/state.py). Writing (`ingest`, `apply`, `undo`...) needs an adopted vault,
    which `wiki-tui init DIR` makes of a folder of notes without changing them."""
    import shlex

    from wiki_tui.vault.state import is_adopted

    if is_adopted(root):
        return root
    init = f"wiki-tui init {shlex.quote(str(root))}"
    if write:
        raise CliError(f"{root} is not a wiki-tui vault yet (no AGENTS.md): run `{init}` to adopt "
                       "it (your notes are not changed), then try again; nothing was written", 2)
    if root == Path(root.anchor) or root == Path.home().resolve():
        what = "the root folder" if root == Path(root.anchor) else "your home folder"
        raise CliError(f"{root} is {what}, not a vault: wiki-tui does not read a whole disk or "
                       "home; pass --vault with the folder of your notes", 2)
    if not _holds_markdown(root):
        raise CliError(f"{root} holds no markdown pages, so there is nothing to read: `{init}` "
                       "makes a vault there", 2)
    return root


def _holds_markdown(root: Path) -> bool:
    """Is there a page (a .md file outside hidden folders and raw/) anywhere under `root`?
    Stops at the first."""
    import os

    from wiki_tui.vault.layout import RAW_DIR

    for folder, dirs, files in os.walk(root):
        if any(name[-3:].lower() == ".md" and not name.startswith(".") for name in files):
            return True
        dirs[:] = [d for d in dirs if not d.startswith(".") and not (folder == str(root) and d == RAW_DIR)]
    return False


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2, default=str) + "\n")


PROGRESS_FROM = 1000  # pages indexed in bulk from which a command says how far it has come


def open_vault(root: Path) -> Any:
    """`Vault.open` for a command: a VaultError is a CliError (exit 2), and indexing in bulk
    (a vault's first opening, or many pages changed since the last) says how far it has come
    on stderr when that is a terminal."""
    from wiki_tui.vault import Vault, VaultError

    try:
        return Vault.open(root, on_progress=index_progress())
    except VaultError as exc:
        raise CliError(str(exc), 2) from None


def index_progress(stream: Any = None) -> Any:
    """A Vault.open progress callback writing one updating line to `stream` (stderr), or None
    when that is not a terminal (pipes and logs get no carriage returns)."""
    stream = stream if stream is not None else sys.stderr
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):  # no isatty, or closed
        return None

    def show(done: int, total: int) -> None:
        if total < PROGRESS_FROM:
            return
        if done < total:
            stream.write(f"\rindexing the vault: {done:,} of {total:,} pages")
        else:  # the line that stays says why the command took a while
            stream.write(f"\rindexed {total:,} pages (kept on disk for the next command)\x1b[K\n")
        stream.flush()

    return show


def report_recovery(vault: Any) -> None:
    """Finish or roll back an apply a crash interrupted (and clear what its killed git left),
    or say what is in the way; every command that opens a vault calls this."""
    from wiki_tui.changes.vault_state import recovery_pending

    if not recovery_pending(Path(vault.root)):
        return  # the usual case: no journal or git code imported
    from rich.markup import escape

    from wiki_tui.changes.apply.journal import recover

    message = recover(vault)
    if message:
        console_err.print(f"[yellow]recovered:[/] {escape(message)}")


def diff_text(diff: str):
    """A unified diff coloured line by line (a Text: never cropped, wrapped only on a
    terminal)."""
    from rich.text import Text

    out = Text()
    for line in diff.splitlines():
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("@@"):
            style = "cyan"
        elif line.startswith("+"):
            style = "green"
        elif line.startswith("-"):
            style = "red"
        else:
            style = ""
        out.append(line + "\n", style=style)
    return out


def print_outcome(changeset: Any) -> None:
    """What the changeset does to the wiki (its knowledge diff in one line) and each file's
    breaches of the invariants: held from --yes, or declared by the reply."""
    from rich.markup import escape

    from wiki_tui.changes.build.outcome import outcome_lines

    styles = {"outcome": "[bold]outcome:[/]", "held": "[magenta]held:[/]",
              "declared": "[dim]declared:[/]"}
    for label, text in outcome_lines(changeset):
        console.print(f"{styles[label]} {escape(text)}", soft_wrap=True)


def show_changeset(changeset: Any, errors: list[Any] | None = None) -> None:
    """The changeset as the CLI shows it before applying: its outcome, every file's diff
    (coloured) with its warnings and repairs, the reply's repairs, lint findings, then what was
    not used (`errors`: the build's EditErrors, notes apart; None: the changeset's own)."""
    from rich.markup import escape

    console.rule(f"{escape(changeset.operation)}: {escape(changeset.title)} — "
                 f"{len(changeset.files)} file(s)")
    print_outcome(changeset)
    for change in changeset.files:
        source = f" (from {escape(change.old_path)})" if change.old_path else ""
        console.print(f"[bold]{change.kind}[/] {escape(change.path)}{source}")
        for warning in change.warnings:
            console.print(f"[yellow]warning:[/] {escape(warning)}")
        for repair in change.repairs:
            console.print(f"[cyan]repaired:[/] {escape(repair)}")
        diff = change.unified_diff()
        if diff:
            console.print(diff_text(diff), end="")  # a Syntax crops long lines when piped
    for repair in changeset.repairs:
        console.print(f"[cyan]repaired:[/] {escape(repair)}")
    for finding in changeset.findings:
        console.print(f"[yellow]lint:[/] {escape(str(finding))}")
    if errors is None:
        for error in changeset.errors:
            console.print(f"[red]not used:[/] {escape(str(error))}")
        return
    for error in errors:
        label = "[red]error:[/]" if getattr(error, "retry", True) else "[dim]note:[/]"
        console.print(f"{label} {escape(str(error))}")


def add_allow_argument(parser: Any) -> None:
    """`--allow CODES`: what `--yes` may apply although an invariant holds it."""
    parser.add_argument("--allow", metavar="CODES", default=None,
                        help="with --yes: also apply changes these invariants hold "
                             "(comma-separated: delete, fields, links, claims, rewrite, code, "
                             "twin, hidden, addressed, spread; see docs/edit-protocol.md)")


def allowed(args: Any) -> frozenset[str]:
    """The --allow codes (CliError naming an unknown one)."""
    from wiki_tui.changes.build.knowledge.invariants import parse_allow

    try:
        return parse_allow(getattr(args, "allow", None))
    except ValueError as exc:
        raise CliError(str(exc), 2) from None
