"""The sample event of samples/event/ (made by `python -m tests.event_gen samples/event`): two rounds
of a small tournament, Guandan at tables 1 and 2, Gan Deng Yan at table 3 (round 2 recorded in two
parts), Gou Ji at table 4; every match stops after a fixed number of deals."""

from __future__ import annotations

import copy

from tests.gandengyan_gen import match_record as gdy_record
from tests.gouji_gen import match_record as gouji_record
from tests.guandan_gen import match_record as guandan_record

EVENT = "Desk Cup 2026"
GDY_PLAYERS = ["Kai", "Lin", "Mei", "Ning"]
GOUJI_PLAYERS = ["Oda", "Pia", "Qi", "Ray", "Sam", "Tao"]

# (round, table, a record maker, the players in seat order)
MATCHES = [
    (1, 1, lambda: guandan_record(3, max_deals=3), ["Ann", "Bo", "Cy", "Di"]),
    (1, 2, lambda: guandan_record(8, max_deals=3), ["Eve", "Fay", "Gus", "Hal"]),
    (1, 3, lambda: gdy_record(9, seats=4, deals=3), GDY_PLAYERS),
    (1, 4, lambda: gouji_record(1, deals=2), GOUJI_PLAYERS),
    (2, 1, lambda: guandan_record(5, max_deals=3), ["Ann", "Fay", "Cy", "Hal"]),
    (2, 2, lambda: guandan_record(4, max_deals=3), ["Eve", "Bo", "Gus", "Di"]),
    (2, 3, lambda: gdy_record(11, seats=4, deals=3), GDY_PLAYERS),
    (2, 4, lambda: gouji_record(3, deals=2), GOUJI_PLAYERS),
]


def in_parts(record: dict, at: int, chained: bool = True) -> tuple[dict, dict]:
    """A Gan Deng Yan match cut before deal `at` into two records; the second starts where the first
    stopped (chained: `start` with the totals and dealer) or, without `start`, from zero."""
    first, second = copy.deepcopy(record), copy.deepcopy(record)
    first["deals"], second["deals"] = record["deals"][:at], record["deals"][at:]
    del first["result"]
    if chained:
        totals = [sum(d["result"]["scores"][seat] for d in first["deals"]) for seat in range(len(record["players"]))]
        dealer = next(seat for seat, hand in enumerate(second["deals"][0]["hands"]) if len(hand) == 6)
        second["start"] = {"totals": totals, "dealer": dealer}
    else:
        second["result"] = {}
    return first, second


def records() -> dict[str, dict]:
    """File name -> record."""
    out = {}
    for round_, table, make, players in MATCHES:
        record = dict(make(), players=players)
        record["meta"] = {"event": EVENT, "round": str(round_), "table": str(table), "date": f"2026-05-0{round_}"}
        if (round_, table) == (2, 3):
            first, second = in_parts(record, 1)
            first["meta"]["date"] += "T14:00"
            second["meta"]["date"] += "T14:40"
            out[f"r{round_}-t{table}-part1.json"], out[f"r{round_}-t{table}-part2.json"] = first, second
        else:
            out[f"r{round_}-t{table}.json"] = record
    return out


SHEET = """event,round,table,game,players,winner,levels,totals,deals
Desk Cup 2026,1,1,guandan,Ann/Bo/Cy/Di,Ann/Cy,6/5,,3
Desk Cup 2026,1,2,guandan,Eve/Fay/Gus/Hal,draw,4/4,,3
Desk Cup 2026,1,3,gandengyan,Kai/Lin/Mei/Ning,Lin,,6/12/-6/-12,3
Desk Cup 2026,1,4,gouji,Oda/Pia/Qi/Ray/Sam/Tao,0,,6/-6,2
Desk Cup 2026,2,1,guandan,Ann/Fay/Cy/Hal,Fay/Hal,2/8,,3
Desk Cup 2026,2,2,guandan,Eve/Bo/Gus/Di,Eve/Gus,6/5,,3
Desk Cup 2026,2,3,gandengyan,Kai/Lin/Mei/Ning,Lin,,-12/24/-12/0,3
Desk Cup 2026,2,4,gouji,Oda/Pia/Qi/Ray/Sam/Tao,draw,,0/0,2
"""  # one row is wrong: round 2, table 1 was 2/7, not 2/8


if __name__ == "__main__":
    import sys
    from pathlib import Path

    from referee.canonical import canonical, dumps

    folder = Path(sys.argv[1])
    folder.mkdir(parents=True, exist_ok=True)
    for name, record in records().items():
        (folder / name).write_text(dumps(canonical(record)) + "\n")
    (folder / "sheet.csv").write_text(SHEET)
