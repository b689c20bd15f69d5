"""Turn parsed blocks into one reviewable Changeset: guards, base texts, matching, diffs, lint.

Blocks are replayed in reply order over an overlay of the vault (path -> text, None = absent).
Files linked by a rename form one group; a group's blocks apply together or not at all, so a
failed edit never leaves a half-edited page in the changeset. Every refusal becomes an EditError
whose str() is sent back to the model for another try.

Before that, each block is read as meant where that is safe and shown: a path that names no page
is aimed at the page it means (reply/page_paths.py), a WRITE marked `(rewrite)` is noted. Placeholder
lines ("...", "rest of the section unchanged") that would delete what they stand for are refused.
A WRITE that drops most of a page or changes its title gets a warning, and a hold (not applied
by `--yes` alone) unless the reply marked it as a rewrite. Last, form files are checked and
completed (form_files.py): a `.canvas` must be JSON Canvas, a new ```chart spec must be valid
and is drawn to the SVG its page embeds.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from wiki_tui.changes.build import guards
from wiki_tui.changes.build.form_files import complete_forms
from wiki_tui.changes.build.outcome import judge
from wiki_tui.changes.build.match import BOM, MatchError, apply_edits_report
from wiki_tui.changes.lines import newline_style
from wiki_tui.changes.model import CREATE, DELETE, MODIFY, RENAME, Changeset, FileChange, proposed_texts
from wiki_tui.changes.reply.blocks import DELETE as B_DELETE
from wiki_tui.changes.reply.blocks import EDIT as B_EDIT
from wiki_tui.changes.reply.blocks import RENAME as B_RENAME
from wiki_tui.changes.reply.blocks import WRITE as B_WRITE
from wiki_tui.changes.reply.blocks import Block, ParsedReply, ProtocolError
from wiki_tui.changes.reply.intent import aim, declared_intents
from wiki_tui.changes.reply.page_paths import meant_path, twin_index
from wiki_tui.changes.reply.path_rules import GuardError
from wiki_tui.changes.reply.twins import TwinIndex, differs_by, twin_key
from wiki_tui.vault.gc_pause import no_gc
from wiki_tui.vault.proposed import Proposed


@dataclass
class EditError:
    """Why (part of) a reply was not turned into changes. str() is the message for the model."""

    path: str
    message: str  # complete sentence(s), naming the file
    kind: str = "match"  # protocol | guard | match | incomplete | unreadable | limit | notice | form
    retry: bool = True  # False: informational (e.g. an edit that was already applied)

    def __str__(self) -> str:
        return self.message


class BaseTextError(Exception):
    """A page on disk that cannot be edited as text (not UTF-8, binary)."""

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(message)


def read_base_text(vault_root: Path | str, path: str) -> str | None:
    """A page's text as on disk, decoded strictly (None when it does not exist).

    UTF-8 only (a BOM stays in the text as U+FEFF, so writing it back keeps it). Newlines are
    kept as they are: CRLF pages stay CRLF. Never decodes lossily.
    """
    try:
        with open(os.path.join(vault_root, path), "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return None
    if b"\x00" in data[:8192]:
        raise BaseTextError(path, f"{path} looks like a binary file; wiki-tui will not edit it")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BaseTextError(
            path, f"{path} is not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "wiki-tui will not rewrite it, to avoid losing characters") from None


def conform_newlines(text: str, base: str | None) -> str:
    """Give a whole-page text the base file's newline style, BOM and final-newline habit."""
    text = text.replace("\r\n", "\n").removeprefix(BOM)
    if base is None:
        return text
    if base.startswith(BOM):
        text = BOM + text
    if newline_style(base) == "\r\n":
        text = text.replace("\n", "\r\n")
    if base and not base.endswith("\n") and text.endswith("\n") and not text.endswith("\n\n"):
        text = text.rstrip("\r\n")
    return text


