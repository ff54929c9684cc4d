"""A fast yes-or-no structure check written for CGR/1 (notation.md, schema/cgr1.schema.json).

It accepts only records the schema accepts, and only in their plain form: whatever it
does not accept goes to the schema validators, which stay the authority and explain
every rejection (notation.structure_findings). A property test (tests/test_precheck.py)
checks that it never accepts what the schema rejects.
"""

from __future__ import annotations

import re

from .actions import FIELDS, MAX_NUMBER, READING, TRIBUTE_KEYS, VERBS, card_index, misplaced_key
from .game import GAMES

_RANK_SPELLINGS = [*"23456789TJQKAtjqka", "10"]
RANKS = frozenset(_RANK_SPELLINGS)
CARDS = frozenset([r + s for r in _RANK_SPELLINGS for s in "SHDCshdc"] + [j + k for j in "BRbr" for k in "Jj"])
COMMIT = re.compile(r"sha256:[0-9a-f]{64}")
DEAL_POINTER = re.compile(r"/deals/(0|[1-9][0-9]*)")  # full match: no trailing newline, unlike `$`
SALT, SEED = re.compile(r"[0-9a-fA-F]{32,}"), re.compile(r"[0-9a-fA-F]{64,}")

_RECORD_KEYS = frozenset(("cgr", "game", "rules", "meta", "players", "start", "deals", "result", "rulings", "comment"))
_DEAL_KEYS = frozenset(("hands", "talon", "leader", "actions", "result", "comment", "commit", "reveal"))
_SALT_KEYS, _SEED_KEYS = frozenset(("salt",)), frozenset(("seed", "shuffle", "beacon"))
_DEAL_RESULT_KEYS = frozenset(("order", "winner", "scores", "levels", "tribute"))
_RESULT_KEYS = frozenset(("totals", "levels", "winner"))
_RULING_KEYS = frozenset(("rule", "at", "decision", "by", "date", "reason", "result", "comment"))
DECISIONS = ("stands", "score", "void", "claim")  # notation §10
# start keys each game may use (the schema's `if game ... then start.X: not {}`)
_START_KEYS = {
    "guandan": frozenset(("levels", "playing", "previous_order", "a_attempts")),
    "gouji": frozenset(("previous_order", "fresh", "totals")),
    "gandengyan": frozenset(("totals", "dealer")),
}


def accepts(record, actions: bool = True) -> bool:
    """True only for records that follow the schema; False means "ask the schema". Without
    `actions`, the actions and the cards of the hands and talons are left for the caller to check
    (notation.read_plain, which reads canonical card codes only)."""
    try:
        return _record(record, actions)
    except TypeError:  # an unhashable value where a card, key or name was expected
        return False


def in_bounds(record: dict, seats: int) -> bool:
    """For a record `accepts` takes, without its actions: whether every seat it names is one at its table of `seats`
    and every number is within 10^12, where notation.seat_findings and number_findings look (but in actions)."""
    start, result = record.get("start", {}), record.get("result", {})
    return (
        all(
            deal.get("leader", 0) < seats and _result_in_bounds(deal.get("result", {}), seats)
            for deal in record["deals"]
        )
        and all(_result_in_bounds(ruling.get("result", {}), seats) for ruling in record.get("rulings", ()))
        and _seats_below(start.get("previous_order", ()), seats)
        and start.get("dealer", 0) < seats
        and _bounded(start.get("a_attempts", ()))
        and _bounded(start.get("totals", ()))
        and _bounded(result.get("totals", ()))
    )


def _result_in_bounds(result: dict, seats: int) -> bool:
    """A deal's or a ruling's result (its claims), as in_bounds asks."""
    return (
        _seats_below(result.get("order", ()), seats)
        and result.get("winner", 0) < seats
        and _bounded(result.get("scores", ()))
    )


def _seats_below(values, seats: int) -> bool:
    return all(value < seats for value in values)


def _bounded(values) -> bool:
    return all(-MAX_NUMBER <= value <= MAX_NUMBER for value in values)


def _known(obj: dict, keys: frozenset) -> bool:
    return all(k in keys or (type(k) is str and k.startswith("x-") and _shallow(obj[k])) for k in obj)


