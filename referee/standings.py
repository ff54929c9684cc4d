"""Tournament standings (docs/formats/results-sheet.md): per entrant (team or player) of each game,
over an event's matches, the matches played, won, drawn and lost, match points, and the tie-breaks
in order: margin (Guandan level difference; Gan Deng Yan and Gou Ji points), the results between
the tied entrants, then name. A match the referee finds invalid is listed apart with its first
error and counted only when the desk says so; one valid as ruled (notation §10) counts, and lists its
rulings."""

from __future__ import annotations

from collections import Counter

from .messages import Listing, msg, word
from .results import (
    Match,
    Played,
    entrants,
    finding_text,
    first_error,
    loose_key,
    matches_of,
    meta_of,
    not_one_match,
    result,
    rulings_of,
    scores,
)

DEFAULT_POINTS = (2, 1, 0)


class StandingsError(Exception):
    """The records do not make one event's standings."""


def event_entries(entries, event: str | None) -> tuple[str | None, list[Played]]:
    """The event and its records among (source, record, report) entries or Played records: those of
    `event`, or, when it is None, all of them if they belong to one event (else StandingsError)."""
    records = [item if isinstance(item, Played) else Played(*item) for item in entries]
    events = {loose_key(meta_of(p.record).get("event") or ""): meta_of(p.record).get("event") for p in records}
    if event is None:
        if len(events) > 1:
            names = [f'"{name}"' for name in events.values() if name]
            raise StandingsError(
                msg(
                    "the records belong to {n} events ({names}): choose one with --event",
                    n=len(events),
                    names=Listing(names) if names else word("none"),
                )
            )
        return next(iter(events.values()), None), records
    return event, [p for p in records if loose_key(meta_of(p.record).get("event") or "") == loose_key(event)]


def standings(
    entries, event: str | None = None, points=DEFAULT_POINTS, count_invalid: bool = False, stop=lambda: None
) -> dict:
    """The standings of an event from its records ((source, record, report) entries, or Played), in
    time n log n in the matches; `stop()`, called between matches, may raise to end the work (the
    API's budget for a request)."""
    event, records = event_entries(entries, event)
    matches = matches_of(records)
    rows: dict[tuple, dict] = {}
    meetings: list[dict] = []  # per counted match: entrant key -> the match points it earned there
    invalid, not_counted, counted = [], [], []
    for match in matches:
        stop()
        error = first_error(match)
        if error:
            why = msg("{rule}: {message}", rule=error["rule"], message=finding_text(error))
            invalid.append(dict(_named(match), reason=str(why), why=why.as_json(), counted=False))
            if not count_invalid:
                continue  # nothing computed from a record with an error unless the desk asks
        reason = not_one_match(match)
        computed = None if reason else _computed(match)
        if computed is None:
            reason = reason or msg("its result could not be computed")
            not_counted.append(dict(_named(match), reason=str(reason), why=reason.as_json()))
            continue
        if error:
            invalid[-1]["counted"] = True
        values, outcome = computed
        meetings.append(_count(match, rows, points, values, outcome))
        counted.append(_played(match, outcome))
    stop()
    by_game: dict[str, list[dict]] = {}
    for key, row in rows.items():
        by_game.setdefault(key[0], []).append(row)
    table = []
    for game in sorted(by_game):
        table += _ranked(by_game[game], meetings)
    return {
        "event": event,
        "points": list(points),
        "records": len(records),
        "matches": len(matches),
        "counted": len(meetings),
        "standings": table,
        "results": counted,
        "invalid": invalid,
        "not_counted": not_counted,
    }


def _named(match: Match) -> dict:
    return {
        "id": match.parts[0].source,
        "records": [p.source for p in match.parts],
        "game": match.parts[0].record.get("game"),
        "round": match.round,
        "table": match.table,
    }


def _played(match: Match, outcome: dict) -> dict:
    """A counted match: its records, entrants and result (the winner's name, or None on a draw)."""
    sides = [" & ".join(sorted(names)) for names in entrants(match.parts[0].record)]
    winner = outcome.get("winner")
    ruled = rulings_of(match)
    return dict(
        _named(match),
        entrants=sides,
        winner=None if winner is None else sides[winner],
        margin=outcome["margin"],
        **({"rulings": ruled} if ruled else {}),
    )


def _computed(match: Match) -> tuple[list[int], dict] | None:
    """The match's scores and result (a match that has one has the other), or None when not computed."""
    values, outcome = scores(match), result(match)
    return (values, outcome) if values is not None and outcome is not None else None


def _count(match: Match, rows: dict, points, values: list[int], outcome: dict) -> dict:
    """Adds one match, with its scores and result, to the rows; returns what each entrant earned in it."""
    record = match.parts[0].record
    game = record["game"]
    sides = entrants(record)
    earned = {}
    for side, names in enumerate(sides):
        key = (game, tuple(sorted(names)))
        row = rows.setdefault(
            key,
            {
                "rank": None,
                "game": game,
                "entrant": " & ".join(sorted(names)),
                "players": sorted(names),
                "played": 0,
                "won": 0,
                "drawn": 0,
                "lost": 0,
                "match_points": 0,
                "margin": 0,
                "tie_break": None,
            },
        )
        kind = (
            "won"
            if outcome.get("winner") == side
            else "drawn"
            if outcome.get("draw") and values[side] == max(values)
            else "lost"
        )
        row["played"] += 1
        row[kind] += 1
        earned[key] = points[("won", "drawn", "lost").index(kind)]
        row["match_points"] += earned[key]
        row["margin"] += values[side] - values[1 - side] if game == "guandan" else values[side]
    return earned


def _ranked(rows: list[dict], meetings: list[dict]) -> list[dict]:
    """Rows in order of match points, margin, the results between the tied, name; each with its
    rank and the tie-break that placed it among the rows level with it on match points."""
    level = {_key(row): (row["match_points"], row["margin"]) for row in rows}
    between = _between(level, meetings)
    rows.sort(key=lambda r: (-r["match_points"], -r["margin"], -between[_key(r)], r["entrant"]))
    same_points = Counter(row["match_points"] for row in rows)
    same_margin = Counter(level.values())
    same_between = Counter((*level[_key(row)], between[_key(row)]) for row in rows)
    for rank, row in enumerate(rows, start=1):
        row["rank"] = rank
        points, margin = level[_key(row)]
        row["tie_break"] = (
            None
            if same_points[points] == 1
            else "margin"
            if same_margin[points, margin] == 1
            else "head-to-head"
            if same_between[points, margin, between[_key(row)]] == 1
            else "name"
        )
    return rows


def _key(row: dict) -> tuple:
    return row["game"], tuple(row["players"])


def _between(level: dict, meetings: list[dict]) -> Counter:
    """Per entrant, the match points it earned in the matches it played against others level with it
    on match points and margin; each match looked at once."""
    between: Counter = Counter()
    for earned in meetings:
        for key in earned.keys() & level.keys():
            if any(other != key and level.get(other) == level[key] for other in earned):
                between[key] += earned[key]
    return between
