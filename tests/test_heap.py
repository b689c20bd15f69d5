"""The allocator settings of heap.py, in real processes: big blocks freed between small ones
that stay are given back to the system with `return_big_blocks`, and kept (still counted in
RSS) without it; what a loading thread's heap holds free goes back with `give_back`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PRELUDE = r"""
import json, sys, threading
from wiki_tui.heap import give_back, return_big_blocks

def rss_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
"""

CHILD = PRELUDE + r"""
done = return_big_blocks() if sys.argv[1] == "on" else None
bytearray(1 << 20)  # one big block freed: glibc raises its threshold past it
before = rss_mb()
big, small = [], []
for _ in range(200):
    big.append(bytearray(300 * 1024))  # 60 MB in blocks of 300 KB, touched
    small.append(bytearray(600))  # malloc'd between them, and kept
big.clear()
print(json.dumps({"set": done, "kept_mb": rss_mb() - before}))
"""


TRIM_CHILD = PRELUDE + r"""
kept = []
def load():  # a loading thread: its own heap, mostly freed again
    blocks = [bytearray(600) for _ in range(100_000)]
    kept.extend(blocks[::50])
before = rss_mb()
worker = threading.Thread(target=load)
worker.start()
worker.join()
done = give_back() if sys.argv[1] == "on" else None
print(json.dumps({"set": done, "kept_mb": rss_mb() - before}))
"""


def _run(mode: str, child: str = CHILD) -> dict:
    proc = subprocess.run([sys.executable, "-c", child, mode], capture_output=True, text=True,
                          timeout=120, check=True)
    return json.loads(proc.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_big_blocks_freed_go_back_to_the_system():
    on, off = _run("on"), _run("off")
    assert on["set"] is True
    assert on["kept_mb"] < 15, on  # given back
    assert off["kept_mb"] > 45, off  # the default keeps them: the test can tell


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_a_loading_threads_free_memory_goes_back():
    on, off = _run("on", TRIM_CHILD), _run("off", TRIM_CHILD)
    assert on["set"] is True
    assert on["kept_mb"] < 30, on  # 60 MB allocated, a fiftieth kept
    assert off["kept_mb"] > 45, off


def test_elsewhere_it_says_it_did_nothing(monkeypatch):
    from wiki_tui import heap

    monkeypatch.setattr(heap.sys, "platform", "darwin")
    assert heap.return_big_blocks() is False
    assert heap.give_back() is False
