"""`wiki-tui apply REPLY_FILE`, `wiki-tui undo` and `wiki-tui usage`: changesets from the
command line, and what their model calls cost (totalled from log.md).

`apply` takes a model reply written in the edit protocol (docs/edit-protocol.md) from a file or
stdin (`-`), shows each file's diff with the lint findings and anything that could not be used,
and applies it only when asked:

- `--dry-run`: show and exit (0, or 1 if some blocks could not be used). Nothing is written.
- `--yes`: apply every file, print what was written and the commit.
- neither: when stdin and stdout are terminals (the reply came from a file), ask y/N; otherwise
  (e.g. the reply is piped in on stdin) only show, and say to re-run with --yes.

`--json` prints one JSON object instead (files with their diffs, lint findings, errors, the
result): the way for another agent, e.g. a coding assistant in another terminal, to propose
changes through the same review and record.

A reply with protocol or matching errors is never applied in part: the vault stays untouched and
the exit code is 1. Exit 3: the person answered no. Any apply first finishes or rolls back an
apply interrupted by a crash.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from rich.markup import escape

from wiki_tui.cli.common import (CliError, console, console_err, diff_text, print_json,
                                 report_recovery, vault_root)

APPLY_OPERATIONS = ("apply", "ingest", "query", "save", "lint", "instruct")
EXIT_NOT_APPLIED = 3  # shown, but the person said no (as the agent commands do)


def register(subparsers) -> None:
    apply = subparsers.add_parser(
        "apply", help="review and apply a model reply's edits (a changeset) from a file or stdin",
        description="Show the changes a reply written in wiki-tui's edit protocol would make, "
                    "and apply them with --yes: files written atomically, one log.md entry, "
                    "index.md regenerated, one git commit.")
    apply.add_argument("reply", metavar="REPLY_FILE", help="the reply text, or - for stdin")
    mode = apply.add_mutually_exclusive_group()
    mode.add_argument("--yes", "-y", action="store_true", help="apply without asking")
    mode.add_argument("--dry-run", action="store_true", help="show the diffs, write nothing")
    apply.add_argument("--title", default=None, help="title for log.md and the commit")
    apply.add_argument("--operation", default="apply", choices=APPLY_OPERATIONS,
                       help="operation word for log.md and the commit (default: apply)")
    apply.add_argument("--model", default="external",
                       help="who wrote the reply, for the commit's Model: trailer")
    apply.add_argument("--allow-schema", action="store_true",
                       help="with --yes: also apply an edit of AGENTS.md, the vault's schema "
                            "(held back otherwise)")
    apply.add_argument("--json", action="store_true",
                       help="print one JSON object (files with diffs, findings, errors, result) "
                            "instead of coloured diffs: for scripts and other agents")
    apply.set_defaults(func=run_apply)

    undo = subparsers.add_parser(
        "undo", help="revert the last change wiki-tui committed (a new commit + log entry)",
        description="Revert the last changeset wiki-tui committed, with a new commit and a "
                    "log.md entry. Refused if its files changed since or the last commit is "
                    "not wiki-tui's.")
    undo.set_defaults(func=run_undo)

    usage = subparsers.add_parser(
        "usage", help="tokens and cost of the model's accepted operations, from log.md",
        description="Total the tokens and cost that log.md records for each accepted operation, "
                    "per model, per operation and per month. Reads log.md only.")
    usage.add_argument("--json", action="store_true", help="print JSON for scripts")
    usage.set_defaults(func=run_usage)


# -- shared ------------------------------------------------------------------------------------
def _open_vault(args: Any):
    from wiki_tui.vault import Vault, VaultError

    root = vault_root(args)
    try:
        vault = Vault.open(root)
    except VaultError as exc:
        raise CliError(str(exc), 2) from None
    report_recovery(vault)
    return vault


def _read_reply(name: str) -> tuple[str, str]:
    """(reply text, default title)."""
    if name == "-":
        data = sys.stdin.buffer.read()
        where, title = "stdin", "changes from stdin"
    else:
        path = Path(name)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise CliError(f"cannot read {name}: no such file", 2) from None
        except IsADirectoryError:
            raise CliError(f"cannot read {name}: it is a folder", 2) from None
        except OSError as exc:
            raise CliError(f"cannot read {name}: {exc.strerror}", 2) from None
        where, title = name, f"changes from {path.name}"
    try:
        return data.decode("utf-8-sig"), title
    except UnicodeDecodeError as exc:
        raise CliError(f"{where} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset "
                       f"{exc.start})", 2) from None


def show_changeset(changeset: Any, errors: list[Any] = ()) -> None:
    """Every file's diff (coloured), then lint findings and the blocks that were not used."""
    console.rule(f"{escape(changeset.operation)}: {escape(changeset.title)} — "
                 f"{len(changeset.files)} file(s)")
    for change in changeset.files:
        source = f" (from {escape(change.old_path)})" if change.old_path else ""
        console.print(f"[bold]{change.kind}[/] {escape(change.path)}{source}")
        for warning in change.warnings:
            console.print(f"[yellow]warning:[/] {escape(warning)}")
        for repair in change.repairs:
            console.print(f"[cyan]repaired:[/] {escape(repair)}")
        diff = change.unified_diff()
        if diff:
            console.print(diff_text(diff), end="")
    for repair in changeset.repairs:
        console.print(f"[cyan]repaired:[/] {escape(repair)}")
    for finding in changeset.findings:
        console.print(f"[yellow]lint:[/] {escape(str(finding))}")
    for error in errors:
        label = "[red]error:[/]" if getattr(error, "retry", True) else "[dim]note:[/]"
        console.print(f"{label} {escape(str(error))}")


