"""Reading a tournament results sheet (docs/formats/results-sheet.md): a CSV file with a header row,
one row per match at one table in one round."""
from __future__ import annotations

import codecs
import csv
import io
import re
from dataclasses import dataclass, field

from .messages import Listing, msg

COLUMNS = ("event", "round", "table", "game", "players", "winner", "levels", "totals", "deals")
REQUIRED = ("round", "table")
ALIASES = {     # other headers of each column, compared as _loose compares them (docs/results.md)
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


class SheetError(Exception):
    """The sheet cannot be read as a results sheet at all."""


@dataclass
class Row:
    line: int                  # its line in the file, the header being line 1
    cells: dict[str, str]      # column -> the cell's text, stripped; empty cells left out
    beyond: int = 0            # filled cells past the header's last column


@dataclass
class Sheet:
    rows: list[Row]
    columns: dict[str, str]    # column -> the header it was read from
    delimiter: str
    encoding: str
    width: int                 # the header's cells
    ignored: list[str] = field(default_factory=list)     # headers that name no column


def read_sheet(data: bytes, renamed: dict[str, str] | None = None) -> Sheet:
    """The rows of a sheet, or SheetError saying why it cannot be read. `renamed` maps a header of
    the sheet to the column it holds (--columns)."""
    text, encoding = _decoded(data)
    unknown = sorted(set((renamed or {}).values()) - set(COLUMNS))
    if unknown:
        raise SheetError(msg("--columns names no column {names}; the columns are {columns}", names=Listing(unknown),
                             columns=Listing(COLUMNS)))
    dialect = _dialect(text)
    lines = csv.reader(io.StringIO(text, newline=""), dialect)
    header = next(lines, None)
    if not header or not any(cell.strip() for cell in header):
        raise SheetError(msg("no header row: the first line must name the columns"))
    columns, ignored = _columns(header, {_loose(k): v for k, v in (renamed or {}).items()})
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        raise SheetError(msg("line 1: no column {names} (the header names {header})", names=Listing(missing, " or "),
                             header=Listing(header)))
    positions = {name: header.index(label) for name, label in columns.items()}
    rows = []
    for line, cells in _numbered(lines):
        values = {name: cells[at].strip() for name, at in positions.items() if at < len(cells) and cells[at].strip()}
        beyond = sum(1 for cell in cells[len(header):] if cell.strip())
        if values or beyond:
            rows.append(Row(line, values, beyond))
    return Sheet(rows, columns, dialect.delimiter, encoding, len(header), ignored)


def _numbered(lines):
    """(the line a row starts on, its cells): a quoted cell may hold line breaks."""
    while True:
        first = lines.line_num + 1
        cells = next(lines, None)
        if cells is None:
            return
        yield first, cells


def _decoded(data: bytes) -> tuple[str, str]:
    """The text and the encoding it was read in: UTF-8 with or without a byte order mark, else
    GB18030 (a superset of GBK, which Excel writes on Chinese Windows)."""
    bom = data.startswith(codecs.BOM_UTF8)
    for encoding in ("UTF-8", "GB18030"):
        try:
            text = data[len(codecs.BOM_UTF8) if bom else 0:].decode(encoding)
        except UnicodeDecodeError:
            continue
        return text, encoding + " with BOM" * bom
    raise SheetError(msg("neither UTF-8 nor GB18030 (GBK) text"))


def _dialect(text: str):
    """The sheet's dialect: Excel's, with the separator csv.Sniffer finds in the first lines (comma,
    semicolon or tab) or, when it cannot tell, the one the header holds most of. Only the separator
    is taken from the sniffer, which can take an apostrophe (Huai'an) for a quote character."""
    sample = "\n".join(text.splitlines()[:20])
    try:
        delimiter = csv.Sniffer().sniff(sample, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = max(",;\t", key=sample.split("\n", 1)[0].count)
    return type("Sheet", (csv.excel,), {"delimiter": delimiter, "skipinitialspace": True})


def _columns(header: list[str], renamed: dict[str, str]) -> tuple[dict[str, str], list[str]]:
    """column -> header label, for the headers that name a column; and the others."""
    names = {alias: column for column, aliases in ALIASES.items() for alias in (column, *aliases)}
    names.update(renamed)
    columns, ignored = {}, []
    for label in header:
        name = names.get(_loose(label))
        if name is not None and name not in columns:
            columns[name] = label
        elif label.strip():
            ignored.append(label)
    return columns, ignored


def _loose(label: str) -> str:
    """A header as it is compared: without case, spaces, `_`, `-`, `#` or a full stop."""
    return re.sub(r"[\s_.#-]+", "", label).casefold()
