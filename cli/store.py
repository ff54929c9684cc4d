"""`referee store`: the record store from the command line (the file `referee serve --db` uses)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from referee.notation import split_records

from .main import EXIT_INVALID, EXIT_UNREADABLE, EXIT_VALID, _expand


@click.group()
def store():
    """The record store: a SQLite file shared with `referee serve`."""


@store.command("import")
@click.argument("files", nargs=-1, required=True)
@click.option("--db", "db_path", default="referee.db", show_default=True, help="SQLite file of the record store.")
@click.option("--submitter", default="cli", show_default=True, help="Stored as who submitted the records.")
def import_(files, db_path, submitter):
    """Check records (JSON or JSON Lines files, directories) and store them with their reports.

    Exit status: 0 all stored and valid, 1 some stored record is invalid, 2 some input was not stored.
    """
    from api.store import Store, prepare

    records = Store(db_path)
    invalid = rejected = 0
    for path in _expand(files):
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            click.echo(f"{path}: not stored: cannot read it: {exc}", err=True)
            rejected += 1
            continue
        for line, chunk in split_records(text):
            where = path if line is None else f"{path}:{line}"
            entry = prepare(chunk)
            if isinstance(entry, list):
                first = entry[0]
                click.echo(f"{where}: not stored: {first.rule} at {first.at or '/'}: {first.message}", err=True)
                rejected += 1
                continue
            _, created = records.put(entry, submitter)
            valid = entry.report["valid"]
            invalid += not valid
            click.echo(f"{where}: {entry.id} {'stored' if created else 'already stored'}"
                       f"{'' if valid else ' (invalid)'}")
    sys.exit(EXIT_UNREADABLE if rejected else EXIT_INVALID if invalid else EXIT_VALID)
