"""Guards on what a changeset may write, judged against the vault: no writing through links or
out of the vault, no twin of an existing name, page and changeset sizes, placeholders standing
for text the model left out, whole-page rewrites, and the holds that keep a change from `--yes`.

A path's own shape is checked first (reply/path_rules.py). Every refusal is a GuardError whose
message names the path and says what to do instead; it goes back to the model as is. Nothing
here writes anything.
"""

from __future__ import annotations

import os
import re
import stat
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from wiki_tui.changes.build.alternation import trie_pattern
from wiki_tui.changes.model import REJECTED
from wiki_tui.changes.reply.path_rules import GuardError, clean_relative, normalise
from wiki_tui.vault.parse.schema import catalog_path

MAX_PAGE_BYTES = 1_000_000  # one page, UTF-8 encoded
MAX_CHANGESET_BYTES = 5_000_000  # all proposed texts of one changeset together
_LINK_BREAKERS = re.compile(r"[#^\[\]]")


class FolderNames:
    """What check_path learns of the disk while one changeset is built (nothing is written
    meanwhile): the names in each folder by their case- and Unicode-blind key, each folder
    listed once; what each folder on the way is (one `lstat` per folder, not per page); the
    vault folder's real path and its catalog, each found once; each path's shape checked once
    (`clean`: the build checks a block's path before it reads it as meant, then again in
    check_path)."""

    def __init__(self) -> None:
        self._by_folder: dict[str, dict[str, list[str]]] = {}
        self._real: dict[str, Path] = {}
        self._stats: dict[str, os.stat_result | None] = {}
        self._catalog: dict[Path, str] = {}
        self._clean: dict[tuple[str, bool, str], str] = {}

    def clean(self, path: str, *, rendered: bool = False, catalog: str = "index.md") -> str:
        """`clean_relative(path, ...)`, worked out once per path (a refusal is raised each time,
        and not remembered)."""
        key = (path, rendered, catalog)
        found = self._clean.get(key)
        if found is None:
            found = self._clean[key] = clean_relative(path, rendered=rendered, catalog=catalog)
        return found

    def real_root(self, vault_root: Path | str) -> Path:
        key = str(vault_root)
        if key not in self._real:
            self._real[key] = Path(vault_root).resolve()
        return self._real[key]

    def catalog(self, root: Path) -> str:
        """The vault's catalog path (AGENTS.md's `catalog:`), read once."""
        if root not in self._catalog:
            self._catalog[root] = catalog_path(root)
        return self._catalog[root]

    def lstat(self, path: str, *, folder: bool) -> os.stat_result | None:
        """`os.lstat(path)`, None when nothing is there; remembered for a `folder` on the way
        (the file itself is looked at each time)."""
        if folder and path in self._stats:
            return self._stats[path]
        try:
            found: os.stat_result | None = os.lstat(path)
        except OSError:  # as os.path.lexists: nothing usable there
            found = None
        if folder:
            self._stats[path] = found
        return found

    def same_key(self, folder: str, name: str) -> list[str]:
        """The names in `folder` equal to `name` but for case or Unicode form (`name` too)."""
        keyed = self._by_folder.get(folder)
        if keyed is None:
            keyed = {}
            try:
                siblings = os.listdir(folder)
            except OSError:
                siblings = []
            for other in siblings:
                keyed.setdefault(_name_key(other), []).append(other)
            self._by_folder[folder] = keyed
        return keyed.get(_name_key(name), [])


