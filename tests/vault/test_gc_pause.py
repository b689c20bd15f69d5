"""`no_gc` (vault/gc_pause.py): the cyclic collector off inside, back as it was after."""

from __future__ import annotations

import gc

import pytest

from wiki_tui.vault.gc_pause import no_gc


def test_off_inside_and_back_on_after_even_on_an_error():
    assert gc.isenabled()
    with no_gc():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError):
        with no_gc():
            raise ValueError("bad input")
    assert gc.isenabled()


def test_left_off_when_it_was_off_and_nested_blocks_restore_the_outer_state():
    gc.disable()
    try:
        with no_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    with no_gc():
        with no_gc():
            pass
        assert not gc.isenabled()  # the inner block found it off: it leaves it off
    assert gc.isenabled()


def test_freeze_only_when_asked():
    gc.unfreeze()
    with no_gc():
        [[] for _ in range(10)]
    assert gc.get_freeze_count() == 0
    try:
        with no_gc(lambda: True):
            kept = [[] for _ in range(10)]
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()


def test_cycles_made_inside_are_collected_after():
    import weakref

    class Node:
        pass

    with no_gc():
        a, b = Node(), Node()
        a.other, b.other = b, a
        probe = weakref.ref(a)
        del a, b
        assert probe() is not None  # a cycle: reference counting alone cannot free it
    gc.collect()
    assert probe() is None
