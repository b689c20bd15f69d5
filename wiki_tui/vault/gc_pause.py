"""`no_gc`: the cyclic garbage collector held off during a burst of allocation.

Python's cyclic GC runs every few hundred container allocations and, now and then, walks every
container alive. A burst that builds many (a vault's index loaded, a megabyte reply turned into
a changeset: ~10^5 links, pages, tuples) pays for it again and again while nothing it builds is
garbage yet: 10-15 % of the burst. With the collector held off, reference counting still frees
everything that is dropped; only reference cycles wait for the next collection after the burst.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def no_gc(freeze: Callable[[], bool] = lambda: False) -> Iterator[None]:
    """No cyclic GC inside the block; after it, `gc.freeze()` too when `freeze()` says so
    (what was built stays out of every later full collection's walk: a loaded index that holds
    no cycles), and the collector back on if it was on."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze():
            gc.freeze()
        if was_enabled:
            gc.enable()


__all__ = ["no_gc"]
