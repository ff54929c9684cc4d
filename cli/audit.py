"""`referee audit`: JSON Lines archives checked on a Dask cluster (the optional `dask` extra)."""

from __future__ import annotations

import contextlib
import gc
import glob
import json
import os
import sys
import warnings
from pathlib import Path

import click

from referee.batch import os_problem
from referee.messages import part

from .command import Choice, Command
from .common import EXIT_INVALID, EXIT_UNREADABLE, EXIT_VALID, expand, fail, not_over_an_input
from .files import replacing

msg, msg_n, word, word_of = part("cli")

ARCHIVE_ENDINGS = (".jsonl", ".jsonl.gz", ".jsonl.bz2", ".jsonl.xz")


@click.command(
    cls=Command,
    help=word("""Check JSON Lines archives on a Dask cluster.

    PATHS are JSON Lines files (plain or .gz/.bz2/.xz), globs, fsspec URLs (s3://..., with the
    matching fsspec package installed) or local folders (every JSON Lines file below them). Each
    record gets the report `referee validate --json` gives it. The summary is printed on
    standard error. Exit status as `validate`: 0 every record valid, 1 some record invalid,
    2 some line unreadable. Needs the optional extra: pip install '.[dask]'.
    """),
)
@click.argument("paths", nargs=-1, required=True)
@click.option(
    "-o",
    "--output",
    required=True,
    help=word("Folder (local or an fsspec URL) for the reports: one part file per input file, in order."),
)
@click.option(
    "--format",
    "form",
    type=Choice(["jsonl", "parquet"]),
    default="jsonl",
    show_default=True,
    help=word(
        "jsonl: the reports of `validate --json`; parquet: source, valid, game, errors, rules "
        "and the whole report as JSON."
    ),
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help=word("A running Dask scheduler (tcp://host:8786). Without it, a local cluster is started."),
)
@click.option(
    "--workers",
    type=click.IntRange(1),
    default=None,
    help=word("Worker processes of the local cluster (default: one per core)."),
)
@click.option(
    "--summary-json",
    type=click.Path(dir_okay=False),
    default=None,
    help=word("Also write the summary (records by verdict, findings by rule id) to this file as JSON."),
)
@click.option(
    "--integrity",
    "deals",
    is_flag=True,
    help=word(
        "Check the deals together, as `referee integrity` does, instead of each record: the "
        "findings and the summary go to OUTPUT/integrity.jsonl (exit 0 nothing found, 1 some "
        "finding, 2 some input unreadable). Needs numpy too."
    ),
)
def audit(paths, output, form, scheduler, workers, summary_json, deals):
    not_over_an_input(summary_json, paths)
    try:
        dask, Client, LocalCluster = _imported_dask(without=() if deals or form == "parquet" else UNUSED_BY_JSONL)
        if form == "parquet":
            import pyarrow  # noqa: F401  (dask writes parquet with it)
    except ImportError:
        fail(msg("referee audit needs Dask: pip install 'cgr-referee[dask]' (or '.[dask]' in a checkout)"))
    try:
        if deals:
            import numpy  # noqa: F401  (the integrity findings group the keys with it)
    except ImportError:
        fail(
            msg(
                "referee audit --integrity needs numpy: pip install 'cgr-referee[integrity]' "
                "(or '.[integrity]' in a checkout)"
            )
        )
    files = _listed(_sources(paths))
    if deals:
        _integrity(dask, _client(Client, LocalCluster, scheduler, workers), files, output)
    try:
        summary = _run(dask, _client(Client, LocalCluster, scheduler, workers), files, output, form)
    except (OSError, ValueError, TimeoutError) as exc:  # a missing file, an unreachable scheduler
        fail(msg("audit stopped: {reason}", reason=str(exc)))
    text = json.dumps(summary, indent=2)
    click.echo(text, err=True)
    if summary_json:
        try:
            with replacing(summary_json) as out:
                out.write(text + "\n")
        except OSError as exc:
            fail(msg("cannot write the summary to {path}: {reason}", path=summary_json, reason=os_problem(exc)))
    sys.exit(EXIT_UNREADABLE if summary["unreadable"] else EXIT_INVALID if summary["invalid"] else EXIT_VALID)


# Modules Dask and distributed load when they are installed and a jsonl audit does not use: numpy, for the
# buffers distributed receives messages into (a bytearray does as well for a tally), and jinja2, for the
# widgets Dask shows in a notebook; the two were a fifth of the CPU of importing distributed. --integrity
# and parquet need numpy, so they load both.
UNUSED_BY_JSONL = ("numpy", "jinja2")


def _imported_dask(without: tuple[str, ...]):
    """dask, distributed.Client and distributed.LocalCluster, imported without the modules `without` (_importing)."""
    with _importing(without):
        import dask
        from distributed import Client, LocalCluster
    return dask, Client, LocalCluster


@contextlib.contextmanager
def _importing(without: tuple[str, ...]):
    """While Dask is imported: the modules `without` kept out (each import of them fails, as if they were not
    installed); the cycle collector paused, as the import makes some 80,000 objects and no garbage, which it
    would look at again and again. What the import made is then left out of its collections for good (frozen:
    it lasts as long as the command), so a local cluster's forked workers do not copy the pages it is in to
    collect it either."""
    kept_out = [name for name in without if name not in sys.modules]
    collecting = gc.isenabled()
    gc.disable()
    sys.modules.update(dict.fromkeys(kept_out))
    try:
        yield
    finally:
        for name in kept_out:
            del sys.modules[name]
        gc.freeze()
        if collecting:
            gc.enable()


