"""Validation throughput per game: deals per second on one core, beside the plain JSON parse.

Run: .venv/bin/python benchmarks/throughput.py [--game guandan|gandengyan|gouji] [--deals N] [--repeat R]
(or `make bench`). For each game it generates a corpus of complete random matches with
their claims (Guandan: official matches; Gan Deng Yan: 2 to 6 seats, a mix of presets and
options, three deals each; Gou Ji: three deals each, every third with a Shao Pai hand),
then times (a) orjson parsing every line, (b) the full check of every line (parse,
structure, replay, claims) and (c) the same without the JSON Schema structure check (the
replay alone), and prints the median of R runs.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from unittest import mock

import orjson

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from referee.batch import check_one  # noqa: E402
from tests import gandengyan_gen, gouji_gen, guandan_gen  # noqa: E402

GDY_VARIANTS = [{}, {"ace_multiplier": 2, "public_multipliers": True, "private_multipliers": True},
                {"decks": 2, "talon_limit_to_win": 5}, {"triplet_is_bomb": False, "triplet_sequences": True},
                {"follow_equal_rank": True, "report_at": 3}]


def guandan_match(seed: int) -> dict:
    return guandan_gen.match_record(seed)


def gandengyan_match(seed: int) -> dict:
    return gandengyan_gen.match_record(seed, seats=2 + seed % 5, deals=3, options=GDY_VARIANTS[seed % len(GDY_VARIANTS)],
                                       preset=("pagat", "wenshan", "catsatcards")[seed % 3])


def gouji_match(seed: int) -> dict:
    return gouji_gen.match_record(seed, deals=3, arrange=gouji_gen.hoard_jokers if seed % 3 == 0 else None)


GAMES = {"guandan": guandan_match, "gandengyan": gandengyan_match, "gouji": gouji_match}


def corpus(make, min_deals: int) -> tuple[list[str], int]:
    lines, deals, seed = [], 0, 0
    while deals < min_deals:
        record = make(seed)
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


def measure(game: str, min_deals: int, repeat: int):
    lines, deals = corpus(GAMES[game], min_deals)
    size = sum(len(line) + 1 for line in lines)

    def parse():
        for line in lines:
            orjson.loads(line)

    def validate():
        for number, line in enumerate(lines):
            report = check_one(line, f"corpus:{number}")
            assert report.valid, report.findings[:1]

    parse_s, check_s = timed(parse, repeat), timed(validate, repeat)
    with mock.patch("referee.replay.structure_findings", lambda record: []):
        replay_s = timed(validate, repeat)
    print(f"{game}: {len(lines)} matches, {deals} deals, {size / 1e6:.1f} MB of JSON Lines")
    print(f"  plain JSON parse (orjson): {parse_s:.3f} s = {deals / parse_s:,.0f} deals/s")
    print(f"  full validation:           {check_s:.3f} s = {deals / check_s:,.0f} deals/s "
          f"({check_s / parse_s:.0f}x the parse; median of {repeat} runs, one core)")
    print(f"  without the structure check: {replay_s:.3f} s = {deals / replay_s:,.0f} deals/s (the replay alone)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})     # one core
    print("command: python benchmarks/throughput.py " + " ".join(sys.argv[1:]))
    for game in args.game or sorted(GAMES, reverse=True):
        measure(game, args.deals, args.repeat)


if __name__ == "__main__":
    main()
