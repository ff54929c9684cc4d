"""Reading CGR/1 records (notation.md): JSON text, structure, cards, seats.

The structure is checked against the shipped JSON Schema (schema/cgr1.schema.json),
the one description of CGR/1 structure: plain records pass a pre-check written for
CGR/1 (precheck.py), their actions checked in the pass that reads them (read_plain);
any other goes to a compiled validator, and on failure the reference validator lists
every problem with its JSON Pointer.
Rule ids and messages come from the schema's `x-rule` / `x-message` annotations.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import json
import math
import os
import re
import sys
from collections.abc import Iterable
from functools import cache, partial

import orjson

from .actions import (
    CANONICAL as _CANONICAL,
    CARD_VERBS,
    FIELDS,
    MAX_NUMBER,
    NAMED_SEATS,
    NUMBER_KEYS,
    VERBS,
    Action,
    Deal,
    plain_deals,
)
from .cards import parse_card, reading_code
from .findings import ERROR, INFO, MAX_LISTED, Finding, Listed, more_finding, plain, pointer
from .game import game as game_module
from .messages import Msg, Term, msg, msg_n, word
from .precheck import GAMES, accepts, action_ok, in_bounds


@cache
def schema() -> dict:
    """The CGR/1 JSON Schema shipped with the package, read when first needed."""
    with open(os.path.join(os.path.dirname(__file__), "schema", "cgr1.schema.json"), "rb") as handle:
        return orjson.loads(handle.read())


def _inlined(node, definitions, keep=("deal", "action")):
    """The schema with its (non-recursive) $refs replaced by their definitions, but `keep`."""
    if isinstance(node, dict):
        name = node.get("$ref", "").rsplit("/", 1)[-1]
        if name and name not in keep:
            return _inlined(definitions[name], definitions, keep)
        return {k: _inlined(v, definitions, keep) for k, v in node.items()}
    if isinstance(node, list):
        return [_inlined(v, definitions, keep) for v in node]
    return node


# The compiled validator only needs yes or no. fastjsonschema builds a path string for every array
# item it hands to a referenced definition, and formats messages with the frame's locals:
# inlining small definitions and keeping deals and actions as small functions keeps both cheap.
@cache
def _fast_validator():
    """(the compiled yes/no validator, its exception), built when a record first fails the pre-check."""
    import fastjsonschema

    return fastjsonschema.compile(
        _inlined(schema(), schema()["definitions"]), detailed_exceptions=False
    ), fastjsonschema.JsonSchemaException


@cache
def _full_validator():
    """The reference validator, which explains every problem: imported only when a record fails the compiled one
    (a record the pre-check declines but the schema accepts needs only that)."""
    import jsonschema

    return jsonschema.Draft7Validator(schema())


_JSON_TYPES = {
    dict: word("an object"),
    list: word("an array"),
    str: word("a string"),
    bool: word("true/false"),
    int: word("a number"),
    float: word("a number"),
    type(None): word("null"),
}


def parse_json(text: str | bytes):
    """The JSON value of `text` (a UTF-8 byte order mark ahead of it read past), or a notation.json
    finding whose message places the fault as line:column; a notation.size finding for a text of more
    values than a record may hold, or one that does not fit in memory."""
    if len(text) > MAX_VALUES and _values(text) > MAX_VALUES:
        return Finding(
            ERROR,
            "notation.size",
            "",
            msg(
                "a record may hold at most {limit:,} values (counted as its commas and opening brackets)",
                limit=MAX_VALUES,
            ),
        )
    try:
        return orjson.loads(without_bom(text))
    except orjson.JSONDecodeError as exc:
        beyond = _beyond_doubles(text) if exc.msg == "number is infinity when parsed as double" else None
        if beyond is not None:
            return beyond
        one_line = b"\n" not in text if isinstance(text, bytes) else "\n" not in text
        if one_line:  # a JSON Lines record: its line is the source's
            return Finding(
                ERROR,
                "notation.json",
                "",
                msg(
                    "the record is not valid JSON at column {column}: {problem}",
                    column=exc.colno,
                    problem=Term(exc.msg),
                ),
            )
        return Finding(
            ERROR,
            "notation.json",
            "",
            msg(
                "the record is not valid JSON at line:column {line}:{column}: {problem}",
                line=exc.lineno,
                column=exc.colno,
                problem=Term(exc.msg),
            ),
        )
    except (MemoryError, SystemError) as exc:  # orjson says MemoryError as a SystemError caused by one
        if not isinstance(exc, MemoryError) and not isinstance(exc.__cause__, MemoryError):
            raise
        return Finding(ERROR, "notation.size", "", msg("the record does not fit in the memory this process may use"))


def _beyond_doubles(text: str | bytes):
    """The value of a JSON text that holds a number beyond a double's range, each such number read as the largest
    double of its sign, as orjson reads an integer beyond 64 bits as a double (the checks then say what a
    number that large is where it stands); None for a text that is no JSON after all (NaN and Infinity are none)."""
    try:
        value = json.loads(without_bom(text), parse_float=_double, parse_int=_integer, parse_constant=_no_constant)
        orjson.dumps(value)  # what orjson refuses besides (a lone surrogate, say) this reader must refuse too
    except (ValueError, TypeError, RecursionError, orjson.JSONEncodeError):
        return None
    return value


def _double(written: str) -> float:
    value = float(written)
    return math.copysign(sys.float_info.max, value) if math.isinf(value) else value


def _integer(written: str) -> int | float:
    if len(written) > 21:  # beyond 64 bits whatever its digits (and past int()'s limit of 4,300 digits)
        return _double(written)
    value = int(written)
    return value if -(1 << 63) <= value < 1 << 64 else _double(written)


def _no_constant(written: str):
    raise ValueError(written)


# Each value of a parsed record takes some 70 bytes, and orjson reserves (unused) 256 more when it writes one:
# a 64 MiB text of `{},` would hold 22 million (1.5 GB; 5.6 GB reserved, which a limit on the address space
# turns into a crash). A record of 2 million (a thousand Guandan deals count 0.7 million) needs under 0.7 GB.
MAX_VALUES = 2_000_000

# What orjson says of a text that is not JSON (its parser's messages), for the catalogue.
JSON_PROBLEMS = (
    word("Input is a zero-length, empty document"),
    word("input data is empty"),
    word("unexpected end of data"),
    word("unexpected character, expected a JSON value"),
    word("unexpected character, expected a string key"),
    word("unexpected character, expected ':' after key"),
    word("unexpected character, expected ',' or ']'"),
    word("unexpected character, expected ',' or '}'"),
    word("unexpected content after document"),
    word("unexpected control character in string"),
    word("trailing comma is not allowed"),
    word("invalid literal, expected 'true'"),
    word("invalid literal, expected 'false'"),
    word("invalid literal, expected 'null'"),
    word("number with leading zero is not allowed"),
    word("number is infinity when parsed as double"),
    word("no digit after sign"),
    word("no digit after decimal point"),
    word("no digit after exponent sign"),
    word("invalid escaped sequence in string"),
    word("invalid high surrogate in string"),
    word("invalid low surrogate in string"),
    word("no low surrogate in string"),
    word("invalid utf-8 encoding in string"),
    word("str is not valid UTF-8: surrogates not allowed"),
    word("depth limit exceeded"),
)


def _values(text: str | bytes) -> int:
    """The values of a JSON text, counted from above: each but the first of an array or object follows a comma
    (commas and brackets in strings are counted too)."""
    if isinstance(text, str):
        return text.count(",") + text.count("[") + text.count("{")
    return text.count(b",") + text.count(b"[") + text.count(b"{")


BOM = "\ufeff"
BOM_BYTES = BOM.encode()


def has_bom(text: str | bytes) -> bool:
    return text.startswith(BOM_BYTES) if isinstance(text, bytes) else text.startswith(BOM)


def without_bom(text: str | bytes) -> str | bytes:
    """The text past a byte order mark (three bytes in UTF-8, one character in a str)."""
    return text.removeprefix(BOM_BYTES) if isinstance(text, bytes) else text.removeprefix(BOM)


def bom_findings(text: str | bytes) -> list[Finding]:
    """A byte order mark is no part of UTF-8 JSON (RFC 8259 §8.1) but is harmless: read past, and said."""
    return (
        [
            Finding(
                INFO,
                "notation.bom",
                "",
                msg(
                    "the text starts with a UTF-8 byte order mark; it was read past "
                    "(JSON text has none: drop it when writing records)"
                ),
            )
        ]
        if has_bom(text)
        else []
    )


def duplicate_key_findings(text: str | bytes, value, colons: int | None = None) -> list[Finding]:
    """A key written twice in one object: JSON readers keep the last and lose the first unsaid, so
    CGR/1 reads it as a broken record. Cheap when there is none: a text's colons are its keys and
    the colons in its strings, and so are those of the value written back compactly, unless a key
    was lost (or a string writes a colon as \\u003a). `colons`: those of the value, where the caller
    counted them as it read the record (plain_read)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = text.removeprefix(BOM)
    if not isinstance(value, (dict, list)):
        return []
    if text.count(":") == (_colons(value) if colons is None else colons) and not _escapes_colon(text):
        return []
    try:
        twice = json.loads(text, object_pairs_hook=_object)
    except (ValueError, RecursionError):  # deeper than this reader goes: orjson read it, so let it be
        return []
    return [
        Finding(
            ERROR,
            "notation.key.duplicate",
            pointer(*path, key),
            msg("the key {key} is written more than once in this object; only one may stand", key=plain(key)),
        )
        for path, holder in walk(twice)
        if isinstance(holder, _Twice)
        for key in holder.twice
    ]


