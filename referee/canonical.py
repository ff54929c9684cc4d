"""The canonical form of a record (notation: "export is canonical"): card aliases
resolved, card lists sorted (all but the talon), preset aliases resolved, keys in
the order of notation.md, and a stable layout: one line per action and per hand.
"""

from __future__ import annotations

import functools
import hashlib
import json

import orjson

from .actions import CARD_VERBS, FIELDS, Action, Deal, card_index
from .cards import CODES, parse_card, rank_code, reading_code
from .notation import MAX_NUMBER, Plain, structure_findings
from .precheck import accepts
from .replay import game_module
from .rules import plain_rules

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from typing import Any, Final

KEY_ORDER: Final = {
    "record": ["cgr", "game", "rules", "meta", "players", "start", "deals", "result", "rulings", "comment"],
    "deal": ["hands", "talon", "leader", "actions", "result", "commit", "reveal", "comment"],
    "action": list(FIELDS),
    "ruling": ["rule", "at", "decision", "by", "date", "reason", "result", "comment"],
}
KEY_RANKS: Final = {kind: {key: rank for rank, key in enumerate(order)} for kind, order in KEY_ORDER.items()}


def _card(code: str) -> int:
    """The card of a code: a canonical one read from its characters (card_index), an alias looked up."""
    card = card_index(code)
    if card >= 0:
        return card
    alias = parse_card(code)
    if alias is None:  # the structure check lets no such record through
        raise ValueError(f"no card code: {code!r}")
    return alias


def _cards(codes: list[str]) -> list[str]:
    """Card codes in canonical spelling and order."""
    ids = [_card(code) for code in codes]
    ids.sort()
    return [CODES[card] for card in ids]


def _in_order(codes: list[str]) -> bool:
    """Whether card codes are canonical and in order already, as most plays of one or two cards are."""
    last = 0
    for code in codes:
        card = card_index(code)
        if card < last:  # -1 too: no canonical code
            return False
        last = card
    return True


def _played(codes: list[str]) -> list[str]:
    """The cards of a hand or play in canonical form: the list itself when it is already (shared, not copied)."""
    return codes if _in_order(codes) else _cards(codes)


def _ordered(obj: dict[str, Any], kind: str) -> dict[str, Any]:
    return {k: obj[k] for k in _key_order(tuple(obj), kind)}


def _in_key_order(obj: dict[str, Any], kind: str) -> dict[str, Any]:
    """The object itself when its keys are in the order of notation.md already (the others after them), else
    _ordered."""
    ranks = KEY_RANKS[kind]
    last = 0
    for key in obj:
        rank = ranks.get(key, len(ranks))
        if rank < last:
            return _ordered(obj, kind)
        last = rank
    return obj


@functools.lru_cache(maxsize=1024)
def _key_order(keys: tuple[str, ...], kind: str) -> tuple[str, ...]:
    """The keys in the order of notation.md, then the others as they came."""
    order = KEY_ORDER[kind]
    return tuple(k for k in order if k in keys) + tuple(k for k in keys if k not in order)


