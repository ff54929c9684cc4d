"""The progress bar of the commands that read files of records (validate, store import): drawn on
standard error when it is a terminal, by rich (loaded only then)."""

from __future__ import annotations

import os
import sys

from referee.batch import Span
from referee.messages import language, part

msg, msg_n, word, word_of = part("cli")


def progress_bar():
    """A progress bar on standard error when it is a terminal (records, records/s, ETA), else None. It
    is redrawn by `counted`, not by a thread of its own: a process forked while another thread
    writes to standard error could hang on that stream's lock. Reports written to a terminal are
    printed by the bar's console, soft-wrapped as the text console prints them (long lines whole)."""
    if not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn  # here: only a terminal needs it

    return Progress(
        TextColumn("{task.fields[records]} " + word("records").shown(language())),
        BarColumn(),
        TextColumn("{task.fields[rate]} " + word("records/s").shown(language())),
        TimeRemainingColumn(),
        console=Console(stderr=True, soft_wrap=True),
        transient=True,
        redirect_stdout=sys.stdout.isatty(),
        auto_refresh=False,
    )


def total_bytes(paths: list[str]) -> int | None:
    """The bytes to read, when known up front (no standard input, no gzip)."""
    if any(p == "-" or p.lower().endswith(".gz") or not os.path.isfile(p) for p in paths):
        return None
    return sum(os.path.getsize(p) for p in paths)


def counted(items, progress, total: int | None):
    """The items, advancing the progress bar by each record's size as it is read (of `total` bytes,
    when known), and redrawing it at most ten times a second."""
    task = progress.add_task("checking", total=total, records=0, rate="…")
    drawn, number = 0.0, 0
    for source, item in items:
        size, number = (
            (item.end - item.start, number + item.lines)
            if isinstance(item, Span)
            else (len(item) if isinstance(item, (str, bytes)) else 0, number + 1)
        )
        elapsed = progress.tasks[0].elapsed or 0
        rate = f"{number / elapsed:,.0f}" if elapsed > 1 else "…"
        progress.update(task, advance=size, records=number, rate=rate)
        if elapsed - drawn >= 0.1:
            progress.refresh()
            drawn = elapsed
        yield source, item
