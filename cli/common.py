"""What the subcommands share: exit statuses, messages on standard error, the files a list of
paths names, the record store, and writing a file whole or not at all."""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile

import click

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def expand(paths, warn_empty):
    """Every file to read: the paths given, and the .json / .jsonl files (any case, gzipped or not) in folders and
    their subfolders, in name order. A folder that cannot be listed is yielded itself, so reading
    it reports why; `warn_empty` hears of a folder holding no such file."""
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
            warn_empty(f"no .json or .jsonl file in {path}")


def warn(message: str) -> str:
    click.echo(f"referee: warning: {message}", err=True)
    return message


def fail(message: str, status: int = EXIT_UNREADABLE):
    click.echo(f"referee: {message}", err=True)
    sys.exit(status)


def open_store(db_path: str):
    """The record store in an existing file, or exit 2."""
    from api.store import Store, StoreError     # here: only the commands that use the store load the API

    if not os.path.exists(db_path):
        fail(f"no record store at {db_path}")
    try:
        return Store(db_path)
    except StoreError as exc:
        fail(str(exc))


def write_atomically(path: str, text: str):
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
        fail(f"cannot write {path}: {exc.strerror or exc}; it is left as it was")
    _sync_folder(folder)


def _sync_folder(folder: str):
    """Make the rename itself durable, where the system lets a folder be opened."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
