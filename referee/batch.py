"""Reading files of records (notation section 1) and checking them one by one.

One bad record never stops the others: unreadable input becomes a report with a
`notation.*` finding and `unreadable` set, which callers map to exit status 2.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import io
import itertools
import os
import stat
import sys

from .findings import ERROR, Finding, Report
from .messages import Msg, Term, msg, word
from .notation import bom_findings, cycle_collection, duplicate_key_findings, parse_json, plain_read
from .replay import check_record, cycle_collection_paused, game_named

MAX_RECORD_BYTES = 64 * 1024 * 1024
BATCH_RECORDS, BATCH_BYTES = 16, 1 << 17  # what one worker process is handed at a time
SPAN_BYTES = 1 << 20  # at most, of a file's lines read by the worker process itself (Span)
SPAN_LINES = 1024  # at most, in a Span: its reports come back together (a record of 1 KB or more makes it no shorter)
POOL_AFTER = 4  # batches: a smaller input is checked in this process, as a pool would cost more than it gives


def unreadable(source: str, rule: str, message: Msg | str) -> Report:
    text = message if isinstance(message, Msg) else None
    return Report(
        False, None, None, [Finding(ERROR, rule, "", str(message), text=text)], source=source, unreadable=True
    )


def check_one(chunk: str, source: str, infer: bool = False) -> Report:
    """One record's report; with `infer`, an invalid record also gets the rules it is valid under."""
    report, replayed = _checked_text(chunk, source)
    return _with_inferred(report, replayed[0]) if infer and replayed else report


@cycle_collection_paused()  # the parse too: it makes the most objects
def _checked_text(chunk: str, source: str) -> tuple[Report, list]:
    """The report of one record's text, and [the record] if it was replayed ([] if not)."""
    if len(chunk) > MAX_RECORD_BYTES:
        return _too_big(source), []
    value = parse_json(chunk)
    if isinstance(value, Finding):
        return unreadable(source, value.rule, value.text or value.message), []
    return _checked(chunk, value, source)


def check_parsed(chunk: str, value, source: str, infer: bool = False, stop=None) -> Report:
    """The report of a parsed record; a key written twice stops it there, as a structure problem does.
    With `infer`, an invalid record also gets the rules it is valid under, searched until `stop()`
    says otherwise (the API's budget for a request)."""
    report, replayed = _checked(chunk, value, source)
    return _with_inferred(report, replayed[0], stop=stop) if infer and replayed else report


def _checked(chunk: str, value, source: str) -> tuple[Report, list]:
    plain = plain_read(value)  # a plain record's colons are counted as it is read
    duplicates = duplicate_key_findings(chunk, value, plain.colons)
    if duplicates:
        return Report(False, game_named(value), None, duplicates, source=source), []
    report = check_record(value, source, plain=plain)
    report.findings[:0] = bom_findings(chunk)
    return report, [value]


def _with_inferred(report: Report, record, stop=None) -> Report:
    """The report, with the rules its record is valid under if it is invalid. Not searched with the
    cycle collector paused: each trial's rules can leave reading caches behind as cyclic garbage
    (rules.shared), which would pile up over the whole search."""
    if not report.valid:
        from .infer import infer_rules  # here: only --infer-rules needs it, and the command starts faster without

        with cycle_collection(True):
            report.inferred = infer_rules(record, stop=stop)
    return report


def check_path(path: str, infer: bool = False):
    """Reports for a file (`-`: standard input), read as it goes: memory stays flat."""
    for source, item in records_of(path):
        yield item if isinstance(item, Report) else check_one(item, source, infer)