def _escapes_colon(text: str) -> bool:
    """Whether a string of the text writes a colon as \\u003a (looked for only in a text with a backslash)."""
    return "\\" in text and _COLON_ESCAPE.search(text) is not None


_COLON_ESCAPE = re.compile(r"\\u003[aA]")


class _Twice(dict):
    twice: list


def _object(pairs):
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    seen = set()
    found = _Twice(found)
    found.twice = list(dict.fromkeys(key for key, _ in pairs if key in seen or seen.add(key)))
    return found


def walk(value):
    """(path, value) for every object and array in a JSON value, without recursion."""
    stack = [((), value)] if isinstance(value, (dict, list)) else []
    while stack:
        path, item = stack.pop()
        yield path, item
        children = item.items() if isinstance(item, dict) else enumerate(item)
        stack += [(path + (key,), child) for key, child in children if isinstance(child, (dict, list))]


def _colons(value) -> int:
    """The colons of a parsed JSON value written compactly: its keys, and the colons in its keys and
    strings; -1 for a value nested deeper than orjson writes."""
    try:
        return orjson.dumps(value).count(b":")
    except orjson.JSONEncodeError:
        return -1


def most_seats(game: str | None) -> int | None:
    """The most seats a game has (its players at most, notation §3), as its module says; None for no game."""
    module = game_module(game)
    return None if module is None else module.MAX_SEATS


