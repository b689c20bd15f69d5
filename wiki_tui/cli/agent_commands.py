"""`wiki-tui ingest`, `query`, `ask` and `lint --fix` (run_lint_fix): the agent, headless.

Each streams the model's reply to the terminal, shows the changeset's diffs, and applies it after
a y/N confirmation (stdin a terminal) or with --yes. `--json` prints one JSON event per line.
Importing this module imports no litellm (the CLI's start-up stays fast).

Exit codes: 0 done (applied, or nothing to apply); 1 the operation failed (a Failed event: the
model could not be reached, its reply was cut off or unusable, ...) or was not applied because
some of its edits could not be used; 3 shown but not applied (no terminal to confirm on, or
the person said no). `--yes` never applies an operation in part: when edits were refused or cut
off after the last retry round it applies nothing and names the pages left out (the same verdict
as `wiki-tui apply --yes` on the same reply). `ingest` takes several sources (paths, folders,
globs, --new), one operation each: cli/batch.py. `query --save --as FORM` files the answer
as a comparison table, a Marp deck, a chart or a canvas (docs/forms.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any, AsyncIterator

from wiki_tui.cli.common import (CliError, add_allow_argument, allowed, console, console_err,
                                 open_vault, report_recovery, show_changeset, vault_root)
from wiki_tui.forms import FORMS


def register(subparsers) -> None:
    ingest = subparsers.add_parser(
        "ingest", help="ingest raw sources into the wiki (one changeset each, to review)",
        description="Ingest each source PATH names (files, folders and globs under raw/), or "
                    "with --new every source not ingested yet: one operation per source, in "
                    "order, each applied before the next starts.")
    ingest.add_argument("sources", nargs="*", metavar="PATH",
                        help="raw/FILE, a folder such as raw/, or a glob such as 'raw/*.md'")
    ingest.add_argument("--new", action="store_true",
                        help="only sources no page or log.md entry names yet (all of raw/ "
                             "without PATH); a second run ingests nothing")
    ingest.add_argument("--keep-going", action="store_true",
                        help="after a source fails or is not applied, go on with the next "
                             "(default: stop there)")
    _common(ingest, apply=True)
    ingest.set_defaults(func=run_ingest)

    query = subparsers.add_parser(
        "query", help="ask the wiki a question (answer with [[Page]] citations)",
        description="Answer QUESTION from the wiki's pages, citing them.")
    query.add_argument("question", metavar="QUESTION")
    query.add_argument("--save", action="store_true",
                       help="file the answer back into the wiki as a page (a changeset)")
    query.add_argument("--as", dest="form", default="page", choices=FORMS, metavar="FORM",
                       help="with --save: the form the answer is filed in: page (default), "
                            "table (a comparison table), slides (a Marp deck), chart (a chart "
                            "spec drawn to SVG), canvas (a JSON Canvas)")
    _common(query, apply=True)
    query.set_defaults(func=run_query)

    ask = subparsers.add_parser(
        "ask", help="give the wiki's model an instruction (rename, merge, split ...)",
        description="Carry out INSTRUCTION as one changeset; renames and merges rewrite "
                    "every backlink.")
    ask.add_argument("instruction", metavar="INSTRUCTION")
    _common(ask, apply=True)
    ask.set_defaults(func=run_ask)

    dismiss = subparsers.add_parser(
        "dismiss", help="dismiss lint findings for good (by the id `lint --fix` shows)",
        description="Record lint findings as dismissed in .wiki-tui/dismissed.json; they are "
                    "not shown again. With --undo, take dismissals back.")
    dismiss.add_argument("ids", nargs="+", metavar="ID")
    dismiss.add_argument("--undo", action="store_true",
                         help="take the dismissals back: later lint runs report them again")
    dismiss.set_defaults(func=run_dismiss)


def _common(parser: argparse.ArgumentParser, apply: bool) -> None:
    parser.add_argument("--model", default=None,
                        help="litellm model string, e.g. openai/gpt-4o-mini "
                             "(default: WIKI_TUI_MODEL, config, else the offline engine)")
    parser.add_argument("--api-base", default=None,
                        help="the model server's URL (default: WIKI_TUI_API_BASE, else the "
                             "config's api_base for a model of its provider)")
    parser.add_argument("--json", action="store_true", help="print events as JSON lines")
    if apply:
        parser.add_argument("--yes", "-y", action="store_true",
                            help="apply the changeset without asking")
        parser.add_argument("--allow-schema", action="store_true",
                            help="with --yes: also apply an edit of AGENTS.md, the schema")
        add_allow_argument(parser)


# -- commands ---------------------------------------------------------------------------------
def run_ingest(args) -> int:
    if not args.sources and not args.new:
        raise CliError("ingest needs a source: PATH (raw/FILE, a folder, a glob) or --new", 2)
    vault, settings = _open(args)
    from wiki_tui.cli.batch import run_batch

    return run_batch(args, vault, settings)


def run_query(args) -> int:
    form = getattr(args, "form", "page")
    if form != "page" and not args.save:
        raise CliError(f"--as {form} files the answer in that form: it needs --save", 2)
    vault, settings = _open(args, write=bool(args.save))
    from wiki_tui.agent.operations import query, save_answer

    answer: list[str] = []
    code = _run(args, vault, query(vault, args.question, settings), answers=answer)
    if code or not args.save:
        return code
    if not answer or not answer[0].strip():
        raise CliError("there is no answer to save", 1)
    return _run(args, vault, save_answer(vault, args.question, answer[0], settings, form=form))


def run_ask(args) -> int:
    vault, settings = _open(args)
    from wiki_tui.agent.operations import instruct

    return _run(args, vault, instruct(vault, args.instruction, settings))


def run_lint_fix(args) -> int:
    """`wiki-tui lint --fix`: structural + model-checked findings, fixes as one changeset."""
    vault, settings = _open(args)
    from wiki_tui.agent.operations import lint

    return _run(args, vault, lint(vault, settings, fix=True))


def run_dismiss(args) -> int:
    from wiki_tui.agent.tasks.dismissed import dismiss, load_seen, undismiss
    from wiki_tui.agent.events import LintItem
    from wiki_tui.agent.operations import structural_item

    root = vault_root(args)
    if args.undo:
        unknown = [finding_id for finding_id in args.ids if not undismiss(root, finding_id)]
        for finding_id in args.ids:
            if finding_id not in unknown:
                console_err.print(f"taken back {finding_id}", markup=False)
        if unknown:
            raise CliError(f"not dismissed: {', '.join(unknown)} "
                           "(see .wiki-tui/dismissed.json)", 2)
        return 0
    vault = open_vault(root)
    known = {item.id: item for item in map(structural_item, vault.lint())}
    # a model-checked finding is not re-found without the model: known if a run showed it
    seen = load_seen(root)
    known.update({i: LintItem(i, f["code"], f["path"], f["message"], source="model")
                  for i, f in seen.items() if i not in known and isinstance(f, dict)
                  and {"code", "path", "message"} <= f.keys()})
    unknown = [finding_id for finding_id in args.ids if finding_id not in known]
    for finding_id in args.ids:
        if finding_id in known:
            dismiss(root, known[finding_id])
            console_err.print(f"dismissed {finding_id}: {known[finding_id]}", markup=False)
    if unknown:
        raise CliError(f"no finding with id {', '.join(unknown)}: nothing dismissed for it "
                       "(`wiki-tui lint --fix` prints the ids)", 2)
    return 0


# -- shared machinery -------------------------------------------------------------------------
def _open(args, *, write: bool = True) -> tuple[Any, Any]:
    from wiki_tui.agent.config import ConfigError, resolve_settings

    root = vault_root(args, write=write)  # what writes needs an adopted vault
    try:
        settings = resolve_settings(root, getattr(args, "model", None),
                                    getattr(args, "api_base", None))
    except ConfigError as exc:
        raise CliError(str(exc), 2) from None
    _say_server(settings)
    # No litellm import in a thread beside the command: one still importing when the
    # interpreter shut down hung headless runs after their work was done (litellm's HTTP
    # handlers import in __del__ and waited forever on that thread's module lock). The
    # operation imports it in the foreground when it first needs the model.
    vault = open_vault(root)
    report_recovery(vault)
    return vault, settings


def _say_server(settings) -> None:
    """Name the server the pages are sent to (stderr: --json output stays clean)."""
    if settings.offline:
        return
    where = f"{settings.model} at {settings.server}"
    if settings.api_base_source:
        where += f" (api_base from {settings.api_base_source})"
    console_err.print(f"model: {where}", markup=False, highlight=False)
    if settings.server_note:
        console_err.print(f"note: {settings.server_note}", markup=False, highlight=False)


def _run(args, vault, events: AsyncIterator, answers: list | None = None) -> int:
    outcome = asyncio.run(consume_events(args, events))
    if answers is not None and outcome.get("answer") is not None:
        answers.append(outcome["answer"])
    if outcome.get("failed"):
        return 1
    changeset = outcome.get("changeset")
    if changeset is None:
        return 0
    return review_and_apply(args, vault, changeset)


async def consume_events(args, events: AsyncIterator) -> dict:
    from rich.markup import escape

    from wiki_tui.agent.config import OFFLINE_LABEL
    from wiki_tui.agent.events import (
        Answer, ChangesetReady, Done, Failed, Findings, Progress, Retry, Started, Token,
        ToolActivity, event_to_json,
    )

    as_json = getattr(args, "json", False)
    outcome: dict = {}
    streamed = False
    try:
        async for event in events:
            if as_json:
                json_line(args, event_to_json(event))
            if isinstance(event, Started):
                if not as_json:
                    who = OFFLINE_LABEL if event.offline else event.model
                    console_err.print(f"[bold]{event.operation}[/]: {escape(event.title)}  "
                                      f"[dim]({who})[/]")
            elif isinstance(event, Token):
                if not as_json:
                    sys.stdout.write(event.text)
                    sys.stdout.flush()
                    streamed = True
            elif isinstance(event, ToolActivity) and not as_json:
                console_err.print(f"[dim]· {escape(event.detail)}[/]")
            elif isinstance(event, Progress) and not as_json:
                count = f" ({event.done}/{event.total})" if event.total else ""
                console_err.print(f"[dim]… {escape(event.stage)}{count}[/]")
            elif isinstance(event, Retry) and not as_json:
                console_err.print(f"[yellow]retry {event.attempt}:[/] {escape(event.reason)}")
            elif isinstance(event, Findings):
                outcome["findings"] = event.items
                if not as_json:
                    _print_findings(event)
            elif isinstance(event, Answer):
                outcome["answer"] = event.text
            elif isinstance(event, ChangesetReady):
                outcome["changeset"] = event.changeset
            elif isinstance(event, Done):
                outcome["usage"] = event.usage
                if not as_json:
                    if streamed:
                        sys.stdout.write("\n")
                    if event.notice:
                        console_err.print(f"[yellow]note:[/] {escape(event.notice)}")
                    console_err.print(f"[dim]{_usage_line(event.usage)}[/]")
            elif isinstance(event, Failed):
                outcome["failed"] = event
                if not as_json:
                    if streamed:
                        sys.stdout.write("\n")
                    console_err.print(f"[bold red]failed:[/] {escape(event.reason)}")
    except KeyboardInterrupt:  # pragma: no cover - interactive
        outcome["failed"] = outcome["interrupted"] = True
        console_err.print("cancelled; nothing was applied")
    return outcome


def json_line(args, data: dict) -> None:
    """One JSON event on stdout; in a batch ingest it names its source (args.json_tag)."""
    data = {**data, **getattr(args, "json_tag", {})}
    sys.stdout.write(json.dumps(data, ensure_ascii=False, default=str) + "\n")
    sys.stdout.flush()


def _usage_line(usage) -> str:
    cost = "cost unknown" if usage.cost_usd is None else f"${usage.cost_usd:.4f}"
    return f"tokens in {usage.prompt_tokens}, out {usage.completion_tokens}, {cost}"


def _print_findings(event) -> None:
    if not event.items:
        console_err.print("no findings" + (f" ({event.dismissed} dismissed)" if event.dismissed
                                           else ""))
        return
    for item in event.items:
        console.print(f"- {item}  (id {item.id})", markup=False, soft_wrap=True)
    if event.dismissed:
        console_err.print(f"[dim]{event.dismissed} dismissed finding(s) not shown[/]")


def review_and_apply(args, vault, changeset) -> int:
    as_json = getattr(args, "json", False)
    if not as_json:
        show_changeset(changeset)
    if getattr(args, "yes", False):
        from wiki_tui.changes.apply.unattended import PARTIAL, refusal

        refused = refusal(changeset, allow_schema=getattr(args, "allow_schema", False),
                          allow=allowed(args))
        if refused is not None and refused.kind == PARTIAL:
            return _refuse_partial(args, changeset, refused.message)
        if refused is not None:
            console_err.print(refused.message, markup=False)
            return 3
        approved = True
    elif sys.stdin.isatty() and not as_json:
        question = "Apply these changes? [y/N] "
        if changeset.errors:
            question = (f"Apply these changes without the {len(changeset.errors)} edit(s) "
                        "marked 'not used'? [y/N] ")
        answer = console.input(question).strip().lower()
        approved = answer in ("y", "yes")
    else:
        console_err.print("not applied: pass --yes to apply without a terminal to confirm on")
        return 3
    if not approved:
        console_err.print("not applied")
        return 3
    from wiki_tui.changes.apply.journal import ApplyError
    from wiki_tui.changes.apply.unattended import apply_unattended

    try:
        result = apply_unattended(vault, changeset)
    except ApplyError as exc:
        raise CliError(f"not applied: {exc}", 1) from None
    if as_json:
        json_line(args, {"event": "Applied", "written": result.written,
                         "deleted": result.deleted, "renamed": result.renamed,
                         "commit": result.commit, "conflicts": result.conflicts,
                         "notice": result.notice})
    else:
        summary = f"applied {len(result.written) + len(result.deleted)} file(s)"
        if result.commit:
            summary += f", commit {result.commit[:10]}"
        console_err.print(f"[green]{summary}[/]")
        for path in result.conflicts:
            console_err.print(f"[red]conflict:[/] {path} changed on disk; not written")
        if result.notice:
            console_err.print(f"[yellow]note:[/] {result.notice}")
    return 1 if result.conflicts else 0


def _refuse_partial(args, changeset, reason: str) -> int:
    """--yes applies an operation whole or not at all (as `wiki-tui apply --yes` does)."""
    if getattr(args, "json", False):
        json_line(args, {"event": "NotApplied", "reason": reason,
                         "left_out": list(changeset.left_out), "errors": list(changeset.errors)})
    else:
        console_err.print(reason, markup=False, soft_wrap=True)
    return 1
