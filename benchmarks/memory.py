"""`referee validate` on big archives: peak memory beside the archive's size, for 10k and 100k deals.

Run: .venv/bin/python benchmarks/memory.py [--game gandengyan|guandan|gouji] [--sizes 10000 100000]
[--jobs N] (part of `make bench`; three to four minutes on 2 cores with the defaults, nearly all of
it checking the 100k deals four times). It repeats the corpus lines of benchmarks/throughput.py
(1,000 deals of Gan Deng Yan by default, the smallest and fastest) cyclically into a JSON Lines
archive of each size, also gzipped, then runs `referee validate -q` as a child process on the
.jsonl with -j 1 and -j N, on the .jsonl.gz and on standard input (piped from `cat`) with -j N, and
prints each run's peak resident memory (of the biggest process: the command or one of its
workers) beside the archive's size. Reading is streamed, so the peak does not grow with the size.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from benchmarks.throughput import GAMES, corpus  # noqa: E402

# This tree's command, whichever `referee` is installed.
COMMAND = [sys.executable, "-c", "import sys; from referee.cli.main import main; sys.argv[0] = 'referee'; main()"]


def write_archives(lines: list[str], deals_per_line: list[int], deals: int, folder: str) -> tuple[str, str, int]:
    """The corpus lines repeated until `deals` deals, as .jsonl and .jsonl.gz; and the deals written."""
    plain, packed = os.path.join(folder, f"{deals}.jsonl"), os.path.join(folder, f"{deals}.jsonl.gz")
    written = 0
    with open(plain, "w") as out, gzip.open(packed, "wt", compresslevel=1) as out_gz:
        for line, count in itertools.cycle(zip(lines, deals_per_line)):
            if written >= deals:
                break
            out.write(line + "\n")
            out_gz.write(line + "\n")
            written += count
    return plain, packed, written


def run(args: list[str], source: str | None, folder: str) -> tuple[float, float, int]:
    """Peak resident memory (MB) of the biggest process of one `referee validate -q ARGS` (with
    `source` piped to its standard input), its wall time, and the records its summary counted."""
    summary = os.path.join(folder, "summary.json")
    feeder = subprocess.Popen(["cat", source], stdout=subprocess.PIPE) if source else None
    start = time.perf_counter()
    child = subprocess.Popen(
        COMMAND + ["validate", "-q", "--summary-json", summary] + args,
        stdin=feeder.stdout if feeder else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        env=dict(os.environ, PYTHONPATH=ROOT),
    )
    if feeder:
        feeder.stdout.close()  # the child holds the pipe now
    _, status, usage = os.wait4(child.pid, 0)  # the child's own usage, and that of the workers it waited for
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if feeder:
        feeder.wait()
    if child.returncode:
        sys.exit(f"referee validate {' '.join(args)} exited {child.returncode}")
    with open(summary) as handle:
        records = json.load(handle)["records"]
    return usage.ru_maxrss / 1024, seconds, records


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="gandengyan")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000], metavar="DEALS")
    parser.add_argument("--jobs", type=int, default=2, help="processes of the -j N runs (default 2)")
    args = parser.parse_args()
    print("command: python benchmarks/memory.py " + " ".join(sys.argv[1:]))
    lines, _ = corpus(GAMES[args.game], 1000)
    deals_per_line = [len(json.loads(line)["deals"]) for line in lines]
    print(f"{args.game}: {len(lines)} distinct matches repeated; peak resident memory of `referee validate -q`")
    with tempfile.TemporaryDirectory(prefix="memory-") as folder:
        for size in args.sizes:
            plain, packed, deals = write_archives(lines, deals_per_line, size, folder)
            for label, path, extra, source in (
                (".jsonl -j 1", plain, ["-j", "1"], None),
                (f".jsonl -j {args.jobs}", plain, ["-j", str(args.jobs)], None),
                (f".jsonl.gz -j {args.jobs}", packed, ["-j", str(args.jobs)], None),
                (f"stdin -j {args.jobs}", plain, ["-j", str(args.jobs)], plain),
            ):
                peak, seconds, records = run(extra + ["-" if source else path], source, folder)
                print(
                    f"  {deals:>7,} deals ({records:,} records, {os.path.getsize(path) / 1e6:6.1f} MB "
                    f"{label:<16}): peak {peak:5.1f} MB  ({seconds:5.1f} s, {deals / seconds:,.0f} deals/s)"
                )
            os.remove(plain)
            os.remove(packed)


if __name__ == "__main__":
    main()
