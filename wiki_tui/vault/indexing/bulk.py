"""Reading and parsing many pages at once (the cold build), on two cores when it pays.

Parsing is pure Python and CPU-bound, so threads do not help; a forked child parses half the
pages and sends back plain records (cheap to pickle, unlike Page objects), each with its
link counts (what the link index stores: no need to unpack the record's links again). Fork is used only
where it is safe and worth it: POSIX, two or more CPUs, a big vault, and no other thread
running in this process (forking a threaded process can deadlock the child). Anything going
wrong in the child just means the parent parses that half itself.
"""

from __future__ import annotations

import os
import pickle
import threading
from typing import Callable

from wiki_tui.vault.indexing.cache import Record, link_rows, page_to_record
from wiki_tui.vault.indexing.index import link_counts
from wiki_tui.vault.parse.page import Page

MIN_PAGES_TO_FORK = 2000


Parsed = tuple[Record, dict[str, int]]  # a page's record and its link counts (index.link_counts)


def parse_all(paths: list[str], parse: Callable[[str], Page | None]) -> dict[str, Parsed | None]:
    """path -> (record, link counts) (None: the file vanished)."""
    if not _can_fork(len(paths)):
        return _parse_some(paths, parse)
    split = len(paths) // 2
    mine, theirs = paths[:split], paths[split:]
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: parse, send, leave without running any cleanup of the parent's
        status = 1
        try:
            os.close(read_fd)
            data = pickle.dumps(_parse_some(theirs, parse), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_fd, "wb") as out:
                out.write(data)
            status = 0
        finally:
            os._exit(status)
    os.close(write_fd)
    try:
        result = _parse_some(mine, parse)
        with os.fdopen(read_fd, "rb") as incoming:
            data = incoming.read()
    finally:
        _, status = os.waitpid(pid, 0)
    try:
        other = pickle.loads(data) if status == 0 and data else None
    except Exception:  # noqa: BLE001 - a broken hand-over: parse that half here
        other = None
    result.update(other if isinstance(other, dict) else _parse_some(theirs, parse))
    return result


def _parse_some(paths: list[str], parse: Callable[[str], Page | None]) -> dict[str, Parsed | None]:
    out: dict[str, Parsed | None] = {}
    for path in paths:
        page = parse(path)
        if page is None:
            out[path] = None
        else:
            rows = link_rows(page)
            out[path] = (page_to_record(page, rows), link_counts(rows))
    return out


def _can_fork(count: int) -> bool:
    return (
        count >= MIN_PAGES_TO_FORK
        and hasattr(os, "fork")
        and (os.cpu_count() or 1) >= 2
        and threading.active_count() == 1
        and os.environ.get("WIKI_TUI_NO_FORK") != "1"
    )


__all__ = ["parse_all"]