def canonical(
    record: dict[str, Any], preset_aliases: dict[str, str] | None = None, deals: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The canonical record; `record` must have passed the structure check. `deals`: its deals' canonical forms,
    where the caller has made them (stored_reading)."""
    out = _ordered(record, "record")
    rules = out.get("rules")
    aliases = preset_aliases or {}
    if isinstance(rules, str):
        out["rules"] = aliases.get(rules, rules)
    elif isinstance(rules, dict) and "preset" in rules:
        out["rules"] = dict(rules, preset=aliases.get(rules["preset"], rules["preset"]))
    _levels(out, "start")
    out["deals"] = [_deal(d) for d in record["deals"]] if deals is None else deals
    _levels(out, "result")
    if "rulings" in out:
        out["rulings"] = [_ruling(r) for r in record["rulings"]]
    return out


def _ruling(ruling: dict[str, Any]) -> dict[str, Any]:
    out = _ordered(ruling, "ruling")
    _levels(out, "result")
    return out


def stored_form(record: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(id, form) of a record that passed the structure check, as the record store keeps it: the
    canonical form with its numbers and rules written one way, and the SHA-256 of its compact,
    key-sorted JSON as its id, so one match has one id."""
    digest, form, _ = _stored(record)
    return digest, form


def stored_reading(record: dict[str, Any], plain: Plain) -> tuple[str, dict[str, Any], Plain | None]:
    """stored_form of a plain record that notation.plain_read read as `plain`, and the form's own plain reading:
    what plain_read(form) reads (tests/test_store_reading.py). The record and its reading are made the form and the
    form's reading in place, which the caller lets go of as they are (the record's deals, hands and plays put in
    canonical order, its cards' order known from the cards read): no deal or action is made again but those the form
    changes, and nothing is read again. None in place of the reading where the form differs otherwise (whole
    numbers made ints, a reading's alias resolved): the check then reads the form itself."""
    made = plain.deals is not None and _deals_made(record["deals"], plain.deals)
    digest, form, whole = _stored(record, record["deals"] if made else None)
    if whole or not made or not accepts(form, actions=False):  # its seats and numbers are the record's
        return digest, form, None
    return digest, form, plain


def _stored(record: dict[str, Any], deals: list[dict[str, Any]] | None = None) -> tuple[str, dict[str, Any], bool]:
    """(id, form) of stored_form, its deals' forms `deals` where they are made already, and whether the form was
    made again with its whole numbers as ints."""
    game = game_module(record["game"])
    aliases = game.PRESET_ALIASES if game else None
    form = canonical(_one_way(record, game, False), aliases, deals)
    text = orjson.dumps(form, option=orjson.OPT_SORT_KEYS)
    whole = _may_hold_floats(text)
    if whole:  # rare: made again with its whole numbers as ints
        form = canonical(_one_way(record, game, True), aliases)
        text = orjson.dumps(form, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(text).hexdigest(), form, whole


def _deals_made(deals: list[dict[str, Any]], read: list[Deal]) -> bool:
    """A plain record's deals made their canonical forms (_deal) in place, and their readings `read` the forms'
    readings; False where an action's form differs from the action otherwise than in its keys' and cards' order
    (the deals then half made: canonical() makes their forms from them as from the record)."""
    for i in range(len(deals)):
        deal, reading = deals[i], read[i]
        if not _actions_made(deal["actions"], reading.actions):
            return False
        _hands_made(deal["hands"], reading.hands)  # their codes canonical, and so are the talon's (plain_read)
        form = deals[i] = _in_key_order(deal, "deal")
        _levels(form, "result")
        reading.result = form.get("result")
    return True


def _hands_made(hands: list[list[str]], read: list[list[int]]) -> None:
    """Hands of canonical codes read as `read` put in canonical order (_played), with their readings."""
    for i in range(len(hands)):
        cards = read[i]
        if not _ascending(tuple(cards)):
            cards.sort()
            hands[i] = [CODES[card] for card in cards]


def _actions_made(raws: list[Any], read: list[Action]) -> bool:
    """A plain deal's actions made their canonical forms (_action) in place, and their readings `read` the forms':
    the common actions' cards put in order known from the cards read; False where an action's form differs
    otherwise than in its keys' and cards' order."""
    for i in range(len(raws)):
        raw: dict[str, Any] = raws[i]
        reading = read[i]
        verb = reading.verb
        if len(raw) == 2 and (verb == "pass" or verb == "play") and _first_key(raw) == "seat":  # as _action
            if verb == "play" and not _ascending(reading.cards):
                cards = tuple(sorted(reading.cards))
                raw["play"] = [CODES[card] for card in cards]
                read[i] = _sorted_play(reading, cards)
            continue
        action = _action(raw)
        if action is raw:
            continue
        raws[i] = action
        if "play" in action and action["play"] is not raw["play"] and dict(raw, play=action["play"]) == action:
            read[i] = _sorted_play(reading, tuple(sorted(reading.cards)))
        elif action != raw:
            return False
    return True


def _ascending(cards: tuple[int, ...]) -> bool:
    """Whether cards (a hand's, a play's) are in canonical order (_in_order); a tuple, which compiled code reads
    without an iterator (a play's reading holds one)."""
    last = 0
    for card in cards:
        if card < last:
            return False
        last = card
    return True


def _sorted_play(reading: Action, cards: tuple[int, ...]) -> Action:
    """The reading of a play whose cards the canonical form sorted (`cards`)."""
    return Action(
        reading.index,
        reading.seat,
        reading.verb,
        cards,
        reading.card,
        reading.declare,
        reading.as_,
        reading.to,
        reading.count,
    )


def record_id(record: Any) -> str:
    """The id the record store gives a record; for one that is no CGR/1 record (the store refuses
    it), the SHA-256 of its key-sorted JSON as read."""
    if structure_findings(record):
        return hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    return stored_form(record)[0]


def _one_way(record: dict[str, Any], game: Any, whole: bool) -> dict[str, Any]:
    """The record with its rules in their shortest form ("official", {"preset": "official"}, none and
    the preset's own option values are one), and, if `whole`, whole numbers as ints (`1.0` is 1), so
    one match has one id. The rules' option values are left as written: the check reads 10.0 there
    as a value the option does not take."""
    rules = record.get("rules")
    out = {key: value for key, value in record.items() if key != "rules"}
    out = whole_numbers(out, MAX_NUMBER) if whole else out
    rules = plain_rules(game, rules) if game else rules
    return out if rules is None else dict(out, rules=rules)


def _may_hold_floats(text: bytes) -> bool:
    """Whether orjson's `text` may hold a float: it writes every float with a `.` or an `e+`/`e-` after
    a digit (a string holding one only costs the canonical form made again)."""
    return _after_digit(text, b".", False) or _after_digit(text, b"+", True) or _after_digit(text, b"-", True)


def _after_digit(text: bytes, mark: bytes, exponent: bool) -> bool:
    """Whether the byte `mark` follows a digit in `text` (`exponent`: with an `e` between them). One rare
    byte is looked for, which C finds several times faster than a pair of them."""
    at = text.find(mark)
    while at >= 0:
        digit = at - 2 if exponent else at - 1
        if digit >= 0 and text[digit] in DIGITS and (not exponent or text[at - 1] == EXPONENT):
            return True
        at = text.find(mark, at + 1)
    return False


DIGITS: Final = b"0123456789"
EXPONENT: Final = ord("e")


def whole_numbers(value: Any, limit: int) -> Any:
    """`value` with every whole number written as a decimal (`1.0`, `10.0`) made an int, as JSON
    means it; numbers beyond `limit` stay as they are (the check finds them)."""
    if isinstance(value, dict):
        return {key: whole_numbers(item, limit) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers(item, limit) for item in value]
    if isinstance(value, float) and value.is_integer() and abs(value) <= limit:
        return int(value)
    return value


def _levels(out: dict[str, Any], key: str) -> None:
    """Canonical rank codes in `out[key]["levels"]`, where there are any."""
    if key in out and "levels" in out[key]:
        out[key] = dict(out[key], levels=[rank_code(v) for v in out[key]["levels"]])


def _deal(deal: dict[str, Any]) -> dict[str, Any]:
    return _deal_of(deal, [_played(h) for h in deal["hands"]], [_action(a) for a in deal["actions"]])


def _deal_of(deal: dict[str, Any], hands: list[list[str]], actions: list[Any]) -> dict[str, Any]:
    """The canonical deal, with its canonical hands and actions."""
    out = _ordered(deal, "deal")
    out["hands"] = hands
    if "talon" in out:
        out["talon"] = [CODES[_card(code)] for code in deal["talon"]]  # in the order dealt
    out["actions"] = actions
    _levels(out, "result")
    return out


def _action(action: dict[str, Any]) -> dict[str, Any]:
    if len(action) == 2 and _first_key(action) == "seat":  # the most common actions: canonical when their cards are
        if "pass" in action:
            return action
        if "play" in action:
            play = action["play"]
            return action if _in_order(play) else {"seat": action["seat"], "play": _cards(play)}
    out = _in_key_order(action, "action")
    if "play" in out:
        out = _with(out, action, "play", _played(out["play"]))
    for verb in CARD_VERBS:
        if verb in out:
            out = _with(out, action, verb, CODES[_card(out[verb])])
    if "as" in out:
        out = _with(out, action, "as", reading_code(out["as"]))
    return out


def _with(out: dict[str, Any], action: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """`out` (an action's form) with `value` at `key`: the action itself where it holds that value already, a copy
    where the action would change (the action is left as it is)."""
    if out[key] == value:
        return out
    if out is action:
        out = dict(action)
    out[key] = value
    return out


def _first_key(obj: dict[str, Any]) -> str:
    for key in obj:
        return key
    return ""


def dumps(value: Any, indent: int = 0) -> str:
    """Stable layout: flat lists and flat objects on one line, the rest one item per line."""
    if _flat(value):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, indent + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    items = [inner + dumps(v, indent + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + pad + "]"


def _flat(value: Any) -> bool:
    if isinstance(value, list):
        return all(not isinstance(v, (list, dict)) for v in value)
    if isinstance(value, dict):
        return all(not isinstance(v, dict) and (not isinstance(v, list) or _flat(v)) for v in value.values())
    return True
