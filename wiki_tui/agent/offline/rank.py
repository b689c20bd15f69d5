"""The best sentences of the wiki for a question: what the offline engine answers with.

    ranking = best_sentences(vault, "Who made K1 and when?")
    ranking.answered        # False: the wiki holds no sentence that answers enough of it
    ranking.sentences       # [Ranked(path, title, sentence, score, cover), ...] best first

How: the vault's full-text search (FTS5, BM25 over pages) picks the candidate pages; their
sentences are ranked by BM25 over sentences, the page's own name and the sentence's heading
counting a little (a sentence on the page "Nevil Maskelyne" is about him even when it says
"he"); then the question's kind weighs in ("who" wants a person, "when" a date or a year,
"how much" an amount, "how long" a duration, "where" a place, "what is X" the opening
sentence of X's page), sentences naming the question's
names (K1, Board of Longitude) gain, and questions, fragments and table rows without the
question's names lose. `cover` is the share of the question's weight (IDF) a sentence and its
context hold; below COVER_MIN the best sentence answers too little, and the wiki is said to
hold no answer (calibrated on benchmarks/data/offline_questions.json). Forms (tables, slides)
and lint suggestions can rank with the same function.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from wiki_tui.agent.tasks.backlinks import special_files
from wiki_tui.agent.offline.sentences import Sentence, plain, sentences, stem, words

COVER_MIN = 0.5  # least share of the question's weight the best sentence must hold
_PAGES = 12  # candidate pages from the full-text search
_TERMS = 40  # words of the question the search is given, at most
_CONTEXT = 0.5  # a question word found only in the page name or heading counts this much
_SUBJECT = 1.3  # a sentence on the page the question names (its title or an alias)
_K1, _B = 1.2, 0.75  # BM25
_STOP = frozenset(stem(w) for w in """a an the of in on at to for from by with and or but as is
are was were be been being it its this that these those there their them they he she his her
him who whom whose what which when where why how did do does done has have had not no yes
can could would should will shall may might must much many long about also than then into
onto over under after before between during any some all each every other such very just
one ever only more most own same so too up out off tell me know anything something""".split())
_YEAR = re.compile(r"\b(?:1[0-9]{3}|20[0-9]{2})(?:s|-\d{2,4})?\b")
_MONTH = re.compile(r"\b(?:January|February|March|April|May|June|July|August|September|October|"
                    r"November|December)\b")
_AMOUNT = re.compile(r"[£$€¥]\s?\d|\b\d[\d,.]*\s*(?:pounds?|guineas?|dollars?|euros?|"
                     r"shillings?|francs?|livres?|ducats?|crowns?)\b", re.I)
_DURATION = re.compile(r"\b(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|half an?|"
                       r"several|nearly \w+)\s+(?:seconds?|minutes?|hours?|days?|weeks?|months?|"
                       r"years?|decades?|centur(?:y|ies))\b", re.I)
_NUMBER = re.compile(r"\b\d[\d,.]*\b|\b(?:two|three|four|five|six|seven|eight|nine|ten|"
                     r"eleven|twelve|twenty|hundred|thousand)\b", re.I)
_PLACE = re.compile(r"\b(?:in|at|to|on|near|from|off|aboard)\s+(?:the\s+)?(?:\[\[[^\]]+\]\]|"
                    r"[A-Z][\w'’-]+)")
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-zà-ÿ'’]+(?:\s+(?:of|de|van|von|la|le)?\s*"
                   r"[A-Z][a-zà-ÿ'’]+)+")
_PERSON_WORDS = re.compile(r"\b(?:by|made|built|founded|wrote|invented|designed|commanded|"
                           r"copied|published|directed)\b", re.I)


@dataclass(frozen=True)
class Ranked:
    path: str  # the page the sentence is on
    title: str
    sentence: Sentence
    score: float
    cover: float  # share of the question's weight it holds (0..1)
    kind_fits: bool = False  # it has what the question's kind asks for (a year for "when")


@dataclass
class Ranking:
    question: str
    kinds: tuple[str, ...]  # "who", "when", "amount", "duration", "number", "where", "define"
    sentences: list[Ranked] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        return bool(self.sentences) and self.sentences[0].cover >= COVER_MIN


_KINDS = (  # (kind, what in the question asks for it)
    ("who", r"\bwho(?:m|se)?\b"),
    ("when", r"\bwhen\b|\bwhat (?:year|date|century)\b|\bin which year\b"),
    ("amount", r"\bhow much\b|\bcost\b|\bprice\b|\breward\b|\bpaid\b|\bpay\b"),
    ("duration", r"\bhow long\b"),
    ("number", r"\bhow many\b"),
    ("where", r"\bwhere\b|\bwhich (?:place|city|country|port|island)\b"),
)
_DEFINE = re.compile(r"\s*(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?"
                     r"[\w'’ -]+\??\s*$")


def question_kinds(question: str) -> tuple[str, ...]:
    """What the question asks for, from its wording ("Who made K1 and when?" -> who, when)."""
    q = question.casefold()
    kinds = [kind for kind, pattern in _KINDS if re.search(pattern, q)]
    if _DEFINE.match(q) and not kinds[1:]:
        kinds = ["define"]  # "What is dead reckoning?": the page about it, its opening sentence
    return tuple(kinds)


def question_names(question: str) -> list[str]:
    """The names a question mentions: capitalised words past its first, and words with
    digits ("K1", "H4"), as stemmed words."""
    found = []
    for i, m in enumerate(re.finditer(r"[^\W_]+(?:['’][^\W_]+)*", question)):
        word = m.group(0)
        if (i > 0 and word[0].isupper()) or (any(c.isdigit() for c in word)
                                             and any(c.isalpha() for c in word)):
            key = stem(word)
            if key not in _STOP and key not in found:
                found.append(key)
    return found


def fits(kind: str, text: str, people: set[str]) -> bool:
    """Does the sentence (markdown) hold what a question of this kind asks for? ("define" is
    judged by where the sentence stands: the opening of the page the question names.)"""
    if kind == "when":
        return bool(_YEAR.search(text) or _MONTH.search(text))
    if kind == "amount":
        return bool(_AMOUNT.search(text))
    if kind == "duration":
        return bool(_DURATION.search(text))
    if kind == "number":
        return bool(_NUMBER.search(text))
    if kind == "where":
        return bool(_PLACE.search(text))
    if kind == "who":
        shown = plain(text)
        if any(name in shown for name in people):
            return True
        return bool(_NAME.search(shown))
    return False


def best_sentences(vault: Any, question: str, limit: int = 8) -> Ranking:
    """The wiki's sentences that best answer `question`, best first (see the module doc)."""
    kinds = question_kinds(question)
    ranking = Ranking(question, kinds)
    asked = [w for w in words(question) if w not in _STOP and len(w) > 1]
    if not asked:
        return ranking
    names = question_names(question)
    pages = _candidate_pages(vault, question, asked)
    if not pages:
        return ranking
    people = _people(vault) if "who" in kinds else set()  # a pass over every page
    said = set(words(question))
    units: list[tuple[str, str, Sentence, list[str], set[str]]] = []
    subjects = set()  # pages the question is about: one of their names is wholly in it
    openers = set()  # (path, line) of those pages' opening sentences
    for path, title, text, context, names_of_page in pages:
        if any(n and n <= said for n in names_of_page):
            subjects.add(path)
        for n, sentence in enumerate(sentences(text)):
            if n == 0 and path in subjects:
                openers.add((path, sentence.line))
            units.append((path, title, sentence, words(plain(sentence.text)),
                          context | set(words(sentence.heading))))
    if not units:
        return ranking
    counts = Counter(w for *_, ws, _ctx in units for w in set(ws))
    total = len(units)
    idf = {w: math.log(1 + (total - counts.get(w, 0) + 0.5) / (counts.get(w, 0) + 0.5))
           for w in set(asked)}
    weight = sum(idf[w] for w in set(asked))
    average = sum(len(ws) for *_, ws, _ctx in units) / total
    ranked = []
    for path, title, sentence, ws, context in units:
        tf = Counter(ws)
        score = held = 0.0
        for w in set(asked):
            if tf[w]:
                score += idf[w] * tf[w] * (_K1 + 1) / (
                    tf[w] + _K1 * (1 - _B + _B * len(ws) / average))
                held += idf[w]
            elif w in context:
                score += _CONTEXT * idf[w]
                held += _CONTEXT * idf[w]
        if score <= 0:
            continue
        cover = held / weight if weight else 0.0
        if kinds == ("define",):
            kind_fits = (path, sentence.line) in openers
        else:
            kind_fits = all(fits(k, sentence.text, people) for k in kinds) if kinds else False
        score *= _shape(sentence, ws, names, context, kinds, kind_fits)
        if path in subjects:
            score *= _SUBJECT
        ranked.append(Ranked(path, title, sentence, score, cover, kind_fits))
    # a sentence that holds too little of the question never leads one that holds enough
    ranked.sort(key=lambda r: (r.cover < COVER_MIN, -r.score, r.path, r.sentence.line))
    ranking.sentences = _distinct(ranked)[:limit]
    return ranking