def seated_players(record: dict) -> list:
    """A record's players, as many as its game (or any game) has seats: the rest are never read."""
    players = record.get("players")
    game = record.get("game") if isinstance(record.get("game"), str) else None
    if not isinstance(players, list):
        return []
    return players[: most_seats(game) or max(most_seats(name) or 0 for name in GAMES)]


# Players beyond which a record is read no further: a few more than a game's seats are its own seats
# finding (guandan.deal.seats, ...), as the rules pages word it; a million would cost the schema's
# reading, a ruling's table, seconds each.
MAX_PLAYERS_READ = 64


def players_finding(record) -> Finding | None:
    """A record of far more players than its game has seats (MAX_PLAYERS_READ): one finding, and
    nothing else of it read."""
    players = record.get("players") if isinstance(record, dict) else None
    if not isinstance(players, list) or len(players) <= MAX_PLAYERS_READ:
        return None
    game = record.get("game") if isinstance(record.get("game"), str) else None
    seats = most_seats(game)
    if seats is None:
        return None
    return Finding(
        ERROR,
        "notation.players",
        "/players",
        msg(
            "{game} has at most {seats} seats; this record lists {n} players, which are not read",
            game=game,
            seats=seats,
            n=len(players),
        ),
    )


def structure_findings(record) -> list[Finding]:
    """Every structural problem of a parsed record; [] when it follows the schema."""
    if accepts(record):
        return []
    crowded = players_finding(record)
    if crowded:
        return [crowded]
    too_deep = _too_deep(record)
    if too_deep is not None:
        return [
            located(
                record,
                "notation.depth",
                too_deep,
                msg(
                    "arrays and objects are nested more than {limit} "
                    "levels deep here; CGR/1 needs 6 and leaves the rest to x- extensions",
                    limit=MAX_DEPTH,
                ),
            )
        ]
    fast_validate, failed = _fast_validator()
    try:
        fast_validate(record)
        return []
    except failed:
        pass
    with cycle_collection(True):  # the validator's errors are reference cycles: freed as they go, in a check too
        errors = _full_validator().iter_errors(record)
        first = sorted(itertools.islice(errors, MAX_LISTED), key=lambda e: list(map(str, e.absolute_path)))
        findings = _distinct(itertools.chain(first, errors), record)
        listed = list(itertools.islice(findings, MAX_LISTED))
        more = sum(1 for _ in itertools.islice(findings, MAX_COUNTED + 1))
    if more:
        listed.append(more_finding(min(more, MAX_COUNTED), msg("structural problems"), more <= MAX_COUNTED))
    return listed or [Finding(ERROR, "notation.structure", "", msg("the record does not follow CGR/1"))]


