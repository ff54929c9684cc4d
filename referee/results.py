"""A tournament desk's results: records grouped into matches (one table in one round, perhaps played
in parts), each match's computed result, and a results sheet checked against them
(docs/formats/results-sheet.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from .batch import check_parsed
from .cards import RANKS
from .claims import match_result
from .findings import Finding, Report
from .messages import CORE, Listing, Msg, msg, word
from .notation import parse_json
from .precheck import GAMES
from .sheet import Row, Sheet

TEAMS = {"guandan": 2, "gouji": 2, "gandengyan": None}  # None: every player for themselves
GAME_NAMES = {
    "guandan": "guandan",
    "掼蛋": "guandan",
    "gouji": "gouji",
    "够级": "gouji",
    "gandengyan": "gandengyan",
    "干瞪眼": "gandengyan",
}
DRAW = {"draw", "tie", "平", "平局"}


@dataclass
class Played:
    source: str
    record: dict
    report: dict


@dataclass
class Match:
    event: str | None
    round: str | None
    table: str | None
    parts: list[Played]


class CellProblem(Exception):
    """A cell of the sheet that holds no value of its column."""


def played(items) -> tuple[list[Played], list[Report]]:
    """The checked records, and the reports of what could not be read as a record, from
    (source, record text or unreadable report) pairs as batch.records_of gives them."""
    records, unreadable = [], []
    for source, item in items:
        value = None if isinstance(item, Report) else parse_json(item)
        if isinstance(value, dict):
            records.append(Played(source, value, check_parsed(item, value, source).as_dict()))
        elif isinstance(item, Report):
            unreadable.append(item)
        elif isinstance(value, Finding):
            unreadable.append(Report(False, None, None, [value], source=source, unreadable=True))
        else:
            unreadable.append(check_parsed(item, value, source))  # JSON, but not an object
    return records, unreadable


def meta_of(record: dict) -> dict:
    """A record's meta, its values as text: {} where it has none or something else stands there, and a value that
    is no string (a structure error) as its JSON, never as Python writes it ({'a': 1}, True)."""
    meta = record.get("meta")
    if not isinstance(meta, dict):
        return {}
    return {key: value if value is None or isinstance(value, str) else json.dumps(value) for key, value in meta.items()}


# spaces are single once split and joined; the digits are one group, so a failed match backtracks
# through them once (0*(\d+) tried every split of a long run of zeros)
_NUMBERED = re.compile(r"(?:round|table|rd|tbl|r|t|第)? ?(\d+) ?(?:轮|号桌|桌)?")


def loose_key(value) -> str:
    """A round, table or event as it is compared: case and spacing aside, "03" and "Round 3" are 3."""
    text = " ".join(str(value).split()).casefold()
    number = _NUMBERED.fullmatch(text)
    return number.group(1).lstrip("0") or "0" if number else text


def matches_of(records: list[Played]) -> list[Match]:
    """Records grouped into matches by event, round and table (a record without round or table is a
    match of its own); parts in the order of meta.date, or else as read, a part that starts
    mid-match after one that does not."""
    groups: dict[tuple, Match] = {}
    for item in records:
        meta = meta_of(item.record)
        if meta.get("round") is None or meta.get("table") is None:
            key: tuple[str, ...] = ("record", item.source)
        else:
            key = tuple(loose_key(meta.get(name, "")) for name in ("event", "round", "table"))
        groups.setdefault(key, Match(meta.get("event"), meta.get("round"), meta.get("table"), [])).parts.append(item)
    for match in groups.values():
        dated = all(meta_of(p.record).get("date") for p in match.parts)
        match.parts.sort(key=lambda p: (str(meta_of(p.record)["date"]) if dated else "", bool(p.record.get("start"))))
    return list(groups.values())


def not_one_match(match: Match) -> Msg | None:
    """Why the records of one table and round are not the parts of one match, or None."""
    first = match.parts[0].record
    if any(
        p.record.get("game") != first.get("game") or p.record.get("players") != first.get("players")
        for p in match.parts
    ):
        return msg("{n} records for this table and round name different games or players", n=len(match.parts))
    return None


def first_error(match: Match) -> dict | None:
    """The first error of the match's parts: source, rule, at, message (and its template and parameters)."""
    for part in match.parts:
        for finding in part.report["findings"]:
            if finding["severity"] == "error":
                return {
                    "source": part.source,
                    "rule": finding["rule"],
                    "at": finding["at"],
                    "message": finding["message"],
                    **{k: finding[k] for k in ("template", "params") if k in finding},
                }
    return None


