"""readinglist: conference abstract lists -> citable records, a TOML reading store, exports."""

__version__ = "0.1.0"
