"""The names a source gives: people, places, works, institutions and defined terms, found
without a language model, and conservatively.

    for name in find_names(source_text, known=existing_names):
        name.name, name.kind, name.sentences, name.definition

What counts as a name:
- a run of two or more capitalised words ("William Wales", "Board of Longitude", "HMS
  Resolution"; "of", "de", "le" ... may join them), a leading "The" dropped;
- a term a sentence defines: "A detached escapement is a ..." (lower case: a concept);
- a heading of the source that is such a name.
Junk is kept out: single capitalised words (sentence starts, "London", "July"), months and
days, runs in shouting capitals, generic headings ("Introduction", "Why it matters"), and names
of existing pages (`known`: those pages are updated instead). A name needs two mentions, a
definition, a heading of its own, or the shape of a person's name (two or three words, not at
a sentence start); a surname alone ("Wales") counts for the one full name it ends.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from wiki_tui.agent.offline.sentences import Sentence, plain, sentences

MAX_NAMES = 12  # new pages one source may propose
_LOOKED_AT = 300  # candidate names judged at most (the most mentioned)
_KEPT = 12  # sentences kept of a name's mentions
_JOIN = {"of", "de", "des", "du", "la", "le", "van", "von", "der", "den", "da", "di", "del",
         "y", "and", "the", "on", "upon"}
_FUNCTION = {"the", "a", "an", "in", "on", "at", "after", "before", "from", "this", "that",
             "these", "those", "his", "her", "its", "their", "our", "my", "your", "over",
             "under", "when", "while", "although", "though", "by", "for", "with", "without",
             "as", "if", "but", "and", "or", "so", "then", "there", "here", "it", "he", "she",
             "they", "we", "i", "you", "one", "some", "many", "most", "all", "each", "every",
             "both", "no", "not", "only", "also", "later", "early", "since", "until", "during",
             "between", "among", "into", "onto", "upon", "what", "which", "who", "why", "how",
             "where", "once", "even", "yet", "still", "such", "other", "another", "several",
             "note", "see", "cf", "unlike", "like", "despite", "because", "about", "around"}
_MONTHS_DAYS = {"january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december", "monday", "tuesday",
                "wednesday", "thursday", "friday", "saturday", "sunday"}
_GENERIC_HEADINGS = {"introduction", "summary", "conclusion", "conclusions", "background",
                     "references", "notes", "overview", "history", "results", "discussion",
                     "abstract", "contents", "appendix", "acknowledgements",
                     "acknowledgments", "methods", "method", "key points", "see also",
                     "further reading", "sources", "bibliography", "preface", "foreword",
                     "why it matters", "context", "outline", "table of contents", "glossary",
                     "index", "timeline", "images", "data", "details", "example", "examples"}
_ROLES = {"astronomer", "watchmaker", "clockmaker", "maker", "captain", "sir", "king", "queen",
          "lord", "lady", "dr", "mr", "mrs", "ms", "professor", "commander", "navigator",
          "son", "daughter", "wife", "widow", "father", "mother", "brother", "sister",
          "admiral", "lieutenant", "engineer", "scientist", "mathematician", "writer",
          "author", "painter", "poet", "inventor", "merchant", "president", "minister",
          "bishop", "prince", "princess", "duke", "earl", "emperor", "general", "colonel",
          "physician", "philosopher", "historian", "instrument-maker", "craftsman", "pupil",
          "rival", "friend", "apprentice", "founder", "director"}
_PLACE_WORDS = {"island", "islands", "isles", "isle", "sea", "ocean", "river", "bay", "cape",
                "port", "mount", "mountains", "lake", "strait", "channel", "harbour",
                "harbor", "city", "county", "gulf", "coast", "peninsula", "valley", "street",
                "square", "indies", "land", "kingdom", "republic", "empire"}
_INSTITUTION_WORDS = {"board", "society", "company", "observatory", "academy", "university",
                      "office", "committee", "commission", "commissioners", "parliament",
                      "navy", "admiralty", "college", "institute", "museum", "library",
                      "bureau", "council", "court", "church", "school", "bank", "association",
                      "department", "ministry", "corporation", "foundation"}
_WORK_WORDS = {"act", "treaty", "almanac", "guide", "journal", "book", "atlas", "tables",
               "gazette", "review", "transactions", "history", "manual", "letters", "report",
               "papers", "dictionary", "encyclopedia", "encyclopaedia"}
_SHIPS = {"hms", "hmb", "uss", "ss", "rms", "hmy"}
_WORD = r"[A-Z][\w'’-]*"
_RUN = re.compile(rf"{_WORD}(?:\s+(?:(?:{'|'.join(sorted(_JOIN))})\s+)*{_WORD})*")
_DEFINED = re.compile(r"^(?:The |An? )?(?P<term>[A-Za-z][\w'’-]*(?: [\w'’-]+){0,4}) "
                      r"(?:is|are|was|were) (?:a|an|the) (?P<what>[^.;:]{3,160})")
_AGENT_VERBS = ("designed|invented|wrote|led|built|made|painted|composed|discovered|founded|"
                "married|died|was born|commanded|sailed|travelled|traveled|studied|taught|"
                "argued|believed")
_PRONOUN_AFTER = re.compile(r"\b(?:he|his|him|she|her)\b", re.I)


@dataclass
class Name:
    name: str
    kind: str  # "person" | "place" | "institution" | "work" | "ship" | "concept" | "name"
    sentences: list[Sentence] = field(default_factory=list)  # where the source mentions it
    definition: str = ""  # the sentence defining it, if one does
    heading: bool = False  # the source has a heading of this name
    mentions: int = 0


def find_names(text: str, known: set[str] = frozenset(), title: str = "") -> list[Name]:
    """The names worth a page of their own, most mentioned first (see the module doc).
    `known`: casefolded names of existing pages (titles, aliases, file names)."""
    units = sentences(text)
    headings = {s.heading for s in units if s.heading}
    headings |= set(re.findall(r"(?m)^#{1,6}\s+(.+?)\s*#*\s*$", text))
    found: dict[str, Name] = {}
    counts: Counter[str] = Counter()
    shapes: dict[str, int] = Counter()  # mentions shaped like a person's name
    italic = {m.strip() for m in re.findall(r"(?<![*\w])[*_]([A-Z][^*_\n]{2,80})[*_](?![*\w])",
                                            text)}
    shown_units = [(unit, plain(unit.text)) for unit in units]
    for unit, shown in shown_units:
        for name, at_start in _runs(shown):
            counts[name] += 1
            if not at_start and 2 <= len(name.split()) <= 3 and "'" not in name:
                shapes[name] += 1
            entry = found.setdefault(name, Name(name, ""))
            _keep(entry, unit)
        m = _DEFINED.match(shown)
        term = m.group("term").strip() if m else ""
        if term and _defined_term(term):
            key = term if term[0].isupper() and " " in term else term[0].upper() + term[1:]
            entry = found.setdefault(key, Name(key, ""))
            entry.definition = entry.definition or unit.text
            _keep(entry, unit)
            counts[key] += 1
    for heading in headings:
        key = _strip_leading(heading.strip())
        if key in found:
            found[key].heading = True
    _fold_surnames(found, counts, shown_units)
    title_key = title.casefold()
    inside_known = _runs_of(known)
    out = []
    # most mentioned first; a bounded number looked at, whatever the size of the source
    ranked = sorted(found.items(), key=lambda kv: (-counts[kv[0]], -kv[1].heading, kv[0]))
    for key, entry in ranked[:_LOOKED_AT]:
        folded = key.casefold()
        if folded in known or folded == title_key or folded in inside_known \
                or _holds_known(folded, known):
            continue
        if folded in _GENERIC_HEADINGS or not _good(key):
            continue
        entry.mentions = counts[key]
        if not (entry.mentions >= 2 or entry.definition or entry.heading or shapes[key]):
            continue
        entry.kind = _kind(entry, " ".join(plain(u.text) for u in entry.sentences), italic)
        if entry.kind == "name" and entry.mentions < 2 and not (entry.definition
                                                                or entry.heading):
            continue  # named once, and nothing says what it is
        out.append(entry)
        if len(out) == MAX_NAMES:
            break
    return out


def _runs(shown: str) -> list[tuple[str, bool]]:
    """(name, at a sentence start) for each run of capitalised words of two words or more."""
    out = []
    for m in _RUN.finditer(shown):
        words = m.group(0).split()
        at_start = m.start() == 0 or bool(re.search(r"[.!?:;]\s*[\"'“(]*$", shown[:m.start()]))
        while words and (words[0].casefold() in _FUNCTION | _MONTHS_DAYS
                         or words[0].casefold() in _JOIN):
            words = words[1:]
            at_start = False  # "The Board of Longitude": the name starts after "The"
        while words and words[-1].casefold() in _JOIN:
            words = words[:-1]
        words = [w.rstrip("'’") for w in words]
        if words and words[-1].endswith(("'s", "’s")):
            words[-1] = words[-1][:-2]
        caps = [w for w in words if w[0].isupper()]
        if len(caps) < 2:
            continue
        if any(w.isupper() and len(w) > 4 for w in words):
            continue  # a line in shouting capitals
        if any(w.casefold() in _MONTHS_DAYS for w in caps):
            continue
        if " and " in f" {' '.join(words)} ":
            for part in " ".join(words).split(" and "):  # "Resolution and Adventure"
                if len([w for w in part.split() if w[0].isupper()]) >= 2:
                    out.append((part.strip(), at_start))
            continue
        out.append((" ".join(words), at_start))
    return out


def _strip_leading(text: str) -> str:
    words = text.split()
    while words and words[0].casefold() in _FUNCTION:
        words = words[1:]
    return " ".join(words)


def _good(name: str) -> bool:
    words = name.split()
    if not 2 <= len(words) <= 6 and not (len(words) == 1 and len(name) >= 4):
        return False
    if len(name) > 60 or any(c in name for c in "[]|#^:*\"<>\\/?"):
        return False
    return not all(w.casefold() in _FUNCTION | _JOIN for w in words)


def _defined_term(term: str) -> bool:
    """Is the subject of "X is a ..." a term? Lower-case words ("detached escapement") or a
    capitalised name, never a pronoun, a possessive or a mix ("Maskelyne's great work")."""
    words = term.split()
    if words[0].casefold() in _FUNCTION or len(term) < 4 or "," in term:
        return False
    if any(w.endswith(("'s", "’s")) for w in words):
        return False
    rest = words[1:]
    return all(w[0].islower() for w in rest) if words[0][0].islower() or not rest else \
        all(w[0].isupper() or w in _JOIN for w in rest) or all(w[0].islower() for w in rest)


def _holds_known(folded: str, known: set[str]) -> bool:
    """A run that holds an existing page's name ("English Nautical Almanac") is that page."""
    words = folded.split()
    for n in range(len(words) - 1, 1, -1):
        for i in range(len(words) - n + 1):
            if " ".join(words[i:i + n]) in known:
                return True
    return False