def _group(blocks: list[Block]) -> list[list[int]]:
    """Indexes of blocks, grouped so that files linked by a rename share a group."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for b in blocks:
        find(b.path)
        if b.kind == B_RENAME and b.new_path:
            parent[find(b.path)] = find(b.new_path)
    groups: dict[str, list[int]] = {}
    for i, b in enumerate(blocks):
        groups.setdefault(find(b.path), []).append(i)
    return list(groups.values())


class _Overlay:
    """Texts of the files a group touches: read once from disk, then replayed in memory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.disk: dict[str, str | None] = {}
        self.now: dict[str, str | None] = {}

    def get(self, path: str) -> str | None:
        if path not in self.now:
            self.disk[path] = read_base_text(self.root, path)
            self.now[path] = self.disk[path]
        return self.now[path]


@dataclass
class _Trace:
    """What replaying a group learnt beyond the texts: which pages a WRITE made (a rename carries
    that along) and the repair notes of tolerant matches, per page."""

    written: set[str] = field(default_factory=set)
    notes: dict[str, list[str]] = field(default_factory=dict)


def _replay(overlay: _Overlay, blocks: list[Block], errors: list[EditError],
            renames: dict[str, str], trace: _Trace) -> bool:
    """Apply one group's blocks to the overlay. False (with errors added) if any fails."""
    for b in blocks:
        if b.path in renames and b.kind != B_RENAME:
            errors.append(EditError(b.path, f"{b.path}: this page was renamed to "
                                    f"{renames[b.path]} earlier in the reply; refer to it by its "
                                    "new path (a new page at the old path needs a later reply)",
                                    kind="guard"))
            return False
        if b.kind == B_WRITE:
            base = overlay.get(b.path)
            lazy = guards.find_placeholder(b.content or "", base or "")
            if lazy is not None:
                errors.append(EditError(b.path, f"{b.path}: line {lazy[0]} of the WRITE is a "
                                        f"placeholder, not page text: {lazy[1]!r}. WRITE "
                                        "replaces the whole page, so the text it stands for "
                                        "would be deleted. Send the whole page, or use EDIT "
                                        "with SEARCH/REPLACE for the part that changes",
                                        kind="guard"))
                return False
            overlay.now[b.path] = conform_newlines(b.content or "", base)
            trace.written.add(b.path)
        elif b.kind == B_EDIT:
            text = overlay.get(b.path)
            if text is None:
                errors.append(EditError(b.path, f"{b.path}: cannot EDIT a page that does not "
                                        "exist (an earlier block of the reply removed it)"))
                return False
            report = apply_edits_report(text, b.edits, b.path)
            trace.notes.setdefault(b.path, []).extend(report.notes)
            for i in report.already_applied:
                n = f" {i + 1} of {len(b.edits)}" if len(b.edits) > 1 else ""
                errors.append(EditError(b.path, f"{b.path}: edit{n} is already in the page "
                                        "(its REPLACE text is there); it was skipped",
                                        kind="notice", retry=False))
            overlay.now[b.path] = report.text
        elif b.kind == B_DELETE:
            if overlay.get(b.path) is None:
                errors.append(EditError(b.path, f"{b.path}: cannot DELETE a page that does not "
                                        "exist", kind="guard"))
                return False
            overlay.now[b.path] = None
        elif b.kind == B_RENAME:
            new = b.new_path or ""
            text = overlay.get(b.path)
            if text is None:
                errors.append(EditError(b.path, f"{b.path}: cannot RENAME a page that does not "
                                        "exist", kind="guard"))
                return False
            if new == b.path:
                continue
            if overlay.get(new) is not None:
                errors.append(EditError(b.path, f"{b.path}: cannot RENAME to {new}: that page "
                                        "already exists (merge them with WRITE and DELETE "
                                        "instead)", kind="guard"))
                return False
            overlay.now[new], overlay.now[b.path] = text, None
            if b.path in trace.written:
                trace.written.add(new)
            trace.notes[new] = trace.notes.pop(b.path, []) + trace.notes.get(new, [])
            origin = next((o for o, n in renames.items() if n == b.path), b.path)
            renames.pop(origin, None)
            if origin != new:
                renames[origin] = new
    return True