def check_items(items, jobs: int = 1, infer: bool = False, outcome=None):
    """Reports for (source, record text or unreadable report) pairs, in their order; with `outcome`
    (a picklable function of a report), what it makes of each report, made where the report is.
    With `jobs` > 1 they are checked in that many processes, started once the input proves to hold
    POOL_AFTER batches; a few batches per process are in flight, so memory stays flat whatever the
    input's length, and only what `outcome` keeps of a report is sent back."""
    batches = _batches(items)
    head = list(itertools.islice(batches, POOL_AFTER))
    if jobs <= 1 or len(head) < POOL_AFTER:
        for batch in itertools.chain(head, batches):
            yield from check_batch(batch, infer, outcome)
        return
    from concurrent.futures import Future, ProcessPoolExecutor  # here: most runs need no pool, and start faster without
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(jobs, mp_context=_start_method(), initializer=_leave_interrupts_to_the_parent) as pool:
            pending: collections.deque[Future] = collections.deque()
            for batch in itertools.chain(head, batches):
                pending.append(pool.submit(check_batch, batch, infer, outcome))
                if len(pending) >= 4 * jobs:
                    yield from pending.popleft().result()
            while pending:
                yield from pending.popleft().result()
    except BrokenProcessPool:
        raise WorkerLost(
            msg(
                "a checking process stopped abruptly (out of memory?); "
                "the reports above are complete, the rest were not checked: try -j 1"
            )
        ) from None


def _start_method():
    """How the pool's processes start: forked on Linux, a copy of this one with its modules already
    imported (a few milliseconds, where a fresh interpreter takes a few tenths of a second for each);
    elsewhere the platform's default, as fork is unsafe on macOS."""
    import multiprocessing

    return multiprocessing.get_context("fork" if sys.platform == "linux" else None)


def _leave_interrupts_to_the_parent():
    """A checking process ignores Ctrl-C, which the terminal sends to every process of the command:
    the parent stops the pool and says so once, without a traceback from each process."""
    import signal  # here: a run without a pool does without it (it makes enums of every signal)

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class WorkerLost(Exception):
    """A process of the pool died; the reports yielded so far stand."""


@cycle_collection_paused()  # a batch at a time: what its checks leave is collected once, after it (replay.py)
def check_batch(batch, infer: bool = False, outcome=None) -> list:
    reports = (
        item if isinstance(item, Report) else check_one(item, source, infer)
        for source, item in itertools.chain.from_iterable(map(_expanded, batch))
    )
    return [outcome(report) for report in reports] if outcome else list(reports)


def _expanded(pair):
    """A batch's (source, item): a Span's records, read here; anything else as it is."""
    return _span_records(pair[1]) if isinstance(pair[1], Span) else (pair,)


def _batches(items):
    batch, size = [], 0
    for source, item in items:
        if isinstance(item, Span):  # a batch of its own
            if batch:
                yield batch
            yield [(source, item)]
            batch, size = [], 0
            continue
        batch.append((source, item))
        size += len(item) if isinstance(item, str) else 0
        if len(batch) >= BATCH_RECORDS or size >= BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


GZIP_MAGIC = b"\x1f\x8b"


def records_of(path: str, spans: bool = False, raw: bool = False):
    """(source, record text) for every record of a file (`-`: standard input), or (source, unreadable
    report): the one reader of every command that takes records. Gzip is recognised by content, not
    by name. JSON Lines are read line by line, whatever the file's name (a name ending in .jsonl says
    so; any other text is one JSON document unless its lines are records); a line or document above
    MAX_RECORD_BYTES is reported without being read whole. With `spans`, the lines of a plain JSON
    Lines file after its first record come as Spans, which check_batch reads (in a pool's process).
    With `raw`, lines of JSON Lines come as their bytes, which `decoded` makes text (or the report of
    why not) where the caller needs it: store import knows a line stored before by its bytes' hash."""
    if path == "-":
        yield from read_records(lambda: contextlib.nullcontext(sys.stdin.buffer), "<stdin>", None, raw=raw)
        return
    source = shown_path(path)
    problem = not_a_file(path)
    if problem:
        yield source, unreadable_file(source, problem)
        return
    opened = functools.partial(open, path, "rb", buffering=READ_BUFFER)
    yield from read_records(opened, source, jsonl_by_name(path), path if spans else None, raw)


# bytes a file is read by: its lines are found in the buffer and copied from it once (at the default 8 KB, a
# line of a 40 KB record is read in five pieces and joined: a quarter of an import of stored records' time)
READ_BUFFER = 1 << 20


def shown_path(path: str) -> str:
    """A path as reports name it: the bytes of a name that are not UTF-8 (which Python reads as lone
    surrogates, and no UTF-8 output or JSON can hold) written as \\xNN."""
    return path if path.isascii() else os.fsencode(path).decode("utf-8", "backslashreplace")


