"""One helper for pausing Python's cyclic garbage collector around bulk work."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while many small, acyclic objects are built.

    Loading tens of thousands of cached papers, or exporting them, allocates hundreds of
    thousands of short-lived objects (dataclasses, fields, strings); with 20,000 papers alive the
    collector's repeated full passes take much of a cache load and of an export.
    Nothing built there forms reference cycles, so reference counting frees it all as usual.
    The collector is restored afterwards, also when the work raises. Library code never freezes
    or disables the collector for good: that is the command-line process's choice (cli.main).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
