"""Tables read by their columns (build/knowledge/tables.py): headings reordered over rows that
keep their cells are held; a real column reordering, rows and all, passes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from wiki_tui.changes.build.knowledge.tables import (
    cells,
    cells_reordered,
    columns_relabelled,
    rows_moved_with_columns,
    tables,
)

TABLE = ("Intro.\n\n| Machine | Finished | Notes |\n| --- | :-: | --- |\n| H1 | 1735 | Lisbon |\n"
         "| H4 | 1759 | a watch \\| small |\n\nAfter.\n")


def test_a_table_is_read_by_header_and_rows_with_escaped_bars_kept_in_their_cell():
    (table,) = tables(TABLE)
    assert table.header == ("machine", "finished", "notes")
    assert table.rows[1] == ("h4", "1759", "a watch \\| small")
    assert table.header_line == "| Machine | Finished | Notes |"
    assert cells("|  A  b | c |") == ("a b", "c")


def test_headings_swapped_over_rows_that_keep_their_cells_are_named():
    swapped = TABLE.replace("| Machine | Finished |", "| Finished | Machine |")
    assert columns_relabelled(TABLE, swapped) == [
        "| Machine | Finished | Notes | → | Finished | Machine | Notes |"]
    assert rows_moved_with_columns(TABLE, swapped) == set()


def test_columns_reordered_with_every_rows_cells_pass_and_their_rows_are_explained():
    moved = (TABLE.replace("| Machine | Finished |", "| Finished | Machine |")
             .replace("| H1 | 1735 |", "| 1735 | H1 |").replace("| H4 | 1759 |", "| 1759 | H4 |"))
    assert columns_relabelled(TABLE, moved) == []
    assert rows_moved_with_columns(TABLE, moved) == {
        ("| H1 | 1735 | Lisbon |", "| 1735 | H1 | Lisbon |"),
        ("| H4 | 1759 | a watch \\| small |", "| 1759 | H4 | a watch \\| small |")}


def test_half_the_rows_moved_is_still_a_relabelling():
    half = (TABLE.replace("| Machine | Finished |", "| Finished | Machine |")
            .replace("| H1 | 1735 |", "| 1735 | H1 |"))
    assert columns_relabelled(TABLE, half) != []


def test_a_renamed_heading_or_a_text_without_tables_is_not_read_as_reordered():
    assert columns_relabelled(TABLE, TABLE.replace("Notes", "Remarks")) == []
    assert columns_relabelled("no table", "| a | b |") == []


_CELL = st.text(alphabet="abcdefgh0123", min_size=1, max_size=5)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_property_a_permutation_of_header_and_rows_is_a_reordering_of_header_alone_a_relabelling(data):
    width = data.draw(st.integers(2, 5))
    header = data.draw(st.lists(_CELL, min_size=width, max_size=width, unique=True))
    rows = data.draw(st.lists(st.lists(_CELL, min_size=width, max_size=width, unique=True),
                              min_size=1, max_size=4, unique_by=tuple))
    order = data.draw(st.permutations(range(width)))
    if list(order) == list(range(width)):
        return

    def table(head, body):
        lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * width]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in body]) + "\n"

    base = table(header, rows)
    whole = table([header[k] for k in order], [[r[k] for k in order] for r in rows])
    assert columns_relabelled(base, whole) == []
    assert len(rows_moved_with_columns(base, whole)) == len(rows)
    alone = table([header[k] for k in order], rows)
    assert columns_relabelled(base, alone) != []  # each row's cells are distinct: they did not move


def test_cells_put_in_another_order_under_the_same_header_are_named():
    shuffled = TABLE.replace("| H1 | 1735 | Lisbon |", "| H1 | Lisbon | 1735 |")
    assert cells_reordered(TABLE, shuffled) == ["| H1 | 1735 | Lisbon | → | H1 | Lisbon | 1735 |"]
    edited = TABLE.replace("| H1 | 1735 | Lisbon |", "| H1 | 1736 | Lisbon |")
    assert cells_reordered(TABLE, edited) == []  # a cell changed: the figure readings say so
    moved = (TABLE.replace("| Machine | Finished |", "| Finished | Machine |")
             .replace("| H1 | 1735 |", "| 1735 | H1 |").replace("| H4 | 1759 |", "| 1759 | H4 |"))
    assert cells_reordered(TABLE, moved) == []  # the header moved with them: columns reordered
    rows_swapped = TABLE.replace("| H1 | 1735 | Lisbon |\n| H4 | 1759 | a watch \\| small |",
                                 "| H4 | 1759 | a watch \\| small |\n| H1 | 1735 | Lisbon |")
    assert rows_swapped != TABLE and cells_reordered(TABLE, rows_swapped) == []  # rows moved whole
