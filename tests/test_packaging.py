"""The package installs without packaging warnings (issue 19): an SPDX licence string and every
folder that ships files declared as a package, so setuptools has nothing to warn about; a command whose
optional extra is missing says which to install (issue 32)."""

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_licence_is_an_spdx_expression_with_its_file():
    assert isinstance(PROJECT["project"]["license"], str) and PROJECT["project"]["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").is_file()


def test_every_folder_that_ships_files_is_a_declared_package():
    setuptools = PROJECT["tool"]["setuptools"]
    declared = set(setuptools["packages"])
    folders = {
        "referee": "referee",
        **{package: folder for package, folder in setuptools["package-dir"].items() if package},
    }
    shipped = {
        ".".join([package, *inner.relative_to(ROOT / folder).parts])
        for package, folder in folders.items()
        for inner in [ROOT / folder, *(ROOT / folder).rglob("*")]
        if inner.is_dir() and inner.name != "__pycache__" and any(p.is_file() for p in inner.iterdir())
    }
    assert shipped == declared
    data = setuptools["package-data"]
    assert all(package in declared for package in data)


def test_only_the_referee_package_is_installed_and_its_command_is_inside_it():
    """No top-level `cli` or `api` in site-packages (issue 32): the repository's folders are installed
    as referee.cli and referee.api."""
    assert {package.split(".")[0] for package in PROJECT["tool"]["setuptools"]["packages"]} == {"referee"}
    assert PROJECT["project"]["scripts"] == {"referee": "referee.cli.start:main"}


# Each command that needs an optional extra, run with (some of) that extra's modules hidden.
WITHOUT = [
    (["serve", "--db", "{tmp}/r.db"], ["flask"], "api"),
    (["serve", "--db", "{tmp}/r.db"], ["waitress", "waitress.server"], "api"),
    (["audit", "samples", "-o", "{tmp}/out"], ["dask"], "dask"),
    (["audit", "samples", "-o", "{tmp}/out", "--format", "parquet"], ["pyarrow"], "dask"),
    (["audit", "samples", "-o", "{tmp}/out", "--integrity"], ["numpy"], "integrity"),
    (["integrity", "samples"], ["numpy"], "integrity"),
]


@pytest.mark.parametrize("args, hidden, extra", WITHOUT)
def test_a_command_whose_extra_is_missing_says_what_to_install(tmp_path, args, hidden, extra):
    code = (
        f"import sys\nfor name in {hidden!r}:\n    sys.modules[name] = None\n"
        f"sys.argv = ['referee', *{[arg.format(tmp=tmp_path) for arg in args]!r}]\n"
        "from referee.cli.main import main\nmain()"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "REFEREE_LANG": "en"},
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"pip install 'cgr-referee[{extra}]'" in done.stderr
    assert not (tmp_path / "out").exists() and not (tmp_path / "r.db").exists()
