"""`referee store`: the record store from the command line (the file `referee serve --db` uses)."""

from __future__ import annotations

import atexit
import contextlib
import gc
import json
import sys
from collections import Counter

import click

from referee.batch import records_of
from referee.findings import Report
from referee.messages import language, part
from referee.replay import cycle_collection_paused

from .command import Choice, Command
from .common import EXIT_INVALID, EXIT_UNREADABLE, EXIT_USAGE, EXIT_VALID, expand, fail, open_store, say, warn
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
    from ..api.store import Store, StoreError
    from .progress import counted, progress_bar, total_bytes

    atexit.register(gc.freeze)  # no last collection of the games' caches at exit, as validate (cli/validate.py)
    try:
        records = Store(db_path, wait=30)
    except StoreError as exc:
        fail(exc.text)
    counts = Counter(stored=0, already=0, rejected=0, invalid=0)
    warnings = []
    paths = list(expand(files, lambda message: warnings.append(warn(message))))
    items = (pair for path in paths for pair in records_of(path))
    progress = progress_bar()
    with progress or contextlib.nullcontext():
        if progress:
            items = counted(items, progress, total_bytes(paths))
        for batch in _batches(items):
            _import_batch(records, batch, submitter, counts)
    if not (counts["stored"] or counts["already"] or counts["rejected"]):
        warnings.append(warn(msg("no records were selected")))
    say(msg("{stored} new, {already} already in the store, {rejected} rejected; {invalid} invalid", **counts))
    sys.exit(EXIT_UNREADABLE if counts["rejected"] or warnings else EXIT_INVALID if counts["invalid"] else EXIT_VALID)


# records a transaction, and their text at most (one record more than that stays a batch of its own): one
# commit for each, memory flat whatever the file's size and its records' (a parsed record takes some 10 times
# its text)
IMPORT_BATCH, IMPORT_BATCH_BYTES = 64, 2 << 20


def _batches(items):
    """Lists of (source, record text or unreadable report), IMPORT_BATCH and IMPORT_BATCH_BYTES at most."""
    batch, size = [], 0
    for source, item in items:
        text = len(item) if isinstance(item, str) else 0
        if batch and (len(batch) == IMPORT_BATCH or size + text > IMPORT_BATCH_BYTES):
            yield batch
            batch, size = [], 0
        batch.append((source, item))
        size += text
    if batch:
        yield batch


def _prepared(records, batch: list, hashes: list, known: dict) -> list:
    """For each (source, item) of a batch: the findings that keep it out, the summary of the record
    its text is stored as (`known`, by hash), or the entry to store (Entry.kept). A record stored
    already from another text (found by its id) is not checked again."""
    return [
        [item.findings[0]] if isinstance(item, Report) else known.get(h) or _entry(records, item, h)
        for (_, item), h in zip(batch, hashes)
    ]


def _entry(records, text: str, source: str):
    """The entry to store of a record's text whose hash is `source`, or the findings that keep it out."""
    from ..api.store import entry_of, form_of_text

    formed = form_of_text(text)
    if isinstance(formed, list):
        return formed
    return entry_of(*formed, source, records.report(formed[0])).kept()


@cycle_collection_paused()  # as validate checks a batch: what it leaves is collected once, after it is stored
def _import_batch(records, batch: list, submitter: str, counts: Counter):
    """Store a batch of (source, record text or unreadable report) in one transaction, saying what
    became of each record in order. A text stored before (the same bytes) is known by its hash and
    not checked again."""
    from ..api.store import Entry, StoreError, text_hash

    hashes = [text_hash(item) if isinstance(item, str) else None for _, item in batch]
    known = records.stored_sources([h for h in hashes if h])
    prepared = _prepared(records, batch, hashes, known)
    entries = [p for p in prepared if isinstance(p, Entry)]
    try:
        stored = iter(records.put_all(entries, submitter))
        problem = None
    except StoreError as exc:
        stored, problem = iter(()), exc.text
    for (where, _), outcome in zip(batch, prepared):
        if isinstance(outcome, list):
            first = outcome[0]
            say(
                msg(
                    "{where}: not stored: {rule} at {at}: {message}",
                    where=where,
                    rule=first.rule,
                    at=first.at or "/",
                    message=first.shown(),
                )
            )
            counts["rejected"] += 1
            continue
        if problem:
            say(msg("{where}: not stored: {reason}", where=where, reason=problem))
            counts["rejected"] += 1
            continue
        summary, created = next(stored) if isinstance(outcome, Entry) else (outcome, False)
        counts["invalid"] += not summary["valid"]
        counts["stored" if created else "already"] += 1
        click.echo(
            f"{where}: {summary['id']} "
            + (msg("stored") if created else msg("already stored")).render()
            + ("" if summary["valid"] else msg(" (invalid)").render())
        )


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
    type=click.File("w", encoding="utf-8", atomic=True),
    default="-",
    help=word("Write to this file (default: standard output)."),
)
def export(db_path, output, **filters):
    count = 0
    for text in open_store(db_path).texts(**filters):
        output.write(json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":")) + "\n")
        count += 1
    say(msg("{n} record(s) exported", n=count))


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
