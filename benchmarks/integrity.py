"""`referee integrity` against `referee validate -j`: CPU, wall time and memory on the same archives.

Run: .venv/bin/python benchmarks/integrity.py [--deals N] [--scale M] [--jobs J]

1. For each game, an archive of N deals of generated matches (distinct, with every action: the archives
   `validate` checks; benchmarks/throughput.py's corpus), checked by `referee validate -j J --json` and by
   `referee integrity --json`: the CPU time of each command with its worker processes (user + system, from
   the operating system's accounting of finished child processes), the ratio, and the largest resident
   memory of any of their processes.
2. With --scale M: Guandan archives of M/10 and M one-deal records (fair shuffles, no actions: integrity reads
   deals, so their actions only cost the parse), checked by `referee integrity` alone: deals per second and
   memory at both sizes, and a line for 10 million deals extrapolated from them (linear in the deals: CPU
   per deal and memory per deal above the smaller run's), said as such.
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import subprocess
import sys
import tempfile

import orjson

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from benchmarks.throughput import GAMES, corpus  # noqa: E402
from tests.integrity_gen import fair_deal, record  # noqa: E402

REFEREE = [sys.executable, "-c", "import sys; from referee.cli.main import main; sys.argv[0] = 'referee'; main()"]


# the command run from a process of its own, which says what its processes took: the operating system's
# accounting of finished child processes (CPU, the largest resident memory of any), of this command alone
MEASURED = [
    sys.executable,
    "-c",
    "import resource, subprocess, sys, time; start = time.perf_counter(); "
    "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
    "used = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print(used.ru_utime + used.ru_stime, time.perf_counter() - start, used.ru_maxrss // 1024)",
]


def run(args: list[str]) -> tuple[float, float, int]:
    """(CPU seconds of the command and its processes, wall seconds, largest resident memory in MB)."""
    shown = subprocess.run(MEASURED + REFEREE + args, capture_output=True, text=True, check=True, cwd=ROOT).stdout
    cpu, wall, memory = shown.split()
    return float(cpu), float(wall), int(memory)


def compare(deals: int, jobs: int) -> None:
    print(
        f"{'game':<11} {'deals':>6} {'validate -j' + str(jobs) + ' CPU':>18} {'integrity CPU':>14} {'ratio':>6} "
        f"{'integrity MB':>13}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for game, make in GAMES.items():
            lines, n = corpus(make, deals)
            path = os.path.join(folder, f"{game}.jsonl")
            with open(path, "w") as out:
                out.write("\n".join(lines) + "\n")
            validate = run(["validate", "-j", str(jobs), "--json", path])
            integrity = run(["integrity", "--json", path])
            print(
                f"{game:<11} {n:>6} {validate[0]:>16.2f} s {integrity[0]:>12.2f} s {integrity[0] / validate[0]:>6.2f} "
                f"{integrity[2]:>13}"
            )


def fair_archive(path: str, deals: int) -> None:
    rng = random.Random(deals)
    names = [f"N{k}" for k in range(200)]
    with gzip.open(path, "wb", compresslevel=1) as out:
        for _ in range(deals):
            out.write(orjson.dumps(record("guandan", [fair_deal(rng, "guandan")], rng.sample(names, 4))) + b"\n")


def scale(deals: int) -> None:
    measured = []
    with tempfile.TemporaryDirectory() as folder:
        for n in (deals // 10, deals):
            path = os.path.join(folder, f"fair-{n}.jsonl.gz")
            fair_archive(path, n)
            cpu, wall, memory = run(["integrity", "--json", path])
            measured.append((n, cpu, memory))
            print(
                f"integrity, {n:,} Guandan deals: CPU {cpu:.1f} s ({n / cpu:,.0f} deals/s), wall {wall:.1f} s, "
                f"memory {memory} MB"
            )
    (small, cpu_small, mem_small), (large, cpu_large, mem_large) = measured
    per_deal_cpu = (cpu_large - cpu_small) / (large - small)
    per_deal_mem = (mem_large - mem_small) / (large - small)
    target = 10_000_000
    print(
        f"integrity, 10,000,000 Guandan deals (EXTRAPOLATED from the two runs above, not measured): "
        f"CPU {cpu_large + per_deal_cpu * (target - large):,.0f} s, "
        f"memory {mem_large + per_deal_mem * (target - large):,.0f} MB "
        f"({per_deal_mem * 1024**2:.0f} bytes a deal past the first {small:,})"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals in each game's archive (default 2000)")
    parser.add_argument("--jobs", type=int, default=2, help="validate's processes (default 2)")
    parser.add_argument("--scale", type=int, default=0, help="also the scaling run: M deals (e.g. 1000000)")
    args = parser.parse_args()
    compare(args.deals, args.jobs)
    if args.scale:
        scale(args.scale)


if __name__ == "__main__":
    main()
