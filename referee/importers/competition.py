"""Captures of the Guandan AI competition WebSocket protocol, as CGR/1 Guandan records.

The protocol's facts: docs/formats/competition-protocol.md. A capture is JSON Lines,
each line a server message, bare or as {"seat": k, "msg": {...}} (with an optional "dir").
Notifications reach every client, so a merged capture holds each one once per seat, in a
row: one copy is kept. Requests (`act`) and client answers carry nothing a notification
does not, and are skipped: that also skips the stale `greaterPos`/`greaterAction` a
deal's first request can carry. The lead is taken from the `notify`/`play` messages.

What the platform announces is written as claims, for the referee to check: the
finishing order (`episodeOver`), the levels after a deal (the next deal's `beginning`),
an anti-tribute (`result.tribute` `resisted`) and the match winner (`victoryNum`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from .. import guandan
from ..messages import Listing, Msg, msg, word
from . import Imported, Problem

NAME = "competition"
GAME = "guandan"
SUMMARY = word("captures of the Guandan AI competition WebSocket protocol (JSON Lines, plain or gzip)")
# The platform's rules (the format page, "Rules the platform plays") as options of the
# Guandan rules page §9: returns of face value ten or lower and never a level card; equal
# double tributes allocated freely; teams failing at A sent back to 2 (engines count the
# failures differently: `--rules` sets another a_fail_rule). The protocol has no message to
# report a hand's size, so no report is expected (`report_at` null).
DEFAULT_RULES = {
    "preset": "official",
    "options": {
        "return_excludes_level": True,
        "equal_double_tribute": "free",
        "a_fail_rule": "three_to_two",
        "report_at": None,
    },
}

SEATS = 4
RANKS = "23456789TJQKA"
SUITS = "SHDC"
JOKERS = {"SB": "BJ", "HR": "RJ"}
JOKER_RANKS = {"B": "BJ", "R": "RJ", "SB": "BJ", "HR": "RJ"}
# protocol type -> (CGR/1 type, how far the top rank of a run lies above its lowest)
TYPES = {
    "Single": ("single", None),
    "Pair": ("pair", None),
    "Trips": ("triple", None),
    "ThreeWithTwo": ("full_house", None),
    "Bomb": ("bomb", None),
    "FourKings": ("joker_bomb", None),
    "Straight": ("straight", 4),
    "StraightFlush": ("straight_flush", 4),
    "ThreePair": ("tube", 2),
    "TwoTrips": ("plate", 1),
}
PASS = ["PASS", "PASS", "PASS"]
NOTIFY_STAGES = {"beginning", "play", "tribute", "back", "anti-tribute", "episodeOver", "gameOver", "gameResult"}
ACT_STAGES = {"play", "tribute", "back"}


class Unconvertible(Exception):
    """A message that cannot be written as CGR/1."""


@dataclass
class Deal:
    first_line: int
    hands: dict = field(default_factory=dict)  # seat -> CGR/1 cards as dealt
    level: str = ""  # curRank ("": no beginning message yet; every hand has one)
    levels: list = field(default_factory=list)  # [team0, team1] before the deal
    actions: list = field(default_factory=list)
    tributes: list = field(default_factory=list)  # (from, to, card)
    anti_seats: list | None = None  # antiPos of an anti-tribute
    leader: int | None = None
    order: list | None = None  # episodeOver: the deal is complete
    claimed_levels: list | None = None  # the next deal's levels
    problem: Problem | None = None
    progressed: bool = False  # a message other than `beginning` has come
    last_line: int = 0


@dataclass
class MatchEnd:
    victories: list | None  # victoryNum per seat, when given
    problem: Problem | None = None  # a victoryNum that could not be read


def convert(lines, source: str, per: str, rules):
    """Imported records and Problems of one capture (see the package's docstring)."""
    yield from _records(_deals(lines, source), source, per, rules)


# ---------------------------------------------------------------- messages -> deals


def _deals(lines, source):
    """Deal, MatchEnd and Problem items, in the capture's order."""
    deal, seen = None, False
    copies = _Copies()
    for item in lines:
        if isinstance(item, Problem):
            if deal is not None and deal.problem is None:
                deal.problem = item
            yield item
            continue
        number, text = item
        if not text.strip():
            continue
        try:
            seat, message = _unwrap(text)
            if message is None or not copies.first(seat, message):
                continue
            stage = message["stage"]
            if stage in ("gameOver", "gameResult"):
                if deal is not None:
                    yield from _finished(deal, source)
                deal = None
                yield _match_end(message, source, number)
                continue
            if stage == "beginning" and (deal is None or deal.progressed or _text(message.get("myPos")) in deal.hands):
                if deal is not None:
                    yield from _finished(deal, source)
                deal, seen = Deal(number), True
            elif deal is None:
                deal, seen = Deal(number, progressed=True), True
                raise Unconvertible(msg("the capture begins inside a deal: no beginning message before this line"))
            deal.last_line = number
            deal.progressed |= stage != "beginning"
            if deal.problem is None:
                _apply(deal, seat, message)
            elif stage == "episodeOver":
                deal.order = _seats(message.get("order"), "order")
        except Unconvertible as exc:
            problem = Problem(source, number, exc.args[0])
            if deal is None:
                yield problem
            elif deal.problem is None:
                deal.problem = problem
                yield problem
    if deal is not None:
        yield from _finished(deal, source)
    elif not seen:
        yield Problem(source, None, msg("the capture holds no deal (no beginning message)"))


def _finished(deal: Deal, source):
    """The deal, after a Problem when a seat's hand never came."""
    if deal.problem is None and len(deal.hands) < SEATS:
        deal.problem = Problem(source, deal.first_line, _missing_hands(deal))
        yield deal.problem
    yield deal


def _match_end(message, source, number):
    try:
        return MatchEnd(_victories(message))
    except Unconvertible as exc:
        return MatchEnd(None, Problem(source, number, exc.args[0]))


class _Copies:
    """Recognises the copies of one notification sent to several seats (format page)."""

    def __init__(self):
        self.message, self.seats = None, set()

    def first(self, seat, message) -> bool:
        if message.get("type") != "notify":
            return True
        if message == self.message and (seat is None or seat not in self.seats):
            self.seats.add(seat)
            return False
        self.message, self.seats = message, {seat}
        return True


def _unwrap(text):
    """(receiving seat or None, the server message) of a line; (None, None) to skip it."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise Unconvertible(msg("the line is not JSON: {problem}", problem=str(exc))) from None
    if not isinstance(value, dict):
        raise Unconvertible(
            msg("a line must be a JSON object: a message or {example}", example='{"seat": k, "msg": {...}}')
        )
    seat = None
    if "msg" in value:
        unknown = set(value) - {"seat", "msg", "dir"}
        if unknown:
            raise Unconvertible(msg('unknown key {key!r} beside "msg"', key=sorted(unknown)[0]))
        if value.get("dir") == "c2s":
            return None, None
        if value.get("dir", "s2c") != "s2c":
            raise Unconvertible(msg('"dir" is "s2c" or "c2s", not {value!r}', value=value["dir"]))
        seat = _seat(value.get("seat"), "seat")
        value = value["msg"]
        if not isinstance(value, dict):
            raise Unconvertible(msg('"msg" must be a JSON object'))
    if set(value) == {"actIndex"}:
        return None, None  # a client's answer to a request
    kind, stage = _text(value.get("type")), _text(value.get("stage"))
    if kind == "act" and stage in ACT_STAGES:
        return None, None
    if kind != "notify" or stage not in NOTIFY_STAGES:
        raise Unconvertible(msg("unknown message: type {type!r}, stage {stage!r}", type=kind, stage=stage))
    return seat, value


def _apply(deal: Deal, seat, message):
    stage = message["stage"]
    if stage == "beginning":
        return _beginning(deal, seat, message)
    if len(deal.hands) < SEATS:
        raise Unconvertible(_missing_hands(deal))
    if stage == "play":
        _play(deal, message)
    elif stage in ("tribute", "back"):
        verb = "tribute" if stage == "tribute" else "return"
        for giver, receiver, card in _transfers(message.get("result")):
            deal.actions.append({"seat": giver, verb: card, "to": receiver})
            if verb == "tribute":
                deal.tributes.append((giver, receiver, card))
    elif stage == "anti-tribute":  # antiNum (antiNums in some engines) counts antiPos
        deal.anti_seats = _seats(message.get("antiPos"), "antiPos")
    else:  # episodeOver; restCards: what the referee computes
        deal.order = _seats(message.get("order"), "order")


def _beginning(deal: Deal, seat, message):
    pos = _seat(message.get("myPos"), "myPos")
    if seat is not None and seat != pos:
        raise Unconvertible(
            msg(
                "a beginning message for seat {seat} was captured as received by seat {receiver}",
                seat=pos,
                receiver=seat,
            )
        )
    cards = message.get("handCards")
    if not isinstance(cards, list):
        raise Unconvertible(msg("handCards must be a list of cards"))
    level = _rank(message.get("curRank"), "curRank")
    own, other = _rank(message.get("selfRank"), "selfRank"), _rank(message.get("oppoRank"), "oppoRank")
    levels = [own, other] if pos % 2 == 0 else [other, own]
    if deal.level and (level, levels) != (deal.level, deal.levels):
        raise Unconvertible(
            msg(
                "seat {seat}'s beginning gives level {level} and levels {levels}; "
                "an earlier one gave {earlier_level} and {earlier_levels}",
                seat=pos,
                level=level,
                levels=str(levels),
                earlier_level=deal.level,
                earlier_levels=str(deal.levels),
            )
        )
    deal.level, deal.levels = level, levels
    deal.hands[pos] = [_card(c) for c in cards]


def _missing_hands(deal: Deal) -> Msg:
    return msg(
        "the deal that begins at line {line} has no beginning message (the dealt hand) for seat(s) {seats}",
        line=deal.first_line,
        seats=Listing([s for s in range(SEATS) if s not in deal.hands]),
    )


def _play(deal: Deal, message):
    seat = _seat(message.get("curPos"), "curPos")
    action = message.get("curAction")
    if deal.leader is None:
        deal.leader = seat
    if action == PASS:
        deal.actions.append({"seat": seat, "pass": True})
        return
    if not (isinstance(action, list) and len(action) == 3 and isinstance(action[2], list)):
        raise Unconvertible(msg('curAction must be [type, rank, cards] or ["PASS", "PASS", "PASS"]'))
    kind, rank, cards = action
    deal.actions.append({"seat": seat, "play": [_card(c) for c in cards], "as": _reading(kind, rank)})


def _reading(kind, rank) -> str:
    """CGR/1 `as` of a platform [type, rank]: runs are named by their top rank (notation §5)."""
    kind, rank = _text(kind), _text(rank)
    if kind not in TYPES:
        raise Unconvertible(msg("unknown action type {type!r}; known: {known}", type=kind, known=Listing(TYPES)))
    name, span = TYPES[kind]
    if name == "joker_bomb" or (name == "bomb" and rank == "JOKER"):  # the older servers' four jokers
        return "joker_bomb:RJ"
    if name in ("single", "pair") and rank in JOKER_RANKS:
        return f"{name}:{JOKER_RANKS[rank]}"
    code = _rank(rank, msg("the action's rank"))
    if span is None:
        return f"{name}:{code}"
    lowest = 1 if code == "A" else RANKS.index(code) + 2  # natural positions: A-low is 1
    top = lowest + span
    if top > 14:
        raise Unconvertible(msg("a {type} from {rank} would run past the ace", type=kind, rank=code))
    return f"{name}:{RANKS[top - 2]}"


def _transfers(result):
    if not isinstance(result, list) or not all(isinstance(t, list) and len(t) == 3 for t in result):
        raise Unconvertible(msg("result must be a list of [from, to, card]"))
    return [(_seat(a, "from"), _seat(b, "to"), _card(c)) for a, b, c in result]


def _victories(message):
    if "victoryNum" not in message:
        return None
    wins = message["victoryNum"]
    if not (isinstance(wins, list) and len(wins) == SEATS):
        raise Unconvertible(msg("victoryNum must list one count per seat"))
    return [_natural(n, "victoryNum") for n in wins]


def _text(value):
    """The value where it is a string or an int (to look it up in a table), else None."""
    return value if isinstance(value, (str, int)) else None


def _card(code) -> str:
    """CGR/1 code of a platform card: suit first there, rank first here."""
    if _text(code) in JOKERS:
        return JOKERS[code]
    if isinstance(code, str) and len(code) == 2 and code[0] in SUITS and code[1] in RANKS:
        return code[1] + code[0]
    raise Unconvertible(msg("unknown card {code!r}", code=code))


def _rank(code, what) -> str:
    """A rank in either spelling the format page names: a letter, or a number 2-14 (open engines)."""
    if isinstance(code, str) and len(code) == 1 and code in RANKS:
        return code
    if type(code) is int and 2 <= code <= 14:
        return RANKS[code - 2]
    raise Unconvertible(
        msg("{what} must be a rank 2-9, T, J, Q, K or A, or a number 2-14, not {code!r}", what=what, code=code)
    )


def _seat(value, what) -> int:
    if type(value) is int and 0 <= value < SEATS:
        return value
    raise Unconvertible(msg("{what} must be a seat 0-3, not {value!r}", what=what, value=value))


def _seats(value, what) -> list:
    if not isinstance(value, list) or len(value) > SEATS:
        raise Unconvertible(msg("{what} must be a list of seats", what=what))
    return [_seat(s, what) for s in value]


def _natural(value, what) -> int:
    if type(value) is int and value >= 0:
        return value
    raise Unconvertible(msg("{what} must be a whole number, not {value!r}", what=what, value=value))


# ---------------------------------------------------------------- deals -> records


class _Run:
    """Consecutive converted deals of one match that become one record."""

    def __init__(self, first: Deal, previous: Deal | None):
        self.deals, self.previous = [first], previous
        self.winner = None

    def record(self, rules, where: str) -> dict:
        first = self.deals[0]
        record = {
            "cgr": 1,
            "game": GAME,
            "rules": rules,
            "meta": {"source": f"competition capture {where}"},
            "players": [f"seat {s}" for s in range(SEATS)],
        }
        start = _start(first, self.previous)
        if start:
            record["start"] = start
        record["deals"] = [_deal(d, d is first and "previous_order" not in start) for d in self.deals]
        if self.winner is not None:
            record["result"] = {"winner": self.winner}
        return record


def _records(items, source, per, rules):
    run, previous, last, victories, ended = None, None, None, [0] * SEATS, False
    for item in items:
        if isinstance(item, Problem):
            yield item
            continue
        if isinstance(item, MatchEnd):
            if item.problem is not None:
                yield item.problem
            if item.victories is not None:
                winner = _winner(victories, item.victories)
                victories = item.victories
                if run is not None and run.deals[-1] is last and winner is not None:
                    run.winner = winner
            previous, ended = None, True
            continue
        deal = item
        if previous is not None and previous.order is not None and deal.levels:
            previous.claimed_levels = deal.levels
        if run is not None and (ended or deal.problem or per == "deal" or run.deals[-1].order is None):
            yield _imported(run, source, rules)
            run = None
        ended = False
        if deal.problem is None:
            if run is None:
                run = _Run(deal, previous)
            else:
                run.deals.append(deal)
        previous = last = deal
    if run is not None:
        yield _imported(run, source, rules)


def _imported(run: _Run, source, rules) -> Imported:
    where = f"{source}:{run.deals[0].first_line}-{run.deals[-1].last_line}"
    return Imported(run.record(rules, where), where)


def _winner(before, after):
    """The team whose victories grew, when exactly one did."""
    gains = [sum(after[s] - before[s] for s in (t, t + 2)) for t in (0, 1)]
    grew = [t for t in (0, 1) if gains[t] > 0]
    return grew[0] if len(grew) == 1 else None


def _deal(deal: Deal, fresh_first: bool) -> dict:
    out: dict[str, object] = {"hands": [deal.hands[s] for s in range(SEATS)]}
    if deal.leader is not None and (fresh_first or _equal_double(deal)):
        out["leader"] = deal.leader
    out["actions"] = deal.actions
    if deal.order is not None:
        result: dict[str, object] = {"order": deal.order}
        if deal.claimed_levels is not None:
            result["levels"] = deal.claimed_levels
        if deal.anti_seats is not None:
            result["tribute"] = "resisted"
        out["result"] = result
    return out


def _equal_double(deal: Deal) -> bool:
    return guandan.equal_tributes([card for _, _, card in deal.tributes], deal.level)


def _start(deal: Deal, previous: Deal | None) -> dict:
    """`start` of a record whose first deal is not a fresh match's first (notation §7)."""
    if previous is None and deal.levels == ["2", "2"] and not deal.tributes and deal.anti_seats is None:
        return {}
    start: dict[str, object] = {"levels": deal.levels}
    playing = [t for t in (0, 1) if deal.levels[t] == deal.level]
    if len(playing) == 1:
        start["playing"] = playing[0]
    order = previous.order if previous is not None and previous.order else _order_from_tribute(deal)
    if order:
        start["previous_order"] = order
    return start


def _order_from_tribute(deal: Deal) -> list | None:
    """The previous finishing order as far as this deal's tribute shows it: o1 is the receiver of
    the leader's tribute, or after anti-tribute the leader."""
    if deal.anti_seats is not None:
        payers, o1 = deal.anti_seats, deal.leader
    elif deal.tributes:
        payers = [giver for giver, _, _ in deal.tributes]
        o1 = next((to for giver, to, _ in deal.tributes if giver == deal.leader), deal.tributes[0][1])
    else:
        return None
    if o1 is None or not payers:
        return None
    return guandan.previous_order_shown(payers, o1)
