"""`referee validate` at scale (issue 10, items 2 and 3): processes, gzip, filters, summary, progress."""

from __future__ import annotations

import copy
import gzip
import json
import sys

import orjson
import pytest
from click.testing import CliRunner

from referee.cli.main import main
from tests.builders import guandan, quick_deal

VALID = guandan([quick_deal([0, 2])])  # two warnings: reports missing
SHORT = copy.deepcopy(VALID)
SHORT["deals"][0]["actions"] = SHORT["deals"][0]["actions"][:4]  # a warning: incomplete
WRONG = copy.deepcopy(VALID)
WRONG["deals"][0]["actions"][1]["seat"] = 3  # an error: out of turn


def run(*args, stdin=None):
    return CliRunner().invoke(main, list(args), input=stdin)


def lines_of(records) -> bytes:
    return b"".join(orjson.dumps(r) + b"\n" if isinstance(r, dict) else r + b"\n" for r in records)


MIXED = [VALID, SHORT, WRONG, b"{oops"] * 20  # 80 records: five batches (of 16), checked in a pool


def with_one_and_two_processes(tmp_path, monkeypatch, command: list[str]):
    """MIXED written to a file, and `command` run on it with -j 1 and with -j 2 (checked in a pool)."""
    import referee.batch

    pools = []
    start_method = referee.batch._start_method
    monkeypatch.setattr(referee.batch, "_start_method", lambda: pools.append(1) or start_method())
    archive = tmp_path / "a.jsonl"
    archive.write_bytes(lines_of(MIXED))
    one = run(*command, "-j", "1", str(archive))
    two = run(*command, "-j", "2", str(archive))
    assert pools == [1]
    return archive, one, two


@pytest.mark.parametrize("form", [["--json"], [], ["-q", "--color"], ["--only-invalid", "--severity", "error"]])
def test_processes_give_the_same_reports_in_the_same_order(tmp_path, monkeypatch, form):
    archive, one, two = with_one_and_two_processes(tmp_path, monkeypatch, ["validate", *form])
    assert one.exit_code == two.exit_code == 2
    assert one.stdout == two.stdout and f"{archive}:80" in two.stdout
    assert one.stdout.count(f"{archive}:") >= 40


@pytest.mark.parametrize("form", [[], ["--json"]])
def test_processes_report_in_the_language_of_the_command(tmp_path, monkeypatch, form):
    """The pool's processes render the reports they check in the language the command speaks."""
    archive, one, two = with_one_and_two_processes(tmp_path, monkeypatch, ["--lang", "zh", "validate", *form])
    assert one.stdout == two.stdout
    last = next(line for line in two.stdout.splitlines() if f"{archive}:80" in line)  # checked from a span
    assert ("无法读取" if not form else "记录不是有效的 JSON") in last


@pytest.mark.parametrize("batches, pooled", [(1, False), (3, False), (4, True)])
def test_a_small_input_is_checked_in_one_process(monkeypatch, batches, pooled):
    """Issue 20: a pool's start-up is paid only for an input of POOL_AFTER (4) batches or more."""
    import referee.batch

    pools = []
    start_method = referee.batch._start_method
    monkeypatch.setattr(referee.batch, "_start_method", lambda: pools.append(1) or start_method())
    items = [(f"r{n}", orjson.dumps(VALID).decode()) for n in range(16 * batches)]
    assert len(list(referee.batch.check_items(iter(items), 2))) == 16 * batches
    assert pools == ([1] if pooled else [])


def test_gzipped_json_and_json_lines_are_read(tmp_path):
    (tmp_path / "a.jsonl.gz").write_bytes(gzip.compress(lines_of([VALID, VALID])))
    (tmp_path / "b.json.gz").write_bytes(gzip.compress(orjson.dumps(VALID, option=orjson.OPT_INDENT_2)))
    result = run("validate", "--json", str(tmp_path))
    assert [json.loads(line)["source"] for line in result.stdout.splitlines()] == [
        f"{tmp_path}/a.jsonl.gz:1",
        f"{tmp_path}/a.jsonl.gz:2",
        f"{tmp_path}/b.json.gz",
    ]
    assert result.exit_code == 0
    damaged = tmp_path / "c.jsonl.gz"
    damaged.write_bytes(gzip.compress(lines_of([VALID] * 3))[:-30])
    broken = run("validate", "--json", str(damaged))
    assert (
        broken.exit_code == 2 and json.loads(broken.stdout.splitlines()[-1])["findings"][0]["rule"] == "notation.file"
    )


