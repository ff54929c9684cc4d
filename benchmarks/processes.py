"""`referee validate -j N` scaling: deals per second with 1 process and with N, side by side.

Run: .venv/bin/python benchmarks/processes.py [--game guandan|gandengyan] [--deals N] [--jobs N] [--repeat R]
(part of `make bench`). It checks the corpus of benchmarks/throughput.py through the same
function as `referee validate` (referee.batch.check_items), in this process (-j 1) and in a
pool of N processes (-j N, process start-up included), and prints the median of R runs and the
ratio. On a loaded machine the ratio says more than either figure.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from benchmarks.throughput import GAMES, corpus, timed  # noqa: E402
from referee.batch import check_items  # noqa: E402


def measure(game: str, min_deals: int, jobs: int, repeat: int):
    lines, deals = corpus(GAMES[game], min_deals)
    items = [(f"corpus:{n}", line) for n, line in enumerate(lines, 1)]

    def run(n):
        return lambda: sum(1 for report in check_items(iter(items), n) if report.valid)

    one, many = timed(run(1), repeat), timed(run(jobs), repeat)
    print(f"{game}: {len(lines)} matches, {deals} deals")
    print(f"  -j 1: {deals / one:,.0f} deals/s   -j {jobs}: {deals / many:,.0f} deals/s   "
          f"ratio {one / many:.2f}x (median of {repeat} runs)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                        else os.cpu_count() or 1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print("command: python benchmarks/processes.py " + " ".join(sys.argv[1:]))
    for game in args.game or sorted(GAMES, reverse=True):
        measure(game, args.deals, args.jobs, args.repeat)


if __name__ == "__main__":
    main()