# Structural problems counted past those listed: the schema validator takes some 20 µs for each, so an array
# of millions of wrong items is answered in seconds, and "at least" this many.
MAX_COUNTED = 100_000


def _distinct(errors, record):
    """The findings of the schema validator's errors, each (rule, place) once."""
    seen = set()
    for error in errors:
        for finding in _finding_from(error, record):
            if (finding.rule, finding.at) not in seen:
                seen.add((finding.rule, finding.at))
                yield finding


# Arrays and objects within arrays and objects: CGR/1 needs 6 (a card of a play of an action of a deal), x- values
# the rest. No reader down the line (the schema validator, the messages, orjson writing an answer) recurses this deep.
MAX_DEPTH = 32


def _too_deep(value) -> list | None:
    """The path to the first array or object nested deeper than MAX_DEPTH, or None; walked without recursion."""
    path, opened = [], [_children(value)]
    while opened:
        for key, child in opened[-1]:
            if isinstance(child, (dict, list)):
                path.append(key)
                if len(opened) == MAX_DEPTH:
                    return path
                opened.append(_children(child))
                break
        else:
            opened.pop()
            if path:
                path.pop()
    return None


def _children(value):
    return iter(value.items()) if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else iter(())


@contextlib.contextmanager
def cycle_collection(enabled: bool):
    """Python's cycle collector on or off while the block runs, and as it was afterwards."""
    was_enabled = gc.isenabled()
    _set_cycle_collection(enabled)
    try:
        yield
    finally:
        _set_cycle_collection(was_enabled)


def _set_cycle_collection(enabled: bool):
    if enabled:
        gc.enable()
    else:
        gc.disable()


def located(record, rule: str, path: list, message: Msg, severity: str = ERROR) -> Finding:
    """A finding at `path`, with the deal, action and acting seat it lies in (notation §9)."""
    deal = action = seat = None
    if len(path) > 1 and path[0] == "deals" and isinstance(path[1], int):
        deal = path[1]
        if len(path) > 3 and path[2] == "actions" and isinstance(path[3], int):
            action = path[3]
            seat = _acting_seat(record, deal, action)
    return Finding(severity, rule, pointer(*path), str(message), seat, deal, action, text=message)


def _acting_seat(record, deal: int, action: int) -> int | None:
    try:
        seat = record["deals"][deal]["actions"][action]["seat"]
        return seat if type(seat) is int and 0 <= seat < len(record["players"]) else None
    except (KeyError, IndexError, TypeError):
        return None


