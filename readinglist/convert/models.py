"""The learned models' data: weights and word statistics kept as package data in
``convert/data/*.json``, each rebuilt by its training command (``train_names``,
``train_phrases``, ``train_title_words``, ``train_title_forms``; the file records the command and the corpus hash).

One reader for all of them, and :func:`load_all` to read them once in a parent process before it
forks generation workers (the workers then share the parent's copy instead of each parsing the
JSON again)."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"

__all__ = ["DATA", "read_model", "load_all"]


def read_model(path: Path) -> dict:
    """The model stored at ``path``, or ``{}`` when it is missing or unreadable (generation then
    falls back to its rules)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def load_all() -> None:
    """Read every learned model into its module's cache (before forking workers)."""
    from . import name_model, phrases, title_words, titles
    from .titles.contribution import learned_cue
    from .titles.links import load_model as load_links

    name_model.load_model()
    titles.not_final()
    titles.gerund_starts()
    phrases.load_model()
    title_words.load_model()
    learned_cue()
    load_links()
