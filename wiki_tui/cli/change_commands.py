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

`--pending ID` applies a changeset kept for review instead of a reply: one another agent
proposed over MCP (`wiki-tui mcp`, propose_changes), or one the app kept. ID is its name under
.wiki-tui/pending/ or a unique part of it. Every base is re-checked first, as the app does when
it restores a pending review, and the whole changeset is refused when a page changed since it
was proposed. Files rejected in a review stay rejected; once applied, it is no longer pending.

A reply with protocol or matching errors is never applied in part: the vault stays untouched and
the exit code is 1. Exit 3: the person answered no. Any apply first finishes or rolls back an
apply interrupted by a crash.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from rich.markup import escape

from wiki_tui.cli.common import (CliError, add_allow_argument, allowed, console, console_err,
                                 open_vault, print_json, report_recovery, show_changeset, vault_root)

APPLY_OPERATIONS = ("apply", "ingest", "query", "save", "lint", "instruct")
EXIT_NOT_APPLIED = 3  # shown, but the person said no (as the agent commands do)


def register(subparsers) -> None:
    apply = subparsers.add_parser(
        "apply", help="review and apply a model reply's edits (a changeset) from a file or stdin",
        description="Show the changes a reply written in wiki-tui's edit protocol would make, "
                    "and apply them with --yes: files written atomically, one log.md entry, "
                    "index.md regenerated, one git commit.")
    apply.add_argument("reply", metavar="REPLY_FILE", nargs="?", default=None,
                       help="the reply text, or - for stdin")
    apply.add_argument("--pending", metavar="ID", default=None,
                       help="instead of a reply: a pending changeset (one another agent "
                            "proposed over MCP, or one the app kept), by its name or a unique "
                            "part of it; refused when its pages changed since")
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
    add_allow_argument(apply)
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
    vault = open_vault(vault_root(args, write=True))  # apply and undo write: an adopted vault only
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


def _print_result(result: Any) -> None:
    from wiki_tui.changes.reply.path_rules import printable  # a name may hold a newline

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
    from wiki_tui.changes.reply.stream import parse_reply

    if (args.reply is None) == (args.pending is None):
        raise CliError("give either a REPLY_FILE (or - for stdin) or --pending ID", 2)
    if args.pending is not None:
        if args.title is not None or args.operation != "apply":
            raise CliError("--pending applies a changeset as it was proposed: its title and "
                           "operation are its own (drop --title/--operation)", 2)
        return run_apply_pending(args)
    text, default_title = _read_reply(args.reply)
    parsed = parse_reply(text)
    if not (parsed.blocks or parsed.incomplete or parsed.errors):
        raise CliError("the reply contains no edit blocks (see docs/edit-protocol.md for the "
                       "format); nothing to apply", 1)
    vault = _open_vault(args)
    try:
        return review_and_apply(args, vault, parsed, default_title)
    finally:
        vault.close()


def review_and_apply(args: Any, vault: Any, parsed: Any, default_title: str) -> int:
    build = partial(_build_and_apply, args, vault, parsed, default_title)
    return _under_lock_if_applying(args, vault, build)


def _under_lock_if_applying(args: Any, vault: Any, work: Callable[[], int]) -> int:
    """Run `work`; with --yes, under the vault lock, so the bases, lint and index.md are read
    after any other apply and nothing changes between the checks and the write."""
    from wiki_tui.changes.apply.journal import sync_with_disk
    from wiki_tui.changes.apply.vault_lock import VaultBusy, vault_lock

    if not args.yes:
        return work()
    try:
        with vault_lock(vault.root):
            sync_with_disk(vault)
            return work()
    except VaultBusy as exc:
        raise CliError(f"not applied: {exc}", 1) from None


def _build_and_apply(args: Any, vault: Any, parsed: Any, default_title: str) -> int:
    from wiki_tui.changes.build.changeset import build_changeset

    changeset, errors = build_changeset(vault, parsed, operation=args.operation,
                                        title=args.title or default_title, model=args.model)
    report = _Report(args.json, changeset, errors)
    blocking = [e for e in errors if getattr(e, "retry", True)]
    if blocking:
        return report.done(1, f"not applied: {len(blocking)} problem(s) in the reply (listed "
                              "above); the vault is untouched")
    if not changeset.files:
        return report.done(0, "nothing to change: the reply's edits are already in the vault")
    return _confirm_and_apply(args, vault, changeset, report)