def _finding_from(error, record) -> Iterable[Finding]:
    path = list(error.absolute_path)
    at = path[:-1] if error.schema.get("x-at") == "parent" else path
    if error.validator == "additionalProperties":
        known = error.schema.get("properties", {})
        return (
            located(
                record,
                "notation.key.unknown",
                path + [key],
                msg("unknown key {key} (keys starting with x- are free for extensions)", key=plain(key)),
            )
            for key in error.instance
            if key not in known and not key.startswith("x-")
        )
    if error.validator == "required":
        key = re.match(r"^'(.*)' is a required property", error.message)
        name = key.group(1) if key else "?"
        # addressed where the key belongs (notation §9), not at the object that lacks it
        return [
            located(record, "notation.key.missing", path + [name], msg("missing required key {key}", key=plain(name)))
        ]
    rule = error.schema.get("x-rule", "notation.structure")
    template = error.schema.get("x-message")  # in the catalogue by schema_messages
    message = msg(schema_template(template), value=plain(error.instance)) if template else _plain(error)
    return [located(record, rule, at, message)]


_WANTED = {
    "object": word("an object"),
    "array": word("an array"),
    "string": word("a string"),
    "integer": word("a whole number"),
    "number": word("a number"),
    "boolean": word("true or false"),
}


def _plain(error) -> Msg:
    """The schema validator's error in our words (its own are English only)."""
    value = error.validator_value
    if error.validator == "type":
        found = _JSON_TYPES.get(type(error.instance), word("this"))
        return msg("expected {wanted} here, not {found}", wanted=_WANTED.get(value, value), found=found)
    if error.validator == "minItems":
        return msg_n("needs at least {n} item", "needs at least {n} items", value)
    if error.validator == "maxItems":
        return msg("takes at most {n} items", n=value)
    if error.validator == "minimum":
        return msg("must be at least {n}", n=value)
    if error.validator == "minLength":
        return msg("must not be empty")
    if error.validator == "enum":
        return msg("{value} is not one of {choices}", value=plain(error.instance), choices=plain(value))
    return msg("{value} is not allowed here", value=plain(error.instance))


def schema_template(x_message: str) -> str:
    """A schema's `x-message` as a message template: its `{value!r}` (the value as JSON) is `{value}`."""
    return x_message.replace("{value!r}", "{value}")


def schema_messages(fileobj, keywords, comment_tags, options):
    """Babel extraction method (referee/locale/core.cfg): the `x-message` templates of a JSON Schema."""
    found = []

    def collect(node):
        if isinstance(node, dict):
            if isinstance(node.get("x-message"), str):
                found.append(schema_template(node["x-message"]))
            for child in node.values():
                collect(child)
        elif isinstance(node, list):
            for child in node:
                collect(child)

    collect(orjson.loads(fileobj.read()))
    for text in dict.fromkeys(found):
        yield 0, None, text, []


def seat_findings(record: dict) -> list[Finding]:
    """Seat numbers beyond the table (the schema cannot know its size). Whole numbers written
    as decimals (`1.0`, which JSON Schema counts as integers) are made ints on the way."""
    seats = len(record["players"])
    found = Listed(msg("seats beyond the table"))

    def check(holder, key, *path):
        value = holder.get(key) if isinstance(holder, dict) else holder[key]
        if isinstance(value, float) and value <= MAX_NUMBER:  # beyond: a finding, never a 64-bit overflow
            value = holder[key] = int(value)
        if isinstance(value, (int, float)) and value >= seats and path:
            found.add(
                located,
                record,
                "notation.seat",
                list(path),
                msg("seat {seat} does not exist: this table has seats 0 to {last}", seat=value, last=seats - 1),
            )

    def check_all(values, *path):
        for i in range(len(values)):
            check(values, i, *path, i)

    for d, deal in enumerate(record["deals"]):
        check(deal, "leader", "deals", d, "leader")
        for a, action in enumerate(deal["actions"]):
            seat = action["seat"]
            if type(seat) is not int or seat >= seats:  # the common case skips the call
                check(action, "seat", "deals", d, "actions", a, "seat")
            if len(action) > 2:
                for key in NAMED_SEATS:
                    check(action, key, "deals", d, "actions", a, key)
                check(action, "count")
        result = deal.get("result", {})
        check_all(result.get("order", []), "deals", d, "result", "order")
        check(result, "winner", "deals", d, "result", "winner")
    for r, ruling in enumerate(record.get("rulings", ())):
        result = ruling.get("result", {})
        check_all(result.get("order", []), "rulings", r, "result", "order")
        check(result, "winner", "rulings", r, "result", "winner")
    start = record.get("start", {})
    check_all(start.get("previous_order", []), "start", "previous_order")
    check(start, "dealer", "start", "dealer")
    check(start, "playing")
    for i in range(len(start.get("a_attempts", []))):
        check(start["a_attempts"], i)
    check(record.get("result", {}), "winner")
    return found.closed()