_FREE_LEVELS = 8  # an x- value or an option nested deeper is left to the full check (notation.MAX_DEPTH)


def _shallow(value, levels: int = _FREE_LEVELS) -> bool:
    """Whether a free value (any JSON) nests arrays and objects at most `levels` deep."""
    if type(value) is list:
        return levels > 0 and all(_shallow(v, levels - 1) for v in value)
    if type(value) is dict:
        return levels > 0 and all(_shallow(v, levels - 1) for v in value.values())
    return True


def _is_int(value, least=0) -> bool:
    return type(value) is int and value >= least


def _is_number(value) -> bool:
    return type(value) in (int, float) and value == value


def _seats(values) -> bool:
    return type(values) is list and all(type(v) is int and v >= 0 for v in values)


def _numbers(values) -> bool:
    return type(values) is list and all(_is_number(v) for v in values)


def _levels(values) -> bool:
    return type(values) is list and len(values) == 2 and all(type(v) is str and v in RANKS for v in values)


def _cards(values) -> bool:
    """A list of card codes: canonical ones known by their characters (card_index), without hashing them."""
    return type(values) is list and all(card_index(v) >= 0 or (type(v) is str and v in CARDS) for v in values)


def _record(r, whole: bool) -> bool:
    if type(r) is not dict or not _known(r, _RECORD_KEYS):
        return False
    game, players, deals = r.get("game"), r.get("players"), r.get("deals")
    if type(r.get("cgr")) is not int or r["cgr"] != 1 or game not in GAMES:
        return False
    if type(players) is not list or not players or not all(type(p) is str for p in players):
        return False
    if "comment" in r and type(r["comment"]) is not str:
        return False
    if "rules" in r and not _rules(r["rules"]):
        return False
    if "meta" in r and (type(r["meta"]) is not dict or not all(type(v) is str for v in r["meta"].values())):
        return False
    if "start" in r and not _start(r["start"], game):
        return False
    if "result" in r and not _result(r["result"]):
        return False
    if "rulings" in r and not (type(r["rulings"]) is list and all(map(_ruling, r["rulings"]))):
        return False
    if type(deals) is not list or not deals:
        return False
    talon = game == "gandengyan"
    return all(_deal(d, talon, whole) for d in deals)


def _rules(rules) -> bool:
    if type(rules) is str:
        return True
    return (
        type(rules) is dict
        and _known(rules, frozenset(("preset", "options")))
        and type(rules.get("preset", "")) is str
        and type(rules.get("options", {})) is dict
        and _shallow(rules.get("options", {}))
    )


def _start(start, game) -> bool:
    if type(start) is not dict or not _known(start, _START_KEYS[game]):
        return False
    return (
        ("levels" not in start or _levels(start["levels"]))
        and ("playing" not in start or (type(start["playing"]) is int and start["playing"] in (0, 1)))
        and ("previous_order" not in start or _seats(start["previous_order"]))
        and ("a_attempts" not in start or (_seats(start["a_attempts"]) and len(start["a_attempts"]) == 2))
        and ("fresh" not in start or type(start["fresh"]) is bool)
        and ("totals" not in start or _numbers(start["totals"]))
        and ("dealer" not in start or _is_int(start["dealer"]))
    )


def _result(result) -> bool:
    return (
        type(result) is dict
        and _known(result, _RESULT_KEYS)
        and ("totals" not in result or _numbers(result["totals"]))
        and ("levels" not in result or _levels(result["levels"]))
        and ("winner" not in result or _is_int(result["winner"]))
    )


def _ruling(ruling) -> bool:
    if type(ruling) is not dict or not _known(ruling, _RULING_KEYS):
        return False
    texts = ("at", "by", "date", "reason", "comment")
    return (
        type(ruling.get("at")) is str
        and ruling.get("decision") in DECISIONS
        and ((type(ruling.get("rule")) is str and ruling["rule"] != "") or _voids_a_deal(ruling))
        and all(type(ruling[key]) is str for key in texts if key in ruling)
        and ("result" not in ruling or _deal_result(ruling["result"]))
    )


