"""BibTeX: reader (importer) and writer (exporter), registered as entry points.

Each is imported when first asked for (PEP 562): an import of a ``.bib`` never loads the writer
(and its text escapes' tables), an export never the reader."""

from __future__ import annotations

from ...lazy import lazy_attributes

__all__ = ["importer", "exporter"]

_WHERE = {"importer": "reader", "exporter": "writer"}
__getattr__ = lazy_attributes(__name__, _WHERE)
