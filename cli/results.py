"""The tournament desk: `referee results check` (a results sheet checked against the records) and
`referee standings` (an event's standings; `referee store standings` prints them the same way)."""

from __future__ import annotations

import csv
import io
import json
import sys

import click

from referee.batch import records_of
from referee.messages import Listing, Msg, Term, language, part, shown
from referee.replay import game_name
from referee.results import Played, check_sheet, finding_text, played, reason, summary
from referee.rules import MAX_OPTION_NUMBER
from referee.sheet import SheetError, read_sheet

from .command import Command
from .common import (
    EXIT_INVALID,
    EXIT_UNREADABLE,
    EXIT_USAGE,
    EXIT_VALID,
    cannot_read,
    cells,
    expand,
    fail,
    open_store,
    padded,
    spreadsheet_text,
    visible,
    warn,
)
from .listing import ListingGroup

msg, msg_n, word, word_of = part("cli")

CSV_FIELDS = ("line", "status", "event", "round", "table", "game", "detail")


@click.group(cls=ListingGroup, help=word("Check a tournament's results sheet against its records."))
def results():
    pass


DB_HELP = word("Read the records from this record store (as `referee serve --db`).")


def _one_form(as_csv: bool, as_json: bool) -> None:
    if as_csv and as_json:
        fail(msg("give one of --csv and --json"), EXIT_USAGE)


def _records_or_store(records, db_path) -> None:
    """Exit 2 unless the records are given one way: as files or folders, or as a store."""
    if records and db_path:
        fail(msg("give the records as files or folders, or --db, not both"), EXIT_USAGE)
    if not records and not db_path:
        fail(msg("give the records: files or folders of them, or --db STORE"), EXIT_USAGE)


@results.command(
    cls=Command,
    help=word(
        """Check each row of SHEET (CSV) against the match the referee computes from RECORDS.

    RECORDS are files, folders, JSON Lines or gzip, or --db for the store. Each row is matched by
    event, round and table to its record(s); every filled cell (winner, levels, totals, deals,
    players, game) is compared with what the referee computes. Exit status: 0 every row agrees,
    1 something differs (a cell, a missing or ambiguous record, an invalid one, a record no row
    names, a problem in the sheet), 2 the sheet or a record cannot be read.
    """
    ),
)
@click.argument("sheet", type=click.Path(dir_okay=False))
@click.argument("records", nargs=-1)
@click.option("--db", "db_path", help=DB_HELP)
@click.option(
    "--columns",
    "renamed",
    multiple=True,
    metavar="HEADER=COLUMN[,...]",
    help=word(
        "Read the sheet's column HEADER as COLUMN (event, round, table, game, players, winner, "
        "levels, totals, deals); repeatable."
    ),
)
@click.option("--csv", "as_csv", is_flag=True, help=word("One CSV row per sheet row and per record no row names."))
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help=word("JSON Lines: one object per sheet row, then one per record no row names (status no_row)."),
)
def check(sheet, records, db_path, renamed, as_csv, as_json):
    _records_or_store(records, db_path)
    _one_form(as_csv, as_json)
    table = _sheet(sheet, _renamed(renamed))
    checked, unreadable = (_stored(db_path), []) if db_path else _read(records)
    try:
        counts = summary(_written(check_sheet(table, checked), "json" if as_json else "csv" if as_csv else "text"))
    except SheetError as exc:  # a fault far down the sheet, found as its rows are read
        fail(f"{sheet}: {shown(exc.args[0])}")
    _say_unreadable(unreadable)
    click.echo(visible(_summary_line(counts, table, len(unreadable))), err=as_json or as_csv)
    clean = counts["agrees"] == counts["rows"] and not counts["no_row"] and not counts["problems"]
    sys.exit(EXIT_UNREADABLE if unreadable else EXIT_VALID if clean else EXIT_INVALID)


def _renamed(options) -> dict[str, str]:
    """--columns "Rd=round,Tbl=table" (repeatable) as {"Rd": "round", "Tbl": "table"}."""
    pairs = [pair for option in options for pair in option.split(",") if pair.strip()]
    if any("=" not in pair for pair in pairs):
        fail(msg("--columns takes HEADER=COLUMN pairs, e.g. --columns 'Rd=round,Tbl=table'"))
    return dict((header.strip(), column.strip().casefold()) for header, column in (p.split("=", 1) for p in pairs))


