"""Replies a model writes for each form of a saved answer (`query --save --as FORM`), shared
by the model tests, the review tests and the screenshots."""

from __future__ import annotations

import json

QUESTION = "How did H4 do at sea?"
ANSWER = "H4 was 5.1 seconds slow on arrival in Jamaica in 1762 ([[H4]])."
FRONT = ("---\ntitle: {title}\ntype: answer\nsummary: How H4 did at sea.\n"
         "sources: [\"[[H4]]\"]\n{extra}---\n")

TABLE = ("@@@ WRITE answers/H4 trials.md\n" + FRONT.format(title="H4 trials", extra="") +
         "# H4 trials\n\nThe two sea trials of H4, side by side.\n\n"
         "| Trial | Year | Result | Sources |\n|---|---|---|---|\n"
         "| Jamaica | 1761-62 | 5.1 s slow | [[H4]] |\n"
         "| Barbados | 1764 | confirmed | [[H4]], [[sources/Board of Longitude\\|Board]] |\n"
         "@@@ END\n")
SLIDES = ("@@@ WRITE answers/H4 at sea.md\n" + FRONT.format(title="H4 at sea",
                                                             extra="marp: true\n") +
          "# H4 at sea\n\nHow did H4 do at sea?\n\n---\n\n## Jamaica\n\n"
          "- 5.1 seconds slow on arrival ([[H4]])\n\n---\n\n## Sources\n\n- [[H4]]\n@@@ END\n")
CHART = ("@@@ WRITE answers/H4 error.md\n" + FRONT.format(title="H4 error", extra="") +
         "# H4 error\n\n```chart\nkind: bar\ntitle: Seconds H4 lost per trial\ny: seconds\n"
         "series:\n  - name: H4\n    pages: [\"[[H4]]\"]\n    data: [[Jamaica, 5.1], "
         "[Barbados, 3.9]]\n```\n\nFrom [[H4]].\n@@@ END\n")
CANVAS_DATA = {"nodes": [
    {"id": "h4", "type": "file", "file": "entities/H4.md", "x": 0, "y": 0, "width": 400,
     "height": 200},
    {"id": "jh", "type": "file", "file": "entities/John Harrison.md", "x": 500, "y": 0,
     "width": 400, "height": 200},
    {"id": "c1", "type": "text", "text": "5.1 s slow in Jamaica ([[H4]])", "x": 250, "y": 300,
     "width": 400, "height": 120}],
    "edges": [{"id": "e1", "fromNode": "jh", "toNode": "h4", "label": "built"},
              {"id": "e2", "fromNode": "c1", "toNode": "h4", "label": "measured"}]}
CANVAS = ("@@@ WRITE answers/H4 map.canvas\n" + json.dumps(CANVAS_DATA, indent=1) +
          "\n@@@ END\n")


REPLIES = {"table": TABLE, "slides": SLIDES, "chart": CHART, "canvas": CANVAS}
