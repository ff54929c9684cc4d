"""The `referee` command as installed (pyproject.toml's script): the commonest `validate` and `store import` command
lines are read here and run without loading click, whose import and parse of such a line are a third of its
start-up; every other command line goes to click (cli/main.py). Either way the command runs `validate.validate`
(cli/validate.py) or `storing.import_files` (cli/storing.py) in a context of its own, on the same streams, and ends
the same way when interrupted or when the output fails."""

from __future__ import annotations

import errno
import gc
import os
import sys

# Loading the modules makes many objects and no garbage: the cycle collector, which would look at all of them again
# and again as they pile up (a fortieth of a one-record run), is paused meanwhile, and what they made is left out of
# its collections for good (frozen: it lasts as long as the command).
_COLLECTING = gc.isenabled()
gc.disable()

from referee.messages import chosen_language  # noqa: E402

from .language import run_apart, use  # noqa: E402
from .process import aborted, prepare_run, stopped  # noqa: E402
from .validate import MAX_JOBS, validate  # noqa: E402

gc.freeze()
if _COLLECTING:
    gc.enable()

# validate's parameters as click gives them where the command line has no option for them (cli/validate_command.py)
UNGIVEN = {
    "as_json": False,
    "jobs": None,
    "only_invalid": False,
    "severity": "info",
    "rules": (),
    "summary_json": None,
    "quiet": False,
    "color": None,
    "infer": False,
}
# the flags read here, each with the parameter it sets and the value it sets it to (the last one given counts)
FLAGS = {
    "--json": ("as_json", True),
    "--only-invalid": ("only_invalid", True),
    "-q": ("quiet", True),
    "--quiet": ("quiet", True),
    "--color": ("color", True),
    "--no-color": ("color", False),
    "--infer-rules": ("infer", True),
}
VALUED = ("-j", "--jobs", "--lang")  # the options with a value read here: -j N, -jN, --jobs N, --jobs=N, --lang L


def main():
    """The `referee` command."""
    quick = None if os.name == "nt" or _completing() else _quick(sys.argv[1:])
    if quick is None:  # click also expands the arguments' patterns on Windows and completes for the shell
        from .main import main as every_command

        return every_command()
    return run_apart(_run, *quick)


def _quick(args: list[str]):
    """(the command's function, its parameters, the language --lang asks for) of a command line read here, or None."""
    validating = quick_validate(args)
    if validating is not None:
        return (validate, *validating)
    importing = quick_store_import(args)
    if importing is not None:
        return (_import_files, *importing)
    return None


def quick_validate(args: list[str]) -> tuple[dict, str | None] | None:
    """validate's parameters as click reads `args`, and the language its --lang asks for (None: no --lang), for a
    `validate` command line of files, FLAGS, -j/--jobs N and at most one --lang L; None for any other line (help,
    another option, a value click would refuse or convert otherwise, no file), which click reads and explains."""
    if args[:1] != ["validate"]:
        return None
    values, files, lang = dict(UNGIVEN), [], None
    rest = iter(args[1:])
    for arg in rest:
        name, joined, value = arg.partition("=") if arg.startswith("--") else (arg[:2], "", arg[2:])
        if arg == "--":  # what follows is files, whatever it looks like
            files += rest
        elif arg == "-" or not arg.startswith("-"):
            files.append(arg)
        elif arg in FLAGS:
            parameter, flag = FLAGS[arg]
            values[parameter] = flag
        elif name in VALUED and (joined or value or arg == name):
            value = value if joined or value else next(rest, None)
            if value is None:
                return None
            if name == "--lang":
                if lang is not None or not _speaks(value):
                    return None
                lang = value
            elif value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_JOBS:
                values["jobs"] = int(value)
            else:
                return None
        else:
            return None
    values["files"] = tuple(files)
    return (values, lang) if files else None


# store import's options read here, each with its parameter, and their values where the command line has none
STORE_IMPORT = {"--db": "db_path", "--submitter": "submitter"}
STORE_IMPORT_UNGIVEN = {"db_path": "referee.db", "submitter": "cli"}


def quick_store_import(args: list[str]) -> tuple[dict, str | None] | None:
    """store import's parameters as click reads `args`, and the language its --lang asks for (None: no --lang), for a
    `store import` command line of files, --db PATH, --submitter NAME and at most one --lang L (each option also as
    --option=VALUE); None for any other line (help, another option, a value that is empty or starts with a dash, no
    file), which click reads and explains."""
    if args[:2] != ["store", "import"]:
        return None
    values, files, lang = dict(STORE_IMPORT_UNGIVEN), [], None
    rest = iter(args[2:])
    for arg in rest:
        name, joined, value = arg.partition("=")
        if arg == "--":  # what follows is files, whatever it looks like
            files += rest
        elif arg == "-" or not arg.startswith("-"):
            files.append(arg)
        elif name in STORE_IMPORT or name == "--lang":
            value = value if joined else next(rest, None)
            if not value or value.startswith("-"):
                return None
            if name != "--lang":
                values[STORE_IMPORT[name]] = value
            elif lang is not None or not _speaks(value):
                return None
            else:
                lang = value
        else:
            return None
    values["files"] = tuple(files)
    return (values, lang) if files else None


def _import_files(files, db_path: str, submitter: str) -> None:
    """store import (cli/storing.py), its modules loaded as start-up loads this one's: without cycle collections."""
    collecting = gc.isenabled()
    gc.disable()
    from .storing import import_files

    gc.freeze()
    if collecting:
        gc.enable()
    import_files(files, db_path, submitter)


def _speaks(lang: str) -> bool:
    """Whether --lang `lang` names a language the referee speaks (click refuses the others)."""
    try:
        chosen_language(lang)
    except ValueError:
        return False
    return True


def _completing() -> bool:
    """Whether the shell asks click to complete the command line (_REFEREE_COMPLETE, named after the program)."""
    return any(name.startswith("_") and name.endswith("_COMPLETE") and value for name, value in os.environ.items())


def _run(command, values: dict, lang: str | None) -> None:
    """A command (validate, store import) run as click's main runs it for the group (listing.ListingGroup):
    interrupted, click's blank line and "Aborted!"; an output that fails as click or the group ends it."""
    prepare_run()
    if lang is not None:
        use(chosen_language(lang))  # as the --lang option's callback (cli/command.py)
    try:
        command(**values)
    except (EOFError, KeyboardInterrupt):
        import click  # here, as on every path that says something on standard error

        click.echo(file=sys.stderr)  # closes the terminal's ^C, as click's main does
        aborted()
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            stopped(exc)
        from click.utils import _PacifyFlushWrapper  # the reader went away (`| head`): exactly as click's main ends

        sys.stdout = _PacifyFlushWrapper(sys.stdout)
        sys.stderr = _PacifyFlushWrapper(sys.stderr)
        sys.exit(1)
