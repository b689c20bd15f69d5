"""The forms an answer can take beyond a plain page: a comparison table, a Marp slide deck, a
chart (a declarative spec rendered by the program), a JSON Canvas.

This package sits beside `vault/` at the bottom of the layers: it reads and checks the text of
a form, renders a chart (to SVG with matplotlib, imported only when a chart is drawn; to text
for the terminal), splits a deck into slides and a canvas into what a person reads. It imports
nothing from `changes/`, `agent/` or `ui/`, which all use it.

    chart_spec.py   the ```chart block: read, checked, refused naming the line
    chart_svg.py    a spec to SVG (matplotlib, headless, deterministic bytes)
    chart_text.py   a spec to lines of text (the review and the browser)
    canvas.py       JSON Canvas 1.0: checked against the format, read for the review
    slides.py       a Marp deck cut into slides
    preview.py      what the review shows of a form, in text
"""

FORMS = ("page", "table", "slides", "chart", "canvas")
