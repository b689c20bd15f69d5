"""The page tree lists a folder's children from one sorted list of paths, bisecting over
subfolders: the same children as grouping every path by hand, for names that sort around "/"
(" ", "-", ".", "0"), case variants, accents and deep nesting; and a real tree in a real app
makes a folder's nodes only when it is expanded, keeping expanded folders across rebuilds."""

from __future__ import annotations

import random

from wiki_tui.ui.browser.panels import PageTree, SortedPaths


def _naive(paths: list[str], folder: str) -> tuple[list[str], list[tuple[str, str]]]:
    folders, files = set(), []
    for path in paths:
        if not path.startswith(folder):
            continue
        rest = path[len(folder):]
        if "/" in rest:
            folders.add(rest.split("/", 1)[0] + "/")
        else:
            files.append((rest, path))
    return sorted(folders, key=lambda f: (f.casefold(), f)), sorted(files, key=lambda f: (f[0].casefold(), f[0]))


def test_children_equal_grouping_every_path_by_hand():
    rng = random.Random(21)
    parts = ["a", "A", "a b", "a-b", "a.b", "a0", "é", "É", "z", "!x", "a/", "b"]
    paths = set()
    for _ in range(3000):
        depth = rng.randint(0, 3)
        folder = "".join(rng.choice(parts).rstrip("/") + "/" for _ in range(depth))
        paths.add(folder + rng.choice(parts).rstrip("/") + f"{rng.randint(0, 9)}.md")
    paths = sorted(paths)
    tree = SortedPaths(reversed(paths))
    folders_seen = {""} | {p[: i + 1] for p in paths for i, ch in enumerate(p) if ch == "/"}
    for folder in sorted(folders_seen):
        got_folders, got_files = tree.children(folder)
        want_folders, want_files = _naive(paths, folder)
        # ties of case variants ("A/" and "a/"): the same set, each sorted case-insensitively
        assert sorted(got_folders) == sorted(want_folders), folder
        assert [f.casefold() for f in got_folders] == [f.casefold() for f in want_folders]
        assert sorted(got_files) == sorted(want_files), folder
        assert [n.casefold() for n, _ in got_files] == [n.casefold() for n, _ in want_files]
    assert tree.children("nowhere/") == ([], [])
    assert all(p in tree for p in paths) and "a/nowhere.md" not in tree and 3 not in tree
    assert len(tree) == len(paths) and list(tree) == paths


async def test_folders_get_nodes_only_when_expanded_and_stay_expanded():
    from textual.app import App

    class TreeApp(App):
        def compose(self):
            yield PageTree(id="page-tree")

    paths = [f"notes/{n:05}.md" for n in range(2000)] + ["notes/deep/x.md", "Home.md", "archive/old.md"]
    app = TreeApp()
    async with app.run_test() as pilot:
        tree = app.query_one(PageTree)
        tree.build(paths)
        await pilot.pause()
        top = [(n.data, len(n.children)) for n in tree.root.children]
        assert top == [("archive/", 0), ("notes/", 0), ("Home.md", 0)]
        notes = tree.root.children[1]
        notes.expand()
        await pilot.pause()
        assert [c.data for c in notes.children[:2]] == ["notes/deep/", "notes/00000.md"]
        assert len(notes.children) == 2001
        tree.build(paths + ["notes/new.md"])  # an outside change: rebuilt, notes/ still open
        await pilot.pause()
        notes = tree.root.children[1]
        assert notes.is_expanded and len(notes.children) == 2002
        assert "notes/new.md" in tree.paths and len(tree.root.children[0].children) == 0
