"""The TOML store: one hand-editable file per paper, and a derived cache.

Layers, top to bottom:

* :mod:`.library` -- :class:`Store`, the reading-list operations (import, mark, note, tag, rate,
  find, search, reconcile updates) with their locking and history;
* :mod:`.merge` -- how a re-imported or reconciled record updates a stored paper;
* :mod:`.paperfile` -- one paper's TOML file <-> :class:`~readinglist.record.Paper`
  (hand edits and comments kept); :mod:`.paperrow` -- the same file as a plain row, written
  and read back without the record dataclasses (what single-paper commands use);
* :mod:`.cache` -- the derived, disposable cache of parsed papers;
* :mod:`.atomic` -- atomic file writes (temp file, fsync, rename), also used for exports.

``Store``, ``ImportSummary`` and ``merge_record`` are imported when first asked for, so that
``import readinglist.store.library`` loads no more than the store needs.
"""

from __future__ import annotations

from ..lazy import lazy_attributes

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)
if TYPE_CHECKING:
    from .importer import ImportSummary
    from .library import Store
    from .merge import merge_record

__all__ = ["Store", "ImportSummary", "merge_record"]

_WHERE = {"Store": "library", "ImportSummary": "importer", "merge_record": "merge"}


__getattr__ = lazy_attributes(__name__, _WHERE)
