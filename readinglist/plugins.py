"""Deprecated alias of :mod:`readinglist.formats.registry` (kept for one release so that plugins
written against 0.1 keep importing ``ExportOptions``/``ImportOptions`` from here)."""

from __future__ import annotations

from .formats.registry import (
    ExportOptions,
    Exporter,
    Importer,
    ImportOptions,
    all_exporters,
    all_importers,
    find_exporter,
    find_importer,
)

__all__ = ["Exporter", "Importer", "ExportOptions", "ImportOptions", "all_exporters", "all_importers", "find_exporter", "find_importer"]
