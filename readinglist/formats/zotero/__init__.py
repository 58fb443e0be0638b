"""Zotero RDF: writer (exporter), registered as an entry point."""

from __future__ import annotations

from .writer import exporter

__all__ = ["exporter"]