def _sheet(path: str, renamed: dict[str, str]):
    """The sheet, its rows read as the check asks for them (the file stays open until the command ends;
    a pipe, which cannot be read twice, is read whole first)."""
    try:
        handle = click.get_current_context().with_resource(open(path, "rb"))  # noqa: SIM115 (closed by click)
        return read_sheet(handle if handle.seekable() else io.BytesIO(handle.read()), renamed)
    except OSError as exc:
        fail(cannot_read(path, exc))
    except SheetError as exc:
        fail(f"{path}: {shown(exc.args[0])}")


def _read(paths) -> tuple[list[Played], list]:
    """The records of files and folders, and what could not be read: reports, and the warnings
    of folders that hold no record."""
    empty = []
    items = (item for path in expand(paths, lambda message: empty.append(warn(message))) for item in records_of(path))
    checked, unreadable = played(items)
    return checked, unreadable + empty


def _say_unreadable(unreadable):
    for report in unreadable:
        if not isinstance(report, str):  # a warning is said already
            first = report.findings[0]  # a file's problem names the file; a record's is said with its source
            said = first.shown() if first.rule == "notation.file" else cannot_read(report.source, first).render()
            click.echo(f"referee: {said}", err=True)


def _stored(db_path: str, event: str | None = None) -> list[Played]:
    return [Played(*entry) for entry in open_store(db_path).entries(event=event)]


PLACES = {"event": word("event"), "round": word("round"), "table": word("table")}
STATUSES = {
    "agrees": word("agrees"),
    "differs": word("differs"),
    "invalid": word("invalid"),
    "ambiguous": word("ambiguous"),
    "no_record": word("no record"),
}


def _where(entry: dict) -> str:
    return _listed(
        msg("{place} {name}", place=PLACES[name], name=entry[name])
        for name in ("event", "round", "table")
        if entry.get(name) is not None
    )


# the sheet's columns (referee/sheet.py, COLUMNS) as a row's detail names them
COLUMN_WORDS = {
    "event": word("event"),
    "round": word("round"),
    "table": word("table"),
    "game": word("game"),
    "players": word("players"),
    "winner": word("winner"),
    "levels": word("levels"),
    "totals": word("totals"),
    "deals": word("deals"),
}


def _column(name: str):
    return COLUMN_WORDS.get(name, name)


def _listed(items, sep: str = ", ") -> str:
    return Listing(list(items), sep).shown(language())


def detail(entry: dict) -> str:
    """What a row's status rests on, in words."""
    status = entry["status"]
    if status == "differs":
        cells_differing = ((column, cell) for column, cell in entry["cells"].items() if not cell["agrees"])
        return _listed(
            (
                msg(
                    "{column}: sheet {sheet}, computed {computed}",
                    column=_column(column),
                    sheet=cell["sheet"],
                    computed=cell["computed"],
                )
                for column, cell in cells_differing
            ),
            "; ",
        )
    if status == "agrees":
        return (_listed(map(_column, entry["cells"])) or msg("the record exists").render()) + _as_ruled(entry)
    if status == "invalid":
        error = entry["error"]
        return msg(
            "{where}: {rule} at {at}: {message}",
            where=error["source"],
            rule=error["rule"],
            at=error["at"] or "/",
            message=finding_text(error),
        ).render()
    if status == "ambiguous":
        return msg(
            "{reason} ({records})",
            reason=Msg.from_json(entry["why"]) if "why" in entry else entry["reason"],
            records=Listing(entry["records"]),
        ).render()
    if status == "no_row":
        return entry["source"]
    return msg("no record has this event, round and table").render()


def _as_ruled(entry: dict) -> str:
    """A match's rulings, for a line that says what its result rests on: ' (as ruled: ...)'."""
    if not entry.get("rulings"):
        return ""
    return msg(" (as ruled: {rulings})", rulings=Listing([ruling_said(r) for r in entry["rulings"]], "; ")).render()


def ruling_said(ruling: dict):
    """One ruling in words: its decision, who decided, and the finding it decides."""
    from referee.rulings import DECISION_WORDS

    decision = DECISION_WORDS.get(ruling.get("decision"), ruling.get("decision"))
    return msg(
        "{decision}, by {by} ({rule} at {at})",
        decision=decision,
        by=ruling.get("by", "?"),
        rule=ruling.get("rule", "-"),
        at=ruling.get("at"),
    )


