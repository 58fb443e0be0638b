"""CSL-JSON: reader (importer) and writer (exporter), registered as entry points.

Each is imported when first asked for (PEP 562), as for BibTeX: an export never loads the reader."""

from __future__ import annotations

from ...lazy import lazy_attributes

__all__ = ["importer", "exporter"]

_WHERE = {"importer": "reader", "exporter": "writer"}
__getattr__ = lazy_attributes(__name__, _WHERE)
