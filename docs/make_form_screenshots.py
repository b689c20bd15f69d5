"""Make the SVG screenshots of each answer form in the review (docs/forms.md).

    uv run python docs/make_form_screenshots.py

On a fresh demo copy of sample_vault/ (offline engine, no network), at 80x24 and 120x40: ask
"When was H4 tested at sea?", then `/save --as FORM` for each form, and picture its review: a
table's diff; a deck's second slide, a chart drawn as text and a canvas read, each in the view
`v` opens over the review. Writes docs/screenshots/form-FORM-SIZE.svg.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs"))

from make_screenshots import REVIEW_SIZES, on_a_demo_vault, save, settled  # noqa: E402

FORMS = ("table", "slides", "chart", "canvas")


async def shoot_forms(vault: Path) -> None:
    from wiki_tui.ui.app import WikiApp
    from wiki_tui.ui.chat.prompt import PromptInput
    from wiki_tui.ui.review import ReviewScreen
    from wiki_tui.ui.review.form_preview import FormPreviewScreen

    for label, size in REVIEW_SIZES.items():
        app = WikiApp(vault)
        async with app.run_test(size=size) as pilot:
            app.query_one(PromptInput).cursor_blink = False
            await settled(pilot, lambda: app.vault is not None)
            app.submit("When was H4 tested at sea?")
            await settled(pilot, lambda: not app.operation_running)
            for form in FORMS:
                app.submit(f"/save --as {form}")
                await settled(pilot, lambda: isinstance(app.screen, ReviewScreen), 120)
                await pilot.pause(0.7)  # past the review's key guard
                if form != "table":
                    await pilot.press("v")
                    await settled(pilot, lambda: isinstance(app.screen, FormPreviewScreen))
                    if form == "slides":
                        await pilot.press("right")
                        await settled(pilot)
                save(app, f"form-{form}-{label}")
                if form != "table":
                    await pilot.press("escape")
                    await settled(pilot, lambda: isinstance(app.screen, ReviewScreen))
                await pilot.press("escape")  # the review stays pending
                await settled(pilot, lambda: not isinstance(app.screen, ReviewScreen))


if __name__ == "__main__":
    on_a_demo_vault(shoot_forms)
