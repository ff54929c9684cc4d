"""`referee fmt`: records in canonical form, used as a formatter is (black, ruff format, prettier)."""

from __future__ import annotations

import difflib
import os
import sys

import click
import orjson

from referee.batch import GZIP_MAGIC, not_a_file, os_problem, read_text
from referee.canonical import canonical, dumps
from referee.messages import part
from referee.notation import duplicate_key_findings, parse_json, split_records, structure_findings
from referee.replay import game_module

from .command import Command
from .common import EXIT_INVALID, EXIT_UNREADABLE, EXIT_USAGE, EXIT_VALID, cannot_read, expand, fail, say, warn
from .files import replacing

msg, msg_n, word, word_of = part("cli")


@click.command(
    cls=Command,
    help=word("""Put records in canonical form.

    PATH is a .json or .jsonl file, a folder (its .json and .jsonl files, subfolders too) or - for
    standard input. With one file and no option, the canonical form is printed. A JSON Lines file
    stays one record a line. Nothing is written for a file that is not a CGR/1 record. Exit status:
    0 all canonical (or rewritten), 1 some file would change (--check, --diff) or is not a CGR/1
    record, 2 some input cannot be read.
    """),
)
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "-w",
    "--write",
    is_flag=True,
    help=word(
        "Rewrite each file that is not canonical in place (atomically; mode, owner, symlinks and hard links kept)."
    ),
)
@click.option(
    "--check",
    is_flag=True,
    help=word('Write nothing; name each file that would change ("would reformat X") and exit 1 if any would.'),
)
@click.option(
    "--diff", is_flag=True, help=word("Write nothing; print a unified diff of each change and exit 1 if any.")
)
def fmt(paths, write, check, diff):
    if write + check + diff > 1:
        fail(msg("give one of -w, --check and --diff"), EXIT_USAGE)
    files = list(_files(paths))
    if len(files) > 1 and not (write or check or diff):
        fail(msg("several files: give -w, --check or --diff (or one file to print it)"))
    statuses = [_format_one(path, write, check, diff) for path in files]
    if check and not any(statuses):
        say(msg("{n} file(s) already canonical", n=len(files)))
    sys.exit(max(statuses, default=EXIT_UNREADABLE))


def _files(paths):
    """The files to format: each path, and the .json / .jsonl files under each folder (gzipped ones
    are archives, left alone; a symlink to a file outside the folder is skipped, and said so)."""
    for path in paths:
        if path != "-" and os.path.isdir(path):
            yield from (p for p in expand([path], warn) if not p.lower().endswith(".gz") and _inside(p, path))
        else:
            yield path


def _inside(path: str, folder: str) -> bool:
    """Whether the file `path` (found in `folder`) really is there, not only linked from there."""
    real, home = os.path.realpath(path), os.path.realpath(folder)
    if os.path.commonpath([real, home]) == home:
        return True
    say(
        "referee: "
        + msg("skipped {path}: a symlink to {real}, outside {folder}", path=path, real=real, folder=folder).render()
    )
    return False


def _format_one(path: str, write: bool, check: bool, diff: bool) -> int:
    """Format one file as asked; its exit status."""
    raw = _text(path, write)
    if raw is None:
        return EXIT_UNREADABLE
    if not raw.strip() and path.lower().endswith(".jsonl"):
        return EXIT_VALID  # an empty JSON Lines file holds no record to format
    text = _canonical_text(path, raw)
    if isinstance(text, int):
        return text
    if check or diff:
        if text == raw:
            return EXIT_VALID
        if check:
            say(msg("would reformat {path}", path=path))
        if diff:
            sys.stdout.writelines(_unified_diff(raw, text, path))
        return EXIT_INVALID
    if write and path != "-":
        if text != raw:
            _rewrite(path, text)
            say(msg("reformatted {path}", path=path))
    else:
        sys.stdout.write(text)
    return EXIT_VALID


def _unified_diff(old: str, new: str, path: str):
    """A unified diff that `patch` applies, also where a side has no final newline (diff's marker)."""
    for line in difflib.unified_diff(old.splitlines(True), new.splitlines(True), path, path):
        yield line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"


def _rewrite(path: str, text: str):
    try:
        with replacing(path) as out:
            out.write(text)
    except OSError as exc:
        fail(msg("cannot write {path}: {reason}; it is left as it was", path=path, reason=os_problem(exc)))


def _text(path: str, write: bool) -> str | None:
    """The file's text (`-`: standard input; gzip by content, as `validate` reads it), or None after
    saying why it cannot be read: a file above the size of a record is refused as `validate` refuses
    it, unless it is JSON Lines, and a compressed one is not rewritten in place."""
    try:
        if path.lower().endswith(".jsonl") and not_a_file(path) is None:
            with open(path, "rb") as handle:  # many records: read whole, as before
                if handle.peek(2)[:2] != GZIP_MAGIC:
                    return handle.read().decode("utf-8")
        if write and path != "-" and not_a_file(path) is None and _gzipped(path):
            raise OSError(msg("it is gzip-compressed; fmt -w rewrites plain text only (decompress it first)").render())
        return read_text(path)
    except (OSError, ValueError) as exc:
        say(f"referee: {cannot_read(path, exc).render()}")
    return None


def _gzipped(path: str) -> bool:
    with open(path, "rb") as handle:
        return handle.read(2) == GZIP_MAGIC


def _canonical_text(path: str, raw: str) -> str | int:
    """The canonical text of a file's records (JSON Lines stay JSON Lines), or the exit status after
    saying why it has none: 2 for text that is not JSON, 1 for JSON that is no CGR/1 record."""
    chunks = list(split_records(raw, True if path.lower().endswith(".jsonl") else None))
    jsonl = len(chunks) > 1 or (bool(chunks) and chunks[0][0] is not None)
    lines = []
    for number, chunk in chunks:
        record = parse_json(chunk)
        where = f"{path}:{number}" if number else path
        problems = (
            [record] if hasattr(record, "rule") else duplicate_key_findings(chunk, record) or structure_findings(record)
        )
        if problems:
            for f in problems:
                say(
                    msg(
                        "{where}: {rule} at {at}: {message}",
                        where=where,
                        rule=f.rule,
                        at=f.at or "/",
                        message=f.shown(),
                    )
                )
            say("referee: " + msg("{where} is not a CGR/1 record; nothing was written", where=where).render())
            return EXIT_UNREADABLE if hasattr(record, "rule") else EXIT_INVALID
        game = game_module(record["game"])
        form = canonical(record, game.PRESET_ALIASES if game else None)
        lines.append(orjson.dumps(form).decode() if jsonl else dumps(form))
    return "\n".join(lines) + "\n"
