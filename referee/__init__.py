"""The referee's core: CGR/1 records read, replayed and judged (pure Python)."""

__version__ = "0.1.0"     # the one place of the version: pyproject.toml reads it from here
