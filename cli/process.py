"""What every run of the `referee` command does first, and how it ends when interrupted or when its output fails,
whoever reads its command line: click (listing.ListingGroup) or cli/start.py."""

from __future__ import annotations

import errno
import os
import sys

from referee.batch import os_problem
from referee.messages import chosen_language, part

from .common import EXIT_INTERRUPTED, EXIT_UNREADABLE, to_stderr
from .language import use

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from typing import NoReturn

msg, msg_n, word, word_of = part("cli")


def prepare_run() -> None:
    """What every run of the command does first: speak the environment's language (until --lang is read), read a
    standard stream the caller closed as empty and write it to nowhere, and write what the output's encoding cannot
    carry escaped."""
    use(chosen_language())
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:  # closed by the caller (`<&-`)
            setattr(sys, name, open(os.devnull, mode))  # noqa: SIM115 (the process's, until it ends)
    for stream in (sys.stdout, sys.stderr):  # as \uXXXX (PYTHONIOENCODING=ascii, a Latin-1 terminal), never a traceback
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def aborted() -> NoReturn:
    """An interrupted command (Ctrl-C) exits 130, as shells count it (click exits 1)."""
    from gettext import gettext as _  # here: click's word, as click's gettext says it (cli/language.py)

    to_stderr(_("Aborted!"))
    sys.exit(EXIT_INTERRUPTED)


def stopped(exc: OSError) -> NoReturn:
    """A command stopped by an OSError that it did not explain itself, mostly its output failing: exit 1 where the
    reader went away (`| head`), as click does, else say why and exit 2."""
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (not written again when Python exits)
    if exc.errno == errno.EPIPE:
        sys.exit(1)
    to_stderr("referee: " + msg("stopped: {reason}", reason=os_problem(exc)).render())
    sys.exit(EXIT_UNREADABLE)
