"""The tournament desk's own work at scale: `results check` and `standings` on 10,000 and 100,000
sheet rows and records, and the sheet reader on a long line.

Run: .venv/bin/python benchmarks/desk.py [--sizes 10000 100000] (part of `make bench`; under a minute on the shared 2-core
machine). The records are made as the store gives them to the desk (each record's report computed
already: checking records is benchmarks/throughput.py's part): N matches of an event, half Guandan
(4 players, levels), half Gan Deng Yan (2 players, totals), every entrant its own, so the standings
rank 2N entrants. The sheet has one row per match, every cell filled, in CSV. Printed per size, in
CPU seconds of this process: reading the sheet and checking every row (`results check`), the
standings, and the sheet's peak memory (tracemalloc) beside its size; the time per row or match
staying flat from 10k to 100k is what linear means here. Last, the separator guess on one line of
90 KB, which csv.Sniffer took 37 CPU-s on (issue 31).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tracemalloc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from referee.results import Played, check_sheet, summary
from referee.sheet import read_sheet
from referee.standings import standings

LEVELS = "23456789TJQKA"


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def match(n: int) -> tuple[Played, str]:
    """Match n as the desk reads it, and its sheet row (event,round,table,game,players,winner,levels,totals,deals)."""
    meta = {"event": "Bench Open", "round": str(n // 50 + 1), "table": str(n % 50 + 1)}
    if n % 2:
        players = [f"g{n}-{seat}" for seat in range(4)]
        levels = [LEVELS[n % 13], LEVELS[(n // 13) % 13]]
        record = {"game": "guandan", "players": players, "deals": 3, "meta": meta}
        report = {"findings": [], "match": {"levels": levels, "winner": None}}
        row = f"Bench Open,{meta['round']},{meta['table']},guandan,{'/'.join(players)},,{'/'.join(levels)},,3"
    else:
        players = [f"d{n}-a", f"d{n}-b"]
        totals = [n % 7, -(n % 7)]
        record = {"game": "gandengyan", "players": players, "deals": 2, "meta": meta}
        report = {"findings": [], "match": {"totals": totals}}
        row = f"Bench Open,{meta['round']},{meta['table']},gandengyan,{'/'.join(players)},,,{totals[0]}/{totals[1]},2"
    return Played(f"r{n}", record, report), row


def measure(size: int) -> None:
    made = [match(n) for n in range(size)]
    records = [played for played, _ in made]
    sheet = (
        "event,round,table,game,players,winner,levels,totals,deals\n" + "\n".join(row for _, row in made) + "\n"
    ).encode()
    began = cpu()
    counts = summary(check_sheet(read_sheet(sheet), records))
    checked = cpu() - began
    assert counts["rows"] == size and counts["agrees"] == size, counts
    began = cpu()
    table = standings(records, "Bench Open")
    ranked = cpu() - began
    tracemalloc.start()
    for _ in read_sheet(sheet).rows:
        pass
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(
        f"{size:>7,} rows and records: results check {checked:6.2f} CPU-s ({checked / size * 1e6:5.1f} µs a row); "
        f"standings of {len(table['standings']):,} entrants {ranked:6.2f} CPU-s ({ranked / size * 1e6:5.1f} µs a "
        f"match); sheet of {len(sheet) / 2**20:.1f} MiB read in {peak / 2**20:.2f} MiB at most"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    for size in parser.parse_args().sizes:
        measure(size)
    began = cpu()
    read_sheet(b"round,table," + b" 'a" * 30_000)
    print(f"separator of a 90 KB line: {cpu() - began:.3f} CPU-s")


if __name__ == "__main__":
    main()
