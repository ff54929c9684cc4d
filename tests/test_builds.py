"""The two builds (issue 20): the hot modules compiled with mypyc where the set-up found a C compiler, and
pure Python; both make the golden reports, and a module edited after the build puts them all back to their source."""

import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import referee

ROOT = Path(__file__).parent.parent
GOLDEN_CHECK = """
import referee.actions, referee.gouji
from tests.golden import read, report_of
from tests.test_golden_reports import as_golden
differ = [i for i, line in enumerate(read()) if as_golden(report_of(line["record"]), line["report"]) != line["report"]]
print(referee.gouji.__file__, referee.actions.__file__, differ)
"""


def _env(path, **more) -> dict:
    """This environment without a REFEREE_PURE_PYTHON of its own, PYTHONPATH `path`, and `more`."""
    return {**{k: v for k, v in os.environ.items() if k != "REFEREE_PURE_PYTHON"}, "PYTHONPATH": str(path), **more}


def _run(code: str, path: str, **env) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT, env=_env(path, **env)
    ).stdout


def test_the_pure_python_build_makes_the_golden_reports():
    gouji, actions, differ = _run(GOLDEN_CHECK, str(ROOT), REFEREE_PURE_PYTHON="1").split(" ", 2)
    assert gouji.endswith("gouji.py") and actions.endswith("actions.py") and differ.strip() == "[]"


def test_the_compiled_build_is_imported_when_it_is_newer_than_its_source():
    built = [ROOT / "referee" / ("gouji" + suffix) for suffix in EXTENSION_SUFFIXES]
    if not any(b.exists() and b.stat().st_mtime >= (ROOT / "referee" / "gouji.py").stat().st_mtime for b in built):
        pytest.skip("no compiled build (no C compiler at set-up, or `make pure`)")
    gouji, actions, differ = _run(GOLDEN_CHECK, str(ROOT)).split(" ", 2)
    assert gouji.endswith(".so") and actions.endswith(".so") and differ.strip() == "[]"


@pytest.mark.parametrize(
    "hot_build_newer, other_build_newer, imported",
    [(True, True, "build"), (False, True, "source"), (True, False, "source")],
)
def test_a_module_edited_after_the_build_puts_every_module_back_to_its_source(
    tmp_path, hot_build_newer, other_build_newer, imported
):
    """The compiled modules share their classes: one edited after the build, and none of the build is used."""
    result = _import_with_builds(tmp_path, hot_build_newer, other_build_newer, checkout=True)
    if imported == "build":
        assert result.returncode != 0 and "ImportError" in result.stderr
    else:
        assert result.stdout.strip() == "source"


def test_an_installed_package_uses_its_build_whatever_the_times_pip_gave_its_files(tmp_path):
    result = _import_with_builds(tmp_path, False, False, checkout=False)
    assert result.returncode != 0 and "ImportError" in result.stderr


def _import_with_builds(tmp_path, hot_build_newer, other_build_newer, checkout):
    """`import referee.hot` from a package of two modules with a (broken) build each, older or newer than its
    source, in a checkout (pyproject.toml beside the package) or installed."""
    if checkout:
        (tmp_path / "pyproject.toml").write_text("")
    package = tmp_path / "referee"
    package.mkdir()
    (package / "__init__.py").write_text(Path(referee.__file__).read_text())
    for name, newer in (("hot", hot_build_newer), ("other", other_build_newer)):
        (package / f"{name}.py").write_text("WHERE = 'source'\n")
        build = package / (name + EXTENSION_SUFFIXES[0])
        build.write_bytes(b"not a shared library")  # importing it fails: it is passed over only when stale
        source_time = (package / f"{name}.py").stat().st_mtime
        os.utime(build, (source_time + 10,) * 2 if newer else (source_time - 10,) * 2)
    return subprocess.run(
        [sys.executable, "-c", "import referee.hot; print(referee.hot.WHERE)"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
    )