def text_line(entry: dict) -> str:
    if entry["status"] == "no_row":
        return msg(
            "record {source}  {where}  no row names it", source=entry["source"], where=_where(entry) or "-"
        ).render()
    status = STATUSES[entry["status"]].shown(language()) if entry["status"] in STATUSES else entry["status"]
    lines = [
        msg(
            "line {line}  {where}  {status}  {detail}",
            line=entry["line"],
            where=_where(entry) or "-",
            status=status,
            detail=detail(entry),
        ).render()
    ]
    lines += [
        msg(
            "line {line}, column {column}: {message}", line=p["line"], column=p["column"], message=p["message"]
        ).render()
        for p in entry.get("problems", ())
    ]
    return "\n".join(lines)


def _written(entries, form: str):
    """Each entry, once it is written (form: text, csv or json): the output keeps pace with the sheet."""
    writer = _csv_writer(CSV_FIELDS) if form == "csv" else None
    for entry in entries:
        if form == "json":
            click.echo(json.dumps(entry, ensure_ascii=False))
        elif writer:
            problems = _listed(
                (
                    msg("column {column}: {message}", column=p["column"], message=p["message"])
                    for p in entry.get("problems", ())
                ),
                "; ",
            )
            writer.writerow(dict(entry, detail="; ".join(filter(None, [detail(entry), problems]))))
        else:
            click.echo(visible(text_line(entry)))
        yield entry


class _Echoed:
    """A file for csv's writer that writes to standard output as click does."""

    def write(self, text: str):
        click.echo(text, nl=False)


def _csv_writer(fields):
    """A CSV writer to standard output, its header written, whose cells a spreadsheet shows as text. Lines
    end in CRLF (RFC 4180), so that csv quotes a cell holding a bare CR as it quotes one holding LF."""
    writer = csv.DictWriter(_Echoed(), fields, extrasaction="ignore", lineterminator="\r\n")
    writer.writeheader()
    return _SafeCells(writer)


class _SafeCells:
    """Cells a spreadsheet shows as text (spreadsheet_text), and a terminal too: the controls a sheet's or a
    record's text holds are shown as markers (visible), as the text output shows them, never passed on."""

    def __init__(self, writer):
        self._writer = writer

    def writerow(self, row: dict):
        self._writer.writerow(
            {name: spreadsheet_text(visible(value) if isinstance(value, str) else value) for name, value in row.items()}
        )


def _summary_line(counts: dict, table, unreadable: int) -> str:
    rows = {name: counts[name] for name in ("rows", "agrees", "differs", "no_record", "ambiguous", "invalid")}
    parts = [
        msg(
            "{rows} row(s): {agrees} agree, {differs} differ, {no_record} without a record, {ambiguous} "
            "ambiguous, {invalid} invalid",
            **rows,
        ),
        msg("{n} record(s) no row names", n=counts["no_row"]),
        msg("{n} problem(s) in the sheet", n=counts["problems"]),
    ]
    if unreadable:
        parts.append(msg("{n} input(s) unreadable", n=unreadable))
    separator = _SEPARATORS.get(table.delimiter, table.delimiter)
    parts.append(
        msg("the sheet read as {encoding}, separated by {separator}", encoding=table.encoding, separator=separator)
    )
    if table.ignored:
        parts.append(msg("columns not checked: {columns}", columns=", ".join(table.ignored)))
    return msg("Summary: ").render() + _listed(parts, "; ")


_SEPARATORS = {",": word("commas"), ";": word("semicolons"), "\t": word("tabs")}


STANDING_FIELDS = ("rank", "game", "entrant", "played", "won", "drawn", "lost", "match_points", "margin", "tie_break")


STANDINGS_JSON_HELP = word("As GET /v1/events/EVENT/standings answers.")


