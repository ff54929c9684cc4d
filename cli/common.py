"""What the subcommands share: exit statuses, messages on standard error, the files a list of
paths names, one record read from a file and the record store (cli/files.py writes files)."""
from __future__ import annotations

import itertools
import os
import sys

import click

from referee.batch import read_text
from referee.notation import parse_json, split_records
from referee.rules import did_you_mean

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
            warn_empty(f"no .json or .jsonl file in {path}")


def warn(message: str) -> str:
    click.echo(f"referee: warning: {message}", err=True)
    return message


def fail(message: str, status: int = EXIT_UNREADABLE):
    click.echo(f"referee: {message}", err=True)
    sys.exit(status)


def unknown(kind: str, name: str, known, listed: bool = True):
    """Exit 2 for a name the command line gives that is not one of `known`, saying the one
    probably meant (and, `listed`, every known one)."""
    fail(f"unknown {kind} {name}{did_you_mean(name, known)}" + (f"; known: {', '.join(known)}" if listed else ""),
         EXIT_USAGE)


def open_store(db_path: str):
    """The record store in an existing file, or exit 2."""
    from api.store import Store, StoreError     # here: only the commands that use the store load the API

    if not os.path.exists(db_path):
        fail(f"no record store at {db_path}")
    try:
        return Store(db_path)
    except StoreError as exc:
        fail(str(exc))


def load_one(path: str, line: int | None):
    """One parsed record from a file (a JSON Lines file needs `line`), or exit 2."""
    text = _read(path)
    chunks = list(split_records(text))
    if line is not None:
        chunks = [c for c in chunks if c[0] == line]
        if not chunks:
            fail(_no_record_on(path, text, line))
    if len(chunks) != 1:
        fail(f"{path} holds {len(chunks)} records (on lines {', '.join(str(c[0]) for c in chunks[:5])}"
              f"{' ...' if len(chunks) > 5 else ''}); name one with --line")
    where = f"{path}:{line}" if line is not None else path
    record = parse_json(chunks[0][1])
    if not isinstance(record, dict):
        fail(f"{where}: " + (record.message if hasattr(record, "message") else
                              f"holds {_JSON_KINDS.get(type(record), 'a JSON value')}, not a record (a JSON object)"))
    return record


_JSON_KINDS = {list: "a JSON array", str: "a string", int: "a number", float: "a number", bool: "true or false",
               type(None): "null"}


def _no_record_on(path: str, text: str, line: int) -> str:
    """Why --line names no record of the file: what stands on that line."""
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    if next(split_records(text), (None,))[0] is None:
        return f"{path} is one JSON document, not JSON Lines: leave out --line"
    if not 1 <= line <= len(lines):
        return f"{path} has {len(lines)} line(s); --line takes 1 to {len(lines)}"
    return f"line {line} of {path} is blank; records stand on lines " + \
        ", ".join(str(n) for n, _ in itertools.islice(split_records(text, True), 5))


def _read(path: str) -> str:
    """The whole text of a file (`-`: standard input; gzip by content), or exit 2 saying why not."""
    try:
        return read_text(path)
    except (OSError, ValueError) as exc:
        fail(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}")