def test_the_summary_counts_verdicts_and_rule_ids(tmp_path):
    archive = tmp_path / "a.jsonl"
    archive.write_bytes(lines_of(MIXED[:4]))
    summary = tmp_path / "summary.json"
    result = run("validate", str(archive), "--summary-json", str(summary))
    written = json.loads(summary.read_text())
    assert {k: written[k] for k in ("records", "valid", "invalid", "unreadable")} == {
        "records": 4,
        "valid": 2,
        "invalid": 1,
        "unreadable": 1,
    }
    assert written["rules"] == {
        "guandan.report.missing": 2,
        "notation.deal.incomplete": 1,
        "guandan.turn": 1,
        "notation.json": 1,
    }
    assert "guandan.turn" in result.output.split("Summary")[1]


@pytest.mark.parametrize(
    "options, shown",
    [
        (["--only-invalid"], [(":3", ["guandan.turn"]), (":4", ["notation.json"])]),
        (["--severity", "error"], [(":1", []), (":2", []), (":3", ["guandan.turn"]), (":4", ["notation.json"])]),
        (["--rule", "guandan"], [(":1", ["guandan.report.missing"] * 2), (":3", ["guandan.turn"])]),
        (
            ["--rule", "notation.deal.incomplete", "--rule", "notation.json"],
            [(":2", ["notation.deal.incomplete"]), (":4", ["notation.json"])],
        ),
    ],
)
def test_filters_change_what_is_shown_not_the_status(tmp_path, options, shown):
    archive = tmp_path / "a.jsonl"
    archive.write_bytes(lines_of(MIXED[:4]))
    result = run("validate", "--json", *options, str(archive))
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(r["source"][-2:], [f["rule"] for f in r["findings"]]) for r in reports] == shown
    assert result.exit_code == 2


def test_the_progress_bar_is_shown_on_a_terminal_only(monkeypatch):
    from referee.cli.progress import progress_bar as progress

    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    assert not progress().disable
    assert not progress().live.auto_refresh  # no thread of its own when -j forks
    monkeypatch.setattr("sys.stderr.isatty", lambda: False, raising=False)
    assert progress() is None


@pytest.mark.parametrize("terminal", [True, False])
def test_reports_on_the_terminal_are_printed_above_the_progress_bar(monkeypatch, terminal):
    """Reports written to a terminal go through the bar's display, which clears and redraws it
    around them; written to a file they go there unchanged."""
    from referee.cli.progress import progress_bar as progress

    monkeypatch.setattr("sys.stdout.isatty", lambda: terminal, raising=False)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    assert progress().live._redirect_stdout is terminal


def test_reports_above_the_progress_bar_are_not_broken_into_lines(tmp_path):
    """On a terminal (standard output and error both) the reports go through the bar's console, which
    must leave long lines whole, as they are without the bar: the terminal wraps them, not rich."""
    import os
    import pty
    import re
    import subprocess
    from pathlib import Path

    archive = tmp_path / "a.jsonl"
    archive.write_bytes(lines_of([VALID]))
    reader, terminal = pty.openpty()
    env = dict(os.environ, COLUMNS="50", PYTHONPATH=str(Path(__file__).parent.parent))
    env.pop("NO_COLOR", None)
    subprocess.run(
        [sys.executable, "-c", "from referee.cli.main import main; main()", "validate", str(archive)],
        stdin=subprocess.DEVNULL,
        stdout=terminal,
        stderr=terminal,
        env=env,
        timeout=60,
    )
    os.close(terminal)
    shown = b""
    while True:
        try:
            chunk = os.read(reader, 65536)
        except OSError:  # EIO: the terminal's other end is closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(reader)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", shown.decode()).replace("\r", "")
    assert "seat 0 reached 10 cards or fewer here and never reported its count\n" in text


