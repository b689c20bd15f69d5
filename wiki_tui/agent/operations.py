"""The operations: ingest, query, save_answer, lint, instruct. Each is an async generator of
events (see agent/events.py) and never writes to disk: edits become one Changeset for review.

    Started -> Token... ToolActivity... Retry... FileProposed/FileProgress... -> FileReady... ->
    [Answer | Findings] -> ChangesetReady -> Done | Failed

Usage (UI or CLI):

    settings = resolve_settings(vault.root, cli_model)      # agent/config.py
    async for event in ingest(vault, "raw/article.md", settings):
        ...                                                 # render; review ChangesetReady

Cancelling: set the `cancel` event (-> Failed(kind="cancelled", partial_reply=...)), or cancel
the consuming task / aclose() the generator (the model stream is closed; nothing is applied).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from wiki_tui.agent.context import prompts
from wiki_tui.agent.engine import tools
from wiki_tui.agent.tasks.backlinks import rewrite_blocks, special_files
from wiki_tui.agent.config import AgentSettings
from wiki_tui.agent.tasks.dismissed import finding_id, load_dismissed, remember_findings
from wiki_tui.agent.events import (
    Answer,
    ChangesetReady,
    Done,
    Event,
    Failed,
    FileProgress,
    FileProposed,
    FileReady,
    Findings,
    LintItem,
    Progress,
    Retry,
    Started,
    Token,
    ToolActivity,
    Usage,
)
from wiki_tui.agent.tasks.instructions import merge_request
from wiki_tui.agent.tasks.lint_findings import model_findings
from wiki_tui.agent.context.citations import citations
from wiki_tui.agent.convert import MAX_SOURCE_MB, Converted, convert_source, source_title
from wiki_tui.agent.engine.engines import stream_reply
from wiki_tui.agent.context.pageinfo import page_infos
from wiki_tui.agent.engine.stream import CUT_OFF_KINDS, ChatResult, LLMError, Task
from wiki_tui.changes.usage import Spend

_PROGRESS_EVERY = 0.1  # seconds between FileProgress events of one file
_TOOL_ROUNDS = 8  # tool calls the model may make in one turn before it must answer
_ASK_AGAIN = {"dropped", "incomplete", "timeout", "limit", "loop"}  # faults another try may not have


# -- public operations ----------------------------------------------------------------------
async def ingest(vault: Any, source_path: str, settings: AgentSettings, *,
                 cancel: asyncio.Event | None = None) -> AsyncIterator[Event]:
    """Ingest a raw source: summary page, touched pages updated, one changeset."""
    path = source_path.strip().removeprefix("./")
    try:  # a PDF of 100 pages converts in seconds: off the event loop
        source = await asyncio.to_thread(_read_source, vault, path, settings.max_source_mb)
    except ValueError as exc:  # ConversionError is one: it names the file and the reason
        yield Failed(str(exc), kind="input")
        return
    text = source.text
    title = source_title(text, path)
    budget = settings.context_tokens
    parts = prompts.split_source(
        text, prompts.part_tokens(vault, "ingest", budget, settings.model), settings.model)
    if source.pages:
        parts = carry_page_marks(parts)
    run = _Run(vault, settings, "ingest", title,
               Task("ingest", vault, {"source": path, "text": text, "images": source.images}),
               cancel=cancel)
    yield run.started()
    images, run.unseen = await asyncio.to_thread(_image_parts, vault, source, settings)
    for number, part in enumerate(parts, 1):
        label = f"`{path}`" + (f" (part {number} of {len(parts)})" if len(parts) > 1 else "")
        if len(parts) > 1:
            yield Progress(f"part {number} of {len(parts)} of {path}", number - 1, len(parts))
        task_text = f"# Source {label}\n\n{part}"
        if source.pages:
            task_text = f"# Source {label}\n\n{_PAGES_NOTE}\n\n{part}"
        if number == 1 and source.images:
            task_text += "\n\n" + _images_note(source.images, run.unseen)
        if number > 1 and run.touched:
            task_text += ("\n\nEarlier parts of this source already changed these pages "
                          "(edit them as they are shown): " + ", ".join(sorted(run.touched)))
        prompt = await _build_prompt(vault, "ingest", task_text, model=settings.model,
                                      budget=budget, search_query=part,
                                      extra_paths=sorted(run.touched))
        if number == 1 and images:  # the pictures go with the first part, once
            prompt.messages[-1]["content"] = [
                {"type": "text", "text": prompt.messages[-1]["content"]}, *images]
        run.task.args.update(part=part, part_number=number, parts=len(parts))
        async for event in run.edit_conversation(prompt.messages):
            yield event
        if run.failed:
            return
    async for event in run.finish():
        yield event


async def query(vault: Any, question: str, settings: AgentSettings, history: list | None = None,
                *, cancel: asyncio.Event | None = None) -> AsyncIterator[Event]:
    """Answer from the wiki with [[Page]] citations; says so when the wiki lacks the answer."""
    run = _Run(vault, settings, "query", question, Task("query", vault, {"question": question}),
               cancel=cancel)
    yield run.started()
    prompt = await _build_prompt(vault, "query", f"# Question\n\n{question}",
                                  model=settings.model, budget=settings.context_tokens,
                                  search_query=question)
    messages = prompt.messages
    if history:  # earlier turns of the conversation, between the rules and the question
        messages = [messages[0], *history, messages[1]]
    result = None
    async for item in run.turn(messages):
        if isinstance(item, ChatResult):
            result = item
        elif isinstance(item, Failed) and item.kind in _ASK_AGAIN:
            yield replace(item, reason=f"{item.reason} The answer is incomplete: ask again to "
                                       "retry.")
        else:
            yield item
    if run.failed:
        return
    answer = (result.text if result else "").strip()
    run.replies.append(answer)
    if result is not None and result.finish_reason == "length":
        yield Failed(f"The answer was cut off: {run.length_cut()}. The answer is incomplete: "
                     "ask again to retry (or raise max_tokens in the config).", answer,
                     "incomplete", run.usage)
        return
    yield Answer(answer, tuple(await asyncio.to_thread(citations, vault, answer)))
    yield Done(run.usage, run.reply, notice=run.notice)


async def save_answer(vault: Any, question: str, answer: str, settings: AgentSettings, *,
                      form: str = "page", cancel: asyncio.Event | None = None
                      ) -> AsyncIterator[Event]:
    """File an answer back into the wiki as a page, or in another form (a comparison table, a
    Marp deck, a chart, a canvas: agent/tasks/answer_forms.py); a changeset like any other."""
    from wiki_tui.agent.tasks.answer_forms import FormError, check_form_name, form_problems

    try:
        form = check_form_name(form)
    except FormError as exc:
        yield Failed(str(exc), kind="input")
        return
    run = _Run(vault, settings, "save", question,
               Task("save", vault, {"question": question, "answer": answer, "form": form}),
               cancel=cancel)
    yield run.started()
    task_text = f"# Question\n\n{question}\n\n# Answer to file\n\n{answer}"
    prompt = await _build_prompt(vault, "save", task_text, model=settings.model,
                                  budget=settings.context_tokens, search_query=question,
                                  extra_paths=citations(vault, answer), form=form)
    check = (lambda changeset: form_problems(form, changeset)) if form != "page" else None
    async for event in run.edit_conversation(prompt.messages, check=check):
        yield event
    if not run.failed:
        if _fill_answer_sources(vault, run.blocks, answer):
            run._built = None  # rebuilt from the filled blocks
        async for event in run.finish():
            yield event


_EMPTY_SOURCES = re.compile(r"(?m)^sources:[ \t]*(?:\[\s*\]|null|~)[ \t]*$")


def _fill_answer_sources(vault: Any, blocks: list, answer: str) -> bool:
    """A saved answer's page lists the pages its answer cited: a `sources: []` the model left
    empty is filled from the citations (True if a block changed)."""
    from wiki_tui.agent.tasks.backlinks import link_name
    from wiki_tui.changes.reply.blocks import WRITE

    cited = [p for p in citations(vault, answer) if p in vault.pages]
    if not cited:
        return False
    value = "sources: [" + ", ".join(json.dumps(f"[[{link_name(vault, p)}]]", ensure_ascii=False)
                                     for p in cited) + "]"
    changed = False
    for block in blocks:
        text = block.content or ""
        end = text.find("\n---", 3) if block.kind == WRITE and text.startswith("---") else -1
        if end < 0 or not _EMPTY_SOURCES.search(text[:end]):
            continue
        block.content = _EMPTY_SOURCES.sub(lambda _m: value, text[:end], count=1) + text[end:]
        block.repairs.append("filled the empty `sources` from the pages the answer cites")
        changed = True
    return changed


async def lint(vault: Any, settings: AgentSettings, *, fix: bool = True,
               cancel: asyncio.Event | None = None) -> AsyncIterator[Event]:
    """Structural findings plus model-checked ones; fixes as one changeset (when `fix`)."""
    run = _Run(vault, settings, "lint", "the whole wiki", Task("lint", vault, {"fix": fix}),
               cancel=cancel)
    yield run.started()
    dismissed = load_dismissed(vault.root)
    structural = [structural_item(f) for f in await asyncio.to_thread(vault.lint)]
    shown = [i for i in structural if i.id not in dismissed]
    run.task.args["findings"] = shown
    listing = "\n".join(f"- {item}" for item in shown) or "(none)"
    task_text = f"# Structural findings (found by the program)\n\n{listing}"
    if not fix:
        task_text += "\n\nList findings only; do not write edit blocks."
    paths = list(dict.fromkeys(i.path for i in shown if i.path in vault.pages))[:20]
    prompt = await _build_prompt(vault, "lint", task_text, model=settings.model,
                                  budget=settings.context_tokens, extra_paths=paths)
    async for event in run.edit_conversation(prompt.messages, apply_blocks=fix):
        yield event
    if run.failed:
        return
    found = model_findings(run.reply, vault.resolve)
    remember_findings(vault.root, found)  # so `dismiss ID` knows these ids later
    checked = [i for i in found if i.id not in dismissed]
    items = tuple(shown + checked)
    hidden = (len(structural) - len(shown)) + (len(found) - len(checked))
    yield Findings(items, hidden)
    # what the fixes are for names the changeset, its commit and its log.md entry
    run.title = lint_title(items)
    async for event in run.finish():
        yield event


async def instruct(vault: Any, instruction: str, settings: AgentSettings, *,
                   cancel: asyncio.Event | None = None) -> AsyncIterator[Event]:
    """A free-form request as a changeset; renames and merges rewrite every backlink."""
    run = _Run(vault, settings, "instruct", instruction,
               Task("instruct", vault, {"instruction": instruction}), cancel=cancel)
    yield run.started()
    named = pages_named_in(vault, instruction)
    sections = []
    if named:
        rows = []
        for path in named:
            sources = sorted({b.source for b in vault.backlinks(path)})
            rows.append(f"- {path} is linked from: " + (", ".join(sources) or "no page"))
        sections.append("# Backlinks of the pages named\n\n" + "\n".join(rows))
    prompt = await _build_prompt(vault, "instruct", f"# Instruction\n\n{instruction}",
                                  model=settings.model, budget=settings.context_tokens,
                                  search_query=instruction, extra_paths=named,
                                  extra_sections=sections)
    merge = merge_request(vault, instruction)
    async for event in run.edit_conversation(prompt.messages, follow_renames=True,
                                             merges=dict([merge]) if merge else {}):
        yield event
    if not run.failed:
        async for event in run.finish():
            yield event


# -- helpers used by several operations --------------------------------------------------------
async def _build_prompt(*args: Any, **kwargs: Any) -> prompts.Prompt:
    """The prompt, built in a thread: a vault search and page reads stay off the event loop."""
    return await asyncio.to_thread(prompts.build_prompt, *args, **kwargs)


def _read_source(vault: Any, path: str, max_mb: float = MAX_SOURCE_MB) -> Converted:
    """The source's text as markdown (converted from PDF, HTML, ... in memory: raw/ is never
    written). Raises ValueError naming the file and the reason."""
    if not _under_raw(vault.root, path):
        raise ValueError(f"{path!r}: sources are ingested from raw/ (e.g. raw/article.md)")
    if not (vault.root / path).is_file():
        raise ValueError(f"{path}: no such file in the vault")
    return convert_source(vault.root, path, max_mb=max_mb)


_PAGES_NOTE = ("(A PDF converted to text: a `[p. N]` line opens each page. Cite the page a "
               "claim comes from on the source page, as \"(p. N)\".)")


def carry_page_marks(parts: list[str]) -> list[str]:
    """A PDF's parts each start with the page they begin in (`[p. N]`), so every part can
    cite its pages."""
    from wiki_tui.agent.convert.pdf import PAGE_MARK, page_of

    out, page = [], ""
    for part in parts:
        if page and not PAGE_MARK.match(part.lstrip()):
            part = f"[p. {page}]\n\n{part}"
        out.append(part)
        page = page_of(part) or page
    return out


def _image_parts(vault: Any, source: Converted, settings: AgentSettings
                 ) -> tuple[list[dict], list[str]]:
    """(image parts for the model, the images it will not see): a model that supports vision
    gets the source's images within a quarter of the prompt budget; others see none."""
    if not source.images:
        return [], []
    if settings.offline or not _supports_vision(settings):
        return [], list(source.images)
    from wiki_tui.agent.convert.images import image_parts

    return image_parts(vault.root, source.images, settings.context_tokens // 4)


def _supports_vision(settings: AgentSettings) -> bool:
    if settings.vision is not None:  # the config's word wins (a local model litellm lacks)
        return settings.vision
    from wiki_tui.agent.engine.llm import load_litellm

    try:
        return bool(load_litellm().supports_vision(model=settings.model))
    except Exception:  # a model litellm does not know: assume no vision
        return False


def _images_note(images: list[str], unseen: list[str]) -> str:
    embeds = ", ".join(f"`![[{p}]]`" for p in images)
    note = (f"The source shows {len(images)} image(s); embed them on the source page where "
            f"they belong, as {embeds} (never copy an image).")
    seen = [p for p in images if p not in unseen]
    if seen:
        note += " The images attached to this message are, in order: " + ", ".join(seen) + "."
    if unseen:
        note += (" You cannot see " + ", ".join(unseen) + ": say nothing about what they show "
                 "beyond the text around them.")
    return note


def _under_raw(root: Any, path: str) -> bool:
    """Is `path` a file inside raw/, as written and once links are followed? (`raw/../AGENTS.md`
    is not: only raw/ holds sources, and the schema must not reach the model as one.)"""
    parts = path.split("/")
    if parts[0] != "raw" or len(parts) < 2 or any(p in ("", ".", "..") for p in parts[1:]):
        return False
    if "\\" in path or any(ord(ch) < 32 for ch in path):
        return False
    raw = (Path(root) / "raw").resolve()
    return raw in (Path(root) / path).resolve().parents


def lint_title(items: tuple[LintItem, ...] | list[LintItem]) -> str:
    """`fixes for 5 findings (3 ambiguous-link, 2 broken-link)`: a lint's changeset title (it
    read "lint: lint" in git log and log.md)."""
    if not items:
        return "fixes (no findings)"
    counts: dict[str, int] = {}
    for item in items:
        counts[item.code] = counts.get(item.code, 0) + 1
    codes = ", ".join(f"{n} {code}" for code, n in sorted(counts.items(), key=lambda kv: -kv[1]))
    return f"fixes for {len(items)} finding{'s' if len(items) != 1 else ''} ({codes})"


def pages_named_in(vault: Any, text: str) -> list[str]:
    """Pages whose path, title or alias appears in `text` (an instruction)."""
    low = text.casefold()
    named = []
    special = special_files(vault)
    for page in page_infos(vault):
        names = [page.name, page.title, *map(str, page.aliases)]
        if page.path not in special and any(
                n and len(n) > 2 and n.casefold() in low for n in names):
            named.append(page.path)
    return named[:20]


def structural_item(finding: Any) -> LintItem:
    code, path = str(finding.code), str(finding.path)
    message = str(finding.message)
    return LintItem(finding_id(code, path, message), code, path, message,
                    line=int(getattr(finding, "line", 0) or 0),
                    suggestion=getattr(finding, "suggestion", None))


# -- one operation's run: model turns, streaming parse, edit rounds ------------------------------
@dataclass
class _Run:
    vault: Any
    settings: AgentSettings
    operation: str
    title: str
    task: Task
    cancel: asyncio.Event | None = None
    usage: Usage = field(default_factory=Usage)
    replies: list[str] = field(default_factory=list)
    blocks: list = field(default_factory=list)  # good blocks kept across rounds and parts
    repairs: list = field(default_factory=list)  # reply-wide parser repairs (<think> ignored, ...)
    declared: dict = field(default_factory=dict)  # pages the replies declared (Intended: ...)
    errors: list = field(default_factory=list)  # EditErrors of the last build
    notice: str = ""
    failed: bool = False
    cut_kind: str = ""  # the fault kind of the last reply that stopped short
    unusable: str = ""  # why the last reply's text could not be read as edits, if it could not
    unseen: list = field(default_factory=list)  # an ingest's images the model was not shown
    _built: Any = None  # the changeset of the last build, when it used all kept blocks

    @property
    def reply(self) -> str:
        return "\n\n".join(r for r in self.replies if r)

    @property
    def touched(self) -> set[str]:
        paths = set()
        for b in self.blocks:
            paths.add(b.new_path or b.path)
        return paths

    @property
    def model_name(self) -> str:
        """The model as events and changesets name it ("offline" for the built-in engine)."""
        return "offline" if self.settings.offline else self.settings.model

    def started(self) -> Started:
        return Started(self.operation, self.title, self.model_name, self.settings.offline)

    # a model turn, with read-only tool calls answered in between
    async def turn(self, messages: list[dict], parser=None, *, cut_off_ok: bool = False
                   ) -> AsyncIterator[Any]:
        """Yields events, then a ChatResult; a fault yields Failed (and sets self.failed),
        except, with `cut_off_ok`, a reply cut off mid-stream: a ChatResult with .cut_off."""
        offered = None if self.settings.offline else tools.TOOLS
        last_progress: dict[str, float] = {}
        text_parts: list[str] = []
        try:
            for _ in range(_TOOL_ROUNDS + 1):
                result = None
                async for item in stream_reply(self.settings, messages, tools=offered,
                                               task=self.task, cancel=self.cancel):
                    if isinstance(item, Token):
                        text_parts.append(item.text)
                        yield item
                        if parser is not None:
                            for event in self._parse_events(parser.feed(item.text),
                                                            last_progress):
                                yield event
                    elif isinstance(item, ChatResult):
                        result = item
                    else:
                        yield item
                self._add_usage(result.usage)
                if not result.tool_calls:
                    if parser is not None:
                        for event in self._parse_events(parser.close(), last_progress):
                            yield event
                    yield result
                    return
                messages.append(result.message)
                for call in result.tool_calls:
                    args = tools.parse_arguments(call["arguments"])
                    yield ToolActivity(call["name"], tools.describe(call["name"], args))
                    output = await asyncio.to_thread(tools.run_tool, self.vault, call["name"],
                                                     args)
                    messages.append({"role": "tool", "tool_call_id": call["id"],
                                     "content": output})
                if _ == _TOOL_ROUNDS - 1:
                    offered = None  # enough looking around: answer now
            yield ChatResult("".join(text_parts))
        except LLMError as exc:
            partial = "".join(text_parts) or exc.partial_reply  # all of this turn's text
            if cut_off_ok and exc.kind in CUT_OFF_KINDS:
                if parser is not None:
                    for event in self._parse_events(parser.close(), last_progress):
                        yield event
                self.cut_kind = exc.kind
                yield ChatResult(partial, cut_off=exc.reason)
                return
            self.failed = True
            self.replies.append(partial)
            yield Failed(exc.reason, partial, exc.kind, self.usage)

    def _parse_events(self, parse_events: list, last_progress: dict[str, float]):
        from wiki_tui.changes.reply.blocks import BlockComplete, BlockProgress, BlockStarted

        now = time.monotonic()
        for pe in parse_events:
            if isinstance(pe, BlockStarted):
                yield FileProposed(pe.path, pe.kind)
                last_progress[pe.path] = 0.0
            elif isinstance(pe, BlockProgress):
                if now - last_progress.get(pe.path, 0.0) >= _PROGRESS_EVERY:
                    last_progress[pe.path] = now
                    yield FileProgress(pe.path, pe.text_so_far)
            elif isinstance(pe, BlockComplete) and pe.block.content is not None:
                yield FileProgress(pe.block.path, pe.block.content)

    def spend(self) -> Spend:
        """The operation's tokens and cost so far, as log.md and the commit record them."""
        usage = self.usage
        return Spend(self.model_name, usage.prompt_tokens, usage.completion_tokens, usage.cost_usd)

    def _add_usage(self, usage: Usage) -> None:
        cost = None
        if usage.cost_usd is not None or self.usage.cost_usd is not None:
            cost = (usage.cost_usd or 0.0) + (self.usage.cost_usd or 0.0)
        if self.usage.prompt_tokens == 0 and self.usage.completion_tokens == 0:
            cost = usage.cost_usd
        self.usage = Usage(self.usage.prompt_tokens + usage.prompt_tokens,
                           self.usage.completion_tokens + usage.completion_tokens, cost)

    def length_cut(self) -> str:
        limit = f", max_tokens={self.settings.max_tokens}" if self.settings.max_tokens else ""
        return f"the model ran out of output tokens (finish reason \"length\"{limit})"

    def cut_off(self, result: ChatResult) -> str:
        """Why this reply is not whole ("" when it is)."""
        if result.cut_off:
            return result.cut_off
        if result.finish_reason == "length":
            self.cut_kind = "incomplete"
            return self.length_cut()
        return ""

    def unusable_reply(self, parsed: Any, text: str) -> str:
        """The message to send back for a prose reply without a single block, where the
        operation must write a page (a save; an ingest that has written nothing yet). A reply
        in another edit format has parser errors instead, sent back like any refusal."""
        if parsed.blocks or parsed.incomplete or parsed.errors or self.operation not in _EDITING:
            return ""
        must_write = self.operation == "save" or (self.operation == "ingest" and not self.blocks)
        return no_blocks_message() if must_write and "@@@" not in text else ""

    async def edit_conversation(self, messages: list[dict], *, apply_blocks: bool = True,
                                follow_renames: bool = False,
                                merges: dict[str, str] | None = None,
                                check: Any = None) -> AsyncIterator[Event]:
        """Model turns until its edits build cleanly (at most settings.edit_rounds rounds).
        `check(changeset)` -> [(path, message)]: what else must be sent back (a save's form)."""
        from wiki_tui.changes.build.changeset import EditError, build_changeset
        from wiki_tui.changes.reply.blocks import DELETE, RENAME, ParsedReply
        from wiki_tui.changes.reply.stream import StreamParser
        from wiki_tui.changes.reply.intent import declared_intents

        rounds = max(1, self.settings.edit_rounds)
        for round_no in range(1, rounds + 1):
            parser = StreamParser()
            result = None
            async for item in self.turn(messages, parser if apply_blocks else None,
                                        cut_off_ok=apply_blocks):
                if isinstance(item, ChatResult):
                    result = item
                else:
                    yield item
            if self.failed:
                return
            self.replies.append(result.text)
            if not apply_blocks:
                return
            parsed = parser.result()
            new_blocks = list(parsed.blocks)
            if follow_renames:  # backlinks follow a page the model moves or merges away
                moves = {b.path: b.new_path for b in new_blocks if b.kind == RENAME}
                merged = {b.path: (merges or {})[b.path] for b in new_blocks
                          if b.kind == DELETE and b.path in (merges or {})}
                edited = {b.path for b in [*self.blocks, *new_blocks]}
                if moves:
                    new_blocks += rewrite_blocks(self.vault, moves, skip=edited)
                if merged:
                    new_blocks += rewrite_blocks(self.vault, merged, skip=edited,
                                                 keep_text=True)
            candidate = [*self.blocks, *new_blocks]
            self.repairs += [r for r in parsed.repairs if r not in self.repairs]
            self.declared.update(declared_intents(parsed.prose))
            changeset, errors = await asyncio.to_thread(
                build_changeset, self.vault,
                ParsedReply(candidate + parsed.incomplete, parsed.errors, parsed.prose,
                            repairs=list(self.repairs)),
                operation=self.operation, title=self.title, model=self.model_name,
                source=self._source(), declared=self.declared)
            if check is not None:
                errors += [EditError(path, message, kind="form")
                           for path, message in check(changeset)]
            retry = [e for e in errors if e.retry]
            failed_paths = {e.path for e in retry}
            self.blocks = [b for b in candidate
                           if b.path not in failed_paths and b.new_path not in failed_paths]
            self.errors = errors
            # the build of exactly these blocks can serve as the result (no second lint)
            self._built = changeset if len(self.blocks) == len(candidate) else None
            cut = self.cut_off(result)
            hint = self.unusable = self.unusable_reply(parsed, result.text)
            if not (retry or cut or hint):
                return
            if round_no == rounds:
                if cut:  # the last round too stopped short: the operation could not complete
                    yield self._cut_off_failure(cut, parsed, rounds)
                return
            yield Retry(_retry_reason(cut, retry, round_no + 1, rounds), round_no,
                        edit_round=True, refused=len(retry))
            messages.append({"role": "assistant", "content": result.text})
            messages.append({"role": "user", "content": feedback(cut, parsed.incomplete,
                                                                 retry, hint)})

    def _source(self) -> str:
        """An ingest's raw source: the changeset's invariants look at what it mentions."""
        return self.task.args.get("source", "") if self.operation == "ingest" else ""

    def _note_unseen(self, changeset: Any) -> None:
        """The review says which images the model did not see (on the source page, else the
        first file), and so does the operation's closing notice."""
        why = ("the offline engine sees no images" if self.settings.offline else
               f"{self.model_name} was not sent them (no vision support, or over the image "
               "budget)")
        note = f"the model did not see {len(self.unseen)} image(s) ({why}): " + ", ".join(
            self.unseen)
        source = self.task.args.get("source", "")
        target = next((c for c in changeset.files if source and source in (c.proposed_text or "")),
                      changeset.files[0])
        target.warnings.append(note)
        self.notice = _join(self.notice, note[0].upper() + note[1:] + ".")

    def _cut_off_failure(self, cut: str, parsed: Any, rounds: int) -> Failed:
        self.failed = True
        unfinished = sorted({b.path for b in parsed.incomplete})
        where = f" It stopped inside the block for {', '.join(unfinished)}." if unfinished \
            else ""
        return Failed(f"{cut}{where} The reply was still incomplete after {rounds} round(s); "
                      "nothing was applied. Run the operation again to retry.",
                      self.reply, self.cut_kind, self.usage)

    async def finish(self) -> AsyncIterator[Event]:
        """The changeset of every usable block, then Done; Failed when edits were sent but
        none could be used. Edits refused after the last round are named (left_out), never
        dropped silently: the CLI's --yes applies nothing then."""
        from wiki_tui.changes.build.changeset import build_changeset

        changeset = self._built
        if changeset is None:
            changeset, _errors = await asyncio.to_thread(
                build_changeset, self.vault, self.blocks, operation=self.operation,
                title=self.title, model=self.model_name, source=self._source(),
                declared=self.declared)
            changeset.repairs = list(self.repairs)
        changeset.title = self.title  # (built during the rounds, before a lint knew its findings)
        refused = [e for e in self.errors if e.retry]
        leftover = [str(e) for e in refused]
        changeset.errors = list(dict.fromkeys([*leftover, *changeset.errors]))
        left_out = changeset.left_out = sorted({e.path for e in refused if e.path})
        if self.operation == "ingest":  # the log entry names the source: it counts as ingested
            changeset.source = self.task.args.get("source", "")
        if not changeset.files and (refused or self.unusable):
            rounds = max(1, self.settings.edit_rounds)
            why = " ".join(leftover) if leftover else self.unusable
            yield Failed(f"No usable edits after {rounds} round(s); nothing was applied. {why}",
                         self.reply, "unusable", self.usage)
            return
        if self.unseen and changeset.files:
            self._note_unseen(changeset)
        for change in changeset.files:
            yield FileReady(change)
        if changeset.files:
            changeset.spend = self.spend()  # every model call of the operation is behind us
            yield ChangesetReady(changeset)
            if leftover:
                self.notice = _join(self.notice, (
                    f"{len(leftover)} edit(s) could not be used and are left out"
                    + (f" ({', '.join(left_out)})" if left_out else "")
                    + ": review the rest; the command line's --yes applies nothing then."))
        elif not self.notice:
            self.notice = "No changes were proposed."
        yield Done(self.usage, self.reply, notice=self.notice)


_EDITING = ("ingest", "save", "instruct")  # operations asked for edit blocks


def _join(*parts: str) -> str:
    return " ".join(p for p in parts if p)


def _retry_reason(cut: str, retry: list, next_round: int, rounds: int) -> str:
    if cut:
        why = f"the reply was cut off ({cut}); asking for the rest"
    elif retry:
        why = f"{len(retry)} edit(s) could not be used; sending the errors back to the model"
    else:
        why = "the reply held no usable edit blocks; asking again in the edit protocol"
    return f"{why} (round {next_round} of {rounds})"


def feedback(cut: str, incomplete: list, errors: list, hint: str) -> str:
    """The message sent back in a retry round: what went wrong, file by file, and what to send."""
    parts = []
    if cut:
        unfinished = sorted({b.path for b in incomplete})
        where = (f" It stopped inside the block for {', '.join(unfinished)}; that block was "
                 "not used." if unfinished else "")
        parts.append(f"Your reply was cut off before its end ({cut}).{where} Your complete "
                     "blocks were kept: do not send them again. Send "
                     + ("that block again, complete, then " if unfinished else "")
                     + "any edits you had not written yet; keep the reply short.")
    refused = [e for e in errors if getattr(e, "kind", "") != "incomplete" or not cut]
    if refused:
        parts.append(retry_message(refused))
    if hint:
        parts.append(hint)
    return "\n\n".join(parts)


_BLOCK_HELP = ("Write every change in the edit protocol: a whole page as\n"
               "@@@ WRITE path/to/Page.md\n<the whole page>\n@@@ END\n"
               "or a change to part of a page as\n"
               "@@@ EDIT path/to/Page.md\n@@@ SEARCH\n<lines copied exactly from the page>\n"
               "@@@ REPLACE\n<the new lines>\n@@@ END")


def no_blocks_message() -> str:
    """What to send back for a prose reply where the operation must write a page. (A reply in
    another edit format never gets here: the parser refuses it naming the file and line.)"""
    return ("Your reply had no @@@ blocks, so nothing was written; this operation must write "
            f"at least one page. {_BLOCK_HELP}")


def retry_message(errors: list) -> str:
    lines = "\n".join(f"- {e}" for e in errors)
    return ("Some of your edit blocks could not be used:\n\n" + lines + "\n\nYour other edits "
            "were kept. Send corrected blocks for these pages only, copying SEARCH lines "
            "exactly from the page as it is now.")
