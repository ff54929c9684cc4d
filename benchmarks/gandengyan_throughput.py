"""Gan Deng Yan validation throughput: deals per second on one core, beside the plain JSON parse.

Run: .venv/bin/python benchmarks/gandengyan_throughput.py [--deals N] [--repeat R]
It generates a corpus of complete random matches (JSON Lines, with claims): 2 to 6
seats, a mix of presets and options, three deals each. Then it times (a) orjson parsing
every line and (b) the full check of every line (parse, structure, replay, claims), and
prints the median of R runs.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

import orjson

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from referee.batch import check_one  # noqa: E402
from tests.gandengyan_gen import match_record  # noqa: E402


VARIANTS = [{}, {"ace_multiplier": 2, "public_multipliers": True, "private_multipliers": True},
            {"decks": 2, "talon_limit_to_win": 5}, {"triplet_is_bomb": False, "triplet_sequences": True},
            {"follow_equal_rank": True, "report_at": 3}]


def corpus(min_deals: int) -> tuple[list[str], int]:
    lines, deals, seed = [], 0, 0
    while deals < min_deals:
        record = match_record(seed, seats=2 + seed % 5, deals=3, options=VARIANTS[seed % len(VARIANTS)],
                              preset=("pagat", "wenshan", "catsatcards")[seed % 3])
        lines.append(orjson.dumps(record).decode())
        deals += len(record["deals"])
        seed += 1
    return lines, deals


def timed(run, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})     # one core
    lines, deals = corpus(args.deals)
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
    size = os.path.getsize(handle.name)
    os.unlink(handle.name)

    def parse():
        for line in lines:
            orjson.loads(line)

    def validate():
        for number, line in enumerate(lines):
            report = check_one(line, f"corpus:{number}")
            assert report.valid, report.findings[:1]

    parse_s, check_s = timed(parse, args.repeat), timed(validate, args.repeat)
    print(f"command: python benchmarks/gandengyan_throughput.py --deals {args.deals} --repeat {args.repeat}")
    print(f"corpus: {len(lines)} matches, {deals} deals, {size / 1e6:.1f} MB of JSON Lines")
    print(f"plain JSON parse (orjson): {parse_s:.3f} s  = {deals / parse_s:,.0f} deals/s")
    print(f"full validation:           {check_s:.3f} s  = {deals / check_s:,.0f} deals/s "
          f"({check_s / parse_s:.0f}x the parse; median of {args.repeat} runs, one core)")


if __name__ == "__main__":
    main()
