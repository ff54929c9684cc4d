"""`referee store`: the record store from the command line (the file `referee serve --db` uses)."""

from __future__ import annotations

import json
import sys

import click

from referee.batch import os_problem
from referee.messages import language, part

from .command import Choice, Command
from .common import EXIT_INVALID, EXIT_USAGE, EXIT_VALID, fail, not_over_an_input, open_store, say
from .files import replacing
from .listing import ListingGroup
from .results import STANDINGS_JSON_HELP

msg, msg_n, word, word_of = part("cli")

DB_OPTION = click.option(
    "--db", "db_path", default="referee.db", show_default=True, help=word("SQLite file of the record store.")
)


def _filters(command):
    """The record filters of `GET /v1/records`, as options."""
    for option in reversed(
        [
            click.option("--game", type=Choice(["guandan", "gouji", "gandengyan"]), help=word("Only this game.")),
            click.option("--event", help=word("Only records whose meta.event is this.")),
            click.option("--player", help=word("Only records where this player sits.")),
            click.option("--date", help=word("Only records whose meta.date starts with this (2026-05: all of May).")),
            click.option("--valid/--invalid", default=None, help=word("Only valid, or only invalid, records.")),
        ]
    ):
        command = option(command)
    return command


@click.group(
    cls=ListingGroup,
    help=word("""Keep records in the record store.

    The store is a SQLite file (--db), the one `referee serve` serves."""),
)
def store():
    pass


@store.command(
    "import",
    cls=Command,
    help=word("""Check records and store them with their reports.

    FILES are JSON or JSON Lines files or directories. Exit status: 0 all stored and valid, 1 some stored record is invalid, 2 some input was not stored.
    """),
)
@click.argument("files", nargs=-1, required=True)
@DB_OPTION
@click.option("--submitter", default="cli", show_default=True, help=word("Stored as who submitted the records."))
def import_(files, db_path, submitter):
    from .storing import import_files

    import_files(files, db_path, submitter)


@store.command(
    "list",
    cls=Command,
    help=word("""List stored records, filtered and paged.

    One line a record: id, game, event, date, verdict, deals and players. Exit status: 0, or 2
    when there is no store.
    """),
)
@DB_OPTION
@_filters
@click.option("--page", type=click.IntRange(1), default=1, show_default=True, help=word("Page to show, from 1."))
@click.option("--per-page", type=click.IntRange(1, 1000), default=20, show_default=True, help=word("Records a page."))
@click.option("--json", "as_json", is_flag=True, help=word("The page as JSON, as GET /v1/records answers."))
def list_(db_path, page, per_page, as_json, **filters):
    total, items = open_store(db_path).find(page=page, per_page=per_page, **filters)
    if as_json:
        click.echo(json.dumps({"total": total, "page": page, "per_page": per_page, "items": items}, indent=2))
        return
    for item in items:
        verdict = (msg("VALID") if item["valid"] else msg("INVALID")).render()
        deals = msg("{n} deal(s)", n=item["deals"]).render()
        click.echo(
            f"{item['id']}  {item['game']}  {item['event'] or '-'}  {item['date'] or '-'}  "
            f"{verdict}  {deals}  {', '.join(item['players'])}"
        )
    say(msg("{n} of {total} record(s), page {page}", n=len(items), total=total, page=page))


@store.command(
    cls=Command,
    help=word("""Print a stored record in canonical form, laid out as `referee fmt` writes it.

    RECORD_ID may be a unique start of the id (at least 4 characters). Exit status: 0, or 2 when
    no record (or more than one) has this id, or there is no store."""),
)
@click.argument("record_id")
@DB_OPTION
def show(record_id, db_path):
    from referee.canonical import dumps

    click.echo(dumps(json.loads(_stored(open_store(db_path), record_id, "record"))))