def _runs_of(known: set[str], longest: int = 8) -> set[str]:
    """Every run of two or more words inside an existing page's longer name: "royal
    observatory" of "royal observatory greenwich" is that page, not a new one."""
    runs = set()
    for name in known:
        words = name.split()
        if not 2 < len(words) <= longest:
            continue
        for n in range(2, len(words)):
            for i in range(len(words) - n + 1):
                runs.add(" ".join(words[i:i + n]))
    return runs


def _fold_surnames(found: dict[str, Name], counts: Counter,
                   shown_units: list[tuple[Sentence, str]]) -> None:
    """"Wales" alone counts as a mention of "William Wales" when one full name ends so."""
    fulls = sorted((k for k in found if len(k.split()) >= 2 and k.split()[0][0].isupper()),
                   key=lambda k: -counts[k])[:_LOOKED_AT]
    tails = Counter(k.split()[-1] for k in found if len(k.split()) >= 2)
    wanted = {k.split()[-1]: k for k in fulls if len(k.split()[-1]) >= 3
              and tails[k.split()[-1]] == 1}  # two people share a surname: it names neither
    if not wanted:
        return
    word = re.compile(r"(?<![\w-])([A-Z][\w'’-]*?)(?:['’]s)?(?![\w'’-])")
    for unit, shown in shown_units:
        for tail in {m.group(1) for m in word.finditer(shown)} & wanted.keys():
            full = wanted[tail]
            if full not in shown:
                counts[full] += 1
                _keep(found[full], unit)


