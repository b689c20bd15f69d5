"""Generate a deterministic synthetic vault for benchmarks.

    uv run python benchmarks/gen_vault.py DIR --pages 10000 [--seed N] [--git]

Pages live in type folders (some nested), carry YAML frontmatter (title, type, summary, aliases,
tags, sources), 1-6 links each in every common form (plain, aliased, heading, block, embed,
markdown, frontmatter), code fences and inline code holding link-like text that must not count,
headings, block ids, a few unresolved links, and duplicate names in two folders. The vault also
gets raw/ sources, a few attachments, AGENTS.md, index.md and log.md. Same seed, same bytes.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from pathlib import Path

WORDS = (
    "review meeting budget design system network memory signal model theory river market "
    "engine garden protocol archive library window history policy energy carbon climate ocean "
    "forest vector matrix kernel cluster thread socket router cache index query token parser "
    "compiler runtime harbor bridge tower valley summit glacier desert island canyon meadow "
    "lantern compass anchor beacon circuit sensor filter buffer stream channel ledger contract "
    "treaty council senate court charter reform union labor wage price credit bond equity "
    "asset risk audit census survey sample metric signal noise pattern method analysis"
).split()
FUNCTION_WORDS = (
    "the of and a to in is that it for as was with on by be this are from at or an which "
    "not have has but were their its they more can also been than other into these such"
).split()
SYLLABLES = "ka lo mi ne ru sa te vi do pe gra tor lin mar sel quo bri den fa zu".split()
TYPES = {
    "source": "sources",
    "entity": "entities",
    "concept": "concepts",
    "synthesis": "syntheses",
    "answer": "answers",
}
SUBFOLDERS = ("", "", "", "alpha", "beta", "gamma/deep")
TAGS = ("economics", "ecology", "computing", "history", "law", "physics", "draft", "topic/sub")

AGENTS_MD = """---
required_fields: [title, type, summary]
types:
  source: sources
  entity: entities
  concept: concepts
  synthesis: syntheses
  answer: answers
---
# Conventions