def rulings_of(match: Match) -> list[dict]:
    """The arbiter's rulings the match's records carry (notation §10), each with its record's source."""
    return [
        dict(ruling, source=part.source)
        for part in match.parts
        for ruling in _rulings(part.record)
        if isinstance(ruling, dict)
    ]


def _rulings(record: dict) -> list:
    rulings = record.get("rulings")
    return rulings if isinstance(rulings, list) else []


def finding_text(finding: dict) -> str | Msg:
    """A finding of a report's JSON form: its message, as a template said by its game where it keeps one."""
    if "template" not in finding:
        return finding["message"]
    return Msg.from_json(finding, _part(str(finding.get("rule", "")).split(".")[0]))


def reason(item: dict) -> str | Msg:
    """Why a match or a row stands apart (`reason`, its message kept as `why`), said by the match's game."""
    return Msg.from_json(item["why"], _part(item.get("game"))) if isinstance(item.get("why"), dict) else item["reason"]


def _part(game) -> str:
    return game if game in GAMES else CORE


def entrants(record: dict) -> list[list[str]]:
    """The entrants of a match: its teams (seats k, k + 2, ...: notation section 3) or its players."""
    players = record["players"]
    teams = TEAMS.get(record["game"])
    return [[name] for name in players] if teams is None else [players[t::teams] for t in range(teams)]


def scores(match: Match) -> list[int] | None:
    """Each entrant's score at the match's end: Guandan levels (2 = 0 ... A = 12), otherwise the
    totals: the first part's starting totals and what each part added. None when not computed."""
    outcomes = [part.report.get("match") or {} for part in match.parts]
    if match.parts[0].record.get("game") == "guandan":
        levels = outcomes[-1].get("levels")
        return [RANKS.index(level) for level in levels] if levels else None
    if any(outcome.get("totals") is None for outcome in outcomes):
        return None
    count = len(entrants(match.parts[0].record))  # ruled totals may be any list (notation §10)
    if any(len(outcome["totals"]) != count for outcome in outcomes):
        return None
    totals = None
    for part, outcome in zip(match.parts, outcomes):
        start = (part.record.get("start") or {}).get("totals") or [0] * len(outcome["totals"])
        totals = start if totals is None else totals
        totals = [t + now - before for t, now, before in zip(totals, outcome["totals"], start)]
    return totals


def result(match: Match) -> dict | None:
    """The match's result (claims.match_result): a Guandan team that passed A won outright, as did a winner that
    a ruling let stand (notation §10) in the part the match ends with."""
    outcomes = [part.report.get("match") or {} for part in match.parts]
    passed = [o["winner"] for o in outcomes if o.get("winner") is not None]
    if "winner" in outcomes[-1].get("computed", {}):
        won = outcomes[-1]["winner"]
    else:
        won = passed[0] if passed and match.parts[0].record.get("game") == "guandan" else None
    return match_result(scores(match), won)


def computed(match: Match) -> dict:
    """What the sheet's cells are compared with."""
    record = match.parts[0].record
    values = scores(match)
    outcome = result(match)
    out = {
        "game": record["game"],
        "players": record["players"],
        "deals": sum(_deal_count(p.record) for p in match.parts),
        "winner": None if outcome is None else "draw" if outcome.get("draw") else outcome["winner"],
    }
    if record["game"] == "guandan":
        out["levels"] = None if values is None else [RANKS[v] for v in values]
    else:
        out["totals"] = values
    return out


# ---------------------------------------------------------------- the sheet's cells


def _game(text: str) -> str:
    game = GAME_NAMES.get(re.sub(r"[\s_-]+", "", text).casefold())
    if game is None:
        raise CellProblem(msg('"{text}" is not a game: guandan, gandengyan or gouji', text=text))
    return game


def _names(text: str) -> list[str]:
    """Names separated by `/` (or `&`), without case."""
    return [name.strip().casefold() for name in re.split(r"[/&]", text)]