@click.command(
    cls=Command,
    help=word("""Print an event's standings from its records.

    Per team or player of each game: matches played, won, drawn and lost, match points, margin
    (Guandan level difference, Gan Deng Yan and Gou Ji points), and the tie-break that placed it
    (margin, then the results between the tied, then name). Records of one table and round are one
    match. Invalid matches are listed apart and counted only with --count-invalid. Exit status: 0
    the standings are printed, 2 no record belongs to the event, the records belong to several
    events (choose one), some input cannot be read or the command line is wrong; 130 interrupted.
    """),
)
@click.argument("records", nargs=-1)
@click.option("--db", "db_path", help=DB_HELP)
@click.option("--event", help=word("The event (meta.event); needed when the records belong to several."))
@click.option(
    "--points",
    default="2,1,0",
    show_default=True,
    metavar="W,D,L",
    help=word("Match points for a win, a draw and a loss."),
)
@click.option("--count-invalid", is_flag=True, help=word("Count the matches the referee finds invalid too."))
@click.option("--csv", "as_csv", is_flag=True, help=word("The table as CSV."))
@click.option("--json", "as_json", is_flag=True, help=STANDINGS_JSON_HELP)
def standings(records, db_path, event, points, count_invalid, as_csv, as_json):
    _records_or_store(records, db_path)
    _one_form(as_csv, as_json)
    try:
        scale = tuple(int(value) for value in points.split(","))
    except ValueError:
        scale = ()
    if len(scale) != 3 or any(abs(value) > MAX_OPTION_NUMBER for value in scale):  # sums stay in 64 bits
        fail(
            msg(
                "--points takes three whole numbers W,D,L of at most 10^6 in magnitude, e.g. 3,1,0; not {points}",
                points=points,
            )
        )
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
        fail(exc.args[0], EXIT_USAGE)
    if not table["records"]:
        fail(
            msg('no record belongs to the event "{event}"', event=event)
            if event
            else msg("no records to make standings of"),
            EXIT_USAGE,
        )
    if form == "json":
        click.echo(json.dumps(table, indent=2, ensure_ascii=False))
        return
    if form == "csv":
        writer = _csv_writer(STANDING_FIELDS)
        for row in table["standings"]:
            writer.writerow(row)
    else:
        click.echo(visible(standings_text(table)))
    click.echo(
        msg("{counted} of {matches} match(es) counted", counted=table["counted"], matches=table["matches"]).render(),
        err=True,
    )


TIE_BREAKS = {word("margin"), word("head-to-head"), word("name")}  # what placed an entrant among those level
STANDING_HEADS = (
    word("rank"),
    word("entrant"),
    word("played"),
    word("W"),
    word("D"),
    word("L"),
    word("points"),
    word("margin"),
    word("tie-break"),
)


def standings_text(table: dict) -> str:
    head = msg(
        "{event}: {points} match points for a win/draw/loss",
        event=table["event"] or word("standings"),
        points="/".join(map(str, table["points"])),
    ).render()
    lines = [head]
    heads = [head.shown(language()) for head in STANDING_HEADS]
    width = max((cells(row["entrant"]) for row in table["standings"]), default=7)
    for game in dict.fromkeys(row["game"] for row in table["standings"]):
        lines += [
            "",
            str(shown(game_name(game))),
            "  " + "  ".join(padded(head, width if i == 1 else 0) for i, head in enumerate(heads)),
        ]
        lines += [
            "  " + "  ".join(_standing_cells(row, heads, width)) for row in table["standings"] if row["game"] == game
        ]
    for item in table["invalid"]:
        counted = msg(" (counted)").render() if item["counted"] else ""
        lines.append(
            msg(
                "invalid{counted}: {match}: {reason}", counted=counted, match=_match_name(item), reason=reason(item)
            ).render()
        )
    lines += [
        msg("not counted: {match}: {reason}", match=_match_name(item), reason=reason(item)).render()
        for item in table["not_counted"]
    ]
    lines += [
        msg(
            "as ruled: {match}: {rulings}",
            match=_match_name(item),
            rulings=Listing([ruling_said(r) for r in item["rulings"]], "; "),
        ).render()
        for item in table.get("results", ())
        if item.get("rulings")
    ]
    return "\n".join(lines)


def _standing_cells(row: dict, heads: list[str], width: int) -> list[str]:
    """A row's cells, each as wide as its column's head (the entrant as `width`, the tie-break as it is):
    terminal cells, so that Chinese heads and names line up."""
    values = [row[name] for name in STANDING_FIELDS if name != "game"]
    tie_break = Term(values[-1]).shown(language()) if values[-1] in TIE_BREAKS else values[-1] or "-"
    shown = [f"{value:>{cells(head)}}" for value, head in zip(values[:-1], heads)] + [tie_break]
    shown[1] = padded(row["entrant"], width)
    return shown


def _match_name(item: dict) -> str:
    where = (
        msg("round {round}, table {table}: ", round=item["round"], table=item["table"]).render()
        if item["round"] is not None
        else ""
    )
    return where + ", ".join(item["records"])
