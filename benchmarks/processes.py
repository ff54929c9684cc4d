"""`referee validate -j N` scaling: deals per second with 1 process and with N, side by side.

Run: .venv/bin/python benchmarks/processes.py [--game guandan|gandengyan|gouji] [--deals N] [--jobs
N] [--repeat R] (part of `make bench`; about four minutes with the defaults, a quarter of it
generating the corpora). It writes the corpus of benchmarks/throughput.py (6,000 deals a game, so
that the command's start-up, paid once whatever the -j, weighs as little as beside an archive) to a
JSON Lines file and times `referee validate FILE` as a user runs it, a new process each time:
start-up, reading, the pool's start-up, checking and the text reports written to a file. Runs with
-j 1 and with -j N take turns, so that a noisy machine slows both alike, and with them N commands
with -j 1 run side by side, each on 1/N of the file: the most N processes get from the machine at
that time. It prints the median of R runs of each, the ratios, the load average before the runs,
and whether -j 1 and -j N gave the same reports and exit status.
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

# This tree's command, whichever `referee` is installed.
COMMAND = [sys.executable, "-c", "import sys; from cli.main import main; sys.argv[0] = 'referee'; main()"]


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def validate(path: str, jobs: int, output: str) -> tuple[float, int]:
    """The wall time and exit status of one `referee validate -j JOBS PATH > OUTPUT`."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    with open(output, "wb") as out:
        start = time.perf_counter()
        status = subprocess.run(COMMAND + ["validate", "-j", str(jobs), path], stdout=out,
                                stderr=subprocess.DEVNULL, env=env).returncode
        return time.perf_counter() - start, status


def side_by_side(parts: list[str]) -> float:
    """The wall time of one `referee validate -j 1` per part, all started at once: what the machine
    gives that many independent processes right now, the ceiling of -j N."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        running = [subprocess.Popen(COMMAND + ["validate", "-j", "1", part], stdout=sink, stderr=sink, env=env)
                   for part in parts]
        for process in running:
            process.wait()
    return time.perf_counter() - start


def write(path: str, lines: list[str]) -> str:
    with open(path, "w") as handle:
        handle.writelines(line + "\n" for line in lines)
    return path


def measure(game: str, min_deals: int, jobs: int, repeat: int, folder: str):
    lines, deals = corpus(GAMES[game], min_deals)
    path = write(os.path.join(folder, f"{game}.jsonl"), lines)
    parts = [write(os.path.join(folder, f"{game}-part{i}.jsonl"), lines[i::jobs]) for i in range(jobs)]
    outputs = {n: os.path.join(folder, f"{game}-j{n}.txt") for n in (1, jobs)}
    print(f"{game}: {len(lines)} matches, {deals} deals, {os.path.getsize(path) / 1e6:.1f} MB "
          f"(load average {os.getloadavg()[0]:.1f})")
    times, statuses, ceiling = {1: [], jobs: []}, {1: set(), jobs: set()}, []
    for _ in range(repeat):
        for n in (1, jobs):
            seconds, status = validate(path, n, outputs[n])
            times[n].append(seconds)
            statuses[n].add(status)
        ceiling.append(side_by_side(parts))
    one, many, apart = (statistics.median(t) for t in (times[1], times[jobs], ceiling))
    same = statuses[1] == statuses[jobs] and len(statuses[1]) == 1 and filecmp.cmp(*outputs.values(), shallow=False)
    print(f"  -j 1: {one:.2f} s = {deals / one:,.0f} deals/s   -j {jobs}: {many:.2f} s = {deals / many:,.0f} deals/s   "
          f"ratio {one / many:.2f}x (median of {repeat} runs each, in turn)")
    print(f"  the machine's ceiling now: {jobs} commands with -j 1 side by side, each on 1/{jobs} of the file, "
          f"{apart:.2f} s, ratio {one / apart:.2f}x")
    print(f"  reports and exit status of -j {jobs} {'identical to' if same else 'DIFFERENT FROM'} -j 1's")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--deals", type=int, default=6000)
    parser.add_argument("--jobs", type=int, default=cores())
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print("command: python benchmarks/processes.py " + " ".join(sys.argv[1:]))
    with tempfile.TemporaryDirectory(prefix="processes-") as folder:
        for game in args.game or ("guandan", "gandengyan"):
            measure(game, args.deals, args.jobs, args.repeat, folder)


if __name__ == "__main__":
    main()
