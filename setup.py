"""The build's code (pyproject.toml holds the rest): the hot modules, the Makefile's COMPILED, compiled with
mypyc where a C compiler and mypy are (pure Python otherwise, or with REFEREE_PURE_BUILD set), and the
message catalogues (.mo) compiled from the committed .po files into the build."""

import os
import re
import shutil
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).parent
# mypyc writes the group as one C file: with no symbol interposed or exported but the modules' own, gcc may
# inline its small functions into their callers (about 3% fewer instructions a record)
INLINABLE = ["-fno-semantic-interposition", "-fvisibility=hidden"]
COMPILED = re.search(r"^COMPILED := (.*)$", (HERE / "Makefile").read_text(encoding="utf-8"), re.M).group(1).split()


def compiled_modules() -> list:
    """The mypyc extensions, with their shared library inside the package (referee/compiled__mypyc), or
    none, and why."""
    if os.environ.get("REFEREE_PURE_BUILD"):
        return []
    if not shutil.which((sysconfig.get_config_var("CC") or "cc").split()[0]):
        print("no C compiler: the pure-Python build is used")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("no mypy (mypyc): the pure-Python build is used")
        return []
    extensions = mypycify(COMPILED, group_name="referee.compiled")
    for extension in extensions:  # the modules share one list of flags
        extension.extra_compile_args = [*extension.extra_compile_args, *INLINABLE]
    return extensions


class BuildPy(build_py):
    """The package's files, and each .po catalogue compiled to its .mo beside it."""

    def run(self):
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in HERE.glob("referee/locale/*/LC_MESSAGES/*.po"):
            mo = Path(self.build_lib, po.relative_to(HERE)).with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source, mo.open("wb") as target:
                write_mo(target, read_po(source))


setup(ext_modules=compiled_modules(), cmdclass={"build_py": BuildPy})