def _listed(sources) -> list:
    """The files to read (referee.audit.files_of), listed before any cluster starts: the workers of a local
    one, forked, have what listing them loaded (fsspec and its plugins, a scan of every package's metadata)."""
    from referee.audit import files_of

    try:
        return files_of(sources)
    except (OSError, ValueError) as exc:  # no file matches, an unreachable store
        fail(msg("audit stopped: {reason}", reason=str(exc)))


def _run(dask, client, files, output, form) -> dict:
    """Write every report under `output` and return the summary, in one pass over the archive."""
    from referee.audit import REPORT_COLUMNS, as_row, part_name, report_bag, summary_of, written

    with client as running:
        if form == "jsonl":
            return written(running, files, output)
        reports = report_bag(files)
        # a bag feeding a dataframe: Dask warns that it merges the two graph kinds, as intended
        warnings.filterwarnings("ignore", "Computing mixed collections", UserWarning)
        written_parquet = (
            reports.map(as_row)
            .to_dataframe(meta=REPORT_COLUMNS)
            .to_parquet(
                output, write_index=False, compute=False, name_function=lambda i: f"part-{part_name(i)}.parquet"
            )
        )
        _, summary = dask.compute(written_parquet, summary_of(reports))
    return summary


def _integrity(dask, client, files, output) -> None:
    """`referee integrity` on the cluster: one pass, each file's deals on a worker; the findings written to
    OUTPUT/integrity.jsonl, the summary also on standard error."""
    import fsspec
    import orjson

    from referee.audit import integrity_of
    from referee.messages import shown

    try:
        with client:
            archive = dask.compute(integrity_of(files))[0]
        findings, summary = archive.findings()
        with fsspec.open(f"{output.rstrip('/')}/integrity.jsonl", "w", auto_mkdir=True) as handle:
            for finding in findings + [summary]:
                handle.write(orjson.dumps({k: shown(v) for k, v in finding.items()}).decode() + "\n")
    except (OSError, ValueError, TimeoutError) as exc:
        fail(msg("audit stopped: {reason}", reason=str(exc)))
    click.echo(json.dumps(summary, indent=2), err=True)
    sys.exit(EXIT_UNREADABLE if summary["unreadable"] else EXIT_INVALID if findings else EXIT_VALID)


def _sources(paths) -> list[str]:
    """Local folders become the JSON Lines files below them (and the folders below that cannot be listed, which
    are reported unreadable); other paths, globs and URLs go to Dask as given."""
    sources = []
    for path in paths:
        if Path(path).is_dir():
            sources += expand(
                [path],
                lambda _, path=path: fail(msg("{path}: no JSON Lines file below this folder", path=path)),
                ARCHIVE_ENDINGS,
            )
        elif "://" not in path and not glob.has_magic(path) and not Path(path).is_file():
            fail(msg("{path}: no such file", path=path))
        else:
            sources.append(path)
    return sources


@contextlib.contextmanager
def _client(client_class, cluster_class, scheduler, workers):
    """A client of the given scheduler, or of a local cluster closed with it."""
    import logging  # here: start-up does without it

    if scheduler:
        with client_class(scheduler) as client:
            yield client
        return
    import dask

    _ready_to_fork()
    with (
        dask.config.set(LOCAL_CLUSTER),
        cluster_class(
            n_workers=workers or os.cpu_count() or 1,
            threads_per_worker=1,
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # not 8787: another cluster may hold it
            silence_logs=logging.ERROR,
        ) as cluster,
        client_class(cluster) as client,
    ):
        yield client


def _ready_to_fork() -> None:
    """What each of the local cluster's forked workers would otherwise do again as it starts, done once here:
    the versions of the installed packages that every worker sends the scheduler, read from their metadata
    on disk and `uname -p` run in a subprocess (kept by distributed for the process and its forks)."""
    from distributed.versions import get_versions

    get_versions()


# A local cluster's processes forked from the command, which has loaded what they need (spawned, each
# imported Dask and the referee again: a second of CPU for two workers), and without the statistical
# profiler each worker runs every 10 ms for the dashboard, which this command does not open. Its
# housekeeping (issue 36) at the pace of a short run on one machine: each process's event loop looked at
# every second, not every 20 ms; the system and memory monitors every 5 s, not every 0.1-0.5 s; no work
# stealing or memory manager, which move tasks and data between workers this command's tasks do not need
# moved (each reads its own file; the scheduler hands them out as workers free up); no pages (health,
# metrics) on the HTTP servers that the scheduler and each worker start even without a dashboard, the
# scheduler's on a free port of loopback (on 8787, taken by another cluster, it warned on standard error).
# Together they cost 0.08 CPU-s every second of the run with two workers, 0.01 with these.
LOCAL_CLUSTER = {
    "distributed.worker.multiprocessing-method": "fork",
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "5s",
    "distributed.scheduler.work-stealing": False,
    "distributed.scheduler.active-memory-manager.start": False,
    "distributed.scheduler.http.routes": [],
    "distributed.worker.http.routes": [],
}
