"""Tournament standings (docs/formats/results-sheet.md): per entrant (team or player) of each game,
over an event's matches, the matches played, won, drawn and lost, match points, and the tie-breaks
in order: margin (Guandan level difference; Gan Deng Yan and Gou Ji points), the results between
the tied entrants, then name. A match the referee finds invalid is listed apart with its first
error and counted only when the desk says so."""
from __future__ import annotations

from .messages import Listing, Msg, msg, word
from .results import (Match, Played, entrants, finding_text, first_error, loose_key, matches_of, not_one_match, result,
                      scores)

DEFAULT_POINTS = (2, 1, 0)


class StandingsError(Exception):
    """The records do not make one event's standings."""


def event_entries(entries, event: str | None) -> tuple[str | None, list[Played]]:
    """The event and its records among (source, record, report) entries or Played records: those of
    `event`, or, when it is None, all of them if they belong to one event (else StandingsError)."""
    records = [item if isinstance(item, Played) else Played(*item) for item in entries]
    events = {loose_key((p.record.get("meta") or {}).get("event") or ""): (p.record.get("meta") or {}).get("event")
              for p in records}
    if event is None:
        if len(events) > 1:
            names = [f'"{name}"' for name in events.values() if name]
            raise StandingsError(msg("the records belong to {n} events ({names}): choose one with --event",
                                     n=len(events), names=Listing(names) if names else word("none")))
        return next(iter(events.values()), None), records
    return event, [p for p in records if loose_key((p.record.get("meta") or {}).get("event") or "") == loose_key(event)]


def standings(entries, event: str | None = None, points=DEFAULT_POINTS, count_invalid: bool = False) -> dict:
    """The standings of an event from its records ((source, record, report) entries, or Played)."""
    event, records = event_entries(entries, event)
    matches = matches_of(records)
    rows: dict[tuple, dict] = {}
    meetings: list[dict] = []       # per counted match: entrant key -> the match points it earned there
    invalid, not_counted, counted = [], [], []
    for match in matches:
        reason = _not_counted(match)
        error = first_error(match)
        if error:
            why = msg("{rule}: {message}", rule=error["rule"], message=finding_text(error))
            invalid.append(dict(_named(match), reason=str(why), why=why.as_json(), counted=False))
        if reason or (error and not count_invalid):
            if reason:
                not_counted.append(dict(_named(match), reason=str(reason), why=reason.as_json()))
            continue
        if error:
            invalid[-1]["counted"] = True
        meetings.append(_count(match, rows, points))
        counted.append(_played(match))
    table = []
    for game in sorted({key[0] for key in rows}):
        table += _ranked([row for key, row in rows.items() if key[0] == game], meetings)
    return {"event": event, "points": list(points), "records": len(records), "matches": len(matches),
            "counted": len(meetings), "standings": table, "results": counted, "invalid": invalid,
            "not_counted": not_counted}


def _named(match: Match) -> dict:
    return {"id": match.parts[0].source, "records": [p.source for p in match.parts],
            "game": match.parts[0].record.get("game"), "round": match.round, "table": match.table}


def _played(match: Match) -> dict:
    """A counted match: its records, entrants and result (the winner's name, or None on a draw)."""
    sides = [" & ".join(sorted(names)) for names in entrants(match.parts[0].record)]
    outcome = result(match)
    winner = outcome.get("winner")
    return dict(_named(match), entrants=sides, winner=None if winner is None else sides[winner],
                margin=outcome["margin"])


def _not_counted(match: Match) -> Msg | None:
    """Why a match cannot be counted at all, or None."""
    return not_one_match(match) or (None if result(match) is not None else msg("its result could not be computed"))


def _count(match: Match, rows: dict, points) -> dict:
    """Adds one match to the rows; returns what each entrant earned in it."""
    record = match.parts[0].record
    game, values, outcome = record["game"], scores(match), result(match)
    sides = entrants(record)
    earned = {}
    for side, names in enumerate(sides):
        key = (game, tuple(sorted(names)))
        row = rows.setdefault(key, {"rank": None, "game": game, "entrant": " & ".join(sorted(names)),
                                    "players": sorted(names), "played": 0, "won": 0, "drawn": 0, "lost": 0,
                                    "match_points": 0, "margin": 0, "tie_break": None})
        kind = "won" if outcome.get("winner") == side else \
            "drawn" if outcome.get("draw") and values[side] == max(values) else "lost"
        row["played"] += 1
        row[kind] += 1
        earned[key] = points[("won", "drawn", "lost").index(kind)]
        row["match_points"] += earned[key]
        row["margin"] += values[side] - values[1 - side] if game == "guandan" else values[side]
    return earned


def _ranked(rows: list[dict], meetings: list[dict]) -> list[dict]:
    """Rows in order of match points, margin, the results between the tied, name; each with its
    rank and the tie-break that placed it among the rows level with it on match points."""
    level = {}
    for row in rows:
        level.setdefault((row["match_points"], row["margin"]), []).append(_key(row))
    between = {_key(row): _between(_key(row), level[(row["match_points"], row["margin"])], meetings) for row in rows}
    rows.sort(key=lambda r: (-r["match_points"], -r["margin"], -between[_key(r)], r["entrant"]))
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
        same_points = [r for r in rows if r is not row and r["match_points"] == row["match_points"]]
        same_margin = [r for r in same_points if r["margin"] == row["margin"]]
        same_between = [r for r in same_margin if between[_key(r)] == between[_key(row)]]
        row["tie_break"] = None if not same_points else "margin" if not same_margin else \
            "head-to-head" if not same_between else "name"
    return rows


def _key(row: dict) -> tuple:
    return row["game"], tuple(row["players"])


def _between(key: tuple, tied: list[tuple], meetings: list[dict]) -> int:
    """The match points an entrant earned in the matches it played against others tied with it."""
    others = set(tied) - {key}
    return sum(earned[key] for earned in meetings if key in earned and others & earned.keys())
