"""The tournament desk: `referee results check` (a results sheet checked against the records) and
`referee standings` (an event's standings; `referee store standings` prints them the same way)."""
from __future__ import annotations

import csv
import io
import json
import sys

import click

from referee.batch import records_of
from referee.results import Played, check_sheet, played, summary
from referee.sheet import SheetError, read_sheet

from .common import EXIT_INVALID, EXIT_UNREADABLE, EXIT_USAGE, EXIT_VALID, expand, fail, open_store, warn
from .listing import ListingGroup

CSV_FIELDS = ("line", "status", "event", "round", "table", "game", "detail")


@click.group(cls=ListingGroup)
def results():
    """Check a tournament's results sheet against its records."""


@results.command()
@click.argument("sheet", type=click.Path(dir_okay=False))
@click.argument("records", nargs=-1)
@click.option("--db", "db_path", help="Read the records from this record store (as `referee serve --db`).")
@click.option("--columns", "renamed", multiple=True, metavar="HEADER=COLUMN[,...]",
              help="Read the sheet's column HEADER as COLUMN (event, round, table, game, players, winner, levels, "
                   "totals, deals); repeatable.")
@click.option("--csv", "as_csv", is_flag=True, help="One CSV row per sheet row and per record no row names.")
@click.option("--json", "as_json", is_flag=True,
              help="JSON Lines: one object per sheet row, then one per record no row names (status no_row).")
def check(sheet, records, db_path, renamed, as_csv, as_json):
    """Check each row of SHEET (CSV) against the match the referee computes from RECORDS.

    RECORDS are files, folders, JSON Lines or gzip, or --db for the store. Each row is matched by
    event, round and table to its record(s); every filled cell (winner, levels, totals, deals,
    players, game) is compared with what the referee computes. Exit status: 0 every row agrees,
    1 something differs (a cell, a missing or ambiguous record, an invalid one, a record no row
    names, a problem in the sheet), 2 the sheet or a record cannot be read.
    """
    if bool(records) == bool(db_path):
        fail("give the records as files or folders, or --db, not both", EXIT_USAGE)
    table = _sheet(sheet, _renamed(renamed))
    checked, unreadable = (_stored(db_path), []) if db_path else _read(records)
    entries = check_sheet(table, checked)
    counts = summary(entries)
    if as_json:
        for entry in entries:
            click.echo(json.dumps(entry, ensure_ascii=False))
    elif as_csv:
        click.echo(_csv(entries), nl=False)
    else:
        for entry in entries:
            click.echo(text_line(entry))
    _say_unreadable(unreadable)
    click.echo(_summary_line(counts, table, len(unreadable)), err=as_json or as_csv)
    clean = counts["agrees"] == counts["rows"] and not counts["no_row"] and not counts["problems"]
    sys.exit(EXIT_UNREADABLE if unreadable else EXIT_VALID if clean else EXIT_INVALID)


def _renamed(options) -> dict[str, str]:
    """--columns "Rd=round,Tbl=table" (repeatable) as {"Rd": "round", "Tbl": "table"}."""
    pairs = [pair for option in options for pair in option.split(",") if pair.strip()]
    if any("=" not in pair for pair in pairs):
        fail("--columns takes HEADER=COLUMN pairs, e.g. --columns 'Rd=round,Tbl=table'")
    return dict((header.strip(), column.strip().casefold()) for header, column in (p.split("=", 1) for p in pairs))


def _sheet(path: str, renamed: dict[str, str]):
    try:
        with open(path, "rb") as handle:
            return read_sheet(handle.read(), renamed)
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}")
    except SheetError as exc:
        fail(f"{path}: {exc}")


def _read(paths) -> tuple[list[Played], list]:
    """The records of files and folders, and what could not be read: reports, and the warnings
    of folders that hold no record."""
    empty = []
    items = (item for path in expand(paths, lambda message: empty.append(warn(message))) for item in records_of(path))
    checked, unreadable = played(items)
    return checked, unreadable + empty


def _say_unreadable(unreadable):
    for report in unreadable:
        if not isinstance(report, str):        # a warning is said already
            click.echo(f"referee: cannot read {report.source}: {report.findings[0].message}", err=True)


def _stored(db_path: str, event: str | None = None) -> list[Played]:
    return [Played(*entry) for entry in open_store(db_path).entries(event=event)]


def _where(entry: dict) -> str:
    return ", ".join(f"{name} {entry[name]}" for name in ("event", "round", "table") if entry.get(name) is not None)


def detail(entry: dict) -> str:
    """What a row's status rests on, in words."""
    status = entry["status"]
    if status == "differs":
        return "; ".join(f"{column}: sheet {cell['sheet']}, computed {cell['computed']}"
                         for column, cell in entry["cells"].items() if not cell["agrees"])
    if status == "agrees":
        return ", ".join(entry["cells"]) or "the record exists"
    if status == "invalid":
        error = entry["error"]
        return f"{error['source']}: {error['rule']} at {error['at'] or '/'}: {error['message']}"
    if status == "ambiguous":
        return f"{entry['reason']} ({', '.join(entry['records'])})"
    if status == "no_row":
        return entry["source"]
    return "no record has this event, round and table"


def text_line(entry: dict) -> str:
    status = entry["status"].replace("_", " ")
    if status == "no row":
        return f"record {entry['source']}  {_where(entry) or '-'}  no row names it"
    lines = [f"line {entry['line']}  {_where(entry) or '-'}  {status}  {detail(entry)}"]
    lines += [f"line {p['line']}, column {p['column']}: {p['message']}" for p in entry.get("problems", ())]
    return "\n".join(lines)


