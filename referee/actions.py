"""The action forms, and a record's deals and actions as the replay reads them.

FIELDS is the one table of what an action may hold (notation §5): its verbs, one of which it holds, and
every key, with the kind of value it takes. The pre-check (precheck.py), the reading of actions
(notation.py), the seat and number findings and the canonical form (canonical.py) read it;
tests/test_precheck.py holds the schema (schema/cgr1.schema.json) to it. The common forms, `{seat, pass}`,
`{seat, play}`, `{seat, play, as}`, `{seat, declare}`, `{seat, tribute}` and `{seat, return}`, are read
here once per action of every record checked.

Typed for mypyc: where a C compiler is, the set-up compiles this module and the rules modules
(docs/internals.md, "Two builds"); the pure-Python build reads the same.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import orjson

from .cards import CODES, reading_code
from .marks import mypyc_attr

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from typing import Any, Final

    from mypy_extensions import i64  # a native 64-bit int where mypyc compiles the module

    from .replay import Context


VERBS: Final = ("play", "pass", "tribute", "return", "declare")  # an action holds exactly one
# Every key of an action, in the order of notation.md (the canonical form's), and the kind of its value:
# seat (a whole number, a seat at the table), cards (a non-empty list of card codes), card (one code), true,
# name (a non-empty string), reading (TYPE:RANK), count (a whole number), time (a number), text (any string).
FIELDS: Final = {
    "seat": "seat",
    "play": "cards",
    "pass": "true",
    "tribute": "card",
    "return": "card",
    "declare": "name",
    "as": "reading",
    "to": "seat",
    "count": "count",
    "t": "time",
    "comment": "text",
}
# A new key or verb is added here (and to the schema, which tests/test_precheck.py holds to this table); the
# words for it are the ruling's (ruling.action_line) and the viewer's (api/web/viewer.js), its meaning the games'.
TRIBUTE_KEYS: Final = frozenset(("tribute", "return", "to"))  # only in games with tribute (not Gan Deng Yan)
CARD_VERBS: Final = tuple(key for key in VERBS if FIELDS[key] == "card")
NAMED_SEATS: Final = tuple(key for key, kind in FIELDS.items() if kind == "seat" and key != "seat")  # `to`
NUMBER_KEYS: Final = tuple(key for key, kind in FIELDS.items() if kind in ("count", "time"))
READING: Final = re.compile(r"[a-z_]+:[0-9A-Za-z]+")  # full match: no trailing newline, unlike `$`
MAX_NUMBER: Final = 10**12  # no count, time, score or total in a record comes near; sums stay in 64 bits

CANONICAL: Final[dict[str, int]] = {code: card for card, code in enumerate(CODES)}
_NO_CARD: Final = 255


def misplaced_key(action: dict[str, Any]) -> bool:
    """Whether an action holds a key of another kind of action (notation §5, notation.key.verb): `as` says what a
    play stands for, `to` where a tribute or return goes, `count` how many cards a report counts."""
    return (
        ("as" in action and "play" not in action)
        or ("to" in action and "tribute" not in action and "return" not in action)
        or ("count" in action and action.get("declare") != "report")
    )


def _by_chars() -> bytes:
    """A canonical code's card, by its two ASCII characters (7 bits each): bytes, which compiled code reads as
    ints."""
    table = bytearray([_NO_CARD]) * (1 << 14)
    for card, code in enumerate(CODES):
        table[ord(code[0]) << 7 | ord(code[1])] = card
    return bytes(table)


_BY_CHARS: Final = _by_chars()


def card_index(code: object) -> i64:
    """CANONICAL.get(code, -1), read from the code's two characters: a record's codes are new strings, which a
    dictionary would hash first."""
    if type(code) is not str or len(code) != 2:
        return -1
    text: str = code
    first: i64 = ord(text[0])
    second: i64 = ord(text[1])
    if (first | second) >= 128:
        return -1
    card: i64 = _BY_CHARS[first << 7 | second]
    if card == _NO_CARD:
        return -1
    return card


def _not_canonical(code: object) -> i64:
    """What a list of canonical card codes says of one that is none (cards_of, _play): a KeyError."""
    raise KeyError(code)


def cards_of(codes: list[Any]) -> list[int]:
    """The cards of canonical card codes; a KeyError at the first that is none, a TypeError for what is no list
    (said here, as the compiled build's argument check says it: the pure-Python build would read a string's
    characters). Each code read by one call (card_index)."""
    if type(codes) is not list:
        raise TypeError(codes)
    return [card if (card := card_index(code)) >= 0 else _not_canonical(code) for code in codes]


@mypyc_attr(acyclic=True)  # it holds no object that could refer back to it: freed without the cycle collector
class Action:
    """One action, cards already read: `cards` for play, `card` for tribute/return."""

    __slots__ = ("index", "seat", "verb", "cards", "card", "declare", "as_", "to", "count")

    def __init__(
        self,
        index: int,
        seat: int,
        verb: str,
        cards: tuple[int, ...] = (),
        card: int = -1,
        declare: str | None = None,
        as_: str | None = None,
        to: int | None = None,
        count: int | None = None,
    ):
        self.index, self.seat, self.verb, self.cards, self.card = index, seat, verb, cards, card
        self.declare, self.as_, self.to, self.count = declare, as_, to, count

    def fields(self) -> tuple[object, ...]:
        return self.index, self.seat, self.verb, self.cards, self.card, self.declare, self.as_, self.to, self.count

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self.fields() == other.fields()

    def __repr__(self) -> str:
        return f"Action{self.fields()}"


_UNREAD: Final = Action(-1, -1, "pass")  # what a list of a deal's actions holds in a place not read yet


class Deal:
    __slots__ = ("index", "hands", "talon", "leader", "actions", "result")

    def __init__(
        self,
        index: int,
        hands: list[list[int]],
        talon: list[int] | None,
        leader: int | None,
        actions: list[Action],
        result: dict[str, Any] | None,
    ):
        self.index, self.hands, self.talon, self.leader, self.actions, self.result = (
            index,
            hands,
            talon,
            leader,
            actions,
            result,
        )

    def fields(self) -> tuple[object, ...]:
        return self.index, self.hands, self.talon, self.leader, self.actions, self.result

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deal) and self.fields() == other.fields()

    def __repr__(self) -> str:
        return f"Deal{self.fields()}"


_READINGS: Final[dict[str, str]] = {}  # the `as` readings (notation §5) met, as written -> as read


def _reading(text: object) -> str | None:
    """An `as` reading with its aliases resolved; None for what is not one."""
    found = _READINGS.get(text) if type(text) is str else None
    if found is None and type(text) is str and READING.fullmatch(text):
        if len(_READINGS) >= 10_000:
            _READINGS.clear()
        found = _READINGS[text] = reading_code(text)
    return found


def plain_deals(
    raws: list[Any], seats: int, talon: bool, other: Callable[[int, int, object], tuple[Action, int]]
) -> tuple[list[Deal], int]:
    """The deals of a plain record (notation.plain_read), and the colons of their actions' JSON written compactly:
    their hands and talons of canonical card codes (a KeyError or a TypeError at any other), their actions read by
    plain_actions. `talon`: whether the game deals a talon (Gan Deng Yan, which has no tribute)."""
    deals: list[Deal] = []
    colons = 0
    for d, raw in enumerate(raws):
        actions, counted = plain_actions(d, raw["actions"], seats, not talon, other)
        hands = [cards_of(hand) for hand in raw["hands"]]
        dealt = cards_of(raw["talon"]) if talon else None
        deals.append(Deal(d, hands, dealt, raw.get("leader"), actions, raw.get("result")))
        colons += counted
    return deals, colons


def plain_actions(
    deal: int, raws: list[Any], seats: int, tribute: bool, other: Callable[[int, int, object], tuple[Action, int]]
) -> tuple[list[Action], int]:
    """The actions of a plain record's deal, and the colons of their JSON written compactly (for
    notation.duplicate_key_findings): the common forms read here, any other by `other(deal, index, raw)`, which
    gives (the action, its colons) and raises when the action is not plain. A KeyError: a card code that is not
    canonical. `tribute`: whether the game has tribute and return actions."""
    out: list[Action] = [_UNREAD] * len(raws)  # each place then taken by its action: no list grown by appends
    colons = 0
    for index, raw in enumerate(raws):
        action = _common(index, raw, seats, tribute) if type(raw) is dict else None
        if action is None:
            action, counted = other(deal, index, raw)
            colons += counted
        else:  # its keys, and the colons in its strings: a reading's one (TYPE:RANK) and a declaration's (card
            # codes read as canonical hold none)
            colons += len(raw)
            if action.as_ is not None:
                colons += 1
            elif action.declare is not None:
                colons += action.declare.count(":")
        out[index] = action
    return out, colons


def _parsed_key(name: str) -> str:
    """The key `name` as orjson hands it out: its parser keeps one string object for each short key it reads (its
    key cache), and a dictionary finds the very object it holds without comparing the characters (a string of the
    same characters that is another object is found too, a comparison later)."""
    key: str = next(iter(orjson.loads(orjson.dumps({name: 0}))))
    return key


_SEAT: Final = _parsed_key("seat")
_PASS: Final = _parsed_key("pass")
_PLAY: Final = _parsed_key("play")
_AS: Final = _parsed_key("as")
_DECLARE: Final = _parsed_key("declare")
_COUNT: Final = _parsed_key("count")
_TO: Final = _parsed_key("to")
_CARD_KEYS: Final = tuple((verb, _parsed_key(verb)) for verb in CARD_VERBS)


def _common(index: int, raw: dict[str, Any], seats: int, tribute: bool) -> Action | None:
    """An action of two keys, a play with its reading, a report with its count or a card with the seat it goes
    to, with its seat at the table; None for any other. The forms are tried in the order they are most often
    met: a pass, a play, the rest."""
    size = len(raw)
    if size != 2 and size != 3:
        return None
    seat = raw.get(_SEAT)
    if type(seat) is not int or not 0 <= seat < seats:
        return None
    at: int = seat
    if size == 2 and raw.get(_PASS) is True:
        if at < _SEATS_KEPT and index < _PASSES_KEPT:
            kept = _PASSES[at * _PASSES_KEPT + index]
            if kept is not None:
                return kept
        return _pass(index, at)
    play = raw.get(_PLAY)
    if play is not None:
        return _play(index, at, play, _reading(raw.get(_AS)) if size == 3 else None, size)
    declared = raw.get(_DECLARE)
    if declared is not None:
        return _declaration(index, at, declared, raw.get(_COUNT) if size == 3 else None, size)
    if not tribute:
        return None
    to = raw.get(_TO) if size == 3 else None
    for verb, key in _CARD_KEYS:
        code = raw.get(key)
        if code is not None:
            return _tribute_or_return(index, at, verb, code, to, size, seats)
    return None


# A pass is the same action wherever it stands, and passes are more than half of all actions: the pass of seat s
# as a deal's action i is made once, kept in _PASSES, and is that action in every deal read (an Action is never
# changed once read). Kept for the first seats and actions of a deal; made anew past them.
_SEATS_KEPT: Final = 8
_PASSES_KEPT: Final = 1024
_PASSES: Final[list[Action | None]] = [None] * (_SEATS_KEPT * _PASSES_KEPT)


def _pass(index: int, seat: int) -> Action:
    if seat >= _SEATS_KEPT or index >= _PASSES_KEPT:
        return Action(index, seat, "pass")
    at = seat * _PASSES_KEPT + index
    kept = _PASSES[at]
    if kept is None:
        kept = _PASSES[at] = Action(index, seat, "pass")
    return kept


def _play(index: int, seat: int, play: Any, reading: str | None, size: int) -> Action | None:
    if type(play) is not list or not play or (size == 3 and reading is None):
        return None
    codes: list[Any] = play
    cards = tuple(card if (card := card_index(code)) >= 0 else _not_canonical(code) for code in codes)
    return Action(index, seat, "play", cards, as_=reading)


def _declaration(index: int, seat: int, name: Any, count: Any, size: int) -> Action | None:
    if type(name) is not str or not name:
        return None
    if size == 2:
        return Action(index, seat, "declare", declare=name)
    if name != "report" or type(count) is not int or not 0 <= count <= MAX_NUMBER:
        return None
    counted: int = count
    return Action(index, seat, "declare", declare=name, count=counted)


def _tribute_or_return(index: int, seat: int, verb: str, code: Any, to: Any, size: int, seats: int) -> Action | None:
    """A tribute or a return, the seat it goes to (`to`) at the table."""
    card = card_index(code)
    if card < 0:
        return None
    if size == 2:
        return Action(index, seat, verb, card=card)
    if type(to) is not int or not 0 <= to < seats:
        return None
    given: int = to
    return Action(index, seat, verb, card=card, to=given)


@mypyc_attr(allow_interpreted_subclasses=True)  # a game not compiled yet works too, its `take` called as Python
class DealPlay:
    """A deal as its game plays it, the half of the game contract (game.py) the replay's loop drives: each game's
    `start_deal` makes one (its DealState derives from this class), and `applied` takes the deal's actions through
    it knowing no game. Compiled, the loop reads `over` from the object and calls `take` through the class's table
    of methods, as native code: the games' own classes are compiled with this one (setup.py builds one group)."""

    __slots__ = ()  # the state is the game's: its class holds it (Gou Ji's in slots)
    over: bool  # the deal has ended: no action may follow

    def take(self, ctx: Context, action: Action) -> None:
        """Takes one action (the game's `apply`); raises StopDeal for one that breaks a rule, before any change."""
        raise NotImplementedError


def applied(
    ctx: Context,
    state: DealPlay,
    actions: list[Action],
    observe: Callable[[int, int, Any], object] | None,
    deal: int,
) -> int:
    """The replay's hot loop (replay._replay_deal): `state.take(ctx, action)` for each action in turn, and
    `observe(deal, action index, state)` after each; the number taken when the deal was over before the next
    one. An exception of `take` (StopDeal) goes on with the action it was raised for as `action`."""
    for done, action in enumerate(actions):
        if state.over:
            return done
        try:
            state.take(ctx, action)
        except Exception as stop:
            stop.action = action  # type: ignore[attr-defined]
            raise
        if observe is not None:
            observe(deal, action.index, state)
    return len(actions)