def jsonl_by_name(name: str) -> bool | None:
    """True for a name that says JSON Lines (.jsonl, compressed or not); None: guess from the text."""
    return (
        True if name.lower().removesuffix(".gz").removesuffix(".bz2").removesuffix(".xz").endswith(".jsonl") else None
    )


def read_records(open_binary, source: str, jsonl: bool | None, spans: str | None = None, raw: bool = False):
    """(source, record text or unreadable report) for every record of the file `open_binary()` opens
    (read through gzip when it starts as gzip does), as records_of reads it; `spans`: the file's path,
    for Spans, and `raw`: lines as bytes (see records_of)."""
    try:
        with open_binary() as stream, decompressed(stream) as handle:
            spanned = spans and stream is handle and handle.seekable()
            yield from _records(handle, source, jsonl, spans if spanned else None, raw)
    except _unreadable_errors() as exc:
        yield source, unreadable_file(source, os_problem(exc))


def _unreadable_errors() -> tuple[type[Exception], ...]:
    """What reading a file may raise: OSError, or a damaged compressed file's error."""
    return (OSError, *_damaged_errors())


def _damaged_errors() -> tuple[type[Exception], ...]:
    """What reading a damaged compressed file raises: EOFError, or the error of the decompressor that read it,
    which only a file read through it loads (gzip's zlib, or lzma for audit's .xz archives): start-up does
    without them."""
    zlib, lzma = sys.modules.get("zlib"), sys.modules.get("lzma")
    return (EOFError, *((zlib.error,) if zlib else ()), *((lzma.LZMAError,) if lzma else ()))


def decompressed(raw):
    """The stream itself, or a gzip reader over it when its first bytes are gzip's (looked at without
    consuming them: a stream that cannot show them is read through a buffer that can)."""
    if not hasattr(raw, "peek") and hasattr(raw, "readinto"):
        raw = io.BufferedReader(raw)
    if not (hasattr(raw, "peek") and raw.peek(2)[:2] == GZIP_MAGIC):
        return contextlib.nullcontext(raw)
    import gzip  # here: start-up does without it

    return gzip.GzipFile(fileobj=raw)


def read_text(path: str) -> str:
    """The whole text of one record's file (`-`: standard input), gzip recognised by content, as
    `validate` reads it; OSError, or ValueError (not UTF-8, or above MAX_RECORD_BYTES), saying why not."""
    problem = None if path == "-" else not_a_file(path)
    if problem:
        raise OSError(problem)
    with (
        contextlib.nullcontext(sys.stdin.buffer) if path == "-" else open(path, "rb") as raw,
        decompressed(raw) as handle,
    ):
        try:
            data = handle.read(MAX_RECORD_BYTES + 1)
        except _damaged_errors() as exc:
            raise OSError(msg("the compressed file is damaged: {problem}", problem=str(exc))) from None
    if len(data) > MAX_RECORD_BYTES:
        raise ValueError(msg("notation.size: a record may hold at most {limit} bytes", limit=MAX_RECORD_BYTES))
    return data.decode("utf-8")


# What the system says most often of a file it cannot open, for the catalogue.
OS_PROBLEMS = (
    word("No such file or directory"),
    word("Permission denied"),
    word("Is a directory"),
    word("Not a directory"),
    word("File name too long"),
    word("Too many levels of symbolic links"),
    word("Input/output error"),
    word("No space left on device"),
)


def os_problem(exc: Exception) -> str | Msg:
    """What the system said of a file (a word of the catalogue), what the referee said of it (read_text's
    OSError of a message), or the exception in English."""
    strerror = getattr(exc, "strerror", None)
    if strerror:
        return Term(strerror)
    said = exc.args[0] if len(exc.args) == 1 else None
    return said if isinstance(said, (Msg, Term)) else str(exc)


def unreadable_file(path: str, problem: str | Msg) -> Report:
    return unreadable(path, "notation.file", msg("cannot read {path}: {problem}", path=path, problem=problem))


def not_a_file(path: str) -> str | Msg | None:
    """Why `path` is no regular file to read (a folder, a FIFO, a device), or None."""
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            os.listdir(path)
            return msg("it is a folder")
    except OSError as exc:
        return os_problem(exc)
    if not stat.S_ISREG(mode):
        return msg("not a regular file (a pipe or a device): give it on standard input (-) instead")
    return None


