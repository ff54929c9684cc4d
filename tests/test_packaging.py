"""The package installs without packaging warnings (issue 19): an SPDX licence string and every
folder that ships files declared as a package, so setuptools has nothing to warn about."""
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_licence_is_an_spdx_expression_with_its_file():
    assert isinstance(PROJECT["project"]["license"], str) and PROJECT["project"]["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").is_file()


def test_every_folder_that_ships_files_is_a_declared_package():
    declared = set(PROJECT["tool"]["setuptools"]["packages"])
    shipped = {str(folder.relative_to(ROOT)).replace("/", ".")
               for top in ("referee", "cli", "api") for folder in [ROOT / top, *(ROOT / top).rglob("*")]
               if folder.is_dir() and folder.name != "__pycache__" and any(p.is_file() for p in folder.iterdir())}
    assert shipped == declared
    data = PROJECT["tool"]["setuptools"]["package-data"]
    assert all(package in declared for package in data)
