"""`wiki-tui init | links | backlinks | find | search | lint`: the vault model, headless.

Human output uses rich; `--json` prints one JSON document for scripts. Exit codes: 0 fine,
1 an unknown page or (for lint) findings of severity "error", 2 a missing vault or bad arguments.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.markup import escape

from wiki_tui.cli.common import (CliError, console, index_progress, open_vault, print_json,
                                 report_recovery, vault_root)


def register(subparsers) -> None:
    init = subparsers.add_parser(
        "init", help="create a vault, or adopt a folder of notes (an Obsidian vault) as one",
        description="Create a new vault in DIR, or adopt the notes already in DIR: add a draft "
                    "AGENTS.md inferred from them, index.md, log.md and a git repository (or "
                    "reuse its own), and commit only those. No note is changed.")
    init.add_argument("dir", metavar="DIR", type=Path)
    init.add_argument("--json", action="store_true", help="print the result as JSON")
    init.set_defaults(func=run_init)

    links = subparsers.add_parser("links", help="the links on a page and where they lead",
                                  description="List PAGE's outgoing links with their targets.")
    links.add_argument("page", metavar="PAGE", help="a path, a file name, a title or an alias")
    _json(links)
    links.set_defaults(func=run_links)

    back = subparsers.add_parser("backlinks", help="pages linking to a page, then unlinked mentions",
                                 description="Linked mentions of PAGE, then plain-text mentions.")
    back.add_argument("page", metavar="PAGE", help="a path, a file name, a title or an alias")
    _json(back)
    back.set_defaults(func=run_backlinks)

    find = subparsers.add_parser("find", help="fuzzy-find pages by title, alias or path",
                                 description='Fuzzy page finder; abbreviations work ("rvw mtg").')
    find.add_argument("query", metavar="QUERY")
    find.add_argument("--limit", type=_positive, default=20, help="at most this many (max 50)")
    _json(find)
    find.set_defaults(func=run_find)

    search = subparsers.add_parser("search", help="full-text search (BM25, with snippets)",
                                   description='Full-text search. "quoted phrase", OR, -word.')
    search.add_argument("query", metavar="QUERY")
    search.add_argument("--limit", type=_positive, default=20, help="at most this many results")
    _json(search)
    search.set_defaults(func=run_search)

    lint = subparsers.add_parser(
        "lint", help="structural checks: broken links, orphans, schema, index.md ...",
        description="Structural lint of the vault (exit 1 when a finding is an error). With "
                    "--fix, a model also checks the pages and proposes fixes as one changeset.")
    _json(lint)
    lint.add_argument("--fix", action="store_true", help="let the model propose fixes (a changeset)")
    lint.add_argument("--yes", "-y", action="store_true", help="with --fix: apply without asking")
    lint.add_argument("--model", default=None, help="with --fix: litellm model string")
    lint.add_argument("--api-base", default=None, help="with --fix: the model server's URL")
    lint.set_defaults(func=run_lint)


def _json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _open(args):
    root = vault_root(args)
    vault = open_vault(root)
    if not vault.pages and not vault.schema.found:
        vault.close()
        raise CliError(
            f"no vault at {root}: no AGENTS.md and no markdown pages (make one with `wiki-tui init DIR`)", 2
        )
    report_recovery(vault)
    return vault


def _page(vault, name: str):
    page = vault.page(name)
    if page is None:
        close = [hit.path for hit in vault.find(name, limit=5)]
        hint = f"; did you mean: {', '.join(close)}" if close else ""
        raise CliError(f"no page {name!r} in {vault.root}{hint}", 1)
    return page


# -- commands ---------------------------------------------------------------------------------
def run_init(args) -> int:
    from wiki_tui.vault import VaultError, init_vault

    try:
        from wiki_tui.changes.apply.adopt import adopt_folder, holds_notes

        if holds_notes(args.dir) or (Path(args.dir) / "AGENTS.md").is_file():
            return _report_adoption(adopt_folder(args.dir, on_progress=index_progress()), args.json)
        vault = init_vault(args.dir)
    except VaultError as exc:
        raise CliError(str(exc), 2) from None
    root = vault.root
    vault.close()
    if args.json:
        print_json({"vault": str(root), "created": ["raw/", "AGENTS.md", "index.md", "log.md", ".gitignore"]})
    else:
        console.print(f"Created a vault in [bold]{escape(str(root))}[/]: raw/, AGENTS.md, index.md, log.md, git repository.")
        console.print(f"Put sources in raw/, then run [bold]wiki-tui --vault {escape(str(root))}[/].")
    return 0


def _report_adoption(result, as_json: bool) -> int:
    if as_json:
        print_json({"vault": str(result.root), "adopted": True, "pages": result.pages,
                    "added": result.added, "updated": result.updated, "kept": result.kept,
                    "repository": result.repository,
                    "notice": result.notice, "lint": dict(sorted(result.findings.items()))})
        return 0
    root = escape(str(result.root))
    console.print(f"Adopted [bold]{root}[/] ({result.pages} notes, none changed).")
    console.print(f"Added: {escape(', '.join(result.added))}.")
    if ".gitignore" in result.updated:
        console.print("Appended `.wiki-tui/` to your .gitignore (the cache stays out of git).")
    if "AGENTS.md" in result.added:
        console.print("AGENTS.md is a draft inferred from your folders and `type` values: read and edit it.")
    if result.home_page:
        console.print(f"Kept your own {result.home_page} as your home page: an ordinary page, never "
                      "regenerated. The catalog wiki-tui generates is wiki-index.md "
                      "(`catalog: wiki-index.md` in AGENTS.md's frontmatter; change it there).")
    for name in result.kept:
        console.print(f"Kept your own {escape(name)} as it was" + {
            "log.md": " (wiki-tui appends its entries to it).", "AGENTS.md": " (the vault's schema)."}.get(
            name, " (wiki-tui regenerates the catalog when it applies a change; the review shows "
            "what it replaces)."))
    if result.notes_committed:
        console.print(f"Made a git repository: your {result.notes_committed} files as found first "
                      "(one commit), then the files init wrote (another).")
    elif result.repository == "reused":
        console.print("Committed only the files init wrote in the existing git repository; your "
                      "uncommitted notes are not committed by init (the catalog lists the pages "
                      "git has: commit the rest yourself, and the next change lists them).")
    if result.notice:
        console.print(f"[yellow]{escape(result.notice)}[/]")
    total = sum(result.findings.values())
    by_code = ", ".join(f"{code} {n}" for code, n in sorted(result.findings.items(), key=lambda kv: (-kv[1], kv[0])))
    console.print(f"Lint: {total} finding{'s' if total != 1 else ''}" + (f" ({by_code})" if by_code else "")
                  + f"; see them with [bold]wiki-tui lint --vault {root}[/].")
    return 0


def run_links(args) -> int:
    vault = _open(args)
    try:
        page = _page(vault, args.page)
        rows = vault.outgoing(page.path)
    finally:
        vault.close()
    if args.json:
        print_json({"page": page.path, "links": [
            {"line": link.line, "raw": link.raw, "target": link.target, "subpath": link.subpath,
             "display": link.display, "embed": link.embed, "kind": link.kind,
             "resolved": target, "via_alias": via_alias}
            for link, target, via_alias in rows
        ]})
        return 0
    console.print(f"[bold]{escape(page.title)}[/] ({escape(page.path)}): {len(rows)} link{'' if len(rows) == 1 else 's'}")
    for link, target, via_alias in rows:
        if target is None:
            where = "[red]unresolved[/]"
        elif via_alias:
            where = f"[yellow]{escape(target)} (via alias; unresolved in Obsidian)[/]"
        else:
            where = escape(target)
        console.print(f"  {link.line:>4}  {escape(link.raw)}  → {where}")
    return 0


def run_backlinks(args) -> int:
    vault = _open(args)
    try:
        page = _page(vault, args.page)
        linked = vault.backlinks(page.path)
        unlinked = vault.unlinked_mentions(page.path)
    finally:
        vault.close()
    if args.json:
        print_json({
            "page": page.path,
            "linked": [b.to_dict() for b in linked],
            "unlinked": [m.to_dict() for m in unlinked],
        })
        return 0
    console.print(f"[bold]{escape(page.title)}[/] ({escape(page.path)})")
    console.print(f"[bold]Linked mentions[/] ({len(linked)})")
    for b in linked:
        alias = " [yellow](via alias)[/]" if b.via_alias else ""
        console.print(f"  {escape(b.source)}:{b.line}{alias}  {escape(_clip(b.context))}")
    console.print(f"[bold]Unlinked mentions[/] ({len(unlinked)})")
    for m in unlinked:
        console.print(f"  {escape(m.source)}:{m.line}  {escape(_clip(m.context))}")
    return 0


def run_find(args) -> int:
    vault = _open(args)
    try:
        hits = vault.find(args.query, limit=min(args.limit, 50))
    finally:
        vault.close()
    if args.json:
        print_json([{"path": h.path, "title": h.title, "score": h.score, "matched": h.matched,
                     "field": h.field} for h in hits])
        return 0
    if not hits:
        console.print(f"no page matches {args.query!r}")
        return 0
    for h in hits:
        via = "" if h.field == "title" else f"  [dim]({h.field}: {escape(h.matched)})[/]"
        console.print(f"{escape(h.title)}  [dim]{escape(h.path)}[/]{via}")
    return 0


def run_search(args) -> int:
    vault = _open(args)
    try:
        hits = vault.search(args.query, limit=args.limit)
    finally:
        vault.close()
    if args.json:
        print_json([{"path": h.path, "title": h.title, "score": h.score, "line": h.line,
                     "snippet": h.snippet, "highlights": h.highlights} for h in hits])
        return 0
    if not hits:
        console.print(f"nothing found for {args.query!r}")
        return 0
    for h in hits:
        console.print(f"[bold]{escape(h.title)}[/]  [dim]{escape(h.path)}:{h.line}[/]")
        console.print("    " + _highlight(h.snippet, h.highlights))
    return 0


def run_lint(args) -> int:
    if args.fix or args.yes or args.model or args.api_base:
        if not args.fix:
            raise CliError("--yes, --model and --api-base only make sense with --fix", 2)
        try:
            from wiki_tui.cli.agent_commands import run_lint_fix
        except ImportError as exc:
            raise CliError(f"lint --fix is not available in this build ({exc})", 2) from None
        return int(run_lint_fix(args) or 0)
    vault = _open(args)
    try:
        findings = vault.lint()
    finally:
        vault.close()
    errors = sum(1 for f in findings if f.severity == "error")
    if args.json:
        print_json([f.to_dict() for f in findings])
        return 1 if errors else 0
    colours = {"error": "red", "warning": "yellow", "info": "cyan"}
    for f in findings:
        colour = colours.get(f.severity, "white")
        line = f"{escape(f.path)}:{f.line}  [{colour}]{f.severity}[/]  {escape(f.message)}  [dim]{f.code}[/]"
        if f.suggestion:
            line += f"\n      suggestion: {escape(f.suggestion)}"
        console.print(line)
    counts: dict[str, int] = {}
    for f in findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    summary = ", ".join(f"{n} {sev}{'s' if n != 1 else ''}" for sev, n in sorted(counts.items())) or "no findings"
    console.print(f"[bold]{len(findings)} findings[/] ({summary})" if findings else "[green]no findings[/]")
    return 1 if errors else 0


def _clip(text: str, width: int = 120) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _highlight(snippet: str, spans: Any) -> str:
    out, pos = [], 0
    for a, b in spans:
        out.append(escape(snippet[pos:a]))
        out.append(f"[bold yellow]{escape(snippet[a:b])}[/]")
        pos = b
    out.append(escape(snippet[pos:]))
    return "".join(out)
