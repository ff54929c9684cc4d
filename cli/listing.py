"""The `referee` group: command listings in `--help` that show each command's first sentence
whole, and the exit status of an interrupted command."""
from __future__ import annotations

import errno
import os
import sys

import click

from .common import EXIT_INTERRUPTED


class ListingGroup(click.Group):
    """A group whose `--help` lists each command with the first sentence of its docstring, wrapped
    to the terminal and never cut with "..." (click cuts it at the terminal's width)."""

    def format_commands(self, ctx, formatter):
        listed = [(name, self.get_command(ctx, name)) for name in self.list_commands(ctx)]
        rows = [(name, command.get_short_help_str(limit=10_000)) for name, command in listed
                if command is not None and not command.hidden]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """As click's standalone mode, but an interrupted command (Ctrl-C) exits 130, as shells
        count it, where click exits 1."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise
            sys.stdout = open(os.devnull, "w")      # the reader went away (`| head`): as click does
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)
