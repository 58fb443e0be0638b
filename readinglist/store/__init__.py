"""The TOML store: one hand-editable file per paper, and a derived cache.

Layers, top to bottom:

* :mod:`.library` -- :class:`Store`: opening, reading one paper and changing it by the rules
  of :mod:`.rules` (pure ``Paper -> Paper`` functions); :mod:`.transaction` (lock, pending
  texts, writing), :mod:`.query` (find, search) and :mod:`.wholepapers` (imports, rekey,
  remove) are its parts;
* :mod:`.merge` -- how a re-imported or reconciled record updates a stored paper;
* :mod:`.paperfile` -- one paper's TOML file -> :class:`~readinglist.record.Paper`, checked by
  :mod:`.paperdata` (the one validator); :mod:`.paperrow` -- the file as a plain row, written
  and read back without a TOML parser; :mod:`.paperedit` -- edits that keep a person's layout;
* :mod:`.cache` -- the derived, disposable cache of parsed papers (a package);
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
