"""`referee store`: the record store from the command line (the file `referee serve --db` uses)."""
from __future__ import annotations

import sys

import click

from referee.batch import records_of
from referee.findings import Report

from .main import EXIT_INVALID, EXIT_UNREADABLE, EXIT_VALID, _expand, _fail, _warn


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
    from api.store import Store, StoreError, prepare

    try:
        records = Store(db_path, wait=30)
    except StoreError as exc:
        _fail(str(exc))
    invalid = rejected = stored = 0
    warnings = []
    for path in _expand(files, lambda message: warnings.append(_warn(message))):
        for where, item in records_of(path):
            entry = [item.findings[0]] if isinstance(item, Report) else prepare(item)
            if isinstance(entry, list):
                first = entry[0]
                click.echo(f"{where}: not stored: {first.rule} at {first.at or '/'}: {first.message}", err=True)
                rejected += 1
                continue
            try:
                _, created = records.put(entry, submitter)
            except StoreError as exc:
                click.echo(f"{where}: not stored: {exc}", err=True)
                rejected += 1
                continue
            stored += 1
            valid = entry.report["valid"]
            invalid += not valid
            click.echo(f"{where}: {entry.id} {'stored' if created else 'already stored'}"
                       f"{'' if valid else ' (invalid)'}")
    if not stored and not rejected:
        warnings.append(_warn("no records were selected"))
    sys.exit(EXIT_UNREADABLE if rejected or warnings else EXIT_INVALID if invalid else EXIT_VALID)
