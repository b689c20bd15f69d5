"""Adopting a large Obsidian vault: lint findings by code before and after `wiki-tui init`.

    uv run python benchmarks/bench_adopt.py [--pages 6000] [--seed 1] [--dir DIR]

Generates an Obsidian-like vault (deterministic for a seed): `.obsidian/`, no AGENTS.md, most
notes without frontmatter, some with tags or a `type`, daily notes, a few notes with broken YAML,
links in the usual forms with some pointing nowhere, attachments, and same-named notes in
different folders (some pairs a bare [[Name]] cannot tell apart, most it can). Then:

- before: `Vault.open` + `lint()` on the vault as generated (findings by code, seconds);
- init: `adopt_folder` (what `wiki-tui init DIR` runs): draft AGENTS.md, index.md, log.md,
  a new git repository, a commit of the added files (seconds);
- after: `lint()` on the adopted vault (findings by code, seconds), and that no note changed.

Prints one JSON object. Run it against an older checkout (PYTHONPATH) to see that code's
"before"; the "init" and "after" parts need `wiki_tui.changes.apply.adopt`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WORDS = ("garden river market engine theory signal memory archive harbor bridge lantern "
         "compass beacon ledger council method pattern stream meadow summit").split()
FOLDERS = ["Projects", "People", "Areas/Health", "Areas/Work", "Resources/Books",
           "Resources/Articles", "Ideas", "Archive/2021", "Archive/2022", "Inbox"]


def generate(root: Path, pages: int, seed: int) -> dict:
    """Write the vault; returns what was planted (for the JSON)."""
    rng = random.Random(seed)
    (root / ".obsidian").mkdir(parents=True)
    (root / ".obsidian/app.json").write_text('{"newLinkFormat": "shortest"}\n')
    (root / "attachments").mkdir()
    for i in range(40):
        (root / f"attachments/image {i}.png").write_bytes(b"\x89PNG" + bytes([i]))
    names: list[tuple[str, str]] = []  # (folder, name)
    daily = pages // 4
    for i in range(daily):
        day = 738000 + i  # consecutive dates from 2021-07
        names.append(("Daily", _date(day)))
    used = set()
    while len(names) < pages:
        folder = rng.choice(FOLDERS)
        name = " ".join(rng.sample(WORDS, rng.choice((1, 2, 2, 3)))).capitalize() + f" {len(names)}"
        if name.lower() not in used:
            used.add(name.lower())
            names.append((folder, name))
    # Same-named notes: "Ideas/Meeting 1" and "Inbox/Meeting 1" tie on length (a real clash);
    # "Projects/Plan 1" and "Resources/Books/Plan 1" do not (the shorter one wins [[Plan 1]]).
    ties = [("Ideas", f"Shared note {i}") for i in range(30)] + [("Inbox", f"Shared note {i}") for i in range(30)]
    unequal = [("Projects", f"Plan {i}") for i in range(30)] + [("Resources/Books", f"Plan {i}") for i in range(30)]
    names[-120:] = ties + unequal
    targets = [n for _, n in names]
    broken = bad_yaml = 0
    for n, (folder, name) in enumerate(names):
        lines = []
        roll = rng.random()
        if n % 250 == 7:
            lines += ["---", "tags: [unclosed", "---"]
            bad_yaml += 1
        elif roll < 0.25:
            lines += ["---", f"tags: [{rng.choice(WORDS)}]", "---"]
        elif roll < 0.35:
            kind = "person" if folder == "People" else rng.choice(("note", "project", "reference"))
            lines += ["---", f"type: {kind}", f"created: 2022-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}", "---"]
        lines.append(f"# {name}")
        for _ in range(rng.randint(1, 4)):
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 14)))
            link = rng.choice(targets)
            form = rng.random()
            if form < 0.85 and rng.random() < 0.02:
                link = f"Missing {rng.randint(0, 10**6)}"
                broken += 1
            if form < 0.7:
                lines.append(f"{words} [[{link}]].")
            elif form < 0.85:
                lines.append(f"{words} [[{link}|{rng.choice(WORDS)}]].")
            else:
                lines.append(f"{words} ![[image {rng.randrange(40)}.png]]")
        path = root / folder / f"{name}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return {"pages": len(names), "broken_links_planted": broken, "bad_yaml_planted": bad_yaml,
            "same_name_pairs_tied": 30, "same_name_pairs_resolvable": 30}


def _date(ordinal: int) -> str:
    import datetime as dt

    return dt.date.fromordinal(ordinal).isoformat()


def lint_by_code(root: Path) -> tuple[dict, float]:
    from wiki_tui.vault import Vault

    start = time.perf_counter()
    vault = Vault.open(root, use_cache=False)
    try:
        findings = vault.lint()
    finally:
        vault.close()
    seconds = time.perf_counter() - start
    return dict(sorted(Counter(f.code for f in findings).items())), round(seconds, 2)


def fingerprint(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.md")):
        if ".git" in path.parts or path.name in ("AGENTS.md", "index.md", "log.md"):
            continue
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def run(root: Path, pages: int, seed: int) -> dict:
    start = time.perf_counter()
    out: dict = {"vault": generate(root, pages, seed)}
    out["generate_s"] = round(time.perf_counter() - start, 2)
    before, out["lint_before_s"] = lint_by_code(root)
    out["before"] = {"total": sum(before.values()), "by_code": before}
    try:
        from wiki_tui.changes.apply.adopt import adopt_folder
    except ImportError:
        out["after"] = None  # an older checkout: no adoption to measure
        return out
    notes = fingerprint(root)
    start = time.perf_counter()
    adoption = adopt_folder(root)
    out["init_s"] = round(time.perf_counter() - start, 2)  # includes its own lint after
    out["init_added"] = adoption.added
    after, out["lint_after_s"] = lint_by_code(root)
    out["after"] = {"total": sum(after.values()), "by_code": after}
    out["notes_unchanged"] = fingerprint(root) == notes
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=None, help="generate here (default: a temp folder)")
    args = parser.parse_args(argv)
    if args.dir is not None:
        result = run(args.dir, args.pages, args.seed)
    else:
        with tempfile.TemporaryDirectory(prefix="bench-adopt-") as tmp:
            result = run(Path(tmp) / "vault", args.pages, args.seed)
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
