"""What the training scripts (:mod:`.train_names`, :mod:`.train_phrases`,
:mod:`.train_title_words`, :mod:`.train_title_forms`, :mod:`.train_contribution_cues`,
:mod:`.train_scope_openers`) share: the
corpus they read by default, reading it and its digest (kept beside each model), their common
command line, and the message when the optional training extra is missing. Never imported at
run time: only the scripts use it."""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

#: ../shared/corpus/train.jsonl.gz beside the repository (a newcomer's clone has none: pass a path)
DEFAULT_CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "train.jsonl.gz"


def read_rows(path: Path, limit: int | None) -> Iterator[dict]:
    """The corpus's JSON lines (at most ``limit``)."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if limit and i >= limit:
                break
            if line.strip():
                yield json.loads(line)


def corpus_sha256(path: Path) -> str:
    """The corpus file's SHA-256 (hex), which each model records as ``corpus_sha256``."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def parser(doc: str | None, out: Path) -> argparse.ArgumentParser:
    """The command line every script has: the corpus (optional) and ``--out`` (its model file)."""
    ap = argparse.ArgumentParser(description=(doc or "").split("\n")[0])
    ap.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    ap.add_argument("--out", default=str(out))
    return ap


#: How many rows the counting scripts read by default (rows from here on are kept for checking).
COUNT_LIMIT = 40000


def counting_args(doc: str | None, out: Path, argv: list[str] | None) -> tuple[argparse.Namespace, Path, str]:
    """A counting script's command line (:func:`parser` and ``--limit``, default
    :data:`COUNT_LIMIT`), parsed; the corpus path and its digest."""
    ap = parser(doc, out)
    ap.add_argument("--limit", type=int, default=COUNT_LIMIT)
    a = ap.parse_args(argv)
    path = Path(a.corpus)
    return a, path, corpus_sha256(path)


def command_line(module: str, a: argparse.Namespace) -> str:
    """The command that rebuilds a counting script's model, as recorded in it."""
    return f"python -m readinglist.convert.{module}" + (f" --limit {a.limit}" if a.limit != COUNT_LIMIT else "")


def write_model(path: str | Path, model: dict) -> None:
    """Write a model as the package keeps it: JSON, one key per line."""
    Path(path).write_text(json.dumps(model, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def missing_sklearn() -> int:
    """Say that training needs the optional extra; the exit status to return."""
    print("training needs scikit-learn: pip install -e '.[train]'", file=sys.stderr)
    return 2
