"""`referee store`: the record store from the command line (the file `referee serve --db` uses)."""
from __future__ import annotations

import json
import sys

import click

from referee.batch import records_of
from referee.findings import Report

from .common import EXIT_INVALID, EXIT_UNREADABLE, EXIT_USAGE, EXIT_VALID, expand, fail, open_store, warn
from .listing import ListingGroup

DB_OPTION = click.option("--db", "db_path", default="referee.db", show_default=True,
                         help="SQLite file of the record store.")


def _filters(command):
    """The record filters of `GET /v1/records`, as options."""
    for option in reversed([
            click.option("--game", type=click.Choice(["guandan", "gouji", "gandengyan"]), help="Only this game."),
            click.option("--event", help="Only records whose meta.event is this."),
            click.option("--player", help="Only records where this player sits."),
            click.option("--date", help="Only records whose meta.date starts with this (2026-05: all of May)."),
            click.option("--valid/--invalid", default=None, help="Only valid, or only invalid, records.")]):
        command = option(command)
    return command


@click.group(cls=ListingGroup)
def store():
    """Keep records in the record store.

    The store is a SQLite file (--db), the one `referee serve` serves."""


@store.command("import")
@click.argument("files", nargs=-1, required=True)
@DB_OPTION
@click.option("--submitter", default="cli", show_default=True, help="Stored as who submitted the records.")
def import_(files, db_path, submitter):
    """Check records and store them with their reports.

    FILES are JSON or JSON Lines files or directories. Exit status: 0 all stored and valid, 1 some stored record is invalid, 2 some input was not stored.
    """
    from api.store import Store, StoreError, prepare

    try:
        records = Store(db_path, wait=30)
    except StoreError as exc:
        fail(str(exc))
    invalid = rejected = stored = already = 0
    warnings = []
    for path in expand(files, lambda message: warnings.append(warn(message))):
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
            valid = entry.report["valid"]
            invalid += not valid
            stored += created
            already += not created
            click.echo(f"{where}: {entry.id} {'stored' if created else 'already stored'}"
                       f"{'' if valid else ' (invalid)'}")
    if not (stored or already or rejected):
        warnings.append(warn("no records were selected"))
    click.echo(f"{stored} new, {already} already in the store, {rejected} rejected; {invalid} invalid", err=True)
    sys.exit(EXIT_UNREADABLE if rejected or warnings else EXIT_INVALID if invalid else EXIT_VALID)


@store.command("list")
@DB_OPTION
@_filters
@click.option("--page", type=click.IntRange(1), default=1, show_default=True, help="Page to show, from 1.")
@click.option("--per-page", type=click.IntRange(1, 1000), default=20, show_default=True, help="Records a page.")
@click.option("--json", "as_json", is_flag=True, help="The page as JSON, as GET /v1/records answers.")
def list_(db_path, page, per_page, as_json, **filters):
    """List stored records, filtered and paged.

    One line a record: id, game, event, date, verdict, deals and players. Exit status: 0, or 2
    when there is no store.
    """
    total, items = open_store(db_path).find(page=page, per_page=per_page, **filters)
    if as_json:
        click.echo(json.dumps({"total": total, "page": page, "per_page": per_page, "items": items}, indent=2))
        return
    for item in items:
        verdict = "valid" if item["valid"] else "INVALID"
        click.echo(f"{item['id']}  {item['game']}  {item['event'] or '-'}  {item['date'] or '-'}  "
                   f"{verdict}  {item['deals']} deal(s)  {', '.join(item['players'])}")
    click.echo(f"{len(items)} of {total} record(s), page {page}", err=True)


@store.command()
@click.argument("record_id")
@DB_OPTION
def show(record_id, db_path):
    """Print a stored record in canonical form, laid out as `referee fmt` writes it.

    RECORD_ID may be a unique start of the id (at least 4 characters). Exit status: 0, or 2 when
    no record (or more than one) has this id, or there is no store."""
    from referee.canonical import dumps

    click.echo(dumps(json.loads(_stored(open_store(db_path), record_id, "record"))))


@store.command()
@click.argument("record_id")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="The stored report as JSON.")
def report(record_id, db_path, as_json):
    """Print the report stored with a record.

    RECORD_ID may be a unique start of the id. Exit status: 0 the record is valid, 1 it is invalid,
    2 no record (or more than one) has this id, or there is no store.
    """
    from rich.console import Console     # here: rich is loaded by the commands that render, not at start-up

    from . import render

    records = open_store(db_path)
    whole = _whole_id(records, record_id)
    text = records.text(whole, "report")
    stored = Report.from_dict(json.loads(text))
    if as_json:
        click.echo(text)
    else:
        stored.source = whole
        render.report(Console(highlight=False, soft_wrap=True), stored)
    sys.exit(EXIT_VALID if stored.valid else EXIT_INVALID)


@store.command()
@DB_OPTION
@_filters
@click.option("-o", "--output", type=click.File("w", encoding="utf-8", atomic=True), default="-",
              help="Write to this file (default: standard output).")
def export(db_path, output, **filters):
    """Export stored records as JSON Lines.

    One canonical record a line, oldest first; the filters are those of `list`. Exit status: 0,
    or 2 when there is no store or the output cannot be written.
    """
    count = 0
    for text in open_store(db_path).texts(**filters):
        output.write(json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":")) + "\n")
        count += 1
    click.echo(f"{count} record(s) exported", err=True)


@store.command()
@click.argument("record_id")
@DB_OPTION
@click.option("-y", "--yes", is_flag=True, help="Do not ask for confirmation.")
def delete(record_id, db_path, yes):
    """Delete a stored record with its report.

    RECORD_ID may be a unique start of the id, as in `show`. Exit status: 0 deleted, 1 not deleted
    (the question was answered no), 2 no record (or more than one) has this id, or there is no
    store; 130 interrupted.
    """
    records = open_store(db_path)
    whole = _whole_id(records, record_id)
    if not yes and not click.confirm(f"delete record {whole}?"):
        fail("nothing was deleted", EXIT_INVALID)
    records.delete(whole)
    click.echo(f"{whole} deleted")


@store.command()
@click.argument("event")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="As GET /v1/events/EVENT/standings answers.")
def standings(event, db_path, as_json):
    """Standings of an event.

    As `referee standings --db DB --event EVENT` prints them (which has more options). Exit
    status: 0, or 2 when no stored record has the event or there is no store.
    """
    from .results import show_standings

    show_standings(open_store(db_path).event(event), event, (2, 1, 0), False, "json" if as_json else "text")


def _stored(records, record_id: str, what: str) -> str:
    """The stored text of the record whose id is `record_id` or starts with it."""
    return records.text(_whole_id(records, record_id), what)


def _whole_id(records, record_id: str) -> str:
    """The id of the one stored record whose id is `record_id` or starts with it (4 characters at
    least, as git takes a short id), or exit 2."""
    if records.has(record_id):
        return record_id
    found = records.ids_starting(record_id.lower()) if len(record_id) >= 4 else []
    if len(found) > 1:
        fail(f"more than one record id starts with {record_id}: {', '.join(found)}, …", EXIT_USAGE)
    if not found:
        fail(f"no record has the id {record_id}", EXIT_USAGE)
    return found[0]