Every page has a title, a type and a one-line summary in its frontmatter.
Link pages with `[[wikilinks]]`; cite sources from raw/.
"""


def _title(rng: random.Random, used: set[str]) -> str:
    while True:
        n = rng.choice((2, 2, 3, 3, 4))
        title = " ".join(rng.choice(WORDS).capitalize() for _ in range(n))
        if title not in used:
            used.add(title)
            return title


def _vocabulary() -> tuple[list[str], list[float]]:
    """Body words with a Zipf-like frequency: function words, title words, then ~3,000 made-up
    words, so a search term matches a realistic share of pages (not half the vault)."""
    rng = random.Random(12345)
    made_up: list[str] = []
    seen = set(WORDS) | set(FUNCTION_WORDS)
    while len(made_up) < 3000:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            made_up.append(word)
    vocab = [*FUNCTION_WORDS, *made_up[:200], *WORDS, *made_up[200:]]
    cum, total = [], 0.0
    for rank in range(len(vocab)):
        total += 1.0 / (rank + 2)
        cum.append(total)
    return vocab, cum


_VOCAB, _CUM = _vocabulary()


def _sentence(rng: random.Random, n: int = 0) -> str:
    words = rng.choices(_VOCAB, cum_weights=_CUM, k=n or rng.randint(8, 18))
    return " ".join(words).capitalize() + "."


def _link(rng: random.Random, pages: list[dict], me: dict) -> str:
    other = pages[rng.randrange(len(pages))]
    name, path = other["name"], other["path"][:-3]
    form = rng.random()
    if form < 0.30:
        return f"[[{name}]]"
    if form < 0.45:
        return f"[[{path}|{other['title'].lower()}]]"
    if form < 0.55:
        return f"[[{name}#Details]]"
    if form < 0.62:
        return f"[[{name}#^{other['block']}]]"
    if form < 0.67:
        return f"![[{name}]]"
    if form < 0.80:
        return f"[{other['title']}]({path.replace(' ', '%20')}.md)"
    if form < 0.85:
        return f"[{other['title']}](<{path}.md>)"
    if form < 0.90:
        return f"![[figure-{rng.randrange(20)}.png|200]]"
    if form < 0.94:
        return f"[[{name.upper()}]]"  # case-insensitive match
    if form < 0.97:
        return f"[[Missing {rng.choice(WORDS).capitalize()} {rng.randrange(50)}]]"  # unresolved
    return f"[[{me['name']}#Details]]"


def _page_text(rng: random.Random, page: dict, pages: list[dict]) -> str:
    aliases = [a for a in page["aliases"]]
    fm = [
        "---",
        f"title: {page['title']}",
        f"type: {page['type']}",
    ]
    if rng.random() > 0.03:  # a few pages miss a required field
        fm.append(f"summary: {_sentence(rng, 10)}")
    fm.append(f"aliases: [{', '.join(aliases)}]" if aliases else "aliases: []")
    fm.append(f"tags: [{', '.join(rng.sample(TAGS, rng.randint(0, 3)))}]")
    fm.append(f"sources: [\"[[raw/source-{rng.randrange(10)}.md]]\"]")
    if rng.random() < 0.1:
        other = pages[rng.randrange(len(pages))]
        fm.append(f'related: "[[{other["name"]}]]"')
    fm.append("---")
    body = [f"# {page['title']}", ""]
    links = [_link(rng, pages, page) for _ in range(rng.randint(1, 6))]
    paras = rng.randint(2, 5)
    for i in range(paras):
        sentences = [_sentence(rng) for _ in range(rng.randint(2, 5))]
        # Spread links over the paragraphs.
        for j, link in enumerate(links):
            if j % paras == i:
                sentences.insert(rng.randrange(len(sentences) + 1), f"See {link}.")
        if rng.random() < 0.2:  # a plain-text mention of another page (unlinked mention)
            sentences.append(f"Compare {pages[rng.randrange(len(pages))]['title']}.")
        if rng.random() < 0.3:
            sentences.append(f"Inline `[[Not A Link {i}]]` #{rng.choice(TAGS)}.")
        text = " ".join(sentences)
        if i == 0:
            text += f" ^{page['block']}"
        body += [text, ""]
        if i == 0:
            body += ["## Details", ""]
    if rng.random() < 0.4:
        body += [
            "```python",
            f'links = "[[Fake {rng.randrange(100)}]] and [x](nowhere.md)"',
            "print(links)",
            "```",
            "",
        ]
    if rng.random() < 0.1:
        body += ["%% a comment with [[Hidden Link]] %%", ""]
    body += ["## Notes", "", _sentence(rng), ""]
    return "\n".join(fm) + "\n" + "\n".join(body)


def _index_md(pages: list[dict]) -> str:
    out = ["# Index", "", "_Generated by wiki-tui from page frontmatter. Edits here are overwritten._", ""]
    for type_, folder in TYPES.items():
        entries = sorted((p for p in pages if p["type"] == type_), key=lambda p: p["title"].casefold())
        if not entries:
            continue
        out += [f"## {folder.capitalize()}", ""]
        out += [f"- [[{p['path'][:-3]}|{p['title']}]] — {p['title'].lower()}" for p in entries]
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def generate(root: Path, pages_n: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    used: set[str] = set()
    pages: list[dict] = []
    names_seen: dict[str, int] = {}
    for i in range(pages_n):
        type_ = rng.choices(list(TYPES), weights=(2, 4, 5, 1, 1))[0]
        folder = TYPES[type_]
        sub = rng.choice(SUBFOLDERS)
        title = _title(rng, used)
        name = title
        if i % 97 == 5 and pages:  # duplicate file name in another folder (ambiguous links)
            name = pages[rng.randrange(len(pages))]["name"]
        path = f"{folder}/{sub}/{name}.md" if sub else f"{folder}/{name}.md"
        if path in names_seen:
            path = path[:-3] + f" {i}.md"
            name = Path(path).stem
        names_seen[path] = i
        aliases = []
        if rng.random() < 0.3:
            aliases.append("".join(w[0] for w in title.split()).upper() + str(i))
        if rng.random() < 0.2:
            aliases.append(title.split()[-1] + f" ({i})")
        pages.append(
            {"title": title, "name": name, "path": path, "type": type_, "aliases": aliases, "block": f"b{i}"}
        )
    root.mkdir(parents=True, exist_ok=True)
    for page in pages:
        target = root / page["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_page_text(rng, page, pages), encoding="utf-8")
    raw = root / "raw"
    raw.mkdir(exist_ok=True)
    for i in range(10):
        (raw / f"source-{i}.md").write_text(f"# Source {i}\n\n" + _sentence(rng, 40) + "\n", encoding="utf-8")
    att = root / "attachments"
    att.mkdir(exist_ok=True)
    for i in range(20):
        (att / f"figure-{i}.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes([i]) * 16)
    (root / "AGENTS.md").write_text(AGENTS_MD, encoding="utf-8")
    (root / "index.md").write_text(_index_md(pages), encoding="utf-8")
    (root / "log.md").write_text(
        "# Log\n\n## [2026-01-01] ingest | Synthetic vault\n- created: generated pages\n", encoding="utf-8"
    )
    (root / ".gitignore").write_text(".wiki-tui/\n", encoding="utf-8")


def make_git(root: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("config", "user.email", "bench@example.invalid")
    git("config", "user.name", "wiki-tui bench")
    git("config", "commit.gpgsign", "false")
    git("add", "-A")
    git("commit", "-q", "-m", "synthetic vault")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--pages", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--git", action="store_true", help="make it a git repository, all committed")
    args = parser.parse_args(argv)
    if args.dir.exists() and any(args.dir.iterdir()):
        print(f"error: {args.dir} is not empty", file=sys.stderr)
        return 2
    generate(args.dir, args.pages, args.seed)
    if args.git:
        make_git(args.dir)
    print(f"wrote {args.pages} pages to {args.dir}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