def _shape(sentence: Sentence, ws: list[str], names: list[str], context: set[str],
           kinds: tuple[str, ...], kind_fits: bool) -> float:
    """How much the sentence's form and kind add to or take from its word score."""
    factor = 1.0
    if kinds:
        factor *= 1.6 if kind_fits else 0.7
    if names:
        said = sum(1 for n in names if n in ws)
        near = sum(1 for n in names if n not in ws and n in context)
        factor *= 1 + 0.5 * (said + 0.5 * near) / len(names)
    text = sentence.text.rstrip()
    if text.endswith("?"):
        factor *= 0.3  # an open question names the subject but answers nothing
    if len(ws) < 5:
        factor *= 0.6
    if text.endswith(":"):
        factor *= 0.5  # it introduces what follows
    return factor


def _distinct(ranked: list[Ranked]) -> list[Ranked]:
    """One of each sentence (a claim repeated on two pages is quoted once)."""
    seen, out = set(), []
    for r in ranked:
        key = " ".join(words(plain(r.sentence.text)))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _candidate_pages(vault: Any, question: str, asked: list[str]
                     ) -> list[tuple[str, str, str, set[str], list[set[str]]]]:
    """(path, title, text, context words, each name's words) of the pages the full-text
    search finds for the question's words; listings (index.md, log.md) and the schema are no
    answers."""
    raw = [w for w in re.findall(r"[^\W_]+", question)
           if stem(w) not in _STOP and len(w) > 1]
    query = " OR ".join(list(dict.fromkeys(w.casefold() for w in raw))[:_TERMS])
    if not query:
        return []
    out = []
    special = special_files(vault)
    for hit in vault.search(query, limit=_PAGES + len(special)):
        if hit.path in special or not hit.path.endswith(".md"):
            continue
        try:
            text = vault.read_text(hit.path)
        except Exception:
            continue
        page = vault.pages.get(hit.path) if hasattr(vault.pages, "get") else None
        names = [hit.title, hit.path.rsplit("/", 1)[-1][:-3],
                 *map(str, getattr(page, "aliases", None) or [])]
        name_words = [set(words(name or "")) - _STOP for name in names]
        context = set().union(*name_words)
        out.append((hit.path, hit.title, text, context, name_words))
        if len(out) >= _PAGES:
            break
    return out


def _people(vault: Any) -> set[str]:
    """The names (titles, aliases) of the pages about people (tagged or typed `person`)."""
    from wiki_tui.agent.context.pageinfo import page_infos

    names = set()
    for info in page_infos(vault):
        tags = {str(t).casefold() for t in (info.tags or ())}
        if "person" in tags or str(info.type or "").casefold() == "person":
            names.update(n for n in (info.title, info.name, *map(str, info.aliases)) if n)
    return names
