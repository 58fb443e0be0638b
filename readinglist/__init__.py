"""readinglist: conference abstract lists -> citable records, a TOML reading store, exports.

The public API, imported lazily so that ``import readinglist`` (and the CLI's start-up) stays
cheap::

    convert(text, *, venue=None, year=None, source="<string>", config=None) -> ConvertResult
    Store.open(path, *, config=None)                    the TOML store (get/find/search/mark/...)
    load_config(path=None, *, store=None) -> Config
    import_files(store, paths, *, config, ...)          -> ImportReport
    export_papers(papers, options, *, format=None, path=None) -> str   (options: ExportOptions)
    build(store, *, config)                             the main job
    reconcile(store, official_records, ...)             -> ReconcileReport
    Record, Paper, Person, Source                       frozen values
"""

from __future__ import annotations

from .lazy import lazy_attributes

__version__ = "0.1.0"

# ``readinglist.convert`` is both the pipeline's package and its entry-point function. The function
# is bound here, after the package is imported (a light one: the machinery is in
# convert/pipeline.py), so that ``from readinglist import convert`` is always the function; import
# the package's modules with ``from readinglist.convert import naming``.
from .convert import convert as convert  # noqa: E402

_EXPORTS = {
    "Converter": "convert.pipeline",
    "ConvertResult": "convert.pipeline",
    "Store": "store",
    "load_config": "config",
    "Config": "config",
    "import_files": "jobs",
    "export_papers": "jobs",
    "build": "jobs",
    "reconcile": "reconciler",
    "Record": "record",
    "Paper": "record",
    "Person": "record",
    "Source": "record",
    "STATUSES": "record",
}

__all__ = sorted([*_EXPORTS, "convert"]) + ["__version__"]


__getattr__ = lazy_attributes(__name__, _EXPORTS)
