"""Wrappers models put around blocks, pages, frontmatter and markers: ``` / ~~~ fences,
```yaml frontmatter, <think> sections, bold or backticked markers. Each with the adversarial page
that only looks wrapped."""

from __future__ import annotations

from tests.corpus.case import (APPLIED, ESC, ESC_PATH, H4, NEW, REFUSED, REPAIRED, Case,
                               adversarial_twins_are_well_formed, edited, new_page)

H4_PAIR = "@@@ SEARCH\n# H4\n@@@ REPLACE\n# H4 (the Sea Watch)\n"
H4_EDIT = f"@@@ EDIT {H4}\n{H4_PAIR}@@@ END\n"
H4_RESULT = {H4: edited(H4, "# H4\n", "# H4 (the Sea Watch)\n")}
WRITE_ESC = f"@@@ WRITE {ESC_PATH}\n{ESC}@@@ END\n"

CODE_PAGE = new_page("Escapement", "An anchor escapement in pseudo-code:\n\n```python\n"
                     "def tick(pendulum):\n    return pendulum.swing()\n```\n\nAnd a table:\n\n"
                     "~~~\nbeat  1  2\n~~~")
MD_EXAMPLE_PAGE = new_page("Escapement", "How to quote a page:\n\n```markdown\n# Title\n```\n\n"
                           "Done.")
ENDS_IN_CODE = new_page("Escapement", "```\nplain code\n```")
YAML_EXAMPLE_PAGE = new_page("Escapement", "A config example:\n\n```yaml\ntitle: not the page\n"
                             "type: example\n```")
THINK_QUOTE_PAGE = new_page("Escapement", "Some models show their reasoning as:\n\n<think>\n"
                            "a plan\n</think>\n\nwhich is stripped before display.")
PROTOCOL_DOC_PAGE = new_page("Edit protocol", "A block ends with a line that reads:\n\n"
                             "`@@@ END`\n\nwritten alone.")
THINK_DRAFT = ("<think>\nThe user wants an Escapement page. Draft:\n@@@ WRITE concepts/Draft.md\n"
               "draft\n@@@ END\nGood, now the real one.\n</think>\n")


def fenced(body: str, fence: str = "```markdown", close: str = "```") -> str:
    return f"{fence}\n{body}{close}\n"