def number_findings(record: dict) -> list[Finding]:
    """Counts, attempts, times, scores and totals beyond any a card game can mean (|n| > 10^12):
    kept out of the replay, so that no sum of them leaves 64 bits. Seats are seat_findings' part."""
    found = Listed(msg("numbers beyond 10^12"))

    def check(value, *path):
        if isinstance(value, (int, float)) and not -MAX_NUMBER <= value <= MAX_NUMBER:
            found.add(
                Finding,
                ERROR,
                "notation.number",
                pointer(*path),
                msg("{value} is beyond any number a record can mean (at most 10^12)", value=plain(value)),
            )

    def check_all(values, *path):
        for i, value in enumerate(values):
            check(value, *path, i)

    for d, deal in enumerate(record["deals"]):
        for a, action in enumerate(deal["actions"]):
            if len(action) > 2:
                for key in NUMBER_KEYS:
                    check(action.get(key), "deals", d, "actions", a, key)
        check_all(deal.get("result", {}).get("scores", []), "deals", d, "result", "scores")
    for r, ruling in enumerate(record.get("rulings", ())):
        check_all(ruling.get("result", {}).get("scores", []), "rulings", r, "result", "scores")
    start = record.get("start", {})
    check_all(start.get("a_attempts", []), "start", "a_attempts")
    check_all(start.get("totals", []), "start", "totals")
    check_all(record.get("result", {}).get("totals", []), "result", "totals")
    return found.closed()


def read_deals(record: dict) -> tuple[list[Deal], list[Finding]]:
    """The deals with card codes read; an info finding where aliases were used."""
    alias_at: list[list] = []

    def card(code, *path):
        found = _CANONICAL.get(code)
        if found is None:
            if not alias_at:  # the first is said
                alias_at.append(list(path))
            found = parse_card(code)
        return found

    def cards(codes, *path):
        try:
            return list(map(_CANONICAL.__getitem__, codes))
        except KeyError:
            return [card(c, *path, i) for i, c in enumerate(codes)]

    deals = []
    for d, raw in enumerate(record["deals"]):
        hands = [cards(h, "deals", d, "hands", s) for s, h in enumerate(raw["hands"])]
        talon = cards(raw["talon"], "deals", d, "talon") if "talon" in raw else None
        actions = [_read_action(a, raw_action, card, cards, d) for a, raw_action in enumerate(raw["actions"])]
        deals.append(Deal(d, hands, talon, raw.get("leader"), actions, raw.get("result")))
    findings = []
    if alias_at:
        findings.append(
            located(
                record,
                "notation.card.alias",
                alias_at[0],
                msg(
                    "the record writes cards with aliases (10 for T, lowercase); "
                    "`referee fmt` writes the canonical codes"
                ),
                INFO,
            )
        )
    return deals, findings


class _NotPlain(Exception):
    """Raised by read_plain at the first thing a plain record does not hold."""


class Plain:
    """What plain_read makes of a record: its deals, and the colons of its JSON written compactly (keys, and the
    colons in strings: duplicate_key_findings compares them with the text's), or fewer where a part of it is no
    JSON orjson writes (-1 for that part: never more, so that a count equal to the text's proves that no key was
    lost); both None for a record that is not plain. A plain class: a NamedTuple needs typing (start-up)."""

    __slots__ = ("colons", "deals")

    def __init__(self, deals: list[Deal] | None, colons: int | None) -> None:
        self.deals, self.colons = deals, colons


NOT_PLAIN = Plain(None, None)


def read_plain(record) -> list[Deal] | None:
    """The deals of a plain record, read in the pass that checks its actions: a record that
    follows the schema, has every seat at the table and every number in bounds, and writes
    canonical card codes only. None for any other record, which the full checks then explain
    (structure_findings, seat_findings, number_findings, read_deals): they find nothing in a
    plain record, and read it alike (tests/test_precheck.py)."""
    return plain_read(record).deals