def _print_result(result: Any) -> None:
    from wiki_tui.changes.guards import printable  # a name made outside may hold a newline

    for path in result.created:
        console.print(f"created  {printable(path)}", markup=False)
    for path in result.updated:
        console.print(f"updated  {printable(path)}", markup=False)
    for path in result.deleted:
        console.print(f"deleted  {printable(path)}", markup=False)
    for old, new in result.renamed:
        console.print(f"renamed  {printable(old)} → {printable(new)}", markup=False)
    for path in result.conflicts:
        console_err.print(f"[red]conflict:[/] {escape(printable(path))} changed on disk; not written")
    if result.commit:
        console.print(f"commit   {result.commit}", markup=False)
    if result.notice:
        console_err.print(f"[yellow]note:[/] {escape(result.notice)}")


# -- commands ----------------------------------------------------------------------------------
def run_apply(args: Any) -> int:
    from wiki_tui.changes.protocol import parse_reply

    text, default_title = _read_reply(args.reply)
    parsed = parse_reply(text)
    if not (parsed.blocks or parsed.incomplete or parsed.errors):
        raise CliError("the reply contains no edit blocks (see docs/edit-protocol.md for the "
                       "format); nothing to apply", 1)
    vault = _open_vault(args)
    try:
        return _review_and_apply(args, vault, parsed, default_title)
    finally:
        vault.close()


def _review_and_apply(args: Any, vault: Any, parsed: Any, default_title: str) -> int:
    from wiki_tui.changes.journal import sync_with_disk
    from wiki_tui.changes.vault_lock import VaultBusy, vault_lock

    if not args.yes:
        return _build_and_apply(args, vault, parsed, default_title)
    try:  # bases, lint and index.md are read with the lock held, after any other apply
        with vault_lock(vault.root):
            sync_with_disk(vault)
            return _build_and_apply(args, vault, parsed, default_title)
    except VaultBusy as exc:
        raise CliError(f"not applied: {exc}", 1) from None