def check_path(vault_root: Path | str, path: str, *, rendered: bool = False,
               folders: FolderNames | None = None) -> str:
    """The normalised vault-relative POSIX path a model block may write, or raise GuardError.

    Beyond the shape checks of `clean_relative`, looks at the disk: the page itself must not be
    a symbolic link, and no folder on the way may be a link leading out of the vault (or into a
    protected part of it). `folders`: what this changeset has seen of the disk so far (each
    folder is listed and looked at once per changeset, not once per new page).
    """
    folders = folders or FolderNames()
    root = folders.real_root(vault_root)
    catalog = folders.catalog(root)
    clean = folders.clean(path, rendered=rendered, catalog=catalog)
    if clean.casefold() == catalog.casefold():  # index.md is refused by clean_relative already
        raise GuardError(clean, f"{catalog} is the catalog wiki-tui generates from every page's "
                         "frontmatter (`catalog:` in AGENTS.md) and cannot be written directly; "
                         "put a page's one-line description in its `summary` frontmatter instead")
    cur = str(root)
    parts = clean.split("/")
    last = len(parts) - 1
    for i, part in enumerate(parts):
        cur = f"{cur}/{part}"
        st = folders.lstat(cur, folder=i < last)
        if st is None:
            _check_collision(clean, cur[: cur.rfind("/")], part, folders)
            for new_part in parts[i:]:
                _check_new_name(clean, new_part)
            return clean  # nothing further exists: it will be created as real folders
        if stat.S_ISLNK(st.st_mode):
            if i == last:
                raise GuardError(clean, "the page is a symbolic link; wiki-tui does not write "
                                 "through links (edit the file it points to instead)")
            real = Path(cur).resolve()
            try:
                inside = real.relative_to(root).as_posix()
            except ValueError:
                raise GuardError(clean, f"the folder '{'/'.join(parts[: i + 1])}' is a link "
                                 "leading out of the vault; refused") from None
            clean_relative(inside + "/" + "/".join(parts[i + 1 :]), rendered=rendered,
                           catalog=catalog)  # protected targets too
        elif i < last and not stat.S_ISDIR(st.st_mode):  # not a link: lstat tells what it is
            raise GuardError(clean, f"'{'/'.join(parts[: i + 1])}' is a file, not a folder")
        elif i == last and not stat.S_ISREG(st.st_mode):
            raise GuardError(clean, "this path is a folder, not a page")
    return clean


def _check_new_name(path: str, part: str) -> None:
    """Names a new page or folder may not take (existing ones are left alone)."""
    link_bad = _LINK_BREAKERS.search(part)
    if link_bad:
        raise GuardError(path, f"the name '{part}' contains '{link_bad.group(0)}', which "
                         "Obsidian links cannot reach ([[...]] reads # ^ [ ] | as link syntax); "
                         "leave it out or spell it out (e.g. 'C sharp')")


