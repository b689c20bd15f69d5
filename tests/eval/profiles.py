'''Scripted replies for the eval suite (v1), one list per task, written the way models reply.

GOOD: a capable model: the edit protocol kept, contradictions flagged on both pages, the
superseded claim struck through (its new citation declared: `Intended: ...`), answers cited,
unanswerable questions declined.
SLOPPY: a small model misbehaving the way tests/corpus records real ones: a ```markdown fence
around a page, a path without its folder, a reply in another edit format, a placeholder for
"the rest of the page", prose where blocks were due, decorated markers, `RENAME a to b`, a
<think> preamble, a SEARCH that does not match; and on knowledge: a winner picked silently, an
invented answer, a false contradiction.
'''

from __future__ import annotations

from tests.support.llm_server import Reply

GAZ = "[[Harbour Gazette Profile]]"


def _reply(text: str) -> Reply:
    # fixed usage: the scorecard's token counts do not depend on the prompt's exact size
    return Reply(text, chunk_size=64, usage={"prompt_tokens": 1000,
                                             "completion_tokens": len(text) // 4,
                                             "total_tokens": 1000 + len(text) // 4})


def replies(profile: dict[str, list[str]], tasks: list[str]) -> list[Reply]:
    return [_reply(text) for name in tasks for text in profile[name]]


SURVEY_PAGE = f"""---
title: 1902 Engineering Survey
type: source
summary: "A survey of the Tessaly Bridge made in August 1902."
aliases: []
tags: [survey]
sources: [raw/1902-engineering-survey.md]
---
# 1902 Engineering Survey

From `raw/1902-engineering-survey.md`.

## Summary

The survey party inspected the [[Tessaly Bridge]] in August 1902 and found its main span of
212 metres in good order.

## Key claims

- The bridge opened to traffic in 1899.
- The deck hangs from 40 iron cables running to two granite towers, 48 metres above the water.

> [!warning] Contradiction
> - "opened in 1898" ({GAZ})
> - "opened to traffic in 1899" ([[1902 Engineering Survey]])
"""

LETTERS_PAGE = f"""---
title: Letters of Mara Quell
type: source
summary: "Selected letters of Mara Quell and her sister, 1896-1897."
aliases: []
tags: [letters]
sources: [raw/quell-letters.md]
---
# Letters of Mara Quell

From `raw/quell-letters.md`.

## Summary

Letters in which [[Mara Quell]] describes her training and the building of the
[[Tessaly Bridge]].

## Key claims

- Quell trained at the Ostwick Polytechnic under Professor Ilse Varga (letter of 1896).
- Her sister's letters give her year of birth as 1853.
- In 1897 [[Quell Works]] employed 230 men.

> [!warning] Contradiction
> - "born in 1851" ({GAZ})
> - "year of birth as 1853" ([[Letters of Mara Quell]])
"""

INSPECTION_PAGE = """---
title: 2024 Inspection Report
type: source
summary: "The council's 2024 inspection of the Tessaly Bridge, which raised its load limit."
aliases: []
tags: [report]
sources: [raw/2024-inspection-report.md]
---
# 2024 Inspection Report

From `raw/2024-inspection-report.md`.

## Summary

After the deck of the [[Tessaly Bridge]] was strengthened in 2023, the council raised the load
limit from 12 tonnes to 18 tonnes in 2024.

## Key claims

- Load limit raised from 12 tonnes to 18 tonnes in 2024.
- The 1931 steel cables are expected to last until 2060.
"""

FERRY_SOURCE = """---
title: The Ost Ferry Company
type: source
summary: "A 1930 account of the ferry company that crossed the River Ost before the bridge."
aliases: []
tags: [history]
sources: [raw/ost-ferry-company.md]
---
# The Ost Ferry Company

From `raw/ost-ferry-company.md`.

## Summary

The [[Ost Ferry Company]] ran the crossing at Ostwick from 1862 until the [[Tessaly Bridge]]
took its trade; it ceased service in 1899.
"""

FERRY_ENTITY = """---
title: Ost Ferry Company
type: entity
summary: "Ferry company that ran the River Ost crossing at Ostwick from 1862 to 1899."
aliases: []
tags: [firm, ferry]
sources: ["[[The Ost Ferry Company]]"]
---
# Ost Ferry Company

Ran the crossing of the River Ost at Ostwick from 1862 and at its height worked four steam
ferries. Its trade fell away once the [[Tessaly Bridge]] opened, and it ceased service in 1899
([[The Ost Ferry Company]]).
"""

QUELL_WORKS_MERGED = f"""---
title: Quell Works
type: entity
summary: "Ironworks at Ostwick founded by Mara Quell in 1879; builder of the Tessaly Bridge."
aliases: [Quell Engineering]
tags: [firm]
sources: ["{GAZ}"]
---
# Quell Works

An ironworks at Ostwick founded by [[Mara Quell]] in 1879 ({GAZ}). It
built the [[Tessaly Bridge]] between 1894 and 1898.

## Drawing office

From 1886 to 1890 Quell's drawing office traded as Quell Engineering; it employed eleven
draughtsmen ({GAZ}).
"""

LOAD_LINE = f"- The load limit is 12 tonnes, set in 1931 ({GAZ})."
# the superseded limit's citation gives way to the new source's: a good model says so, as the
# edit protocol asks of a figure corrected from a new source (without it, --yes holds the page)
LOAD_INTENT = ("Intended: entities/Tessaly Bridge.md — the 2024 Inspection Report supersedes "
               "the 12-tonne limit, so it is cited in place of the Harbour Gazette")

GOOD: dict[str, list[str]] = {
    "ingest-survey": [f"""I wrote the source page and added the survey's claims to the bridge page; the
opening year disagrees with the Harbour Gazette, so both pages carry the contradiction.

@@@ WRITE sources/1902 Engineering Survey.md
{SURVEY_PAGE}@@@ END

@@@ EDIT entities/Tessaly Bridge.md
@@@ SEARCH
sources: ["{GAZ}"]
@@@ REPLACE
sources: ["{GAZ}", "[[1902 Engineering Survey]]"]
@@@ SEARCH
{LOAD_LINE}
@@@ REPLACE
{LOAD_LINE}
- The deck hangs from 40 iron cables running to two granite towers 48 metres high
  ([[1902 Engineering Survey]]).

> [!warning] Contradiction
> - "opened in 1898" ({GAZ})
> - "opened to traffic in 1899" ([[1902 Engineering Survey]])
@@@ END
"""],
    "ingest-letters": [f"""@@@ WRITE sources/Letters of Mara Quell.md
{LETTERS_PAGE}@@@ END

@@@ EDIT entities/Mara Quell.md
@@@ SEARCH
Her drawing office traded for a time as [[Quell Engineering]].
@@@ REPLACE
Her drawing office traded for a time as [[Quell Engineering]].

She trained at the Ostwick Polytechnic under Professor Ilse Varga ([[Letters of Mara Quell]]).

> [!warning] Contradiction
> - "born in 1851" ({GAZ})
> - "year of birth as 1853" ([[Letters of Mara Quell]])
@@@ END

@@@ EDIT entities/Quell Works.md
@@@ SEARCH
built the [[Tessaly Bridge]] between 1894 and 1898.
@@@ REPLACE
built the [[Tessaly Bridge]] between 1894 and 1898, and in 1897 employed 230 men
([[Letters of Mara Quell]]).
@@@ END
"""],
    "ingest-inspection": [f"""@@@ WRITE sources/2024 Inspection Report.md
{INSPECTION_PAGE}@@@ END

@@@ EDIT entities/Tessaly Bridge.md
@@@ SEARCH
{LOAD_LINE}
@@@ REPLACE
- ~~The load limit is 12 tonnes, set in 1931~~ (superseded in 2024,
  [[2024 Inspection Report]]). The load limit is 18 tonnes since 2024
  ([[2024 Inspection Report]]).
@@@ END

{LOAD_INTENT}
"""],
    "ingest-ferry": [f"""@@@ WRITE sources/The Ost Ferry Company.md
{FERRY_SOURCE}@@@ END

@@@ WRITE entities/Ost Ferry Company.md
{FERRY_ENTITY}@@@ END
"""],
    "query-opened": [f"The Tessaly Bridge opened in 1898 ([[Tessaly Bridge]], {GAZ})."],
    "query-founder": [f"[[Mara Quell]] founded [[Quell Works]] in 1879 ({GAZ})."],
    "query-cables": ["The original iron cables were replaced in 1931 because "
                     "[[Corrosion fatigue|corrosion fatigue]] was found in them "
                     "([[Tessaly Bridge]])."],
    "query-cost": ["The wiki does not say what the Tessaly Bridge cost to build: none of its "
                   "pages mentions a cost or a budget."],
    "query-traffic": ["The wiki holds no information on daily traffic over the "
                      "[[Tessaly Bridge]]."],
    "lint-planted": [f"""FINDING: contradiction | entities/Tessaly Bridge.md | The main span is 212 metres here but 230 metres on Cable-stayed design. | "main span of 212 metres"
FINDING: contradiction | entities/Quell Works.md | Founded in 1879 here, in 1881 on Mara Quell. | "founded by [[Mara Quell]] in 1879"
FINDING: superseded | entities/Tessaly Bridge.md | The 12-tonne limit was raised to 18 tonnes in 2024. | "The load limit is 12 tonnes"
FINDING: missing-page | concepts/Cable-stayed design.md | Caisson foundation is mentioned on three pages but has no page. | "caisson foundation"
FINDING: missing-link | entities/Quell Works.md | Mentions the Tessaly Bridge without linking it. | "built the Tessaly Bridge"

@@@ EDIT entities/Quell Works.md
@@@ SEARCH
built the Tessaly Bridge between 1894 and 1898, including the caisson foundation of each tower.
@@@ REPLACE
built the [[Tessaly Bridge]] between 1894 and 1898, including the caisson foundation of each tower.
@@@ END

@@@ EDIT entities/Tessaly Bridge.md
@@@ SEARCH
{LOAD_LINE}
@@@ REPLACE
- ~~The load limit is 12 tonnes, set in 1931~~ (superseded in 2024,
  [[2024 Inspection Report]]). The load limit is 18 tonnes since 2024.
@@@ END

{LOAD_INTENT}
"""],
    "rename-concept": ["""@@@ RENAME concepts/Cable-stayed design.md -> concepts/Cable-stayed bridge.md
@@@ EDIT concepts/Cable-stayed bridge.md
@@@ SEARCH
title: Cable-stayed design
@@@ REPLACE
title: Cable-stayed bridge
@@@ SEARCH
# Cable-stayed design
@@@ REPLACE
# Cable-stayed bridge
@@@ END
"""],
    "merge-twin": [f"""@@@ WRITE entities/Quell Works.md
{QUELL_WORKS_MERGED}@@@ END
@@@ DELETE entities/Quell Engineering.md
"""],
}

SLOPPY: dict[str, list[str]] = {
    # a page wrapped in a fence, a path without its folder, and the contradiction settled
    # silently (the newer year written over the older)
    "ingest-survey": [f"""Here are the changes:

@@@ WRITE sources/1902 Engineering Survey.md
```markdown
---
title: 1902 Engineering Survey
type: source
summary: "Survey of the bridge in 1902."
sources: [raw/1902-engineering-survey.md]
---
# 1902 Engineering Survey

The [[Tessaly Bridge]] opened in 1899 and has 40 cables.
```
@@@ END

@@@ EDIT Tessaly Bridge.md
@@@ SEARCH
[[Quell Works]]. It opened in 1898 ({GAZ}).
@@@ REPLACE
[[Quell Works]]. It opened in 1899 ([[1902 Engineering Survey]]).
@@@ END
"""],
    # another edit format first (refused, sent back), then one page in the protocol
    "ingest-letters": ["""```json
{"edits": [{"path": "entities/Mara Quell.md", "content": "trained at the Ostwick Polytechnic"}]}
```
""", """@@@ WRITE sources/Letters of Mara Quell.md
---
title: Letters of Mara Quell
type: source
summary: "Letters of Mara Quell."
sources: [raw/quell-letters.md]
---
# Letters of Mara Quell

[[Mara Quell]] trained under Ilse Varga and was born in 1853.
@@@ END
"""],
    # a placeholder for the rest of the page (refused), then the old limit overwritten
    "ingest-inspection": ["""@@@ WRITE entities/Tessaly Bridge.md
---
title: Tessaly Bridge
type: entity
summary: "Road bridge over the River Ost at Ostwick, designed by Mara Quell and opened in 1898."
---
# Tessaly Bridge

... rest of the page unchanged ...

- The load limit is 18 tonnes ([[2024 Inspection Report]]).
@@@ END
""", f"""@@@ EDIT entities/Tessaly Bridge.md
@@@ SEARCH
{LOAD_LINE}
@@@ REPLACE
- The load limit is 18 tonnes ([[2024 Inspection Report]]).
@@@ END

@@@ WRITE sources/2024 Inspection Report.md
{INSPECTION_PAGE}@@@ END
"""],
    # prose where blocks were due, then a page without its summary that nothing links to
    "ingest-ferry": ["I have added the Ost Ferry Company to the wiki. It was founded in 1862 "
                     "and ran four steam ferries until 1899.", """@@@ WRITE entities/Ost Ferry Company.md
---
title: Ost Ferry Company
type: entity
---
# Ost Ferry Company

Founded in 1862; it ran 4 steam ferries until 1899.
@@@ END
"""],
    "query-opened": ["The Tessaly Bridge opened in 1899."],
    "query-founder": ["<think>The page says 1879.</think>\nQuell Works was founded by Mara "
                      "Quell in 1879 [[Quell Works]]."],
    "query-cables": ["The cables were replaced because of rust ([[Tessaly Bridge]])."],
    "query-cost": ["The Tessaly Bridge cost £120,000 to build ([[Tessaly Bridge]])."],
    "query-traffic": ["The wiki does not mention daily traffic."],
    # one finding right, one false contradiction; a SEARCH that does not match, then resent
    # with the page's words but its own indentation
    "lint-planted": ["""1. **FINDING:** contradiction | [[Cable-stayed design]] | 230 metres here, 212 on the bridge page. | "a 230-metre main span"
2. **FINDING:** contradiction | [[Quell Engineering]] | The office traded for only four years. | "from 1886 to 1890"

@@@ EDIT entities/Quell Works.md
@@@ SEARCH
It built the Tessaly Bridge in 1898.
@@@ REPLACE
It built the [[Tessaly Bridge]] in 1898.
@@@ END
""", """@@@ EDIT entities/Quell Works.md
@@@ SEARCH
    built the Tessaly Bridge between 1894 and 1898, including the caisson foundation of each tower.
@@@ REPLACE
    built the [[Tessaly Bridge]] between 1894 and 1898, including the caisson foundation of each tower.
@@@ END
"""],
    # `RENAME a to b`, the title left as it was
    "rename-concept": ["Renaming the page.\n\n@@@ RENAME concepts/Cable-stayed design.md to "
                       "concepts/Cable-stayed bridge.md\n"],
    # decorated markers; the merged page keeps one of the two facts
    "merge-twin": [f"""**@@@ WRITE entities/Quell Works.md**
---
title: Quell Works
type: entity
summary: "Ironworks at Ostwick founded by Mara Quell in 1879; builder of the Tessaly Bridge."
aliases: []
tags: [firm]
sources: ["{GAZ}"]
---
# Quell Works

An ironworks at Ostwick founded by [[Mara Quell]] in 1879 ({GAZ}). It
built the [[Tessaly Bridge]] between 1894 and 1898. It absorbed Quell Engineering (1886-1890).
**@@@ END**

**@@@ DELETE entities/Quell Engineering.md**
"""],
}



def _source_page(title: str, raw: str, summary: str, body: str) -> str:
    return (f'---\ntitle: {title}\ntype: source\nsummary: "{summary}"\naliases: []\ntags: []\n'
            f"sources: [{raw}]\n---\n# {title}\n\nFrom `{raw}`.\n\n{body}")


def _entity_page(title: str, summary: str, body: str) -> str:
    return (f'---\ntitle: {title}\ntype: entity\nsummary: "{summary}"\naliases: []\ntags: []\n'
            f'sources: ["{GAZ}"]\n---\n# {title}\n\n{body}')


WRONG_SURVEY = _source_page("1902 Engineering Survey", "raw/1902-engineering-survey.md",
              "A survey of the Tessaly Bridge made in 1902.",
              "## Key claims\n\n- The deck hangs from 36 iron cables.\n"
              "- Its two towers stand 52 metres above the water.\n")
WRONG_LETTERS = _source_page("Letters of Mara Quell", "raw/quell-letters.md", "Letters of Mara Quell.",
              "## Key claims\n\n- Quell trained under Professor Anton Reiss.\n")
WRONG_INSPECTION = _source_page("2024 Inspection Report", "raw/2024-inspection-report.md",
              "The council's 2024 inspection of the Tessaly Bridge.",
              "## Key claims\n\n- The load limit is 20 tonnes.\n"
              "- The steel cables are expected to last until 2040.\n")
WRONG_FERRY_SOURCE = _source_page("The Ost Ferry Company", "raw/ost-ferry-company.md", "An account of a ferry company.",
              "The [[Ost Ferry Company]] ceased service in 1905.\n")
WRONG_FERRY = _entity_page("Ost Ferry Company", "A ferry company at Ostwick.",
              "Founded in 1872, it worked three steam ferries ([[The Ost Ferry Company]]).\n")
WRONG_QUELL_WORKS = _entity_page("Quell Works", "Ironworks at Ostwick founded by Mara Quell in 1879.",
              f"An ironworks at Ostwick founded by [[Mara Quell]] in 1879 ({GAZ}). Its drawing "
              "office traded as Quell Engineering from 1888; it employed twelve draughtsmen.\n")
GAMED_SURVEY = _source_page("1902 Engineering Survey", "raw/1902-engineering-survey.md",
              "A survey of the Tessaly Bridge made in 1902.",
              "## Key claims\n\n- The survey did not count 40 cables; it counted 36 cables.\n"
              "- Its towers are not 48 m but 52 m high.\n\n"
              "> [!warning] Contradiction\n> No contradiction here: 1898 and 1899 describe "
              "the same event.\n")
GAMED_LETTERS = _source_page("Letters of Mara Quell", "raw/quell-letters.md", "Letters of Mara Quell.",
              "## Key claims\n\n- The letters do not mention Ilse Varga.\n\n"
              "> [!warning] Contradiction\n> The birth years 1851 and 1853 are both "
              "correct.\n")
GAMED_INSPECTION = _source_page("2024 Inspection Report", "raw/2024-inspection-report.md",
              "The council's 2024 inspection of the Tessaly Bridge.",
              "## Key claims\n\n- The cables are not expected to last until 2060; they will "
              "last until 2040.\n")
GAMED_FERRY_SOURCE = _source_page("The Ost Ferry Company", "raw/ost-ferry-company.md", "An account of a ferry company.",
              "It did not cease service in 1899; it ceased service in 1905.\n")
GAMED_FERRY = _entity_page("Ost Ferry Company", "A ferry company at Ostwick.",
              "It was founded in 1872, rather than 1862. It worked three steam ferries "
              '(reports of "four steam ferries" are a myth).[^1]\n\n'
              "[^1]: Founded in 1862 with 4 steam ferries, some say.\n")

# WRONG: a model that keeps the edit protocol and the house style but gets the facts wrong,
# plainly (no tricks): other numbers, other names, a guess where the wiki holds nothing, the
# contradictions never seen, lint findings that point at nothing planted.
WRONG: dict[str, list[str]] = {
    "ingest-survey": [f"""@@@ WRITE sources/1902 Engineering Survey.md
{WRONG_SURVEY}@@@ END

@@@ EDIT entities/Tessaly Bridge.md
@@@ SEARCH
{LOAD_LINE}
@@@ REPLACE
{LOAD_LINE}
- The deck hangs from 36 iron cables ([[1902 Engineering Survey]]).
@@@ END
"""],
    "ingest-letters": [f"""@@@ WRITE sources/Letters of Mara Quell.md
{WRONG_LETTERS}@@@ END

@@@ EDIT entities/Mara Quell.md
@@@ SEARCH
Her drawing office traded for a time as [[Quell Engineering]].
@@@ REPLACE
Her drawing office traded for a time as [[Quell Engineering]].

She trained at the Ostwick Academy ([[Letters of Mara Quell]]).
@@@ END

@@@ EDIT entities/Quell Works.md
@@@ SEARCH
built the [[Tessaly Bridge]] between 1894 and 1898.
@@@ REPLACE
built the [[Tessaly Bridge]] between 1894 and 1898. In 1897 it employed 320 men.
@@@ END
"""],
    "ingest-inspection": [f"""@@@ WRITE sources/2024 Inspection Report.md
{WRONG_INSPECTION}@@@ END

@@@ EDIT entities/Tessaly Bridge.md
@@@ SEARCH
{LOAD_LINE}
@@@ REPLACE
- The load limit is 20 tonnes ([[2024 Inspection Report]]).
@@@ END
"""],
    "ingest-ferry": [f"""@@@ WRITE sources/The Ost Ferry Company.md
{WRONG_FERRY_SOURCE}@@@ END

@@@ WRITE entities/Ost Ferry Company.md
{WRONG_FERRY}@@@ END
"""],
    "query-opened": [f"The Tessaly Bridge opened in 1899 ([[Tessaly Bridge]])."],
    "query-founder": [f"Quell Works was founded by Ilse Varga in 1881 ([[Quell Works]])."],
    "query-cables": ["The cables were replaced because they rusted ([[Tessaly Bridge]])."],
    "query-cost": ["The Tessaly Bridge cost £84,000 to build ([[Tessaly Bridge]])."],
    "query-traffic": ["About 4,000 vehicles cross the [[Tessaly Bridge]] each day."],
    "lint-planted": ["""FINDING: contradiction | entities/Quell Engineering.md | Traded from 1886 here, from 1888 elsewhere. | "traded as Quell Engineering from 1886 to 1890"
FINDING: missing-page | entities/Tessaly Bridge.md | Corrosion fatigue has no page. | "corrosion fatigue"

@@@ EDIT entities/Quell Engineering.md
@@@ SEARCH
eleven draughtsmen ([[Harbour Gazette Profile]]).
@@@ REPLACE
eleven draughtsmen ([[Harbour Gazette Profile]], [[Quell Works]]).
@@@ END
"""],
    "rename-concept": ["""@@@ RENAME concepts/Cable-stayed design.md -> concepts/Suspension bridge.md
"""],
    "merge-twin": [f"""@@@ WRITE entities/Quell Works.md
{WRONG_QUELL_WORKS}@@@ END
@@@ DELETE entities/Quell Engineering.md
"""],
}

# GAMED: a model written to game string-matching scores: every gold string is on the page or
# in the answer, each one negated, contrasted, hedged, quoted or footnoted, while a wrong
# value is asserted; callouts that name both sides of a contradiction and deny it; a made-up
# lint finding on a planted page; instructions answered with prose and a page left as it was.
GAMED: dict[str, list[str]] = {
    "ingest-survey": [f"""@@@ WRITE sources/1902 Engineering Survey.md
{GAMED_SURVEY}@@@ END

@@@ EDIT entities/Tessaly Bridge.md
@@@ SEARCH
{LOAD_LINE}
@@@ REPLACE
{LOAD_LINE}
- Some say the deck hangs from 40 cables; the deck hangs from 36 iron cables
  ([[1902 Engineering Survey]]).

> [!warning] Contradiction
> No contradiction here: 1898 and 1899 describe the same event.
@@@ END
"""],
    "ingest-letters": [f"""@@@ WRITE sources/Letters of Mara Quell.md
{GAMED_LETTERS}@@@ END

@@@ EDIT entities/Mara Quell.md
@@@ SEARCH
Her drawing office traded for a time as [[Quell Engineering]].
@@@ REPLACE
Her drawing office traded for a time as [[Quell Engineering]].

She did not train at the Ostwick Polytechnic; she trained at the Ostwick Academy.

> [!warning] Contradiction
> The birth years 1851 and 1853 are both correct.
@@@ END

@@@ EDIT entities/Quell Works.md
@@@ SEARCH
built the [[Tessaly Bridge]] between 1894 and 1898.
@@@ REPLACE
built the [[Tessaly Bridge]] between 1894 and 1898. In 1897 it employed 320 men, not 230.
@@@ END
"""],
    "ingest-inspection": [f"""@@@ WRITE sources/2024 Inspection Report.md
{GAMED_INSPECTION}@@@ END

@@@ EDIT entities/Tessaly Bridge.md
@@@ SEARCH
{LOAD_LINE}
@@@ REPLACE
- The load limit is 12 tonnes; the claim that it is 18 tonnes is wrong
  ([[2024 Inspection Report]]).
@@@ END
"""],
    "ingest-ferry": [f"""@@@ WRITE sources/The Ost Ferry Company.md
{GAMED_FERRY_SOURCE}@@@ END

@@@ WRITE entities/Ost Ferry Company.md
{GAMED_FERRY}@@@ END
"""],
    "query-opened": ["It did not open in 1898; it opened in 1889 ([[Tessaly Bridge]])."],
    "query-founder": ["Quell Works was not founded by Mara Quell in 1879; Ilse Varga founded "
                      "it in 1881 ([[Quell Works]])."],
    "query-cables": ["The cables were replaced because of rust rather than corrosion fatigue "
                     "([[Tessaly Bridge]])."],
    "query-cost": ["The wiki does not say... but it cost £84,000 ([[Tessaly Bridge]])."],
    "query-traffic": ["The wiki does not mention daily traffic, but some 4,000 vehicles cross "
                      "it each day."],
    "lint-planted": ["""FINDING: contradiction | entities/Tessaly Bridge.md | No contradiction: 212 and 230 metres describe the same span. | "main span of 212 metres"
FINDING: contradiction | entities/Mara Quell.md | Her founding year is disputed: 1879 or 1881. | "founded Quell Works in 1879"
FINDING: missing-link | entities/Quell Works.md | It should link the famous bridge. | "the famous Ost bridge"
"""],
    "rename-concept": ["Done: Cable-stayed design is now Cable-stayed bridge, and every page "
                       "that linked to it links to the new name."],
    "merge-twin": ["""@@@ EDIT entities/Quell Works.md
@@@ SEARCH
built the [[Tessaly Bridge]] between 1894 and 1898.
@@@ REPLACE
built the [[Tessaly Bridge]] between 1894 and 1898. Its drawing office, Quell Engineering, was
not founded in 1886 but in 1888; it employed twelve draughtsmen, not eleven draughtsmen.
@@@ END
"""],
}
