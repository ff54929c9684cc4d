"""Tournament standings: totals per player or team over the valid records of an event.

Each game reads its own keys of the report; a record whose report lacks them (its game's
module is missing or older) is listed as not counted, with the reason. Totals count what
was won within each record: a record that starts mid-match (`start`) adds only the
levels or points gained after its start.
"""
from __future__ import annotations

from referee.cards import RANKS


class NotCounted(Exception):
    pass


def _teams(players: list[str], count: int) -> list[list[str]]:
    """Seats k, k + count, ... form team k (notation section 3)."""
    return [players[t::count] for t in range(count)]


def _guandan(record: dict, report: dict):
    match = report.get("match") or {}
    if not match.get("levels"):
        raise NotCounted("the final levels could not be computed")
    start = record.get("start", {}).get("levels", ["2", "2"])
    for team, names in enumerate(_teams(record["players"], 2)):
        gained = RANKS.index(match["levels"][team]) - RANKS.index(start[team])
        yield names, {"levels": gained, "match_wins": int(match.get("winner") == team)}


def _points(teams: int | None):
    """Cumulative points in report["match"]["totals"], per seat (teams None) or per team."""
    def tally(record: dict, report: dict):
        totals = (report.get("match") or {}).get("totals")
        if totals is None:
            raise NotCounted(f"the report of this {record['game']} record has no match totals")
        start = record.get("start", {}).get("totals") or [0] * len(totals)
        entrants = [[name] for name in record["players"]] if teams is None else _teams(record["players"], teams)
        for names, total, before in zip(entrants, totals, start):
            yield names, {"points": total - before}
    return tally


TALLIES = {"guandan": _guandan, "gouji": _points(2), "gandengyan": _points(None)}


def _reason(game: str, report: dict) -> str | None:
    if game not in TALLIES:
        return f"no standings are kept for {game}"
    errors = [f for f in report["findings"] if f["severity"] == "error"]
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
        return f"invalid record: {first['rule']}: {first['message']}{more}"
    return None


def standings(event: str, entries) -> dict:
    """Standings of an event from its (id, record, report) entries."""
    rows, skipped = {}, []
    for record_id, record, report in entries:
        game = record["game"]
        reason = _reason(game, report)
        try:
            counted = [] if reason else list(TALLIES[game](record, report))
        except NotCounted as why:
            reason = str(why)
        if reason:
            skipped.append({"id": record_id, "game": game, "reason": reason})
            continue
        for names, amounts in counted:
            row = rows.setdefault((game, tuple(sorted(names))), {
                "game": game, "entrant": " & ".join(sorted(names)), "players": sorted(names), "records": 0})
            row["records"] += 1
            for key, value in amounts.items():
                row[key] = row.get(key, 0) + value
    ordered = sorted(rows.values(), key=lambda r: (r["game"], -r.get("match_wins", 0), -r.get("levels", 0),
                                                     -r.get("points", 0), r["entrant"]))
    return {"event": event, "records": len(entries), "counted": len(entries) - len(skipped), "standings": ordered,
            "not_counted": skipped}