def _csv(entries) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for entry in entries:
        problems = "; ".join(f"column {p['column']}: {p['message']}" for p in entry.get("problems", ()))
        writer.writerow(dict(entry, detail="; ".join(filter(None, [detail(entry), problems]))))
    return out.getvalue()


def _summary_line(counts: dict, table, unreadable: int) -> str:
    parts = [f"{counts['rows']} row(s): {counts['agrees']} agree, {counts['differs']} differ, "
             f"{counts['no_record']} without a record, {counts['ambiguous']} ambiguous, {counts['invalid']} invalid",
             f"{counts['no_row']} record(s) no row names", f"{counts['problems']} problem(s) in the sheet"]
    if unreadable:
        parts.append(f"{unreadable} input(s) unreadable")
    separator = _SEPARATORS.get(table.delimiter, table.delimiter)
    parts.append(f"the sheet read as {table.encoding}, separated by {separator}")
    if table.ignored:
        parts.append(f"columns not checked: {', '.join(table.ignored)}")
    return "Summary: " + "; ".join(parts)


_SEPARATORS = {",": "commas", ";": "semicolons", "\t": "tabs"}


STANDING_FIELDS = ("rank", "game", "entrant", "played", "won", "drawn", "lost", "match_points", "margin", "tie_break")


@click.command()
@click.argument("records", nargs=-1)
@click.option("--db", "db_path", help="Read the records from this record store (as `referee serve --db`).")
@click.option("--event", help="The event (meta.event); needed when the records belong to several.")
@click.option("--points", default="2,1,0", show_default=True, metavar="W,D,L",
              help="Match points for a win, a draw and a loss.")
@click.option("--count-invalid", is_flag=True, help="Count the matches the referee finds invalid too.")
@click.option("--csv", "as_csv", is_flag=True, help="The table as CSV.")
@click.option("--json", "as_json", is_flag=True, help="As GET /v1/events/EVENT/standings answers.")
def standings(records, db_path, event, points, count_invalid, as_csv, as_json):
    """Print an event's standings from its records.

    Per team or player of each game: matches played, won, drawn and lost, match points, margin
    (Guandan level difference, Gan Deng Yan and Gou Ji points), and the tie-break that placed it
    (margin, then the results between the tied, then name). Records of one table and round are one
    match. Invalid matches are listed apart and counted only with --count-invalid. Exit status: 0
    the standings are printed, 2 no record belongs to the event, the records belong to several
    events (choose one), some input cannot be read or the command line is wrong; 130 interrupted.
    """
    if bool(records) == bool(db_path):
        fail("give the records as files or folders, or --db, not both", EXIT_USAGE)
    try:
        scale = tuple(int(value) for value in points.split(","))
    except ValueError:
        scale = ()
    if len(scale) != 3:
        fail(f"--points takes three whole numbers W,D,L, e.g. 3,1,0; not {points}")
    checked, unreadable = (_stored(db_path, event), []) if db_path else _read(records)
    _say_unreadable(unreadable)
    if unreadable and not checked:
        sys.exit(EXIT_UNREADABLE)
    show_standings(checked, event, scale, count_invalid, "csv" if as_csv else "json" if as_json else "text")
    sys.exit(EXIT_UNREADABLE if unreadable else EXIT_VALID)


def show_standings(entries, event, points, count_invalid, form: str):
    """Print the standings (form: text, csv or json), or exit 2 when no record is of the event."""
    from referee.standings import StandingsError, standings as tally

    try:
        table = tally(entries, event, points, count_invalid)
    except StandingsError as exc:
        fail(str(exc), EXIT_USAGE)
    if not table["records"]:
        fail(f'no record belongs to the event "{event}"' if event else "no records to make standings of", EXIT_USAGE)
    if form == "json":
        click.echo(json.dumps(table, indent=2, ensure_ascii=False))
        return
    if form == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, STANDING_FIELDS, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(table["standings"])
        click.echo(out.getvalue(), nl=False)
    else:
        click.echo(standings_text(table))
    click.echo(f"{table['counted']} of {table['matches']} match(es) counted", err=True)


def standings_text(table: dict) -> str:
    head = f"{table['event'] or 'standings'}: {'/'.join(map(str, table['points']))} match points for a win/draw/loss"
    lines = [head]
    width = max((len(row["entrant"]) for row in table["standings"]), default=7)
    for game in dict.fromkeys(row["game"] for row in table["standings"]):
        lines += ["", game, f"  rank  {'entrant':<{width}}  played  W  D  L  points  margin  tie-break"]
        lines += [f"  {row['rank']:>4}  {row['entrant']:<{width}}  {row['played']:>6}  {row['won']}  {row['drawn']}  "
                  f"{row['lost']}  {row['match_points']:>6}  {row['margin']:>6}  {row['tie_break'] or '-'}"
                  for row in table["standings"] if row["game"] == game]
    for item in table["invalid"]:
        lines.append(f"invalid{' (counted)' if item['counted'] else ''}: {_match_name(item)}: {item['reason']}")
    lines += [f"not counted: {_match_name(item)}: {item['reason']}" for item in table["not_counted"]]
    return "\n".join(lines)


def _match_name(item: dict) -> str:
    where = f"round {item['round']}, table {item['table']}: " if item["round"] is not None else ""
    return where + ", ".join(item["records"])
