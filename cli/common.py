"""What the subcommands share: exit statuses, messages on standard error, the files a list of
paths names and the record store (cli/files.py writes files)."""

from __future__ import annotations

import atexit
import codecs
import functools
import itertools
import os
import re
import sys

from referee.batch import os_problem, read_text
from referee.messages import Listing, index_of, part, shown
from referee.notation import duplicate_key_findings, parse_json, split_records
from referee.rules import did_you_mean

msg, msg_n, word, word_of = part("cli")

# 2 also for a command line that asks for what is not there (an unknown name, a deal out of range);
# 130 when interrupted (Ctrl-C), as shells count it
EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 2, 130


JSON_ENDINGS = (".json", ".jsonl", ".json.gz", ".jsonl.gz")


def expand(paths, warn_empty, endings=JSON_ENDINGS):
    """Every file to read: the paths given, and the files ending in `endings` (any case: .json / .jsonl,
    gzipped or not) in folders and their subfolders, in name order. A folder that cannot be listed is
    yielded itself, so reading it reports why; `warn_empty` hears of a folder holding no such file."""
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        found, failed = False, []
        for folder, subfolders, names in os.walk(path, onerror=failed.append):
            subfolders.sort()
            for name in sorted(names):
                if name.lower().endswith(endings):
                    found = True
                    yield os.path.join(folder, name)
        yield from (error.filename for error in failed)
        if not found and not failed:
            warn_empty(msg("no .json or .jsonl file in {path}", path=path))


def cells(text: str) -> int:
    """The terminal cells `text` takes: a Chinese character takes two."""
    from rich.cells import cell_len  # here: start-up does without rich

    return cell_len(text)


def padded(text: str, width: int) -> str:
    """`text` and the spaces that fill `width` terminal cells."""
    return text + " " * max(0, width - cells(text))


# what a terminal would obey in a record's text (C0 and C1 controls but tab and line feed: escape
# sequences, a bare carriage return; the bidi controls that reorder a line), shown as the ruling shows it
TERMINAL_CONTROLS = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"


def visible(text: str) -> str:
    """Text for a terminal, each control in it shown as a marker: ⟨U+001B⟩."""
    return _terminal_controls().sub(lambda c: f"⟨U+{ord(c.group()):04X}⟩", text)


@functools.cache
def _terminal_controls() -> re.Pattern[str]:
    """TERMINAL_CONTROLS compiled, when text is first shown (a run that writes only JSON never compiles it)."""
    return re.compile(TERMINAL_CONTROLS)


# what a spreadsheet reads as the start of a formula (OWASP, "CSV Injection")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = r"[+-]?\d+(?:\.\d+)?"


def spreadsheet_text(value):
    """A CSV cell that a spreadsheet shows as it is, never evaluates: text that starts as a formula
    does gets an apostrophe ahead of it; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and not re.fullmatch(NUMBER, value):
        return "'" + value
    return value


def to_stderr(text: str) -> None:
    """A line on standard error, as click writes it (escape sequences left out where it is no terminal)."""
    echo(text, err=True)


def echo(text: str, err: bool = False) -> None:
    """A line on standard output (`err`: standard error) as click.echo writes it: straight to the stream where
    click writes it as it is (no escape sequence to take out, an encoding that is not ASCII, which click would
    replace), else by click itself, which a run that writes only such lines does without."""
    stream = sys.stderr if err else sys.stdout
    if "\x1b" in text or not _as_it_is(stream):
        import click

        click.echo(text, err=err)
        return
    stream.write(text + "\n")
    stream.flush()


def _as_it_is(stream) -> bool:
    """Whether click.echo writes to `stream` itself: a text stream with an encoding, not ASCII, and errors set."""
    encoding = getattr(stream, "encoding", None)
    if encoding is None or getattr(stream, "errors", None) is None:
        return False
    try:
        return codecs.lookup(encoding).name != "ascii"
    except LookupError:
        return True


def say(text) -> None:
    """A line on standard error, in the language spoken."""
    to_stderr(shown(text))


def warn(message) -> str:
    """Say a warning; the warning as said."""
    text = shown(message)
    to_stderr("referee: " + msg("warning: {message}", message=text).render())
    return text


def fail(message, status: int = EXIT_UNREADABLE):
    to_stderr(f"referee: {shown(message)}")
    sys.exit(status)


def not_over_an_input(output: str | None, inputs) -> None:
    """Fails (usage) when writing `output` would overwrite one of the command's `inputs` (cli/files.one_of)."""
    if output is None:
        return
    from .files import one_of  # here: most runs write no file (its tempfile and shutil cost validate 6 ms)

    given = one_of(output, inputs, JSON_ENDINGS)
    if given is None:
        return
    if given == "-":
        fail(msg("{output} is standard input, which this command reads: write elsewhere", output=output), EXIT_USAGE)
    if os.path.isdir(given):
        fail(
            msg("{output} lies in {given}, which this command reads: write elsewhere", output=output, given=given),
            EXIT_USAGE,
        )
    fail(msg("{output} is {given}, which this command reads: write elsewhere", output=output, given=given), EXIT_USAGE)