def _voids_a_deal(ruling: dict) -> bool:
    """Whether a ruling voids a deal itself (`"at": "/deals/N"`), the one ruling without a `rule` (notation §10)."""
    return (
        "rule" not in ruling and ruling.get("decision") == "void" and DEAL_POINTER.fullmatch(ruling["at"]) is not None
    )


def _deal(deal, talon: bool, whole: bool) -> bool:
    """A deal; without `whole`, its actions and the cards of its hands and talon are left unchecked (accepts)."""
    if type(deal) is not dict or not _known(deal, _DEAL_KEYS):
        return False
    hands, actions = deal.get("hands"), deal.get("actions")
    if type(hands) is not list or (whole and not all(_cards(h) for h in hands)):
        return False
    if ("talon" in deal) is not talon or (talon and whole and not _cards(deal["talon"])):
        return False
    if "leader" in deal and not _is_int(deal["leader"]):
        return False
    if "comment" in deal and type(deal["comment"]) is not str:
        return False
    if "result" in deal and not _deal_result(deal["result"]):
        return False
    if ("commit" in deal or "reveal" in deal) and not _commitment(deal):
        return False
    if type(actions) is not list:
        return False
    if not whole:
        return True
    for action in actions:
        if type(action) is not dict:
            return False
        seat = action.get("seat")
        if type(seat) is not int or seat < 0:
            return False
        if len(action) == 2:  # the common forms: {seat, play} and {seat, pass}
            play = action.get("play")
            if play is not None:
                if not play or not _cards(play):
                    return False
                continue
            if action.get("pass") is True:
                continue
        if not action_ok(action, talon):
            return False
    return True


def _commitment(deal) -> bool:
    """`commit`, and `reveal` in the salt or the seed form (notation §11)."""
    commit, reveal = deal.get("commit"), deal.get("reveal")
    if type(commit) is not str or COMMIT.fullmatch(commit) is None:
        return False
    if reveal is None:
        return "reveal" not in deal
    if type(reveal) is not dict:
        return False
    if "salt" in reveal:
        return _known(reveal, _SALT_KEYS) and _hex(reveal["salt"], SALT)
    return (
        _known(reveal, _SEED_KEYS)
        and _hex(reveal.get("seed"), SEED)
        and reveal.get("shuffle") == "cgr-fy-sha256/1"
        and type(reveal.get("beacon", "")) is str
    )


def _hex(value, pattern) -> bool:
    return type(value) is str and pattern.fullmatch(value) is not None


def _deal_result(result) -> bool:
    return (
        type(result) is dict
        and _known(result, _DEAL_RESULT_KEYS)
        and ("order" not in result or _seats(result["order"]))
        and ("winner" not in result or _is_int(result["winner"]))
        and ("scores" not in result or _numbers(result["scores"]))
        and ("levels" not in result or _levels(result["levels"]))
        and ("tribute" not in result or type(result["tribute"]) is str)
    )


def action_ok(a: dict, no_tribute: bool) -> bool:
    """Any action: exactly one verb, and each key one of the action forms' (actions.FIELDS) with a value of its
    kind; `no_tribute`: a game without tribute, whose actions hold none of its keys (Gan Deng Yan)."""
    if sum(verb in a for verb in VERBS) != 1 or (no_tribute and not TRIBUTE_KEYS.isdisjoint(a)) or misplaced_key(a):
        return False
    for key, value in a.items():
        kind = FIELDS.get(key)
        if not (_VALUE_OF[kind](value) if kind else type(key) is str and key.startswith("x-") and _shallow(value)):
            return False
    return True


_VALUE_OF = {  # each kind of value of actions.FIELDS: whether a value is one
    "seat": _is_int,
    "count": _is_int,
    "cards": lambda value: _cards(value) and len(value) > 0,
    "card": lambda value: type(value) is str and value in CARDS,
    "true": lambda value: value is True,
    "name": lambda value: type(value) is str and value != "",
    "reading": lambda value: type(value) is str and READING.fullmatch(value) is not None,
    "time": lambda value: _is_number(value) and value >= 0,
    "text": lambda value: type(value) is str,
}