def _number(text: str, what: Msg) -> int:
    try:
        return int(text.replace("−", "-"))
    except ValueError:
        raise CellProblem(msg('"{text}" is not {what}', text=text, what=what)) from None


def _level(text: str) -> str:
    """A level as a rank code: 2-9, T or 10, J, Q, K, A, or a number 2-14."""
    code = text.strip().upper()
    if code.isdigit() and 2 <= int(code) <= 14:
        return RANKS[int(code) - 2]
    if len(code) == 1 and code in RANKS:
        return code
    raise ValueError(text)


def _levels(text: str) -> list[str]:
    try:
        levels = [_level(part) for part in text.split("/")]
    except ValueError:
        levels = []
    if len(levels) != 2:
        raise CellProblem(msg('"{text}" is not two levels (2-10, J, Q, K, A) such as A/7', text=text))
    return levels


def _totals(text: str) -> list[int]:
    return [_number(part.strip(), msg("a list of totals such as 12/-4/-8")) for part in text.split("/")]


FORMATS = {
    "game": _game,
    "deals": lambda text: _number(text, msg("a number of deals")),
    "levels": _levels,
    "totals": _totals,
}  # the cells whose value the sheet alone gives


def _winner(text: str, record: dict) -> int | str:
    """A team (0, 1, or its players A/B) or a player (its name), or "draw"."""
    if text.casefold() in DRAW:
        return "draw"
    sides = entrants(record)
    named = [i for i, side in enumerate(sides) if sorted(n.casefold() for n in side) == sorted(_names(text))]
    if named:
        return named[0]
    number = re.fullmatch(r"(?:team|seat)?\s*0*(\d{1,4})", text.casefold())  # a few digits: int() takes 4,300 at most
    if number and int(number.group(1)) < len(sides):
        return int(number.group(1))
    if TEAMS[record["game"]] is None:
        raise CellProblem(msg('"{text}" names no player, nor draw', text=text))
    raise CellProblem(msg('"{text}" names no team: 0, 1 or its players (A/B), nor draw', text=text))


def _shown(column: str, value, record: dict) -> str:
    """A computed value as the sheet writes it ("not computed" a word of the catalogue)."""
    if value is None:
        return word("not computed")
    if column == "winner":
        if value == "draw":
            return "draw"
        names = "/".join(entrants(record)[value])
        return names if TEAMS[record["game"]] is None else f"{value} ({names})"
    if isinstance(value, list):
        return "/".join(str(v) for v in value)
    return str(value)


def compare_cell(column: str, text: str, match: Match, values: dict) -> bool:
    """Whether a well-formed cell agrees with the computed value; CellProblem if the column does not
    apply to the match's game or the cell names no one of it."""
    record = match.parts[0].record
    game = record["game"]
    if (column == "levels" and game != "guandan") or (column == "totals" and game == "guandan"):
        raise CellProblem(msg("{game} has no {column}: leave the cell empty", game=game, column=column))
    if column == "winner":
        return _winner(text, record) == values["winner"]
    if column == "players":
        return _names(text) == [name.casefold() for name in values["players"]]
    return FORMATS[column](text) == values[column]


# ---------------------------------------------------------------- checking a sheet


def check_sheet(sheet: Sheet, records: list[Played]) -> Iterator[dict]:
    """One entry per sheet row (status agrees, differs, no_record, ambiguous or invalid), as the rows
    are read, then one per record that no row names (status no_row), of the events the sheet names
    (all when it names none). Each row is looked up by its round and table: time linear in the rows
    and records."""
    matches = matches_of(records)
    places: dict[tuple, list[int]] = {}
    for number, match in enumerate(matches):
        if match.round is not None and match.table is not None:
            places.setdefault((loose_key(match.round), loose_key(match.table)), []).append(number)
    named: set[int] = set()
    first_lines: dict[tuple, int] = {}
    events = set()
    for row in sheet.rows:
        if "event" in row.cells:
            events.add(loose_key(row.cells["event"]))
        yield _check_row(row, sheet, matches, places, named, first_lines)
    for number, match in enumerate(matches):
        if number in named or (events and loose_key(match.event or "") not in events):
            continue
        yield from (
            {
                "status": "no_row",
                "source": part.source,
                "event": match.event,
                "round": match.round,
                "table": match.table,
            }
            for part in match.parts
        )


