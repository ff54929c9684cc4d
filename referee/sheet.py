"""Reading a tournament results sheet (docs/formats/results-sheet.md): a CSV file with a header row,
one row per match at one table in one round."""
from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field

COLUMNS = ("event", "round", "table", "game", "players", "winner", "levels", "totals", "deals")
REQUIRED = ("round", "table")


class SheetError(Exception):
    """The sheet cannot be read as a results sheet at all."""


@dataclass
class Row:
    line: int                  # its line in the file, the header being line 1
    cells: dict[str, str]      # column -> the cell's text, stripped; empty cells left out


@dataclass
class Sheet:
    rows: list[Row]
    columns: dict[str, str]    # column -> the header it was read from
    delimiter: str
    ignored: list[str] = field(default_factory=list)     # headers that name no column


def read_sheet(data: bytes) -> Sheet:
    """The rows of a sheet, or SheetError saying why it cannot be read."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SheetError(f"not UTF-8 text: {exc}") from None
    return _parse(text)


def _parse(text: str) -> Sheet:
    dialect = _dialect(text)
    lines = csv.reader(text.splitlines(), dialect)
    header = next(lines, None)
    if not header or not any(cell.strip() for cell in header):
        raise SheetError("no header row: the first line must name the columns")
    columns, ignored = _columns(header)
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        raise SheetError(f"line 1: no column {' or '.join(missing)} (the header names {', '.join(header)})")
    positions = {name: header.index(label) for name, label in columns.items()}
    rows = []
    for line, cells in enumerate(lines, start=2):
        values = {name: cells[at].strip() for name, at in positions.items() if at < len(cells) and cells[at].strip()}
        if values:
            rows.append(Row(line, values))
    return Sheet(rows, columns, dialect.delimiter, ignored)


def _dialect(text: str):
    """The sheet's dialect as csv.Sniffer reads its first lines (comma, semicolon or tab); when it
    cannot tell, the separator the header holds most of."""
    sample = "\n".join(text.splitlines()[:20])
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        header = sample.split("\n", 1)[0]
        delimiter = max(",;\t", key=header.count)
        return type("Sniffed", (csv.excel,), {"delimiter": delimiter})


def _columns(header: list[str]) -> tuple[dict[str, str], list[str]]:
    """column -> header label, for the headers that name a column; and the others."""
    columns, ignored = {}, []
    for label in header:
        name = _loose(label)
        if name in COLUMNS and name not in columns:
            columns[name] = label
        elif label.strip():
            ignored.append(label)
    return columns, ignored


def _loose(label: str) -> str:
    """A header as it is compared: without case, spaces or `_`."""
    return re.sub(r"[\s_]+", "", label).casefold()
