"""Validation throughput per game on records the referee has never seen, as in a platform's archive.

Run: .venv/bin/python benchmarks/throughput.py [--game guandan|gandengyan|gouji] [--sizes 1,10,100]
[--deals N] [--repeat R] (or `make bench`). For each game and match size it generates distinct random
matches with their claims (no record and no hand repeated: every match has a seed of its own; Guandan:
official matches, which may end before the size when a team wins at A, played with full houses,
straights, tubes and plates so that a deal is as long as in real play, about 127 actions as the
competition platform's engines play; Gan Deng Yan: 2 to 6 seats and a
mix of presets and options; Gou Ji: every third match with a hand that may declare Shao Pai) and prints
three figures apart, in deals per second on one core:

- cold: `referee validate -j 1 --json FILE` as a user runs it, a new process each time (start-up,
  reading, checking, the JSON reports written to a file), beside a plain orjson parse of the same file
  in a process of its own, in the same run: the medians of R runs of each, taken in turn, in deals per
  CPU-second of the whole process (user + system time, which a busy machine inflates far less than
  wall time) and in µs of CPU an action, with the median of the runs' ratios of the two processes' CPU;
- first sight: a warm process (its caches filled by other matches of the game) checking matches it has
  never seen, in R parts: the median part, in wall time and in the process's CPU time (which other
  programs on a busy machine do not inflate);
- seen again: the same process checking the same parts again (what a corpus that repeats records
  would show; the caches of plays' readings then answer).

Last, per game, the cost per action (CPU time) of the match (of 100 actions or more) with the most expensive
actions, and of worst cases (Gou Ji hands holding all eight jokers, Guandan hands holding both wild
cards and long runs), against the average cost per action of the corpus.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool

import orjson

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

from referee.batch import check_one  # noqa: E402
from tests import gandengyan_gen, gouji_gen, guandan_gen  # noqa: E402

GDY_VARIANTS = [
    {},
    {"ace_multiplier": 2, "public_multipliers": True, "private_multipliers": True},
    {"decks": 2, "talon_limit_to_win": 5},
    {"triplet_is_bomb": False, "triplet_sequences": True},
    {"follow_equal_rank": True, "report_at": 3},
]
DEFAULT_SIZE = 3
LONG = 100  # actions: a match this long, whose cost per action says what its plays cost
# Seeds of the corpora, far apart so that no two corpora share a match.
MEASURED, WARM_UP, WORST = 0, 10**8, 2 * 10**8
COMMAND = [sys.executable, "-c", "import sys; from referee.cli.main import main; sys.argv[0] = 'referee'; main()"]
PARSE = [sys.executable, "-c", "import sys, orjson\nfor line in open(sys.argv[1], 'rb'): orjson.loads(line)"]


def guandan_match(seed: int, size: int = 12) -> dict:
    return guandan_gen.match_record(seed, max_deals=size, shapes=True)


def gandengyan_match(seed: int, size: int = DEFAULT_SIZE) -> dict:
    return gandengyan_gen.match_record(
        seed,
        seats=2 + seed % 5,
        deals=size,
        options=GDY_VARIANTS[seed % len(GDY_VARIANTS)],
        preset=("pagat", "wenshan", "catsatcards")[seed % 3],
    )


def gouji_match(seed: int, size: int = DEFAULT_SIZE) -> dict:
    return gouji_gen.match_record(seed, deals=size, arrange=gouji_gen.hoard_jokers if seed % 3 == 0 else None)


def guandan_wild_hands(seed: int, size: int = 1) -> dict:
    """Deals at level 2 in which seat 0 holds both wild cards (2H) and two runs of pairs."""
    hand = ["2H", "2H"] + [r + s for r in "345678" for s in "SD"] + [r + "C" for r in "9TJQK"]
    return guandan_gen.match_record(seed, max_deals=size, plan=[{"hands": [hand, [], [], []]}])


def gouji_joker_hands(seed: int, size: int = 1) -> dict:
    return gouji_gen.match_record(seed, deals=size, arrange=gouji_gen.hoard_jokers)


GAMES = {"guandan": guandan_match, "gandengyan": gandengyan_match, "gouji": gouji_match}
WORST_CASES = {
    "guandan": ("both wild cards and long runs in one hand", guandan_wild_hands),
    "gouji": ("one hand holding all eight jokers", gouji_joker_hands),
}


def _line(job) -> str:
    make, seed, size = job
    return orjson.dumps(make(seed, size)).decode()


def corpus(make, min_deals: int, size: int | None = None, first_seed: int = MEASURED) -> tuple[list[str], int]:
    """JSON Lines of distinct matches (seeds from `first_seed`) holding at least `min_deals` deals,
    generated on every core in batches."""
    lines, deals, seed = [], 0, first_seed
    size = size or DEFAULT_SIZE
    with Pool() as pool:
        while deals < min_deals:
            batch = max(2, (min_deals - deals) // size)
            for line in pool.map(_line, [(make, s, size) for s in range(seed, seed + batch)]):
                if deals < min_deals:
                    lines.append(line)
                    deals += line.count('"hands"')
            seed += batch
    return lines, deals


@contextlib.contextmanager
def one_core():
    """Timed sections run on one processor (and the commands they start), generation on all."""
    every = os.sched_getaffinity(0) if hasattr(os, "sched_setaffinity") else None
    if every:
        os.sched_setaffinity(0, {min(every)})
    try:
        yield
    finally:
        if every:
            os.sched_setaffinity(0, every)


def median_rate(deals: int, seconds: list[float]) -> str:
    return f"{deals / statistics.median(seconds):,.0f} deals/s"


def actions_of(lines: list[str]) -> int:
    return sum(len(deal.get("actions", ())) for line in lines for deal in orjson.loads(line)["deals"])


def process_times(argv: list[str], **run) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one process run to its end."""
    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    subprocess.run(argv, **run)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def cold(lines: list[str], deals: int, actions: int, repeat: int) -> str:
    """Whole processes in turn: the command, and a plain JSON parse of the same file."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    with tempfile.TemporaryDirectory() as folder:
        path, out = os.path.join(folder, "corpus.jsonl"), os.path.join(folder, "reports.jsonl")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        check, parse = [], []
        for _ in range(repeat):
            with open(out, "wb") as sink:
                check.append(
                    process_times(
                        COMMAND + ["validate", "-j", "1", "--json", path],
                        stdout=sink,
                        stderr=subprocess.DEVNULL,
                        env=env,
                        check=False,
                    )
                )
            parse.append(process_times(PARSE + [path], check=True))
    cpu, parse_cpu = statistics.median(c for _, c in check), statistics.median(c for _, c in parse)
    ratio = statistics.median(c / p for (_, c), (_, p) in zip(check, parse))
    return (
        f"{deals / cpu:,.0f} deals per CPU-second, {cpu / actions * 1e6:.2f} µs an action "
        f"({median_rate(deals, [w for w, _ in check])} wall); the plain parse process: "
        f"{deals / parse_cpu:,.0f} deals per CPU-second; the command takes {ratio:.1f}x its CPU"
    )


def timed_parts(parts: list[list[str]]) -> tuple[list[float], list[float], list[tuple[float, int, int]]]:
    """Seconds per part (wall and this process's CPU time), and (CPU seconds, deals, actions) per record:
    CPU time, which a busy machine does not inflate, for the costs of records weighed against each other."""
    wall, cpu, per_record = [], [], []
    for part in parts:
        start, start_cpu = time.perf_counter(), time.process_time()
        for line in part:
            began = time.process_time()
            report = check_one(line, "corpus")
            per_record.append((time.process_time() - began, line.count('"hands"'), line.count('"seat"')))
            assert report.valid, report.findings[:1]
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu, per_record


def in_process(warm: list[str], lines: list[str], deals: int, repeat: int):
    timed_parts([warm])
    parts = [lines[i::repeat] for i in range(repeat)]
    first, first_cpu, records = timed_parts(parts)
    again, again_cpu, seen = timed_parts(parts)
    part_deals = deals / repeat
    print(
        f"    first sight: {median_rate(part_deals, first)} (median of {repeat} parts; in CPU time "
        f"{median_rate(part_deals, first_cpu)})"
    )
    print(
        f"    seen again:  {median_rate(part_deals, again)} (the same parts, checked again; in CPU time "
        f"{median_rate(part_deals, again_cpu)})"
    )
    return [(min(a[0], b[0]), *a[1:]) for a, b in zip(records, seen)]  # the less disturbed of two timings


def per_action(records) -> float:
    return sum(s for s, _, _ in records) / max(1, sum(a for _, _, a in records))


def worst_cases(game: str, records, deals: int):
    average = per_action(records)
    long = [s / a for s, _, a in records if a >= LONG]  # a short match is mostly its fixed cost (a voided deal)
    slowest = max(long, default=average)
    print(
        f"  cost per action: average {average * 1e6:.1f} µs; the most expensive match of {LONG} actions or "
        f"more {slowest * 1e6:.1f} µs ({slowest / average:.1f}x; each match's lesser CPU time of its two checks)"
    )
    if game in WORST_CASES:
        what, make = WORST_CASES[game]
        lines, n = corpus(make, max(50, deals // 10), 1, WORST)
        with one_core():
            _, _, worst = timed_parts([lines])
        cost = per_action(worst)
        print(f"  worst case, {what}: {cost * 1e6:.1f} µs per action ({cost / average:.1f}x the average; {n} deals)")


def measure(game: str, sizes: list[int], min_deals: int, repeat: int):
    records = []
    for size in sizes:
        lines, deals = corpus(GAMES[game], min_deals, size, MEASURED + size * 10**6)
        warm, _ = corpus(GAMES[game], max(100, min_deals // 5), size, WARM_UP + size * 10**6)
        actions = actions_of(lines)
        print(
            f"{game}, matches of up to {size} deal(s): {len(lines)} matches, {deals} deals "
            f"({deals / len(lines):.1f} a match, {actions / deals:.1f} actions a deal), "
            f"{sum(map(len, lines)) / 1e6:.1f} MB"
        )
        with one_core():
            print(f"    cold process: {cold(lines, deals, actions, repeat)}")
            records += in_process(warm, lines, deals, repeat)
    worst_cases(game, records, min_deals)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--sizes", default="1,10,100", help="deals a match, comma-separated (default 1,10,100)")
    parser.add_argument("--deals", type=int, default=1500, help="deals in each corpus (default 1500)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print("command: python benchmarks/throughput.py " + " ".join(sys.argv[1:]))
    for game in args.game or sorted(GAMES, reverse=True):
        measure(game, sizes, args.deals, args.repeat)


if __name__ == "__main__":
    main()