def plain_read(record) -> Plain:
    """read_plain's deals, and the colons of the record counted on the way: its actions' as they are read
    (plain_deals), the rest written again (the hands and talons hold canonical card codes, which have none)."""
    if not accepts(record, actions=False) or not in_bounds(record, len(record["players"])):
        return NOT_PLAIN
    seats, talon = len(record["players"]), record["game"] == "gandengyan"
    try:
        deals, colons = plain_deals(record["deals"], seats, talon, partial(_plain_action, seats=seats, talon=talon))
    except (_NotPlain, KeyError, TypeError):  # KeyError, TypeError: no canonical card code
        return NOT_PLAIN
    return Plain(deals, colons + _colons_besides_cards(record))


# What plain_read counts colons of as it reads them, written as null in a deal that holds them (every deal of a
# plain record holds hands and actions).
_READ_CARDS = {"hands": None, "actions": None}
_READ_CARDS_AND_TALON = {**_READ_CARDS, "talon": None}


def _colons_besides_cards(record: dict) -> int:
    """_colons of a plain record but for those in its deals' hands, talons and actions (their keys counted)."""
    deals = [{**deal, **(_READ_CARDS_AND_TALON if "talon" in deal else _READ_CARDS)} for deal in record["deals"]]
    return _colons({**record, "deals": deals})


def _plain_action(deal, index, raw, seats, talon) -> tuple[Action, int]:
    """An action of a plain record in a form plain_actions does not read itself, checked as precheck,
    seat_findings and number_findings would, and its colons."""
    if type(raw) is not dict:
        raise _NotPlain
    seat = raw.get("seat")
    if type(seat) is not int or not 0 <= seat < seats:
        raise _NotPlain
    if (
        not action_ok(raw, talon)
        or any(raw.get(key, 0) >= seats for key in NAMED_SEATS)
        or not all(-MAX_NUMBER <= raw.get(key, 0) <= MAX_NUMBER for key in NUMBER_KEYS)
    ):
        raise _NotPlain
    return _read_action(index, raw, _canonical_card, _canonical_cards, deal), _colons(raw)


def _canonical_card(code, *path) -> int:
    return _CANONICAL[code]  # KeyError: an alias, which read_deals reports


def _canonical_cards(codes, *path) -> list[int]:
    return list(map(_CANONICAL.__getitem__, codes))


def _read_action(index, raw, card, cards, deal) -> Action:
    if len(raw) == 2:  # the common forms {seat, play} and {seat, pass}, read in one step
        if "pass" in raw:
            return Action(index, raw["seat"], "pass")
        try:
            return Action(index, raw["seat"], "play", tuple(map(_CANONICAL.__getitem__, raw["play"])))
        except KeyError:
            pass  # aliases: read below, noting where
    path = ("deals", deal, "actions", index)
    verb = next(v for v in VERBS if v in raw)
    reading = raw.get("as")
    action = Action(
        index, raw["seat"], verb, as_=reading and reading_code(reading), to=raw.get("to"), count=raw.get("count")
    )
    if FIELDS[verb] == "cards":
        action.cards = tuple(cards(raw[verb], *path, verb))
    elif verb in CARD_VERBS:
        action.card = card(raw[verb], *path, verb)
    elif FIELDS[verb] == "name":
        action.declare = raw[verb]
    return action


def split_records(text: str, jsonl: bool | None = None):
    """(line number or None, record text) pairs: one JSON value, or JSON Lines.

    `jsonl` None guesses: a text that is not one JSON value but whose first line is
    is read as JSON Lines.
    """
    if jsonl is None:
        stripped = text.strip()
        first, _, rest = stripped.partition("\n")
        jsonl = (
            bool(rest.strip())
            and not isinstance(parse_json(first), Finding)
            and isinstance(parse_json(stripped), Finding)
        )
    if not jsonl:
        yield None, text
        return
    for number, line in enumerate(text.split("\n"), 1):  # not splitlines(): U+2028 may stand in a string
        if line.strip():
            yield number, line