def _records(handle, source: str, jsonl: bool | None, spans: str | None = None, raw: bool = False):
    """A stream's records: one JSON document, or JSON Lines (`jsonl` None: guessed from the first
    line, as split_records does); `spans` (a plain file's path): the lines of JSON Lines past the first
    POOL_AFTER batches' worth as Spans; `raw`: lines as bytes."""
    lines = _lines(handle)
    head: list = []
    for number, line in lines:
        if _taken(head, number, line):
            break
    if jsonl is None:
        number, first = head[-1] if head else (0, b"")
        jsonl = (
            first is not None
            and _not_blank(first)
            and not isinstance(parse_json(first), Finding)
            and _more(lines, head)
        )
    if not jsonl:
        yield source, decoded(_rest(handle, head), source)
        return
    number = 0  # the lines that decide whether a pool is worth its start-up are read here, one by one
    one_by_one = itertools.islice(lines, POOL_AFTER * BATCH_RECORDS) if spans else lines
    for number, line in itertools.chain(head, one_by_one):
        if line is None or _not_blank(line):
            yield _line_record(source, number, line, raw)
    if spans:
        yield from _spans(handle, spans, number + 1)


def _line_record(source: str, number: int, line: bytes | None, raw: bool = False):
    """(source:line, record text or unreadable report) for a line that is not blank; with `raw`, its bytes for
    the text."""
    where = f"{source}:{number}"
    if line is None:
        return where, _too_big(where)
    line = line.rstrip(b"\r\n")  # one line: a fault's column
    return where, line if raw else decoded(line, where)


class Span:
    """Lines of a plain JSON Lines file, bytes `start` to `end`, from line `first` (`lines` of them): what
    a pool's process reads and checks itself, so that the command's own process neither reads the lines
    one by one nor sends their text (with -j 2 on two cores it took a sixth of the time). `file`: the
    file's (device, inode), which the process opening the path again checks it finds. A plain class: a NamedTuple
    needs typing (start-up)."""

    __slots__ = ("end", "file", "first", "lines", "path", "start")

    def __init__(self, path: str, start: int, end: int, first: int, lines: int, file: tuple[int, int]) -> None:
        self.path, self.start, self.end, self.first, self.lines, self.file = path, start, end, first, lines, file