def test_a_process_that_dies_is_a_clear_error_not_a_traceback(tmp_path, monkeypatch):
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    class DyingPool:
        def __init__(self, *args, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def submit(self, *args):
            future = Future()
            future.set_exception(BrokenProcessPool("killed"))
            return future

    monkeypatch.setattr("concurrent.futures.ProcessPoolExecutor", DyingPool)
    archive = tmp_path / "a.jsonl"
    archive.write_bytes(lines_of(MIXED))
    result = run("validate", "--json", "-j", "2", str(archive))
    assert result.exit_code == 2 and "stopped abruptly" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_standard_input_is_checked_as_it_is_read(monkeypatch):
    """The first reports come while most of a long input is still unread: reading is streamed."""
    from referee.batch import check_items, records_of

    lines = [orjson.dumps(VALID) + b"\n"] * 2000
    read = []

    class Stdin:
        close = staticmethod(lambda: None)  # as a forked process does

        class buffer:
            @staticmethod
            def readline(limit=-1):
                read.append(1)
                return lines[len(read) - 1] if len(read) <= len(lines) else b""

    monkeypatch.setattr("sys.stdin", Stdin)
    for jobs in (1, 2):
        read.clear()
        reports = check_items(records_of("-"), jobs)
        assert next(reports).valid and len(read) < 300
        assert sum(1 for _ in reports) == 1999


def _interrupt_handler(report):
    import signal

    return signal.getsignal(signal.SIGINT)


def test_the_checking_processes_leave_ctrl_c_to_the_command():
    import signal

    from referee.batch import check_items

    items = [(f"r{n}", orjson.dumps(VALID).decode()) for n in range(80)]  # enough batches for a pool
    parents = signal.getsignal(signal.SIGINT)  # SIG_IGN already when pytest runs as a background job (`&`)
    handlers = set(check_items(iter(items), 2, outcome=_interrupt_handler))
    assert handlers == {signal.SIG_IGN} and signal.getsignal(signal.SIGINT) is parents


@pytest.mark.parametrize(
    "cores, load, jobs", [(2, 0.0, 2), (2, 0.4, 2), (2, 1.0, 1), (2, 1.7, 1), (2, 6.0, 1), (8, 2.2, 6), (1, 0.0, 1)]
)
def test_the_default_process_count_is_the_free_cores(monkeypatch, cores, load, jobs):
    """Issue 20: on a busy machine the default is never more processes than free cores."""
    from referee.cli import validate as command

    monkeypatch.setattr(command.os, "sched_getaffinity", lambda _: set(range(cores)), raising=False)
    monkeypatch.setattr(command.os, "getloadavg", lambda: (load, load, load))
    assert command.default_jobs() == jobs


def test_without_a_load_average_the_default_is_every_core(monkeypatch):
    from referee.cli import validate as command

    monkeypatch.setattr(command.os, "sched_getaffinity", lambda _: {0, 1, 2}, raising=False)

    def unavailable():
        raise OSError("no load average")

    monkeypatch.setattr(command.os, "getloadavg", unavailable)
    assert command.default_jobs() == 3


@pytest.mark.parametrize("blank", [b"\n", b"  \r\n"])
def test_blank_lines_before_the_first_record_take_no_memory_of_their_own(tmp_path, blank):
    """A file that begins with many blank lines is read with memory flat: its head keeps one run of them, not an
    object a line (10 million blank lines took 1 GB)."""
    import tracemalloc

    from referee.batch import records_of

    path = tmp_path / "blanks.jsonl"
    line = json.dumps(guandan([quick_deal([0, 2])])).encode()
    path.write_bytes(blank * 200_000 + line + b"\n" + blank * 1000 + line + b"\n")
    tracemalloc.start()
    read = [source for source, _ in records_of(str(path))]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert read == [f"{path}:200001", f"{path}:201002"]
    assert peak < 5_000_000  # the run's bytes and a record: an object for each blank line took 20 MB