@store.command(
    cls=Command,
    help=word("""Print the report stored with a record.

    RECORD_ID may be a unique start of the id. Exit status: 0 the record is valid, 1 it is invalid,
    2 no record (or more than one) has this id, or there is no store.
    """),
)
@click.argument("record_id")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help=word("The stored report as JSON."))
def report(record_id, db_path, as_json):
    from rich.console import Console  # here: rich is loaded by the commands that render, not at start-up

    from . import render

    records = open_store(db_path)
    whole = _whole_id(records, record_id)
    stored = records.shown_report(whole, language())
    if as_json:
        click.echo(
            records.text(whole, "report")
            if language() == "en"
            else json.dumps(stored.as_dict(language()), ensure_ascii=False)
        )
    else:
        stored.source = whole
        render.report(Console(highlight=False, soft_wrap=True), stored)
    sys.exit(EXIT_VALID if stored.valid else EXIT_INVALID)


@store.command(
    cls=Command,
    help=word("""Export stored records as JSON Lines.

    One canonical record a line, oldest first; the filters are those of `list`. Exit status: 0,
    or 2 when there is no store or the output cannot be written.
    """),
)
@DB_OPTION
@_filters
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    default="-",
    help=word("Write to this file, which is replaced only once every record is written (default: standard output)."),
)
def export(db_path, output, **filters):
    not_over_an_input(output, [db_path])
    records = open_store(db_path)
    if output == "-":
        count = _exported(records, filters, sys.stdout)
    else:
        try:
            with replacing(output) as out:
                count = _exported(records, filters, out)
        except OSError as exc:
            fail(msg("cannot write {path}: {reason}; nothing was written", path=output, reason=os_problem(exc)))
    say(msg("{n} record(s) exported", n=count))


def _exported(records, filters: dict, out) -> int:
    """Write the stored records `filters` select to `out`, one canonical record a line; how many."""
    count = 0
    for text in records.texts(**filters):
        out.write(json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":")) + "\n")
        count += 1
    return count


@store.command(
    cls=Command,
    help=word("""Delete a stored record with its report.

    RECORD_ID may be a unique start of the id, as in `show`. Exit status: 0 deleted, 1 not deleted
    (the question was answered no), 2 no record (or more than one) has this id, or there is no
    store; 130 interrupted.
    """),
)
@click.argument("record_id")
@DB_OPTION
@click.option("-y", "--yes", is_flag=True, help=word("Do not ask for confirmation."))
def delete(record_id, db_path, yes):
    records = open_store(db_path)
    whole = _whole_id(records, record_id)
    if not yes and not click.confirm(msg("delete record {id}?", id=whole).render()):
        fail(msg("nothing was deleted"), EXIT_INVALID)
    records.delete(whole)
    click.echo(msg("{id} deleted", id=whole).render())


@store.command(
    cls=Command,
    help=word("""Standings of an event.

    As `referee standings --db DB --event EVENT` prints them (which has more options). Exit
    status: 0, or 2 when no stored record has the event or there is no store.
    """),
)
@click.argument("event")
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help=STANDINGS_JSON_HELP)
def standings(event, db_path, as_json):
    from .results import show_standings

    show_standings(open_store(db_path).event(event), event, (2, 1, 0), False, "json" if as_json else "text")


def _stored(records, record_id: str, what: str) -> str:
    """The stored text of the record whose id is `record_id` or starts with it."""
    return records.text(_whole_id(records, record_id), what)


def _whole_id(records, record_id: str) -> str:
    """The id of the one stored record whose id is `record_id` or starts with it (4 characters at
    least, as git takes a short id), or exit 2."""
    found = records.ids_meant(record_id)
    if len(found) > 1:
        fail(
            msg("more than one record id starts with {prefix}: {ids}, …", prefix=record_id, ids=", ".join(found)),
            EXIT_USAGE,
        )
    if not found:
        fail(msg("no record has the id {id}", id=record_id), EXIT_USAGE)
    return found[0]