def cannot_read(path: str, why):
    """That a file cannot be read, and why: the system's reason (`why` an OSError), or a finding."""
    reason = why.shown() if hasattr(why, "shown") else os_problem(why)
    return msg("cannot read {path}: {reason}", path=path, reason=reason)


def unknown(kind: str, name: str, known, listed: bool = True):
    """Exit 2 for a name the command line gives that is not one of `known`, saying the one
    probably meant (and, `listed`, every known one)."""
    known_ones = msg("; known: {names}", names=", ".join(known)).render() if listed else ""
    fail(
        msg(
            "unknown {kind} {name}{meant}{known}",
            kind=kind,
            name=name,
            meant=did_you_mean(name, known),
            known=known_ones,
        ),
        EXIT_USAGE,
    )


def finding_index(number: int, count: int) -> int:
    """The 0-based index of the finding a person numbers `number` (--finding: counted from 1, as
    reports number findings) among a record's `count`, or exit 2 saying which numbers there are."""
    if count == 0:
        fail(msg("the record has no findings: --finding has nothing to name"), EXIT_USAGE)
    if not 1 <= number <= count:
        fail(msg("the record has {n} finding(s); --finding takes 1 to {n}", n=count), EXIT_USAGE)
    return index_of(number)


def deal_index(number: int, count: int) -> int:
    """The 0-based index of the deal a person numbers `number` (--deal: counted from 1), or exit 2."""
    if count == 0:
        fail(msg("the record has no deals"), EXIT_USAGE)
    if not 1 <= number <= count:
        fail(msg("the record has {n} deal(s); --deal takes 1 to {n}", n=count), EXIT_USAGE)
    return index_of(number)


def open_store(db_path: str):
    """The record store in an existing file, or exit 2."""
    from ..api.store import Store, StoreError  # here: only the commands that use the store load the API

    if not os.path.exists(db_path):
        fail(msg("no record store at {path}", path=db_path))
    try:
        store = Store(db_path)
    except StoreError as exc:
        fail(exc.text)
    atexit.register(store.close)  # what the command wrote is in the store's file alone when it ends
    return store


def finding_numbered(findings: list, number: int):
    """The finding that `--finding number` names (counted from 1, as reports number findings), or exit 2."""
    return findings[finding_index(number, len(findings))]


def load_one(path: str, line: int | None):
    """One parsed record from a file (a JSON Lines file needs `line`), or exit 2 (exit 1 for a key written twice)."""
    text = _read(path)
    chunks = list(split_records(text))
    if line is not None:
        chunks = [c for c in chunks if c[0] == line]
        if not chunks:
            fail(_no_record_on(path, text, line))
    if len(chunks) != 1:
        fail(
            msg(
                "{path} holds {n} records (on lines {lines}{more}); name one with --line",
                path=path,
                n=len(chunks),
                lines=Listing([c[0] for c in chunks[:5]]),
                more=" ..." if len(chunks) > 5 else "",
            )
        )
    where = f"{path}:{line}" if line is not None else path
    record = parse_json(chunks[0][1])
    if not isinstance(record, dict):
        fail(
            f"{where}: "
            + (
                record.shown()
                if hasattr(record, "message")
                else msg(
                    "holds {kind}, not a record (a JSON object)", kind=_JSON_KINDS.get(type(record), A_JSON_VALUE)
                ).render()
            )
        )
    twice = duplicate_key_findings(chunks[0][1], record)
    if twice:  # what the parse kept of the key is not the record (validate: invalid, checked no further)
        fail(_found_in(where, twice[0]), EXIT_INVALID)
    return record


def shallow_enough(record: dict, path: str) -> None:
    """Fails (exit 2) for a record nested deeper than CGR/1 reads (notation.depth): a command that writes the
    record again or a document of it would recurse through it."""
    from referee.notation import structure_findings  # here: the commands that check records import it anyway

    findings = structure_findings(record)
    if findings and findings[0].rule == "notation.depth":
        fail(_found_in(path, findings[0]))


def _found_in(where: str, finding) -> str:
    """A finding that keeps a command from the record, said in a line: where, its rule id, place and message."""
    return f"{where}: {finding.rule} {finding.at}: {finding.shown()}"


A_JSON_VALUE = word("a JSON value")
_JSON_KINDS = {
    list: word("a JSON array"),
    str: word("a string"),
    int: word("a number"),
    float: word("a number"),
    bool: word("true or false"),
    type(None): "null",
}


def _no_record_on(path: str, text: str, line: int):
    """Why --line names no record of the file: what stands on that line."""
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    if next(split_records(text), (None,))[0] is None:
        return msg("{path} is one JSON document, not JSON Lines: leave out --line", path=path)
    if not 1 <= line <= len(lines):
        return msg("{path} has {n} line(s); --line takes 1 to {n}", path=path, n=len(lines))
    return msg(
        "line {line} of {path} is blank; records stand on lines {lines}",
        line=line,
        path=path,
        lines=Listing([n for n, _ in itertools.islice(split_records(text, True), 5)]),
    )


def _read(path: str) -> str:
    """The whole text of a file (`-`: standard input; gzip by content), or exit 2 saying why not."""
    try:
        return read_text(path)
    except (OSError, ValueError) as exc:
        fail(cannot_read(path, exc))
