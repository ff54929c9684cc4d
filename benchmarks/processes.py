"""`referee validate -j N` scaling: deals per second with 1 process and with N, side by side.

Run: .venv/bin/python benchmarks/processes.py [--game guandan|gandengyan|gouji] [--deals N] [--jobs
N] [--repeat R] (part of `make bench`; about four minutes with the defaults, a quarter of it
generating the corpora). It writes the corpus of benchmarks/throughput.py (6,000 deals a game, so
that the command's start-up, paid once whatever the -j, weighs as little as beside an archive) to a
JSON Lines file and times `referee validate FILE` as a user runs it, a new process each time:
start-up, reading, the pool's start-up, checking and the text reports written to a file. Runs with
-j 1 and with -j N take turns, so that a noisy machine slows both alike, and with them N commands
with -j 1 run side by side, each on 1/N of the file: the most N processes get from the machine at
that time. The command without -j (its default process count: the free cores, one process for a small
input) takes its turn too. It prints the median of R runs of each, the ratios, the load average before
the runs, and whether -j 1 and -j N gave the same reports and exit status. Last, the same three on a
small file (--small deals, default 100), where a pool's start-up would weigh most.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from benchmarks.throughput import GAMES, corpus  # noqa: E402
from referee.cli.validate import default_jobs  # noqa: E402

# This tree's command, whichever `referee` is installed.
COMMAND = [sys.executable, "-c", "import sys; from referee.cli.main import main; sys.argv[0] = 'referee'; main()"]


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def validate(path: str, jobs: int | None, output: str) -> tuple[float, int]:
    """The wall time and exit status of one `referee validate -j JOBS PATH > OUTPUT` (no -j: None)."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    with open(output, "wb") as out:
        start = time.perf_counter()
        status = subprocess.run(
            COMMAND + ["validate", *(["-j", str(jobs)] if jobs else []), path],
            stdout=out,
            stderr=subprocess.DEVNULL,
            env=env,
        ).returncode
        return time.perf_counter() - start, status


def side_by_side(parts: list[str]) -> float:
    """The wall time of one `referee validate -j 1` per part, all started at once: what the machine
    gives that many independent processes right now, the ceiling of -j N."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        running = [
            subprocess.Popen(COMMAND + ["validate", "-j", "1", part], stdout=sink, stderr=sink, env=env)
            for part in parts
        ]
        for process in running:
            process.wait()
    return time.perf_counter() - start


def write(path: str, lines: list[str]) -> str:
    with open(path, "w") as handle:
        handle.writelines(line + "\n" for line in lines)
    return path


def measure(game: str, min_deals: int, jobs: int, repeat: int, folder: str, apart: bool = True):
    lines, deals = corpus(GAMES[game], min_deals)
    path = write(os.path.join(folder, f"{game}-{deals}.jsonl"), lines)
    parts = [write(os.path.join(folder, f"{game}-part{i}.jsonl"), lines[i::jobs]) for i in range(jobs)]
    runs = (1, jobs, None)  # None: the default process count
    outputs = {n: os.path.join(folder, f"{game}-j{n}.txt") for n in runs}
    print(
        f"{game}: {len(lines)} matches, {deals} deals, {os.path.getsize(path) / 1e6:.1f} MB "
        f"(load average {os.getloadavg()[0]:.1f}; the default would now take {default_jobs()} process(es))"
    )
    times, statuses, ceiling = {n: [] for n in runs}, {n: set() for n in runs}, []
    for _ in range(repeat):
        for n in runs:
            seconds, status = validate(path, n, outputs[n])
            times[n].append(seconds)
            statuses[n].add(status)
        if apart:
            ceiling.append(side_by_side(parts))
    one, many, default = (statistics.median(times[n]) for n in runs)
    same = len(set().union(*statuses.values())) == 1 and all(
        filecmp.cmp(outputs[1], outputs[n], shallow=False) for n in runs[1:]
    )
    print(
        f"  -j 1: {one:.2f} s = {deals / one:,.0f} deals/s   -j {jobs}: {many:.2f} s = {deals / many:,.0f} deals/s   "
        f"ratio {one / many:.2f}x   default: {default:.2f} s, ratio {one / default:.2f}x "
        f"(median of {repeat} runs each, in turn)"
    )
    if apart:
        print(
            f"  the machine's ceiling now: {jobs} commands with -j 1 side by side, each on 1/{jobs} of the file, "
            f"{statistics.median(ceiling):.2f} s, ratio {one / statistics.median(ceiling):.2f}x"
        )
    print(
        f"  reports and exit status of -j {jobs} and the default {'identical to' if same else 'DIFFERENT FROM'} -j 1's"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--deals", type=int, default=6000)
    parser.add_argument("--jobs", type=int, default=cores())
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--small", type=int, default=100, help="deals of the small file (default 100)")
    args = parser.parse_args()
    print("command: python benchmarks/processes.py " + " ".join(sys.argv[1:]))
    with tempfile.TemporaryDirectory(prefix="processes-") as folder:
        for game in args.game or ("guandan", "gandengyan", "gouji"):
            measure(game, args.deals, args.jobs, args.repeat, folder)
        print(f"a small file, {args.small} deals:")
        measure("guandan", args.small, args.jobs, args.repeat, folder, apart=False)


if __name__ == "__main__":
    main()
