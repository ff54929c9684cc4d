"""The `referee` command line."""
from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path

import click
import orjson
from rich.console import Console

from referee.batch import not_a_file
from referee.canonical import canonical, dumps
from referee.notation import SCHEMA, duplicate_key_findings, parse_json, split_records, structure_findings
from referee.replay import games, replay_steps, step_json

from . import render

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cgr-referee")
def main():
    """Referee for Chinese climbing card games: checks CGR/1 game records."""


def _expand(paths, warn):
    """Every file to read: the paths given, and the .json / .jsonl files (any case, gzipped or not) in folders and
    their subfolders, in name order. A folder that cannot be listed is yielded itself, so reading
    it reports why; `warn` hears of a folder holding no such file."""
    for path in paths:
        if not os.path.isdir(path):
            yield path
            continue
        found, failed = False, []
        for folder, subfolders, names in os.walk(path, onerror=failed.append):
            subfolders.sort()
            for name in sorted(names):
                if name.lower().endswith((".json", ".jsonl", ".json.gz", ".jsonl.gz")):
                    found = True
                    yield os.path.join(folder, name)
        yield from (error.filename for error in failed)
        if not found and not failed:
            warn(f"no .json or .jsonl file in {path}")


def _warn(message: str) -> str:
    click.echo(f"referee: warning: {message}", err=True)
    return message


def _load_one(path: str, line: int | None):
    """One parsed record from a file (a JSON Lines file needs `line`), or exit 2."""
    text = _read(path)
    chunks = list(split_records(text))
    if line is not None:
        chunks = [c for c in chunks if c[0] == line]
    if len(chunks) != 1:
        _fail(f"{path} holds {len(chunks)} records here; name one with --line")
    record = parse_json(chunks[0][1])
    if not isinstance(record, dict):
        _fail(f"{path}: " + (record.message if hasattr(record, "message") else "a record is a JSON object"))
    return record


def _read(path: str) -> str:
    """The whole text of a file (`-`: standard input), or exit 2 saying why not."""
    problem = None if path == "-" else not_a_file(path)
    if problem:
        _fail(f"cannot read {path}: {problem}")
    try:
        return sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        _fail(f"cannot read {path}: {exc}")


def _fail(message: str, status: int = EXIT_UNREADABLE):
    click.echo(f"referee: {message}", err=True)
    sys.exit(status)


@main.command()
@click.argument("file")
@click.option("--deal", "deal_index", type=int, required=True, help="Deal index, from 0.")
@click.option("--step", type=int, default=None, help="Show the table after the first K actions (0: as dealt).")
@click.option("--line", type=int, default=None, help="The record's line in a JSON Lines file.")
@click.option("--json", "as_json", is_flag=True, help="The table(s) as JSON.")
def replay(file, deal_index, step, line, as_json):
    """Replay one deal: the table at a step, or the deal action by action."""
    record = _load_one(file, line)
    report, frames = replay_steps(record, deal_index)
    deals = record.get("deals") if isinstance(record.get("deals"), list) else []
    if not 0 <= deal_index < len(deals):
        _fail(f"the record has {len(deals)} deal(s); --deal takes 0 to {len(deals) - 1}", EXIT_INVALID)
    if not frames:
        render.report(Console(highlight=False, soft_wrap=True), report)
        _fail(f"deal {deal_index} could not be replayed (see the findings above)", EXIT_INVALID)
    if step is not None and not 0 <= step < len(frames):
        _fail(f"deal {deal_index} replays to step {len(frames) - 1} at most", EXIT_INVALID)
    chosen = frames if step is None else [frames[step]]
    if as_json:
        tables = [step_json(frame) for frame in chosen]
        click.echo(json.dumps(tables[0] if step is not None else tables, ensure_ascii=False, indent=2))
        return
    console = Console(highlight=False, soft_wrap=True)
    for frame in chosen:
        render.table(console, frame["step"], frame["action"], frame["table"], frame["findings"])
        console.print()


@main.command()
@click.argument("file")
@click.option("-w", "--write", is_flag=True, help="Rewrite the file in place (atomically).")
@click.option("--check", is_flag=True, help="Exit 1 when the file is not already canonical.")
def fmt(file, write, check):
    """Print a record (or JSON Lines of records) in canonical form."""
    raw = _read(file)
    chunks = list(split_records(raw, True if file.lower().endswith(".jsonl") else None))
    jsonl = len(chunks) > 1 or chunks and chunks[0][0] is not None
    lines = []
    for number, chunk in chunks:
        record = parse_json(chunk)
        where = f"{file}:{number}" if number else file
        problems = [record] if hasattr(record, "rule") else \
            duplicate_key_findings(chunk, record) or structure_findings(record)
        if problems:
            for f in problems:
                click.echo(f"{where}: {f.rule} at {f.at or '/'}: {f.message}", err=True)
            _fail(f"{where} is not a CGR/1 record; nothing was written", EXIT_INVALID)
        game = games().get(record["game"])
        form = canonical(record, game.PRESET_ALIASES if game else None)
        lines.append(orjson.dumps(form).decode() if jsonl else dumps(form))
    text = "\n".join(lines) + "\n"
    if check:
        sys.exit(EXIT_VALID if text == raw else EXIT_INVALID)
    if write and file != "-":
        _write_atomically(file, text)
    else:
        sys.stdout.write(text)


def _write_atomically(path: str, text: str):
    """Replace the file (a symlink's target) by `text` whole or not at all, keeping its mode."""
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    temp = None
    try:
        mode = os.stat(target).st_mode & 0o7777
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, suffix=".tmp") as handle:
            temp = handle.name
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
    except OSError as exc:
        if temp is not None and os.path.exists(temp):
            os.unlink(temp)
        _fail(f"cannot write {path}: {exc.strerror or exc}; it is left as it was")
    _sync_folder(folder)


def _sync_folder(folder: str):
    """Make the rename itself durable, where the system lets a folder be opened."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@main.command()
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True)
def rules(game, as_json):
    """Presets and options of each game, with their defaults."""
    known = games()
    if game is not None and game not in known:
        _fail(f"unknown game {game!r}; known: {', '.join(known)}", EXIT_INVALID)
    chosen = [known[game]] if game else list(known.values())
    if as_json:
        click.echo(json.dumps({g.NAME: {
            "default_preset": g.DEFAULT_PRESET, "presets": g.PRESETS, "preset_aliases": g.PRESET_ALIASES,
            "options": {n: {"default": o.default, "values": o.describe(), "effect": o.effect}
                        for n, o in g.OPTIONS.items()}} for g in chosen}, indent=2))
        return
    console = Console(highlight=False, soft_wrap=True)
    for g in chosen:
        render.rules_table(console, g)
        console.print()


@main.command()
def schema():
    """Print the JSON Schema of CGR/1 (for platforms that write records)."""
    click.echo(json.dumps(SCHEMA, indent=2))


from .serve import serve  # noqa: E402  (imported last: cli.store, cli.validate import from this module)
from .store import store  # noqa: E402
from .validate import validate  # noqa: E402
main.add_command(validate)
main.add_command(serve)
main.add_command(store)

if __name__ == "__main__":
    main()
