"""Markdown reading lists: the writer (exporter)."""

from __future__ import annotations

from .writer import exporter

__all__ = ["exporter"]
