"""The conversation's slash commands: parsing and help text (no UI here)."""

from __future__ import annotations

from dataclasses import dataclass

COMMANDS: dict[str, str] = {
    "/ingest": "/ingest PATH… — read sources from raw/ (files, folders, globs; --new: those "
               "not ingested yet) and propose wiki pages, one review each",
    "/query": "/query QUESTION — ask the wiki (plain text does the same)",
    "/save": "/save [--as FORM] — file the last answer back into the wiki as a page, or as a "
             "table, slides (a Marp deck), a chart or a canvas",
    "/lint": "/lint — check the wiki and propose fixes",
    "/create": "/create NAME — draft a new page NAME (linked to from the wiki), for review",
    "/undo": "/undo — revert the last applied change (its commit and log entry)",
    "/model": "/model [NAME] — show the model, or switch to NAME for this session",
    "/help": "/help — list these commands and the main keys",
}


@dataclass(frozen=True)
class Command:
    name: str  # "query" for plain text, else the command without "/"
    arg: str


class CommandError(ValueError):
    pass


def parse_command(text: str) -> Command:
    """Plain text is a query; "/name arg" a command. Raises CommandError with a precise message."""
    text = text.strip()
    if not text:
        raise CommandError("nothing to send")
    if not text.startswith("/") or text.startswith("//"):
        return Command("query", text[1:] if text.startswith("//") else text)
    head, _, arg = text.partition(" ")
    head = head.lower()
    if head not in COMMANDS:
        close = [name for name in COMMANDS if name.startswith(head)]
        hint = f" (did you mean {', '.join(close)}?)" if close else " (try /help)"
        raise CommandError(f"unknown command {head}{hint}")
    arg = arg.strip()
    if head == "/ingest" and not arg:
        raise CommandError("/ingest needs a path, e.g. /ingest raw/article.md")
    if head == "/query" and not arg:
        raise CommandError("/query needs a question")
    if head == "/create" and not arg:
        raise CommandError("/create needs a page name, e.g. /create Marine chronometer")
    if head == "/save" and arg:
        return Command("save", save_form(arg))
    if head in ("/lint", "/undo", "/help") and arg:
        raise CommandError(f"{head} takes no argument")
    return Command(head[1:], arg)


def save_form(arg: str) -> str:
    """The form `/save --as FORM` (or `/save FORM`) names; CommandError for anything else."""
    from wiki_tui.forms import FORMS

    words = arg.split()
    if words and words[0] == "--as":
        words = words[1:]
    if len(words) != 1 or words[0].lower() not in FORMS:
        raise CommandError(f"/save takes --as FORM, one of {', '.join(FORMS)} "
                           "(e.g. /save --as slides)")
    return words[0].lower()


def completions(text: str, raw_files: list[str], limit: int = 8) -> list[str]:
    """Whole-input completions for what has been typed so far (commands, then raw/ paths)."""
    if not text.startswith("/") or "\n" in text:
        return []
    if " " not in text:
        return [name for name in COMMANDS if name.startswith(text.lower()) and name != text][:limit]
    head, _, arg = text.partition(" ")
    if head.lower() == "/save":
        from wiki_tui.forms import FORMS

        return [f"/save --as {f}" for f in FORMS if f"/save --as {f}".startswith(text)
                and f"/save --as {f}" != text][:limit]
    if head.lower() != "/ingest":
        return []
    arg = arg.lstrip()
    folded = arg.casefold()
    starts = [p for p in raw_files if p.casefold().startswith(folded)]
    contains = [p for p in raw_files if folded in p.casefold() and p not in starts]
    return [f"/ingest {p}" for p in (starts + contains) if p != arg][:limit]


def help_text() -> str:
    lines = ["**Commands**", ""]
    lines += [f"- `{usage.split(' — ')[0]}` — {usage.split(' — ')[1]}" for usage in COMMANDS.values()]
    lines += ["", "Plain text asks the wiki a question. `//text` sends text starting with `/`.",
              "", "Press **F1** for every key, **ctrl+p** for every action."]
    return "\n".join(lines)