def _placeholder_in_replace(b: Block) -> None:
    """Refuse an EDIT whose REPLACE stands in for text with a placeholder line its SEARCH did
    not have: applied, the lines it stands for would be deleted."""
    for i, (search, replace) in enumerate(b.edits):
        lazy = guards.find_placeholder(replace, search)
        if lazy is not None:
            which = f"edit {i + 1} of {len(b.edits)}" if len(b.edits) > 1 else "the edit"
            raise GuardError(b.path, f"{which}: REPLACE has a placeholder line that is not in "
                             f"its SEARCH: {lazy[1]!r}. Applied, it would delete the lines it "
                             "stands for. Send the whole section in SEARCH and REPLACE, or use "
                             "a smaller SEARCH around the lines that change")


@dataclass
class _Reading:
    """What reading the reply's blocks in order has learnt so far."""

    vault: Any
    made: set[str] = field(default_factory=set)  # pages earlier blocks create or keep
    rewrites: set[str] = field(default_factory=set)  # pages the reply rewrites on purpose
    written: dict[str, int] = field(default_factory=dict)  # page -> reply line of its WRITE
    created: dict[str, str] = field(default_factory=dict)  # twin key -> page a WRITE creates
    repaired: dict[str, str] = field(default_factory=dict)  # path as written -> as read
    folders: guards.FolderNames = field(default_factory=guards.FolderNames)  # listed once
    _twins: TwinIndex | None = None

    @property
    def twins(self) -> TwinIndex:
        if self._twins is None:
            self._twins = twin_index(self.vault)
        return self._twins


def _read_as_meant(root: Path, b: Block, seen: _Reading) -> Block:
    """The block with its paths as meant and guarded (raises GuardError)."""
    rewrite = b.kind == B_WRITE and b.rewrite  # `@@@ WRITE path (rewrite)`, read by the parser
    try:
        # a hostile shape is refused before anything looks at disk
        seen.folders.clean(b.path, catalog=seen.folders.catalog(root))
    except GuardError as exc:
        raise _naming_twin(exc, b.path, seen) from None
    written = b.path
    b, note = meant_path(seen.vault, root, b, seen.made, lambda: seen.twins)
    if b.path != written:
        seen.repaired[written] = b.path
    b = _guard_block(root, b, seen.folders)
    if note:
        b.repairs.append(note)
    if b.kind == B_EDIT:
        _placeholder_in_replace(b)
    if b.kind == B_WRITE:
        _write_once(root, b, seen, rewrite)
    if rewrite:
        seen.rewrites.add(b.path)
    if b.kind in (B_DELETE, B_RENAME):
        seen.made.discard(b.path)
        seen.written.pop(b.path, None)
    if b.kind != B_DELETE:
        seen.made.add(b.new_path or b.path)
    return b


def _naming_twin(exc: GuardError, path: str, seen: _Reading) -> GuardError:
    """A refused path (`H4.md.`, a full-width slash) that twins an existing page: the refusal
    names that page, so the retry goes there instead of to a mangled path."""
    if not hasattr(seen.vault, "pages"):
        return exc
    found = seen.twins.of(path)
    if not found:
        return exc
    return GuardError(exc.path, f"{exc}. The page this name means is probably {found[0]}: to "
                      f"change it, use '@@@ EDIT {found[0]}' (or WRITE it by that exact path)")


def _write_once(root: Path, b: Block, seen: _Reading, rewrite: bool) -> None:
    """One reply writes a page once, and never creates two twins (`Dup.md` and `DUP.md`)."""
    if b.path in seen.written and not rewrite:
        raise GuardError(b.path, f"the reply already WRITEs {b.path} (reply line "
                         f"{seen.written[b.path]}); a second WRITE would silently replace the "
                         "first. Send one WRITE with the page's final text (or mark the second "
                         f"'@@@ WRITE {b.path} (rewrite)' if it is meant to replace the first)")
    seen.written[b.path] = b.line
    if os.path.exists(os.path.join(root, b.path)):
        return
    key = twin_key(b.path)
    other = seen.created.get(key)
    if other is not None and other != b.path:
        raise GuardError(b.path, f"the reply already creates {other}, the same name but for "
                         f"{differs_by(b.path, other)}; two such pages would be twins. Write "
                         "one page, with one name")
    seen.created[key] = b.path


