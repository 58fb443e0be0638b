"""Plain-text abstract lists (a venue/year header, one abstract per paragraph): the reader."""

from __future__ import annotations

from .reader import importer

__all__ = ["importer"]
