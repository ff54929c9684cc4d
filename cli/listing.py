"""The `referee` group: commands loaded when they run, command listings in `--help` that show each
command's first sentence whole, --lang on every command, and the exit status of an interrupted command."""

from __future__ import annotations

import importlib
import sys
from gettext import gettext as _

import click

from referee.messages import part

from .command import Command, lang_option, translated
from .common import EXIT_UNREADABLE
from .language import click_in_english, run_apart
from .process import aborted, prepare_run, stopped

msg, msg_n, word, word_of = part("cli")


class ListingGroup(Command, click.Group):
    """A group whose `--help` lists each command with the first sentence of its help, wrapped
    to the terminal and never cut with "..." (click cuts it at the terminal's width); every command
    added takes --lang, and its help is shown in the language spoken. The commands in `lazy` (name:
    "module:function") are imported when they are asked for, so a command starts without the others'
    modules (`--help` lists them all, so it imports them all)."""

    def __init__(self, *args, lazy=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy = lazy or {}
        self.params.append(lang_option())

    def list_commands(self, ctx):
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx, name):
        if name in self.lazy and name not in self.commands:
            module, function = self.lazy[name].split(":")
            with click_in_english():
                self.add_command(getattr(importlib.import_module(module), function), name)
        return super().get_command(ctx, name)

    def resolve_command(self, ctx, args):
        """click suggests a command close to an unknown one among those loaded: every one is named here."""
        try:
            return super().resolve_command(ctx, args)
        except click.NoSuchCommand as error:
            raise click.NoSuchCommand(error.command_name, possibilities=self.list_commands(ctx), ctx=ctx) from None

    def add_command(self, cmd, name=None):
        if not isinstance(cmd, ListingGroup):
            cmd.params.append(lang_option())
        super().add_command(cmd, name)

    def format_commands(self, ctx, formatter):
        listed = [(name, self.get_command(ctx, name)) for name in self.list_commands(ctx)]
        commands = [(name, command) for name, command in listed if command is not None and not command.hidden]
        with translated(*(command for _name, command in commands)):
            rows = [(name, command.get_short_help_str(limit=10_000)) for name, command in commands]
        if rows:
            with formatter.section(_("Commands")):
                formatter.write_dl(rows)

    def main(self, *args, **kwargs):
        """The command run in a context of its own: the language it speaks is its own (messages.language), not
        the caller's, and ends with it."""
        return run_apart(self._main, *args, **kwargs)

    def _main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """As click's standalone mode, but an interrupted command (Ctrl-C) exits 130, as shells
        count it, where click exits 1. The language is the environment's until --lang is read; what
        the output's encoding cannot carry is written escaped."""
        prepare_run()
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.Abort:
            aborted()
        except click.ClickException as exc:
            exc.show()
            sys.exit(EXIT_UNREADABLE if isinstance(exc, click.FileError) else exc.exit_code)  # a file: 1 is INVALID
        except OSError as exc:  # the commands say why they cannot read: this is mostly the output failing
            stopped(exc)
        sys.exit(code if isinstance(code, int) else 0)
