"""elide: a path in the width there is, cut in the middle, never at its end."""

from __future__ import annotations

from hypothesis import given, strategies as st
from rich.cells import cell_len

from wiki_tui.ui.frame.elide import elide


def test_folders_go_first_then_the_middle_of_the_name():
    path = "concepts/Dead reckoning.md"
    assert elide(path, 40) == path
    assert elide(path, 22) == "con…/Dead reckoning.md"
    assert elide(path, 19) == "…/Dead reckoning.md"
    assert elide(path, 16) == "Dead rec…ning.md"
    assert elide("entities/H4.md:12", 10) == "…/H4.md:12"  # a finding's line number stays
    assert elide("entities/H4.md:12", 9) == "H4.m…d:12"
    assert cell_len(elide("entities/北京の港.md", 9)) <= 9  # wide characters count two


names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30)


@given(st.lists(names, min_size=1, max_size=4).map("/".join), st.integers(1, 60))
def test_any_path_fits_and_keeps_its_last_character(path, width):
    shown = elide(path, width)
    assert cell_len(shown) <= max(width, 1) or cell_len(path) <= width
    if shown != path and width >= 3 and cell_len(path[-1]) == 1:
        assert shown.endswith(path[-1]) or shown.endswith("…")