def _spans(handle, path: str, number: int):
    """(source, Span) for the rest of a file, cut at line ends (a line longer than a span whole): an eighth
    of what is left at a time, from SPAN_BYTES down to BATCH_BYTES. Each span costs the command's own
    process a round trip to the pool (with spans of BATCH_BYTES, about half its CPU in -j 2 on 55 MB of
    Gou Ji, start-up included), and the last ones are small so that the processes finish together."""
    start, stats = handle.tell(), os.fstat(handle.fileno())
    size, file = stats.st_size, (stats.st_dev, stats.st_ino)
    while block := handle.read(span := min(SPAN_BYTES, max(BATCH_BYTES, (size - start) // 8))):
        cut = block.rfind(b"\n") + 1 if len(block) == span else len(block)
        lines = block.count(b"\n", 0, cut)
        if lines > SPAN_LINES:
            cut, lines = _after_lines(block, SPAN_LINES), SPAN_LINES
        if cut == 0:
            cut, lines = _to_line_end(handle, len(block))
        handle.seek(start + cut)
        yield f"{shown_path(path)}:{number}", Span(path, start, start + cut, number, lines, file)
        start, number = start + cut, number + lines


def _after_lines(block: bytes, lines: int) -> int:
    """The offset just past the `lines`-th newline of `block` (which holds more)."""
    at = -1
    for _ in range(lines):
        at = block.find(b"\n", at + 1)
    return at + 1


def _to_line_end(handle, read: int) -> tuple[int, int]:
    """(bytes to the end of the line `read` bytes into, newlines in them: 1, or 0 at the end of the file)."""
    while block := handle.read(BATCH_BYTES):
        found = block.find(b"\n")
        if found >= 0:
            return read + found + 1, 1
        read += len(block)
    return read, 0


def _span_records(span: Span):
    """A Span's records, read as _records reads lines; the file gone or unreadable since, or another file
    or a shorter one by now (replaced, truncated): one report, as its lines are no longer there to check."""
    source = shown_path(span.path)
    where = f"{source}:{span.first}"
    try:
        with open(span.path, "rb") as handle:
            stats = os.fstat(handle.fileno())
            if (stats.st_dev, stats.st_ino) != span.file:
                yield where, unreadable_file(where, CHANGED)
                return
            handle.seek(span.start)
            bounded = _Bounded(handle, span.end - span.start)
            for number, line in _lines(bounded):
                if line is None or _not_blank(line):
                    yield _line_record(source, span.first + number - 1, line)
            if bounded.left:
                yield where, unreadable_file(where, CHANGED)
    except OSError as exc:
        yield where, unreadable_file(where, os_problem(exc))


CHANGED = msg("the file changed while it was being read (replaced or cut short)")


class _Bounded:
    """A file read no further than `left` more bytes (a Span's end)."""

    def __init__(self, handle, left: int):
        self.handle, self.left = handle, left

    def readline(self, limit: int) -> bytes:
        line = self.handle.readline(min(limit, self.left)) if self.left > 0 else b""
        self.left -= len(line)
        return line


def _lines(handle):
    """(number, bytes) for every line; (number, None) for one above MAX_RECORD_BYTES, skipped unread."""
    for number in itertools.count(1):
        line = handle.readline(MAX_RECORD_BYTES + 2)
        if not line:
            return
        if len(line) - line.endswith(b"\n") <= MAX_RECORD_BYTES:
            yield number, line
            continue
        while line and not line.endswith(b"\n"):
            line = handle.readline(1 << 20)
        yield number, None


def _not_blank(line: bytes) -> bool:
    """Whether a line holds more than white space; read without copying it where its first byte is no space (a
    record's line: strip() copies the line, 40 KB for a 10-deal Guandan match, as it ends in a newline)."""
    return line[:1] not in _BLANK_STARTS or bool(line.strip())


_BLANK_STARTS = (b" ", b"\t", b"\r", b"\n", b"\x0b", b"\x0c", b"")  # what bytes.strip() strips


def _more(lines, head) -> bool:
    """Whether a record line follows the head (which takes it in)."""
    return any(_taken(head, number, line) for number, line in lines)


def _taken(head: list, number: int, line: bytes | None) -> bool:
    """Whether a line is a record's (not blank, or too long to read): the head takes it in. A run of blank lines
    is kept as one bytearray (a document's text needs their bytes), of MAX_RECORD_BYTES + 1 bytes at most (the
    document is then too big): memory stays flat however many blank lines a file begins with."""
    if line is None or _not_blank(line):
        head.append((number, line))
        return True
    run = head[-1][1] if head else None
    if isinstance(run, bytearray):
        if len(run) <= MAX_RECORD_BYTES:
            run += line
    else:
        head.append((number, bytearray(line)))
    return False


def _rest(handle, head) -> bytes | None:
    """The whole document: the head and the rest of the stream; None when above MAX_RECORD_BYTES."""
    if any(line is None for _, line in head):
        return None
    data = b"".join(line for _, line in head)
    if len(data) > MAX_RECORD_BYTES:  # blank lines enough to pass the limit before the document began
        return None
    data += handle.read(MAX_RECORD_BYTES + 1 - len(data))
    return data if len(data) <= MAX_RECORD_BYTES else None


def _too_big(source: str) -> Report:
    return unreadable(source, "notation.size", msg("a record may hold at most {limit} bytes", limit=MAX_RECORD_BYTES))


def decoded(data: bytes | None, source: str) -> str | Report:
    """The record text, or the report of why it cannot be read."""
    if data is None:
        return _too_big(source)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return unreadable(
            source, "notation.encoding", msg("the input is not UTF-8 text: {problem}", problem=utf8_problem(exc))
        )


def utf8_problem(exc: UnicodeDecodeError) -> Msg:
    """Where bytes are not UTF-8, in words of the catalogue (Python's own sentence is English)."""
    return msg("byte {byte} at offset {offset}", byte=f"0x{exc.object[exc.start]:02X}", offset=exc.start)