def _guard_block(root: Path, b: Block, folders: guards.FolderNames) -> Block:
    """The block with its paths normalised by the guards (raises GuardError)."""
    path = guards.check_path(root, b.path, folders=folders)
    new = guards.check_path(root, b.new_path, folders=folders) if b.kind == B_RENAME else None
    if path == b.path and new == b.new_path:
        return b
    return Block(b.kind, path, content=b.content, edits=list(b.edits), new_path=new,
                 complete=b.complete, line=b.line, end_line=b.end_line, repairs=list(b.repairs))


def build_changeset(vault: Any, blocks: Iterable[Block] | ParsedReply, *, operation: str,
                    title: str, model: str = "offline", source: str = "",
                    declared: dict[str, str] | None = None) -> tuple[Changeset, list[EditError]]:
    """One changeset from the model's blocks (or a whole ParsedReply), plus what was refused.

    `vault` is a wiki_tui.vault.Vault (its `root` and `lint_changes` are used). Incomplete
    blocks are never applied; a ParsedReply's protocol errors are carried into the errors.
    The changeset carries its knowledge diff, and each file the invariants it breaks
    (outcome.py); `declared` (path -> reason) adds to the intents the reply's prose declares,
    `source` is an ingest's raw source.
    """
    with no_gc():  # ~10^5 objects made, few of them garbage yet (vault/gc_pause.py)
        return _build(vault, blocks, operation=operation, title=title, model=model,
                      source=source, declared=declared)


def _build(vault: Any, blocks: Iterable[Block] | ParsedReply, *, operation: str, title: str,
           model: str, source: str, declared: dict[str, str] | None
           ) -> tuple[Changeset, list[EditError]]:
    errors: list[EditError] = []
    reply_repairs: list[str] = []
    intents = dict(declared or {})
    if isinstance(blocks, ParsedReply):
        reply_repairs = list(blocks.repairs)
        intents.update(declared_intents(blocks.prose))
        for perr in blocks.errors:
            errors.append(_protocol_error(perr))
        explained = {perr.path for perr in blocks.errors if perr.path}
        blocks = [*blocks.blocks, *(b for b in blocks.incomplete if b.path not in explained)]
    root = Path(vault.root)
    good: list[Block] = []
    seen = _Reading(vault)
    for b in blocks:
        if not b.complete:
            errors.append(EditError(b.path, f"{b.path}: the reply ended in the middle of this "
                                    f"{b.kind.upper()} block (no '@@@ END'); it was not used. "
                                    "Send the block again, complete", kind="incomplete"))
            continue
        try:
            good.append(_read_as_meant(root, b, seen))
        except GuardError as exc:
            errors.append(EditError(exc.path or b.path, str(exc), kind="guard"))

    changes: list[FileChange] = []
    order: dict[str, int] = {}
    for idxs in _group(good):
        group = [good[i] for i in idxs]
        overlay, renames, trace = _Overlay(root), {}, _Trace()
        local: list[EditError] = []
        try:
            ok = _replay(overlay, group, local, renames, trace)
        except MatchError as exc:
            local.append(EditError(exc.path, str(exc), kind="match"))
            ok = False
        except BaseTextError as exc:
            local.append(EditError(exc.path, str(exc), kind="unreadable", retry=False))
            ok = False
        if not ok:
            failed = {e.path for e in local}
            others = sorted({p for b in group for p in (b.path, b.new_path) if p} - failed)
            if len(group) > 1 and others:
                local.append(EditError(others[0], f"The blocks for {', '.join(others)} were not "
                                       "used either: they go together with the failed one "
                                       "(a rename links them). Send them again with the fix",
                                       kind="match"))
            errors.extend(local)
            continue
        errors.extend(local)
        try:
            group_changes = _file_changes(overlay, renames)
            for fc in group_changes:
                guards.check_size(fc.path, fc.proposed_text)
        except GuardError as exc:
            errors.append(EditError(exc.path, str(exc), kind="limit"))
            continue
        for fc in group_changes:
            order.setdefault(fc.path, min(i for i in idxs))
            touched = {fc.path, fc.old_path}
            fc.repairs.extend(r for b in group if touched & {b.path, b.new_path}
                              for r in b.repairs if r not in fc.repairs)
            fc.repairs.extend(trace.notes.get(fc.path, []))
            if fc.path in trace.written:
                _flag_rewrite(fc, fc.path in seen.rewrites)
        changes.extend(group_changes)
    changes.sort(key=lambda fc: order.get(fc.path, 0))
    changes, refused = complete_forms(vault, changes)
    errors.extend(EditError(path, message, kind="guard") for path, message in refused)

    total = sum(len((fc.proposed_text or "").encode("utf-8", "surrogatepass")) for fc in changes)
    try:
        guards.check_changeset_size(total)
    except GuardError as exc:
        errors.append(EditError("", str(exc), kind="limit"))
        changes = []

    changeset = Changeset(operation=operation, title=title, model=model, files=changes,
                          repairs=reply_repairs, source=source)
    changeset.errors = [str(e) for e in errors if e.retry]
    proposed = _proposed(vault, changes, changeset)  # read once by the lint and the knowledge diff
    changeset.findings = _lint(vault, changes, changeset, proposed)
    judge(vault, changeset, intents=aim(intents, seen.repaired), rewrites=seen.rewrites,
          proposed=proposed,
          twins=seen.twins if hasattr(vault, "pages") and any(
              fc.kind == CREATE for fc in changes) else None)
    if changes:
        from wiki_tui.changes.build.review_notes import mark_review_notes  # imports git

        mark_review_notes(root, changes)
    return changeset, errors


