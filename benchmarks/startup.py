"""Start-up of the `referee` command: wall time of `referee --version`, `referee validate --help` and
`referee validate -j 1` of one record into a file (the fixed cost of every validate).

Run: .venv/bin/python benchmarks/startup.py [--repeat R] (part of `make bench`). Each command
is started R times in turn with a bare `python -c pass`, the interpreter's own start-up, and
the median wall time of each is printed with the part the referee adds to the interpreter's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

REFEREE = os.path.join(os.path.dirname(sys.executable), "referee")
ONE_RECORD = os.path.join(os.path.dirname(__file__), "..", "samples", "guandan", "match-won-at-a.json")
COMMANDS = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "referee --version": [REFEREE, "--version"],
    "referee validate --help": [REFEREE, "validate", "--help"],
    "referee validate -j 1 (one record)": [REFEREE, "validate", "-j", "1", ONE_RECORD],
}


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    times = {name: [] for name in COMMANDS}
    for command in COMMANDS.values():  # warm-up: the files in the page cache
        wall(command)
    for _ in range(args.repeat):
        for name, command in COMMANDS.items():  # in turn, so a change in the machine's load falls on each
            times[name].append(wall(command))
    print("command: python benchmarks/startup.py " + " ".join(sys.argv[1:]))
    bare = statistics.median(times["python -c pass"])
    for name, runs in times.items():
        median = statistics.median(runs)
        added = "" if name.startswith("python") else f"  (the interpreter's start-up + {(median - bare) * 1000:.0f} ms)"
        print(f"{name}: median {median * 1000:.0f} ms wall of {args.repeat} runs{added}")


if __name__ == "__main__":
    main()