def _keep(entry: Name, unit: Sentence) -> None:
    """Note a sentence that mentions the name (the first few are quoted on its page)."""
    if len(entry.sentences) < _KEPT and unit not in entry.sentences[-2:]:
        entry.sentences.append(unit)


def _kind(entry: Name, text: str, italic: set[str]) -> str:
    """The kind of a name, from its words and the sentences that mention it (`text`)."""
    words = [w.casefold() for w in entry.name.split()]
    if entry.definition and not entry.name[0].isupper() or (
            entry.definition and entry.name.split()[0][0].isupper()
            and all(w[0].islower() for w in entry.name.split()[1:])):
        return "concept"
    if words[0] in _SHIPS:
        return "ship"
    if entry.name in italic or any(w in _WORK_WORDS for w in words[-1:]):
        return "work"
    if any(w in _INSTITUTION_WORDS for w in words):
        return "institution"
    if any(w in _PLACE_WORDS for w in words) or _after_place_word(entry.name, text):
        return "place"
    if all(w in _ROLES | {"royal", "chief", "high", "general"} for w in words):
        return "name"  # an office ("Astronomer Royal"), not a person
    if 2 <= len(words) <= 4 and (words[0] in _ROLES or _looks_like_person(entry, text)):
        return "person"
    return "name"


def _after_place_word(name: str, text: str) -> bool:
    """Most mentions follow "in", "at", "near", "to" or "from": a place ("born in Barrow")."""
    before = re.findall(rf"(\w+)\s+{re.escape(name)}", text)
    places = sum(1 for w in before if w.casefold() in {"in", "at", "near", "to", "from"})
    return bool(before) and places * 2 > len(before)


def _looks_like_person(entry: Name, text: str) -> bool:
    name = re.escape(entry.name)
    before = re.findall(rf"([\w-]+)\s+(?:([\w-]+)\s+)?{name}", text)
    if any(w.casefold() in _ROLES | {"by"} for pair in before for w in pair):
        return True  # "the astronomer William Wales", "made by John Arnold"
    after = re.findall(rf"{name},\s+((?:[\w-]+\s+){{0,3}}[\w-]+)", text)
    if any(w.casefold() in _ROLES for words in after for w in words.split()):
        return True  # "Pierre Le Roy, son of ...", "William Wales, the astronomer"
    if re.search(rf"{name}\s*\((?:c\.\s*)?1?\d{{3}}\s*[-–]", text):
        return True  # "Pierre Le Roy (1717-1785)"
    if re.search(rf"{name}\s+(?:{_AGENT_VERBS})\b", text):
        return True  # "Thomas Bouch designed it"
    return any(_PRONOUN_AFTER.search(plain(s.text)) for s in entry.sentences[:3])