def _flag_rewrite(fc: FileChange, declared: bool) -> None:
    """A WRITE over an existing page that drops most of it or changes its title: a warning in
    the review, and a hold for `--yes` unless the reply marked it `(rewrite)`."""
    if fc.base_text is None or fc.proposed_text is None:
        return
    warning = guards.rewrite_warning(fc.base_text, fc.proposed_text, fc.path)
    if warning is None:
        return
    fc.warnings.append(warning + (" (the reply marked it as a rewrite)" if declared else ""))
    if not declared:
        fc.hold = (f"{warning}; a WRITE that means this is marked "
                   f"'@@@ WRITE {fc.path} (rewrite)'")


def _file_changes(overlay: _Overlay, renames: dict[str, str]) -> list[FileChange]:
    out: list[FileChange] = []
    done: set[str] = set()
    for old, new in renames.items():
        base, proposed = overlay.disk.get(old), overlay.now.get(new)
        if base is None or proposed is None or overlay.disk.get(new) is not None:
            continue  # renamed then deleted, or onto a page that exists: plain changes below
        out.append(FileChange(new, RENAME, base, proposed, old_path=old))
        done.update((old, new))
    for path, now in overlay.now.items():
        if path in done:
            continue
        base = overlay.disk.get(path)
        if now == base:
            continue
        if base is None:
            out.append(FileChange(path, CREATE, None, now))
        elif now is None:
            out.append(FileChange(path, DELETE, base, None))
        else:
            out.append(FileChange(path, MODIFY, base, now))
    return out


def _protocol_error(perr: ProtocolError) -> EditError:
    return EditError(perr.path or "", f"reply line {perr.line}: {perr.message}", kind="protocol")


def _lint(vault: Any, changes: list[FileChange], changeset: Changeset,
          proposed: Proposed | None) -> list[Any]:
    if not changes or proposed is None:
        return []
    try:
        return list(vault.lint_changes(proposed.files, proposed=proposed))
    except Exception as exc:  # a lint bug must not lose the model's proposal
        changeset.errors.append(f"(the changeset could not be linted: {exc!r})")
        return []


def _proposed(vault: Any, changes: list[FileChange], changeset: Changeset) -> Proposed | None:
    """The vault after the changes, read once for the lint and the knowledge diff (None: not a
    Vault, or paths it refuses, which the lint would report)."""
    if not changes or not hasattr(vault, "lint_changes"):
        return None
    try:
        return Proposed(vault, proposed_texts(changes))
    except Exception as exc:  # noqa: BLE001 - as a lint failure: the proposal is kept
        changeset.errors.append(f"(the changeset could not be linted: {exc!r})")
        return None
