"""A self-contained HTML reading list: the writer (exporter)."""

from __future__ import annotations

from .writer import exporter

__all__ = ["exporter"]