def _check_row(row: Row, sheet: Sheet, matches: list[Match], places: dict, named: set, first_lines: dict) -> dict:
    cells = row.cells
    entry: dict[str, object] = {
        "line": row.line,
        "status": None,
        "event": cells.get("event"),
        "round": cells.get("round"),
        "table": cells.get("table"),
        "problems": [],
    }
    if row.beyond:
        _problem(
            entry,
            sheet,
            f"#{sheet.width + 1}",
            msg(
                "{n} filled cell(s) past the header's {width} columns: a separator too many?",
                n=row.beyond,
                width=sheet.width,
            ),
        )
    empty = [name for name in ("round", "table") if name not in cells]
    for name in empty:
        _problem(entry, sheet, name, msg("empty: the row names no match"))
    malformed = _malformed(entry, sheet, cells)
    if empty:
        return dict(entry, status="no_record")
    key = tuple(loose_key(cells.get(name, "")) for name in ("event", "round", "table"))
    if key in first_lines:
        _problem(
            entry, sheet, "table", msg("the same match as line {line}: a row written twice", line=first_lines[key])
        )
    first_lines.setdefault(key, row.line)
    found = [n for n in places.get(key[1:], ()) if "event" not in cells or loose_key(matches[n].event or "") == key[0]]
    named.update(found)
    if not found:
        return dict(entry, status="no_record")
    entry["records"] = [part.source for n in found for part in matches[n].parts]
    if len(found) > 1:
        why = msg(
            "{n} matches, of the events {events}: give the event",
            n=len(found),
            events=Listing([f'"{matches[n].event}"' for n in found]),
        )
        return dict(entry, status="ambiguous", reason=str(why), why=why.as_json())
    match = matches[found[0]]
    split = not_one_match(match)
    if split:
        return dict(entry, status="ambiguous", reason=str(split), why=split.as_json())
    error = first_error(match)
    if error:
        return dict(entry, status="invalid", error=error)
    ruled = rulings_of(match)
    if ruled:
        entry["rulings"] = ruled
    return _compared(entry, sheet, match, {c: text for c, text in cells.items() if c not in malformed})


def _malformed(entry: dict, sheet: Sheet, cells: dict) -> set[str]:
    """The columns whose cells hold no value of their column, each a problem of the row."""
    malformed = set()
    for column in [c for c in FORMATS if c in cells]:
        try:
            FORMATS[column](cells[column])
        except CellProblem as problem:
            _problem(entry, sheet, column, problem.args[0])
            malformed.add(column)
    return malformed


def _compared(entry: dict, sheet: Sheet, match: Match, cells: dict) -> dict:
    values = computed(match)
    entry["game"] = values["game"]
    entry["cells"] = {}
    for column in ("game", "players", "winner", "levels", "totals", "deals"):
        if column not in cells:
            continue
        try:
            agrees = compare_cell(column, cells[column], match, values)
        except CellProblem as problem:
            _problem(entry, sheet, column, problem.args[0])
            continue
        shown = _shown(column, values.get(column), match.parts[0].record)
        entry["cells"][column] = {"sheet": cells[column], "computed": shown, "agrees": agrees}
    differs = not all(cell["agrees"] for cell in entry["cells"].values())
    return dict(entry, status="differs" if differs else "agrees")


def _problem(entry: dict, sheet: Sheet, column: str, message: Msg):
    """A problem of the row: its message in English, and as a template (`Msg.from_json` renders it)."""
    entry["problems"].append(
        {
            "line": entry["line"],
            "column": sheet.columns.get(column, column),
            "message": str(message),
            **message.as_json(),
        }
    )


def summary(entries: list[dict]) -> dict:
    """Rows by status, records no row names, and the problems in the sheet."""
    counts = {
        status: 0 for status in ("agrees", "differs", "no_record", "ambiguous", "invalid", "no_row", "rows", "problems")
    }
    for entry in entries:  # read once: they may be made as they are counted
        counts[entry["status"]] += 1
        counts["rows"] += "line" in entry
        counts["problems"] += len(entry.get("problems", ()))
    return counts


def _deal_count(record) -> int:
    """The deals of a record: a list, or their number where a store gave only that."""
    deals = record.get("deals", [])
    return deals if isinstance(deals, int) else len(deals)
