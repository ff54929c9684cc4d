"""Files the commands rewrite (`fmt -w`, `import -o`): written whole, as the file they replace was."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
import tempfile


@contextlib.contextmanager
def replacing(path: str):
    """A text file to write that becomes `path` once the block ends without error, or is
    removed (leaving `path` as it was). A symlink's target is written and the link stays; the
    file keeps its mode and owner. A file with other hard links, or one whose owner cannot be
    given back, is rewritten in place from the finished copy, so that it stays the one file it
    was. A pipe or device is written to, never replaced."""
    target = os.path.realpath(path)
    old = _stat(target)
    if old is not None and not stat.S_ISREG(old.st_mode):
        with open(target, "w", encoding="utf-8") as handle:
            yield handle
        return
    folder = os.path.dirname(target)
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False, suffix=".tmp")  # noqa: SIM115 (closed below)
    try:
        with handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        _put(handle.name, target, old)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(handle.name)
    _sync_folder(folder)


def one_of(output: str, inputs, endings: tuple[str, ...]) -> str | None:
    """The input that writing `output` would overwrite, or None: a path given, standard input (`-`) read from
    that file, or a folder in which the command reads `output` (a name with one of `endings`). A command must
    not destroy what it reads (`-` as the output, standard output, overwrites nothing)."""
    if output == "-" or not os.path.exists(output):
        return None
    written = os.stat(output)
    for given in inputs:
        if given == "-":
            if _stdin_is(written):
                return given
        elif not os.path.exists(given):
            continue
        elif os.path.isdir(given):
            inside = os.path.commonpath([os.path.realpath(given), os.path.realpath(output)]) == os.path.realpath(given)
            if inside and output.lower().endswith(endings):
                return given
        elif os.path.samefile(given, output):
            return given
    return None


def _stdin_is(file: os.stat_result) -> bool:
    """Whether standard input is read from that file."""
    try:
        return os.path.samestat(os.fstat(sys.stdin.fileno()), file)
    except (OSError, ValueError):  # no file behind it (a test's, a closed one)
        return False


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None


def _put(temp: str, target: str, old: os.stat_result | None):
    """The finished copy in the target's place."""
    if old is None:
        os.chmod(temp, 0o666 & ~_umask())
    elif old.st_nlink > 1 or not _owned_as(temp, old):
        _copy_into(temp, target)
        return
    else:
        os.chmod(temp, stat.S_IMODE(old.st_mode))
    os.replace(temp, target)


def _owned_as(temp: str, old: os.stat_result) -> bool:
    """Give the copy the old file's owner and group; False where that is not allowed."""
    try:
        os.chown(temp, old.st_uid, old.st_gid)
    except PermissionError:
        return False
    return True


def _copy_into(temp: str, target: str):
    with open(temp, "rb") as source, open(target, "r+b") as sink:
        shutil.copyfileobj(source, sink)
        sink.truncate()
        sink.flush()
        os.fsync(sink.fileno())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _sync_folder(folder: str):
    """Make the rename itself durable, where the system lets a folder be opened."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
