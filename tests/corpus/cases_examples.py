"""Examples are never executed (issue 19): a block inside a fence, an indented code block, a
quote or inline code, or one the prose calls an example, is shown as prose with a note. A
reply that holds nothing but such an unannounced example is refused naming its line, in case
it was meant. A fence that wraps the reply's own edit, a fence around the whole reply and a
numbered list around blocks are no examples."""

from __future__ import annotations

from tests.corpus.case import (APPLIED, H4, REFUSED, REPAIRED, Case,
                               adversarial_twins_are_well_formed, edited)

OLD, NEW_LINE = "# H4\n", "# H4 (the Sea Watch)\n"
H4_EDIT = f"@@@ EDIT {H4}\n@@@ SEARCH\n{OLD}@@@ REPLACE\n{NEW_LINE}@@@ END\n"
H4_RESULT = {H4: edited(H4, OLD, NEW_LINE)}
LP = "concepts/Longitude problem.md"
DELETE_LP = f"@@@ DELETE {LP}\n"
SCRATCH = "notes/Scratch.md"
PAGES = {SCRATCH: "---\ntitle: Scratch\ntype: note\nsummary: Scratch notes.\n---\n# Scratch\n"}
NOTE = "as an example: it was not applied"

CASES = adversarial_twins_are_well_formed([
    Case("indented-delete-not-needed", "examples",
         f"{H4_EDIT}\nI don't think this page is needed any more:\n\n    {DELETE_LP}",
         REPAIRED, H4_RESULT, repair=NOTE,
         note="issue 19: an indented DELETE shown as an aside deleted the page"),
    Case("fenced-delete-for-example", "examples",
         f"{H4_EDIT}\nFor example, removing a page would be:\n\n```\n{DELETE_LP}```\n",
         REPAIRED, H4_RESULT, repair=NOTE, note="issue 19: a fenced example was executed"),
    Case("backticked-delete-in-prose", "examples",
         f"{H4_EDIT}\nIf you prefer, you could also send\n\n`{DELETE_LP.strip()}`\n\n"
         "but I left it.\n", REPAIRED, H4_RESULT, repair=NOTE,
         note="issue 19: a backticked example DELETE was executed"),
    Case("example-write-in-prose-code-block", "examples",
         f"{H4_EDIT}\nThe format of a new page:\n\n```text\nEach page is one block:\n"
         "@@@ WRITE concepts/Example.md\n# Example\n@@@ END\n```\n", REPAIRED, H4_RESULT,
         repair=NOTE),
    Case("quoted-block", "examples",
         f"{H4_EDIT}\nThe user once asked for this:\n\n> @@@ DELETE {LP}\n", REPAIRED,
         H4_RESULT, repair=NOTE),
    Case("example-heading-then-bare-write", "examples",
         f"{H4_EDIT}\n### Example\n\n@@@ WRITE concepts/Example.md\n# Example\n@@@ END\n",
         REPAIRED, H4_RESULT, repair=NOTE),
    Case("only-an-unannounced-fenced-delete", "examples",
         f"The clean-up:\n\n```\nScratch notes\n@@@ DELETE {SCRATCH}\n```\n", REFUSED,
         {SCRATCH: None}, pages=PAGES, message=("reply line 5", f"'@@@ DELETE {SCRATCH}'"), retry=f"@@@ DELETE {SCRATCH}\n",
         note="nothing else in the reply: it may have been meant, so it is asked"),
    Case("only-an-indented-delete", "examples", f"Done:\n\n    @@@ DELETE {SCRATCH}\n",
         REFUSED, {SCRATCH: None}, pages=PAGES, message=("indented", f"@@@ DELETE {SCRATCH}"),
         retry=f"Done:\n\n@@@ DELETE {SCRATCH}\n"),
    # comments and folding elements: a block written inside one was hidden or set aside
    Case("delete-inside-an-html-comment", "examples",
         f"{H4_EDIT}\n<!--\n{DELETE_LP}-->\n", REPAIRED, H4_RESULT, repair=NOTE,
         note="a block commented out: the model set it aside"),
    Case("delete-inside-an-obsidian-comment", "examples",
         f"{H4_EDIT}\n%%\n{DELETE_LP}%%\n", REPAIRED, H4_RESULT, repair=NOTE),
    Case("delete-inside-details", "examples",
         f"{H4_EDIT}\n<details>\n<summary>What a delete looks like</summary>\n\n{DELETE_LP}\n"
         "</details>\n", REPAIRED, H4_RESULT, repair=NOTE),
    Case("write-inside-pre", "examples",
         f"{H4_EDIT}\n<pre>\n@@@ WRITE concepts/Example.md\n# Example\n@@@ END\n</pre>\n",
         REPAIRED, H4_RESULT, repair=NOTE),
    Case("delete-after-would-not-do-this", "examples",
         f"{H4_EDIT}\nI would NOT do this:\n{DELETE_LP}because other pages link to it.\n",
         REPAIRED, H4_RESULT, repair=NOTE, note="a rejected option shown as a block"),
    Case("only-a-commented-out-delete", "examples", f"<!--\n@@@ DELETE {SCRATCH}\n-->\n",
         REFUSED, {SCRATCH: None}, pages=PAGES, message=("HTML comment", f"@@@ DELETE {SCRATCH}"),
         retry=f"@@@ DELETE {SCRATCH}\n"),
    # adversarial: a comment closed on its line, and a refusal to delete that edits instead
    Case("one-line-comment-before-block", "examples",
         f"<!-- retitled -->\n{H4_EDIT}", APPLIED, H4_RESULT),
    Case("will-not-delete-but-edits", "examples",
         f"I won't delete the page; instead I'll update it:\n{H4_EDIT}", APPLIED, H4_RESULT,
         note="a negative word about another action is no example cue"),
    # adversarial: fences and lists that carry the reply's own edits
    Case("fence-right-before-block-wraps-it", "examples", f"Here it is:\n\n```\n{H4_EDIT}```\n",
         REPAIRED, H4_RESULT, repair="fence around the block"),
    Case("fence-around-the-whole-reply", "examples",
         f"```markdown\nI retitled H4.\n\n{H4_EDIT}\nThat is all.\n```\n", APPLIED, H4_RESULT),
    Case("numbered-steps-around-blocks", "examples",
         f"1. Retitle the page:\n\n{H4_EDIT}\n2. Then remove the scratch notes:\n\n"
         f"@@@ DELETE {SCRATCH}\n\n3. Done.\n", APPLIED, {**H4_RESULT, SCRATCH: None},
         pages=PAGES),
    Case("list-item-with-indented-block", "examples",
         "- Retitle the page:\n\n    " + H4_EDIT.replace("\n", "\n    ").rstrip() + "\n",
         REPAIRED, H4_RESULT, repair="ignoring indentation",
         note="indentation under a list item continues the item: not a code block"),
    Case("example-word-far-before-block", "examples",
         f"For example, the heading was too short.\n\nSo I changed it.\n\n{H4_EDIT}",
         APPLIED, H4_RESULT, note="a cue counts only on the line right before the block"),
])
