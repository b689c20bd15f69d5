'''Scripted replies for the eval suite (v1), one list per task, written the way models reply.

GOOD: a capable model: the edit protocol kept, contradictions flagged on both pages, the
superseded claim struck through, answers cited, unanswerable questions declined.
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
