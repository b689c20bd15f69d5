"""Allocator setting for a long-lived process holding a big vault (glibc; elsewhere nothing).

glibc's malloc serves blocks of 128 KB and more from their own mappings, but raises that
threshold each time such a block is freed (up to 32 MB). After the first big temporary of a load
is freed, the following ones (50k-entry dicts and lists, SQLite result sets, the finder's sort
orders) come from the heap, and the heap keeps what they free: at 50k pages the app held 46 MB
free in its heap that RSS still counts, and `malloc_trim` gave back only 15 MB of it (small
blocks left between them pin the pages). A fixed threshold of 64 KB keeps every big block in its
own mapping, given back when freed: the app's RSS at 50k pages went from 194 to 151 MB.
What the loading threads' own heaps (glibc gives each thread an arena) hold free once the vault is
loaded goes back with `malloc_trim` (`give_back`): 12 MB more at 50k pages.
"""

from __future__ import annotations

import sys

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter
BIG_BLOCK = 64 * 1024


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # 3 ms, paid in the loading worker, not before the first paint

    try:
        libc = ctypes.CDLL(None)
        libc.mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
        libc.malloc_trim.argtypes = (ctypes.c_size_t,)
    except (OSError, AttributeError):  # not glibc
        return None
    return libc


def give_back() -> bool:
    """Return the free memory of every heap to the system (after a big load); False where it
    cannot (not Linux with glibc)."""
    libc = _libc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True


def return_big_blocks() -> bool:
    """Serve every block of BIG_BLOCK bytes or more from its own mapping from now on (given back
    to the system when freed). Process-wide and idempotent; False where it cannot be set (not
    Linux with glibc)."""
    libc = _libc()
    return libc is not None and libc.mallopt(M_MMAP_THRESHOLD, BIG_BLOCK) == 1
