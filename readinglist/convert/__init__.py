"""The converter: abstract lists in, records with generated key, title and tags out.

Data flows one way through small stages, each a pure function in its own module::

    reader.parse_list      text -> header (venue, year) + paragraphs, stray paragraphs reported
    text.to_plain          the abstract as clean Unicode (LaTeX and Markdown spans converted)
    matching               the same abstract seen before (exactly or nearly) -> one record
    naming.detect_name     the system name the paper introduces, if any
    titles.make_title      a readable title, led by the name
    tagging                topic tags from the taxonomy in config.toml
    keys.make_key          citation key from the pattern in config.toml, unique
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing itself is not imported: it costs start-up, see cli/fast.py)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..config import Config
    from .pipeline import ConvertResult, ItemProgress

# The package is imported by every command (``readinglist.convert`` is bound to the function
# below); the machinery in .pipeline is imported when a conversion runs.
_LAZY = ("Converter", "ConvertResult", "ItemProgress", "generate", "generate_all")


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import pipeline

    return getattr(pipeline, name)


def convert(
    text: str,
    *,
    venue: str | None = None,
    year: int | None = None,
    source: str = "<string>",
    config: Config | None = None,
    taken: Iterable[str] = (),
    processes: int = 1,
    progress: ItemProgress | None = None,
) -> ConvertResult:
    """Convert one abstract list (its text) into records.

    ``venue`` and ``year`` override the list's header; ``source`` names the input in each
    record's provenance; ``taken`` are keys the new records must avoid; ``processes`` > 1 lets
    a large list be generated in forked worker processes (see :func:`.pipeline.generate_all`);
    ``progress(done, total)`` is told how many new abstracts were generated so far.
    """
    from .pipeline import Converter
    from ..config import default_config

    conv = Converter(config=config or default_config(), taken=set(taken), processes=processes, progress=progress)
    conv.add_text(text, source=source, venue=venue, year=year)
    return conv.result()