def _confirm_and_apply(args: Any, vault: Any, changeset: Any, report: "_Report", *,
                       abort_on_conflict: bool = False) -> int:
    """The shown changeset: stop at --dry-run, a hold or a "no"; else accept and apply it."""
    from wiki_tui.changes.build.guards import held, held_message
    from wiki_tui.changes.apply.journal import ApplyError, apply_changeset

    if args.dry_run:
        return report.done(0, "dry run: nothing written")
    allow = allowed(args)
    if args.yes and (waiting := held(changeset, allow_schema=args.allow_schema, allow=allow)):
        return report.done(EXIT_NOT_APPLIED, held_message(waiting, allow))
    if not args.yes:
        if args.json or args.reply == "-" or not (sys.stdin.isatty() and sys.stdout.isatty()):
            return report.done(0, "shown only: re-run with --yes to apply these changes")
        answer = console.input(f"Apply {len(changeset.files)} file(s)? [y/N] ").strip().lower()
        if answer not in ("y", "yes"):
            return report.done(EXIT_NOT_APPLIED, "not applied")
    _accept_undecided(changeset)
    try:
        result = apply_changeset(vault, changeset, abort_on_conflict=abort_on_conflict)
    except ApplyError as exc:
        return report.done(1, f"not applied: {exc}")
    return report.applied(result)


def _accept_undecided(changeset: Any) -> None:
    """Accept every file not yet decided; a file the person rejected (or part-accepted) in a
    review kept as pending stays as they left it. A fresh reply has only undecided files."""
    from wiki_tui.changes.model import PENDING

    for change in changeset.files:
        if change.status == PENDING:
            change.accept()


# -- apply --pending ---------------------------------------------------------------------------
def run_apply_pending(args: Any) -> int:
    from wiki_tui.changes.apply import pending

    vault = _open_vault(args)
    try:
        try:
            record = pending.load_one(vault.root, args.pending)
        except (LookupError, ValueError, OSError) as exc:
            raise CliError(f"cannot apply --pending: {exc.args[0] if exc.args else exc}", 2) from None
        code = _under_lock_if_applying(args, vault, partial(_apply_pending, args, vault, record))
    finally:
        vault.close()
    return code


def _apply_pending(args: Any, vault: Any, record: Any) -> int:
    """Re-check every base as the app does when it restores a pending review; refuse the whole
    changeset when a page changed since it was proposed (the agent should propose again)."""
    from wiki_tui.changes.apply import pending
    from wiki_tui.changes.apply.journal import ApplyError, check_conflicts

    changeset = record.changeset
    report = _Report(args.json, changeset, [])
    try:  # a pending file edited by hand (a path out of the vault, into .git/), a folder
        stale = check_conflicts(vault, changeset)  # swapped for a symlink since: refused
    except ApplyError as exc:
        return report.done(1, f"not applied: {record.name}: {exc}; the vault is untouched")
    if stale:
        reasons = "; ".join(change.conflict or change.path for change in stale)
        return report.done(1, f"not applied: {len(stale)} file(s) changed on disk since "
                              f"{record.name} was proposed ({reasons}); the vault is untouched: propose "
                              "it again against the pages as they are now")
    from wiki_tui.changes.build.outcome import judge

    judge(vault, changeset)  # the knowledge diff against the vault as it is now
    code = _confirm_and_apply(args, vault, changeset, report, abort_on_conflict=True)
    if report.result is not None and report.result.applied:
        pending.discard(vault.root, record.name)  # done: the app no longer lists it
    return code


class _Report:
    """What `apply` tells the person (rich text) or a program (--json, one object at the end)."""

    def __init__(self, as_json: bool, changeset: Any, errors: list[Any]) -> None:
        self.as_json, self.changeset, self.errors = as_json, changeset, errors
        self.result: Any = None  # the ApplyResult, once applied
        if not as_json:
            show_changeset(changeset, errors)

    def done(self, code: int, message: str, result: Any = None) -> int:
        if self.as_json:
            from wiki_tui.changes.apply.propose import changeset_dict

            print_json({
                "applied": bool(result is not None and result.applied), "message": message,
                **changeset_dict(self.changeset, self.errors),
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
        self.result = result
        code = 1 if result.conflicts else 0
        if not self.as_json:
            _print_result(result)
            return code
        return self.done(code, "applied" if result.applied else (result.notice or "nothing applied"),
                         result)


def run_undo(args: Any) -> int:
    from wiki_tui.changes.apply.journal import UndoError, undo_last

    vault = _open_vault(args)
    try:
        result = undo_last(vault)
    except UndoError as exc:
        raise CliError(f"undo refused: {exc.reason}", 1) from None
    finally:
        vault.close()
    console.print(f"undid “{result.title}” ({result.reverted[:10]})", markup=False)
    from wiki_tui.changes.reply.path_rules import printable

    for path in result.restored:
        console.print(f"restored {printable(path)}", markup=False)
    for path in result.removed:
        console.print(f"removed  {printable(path)}", markup=False)
    console.print(f"commit   {result.commit}", markup=False)
    if result.notice:
        console_err.print(f"[yellow]note:[/] {escape(result.notice)}")
    return 0


def run_usage(args: Any) -> int:
    from wiki_tui.changes.apply.logmd import LOG_PATH
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
