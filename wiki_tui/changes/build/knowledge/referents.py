"""A name put out of a sentence for a description of someone ("Mudge received £2,500" → "The
astronomer received £2,500"), read for the knowledge diff.

A model tidying a page writes descriptions for names to vary its prose. That is no change when
the description plainly means the same one: the page's own subject ("Harrison" → "the
clockmaker" on Harrison's page), or a description the page already gives that name ("Thomas
Mudge, Harrison's rival" lets "Mudge received" → "Harrison's rival received" pass). Otherwise
the claim has lost whom it is about, or now reads as another's ("his rival received"). A
pronoun ("Mudge" → "He") is left to the reader, as the other name readings leave it.
"""

from __future__ import annotations

import os
import re

from wiki_tui.changes.build.knowledge.claim_words import line_pairs

_DETERMINERS = frozenset("the his her their its this that a an our".split())
_NAME = re.compile(r"[A-Z][\w'’-]*(?: [A-Z][\w'’-]*){0,2}")
_DESCRIPTION = re.compile(r"(?:(?:the|his|her|their|its|this|that|a|an|our)|[A-Z][\w-]*['’]s)"
                          r"(?: [a-z][\w-]*){1,3}", re.IGNORECASE)
_WORD = re.compile(r"[\w']+")
_FIELD = re.compile(r"^(?:title|aliases)[ \t]*:(.*)$", re.M | re.IGNORECASE)


def _apart(old: str, new: str) -> tuple[str, str] | None:
    """(old span, new span): what differs between two lines, widened to whole words."""
    p = len(os.path.commonprefix((old, new)))
    while p and (old[p - 1].isalnum() or old[p - 1] in "_'’"):
        p -= 1
    if not old[p:p + 1].isupper():
        return None  # what differs starts with no capital: no name went
    q = len(os.path.commonprefix((old[p:][::-1], new[p:][::-1])))
    while q and (old[len(old) - q].isalnum() or old[len(old) - q] in "_'’"):
        q -= 1
    return old[p:len(old) - q].strip(), new[p:len(new) - q].strip()


def subject_words(path: str, base: str, head_end: int) -> set[str]:
    """The words naming a page's own subject: its file name, title and aliases."""
    words = set(_WORD.findall(path.rsplit("/", 1)[-1].rsplit(".", 1)[0]))
    for m in _FIELD.finditer(base[:head_end]):
        words.update(_WORD.findall(m.group(1)))
    return {w for w in words if w[:1].isupper()}


def names_described(gone: str, came: str, limit: int = 50) -> list[tuple[str, str]]:
    """(name, description) for each removed line whose added counterpart differs only in a
    name (one to three capitalised words) put out for a description ("the astronomer", "his
    rival", "Harrison's rival"). Whether the name is one the page uses, and whether the
    description already means it, is the caller's to ask (`described_elsewhere`)."""
    out = []
    for old, candidates in line_pairs(gone, came, limit):
        for new in candidates:
            spans = _apart(old, new)
            if spans is None:
                continue
            a, b = spans
            if not (a and b and _NAME.fullmatch(a) and _DESCRIPTION.fullmatch(b)):
                continue
            first = b.split()[0]
            if first[0].isupper() and first.lower() not in _DETERMINERS and \
                    first.rstrip("s").rstrip("'’") in a:
                continue  # "Mudge" → "Mudge's son": another's, but named; the name stays
            out.append((a, b))
            break
    return out


def described_elsewhere(base: str, name: str, description: str) -> bool:
    """Whether the page already puts `description`'s last word (its noun: "rival") in a line
    beside `name`'s last word: it has said whom the description means."""
    noun = re.compile(rf"\b{re.escape(description.split()[-1])}\b", re.IGNORECASE)
    last = re.compile(rf"\b{re.escape(name.split()[-1])}\b")
    return any(noun.search(line) and last.search(line) for line in base.splitlines())
