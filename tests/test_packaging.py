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
    setuptools = PROJECT["tool"]["setuptools"]
    declared = set(setuptools["packages"])
    folders = {"referee": "referee", **{package: folder for package, folder in setuptools["package-dir"].items() if package}}
    shipped = {".".join([package, *inner.relative_to(ROOT / folder).parts])
               for package, folder in folders.items() for inner in [ROOT / folder, *(ROOT / folder).rglob("*")]
               if inner.is_dir() and inner.name != "__pycache__" and any(p.is_file() for p in inner.iterdir())}
    assert shipped == declared
    data = setuptools["package-data"]
    assert all(package in declared for package in data)


def test_only_the_referee_package_is_installed_and_its_command_is_inside_it():
    """No top-level `cli` or `api` in site-packages (issue 32): the repository's folders are installed
    as referee.cli and referee.api."""
    assert {package.split(".")[0] for package in PROJECT["tool"]["setuptools"]["packages"]} == {"referee"}
    assert PROJECT["project"]["scripts"] == {"referee": "referee.cli.main:main"}
