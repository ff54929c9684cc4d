"""Reading a tournament results sheet (docs/formats/results-sheet.md): a CSV file with a header row,
one row per match at one table in one round."""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

from .findings import plain
from .messages import Listing, msg

COLUMNS = ("event", "round", "table", "game", "players", "winner", "levels", "totals", "deals")
REQUIRED = ("round", "table")
ALIASES = {  # other headers of each column, compared as _loose compares them (docs/results.md)
    "event": ("tournament", "赛事", "比赛"),
    "round": ("rnd", "roundno", "roundnumber", "轮次", "轮"),
    "table": ("tbl", "tableno", "tablenumber", "桌号", "桌"),
    "game": ("游戏", "项目"),
    "players": ("seats", "选手", "玩家"),
    "winner": ("胜方", "胜者", "获胜方"),
    "levels": ("level", "级", "级数"),
    "totals": ("total", "scores", "总分", "积分"),
    "deals": ("deal", "局数", "副数"),
}


CHUNK = 1 << 20  # bytes decoded at a time when the encoding is found
SAMPLE, SAMPLE_LINES = 1 << 16, 20  # what the separator is told from: at most so many characters and lines
MAX_CELL = min(sys.maxsize, 2**31 - 1)  # csv's own limit is 131,072 characters


class SheetError(Exception):
    """The sheet cannot be read as a results sheet at all."""


@dataclass
class Row:
    line: int  # its line in the file, the header being line 1
    cells: dict[str, str]  # column -> the cell's text, stripped; empty cells left out
    beyond: int = 0  # filled cells past the header's last column


@dataclass
class Sheet:
    rows: Iterator[Row]  # read as they are asked for, once
    columns: dict[str, str]  # column -> the header it was read from
    delimiter: str
    encoding: str
    width: int  # the header's cells
    ignored: list[str] = field(default_factory=list)  # headers that name no column


def read_sheet(source, renamed: dict[str, str] | None = None) -> Sheet:
    """The sheet of `source` (bytes, or a binary file that can seek), or SheetError saying why it
    cannot be read. `renamed` maps a header of the sheet to the column it holds (--columns). The
    rows are read as they are asked for: memory stays flat whatever the sheet's length."""
    handle = io.BytesIO(source) if isinstance(source, bytes) else source
    unknown = sorted(set((renamed or {}).values()) - set(COLUMNS))
    if unknown:
        raise SheetError(
            msg(
                "--columns names no column {names}; the columns are {columns}",
                names=Listing(unknown),
                columns=Listing(COLUMNS),
            )
        )
    encoding, codec, start = _encoding(handle)
    dialect = _dialect(_text(handle, codec, start, SAMPLE))
    lines = csv.reader(_text(handle, codec, start), dialect)
    header = next(_numbered(lines), (1, None))[1]
    if not header or not any(cell.strip() for cell in header):
        raise SheetError(msg("no header row: the first line must name the columns"))
    columns, ignored = _columns(header, {_loose(k): v for k, v in (renamed or {}).items()})
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        raise SheetError(
            msg(
                "line 1: no column {names} (the header names {header})",
                names=Listing(missing, " or "),
                header=Listing(header),
            )
        )
    positions = {name: header.index(label) for name, label in columns.items()}
    return Sheet(_rows(lines, positions, len(header)), columns, dialect.delimiter, encoding, len(header), ignored)


def _rows(lines, positions: dict[str, int], width: int):
    for line, cells in _numbered(lines):
        values = {name: cells[at].strip() for name, at in positions.items() if at < len(cells) and cells[at].strip()}
        beyond = sum(1 for cell in cells[width:] if cell.strip())
        if values or beyond:
            yield Row(line, values, beyond)


def _numbered(lines):
    """(the line a row starts on, its cells): a quoted cell may hold line breaks."""
    csv.field_size_limit(MAX_CELL)  # a cell as long as the file: memory grows with the sheet's length only
    while True:
        first = lines.line_num + 1
        try:
            cells = next(lines, None)
        except csv.Error as exc:
            raise SheetError(msg("line {line}: {problem}", line=first, problem=str(exc))) from None
        if cells is None:
            return
        yield first, cells


def _encoding(handle) -> tuple[str, str, int]:
    """The encoding the sheet is read in (as said), its codec and where its text starts: UTF-8 with
    or without a byte order mark, else GB18030 (a superset of GBK, which Excel writes on Chinese
    Windows). The whole file is decoded a piece at a time, so a fault far down is found before any
    row is read."""
    bom = handle.read(len(codecs.BOM_UTF8)) == codecs.BOM_UTF8
    start = len(codecs.BOM_UTF8) if bom else 0
    for encoding in ("UTF-8", "GB18030"):
        handle.seek(start)
        decoder = codecs.getincrementaldecoder(encoding)()
        try:
            for piece in iter(lambda: handle.read(CHUNK), b""):
                decoder.decode(piece)
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            continue
        return encoding + " with BOM" * bom, encoding, start
    raise SheetError(msg("neither UTF-8 nor GB18030 (GBK) text"))


def _text(handle, codec: str, start: int, size: int | None = None):
    """The sheet's text from its start: its first `size` characters, or a stream of all of it."""
    handle.seek(start)
    text = io.TextIOWrapper(handle, codec, newline="")
    if size is None:
        return text
    sample = text.read(size)
    text.detach()  # the handle stays open for the rows
    return sample


def _dialect(sample: str):
    """The sheet's dialect: Excel's, with the separator (comma, semicolon or tab) that splits the
    header into most cells, among those that split the most of the first lines into as many. Read
    with each separator in turn, in time linear in the sample (csv.Sniffer's guess of a quote
    character takes time quadratic in a long line, and can take an apostrophe, Huai'an, for one)."""

    def scored(delimiter: str) -> tuple:
        dialect = _excel(delimiter)
        try:
            widths = [
                len(cells)
                for cells in itertools.islice(csv.reader(io.StringIO(sample, newline=""), dialect), SAMPLE_LINES)
                if cells
            ]
        except csv.Error:
            return (False, 0, 0)
        head = widths[0] if widths else 0
        return head > 1, widths.count(head), head

    return _excel(max(",;\t", key=scored))


def _excel(delimiter: str):
    return type("Sheet", (csv.excel,), {"delimiter": delimiter, "skipinitialspace": True})


def _columns(header: list[str], renamed: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """column -> header label, for the headers that name a column; and the others."""
    names = {alias: column for column, aliases in ALIASES.items() for alias in (column, *aliases)}
    names.update(renamed)
    columns: dict[str, str] = {}
    ignored: list[str] = []
    for label in header:
        name = names.get(_loose(label))
        if name is not None and name in columns:  # which of the two holds the value is anyone's guess
            raise SheetError(
                msg(
                    "line 1: the column {name} is named twice ({first} and {second}); a sheet names each column once",
                    name=name,
                    first=plain(columns[name]),
                    second=plain(label),
                )
            )
        if name is not None:
            columns[name] = label
        elif label.strip():
            ignored.append(label)
    return columns, ignored


def _loose(label: str) -> str:
    """A header as it is compared: without case, spaces, `_`, `-`, `#` or a full stop."""
    return re.sub(r"[\s_.#-]+", "", label).casefold()
