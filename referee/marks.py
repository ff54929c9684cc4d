"""The marks mypy and mypyc read on the compiled modules' classes (docs/internals.md, "Two builds"), as Python runs
them: `final` and `mypyc_attr` from typing and mypy_extensions mark a class and change nothing else, and a compiled
class is not decorated at all. Here they are no-ops, so that checking records imports neither typing (about 4 ms of
a process's start-up) nor mypy_extensions (which imports typing); marks.pyi gives mypy the real ones."""


def final(cls):
    return cls


def mypyc_attr(*attrs, **kwattrs):
    return lambda cls: cls
