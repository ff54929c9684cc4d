"""The referee's core: CGR/1 records read, replayed and judged (Python; its hot modules compiled with mypyc
where the set-up found a C compiler, docs/internals.md, "Two builds")."""

import os
import sys

__version__ = "0.1.0"  # the one place of the version: pyproject.toml reads it from here


class _SourceWhenStale:
    """Imports the modules of this package from their source, not their compiled build, when any of them was
    edited after the build in a checkout (an edit takes effect before the next `make`; the compiled modules
    share their classes, so it is all or none; an installed package's files bear the time pip wrote them), or
    with REFEREE_PURE_PYTHON set (the pure-Python build, tested beside the compiled one)."""

    stale = None

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if not name.startswith("referee.") or name.count(".") != 1:
            return None
        if cls.stale is None:
            cls.stale = bool(os.environ.get("REFEREE_PURE_PYTHON")) or (
                _in_checkout()
                and any(os.path.getmtime(built) < os.path.getmtime(source) for source, built in _builds())
            )
        source = os.path.join(os.path.dirname(__file__), name[len("referee.") :] + ".py")
        if cls.stale and any(source == s for s, _ in _builds()):
            from importlib.util import spec_from_file_location

            return spec_from_file_location(name, source)
        return None


def _in_checkout() -> bool:
    return os.path.exists(os.path.join(os.path.dirname(__file__), os.pardir, "pyproject.toml"))


def _builds() -> list[tuple[str, str]]:
    """(source, compiled build) of each module of this package that has a build."""
    from importlib.machinery import EXTENSION_SUFFIXES

    folder = os.path.dirname(__file__)
    return [
        (os.path.join(folder, name[: -len(suffix)] + ".py"), os.path.join(folder, name))
        for name in os.listdir(folder)
        for suffix in EXTENSION_SUFFIXES
        if name.endswith(suffix) and os.path.exists(os.path.join(folder, name[: -len(suffix)] + ".py"))
    ]


sys.meta_path.insert(0, _SourceWhenStale)


# The public Python API (referee/public.py, docs/python-api.md), loaded when first used: `import referee` stays cheap.
TYPE_CHECKING = False  # (typing itself is not imported: it takes longer than the rest of this file)
if TYPE_CHECKING:
    from .public import (
        LANGUAGES,
        Explanation,
        Finding,
        Replay,
        Report,
        Step,
        check,
        check_file,
        committed_deal,
        explain,
        games,
        in_language,
        language,
        replay_deal,
        report_json,
        report_text,
        ruling_document,
    )

__all__ = [
    "LANGUAGES",
    "Explanation",
    "Finding",
    "Replay",
    "Report",
    "Step",
    "__version__",
    "check",
    "check_file",
    "committed_deal",
    "explain",
    "games",
    "in_language",
    "language",
    "replay_deal",
    "report_json",
    "report_text",
    "ruling_document",
]


def __getattr__(name: str):
    if name in __all__:
        from . import public

        return getattr(public, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
