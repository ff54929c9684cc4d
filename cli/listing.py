"""Command listings in `--help` that show each command's first sentence whole."""
from __future__ import annotations

import click


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