def _build_and_apply(args: Any, vault: Any, parsed: Any, default_title: str) -> int:
    from wiki_tui.changes.build import build_changeset
    from wiki_tui.changes.journal import ApplyError, apply_changeset

    changeset, errors = build_changeset(vault, parsed, operation=args.operation,
                                        title=args.title or default_title, model=args.model)
    report = _Report(args.json, changeset, errors)
    blocking = [e for e in errors if getattr(e, "retry", True)]
    if blocking:
        return report.done(1, f"not applied: {len(blocking)} problem(s) in the reply (listed "
                              "above); the vault is untouched")
    if not changeset.files:
        return report.done(0, "nothing to change: the reply's edits are already in the vault")
    if args.dry_run:
        return report.done(0, "dry run: nothing written")
    from wiki_tui.changes.guards import held, held_message

    if args.yes and (waiting := held(changeset, allow_schema=args.allow_schema)):
        return report.done(EXIT_NOT_APPLIED, held_message(waiting))
    if not args.yes:
        if args.json or args.reply == "-" or not (sys.stdin.isatty() and sys.stdout.isatty()):
            return report.done(0, "shown only: re-run with --yes to apply these changes")
        answer = console.input(f"Apply {len(changeset.files)} file(s)? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            return report.done(EXIT_NOT_APPLIED, "not applied")
    changeset.accept_all()
    try:
        result = apply_changeset(vault, changeset)
    except ApplyError as exc:
        return report.done(1, f"not applied: {exc}")
    return report.applied(result)


class _Report:
    """What `apply` tells the person (rich text) or a program (--json, one object at the end)."""

    def __init__(self, as_json: bool, changeset: Any, errors: list[Any]) -> None:
        self.as_json, self.changeset, self.errors = as_json, changeset, errors
        if not as_json:
            show_changeset(changeset, errors)

    def done(self, code: int, message: str, result: Any = None) -> int:
        if self.as_json:
            cs = self.changeset
            print_json({
                "applied": bool(result is not None and result.applied), "message": message,
                "operation": cs.operation, "title": cs.title,
                "files": [{"path": f.path, "kind": f.kind, "old_path": f.old_path,
                           "diff": f.unified_diff(), "repairs": list(f.repairs),
                           "warnings": list(f.warnings), "hold": f.hold} for f in cs.files],
                "repairs": list(cs.repairs),
                "findings": [str(f) for f in cs.findings],
                "errors": [str(e) for e in self.errors if getattr(e, "retry", True)],
                "notes": [str(e) for e in self.errors if not getattr(e, "retry", True)],
                "result": None if result is None else {
                    "created": result.created, "updated": result.updated,
                    "deleted": result.deleted, "renamed": result.renamed,
                    "commit": result.commit, "conflicts": result.conflicts,
                    "notice": result.notice},
            })
        elif code == 0 or code == EXIT_NOT_APPLIED:
            console_err.print(escape(message))
        else:
            raise CliError(message, code)
        return code

    def applied(self, result: Any) -> int:
        code = 1 if result.conflicts else 0
        if not self.as_json:
            _print_result(result)
            return code
        return self.done(code, "applied" if result.applied else (result.notice or "nothing applied"),
                         result)


def run_undo(args: Any) -> int:
    from wiki_tui.changes.journal import UndoError, undo_last

    vault = _open_vault(args)
    try:
        result = undo_last(vault)
    except UndoError as exc:
        raise CliError(f"undo refused: {exc.reason}", 1) from None
    finally:
        vault.close()
    console.print(f"undid “{result.title}” ({result.reverted[:10]})", markup=False)
    from wiki_tui.changes.guards import printable

    for path in result.restored:
        console.print(f"restored {printable(path)}", markup=False)
    for path in result.removed:
        console.print(f"removed  {printable(path)}", markup=False)
    console.print(f"commit   {result.commit}", markup=False)
    if result.notice:
        console_err.print(f"[yellow]note:[/] {escape(result.notice)}")
    return 0


def run_usage(args: Any) -> int:
    from wiki_tui.changes.logmd import LOG_PATH
    from wiki_tui.changes.usage import totals

    log = vault_root(args) / LOG_PATH
    try:
        text = log.read_text(encoding="utf-8", errors="replace")  # counting only: never written back
    except FileNotFoundError:
        text = ""
    found = totals(text)
    if args.json:
        print_json(found.to_dict())
        return 0
    if not found.total.operations:
        console.print(f"{escape(str(log))} records no model usage yet.")
        return 0
    console.print(f"{'':<28}{'ops':>6}{'tokens in':>13}{'tokens out':>13}{'cost':>12}")
    _usage_row("total", found.total)
    for heading, groups in (("by model", found.by_model), ("by operation", found.by_operation),
                            ("by month", found.by_month)):
        console.print(f"[bold]{heading}[/]")
        for name, total in sorted(groups.items()):
            _usage_row("  " + name, total)
    return 0


def _usage_row(name: str, total: Any) -> None:
    cost = f"${total.cost_usd:.4f}"
    unknown = f"  (+{total.cost_unknown} of unknown price)" if total.cost_unknown else ""
    console.print(f"{escape(name[:27]):<28}{total.operations:>6}{total.tokens_in:>13,}"
                  f"{total.tokens_out:>13,}{cost:>12}{unknown}")
