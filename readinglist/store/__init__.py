"""The TOML store: one hand-editable file per paper, and a derived cache.

Layers, top to bottom:

* :mod:`.library` -- :class:`Store`, the reading-list operations (import, mark, note, tag, rate,
  find, search, reconcile updates) with their locking and history;
* :mod:`.merge` -- how a re-imported or reconciled record updates a stored paper;
* :mod:`.paperfile` -- one paper's TOML file <-> :class:`~readinglist.record.Paper`
  (hand edits and comments kept);
* :mod:`.cache` -- the derived, disposable cache of parsed papers;
* :mod:`.atomic` -- atomic file writes (temp file, fsync, rename), also used for exports.
"""

from __future__ import annotations

from .library import ImportSummary, Store
from .merge import merge_record

__all__ = ["Store", "ImportSummary", "merge_record"]
