"""Formats, both directions of each together: a package per format holds its reader (importer),
its writer (exporter) and the vocabulary the two share. Every importer and exporter, built-in or
third-party, is found through entry points by :mod:`.registry`."""