def _name_key(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def _check_collision(path: str, folder: str, name: str, folders: FolderNames) -> None:
    """A new name that differs from an existing one only in case or Unicode form would be the
    same file on macOS and Windows (and a confusing twin on Linux)."""
    for other in folders.same_key(folder, name):
        if other == name:
            continue
        if other.casefold() == name.casefold() or normalise(other) != name:
            raise GuardError(path, f"'{name}' differs from the existing '{other}' only in "
                             "letter case; use the existing name exactly")
        raise GuardError(path, f"the existing '{other}' is stored on disk in decomposed "
                         "Unicode (NFD, as macOS writes names); wiki-tui keeps names in NFC "
                         "and will not write a twin: rename the file on disk to its NFC form "
                         "first")


def check_size(path: str, text: str | None) -> int:
    """Bytes of `text` (UTF-8), or GuardError when a page exceeds MAX_PAGE_BYTES."""
    if text is None:
        return 0
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_PAGE_BYTES:
        raise GuardError(path, f"the page would be {size:,} bytes; the limit per page is "
                         f"{MAX_PAGE_BYTES:,} bytes (MAX_PAGE_BYTES). Split it into several "
                         "linked pages")
    return size


def check_changeset_size(total: int) -> None:
    if total > MAX_CHANGESET_BYTES:
        raise GuardError("", f"the proposed pages total {total:,} bytes; the limit per "
                         f"changeset is {MAX_CHANGESET_BYTES:,} bytes (MAX_CHANGESET_BYTES). "
                         "Propose fewer or smaller pages at a time")


# -- lazy elision ------------------------------------------------------------------------------
# A model that means "the rest stays as it was" writes a placeholder line instead of the text;
# applied literally, the text it stands for is deleted. A placeholder is a line that is only an
# ellipsis ("...", "…", "[...]") or a short note that text is left out ("rest of the section
# unchanged", "<!-- existing content -->", "// unchanged", "(remaining content unchanged)").
_ELLIPSIS = re.compile(r"^(?:\.\s?){2,}\.|^…+")
_WRAPPERS = (("<!--", "-->"), ("/*", "*/"), ("%%", "%%"), ("(", ")"), ("[", "]"), ("{", "}"),
             ("<", ">"), ("**", "**"), ("*", "*"), ("_", "_"), ("//", ""), ("#", ""),
             ("- ", ""), ("* ", ""), ("+ ", ""), ("> ", ""))
_WRAP_FIRST = frozenset(left[0] for left, _ in _WRAPPERS)
_NOUN = (r"(?:page|section|sections|file|content|contents|document|text|list|article|body|"
         r"table|frontmatter|front\s+matter|lines|entries|items|links|paragraphs?|code|notes?|"
         r"page\s+text)")
_SUBJECT = (rf"(?:(?:the\s+)?(?:rest|remainder)(?:\s+of\s+(?:the\s+|this\s+)?{_NOUN})?"
            rf"|(?:all\s+|the\s+)?(?:existing|remaining|previous|original|unchanged|earlier|old)"
            rf"\s+{_NOUN}|everything\s+else)")
_LEFT_OUT = (r"(?:unchanged|omitted|elided|as\s+is|as\s+before|(?:the\s+)?same(?:\s+as\s+before)?"
             r"|not\s+shown|for\s+brevity|truncated|kept)")
_PREDICATE = (rf"(?:\s+(?:is|are|remains?|stays?|here|below|above|follows|continues|"
              rf"{_LEFT_OUT})\b)*")
_PLACEHOLDER = re.compile(  # "existing content (here)", "section unchanged", "// unchanged"
    rf"(?:{_SUBJECT}{_PREDICATE}|{_NOUN}(?:\s+(?:is|are|remains?|stays?))?(?:\s+{_LEFT_OUT})+"
    r"|unchanged|omitted|snip|same\s+as\s+before|no\s+changes?(?:\s+(?:below|above|here))?)"
    r"[.:;]?", re.IGNORECASE)
_FENCE_LINE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# The words a placeholder is made of: _PLACEHOLDER's own (each with and without a last "s", for
# its `s?`). Wrappers and ellipses hold no letter or digit, so an ASCII line with any other word
# (or a digit) is text: one C-level match tells it, failing at the first other word.
_PLACEHOLDER_WORDS = sorted({w for word in re.findall(r"[a-z]+", _PLACEHOLDER.pattern)
                             for w in (word, word.removesuffix("s")) if w}, key=len, reverse=True)
_ONLY_PLACEHOLDER_WORDS = re.compile(
    r"[^a-z0-9]*(?:(?:" + "|".join(_PLACEHOLDER_WORDS) + r")(?![a-z0-9])[^a-z0-9]*)*")


# The same test over a whole lower-cased text at once (with a "\n" put first): each line of
# only such words and marks, blank lines left out. A prose line fails at its first other word,
# inside one C-level search that jumps from "\n" to "\n".
_PLACEHOLDER_WORD_LINES = re.compile(
    r"\n(?![ \t]*(?:\n|\Z))[^a-z0-9\n]*(?:" + trie_pattern(_PLACEHOLDER_WORDS)
    + r"(?![a-z0-9])[^a-z0-9\n]*)*(?![^\n])")
# Characters str.splitlines cuts an ASCII text at besides "\n" (that search reads "\n" only),
# each looked for with a find (a regex over a character set tests every offset, ~8x slower).
_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e")


def _placeholder_core(line: str) -> tuple[str, bool]:
    """The line without ellipses and comment/bracket wrappers, and whether it had an ellipsis."""
    s, dots = line.strip(), False
    while s:
        before = s
        if s[0] in ".…" and (m := _ELLIPSIS.match(s)) is not None:
            s, dots = s[m.end():].strip(), True
        for end in ("...", "…"):
            if s.endswith(end):
                s, dots = s[: -len(end)].rstrip(" ."), True
        if s and s[0] in _WRAP_FIRST:  # most lines start with a letter: skip the table
            for left, right in _WRAPPERS:
                if s.startswith(left) and s.endswith(right) and len(s) >= len(left) + len(right):
                    s = s[len(left): len(s) - len(right)].strip()
        if s == before:
            break
    return s, dots


def is_placeholder(line: str) -> bool:
    """A line that stands for left-out text rather than being text ("...", "[...]",
    "<!-- rest of the page unchanged -->"). An ellipsis inside a sentence is text."""
    if len(line) > 120 or line.isascii() and not _ONLY_PLACEHOLDER_WORDS.fullmatch(line.lower()):
        return False  # prose, cheaply
    if not line.strip() or len(line.split()) > 14:
        return False
    core, dots = _placeholder_core(line)
    if not core.strip("-*+># "):  # only an ellipsis, maybe as a list item or quote
        return dots
    return len(core.split()) <= 10 and _PLACEHOLDER.fullmatch(core) is not None


def find_placeholder(text: str, known: str = "") -> tuple[int, str] | None:
    """(1-based line number, line) of the first placeholder line of `text` that is not a line
    of `known` (the page or the SEARCH it replaces: stripped lines it already had are its
    text), outside code fences; None if there is none. Lines as `str.splitlines` cuts them.

    Run over every line a reply writes, so the common line costs little: fences are looked
    for only in a text that has one, a long line is prose at once, and `known` is read only
    when a placeholder turns up."""
    had: set[str] | None = None
    for number, line in _placeholder_lines(text):
        if had is None:
            had = {x.strip() for x in known.splitlines()}
        if line.strip() not in had:
            return number, line.strip()
    return None


def _placeholder_lines(text: str) -> Iterator[tuple[int, str]]:
    """(1-based line number, line) of each placeholder line of `text`, outside code fences."""
    fences = "```" in text or "~~~" in text
    if not fences and text.isascii() and not any(c in text for c in _OTHER_BREAKS):
        yield from _placeholder_lines_swept(text)
        return
    only_words = _ONLY_PLACEHOLDER_WORDS.fullmatch
    fence = ""
    for i, line in enumerate(text.splitlines(), 1):
        if fences and line[:1] in " `~" and (m := _FENCE_LINE.match(line)) is not None:
            run = m.group(1)
            if not fence:
                fence = run
            elif run[0] == fence[0] and len(run) >= len(fence) and not line.strip()[len(run):]:
                fence = ""
            continue
        if fence or len(line) > 120 or line.count(" ") > 13 and len(line.split()) > 14 \
                or line.isascii() and not only_words(line.lower()):
            continue  # (prose told at once, without a call: is_placeholder's own first tests)
        if is_placeholder(line):
            yield i, line


def _placeholder_lines_swept(text: str) -> Iterator[tuple[int, str]]:
    """_placeholder_lines of an ASCII text with no fence and no line break but "\\n": only the
    lines _PLACEHOLDER_WORD_LINES finds are read."""
    pos, number = 0, 1  # (offsets in `text`; the search's text has one "\n" more, first)
    for m in _PLACEHOLDER_WORD_LINES.finditer("\n" + text.lower()):
        start, end = m.start(), m.end() - 1  # the line: text[start:end]
        number += text.count("\n", pos, start)
        pos = start
        line = text[start:end]
        if len(line) <= 120 and len(line.split()) <= 14 and is_placeholder(line):
            yield number, line


# -- whole-page rewrites -------------------------------------------------------------------------
REWRITE_SHARE = 0.5  # a WRITE that drops at least this share of a page's lines rewrites it
REWRITE_MIN_LINES = 5  # pages shorter than this are too small to call it


def _title(text: str) -> str:
    """The page's frontmatter title, else its first '# ' heading ('' when neither)."""
    from wiki_tui.vault.parse.frontmatter import load_frontmatter, split_frontmatter

    source, _, body_start, _ = split_frontmatter(text)
    data = load_frontmatter(source)[0] if source is not None else {}  # never raises
    title = data.get("title") if isinstance(data, dict) else None
    if isinstance(title, str) and title.strip():
        return title.strip()
    heading = re.search(r"^# +(.+?)\s*$", text[body_start:], re.MULTILINE)
    return heading.group(1) if heading else ""


def rewrite_warning(base: str, proposed: str, path: str = "") -> str | None:
    """What the person must know about a WRITE over an existing page: it changes the page's
    title (another subject), or most of its lines go. None for an ordinary update. A canvas is
    judged by its nodes and edges (re-serialised JSON or moved nodes take nothing away)."""
    from collections import Counter

    if path.lower().endswith(".canvas"):
        from wiki_tui.changes.build.knowledge.canvas import items

        old, new = items(base), items(proposed)
        if old is not None and new is not None:
            total, gone = sum(old.values()), sum((old - new).values())
            if total >= REWRITE_MIN_LINES and gone / total >= REWRITE_SHARE:
                return (f"rewrites the whole canvas: {round(gone / total * 100)} % of its nodes "
                        f"and edges go ({gone} of {total})")
            return None
    old = Counter(map(str.strip, base.splitlines()))
    new = Counter(map(str.strip, proposed.splitlines()))
    old.pop("", None)  # blank lines say nothing about what goes
    total = sum(old.values())
    gone = sum((old - new).values())
    share = gone / total if total else 0.0
    heavy = total >= REWRITE_MIN_LINES and share >= REWRITE_SHARE
    before, after = _title(base), _title(proposed)
    renamed = bool(before and after) and before.casefold() != after.casefold()
    lines_go = f"{round(share * 100)} % of its lines go"
    if renamed and heavy:
        return f"replaces an unrelated page (title {before!r} → {after!r}); {lines_go}"
    if renamed:
        return f"changes the page's title ({before!r} → {after!r})"
    if heavy:
        return f"rewrites the whole page: {lines_go} ({gone} of {total})"
    return None


# -- files `--yes` alone must not apply --------------------------------------------------------

SCHEMA_HOLD = ("it edits AGENTS.md, the vault's schema (the model's instructions): review it, or "
               "pass --allow-schema to apply it with --yes")


def held(changeset, *, allow_schema: bool = False, allow: frozenset[str] = frozenset()) -> list:
    """The files of a changeset that need a person's review and are not rejected: a
    `FileChange.hold` (a rewrite, an unrelated page replaced, the vault's schema unless
    `allow_schema`), or a breach of an invariant the reply did not declare and `allow` (the
    `--allow` codes) does not release. `--yes` refuses them."""
    return [f for f in changeset.files if f.status != REJECTED and (
        (f.hold and not (allow_schema and f.hold == SCHEMA_HOLD)) or _breaches(f, allow))]


def _breaches(f, allow) -> list:
    return [b for b in getattr(f, "breaches", ()) if b.holds and b.code not in allow]


def held_message(files: list, allow: frozenset[str] = frozenset()) -> str:
    """Why `--yes` applied nothing, naming each held file and its reasons."""
    reasons = []
    codes: list[str] = []
    for f in files:
        why = [f.hold] if f.hold else []
        for b in _breaches(f, allow):
            why.append(str(b))
            codes += [b.code] if b.code not in codes else []
        reasons.append(f"{f.path}: {'; '.join(why)}")
    release = (f" If these changes are meant, the reply can declare them ('Intended: <path> — "
               f"why'), or pass --allow {','.join(codes)}." if codes else "")
    return (f"not applied: {len(files)} file(s) need a person's review and --yes alone does "
            f"not apply them ({'; '.join(reasons)}). Review and accept them in the app, or run "
            f"the command on a terminal without --yes and answer the prompt; the vault is "
            f"untouched.{release}")