CASES = [
    # a fence around whole blocks (prose level)
    Case("markdown-fence-around-write", "wrappers", "Here is the page:\n\n"
         + fenced(WRITE_ESC), REPAIRED, NEW, repair="ignored the ```markdown fence"),
    Case("bare-fence-around-two-blocks", "wrappers", fenced(WRITE_ESC + "\n" + H4_EDIT, "```"),
         REPAIRED, {**NEW, **H4_RESULT}, repair="fence around the block"),
    Case("tilde-fence-around-edit", "wrappers", fenced(H4_EDIT, "~~~", "~~~"), REPAIRED,
         H4_RESULT, repair="ignored the ~~~ fence"),
    Case("each-block-in-its-own-fence", "wrappers",
         fenced(WRITE_ESC, "```text") + "\nand\n\n" + fenced(H4_EDIT, "```"), REPAIRED,
         {**NEW, **H4_RESULT}, repair="fence around the block"),
    # a fence around the page inside WRITE
    Case("md-fence-around-page", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n{fenced(ESC, '```md')}@@@ END\n",
         REPAIRED, NEW, repair="unwrapped a ```md fence around the page"),
    Case("tilde-markdown-fence-around-page", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n{fenced(ESC, '~~~markdown', '~~~')}@@@ END\n", REPAIRED, NEW,
         repair="unwrapped"),
    Case("fence-opened-inside-closed-after-end", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n```markdown\n{ESC}@@@ END\n```\n\nDone.\n", REPAIRED, NEW,
         repair="closing fence came after '@@@ END'"),
    Case("page-with-fences-in-same-length-wrapper", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n{fenced(CODE_PAGE)}@@@ END\n", REPAIRED, {ESC_PATH: CODE_PAGE},
         repair="unwrapped", note="models reuse ``` for the outer fence (claude-code #17559)"),
    Case("page-with-fences-in-longer-wrapper", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n{fenced(CODE_PAGE, '````markdown', '````')}@@@ END\n", REPAIRED,
         {ESC_PATH: CODE_PAGE}, repair="unwrapped"),
    Case("four-backtick-wrapper-closed-with-three", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n{fenced(CODE_PAGE, '````markdown', '```')}@@@ END\n", REPAIRED,
         {ESC_PATH: CODE_PAGE}, repair="unwrapped",
         note="models ignore a request for a longer fence (aider #2879, #4709)"),
    Case("page-with-fences-wrapper-closed-after-end", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n```markdown\n{CODE_PAGE}@@@ END\n```\n", REPAIRED,
         {ESC_PATH: CODE_PAGE}, repair="unwrapped"),
    # adversarial: fences that belong to the page
    Case("page-keeps-markdown-example-fence", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n{MD_EXAMPLE_PAGE}@@@ END\n", APPLIED,
         {ESC_PATH: MD_EXAMPLE_PAGE}),
    Case("page-ending-in-code-block-kept", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n{ENDS_IN_CODE}@@@ END\n", APPLIED, {ESC_PATH: ENDS_IN_CODE}),
    Case("prose-code-block-before-block", "wrappers",
         f"The escapement in one line:\n\n```python\ntick()\n```\n{WRITE_ESC}```\nafter\n```\n",
         APPLIED, NEW, note="the prose's closing fence is no wrapper of the block"),
    Case("page-with-code-kept", "wrappers", f"@@@ WRITE {ESC_PATH}\n{CODE_PAGE}@@@ END\n",
         APPLIED, {ESC_PATH: CODE_PAGE}),
    Case("edit-replace-with-code-fence-kept", "wrappers",
         f"@@@ EDIT {H4}\n@@@ SEARCH\n# H4\n@@@ REPLACE\n# H4\n\n```\nH4 = 1759\n```\n@@@ END\n",
         APPLIED, {H4: edited(H4, "# H4\n", "# H4\n\n```\nH4 = 1759\n```\n")}),
    # frontmatter in a ```yaml fence
    Case("yaml-fence-around-frontmatter", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n```yaml\n{ESC.split('# ')[0]}```\n# {ESC.split('# ', 1)[1]}"
         "@@@ END\n", REPAIRED, NEW, repair="```yaml fence around the frontmatter"),
    Case("yaml-fence-bare-keys", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n```yaml\n{ESC.split('---')[1].lstrip()}```\n"
         f"# {ESC.split('# ', 1)[1]}@@@ END\n", REPAIRED, NEW, repair="frontmatter"),
    Case("yaml-example-in-page-kept", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n{YAML_EXAMPLE_PAGE}@@@ END\n", APPLIED,
         {ESC_PATH: YAML_EXAMPLE_PAGE}),
    # reasoning sections
    Case("think-with-draft-block", "wrappers", THINK_DRAFT + WRITE_ESC, REPAIRED, NEW,
         repair="ignored a <think> section (lines 1-7)", note="DeepSeek-R1 / QwQ style"),
    Case("thinking-tag", "wrappers",
         "<thinking>\nI should edit H4.\n</thinking>\n\n" + H4_EDIT, REPAIRED, H4_RESULT,
         repair="ignored a <thinking> section"),
    Case("reasoning-tag-one-line", "wrappers", "<reasoning>edit the heading</reasoning>\n"
         + H4_EDIT, REPAIRED, H4_RESULT, repair="<reasoning>"),
    Case("closing-think-without-opening", "wrappers",
         "Let me draft it first.\n@@@ WRITE concepts/Draft.md\ndraft\n@@@ END\n</think>\n\n"
         + WRITE_ESC, REPAIRED, NEW, repair="as reasoning",
         note="the opening tag was in the chat template"),
    Case("think-never-closed", "wrappers", "<think>\nPlan the page.\n\n" + WRITE_ESC, REFUSED,
         NEW, message=("never closed", "</think>"), retry="<think>\nPlan.\n</think>\n" + WRITE_ESC),
    Case("think-quoted-inside-page-kept", "wrappers",
         f"@@@ WRITE {ESC_PATH}\n{THINK_QUOTE_PAGE}@@@ END\n", APPLIED,
         {ESC_PATH: THINK_QUOTE_PAGE}),
    # decorated markers
    Case("bold-markers", "wrappers",
         "**@@@ EDIT entities/H4.md**\n**@@@ SEARCH**\n# H4\n**@@@ REPLACE**\n"
         "# H4 (the Sea Watch)\n**@@@ END**\n", REPAIRED, H4_RESULT,
         repair="read '**@@@ EDIT entities/H4.md**' as a marker"),
    Case("backticked-markers", "wrappers", f"`@@@ WRITE {ESC_PATH}`\n{ESC}`@@@ END`\n", REPAIRED,
         NEW, repair="as a marker"),
    Case("bold-opener-plain-end", "wrappers", f"**@@@ WRITE {ESC_PATH}**\n{ESC}@@@ END\n",
         REPAIRED, NEW, repair="as a marker"),
    Case("protocol-doc-page-keeps-backticked-end", "wrappers",
         f"@@@ WRITE concepts/Edit protocol.md\n{PROTOCOL_DOC_PAGE}@@@ END\n", APPLIED,
         {"concepts/Edit protocol.md": PROTOCOL_DOC_PAGE}),
    Case("plain-opener-bold-end", "wrappers", f"@@@ WRITE {ESC_PATH}\n{ESC}**@@@ END**\n",
         REFUSED, NEW, message=(ESC_PATH, "'**@@@ END**' (reply line 10) was read as page text"),
         retry=WRITE_ESC,
         note="a decorated line inside a plainly opened block is page text"),
    Case("fenced-pairs-editing-end-of-code-block", "wrappers",
         "@@@ EDIT concepts/Dead reckoning.md\n```\n@@@ SEARCH\n 1     5     WSW      "
         "[[not a link inside a tilde fence]]\n~~~\n@@@ REPLACE\n 1     5     WSW      calm\n"
         "~~~\n```\n@@@ END\n", REPAIRED,
         {"concepts/Dead reckoning.md": edited(
             "concepts/Dead reckoning.md", "WSW      [[not a link inside a tilde fence]]\n~~~",
             "WSW      calm\n~~~")}, repair="fence",
         note="the REPLACE's closing ~~~ mirrors the SEARCH's and is page text"),
    # whole replies as chat models write them, several slips at once
    Case("chat-style-reply", "wrappers",
         "Sure! I'll create a page for the escapement and retitle H4.\n\n### 1. New page\n\n"
         f"```markdown\n@@@ WRITE {ESC_PATH} (new page)\n{ESC}@@@ END\n```\n\n"
         f"### 2. The H4 heading\n\n```markdown\n{H4_EDIT}```\n\n"
         "Let me know if you'd like any changes!\n", REPAIRED, {**NEW, **H4_RESULT},
         repair="fence around the block"),
    Case("r1-style-reply", "wrappers",
         "<think>\nOkay, the user wants H4 retitled. Maybe:\n"
         f"@@@ EDIT {H4}\n@@@ SEARCH\n# H4\n@@@ REPLACE\n# H4 draft\n@@@ END\n"
         "Hmm, better to use the alias.\n</think>\n\nHere is the edit:\n\n" + H4_EDIT,
         REPAIRED, H4_RESULT, repair="the edit blocks drafted in it were not used"),
    # a fence around the pairs inside EDIT
    Case("fence-around-pairs-inside-edit", "wrappers",
         f"@@@ EDIT {H4}\n```\n{H4_PAIR}```\n@@@ END\n",
         REPAIRED, H4_RESULT, repair="fence"),
]
CASES = adversarial_twins_are_well_formed(CASES)
