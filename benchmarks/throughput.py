"""Validation throughput per game: deals per second on one core, beside the plain JSON parse.

Run: .venv/bin/python benchmarks/throughput.py [--game guandan|gandengyan|gouji] [--deals N] [--repeat R]
[--baseline GIT_REF] (or `make bench`). For each game it generates a corpus of complete random
matches with their claims (Guandan: official matches; Gan Deng Yan: 2 to 6 seats, a mix of
presets and options, three deals each; Gou Ji: three deals each, every third with a Shao Pai
hand), then times (a) orjson parsing every line and (b) the full check of every line (parse,
structure, replay, claims), and prints the median of R runs. With --baseline, the referee of
that commit checks the same corpus in a child process on the same core, run for run in turn
with this one, and the ratio of the medians is printed (Guandan and Gan Deng Yan: the baseline
predates Gou Ji).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import orjson

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("THROUGHPUT_CODE", os.path.join(HERE, "..")))

from referee.batch import check_one  # noqa: E402
from tests import gandengyan_gen, guandan_gen  # noqa: E402

GDY_VARIANTS = [{}, {"ace_multiplier": 2, "public_multipliers": True, "private_multipliers": True},
                {"decks": 2, "talon_limit_to_win": 5}, {"triplet_is_bomb": False, "triplet_sequences": True},
                {"follow_equal_rank": True, "report_at": 3}]


def guandan_match(seed: int) -> dict:
    return guandan_gen.match_record(seed)


def gandengyan_match(seed: int) -> dict:
    return gandengyan_gen.match_record(seed, seats=2 + seed % 5, deals=3, options=GDY_VARIANTS[seed % len(GDY_VARIANTS)],
                                       preset=("pagat", "wenshan", "catsatcards")[seed % 3])


def gouji_match(seed: int) -> dict:
    from tests import gouji_gen      # here: the baseline's tree predates Gou Ji
    return gouji_gen.match_record(seed, deals=3, arrange=gouji_gen.hoard_jokers if seed % 3 == 0 else None)


GAMES = {"guandan": guandan_match, "gandengyan": gandengyan_match, "gouji": gouji_match}
BASELINE_GAMES = ("guandan", "gandengyan")


def corpus(make, min_deals: int) -> tuple[list[str], int]:
    lines, deals, seed = [], 0, 0
    while deals < min_deals:
        record = make(seed)
        lines.append(orjson.dumps(record).decode())
        deals += len(record["deals"])
        seed += 1
    return lines, deals


def once(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def validator(lines):
    def validate():
        for number, line in enumerate(lines):
            report = check_one(line, f"corpus:{number}")
            assert report.valid, report.findings[:1]
    return validate


class Baseline:
    """The referee of another commit, in a child process that times one full check per request."""

    def __init__(self, ref: str, game: str, min_deals: int):
        archive = subprocess.run(["git", "-C", os.path.join(HERE, ".."), "archive", ref, "referee", "tests"],
                                 capture_output=True, check=True).stdout
        self.root = tempfile.mkdtemp(prefix="throughput-baseline-")
        subprocess.run(["tar", "-x", "-C", self.root], input=archive, check=True)
        env = dict(os.environ, THROUGHPUT_CODE=self.root)
        self.child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", game,
                                       "--deals", str(min_deals)], env=env, text=True,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.deals = int(self.child.stdout.readline())

    def time_one(self) -> float:
        self.child.stdin.write("run\n")
        self.child.stdin.flush()
        return float(self.child.stdout.readline())

    def close(self):
        self.child.stdin.close()
        self.child.wait()
        shutil.rmtree(self.root, ignore_errors=True)


def child(game: str, min_deals: int):
    lines, deals = corpus(GAMES[game], min_deals)
    validate = validator(lines)
    print(deals, flush=True)
    for _ in sys.stdin:
        print(once(validate), flush=True)


def measure(game: str, min_deals: int, repeat: int, baseline_ref: str | None):
    lines, deals = corpus(GAMES[game], min_deals)
    size = sum(len(line) + 1 for line in lines)

    def parse():
        for line in lines:
            orjson.loads(line)

    validate = validator(lines)
    baseline = None
    if baseline_ref and game in BASELINE_GAMES:
        try:
            baseline = Baseline(baseline_ref, game, min_deals)
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"(no baseline: cannot take {baseline_ref} from git: {exc})")
    parse_s, check_s, base_s = [], [], []
    for _ in range(repeat):          # in turn, so that a noisy machine slows all alike
        parse_s.append(once(parse))
        check_s.append(once(validate))
        if baseline:
            base_s.append(baseline.time_one())
    parse_m, check_m = statistics.median(parse_s), statistics.median(check_s)
    print(f"{game}: {len(lines)} matches, {deals} deals, {size / 1e6:.1f} MB of JSON Lines")
    print(f"  plain JSON parse (orjson): {parse_m:.3f} s = {deals / parse_m:,.0f} deals/s")
    print(f"  full validation:           {check_m:.3f} s = {deals / check_m:,.0f} deals/s "
          f"({check_m / parse_m:.0f}x the parse; median of {repeat} runs, one core)")
    if baseline:
        baseline.close()
        base_m = statistics.median(base_s)
        print(f"  baseline {baseline_ref}:    {base_m:.3f} s = {baseline.deals / base_m:,.0f} deals/s "
              f"(same corpus, runs in turn); this tree is {base_m / check_m:.2f}x as fast")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", metavar="GIT_REF", help="also time the referee of this commit, in turn")
    parser.add_argument("--child", choices=sorted(GAMES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.deals)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})     # one core, the baseline's too
    print("command: python benchmarks/throughput.py " + " ".join(sys.argv[1:]))
    for game in args.game or sorted(GAMES, reverse=True):
        measure(game, args.deals, args.repeat, args.baseline)


if __name__ == "__main__":
    main()
