"""What the generated fields depend on, as one fingerprint: the generator's version.

:func:`generator_version` hashes everything :func:`readinglist.convert.generation.generate` reads
besides the abstract: the generation code (this package's modules but the training scripts, and
:mod:`readinglist.text`), its learned models (``convert/data/*``), the Unicode database and the
LaTeX reader it converts with, and the settings of the tagger (taxonomy, minimum score, number
of tags). Two runs with the same fingerprint generate the same fields from the same abstract, so
fields generated once can be reused (:mod:`readinglist.store.genmemo`); any change to the code,
a model or the taxonomy gives another fingerprint, and every abstract is generated again.
"""

from __future__ import annotations

from functools import lru_cache
from hashlib import blake2b
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..config import Config

_CONVERT = Path(__file__).resolve().parent
_TEXT = _CONVERT.parent / "text"


def _is_generation_code(path: Path) -> bool:
    return path.suffix == ".py" and not path.name.startswith(("train_", "training"))


def _code_files(folder: Path) -> list[Path]:
    """The generation code in ``folder`` and its subpackages (``convert/titles/``), sorted."""
    return sorted(p for p in folder.rglob("*.py") if _is_generation_code(p) and "__pycache__" not in p.parts)


@lru_cache(maxsize=1)
def code_version() -> bytes:
    """The fingerprint of the generation code and models (16 bytes), read once per process."""
    import unicodedata

    from .. import __version__

    h = blake2b(digest_size=16)
    h.update(f"readinglist {__version__}; unicode {unicodedata.unidata_version}; pylatexenc {_version_of('pylatexenc')}".encode())
    files = _code_files(_CONVERT) + _code_files(_TEXT)
    files += sorted(p for p in (_CONVERT / "data").iterdir() if p.is_file())
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            data = b"(unreadable)"
        h.update(f"\0{path.relative_to(_CONVERT.parent).as_posix()}\0{len(data)}\0".encode())
        h.update(data)
    return h.digest()


def generator_version(config: Config) -> bytes:
    """The fingerprint of what generates the fields with ``config``'s tagger (16 bytes)."""
    h = blake2b(code_version(), digest_size=16)
    from .tagging import tagger_settings

    h.update(repr(tagger_settings(config)).encode())
    return h.digest()


def _version_of(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "none"
