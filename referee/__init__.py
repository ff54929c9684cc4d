"""The referee's core: CGR/1 records read, replayed and judged (Python; its hot modules compiled with mypyc
where the set-up found a C compiler, README "Performance")."""
import os
import sys

__version__ = "0.1.0"     # the one place of the version: pyproject.toml reads it from here


class _SourceWhenStale:
    """Imports a module of this package from its source when its compiled build is older than the source
    (an edit takes effect before the next `make`), or always with REFEREE_PURE_PYTHON set (the
    pure-Python build, tested beside the compiled one)."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if not name.startswith("referee.") or name.count(".") != 1:
            return None
        from importlib.machinery import EXTENSION_SUFFIXES
        from importlib.util import spec_from_file_location

        base = os.path.join(os.path.dirname(__file__), name[len("referee."):])
        built = next((base + s for s in EXTENSION_SUFFIXES if os.path.exists(base + s)), None)
        if built is None or not os.path.exists(base + ".py"):
            return None
        if os.environ.get("REFEREE_PURE_PYTHON") or os.path.getmtime(built) < os.path.getmtime(base + ".py"):
            return spec_from_file_location(name, base + ".py")
        return None


sys.meta_path.insert(0, _SourceWhenStale)
