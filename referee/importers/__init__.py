"""Importers: game logs written in other formats, converted into CGR/1 records.

An importer is one module of this package, listed in `importers()`. It offers

    NAME            the name `referee import --from NAME` takes
    GAME            the CGR/1 game of the records it writes
    SUMMARY         one line describing the format, for `--help`
    DEFAULT_RULES   the CGR/1 `rules` value of the rules its platform plays
    convert(lines, source, per, rules) -> iterator of Imported and Problem
        lines   (line number, text) pairs of one input file, as `read_lines` gives them
                (a Problem among them: the file could not be read on from there)
        source  the file's name, for the records' meta and the problems' messages
        per     "match": one record per run of consecutive deals of one match;
                "deal": one record per deal (with `start` where it begins mid-match)
        rules   the `rules` value to write into every record

An importer never repairs a log: what happened is written as it happened, and the
referee judges it. What cannot be written as CGR/1 at all (a hand missing, a message it
does not know) is a Problem naming the file and line; the other deals still convert.
docs/importers.md says how to add one.
"""

from __future__ import annotations

import contextlib
import zlib
from dataclasses import dataclass, field

from ..batch import decompressed, os_problem
from ..messages import DEFAULT, Msg, msg

MAX_LINE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True, init=False)
class Problem:
    """Input that could not be converted, with where it is; made with a Msg, whose English is `message`."""

    source: str
    line: int | None
    message: str
    text: Msg | None = field(default=None, repr=False, compare=False)

    def __init__(self, source: str, line: int | None, message: Msg | str):
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "message", str(message))
        object.__setattr__(self, "text", message if isinstance(message, Msg) else None)

    def shown(self, lang: str | None = None) -> str:
        """Where, and the problem in `lang` (by default the process's language)."""
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.text.render(lang) if self.text else self.message}"

    def __str__(self) -> str:
        return self.shown(DEFAULT)


@dataclass(frozen=True)
class Imported:
    """One converted record, and the part of the input it came from."""

    record: dict
    source: str


def importers() -> dict:
    from . import competition

    return {competition.NAME: competition}


def read_lines(path: str, stdin=None):
    """(number, text) of every line of a plain or gzip-compressed UTF-8 file (`-`: `stdin`,
    a binary stream); a Problem, and nothing more, where the file cannot be read on."""
    number = 0
    try:
        with (
            contextlib.nullcontext(stdin) if path == "-" else open(path, "rb") as stream,
            decompressed(stream) as handle,
        ):
            while True:
                raw = handle.readline(MAX_LINE_BYTES + 1)
                if not raw:
                    return
                number += 1
                if len(raw) > MAX_LINE_BYTES:
                    yield Problem(path, number, msg("the line is longer than {limit} bytes", limit=MAX_LINE_BYTES))
                    _skip_rest_of_line(handle, raw)
                    continue
                try:
                    yield number, raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    yield Problem(path, number, msg("the line is not UTF-8 text: {problem}", problem=exc.reason))
    except OSError as exc:  # gzip.BadGzipFile is an OSError
        yield Problem(
            path, number + 1 if number else None, msg("cannot read the file: {problem}", problem=os_problem(exc))
        )
    except (EOFError, zlib.error) as exc:
        yield Problem(path, number + 1, msg("the compressed file is truncated or damaged: {problem}", problem=str(exc)))


def _skip_rest_of_line(handle, raw: bytes):
    while not raw.endswith(b"\n"):
        raw = handle.readline(MAX_LINE_BYTES)
        if not raw:
            return
