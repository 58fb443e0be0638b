"""CSL-JSON: reader (importer) and writer (exporter), registered as entry points."""

from __future__ import annotations

from .reader import importer
from .writer import exporter

__all__ = ["importer", "exporter"]
