"""Contrast of every style the review, the browser and the findings draw, per shipped theme.

    uv run python benchmarks/contrast.py [--all]

Drives the real app on a fresh demo copy of sample_vault/: the review of a changeset built from
a fixed reply (changed words, a link, code, a heading, a new page; unified with one file
accepted and one hunk rejected, then side by side), the findings screen of the vault's
structural lint, and the browser on a page with its backlinks (the cursor in them). No model
runs (importing litellm alone takes seconds). In each state and each theme it collects the pairs
wiki_tui/ui/frame/contrast.py reads off the screen and the widgets' component classes, and prints
JSON: per theme the threshold (4.5:1; 7:1 for wiki-high-contrast), the lowest ratio in
truecolor and after the 256-colour mapping, and the pairs below the threshold (`--all`: every
pair). tests/ui/test_contrast.py asserts the thresholds with the same walk.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZE = (120, 40)
PAGE = "entities/H4.md"  # linked from many pages: a full backlinks panel
REPLY = f"""@@@ EDIT {PAGE}
@@@ SEARCH
## Trials
@@@ REPLACE
## Trials at sea
@@@ SEARCH
- Jamaica, aboard HMS *Deptford*, 1761-62: 5.1 seconds slow on arrival
@@@ REPLACE
- Jamaica, aboard HMS *Deptford*, 1761-62: only 5.1 seconds slow on arrival, timed with `GMT`
@@@ SEARCH
made K1 in 1769, which sailed with [[James Cook]] ([[Cook's Second Voyage and the Kendall Watch]]).
@@@ REPLACE
made K1 in 1769, which sailed twice with [[James Cook]] ([[Cook's Second Voyage and the Kendall Watch]]).
@@@ END

@@@ WRITE concepts/Sandglass.md
---
title: Sandglass
type: concept
summary: The half-minute glass used with the log line.
---
# Sandglass

Timed the run of the log line for [[Dead reckoning]], **half a minute** at a time.
@@@ END
"""


def threshold(theme: str) -> float:
    return 7.0 if "high-contrast" in theme else 4.5


def shipped_themes() -> list[str]:
    from wiki_tui.ui.frame.themes import BUILTIN_THEMES_DIR, load_theme_dir

    return [t.name for t in load_theme_dir(BUILTIN_THEMES_DIR)[0]]


async def until(pilot, condition, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (condition() and not any(w.is_running for w in pilot.app.workers)):
        if loop.time() > deadline:
            raise TimeoutError("the app did not settle")
        await pilot.pause(0.05)
    await pilot.pause()


async def collect_state(pilot, themes: list[str], found: dict[str, set], root=None) -> None:
    """Add the pairs of the current screen (of `root` in it), drawn in each theme, to `found`."""
    from wiki_tui.ui.frame.contrast import component_pairs, screen_pairs

    app = pilot.app
    for name in themes:
        app.theme = name
        await pilot.pause()
        await pilot.pause()
        found[name] |= screen_pairs(app, root) | component_pairs(app, root)


def review_screen(vault):
    from wiki_tui.changes.build.changeset import build_changeset
    from wiki_tui.changes.reply.stream import parse_reply
    from wiki_tui.ui.review import ReviewScreen

    changeset, errors = build_changeset(vault, parse_reply(REPLY), operation="instruct",
                                        title="Contrast walk", model="fixed reply")
    assert not errors, [str(e) for e in errors]
    return ReviewScreen(vault, changeset, grace=0)


def findings_screen(app):
    from wiki_tui.agent.events import Findings
    from wiki_tui.agent.operations import structural_item
    from wiki_tui.ui.findings import FindingsScreen, LintReport

    items = tuple(structural_item(f) for f in app.vault.lint())
    return FindingsScreen(LintReport.from_findings(Findings(items)), app.vault_root, app.vault)


async def walk(app, themes: list[str]) -> dict[str, set]:
    """Every pair the review, the findings and the browser draw, per theme."""
    from wiki_tui.ui.findings import FindingsScreen
    from wiki_tui.ui.review import ReviewScreen

    found: dict[str, set] = {name: set() for name in themes}
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.vault is not None)
        app.push_screen(review_screen(app.vault))
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        await pilot.press("a", "j", "r", "k", "n", "space", "n")  # accepted, rejected, a hunk out
        await pilot.pause()
        await collect_state(pilot, themes, found)
        await pilot.press("s")  # side by side
        await pilot.pause()
        await collect_state(pilot, themes, found)
        app.pop_screen()
        app.push_screen(findings_screen(app))
        await until(pilot, lambda: isinstance(app.screen, FindingsScreen))
        await collect_state(pilot, themes, found)
        app.pop_screen()
        await until(pilot, lambda: not isinstance(app.screen, FindingsScreen))
        app.open_page(PAGE)
        browser = app.query_one("#browser")
        await until(pilot, lambda: browser.current_path == PAGE)
        browser.page_view.focus()
        await pilot.press("l", "j")  # the backlinks focused, the cursor on an entry
        await until(pilot, lambda: True)
        await collect_state(pilot, themes, found, browser)  # not the conversation beside it
    return found


def table(found: dict[str, set], *, every: bool = False) -> dict:
    """Per theme: the threshold, the minimum ratios and the pairs below it (or all of them)."""
    from wiki_tui.ui.frame.contrast import hex_rgb

    out = {}
    for name, pairs in found.items():
        need = threshold(name)
        ordered = sorted(pairs, key=lambda p: (min(p.ratio, p.ratio_256), p.where))
        shown = [p for p in ordered if every or min(p.ratio, p.ratio_256) < need]
        out[name] = {
            "threshold": need, "pairs": len(ordered),
            "min_ratio": round(min((p.ratio for p in ordered), default=0), 2),
            "min_ratio_256": round(min((p.ratio_256 for p in ordered), default=0), 2),
            "all" if every else "failing": [
                {"where": p.where, "fg": hex_rgb(p.fg), "bg": hex_rgb(p.bg), "sample": p.sample,
                 "ratio": round(p.ratio, 2), "ratio_256": round(p.ratio_256, 2)} for p in shown],
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="list every pair, not only failures")
    args = parser.parse_args()
    from wiki_tui.cli.app_commands import make_demo_vault
    from wiki_tui.ui.app import WikiApp

    os.environ["TEXTUAL_COLOR_SYSTEM"] = "truecolor"
    with tempfile.TemporaryDirectory(prefix="wiki-tui-contrast-") as scratch:
        os.environ["XDG_CONFIG_HOME"] = str(Path(scratch) / "config")
        os.environ["XDG_STATE_HOME"] = str(Path(scratch) / "state")
        os.environ.pop("WIKI_TUI_MODEL", None)
        vault = make_demo_vault(Path(scratch) / "vault")
        found = asyncio.run(walk(WikiApp(vault), shipped_themes()))
    print(json.dumps(table(found, every=args.all), indent=2))


if __name__ == "__main__":
    main()
