"""Gan Deng Yan (干瞪眼), as docs/rules/gandengyan.md says. Section numbers (§) are that page's.

Every Gan Deng Yan rule lives here; the replay driver calls it through the contract in game.py.
Where the page is silent, docs/gandengyan.md says how it was read.

The play (apply and what it calls) is typed for mypyc, which compiles this module where the set-up finds
a C compiler (docs/internals.md, "Two builds"): hands are bit masks of the cards held, readings cached per shape
of play.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from .actions import DealPlay
from .cards import (
    BJ,
    CODES,
    RANKS,
    RJ,
    TwoPackHand,
    Valued,
    marked,
    rank,
    rank_shown,
    run_low,
)
from .claims import Number, add_scores, carried_on, check_totals, ruled_totals, totals_claim_stands
from .findings import INFO, StopDeal, plays_said
from .game import computed_state, no_claimed_state
from .marks import final
from .messages import Cards, Listing, Msg, Phrase, Run, Term, counted, part
from .reports import ReportWatch
from .rules import Option, shared

msg, msg_n, word, word_of = part("gandengyan")

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from typing import Any, Final

    from mypy_extensions import i64  # a native 64-bit int where mypyc compiles the module; an int otherwise

    from .actions import Action, Deal
    from .contract import Legal, Outcome, Snapshot
    from .replay import Context


NAME = "gandengyan"
MIN_SEATS, MAX_SEATS = 2, 6
# Final, each on its own: constants that compiled code reads as C values, not from the module's dict
HAND_SIZE: Final = 5
DEALER_SIZE: Final = 6
TWO: Final = 0  # rank indices; the ladder is 1 (3) .. 12 (A)
ACE: Final = 12
JOKER_BOMB_CLASS: Final = 100  # above every other bomb class (§2)

DEFAULT_PRESET = "pagat"
PRESETS: dict[str, dict[str, Any]] = {
    "pagat": {},
    "wenshan": {"scoring": "winner_only"},
    "catsatcards": {"next_dealer": "any"},
}
PRESET_ALIASES: dict[str, str] = {f"gandengyan-{name}": name for name in PRESETS}
_BOOL = (True, False)
OPTIONS: dict[str, Option] = {
    "decks": Option(1, (1, 2), effect=word("number of 54-card packs")),
    "jokers_wild": Option(True, _BOOL, effect=word("false: jokers only make joker_bomb or a §2.1 lead")),
    "joker_as_two": Option(True, _BOOL, effect=word("false: a joker never stands for a 2")),
    "triplet_is_bomb": Option(True, _BOOL, effect=word("false: triplet is ordinary")),
    "triplet_sequences": Option(False, _BOOL, effect=word("allows triplet_sequence (needs triplet_is_bomb false)")),
    "max_sequence_ranks": Option(12, tuple(range(3, 13)), effect=word("most ranks in any sequence type")),
    "min_sequence_length": Option(3, (3, 4, 5), effect=word("fewest cards in a sequence")),
    "next_dealer": Option("winner", ("winner", "any"), effect=word("who deals a later hand (§1)")),
    "max_bomb_size": Option(4, tuple(range(4, 9)), effect=word("≥5 allows bombs of 5+ equal cards")),
    "follow_equal_rank": Option(False, _BOOL, effect=word("an ordinary play may follow one of equal rank")),
    "two_on_two": Option(False, _BOOL, effect=word("a 2 / pair / triplet of 2s may follow the same of 2s")),
    "lone_joker_lead": Option(True, _BOOL, effect=word("false: §2.1 leads are not allowed (§4.4)")),
    "talon_limit_to_win": Option(
        None, kind=int, nullable=True, effect=word("going out wins only with ≤ T in the talon")
    ),
    "scoring": Option(
        "zero_sum",
        ("zero_sum", "winner_only"),
        effect=word("zero_sum: each loser pays the winner; winner_only: the winner scores, losers lose nothing (§5)"),
    ),
    "ace_multiplier": Option(1, (1, 2, 3, 4), effect=word("each ace held by a loser multiplies his payment")),
    "public_multipliers": Option(False, _BOOL, effect=word("bombs played multiply all payments (§5)")),
    "private_multipliers": Option(False, _BOOL, effect=word("jokers and bombs held multiply a loser's payment")),
    "soft_bombs": Option(False, _BOOL, effect=word("bombs with jokers ×2, without ×4")),
    "payment_cap": Option(None, kind=int, nullable=True, effect=word("most any loser pays in one deal")),
    "report_at": Option(None, kind=int, nullable=True, effect=word("count at which a report is expected (§7)")),
}
_LEAST = {"talon_limit_to_win": 0, "payment_cap": 1, "report_at": 1}


# ---------------------------------------------------------------- §2 combinations


class Reading(Valued):
    """One reading of a play (§2): a value, never changed once made (a plain class, not a frozen dataclass,
    so that mypyc compiles its making)."""

    __slots__ = ("type", "rank", "size", "bomb", "jokers", "name")

    def __init__(self, type: str, rank: int, size: int, bomb: int, jokers: int) -> None:
        self.type = type
        self.rank = rank  # rank index: 0 is the 2, 1..12 the ladder 3..A; 14 for the joker bomb
        self.size = size
        self.bomb = bomb  # bomb class (§2); 0 for an ordinary combination
        self.jokers = jokers  # jokers in the play (soft bombs, §5)
        self.name = f"{type}:{CODES[53] if rank == 14 else RANKS[rank]}"  # as `as` names it (TYPE:RANK)

    def fields(self) -> tuple[str, int, int, int, int]:
        return self.type, self.rank, self.size, self.bomb, self.jokers


def bomb_order(r: int) -> int:
    """3 < 4 < … < A < 2 (§ terms)."""
    return 13 if r == TWO else r


class GandengyanOptions:
    """A record's options (OPTIONS), as rules.py resolved and checked them: what each one does is said there (a
    plain class, not a dataclass, whose methods are made at start-up: 5 M instructions, 0.5% of a file's check)."""

    def __init__(
        self,
        *,
        decks: int,
        jokers_wild: bool,
        joker_as_two: bool,
        triplet_is_bomb: bool,
        triplet_sequences: bool,
        max_sequence_ranks: int,
        min_sequence_length: int,
        next_dealer: str,
        max_bomb_size: int,
        follow_equal_rank: bool,
        two_on_two: bool,
        lone_joker_lead: bool,
        talon_limit_to_win: int | None,
        scoring: str,
        ace_multiplier: int,
        public_multipliers: bool,
        private_multipliers: bool,
        soft_bombs: bool,
        payment_cap: int | None,
        report_at: int | None,
    ) -> None:
        self.decks = decks
        self.jokers_wild = jokers_wild
        self.joker_as_two = joker_as_two
        self.triplet_is_bomb = triplet_is_bomb
        self.triplet_sequences = triplet_sequences
        self.max_sequence_ranks = max_sequence_ranks
        self.min_sequence_length = min_sequence_length
        self.next_dealer = next_dealer
        self.max_bomb_size = max_bomb_size
        self.follow_equal_rank = follow_equal_rank
        self.two_on_two = two_on_two
        self.lone_joker_lead = lone_joker_lead
        self.talon_limit_to_win = talon_limit_to_win
        self.scoring = scoring
        self.ace_multiplier = ace_multiplier
        self.public_multipliers = public_multipliers
        self.private_multipliers = private_multipliers
        self.soft_bombs = soft_bombs
        self.payment_cap = payment_cap
        self.report_at = report_at


# The options the readings of a play depend on (§2): option sets that differ only in others share their readings
READING_OPTIONS: Final = (
    "jokers_wild",
    "joker_as_two",
    "triplet_is_bomb",
    "triplet_sequences",
    "max_sequence_ranks",
    "min_sequence_length",
    "max_bomb_size",
)


def _combos(options: dict[str, Any]) -> Combos:
    """The readings of plays under the options of a record's rules (shared by rules.shared)."""
    return Combos(GandengyanOptions(**options), shared(_by_shape, {name: options[name] for name in READING_OPTIONS}))


def _by_shape(reading_options: dict[str, Any]) -> dict[int, tuple[Reading, ...]]:
    """The readings of plays by shape, for every option set with these READING_OPTIONS (shared by rules.shared)."""
    return {}


CACHE_LIMIT: Final = 200_000  # readings kept: past it the cache is emptied, so that memory stays bounded
# A card's count in the 4 bits of its rank (jokers: 13 and 14): a play's shape, the sum over its cards, is
# all its readings depend on (suits never matter, §2); a rank holds at most 8 cards with two packs
RANK_OF: Final = bytes(rank(c) for c in range(54))
# Plays of up to three cards, the commonest, are found by their ranks in the order played, a digit a card
# (1 + the rank index, base 16) in a table of each Combos: the readings of the same shape, with no dictionary
RANK_DIGIT: Final = bytes(1 + rank(c) for c in range(54))
FEW_CARDS: Final = 3
BY_RANKS: Final = 16**FEW_CARDS


@final
class Combos:
    """The readings of plays under one set of options, cached per shape of play (so "5S 5D" finds those
    of "5H 5C"); new_match shares one per option set among all records, and its cache with every option set
    of the same READING_OPTIONS (rules.shared)."""

    def __init__(self, options: GandengyanOptions, by_shape: dict[int, tuple[Reading, ...]] | None = None):
        self.options = options
        self.by_shape = {} if by_shape is None else by_shape
        self.by_ranks: list[tuple[Reading, ...] | None] = [None] * BY_RANKS  # plays of up to FEW_CARDS cards
        # the multipliers of a loser's aces and holdings under these options, with their reasons, and the bombs
        # played in words: a phrase renders its English when made, and these recur deal after deal
        # (_aces_phrase, _private_phrase, _bomb_words)
        self.ace_phrases: dict[int, Phrase] = {}
        self.private_phrases: dict[int, tuple[int, Phrase]] = {}
        self.bomb_words: dict[tuple[str, int, int], Phrase] = {}

    def readings(self, cards: tuple[int, ...]) -> tuple[Reading, ...]:
        return self.readings_of(cards, _marks(cards)[2])

    def readings_of(self, cards: tuple[int, ...], key: i64) -> tuple[Reading, ...]:
        """The readings of `cards`, whose key in by_ranks (_marks) is `key`."""
        if key < 0:
            return self._of_shape(cards)
        found = self.by_ranks[key]
        if found is None:
            found = self.by_ranks[key] = self._of_shape(cards)
        return found

    def _of_shape(self, cards: tuple[int, ...]) -> tuple[Reading, ...]:
        shape: i64 = 0
        for i in range(len(cards)):
            one: i64 = 1
            one <<= 4 * RANK_OF[cards[i]]
            shape += one
        found = self.by_shape.get(shape)
        if found is None:
            if len(self.by_shape) >= CACHE_LIMIT:
                self.by_shape.clear()
            found = self.by_shape[shape] = self._readings(tuple(sorted(cards)))
        return found

    def _readings(self, cards: tuple[int, ...]) -> tuple[Reading, ...]:
        jokers = sum(c >= BJ for c in cards)
        counts: dict[int, int] = {}
        for c in cards:
            if c < BJ:
                counts[rank(c)] = counts.get(rank(c), 0) + 1
        if not counts:  # jokers alone: only the joker bomb here; §2.1 leads are the caller's
            return (Reading("joker_bomb", 14, 2, JOKER_BOMB_CLASS, 2),) if cards == (BJ, RJ) else ()
        if jokers and not self.options.jokers_wild:
            return ()
        found: list[Reading] = []
        if len(counts) == 1:
            found += self._same_rank(len(cards), next(iter(counts)), jokers)
        if TWO not in counts:
            lowest, highest, most = ACE, TWO, 0
            for r, n in counts.items():
                lowest, highest, most = min(lowest, r), max(highest, r), max(most, n)
            found += self._sequences(len(cards), lowest, highest, most, jokers)
        return tuple(found)

    def _same_rank(self, size: int, r: int, jokers: int) -> list[Reading]:
        if r == TWO and jokers and not self.options.joker_as_two:
            return []
        if size <= 3:
            bomb = 1 if size == 3 and self.options.triplet_is_bomb else 0
            return [Reading(("single", "pair", "triplet")[size - 1], r, size, bomb, jokers)]
        if size == 4:
            return [Reading("four_bomb", r, 4, 2, jokers)]
        if size <= self.options.max_bomb_size:
            return [Reading("bomb", r, size, size - 2, jokers)]
        return []

    def _sequences(self, size: int, lowest: int, highest: int, most: int, jokers: int) -> list[Reading]:
        """Sequence types on the ladder of a play whose ranks are `lowest` to `highest`, none played more than
        `most` times; jokers fill the missing places (§2): each run of ranks, up to the ace, that holds every
        rank played and none more than `per` times."""
        o = self.options
        found: list[Reading] = []
        for per, kind in ((1, "sequence"), (2, "double_sequence"), (3, "triplet_sequence")):
            ranks = size // per
            if size % per or ranks > o.max_sequence_ranks or ranks < 2 or most > per:
                continue
            if kind == "sequence" and ranks < max(3, o.min_sequence_length):
                continue
            if kind == "triplet_sequence" and not o.triplet_sequences:
                continue
            for top in range(max(ranks, highest), min(ACE, lowest + ranks - 1) + 1):
                found.append(Reading(kind, top, size, 0, jokers))
        return found


def beats(x: Reading, y: Reading, o: GandengyanOptions) -> bool:
    """Whether X may follow Y (§3)."""
    if y.type == "joker_bomb":
        return False
    if x.bomb and y.bomb:  # by class, then by rank (compared apart: a tuple comparison is generic in compiled code)
        return x.bomb > y.bomb or (x.bomb == y.bomb and bomb_order(x.rank) > bomb_order(y.rank))
    if x.bomb or y.bomb:
        return bool(x.bomb)
    if x.type != y.type or x.size != y.size:
        return False
    if y.rank != TWO and (x.rank == y.rank + 1 or (o.follow_equal_rank and x.rank == y.rank)):
        return True
    return x.type in ("single", "pair", "triplet") and x.rank == TWO and (y.rank != TWO or o.two_on_two)


def describe(r: Reading) -> Msg:
    """The reading in words, for messages."""
    shown, size = rank_shown(RANKS[r.rank % 13]), r.size
    match r.type:
        case "single":
            return msg("a single {rank}", rank=shown)
        case "pair":
            return msg("a pair of {rank}s", rank=shown)
        case "triplet":
            return msg("a triplet of {rank}s", rank=shown)
        case "sequence":
            return msg("a {size}-card sequence to {rank}", size=size, rank=_run(r, size))
        case "double_sequence":
            return msg("a {size}-card double sequence to {rank}", size=size, rank=_run(r, size // 2))
        case "triplet_sequence":
            return msg("a {size}-card triplet sequence to {rank}", size=size, rank=_run(r, size // 3))
        case "four_bomb":
            return msg("a four-bomb of {rank}s", rank=shown)
        case "bomb":
            return msg("a bomb of {size} {rank}s", size=size, rank=shown)
    return msg("the joker bomb")


def _run(r: Reading, ranks: int) -> Run:
    high = RANKS[r.rank % 13]
    return Run((rank_shown(run_low(high, ranks)), rank_shown(high)))


def reading_words(text: str, cards: list[str]) -> Msg | str:
    """An `as` reading (TYPE:RANK) of `cards` in words, as a trick's line shows it."""
    kind, _, code = text.partition(":")
    if kind not in TYPE_WORDS:
        return text
    return describe(Reading(kind, RANKS.index(code) if code in RANKS else 14, len(cards), 0, 0))


def may_follow(top: Reading, o: GandengyanOptions) -> Msg:
    """In words: what may follow `top` (§3)."""
    if top.type == "joker_bomb":
        return msg("nothing may follow the joker bomb")
    if top.bomb:
        return msg("only a higher bomb may follow")
    allowed: list[Msg] = []
    if top.rank != TWO:
        ranks = [top.rank] * o.follow_equal_rank + [top.rank + 1] * (top.rank < ACE)
        allowed += [describe(Reading(top.type, r, top.size, 0, 0)) for r in ranks]
    if top.type in ("single", "pair", "triplet") and (top.rank != TWO or o.two_on_two):
        allowed.append(describe(Reading(top.type, TWO, top.size, 0, 0)))
    if not allowed:
        return msg("only a bomb may follow")
    return msg("only {plays} or a bomb may follow", plays=Listing(allowed, ", "))


# a wild card as a table's legend and a card's label name it (Guandan's 逢人配, the others' 百搭)
WILD_WORDS: tuple[Term, Term] = (word("wild"), word("wild card"))
PLACES: tuple[Term, ...] = ()  # Gan Deng Yan names no finishing places
# The outcome's words (a deal's status, the table's phase) and the combination types (§2) as a message names them
COMPLETE, DEAD, STOPPED = word("complete"), word("dead"), word("stopped")
PLAY, OVER = word("play"), word("over")
TYPE_WORDS = {
    "single": word("single"),
    "pair": word("pair"),
    "triplet": word("triplet"),
    "sequence": word("sequence"),
    "double_sequence": word("double sequence"),
    "triplet_sequence": word("triplet sequence"),
    "four_bomb": word("four bomb"),
    "bomb": word("bomb"),
    "joker_bomb": word("joker bomb"),
}


# ---------------------------------------------------------------- match state (§1, §5)


class Match:
    """The match as it stands between deals (a plain class, not a dataclass, so that mypyc compiles its making)."""

    def __init__(
        self,
        options: GandengyanOptions,
        combos: Combos,
        seats: int,
        totals: list[int] | None,
        dealer: int | None,
        first: bool = True,
        carried: list[int] | None = None,
    ) -> None:
        self.options, self.combos, self.seats = options, combos, seats
        self.totals = totals  # None: not checkable after a stopped deal (notation §9)
        self.dealer = dealer  # who must deal the next deal; None: any seat (or unknown)
        self.first = first
        self.carried = carried  # the totals the deals' claimed scores add up to (notation §9)


def new_match(ctx: Context, record: dict[str, Any], rules: dict[str, Any]) -> Match | None:
    seats = len(record["players"])
    if not MIN_SEATS <= seats <= MAX_SEATS:
        ctx.error(
            "gandengyan.deal.seats",
            "/players",
            msg("Gan Deng Yan is played by 2 to 6 seats; this record lists {seats} players", seats=seats),
        )
        return None
    if not _options_fit(ctx, record, rules["options"]):
        return None
    start = record.get("start") or {}
    given = list(start.get("totals", [0] * seats))
    totals = given if len(given) == seats else None
    if totals is None:
        ctx.error(
            "gandengyan.start.totals",
            "/start/totals",
            msg("start totals must give {seats} numbers, one per seat", seats=seats),
        )
    combos = shared(_combos, rules["options"])
    return Match(combos.options, combos, seats, totals, start.get("dealer"), carried=totals)


def _options_fit(ctx: Context, record: dict[str, Any], o: dict[str, Any]) -> bool:
    """Ranges the option types cannot say, and the conflicts of §9."""
    raw = record.get("rules")
    given = raw.get("options", {}) if isinstance(raw, dict) else {}

    def at(name: str) -> str:
        return f"/rules/options/{name}" if name in given else "/rules"

    fits = True
    for name, least in _LEAST.items():
        if o[name] is not None and o[name] < least:
            ctx.error(
                "notation.rules.option",
                at(name),
                msg("option {option} takes an integer ≥ {least} or null", option=name, least=least),
            )
            fits = False
    if o["triplet_sequences"] and o["triplet_is_bomb"]:
        ctx.error(
            "gandengyan.rules.conflict",
            at("triplet_sequences"),
            msg("triplet_sequences needs triplet_is_bomb false: a triplet cannot be both a bomb and a sequence part"),
        )
        fits = False
    if o["min_sequence_length"] > o["max_sequence_ranks"]:
        ctx.error(
            "gandengyan.rules.conflict",
            at("min_sequence_length"),
            msg(
                "min_sequence_length {least} exceeds max_sequence_ranks {most}",
                least=o["min_sequence_length"],
                most=o["max_sequence_ranks"],
            ),
        )
        fits = False
    return fits


# ---------------------------------------------------------------- deal state

CARDS: Final = 54  # card ids 0..53


def _marks(cards: tuple[int, ...]) -> tuple[i64, i64, i64]:
    """A play's cards as masks of card ids (cards.marks), and the key of its ranks in Combos.by_ranks (-1 for a
    play of more than FEW_CARDS cards), read in the same loop."""
    listed: i64 = 0
    again: i64 = 0
    key: i64 = 0
    few = len(cards) <= FEW_CARDS
    card: i64
    for card in cards:
        listed, again = marked(listed, again, card)
        if few:
            key = key * 16 + RANK_DIGIT[card]
    if not few:
        key = -1
    return listed, again, key


@final
class DealState(DealPlay):
    """A deal as it stands (a plain class, not a dataclass, so that mypyc compiles its making)."""

    def __init__(
        self,
        options: GandengyanOptions,
        combos: Combos,
        seats: int,
        dealer: int,
        hands: list[TwoPackHand],
        talon: list[int],
    ) -> None:
        self.options, self.combos, self.seats, self.dealer = options, combos, seats, dealer
        self.hands = hands
        self.holding: i64 = _seats_holding(hands)  # a bit for each seat that holds cards
        self.talon = talon
        self.drawn: i64 = 0  # cards taken from the talon so far
        self.drew_from: i64 = 0  # where in the talon the draws after the last action began
        self.drew_to: i64 = 0  # the first seat that drew then
        self.to_act: i64 = -1  # the seat whose turn it is; -1: none (turn)
        self.top: Reading | None = None  # the reading of the top play
        self.top_seat: i64 = 0  # who made it (while there is one)
        self.passed: i64 = 0  # a bit for each seat that passed since the top play (or in a trick without one)
        self.actions: list[Action] = []  # the deal's actions, as the record has them (start_deal)
        self.acted: i64 = 0  # how many of them were taken, up to the last pass or play taken
        self.trick_from: i64 = 0  # where in them the trick began
        self.readings: list[Reading] = []  # the reading of each play taken
        self.plays_from: i64 = 0  # where in them the trick's plays began
        self.bombs: list[tuple[Reading, int]] = []  # (Reading, action index) of every bomb played
        self.winner: int | None = None
        self.over = False
        self.totals: list[int] | None = None  # the match totals before this deal (None: not checkable)
        self.reports = ReportWatch(NAME, options.report_at)
        self.report_at = options.report_at or 0  # 0 where there are no reports (§7)

    def take(self, ctx: Context, action: Action) -> None:
        apply(ctx, self, action)

    @property
    def turn(self) -> int | None:
        return None if self.to_act < 0 else self.to_act

    @turn.setter
    def turn(self, seat: int | None) -> None:
        self.to_act = -1 if seat is None else seat

    @property
    def talon_left(self) -> int:
        return len(self.talon) - self.drawn

    @property
    def draws(self) -> list[dict[str, int | str]]:
        """The draws made after the last action: from the first seat that drew, one card each in seat order."""
        return [
            {"seat": (self.drew_to + i) % self.seats, "card": CODES[self.talon[self.drew_from + i]]}
            for i in range(self.drawn - self.drew_from)
        ]

    def sizes(self) -> list[int]:
        """How many cards each seat holds."""
        return [hand.size for hand in self.hands]

    def size(self, seat: int) -> int:
        return self.hands[seat].size

    def held(self, seat: int) -> list[int]:
        """The cards the seat holds, low ids first."""
        return self.hands[seat].cards()


def _seats_holding(hands: list[TwoPackHand]) -> i64:
    holding: i64 = 0
    for seat in range(len(hands)):
        if hands[seat].size:
            holding |= 1 << seat
    return holding


SEAT_MASKS: Final = 64  # 1 << MAX_SEATS, as a literal: compiled, a constant


def _first_after_table() -> bytes:
    """By seat * SEAT_MASKS + a mask of seats: 1 + the first seat of the mask after that seat in seat order,
    the seat itself last; 0 for an empty mask (seats past the table's never being in a mask, the order
    holds for any number of seats). Bytes, which compiled code reads as ints."""
    found = bytearray()
    for seat in range(MAX_SEATS):
        order = [(seat + k) % MAX_SEATS for k in range(1, MAX_SEATS + 1)]
        for mask in range(SEAT_MASKS):
            found.append(next((1 + s for s in order if mask >> s & 1), 0))
    return bytes(found)


FIRST_AFTER: Final = _first_after_table()


def _first_after(seat: i64, mask: i64) -> i64:
    """The first seat of `mask` after `seat` in seat order, `seat` itself last; -1 for none."""
    return FIRST_AFTER[seat * SEAT_MASKS + mask] - 1


def _next_holder(state: DealState, seat: i64) -> i64:
    """The next seat after `seat` that holds cards, `seat` itself last; -1 where none does."""
    return _first_after(seat, state.holding)


def deal_layout(options: dict[str, Any], seats: int, dealer: int) -> tuple[int, list[tuple[int, int]]]:
    """The packs, and (seat, cards) in the order a seed deals them (notation §11): the dealer 6, each next
    seat 5; the rest is the talon."""
    return options["decks"], [((dealer + k) % seats, DEALER_SIZE if k == 0 else HAND_SIZE) for k in range(seats)]


def start_deal(ctx: Context, match: Match, deal: Deal) -> DealState:
    dealer = _check_hands(ctx, match, deal)
    talon = deal.talon or []  # the pre-check asks every Gan Deng Yan deal for its talon
    _check_deck(ctx, match, deal, talon)
    _check_dealer(ctx, match, deal, dealer)
    match.first = False
    state = DealState(
        match.options,
        match.combos,
        match.seats,
        dealer,
        [TwoPackHand(cards) for cards in deal.hands],
        talon,  # never changed: `drawn` counts the cards taken
    )
    state.turn, state.actions = dealer, deal.actions
    state.totals = None if match.totals is None else list(match.totals)
    return state


def _check_hands(ctx: Context, match: Match, deal: Deal) -> int:
    """One 6-card hand, the dealer's, and 5 cards in every other (§1)."""
    if len(deal.hands) != match.seats:
        raise StopDeal(
            "gandengyan.deal.hand_size",
            msg("the deal has {hands} hands for {players} players", hands=len(deal.hands), players=match.seats),
            ctx.at("hands"),
        )
    for seat, hand in enumerate(deal.hands):
        if len(hand) not in (HAND_SIZE, DEALER_SIZE):
            raise StopDeal(
                "gandengyan.deal.hand_size",
                msg(
                    "seat {seat} was dealt {n} cards; the dealer holds 6 and every other seat 5", seat=seat, n=len(hand)
                ),
                ctx.at("hands", seat),
                seat=seat,
            )
    sixes = [s for s, h in enumerate(deal.hands) if len(h) == DEALER_SIZE]
    if len(sixes) != 1:
        raise StopDeal(
            "gandengyan.deal.hand_size",
            msg("exactly one seat (the dealer) must be dealt 6 cards, not {n}", n=len(sixes)),
            ctx.at("hands"),
        )
    return sixes[0]


def _check_deck(ctx: Context, match: Match, deal: Deal, talon: list[int]) -> None:
    """Hands and talon together are exactly the deck (§1): the first surplus card, or the short talon."""
    decks = match.options.decks
    once: i64 = 0  # a bit for each card seen
    twice: i64 = 0  # and for each seen twice (two packs)
    surplus, dealt = False, len(talon)
    for c in talon:
        once, twice, surplus = _seen(once, twice, surplus, c, decks)
    for hand in deal.hands:
        dealt += len(hand)
        for c in hand:
            once, twice, surplus = _seen(once, twice, surplus, c, decks)
    if surplus:
        _surplus(ctx, deal, talon, decks)
    if dealt < CARDS * decks:  # no card more than `decks` times: so some card is missing
        missing = [CODES[c] for c in range(CARDS) if (once >> c & 1) + (twice >> c & 1) < decks]
        raise StopDeal(
            "gandengyan.deck",
            msg(
                "the hands and talon lack {cards}{more}: the deal must be exactly {deck}",
                cards=Cards(" ".join(missing[:6])),
                more=" …" * (len(missing) > 6),
                deck=_deck_name(decks),
            ),
            ctx.at("talon"),
        )


def _seen(once: i64, twice: i64, surplus: bool, card: i64, decks: int) -> tuple[i64, i64, bool]:
    """The marks of the cards seen (_check_deck) with `card` seen once more: whether it is now seen more
    than `decks` times."""
    bit: i64 = 1
    bit <<= card  # not `1 << card`: compiled, a literal 1 shifts as a 32-bit C int
    if not once & bit:
        return once | bit, twice, surplus
    if decks == 1 or twice & bit:
        return once, twice, True
    return once, twice | bit, surplus


def _surplus(ctx: Context, deal: Deal, talon: list[int], decks: int) -> None:
    """The first card, in the record's order, seen more than `decks` times."""
    seen = [0] * 54
    places: list[tuple[tuple[str | int, ...], int]] = [
        (("hands", s, i), c) for s, h in enumerate(deal.hands) for i, c in enumerate(h)
    ]
    for path, card in places + [(("talon", i), c) for i, c in enumerate(talon)]:
        seen[card] += 1
        if seen[card] > decks:
            raise StopDeal(
                "gandengyan.deck",
                msg_n(
                    "{card} appears more than {n} time: the deal must be exactly {deck}",
                    "{card} appears more than {n} times: the deal must be exactly {deck}",
                    decks,
                    card=Cards(CODES[card]),
                    deck=_deck_name(decks),
                ),
                ctx.at(*path),
            )


def _deck_name(decks: int) -> Msg:
    return msg("one 54-card pack") if decks == 1 else msg("two 54-card packs")


def _check_dealer(ctx: Context, match: Match, deal: Deal, dealer: int) -> None:
    """A wrong `leader` or dealer is reported; the seat dealt 6 cards leads all the same (notation §9)."""
    if deal.leader is not None and deal.leader != dealer:
        ctx.error(
            "gandengyan.leader",
            ctx.at("leader"),
            msg(
                "the record names seat {named} as leader, but seat {dealer} was dealt 6 cards and leads",
                named=deal.leader,
                dealer=dealer,
            ),
        )
    if match.dealer is None or match.dealer == dealer:
        return
    if match.first:
        ctx.error(
            "gandengyan.start.dealer",
            "/start/dealer",
            msg(
                "start names seat {named} as dealer, but seat {dealer} was dealt 6 cards",
                named=match.dealer,
                dealer=dealer,
            ),
        )
    else:
        ctx.error(
            "gandengyan.deal.dealer",
            ctx.at("hands", dealer),
            msg(
                "seat {dealer} was dealt 6 cards, but seat {expected} deals this hand "
                "(the last winner, or the same dealer after a deal without winner)",
                dealer=dealer,
                expected=match.dealer,
            ),
            dealer,
        )


# ---------------------------------------------------------------- actions (§4, §7)


def apply(ctx: Context, state: DealState, action: Action) -> None:
    state.drew_from = state.drawn  # no draws after this action yet
    verb = action.verb
    if verb == "pass":
        if action.seat != state.to_act:
            raise _out_of_turn(state, action)
        if state.top is None and can_lead(state, action.seat):  # a leader with a legal lead plays (§4.4)
            raise StopDeal("gandengyan.lead.pass", msg("seat {seat} leads this trick and must play", seat=action.seat))
        _passed(state, action)
    elif verb == "play":
        if action.seat != state.to_act:
            raise _out_of_turn(state, action)
        _play(state, action)
    elif verb == "declare":
        state.reports.declare(ctx, action, state.size(action.seat))
    else:
        raise StopDeal("gandengyan.action.unknown", msg("Gan Deng Yan has no {verb} (§6)", verb=action.verb))


def _out_of_turn(state: DealState, action: Action) -> StopDeal:
    return StopDeal(
        "gandengyan.turn",
        msg("seat {seat} acted out of turn: it was seat {turn}'s turn", seat=action.seat, turn=state.turn),
    )


def _passed(state: DealState, action: Action) -> None:
    """A pass that is taken (§4.2, §4.4)."""
    seat: i64 = action.seat
    state.acted = action.index + 1
    state.passed |= 1 << seat
    if state.top is None:  # §4.4: a leader without a legal lead; all such passes kill the deal (§4.6)
        if not state.holding & ~state.passed:
            state.over = True
        else:
            state.to_act = _next_holder(state, seat)
        return
    _continue(state, state.top_seat, seat)


def _continue(state: DealState, top_seat: i64, seat: i64) -> None:
    """The next holder after `seat` that has neither passed since the top play nor made it acts (one that a
    pass out of turn skipped too, notation §10); with none, the trick ends (§4.2)."""
    following = _first_after(seat, state.holding & ~state.passed & ~(1 << top_seat))
    if following < 0:
        _end_trick(state, top_seat)
    else:
        state.to_act = following


def _end_trick(state: DealState, last: i64) -> None:
    """The draw from the last player onward in seat order (§4.2, §10.4), then he leads."""
    hands, talon = state.hands, state.talon
    seats: i64 = state.seats
    state.drew_to = last
    drawn = state.drawn
    draws: i64 = len(talon) - drawn
    if draws > seats:  # not min(): compiled, it takes and makes objects
        draws = seats
    seat, holding = last, state.holding
    for i in range(draws):
        hands[seat].add(talon[drawn + i])
        holding |= 1 << seat
        seat += 1
        if seat == seats:  # not `x if c else 0`: compiled, that makes an object of the i64
            seat = 0
    state.drawn, state.holding = drawn + draws, holding
    without = ((1 << seats) - 1) & ~holding  # only a seat that did not draw may be without cards (§4.3)
    if without:  # §4.3 talon limit: the first seat still without cards, from the last player on, wins now
        state.winner, state.over = _first_after(last - 1 if last else seats - 1, without), True
        return
    state.to_act, state.top, state.passed = last, None, 0
    state.trick_from, state.plays_from = state.acted, len(state.readings)


def _play(state: DealState, action: Action) -> None:
    seat, cards = action.seat, action.cards
    listed, again, key = _require(state, seat, cards)
    readings = state.combos.readings_of(cards, key)
    _put(state, action, _choose_reading(state, seat, cards, readings, action.as_), listed, again)


def _require(state: DealState, seat: int, cards: tuple[int, ...]) -> tuple[i64, i64, i64]:
    """The play's _marks; raises StopDeal unless the seat holds every card of `cards` (a multiset): a card
    played twice must be held twice."""
    hand = state.hands[seat]
    listed, again, key = _marks(cards)
    if not hand.holds(listed, again):
        raise StopDeal("gandengyan.card.not_held", _not_held(seat, hand.lacking(cards), cards))
    return listed, again, key


def _put(state: DealState, action: Action, reading: Reading, listed: i64, again: i64) -> None:
    """A play that is taken (its cards as _require's marks): it becomes the trick's latest, and the turn passes
    on from its seat (§4.2)."""
    seat: i64 = action.seat
    state.acted = action.index + 1
    hand = state.hands[seat]
    hand.take(listed, again, len(action.cards))
    size = hand.size
    if reading.bomb:
        state.bombs.append((reading, action.index))
    state.top, state.top_seat, state.passed = reading, seat, 0
    state.readings.append(reading)
    if not size:
        state.holding &= ~(1 << seat)
        if _out_wins(state):
            state.winner, state.over = seat, True
            return
    _continue(state, seat, seat)
    if state.report_at:
        state.reports.played(seat, hand.size, action.index)  # after any draw this play caused


def _out_wins(state: DealState) -> bool:
    """Going out wins at once, unless the talon holds more than T cards (§4.3, §10.11)."""
    limit = state.options.talon_limit_to_win
    return limit is None or state.talon_left <= limit


def _not_held(seat: int, lacking: list[int], cards: tuple[int, ...]) -> Msg:
    if len(lacking) < len(cards):
        return msg(
            "seat {seat} does not hold {cards} (of {play})", seat=seat, cards=_shown(lacking), play=_shown(cards)
        )
    return msg("seat {seat} does not hold {cards}", seat=seat, cards=_shown(lacking))


def _shown(cards: Iterable[int]) -> Cards:
    return Cards(" ".join(CODES[c] for c in sorted(cards)))


def can_lead(state: DealState, seat: int) -> bool:
    """Whether the seat has any legal lead (§4.4)."""
    hand = state.hands[seat]
    jokers = hand.once >> BJ  # a bit for a BJ held, and one for an RJ
    if hand.once != jokers << BJ or jokers == 3:  # a natural card, or the joker bomb
        return True
    return state.options.lone_joker_lead and _lone_jokers(hand.size, state.options)


def _lone_jokers(size: int, o: GandengyanOptions) -> bool:
    """A whole hand of jokers that §2.1 lets lead: one joker, or two identical ones with two decks."""
    return size == 1 or (size == 2 and o.decks == 2)


def _choose_reading(
    state: DealState, seat: int, cards: tuple[int, ...], readings: tuple[Reading, ...], as_: str | None
) -> Reading:
    """The reading a play of `cards`, whose readings are `readings`, stands for (§2.2, §3)."""
    o = state.options
    top = state.top
    if as_ is None and len(readings) == 1 and (top is None or beats(readings[0], top, o)):
        return readings[0]  # the common case: one reading, and it may be played here
    if not readings and all(c >= BJ for c in cards):
        readings = _jokers_alone(state, seat, cards)
    if not readings:
        if o.jokers_wild or max(cards) < BJ:
            raise StopDeal("gandengyan.play.combination", _no_combination(seat, cards))
        raise StopDeal(
            "gandengyan.play.combination",
            msg(
                "seat {seat} played {cards}, which is no combination (jokers are not wild under these rules)",
                seat=seat,
                cards=_shown(cards),
            ),
        )
    legal = _legal_readings(readings, top, o)
    if as_ is not None:
        chosen = _named_reading(seat, cards, readings, as_)
        if top is not None and chosen not in legal:
            raise StopDeal("gandengyan.follow", _not_on(seat, chosen, top, o))
        return chosen
    if top is not None and not legal:
        raise StopDeal("gandengyan.follow", _not_on(seat, readings[0], top, o))
    if len(legal) > 1 and not _same_scores(state, seat, cards, legal):
        raise StopDeal(
            "gandengyan.play.as_required",
            msg(
                "seat {seat}'s {cards} reads as {readings}; the play must say which with as",
                seat=seat,
                cards=_shown(cards),
                readings=_names(legal),
            ),
        )
    return legal[0]


def _legal_readings(readings: tuple[Reading, ...], top: Reading | None, o: GandengyanOptions) -> list[Reading]:
    """The readings that may be played now (§3): what the judge of a play and the list of what was
    legal both ask."""
    return [r for r in readings if top is None or beats(r, top, o)]


def _named_reading(seat: int, cards: tuple[int, ...], readings: tuple[Reading, ...], as_: str) -> Reading:
    """The reading `as` names (§2.2)."""
    chosen = next((r for r in readings if r.name == as_), None)
    if chosen is None:
        raise StopDeal(
            "gandengyan.play.as",
            msg(
                "seat {seat}'s {cards} cannot be read as {reading}; it reads as {readings}",
                seat=seat,
                cards=_shown(cards),
                reading=as_,
                readings=_names(readings),
            ),
        )
    return chosen


def _no_combination(seat: int, cards: tuple[int, ...]) -> Msg:
    return msg("seat {seat} played {cards}, which is no combination", seat=seat, cards=_shown(cards))


def _not_on(seat: int, play: Reading, top: Reading, o: GandengyanOptions) -> Msg:
    return msg(
        "seat {seat} played {play} on {top}; {allowed}",
        seat=seat,
        play=describe(play),
        top=describe(top),
        allowed=may_follow(top, o),
    )


def _names(readings: Sequence[Reading]) -> Listing:
    """The readings as `as` names them ("pair:5"): the notation, the same in every language."""
    return Listing([r.name for r in readings], " or ")


def _same_scores(state: DealState, seat: int, cards: tuple[int, ...], legal: list[Reading]) -> bool:
    """§2.2: on a play that ends the deal, readings that score alike need no `as`: the
    payments are worked out for each reading (a bomb raises the public multiplier)."""
    if state.size(seat) != len(cards) or not _out_wins(state):
        return False
    payments: set[tuple[int, ...]] = set()
    for reading in legal:
        bombs = state.bombs + [(reading, -1)] if reading.bomb else state.bombs
        payments.add(tuple(_payments_if(state, seat, bombs)[0]))
    return len(payments) == 1


def _jokers_alone(state: DealState, seat: int, cards: tuple[int, ...]) -> tuple[Reading, ...]:
    """A play of jokers only, other than the joker bomb: the §2.1 leads, or an error."""
    o = state.options
    whole = state.size(seat) == len(cards)
    if len(cards) > 2 or (len(cards) == 2 and cards[0] != cards[1]):
        raise StopDeal("gandengyan.play.combination", _no_combination(seat, cards))
    if state.top is not None or not whole:
        raise StopDeal(
            "gandengyan.joker.alone",
            msg(
                "seat {seat} played {cards} alone: jokers without a natural card are no combination, "
                "except as the leader's last card (§2.1)",
                seat=seat,
                cards=_shown(cards),
            ),
        )
    if not o.lone_joker_lead:
        raise StopDeal(
            "gandengyan.joker.lone_lead",
            msg(
                "seat {seat} led {cards}, but these rules do not allow a lone joker lead; seat {seat} must pass",
                seat=seat,
                cards=_shown(cards),
            ),
        )
    return (Reading(("single", "pair")[len(cards) - 1], TWO, len(cards), 0, len(cards)),)


# ---------------------------------------------------------------- what would have been legal, the table


def legal(state: DealState) -> Legal:
    seat = state.turn
    assert seat is not None  # a deal not over always has a seat to act
    top = state.top
    if top is None:
        may = (
            msg("seat {seat} leads: any combination", seat=seat)
            if can_lead(state, seat)
            else msg("seat {seat} has no legal lead and passes (§4.4)", seat=seat)
        )
        return {"seat": seat, "may": Phrase(may)}
    found = _followers(state, seat, top)
    allowed = may_follow(top, state.options)
    if found:
        may = msg(
            "seat {seat} passes, or plays on {top}: {allowed}; from its hand: {plays}",
            seat=seat,
            top=describe(top),
            allowed=allowed,
            plays=plays_said([(TYPE_WORDS[r.type], cards) for r, cards in found]),
        )
    else:
        may = msg(
            "seat {seat} passes, or plays on {top}: {allowed}; it holds nothing that may follow",
            seat=seat,
            top=describe(top),
            allowed=allowed,
        )
    return {"seat": seat, "top": top.name, "plays": [f"{cards} as {r.name}" for r, cards in found], "may": Phrase(may)}


def _followers(state: DealState, seat: int, top: Reading) -> list[tuple[Reading, str]]:
    """Every play from the seat's hand that may follow the top play, with its reading, weakest first (§3):
    one play per rank pattern (suits never matter), made of the lowest cards of each rank. The plays are
    built from the shapes that can follow, so the work stays small however many cards the hand holds."""
    o = state.options
    piles: dict[int, list[int]] = {}
    for c in state.held(seat):
        piles.setdefault(rank(c), []).append(c)
    found: list[tuple[Reading, tuple[int, ...]]] = []
    for cards in _candidates(piles, top, o):
        found += [(r, cards) for r in _legal_readings(state.combos.readings(cards), top, o)]
    found.sort(key=lambda rc: (rc[0].bomb, bomb_order(rc[0].rank), rc[0].size, rc[1]))
    return [(r, " ".join(CODES[c] for c in in_rank_order(cards))) for r, cards in found]


def _candidates(piles: dict[int, list[int]], top: Reading, o: GandengyanOptions) -> dict[tuple[int, ...], None]:
    """The plays that may have a reading able to follow `top`, each once, cards low ids first:
    one rank with jokers, the joker bomb, and sequences of the top's shape one rank higher (or as
    high, where equal ranks may follow)."""
    jokers = piles.get(rank(BJ), []) + piles.get(rank(RJ), [])
    budget = len(jokers) if o.jokers_wild else 0
    naturals = {r: cards for r, cards in piles.items() if r < rank(BJ)}
    found: dict[tuple[int, ...], None] = {}
    if BJ in jokers and RJ in jokers:
        found[(BJ, RJ)] = None
    for size in sorted({top.size, *range(2, o.max_bomb_size + 1)}):
        for cards in naturals.values():
            for taken in range(max(1, size - budget), min(size, len(cards)) + 1):
                for wild in _joker_sets(jokers, size - taken):
                    found[tuple(sorted(cards[:taken] + wild))] = None
    per = {"sequence": 1, "double_sequence": 2, "triplet_sequence": 3}.get(top.type)
    if per:
        length = top.size // per
        for high in [top.rank + 1] + [top.rank] * o.follow_equal_rank:
            if length <= high <= ACE:
                window = [naturals.get(r, []) for r in range(high - length + 1, high + 1)]
                for cards, short in _fills(window, per, budget):
                    for wild in _joker_sets(jokers, short):
                        found[tuple(sorted(cards + wild))] = None
    return found


def _joker_sets(jokers: list[int], n: int) -> list[list[int]]:
    """Each different choice of n jokers from the held ones (black ones first, as held)."""
    blacks, reds = jokers.count(BJ), jokers.count(RJ)
    return [[BJ] * b + [RJ] * (n - b) for b in range(max(0, n - reds), min(n, blacks) + 1)]


def _fills(piles: list[list[int]], per: int, budget: int) -> Iterator[tuple[list[int], int]]:
    """Each way to take up to `per` cards (the lowest) from every pile with at most `budget` places
    left short in all: (cards, places short)."""
    if not piles:
        yield [], 0
        return
    for taken in range(min(per, len(piles[0])) + 1):
        short = per - taken
        if short <= budget:
            for more, more_short in _fills(piles[1:], per, budget - short):
                yield piles[0][:taken] + more, short + more_short


def in_rank_order(cards: Iterable[int]) -> list[int]:
    """Cards low to high: the ladder 3 … A, then 2s, then the jokers (§ terms)."""
    return sorted(cards, key=lambda c: (bomb_order(rank(c)) if c < BJ else 14 + c - BJ, c))


def snapshot(state: DealState) -> Snapshot:
    return {
        "dealer": state.dealer,
        "phase": OVER if state.over else PLAY,
        "turn": None if state.over else state.turn,
        "wild": ["BJ", "RJ"] if state.options.jokers_wild else [],
        "hands": [[CODES[c] for c in in_rank_order(state.held(seat))] for seat in range(state.seats)],
        "table": _table(state),
        "talon": state.talon_left,
        "drawn": [dict(draw, card=Cards(draw["card"])) for draw in state.draws],
        "bombs_played": [Phrase(describe(r), r.name) for r, _ in state.bombs],
        "totals_before_the_deal": state.totals,
        "winner": state.winner,
    }


def _table(state: DealState) -> list[dict[str, Any]]:
    """The trick as a table shows it: each pass, and each play with its reading (the actions taken since
    the trick began are its passes and plays, and declarations)."""
    table: list[dict[str, Any]] = []
    readings = iter(state.readings[state.plays_from :])
    for action in state.actions[state.trick_from : state.acted]:
        if action.verb == "pass":
            table.append({"seat": action.seat, "pass": True})
        elif action.verb == "play":
            name = next(readings).name
            table.append({"seat": action.seat, "play": [CODES[c] for c in sorted(action.cards)], "as": name})
    return table


# ---------------------------------------------------------------- end of deal, scoring (§4.6, §5)


def _bomb_factor(r: Reading, o: GandengyanOptions) -> int:
    """A bomb's multiplier (§5); 1 for ordinary plays (triplets that are no bombs never count)."""
    if not r.bomb:
        return 1
    if r.type == "joker_bomb":
        return 8
    if o.soft_bombs:
        return 2 if r.jokers else 4
    return 2 if r.type == "triplet" else 4


def _public(combos: Combos, bombs: list[tuple[Reading, int]]) -> tuple[int, list[Phrase]]:
    o = combos.options
    if not o.public_multipliers:
        return 1, []
    factor = 1
    why: list[Phrase] = []
    for reading, index in bombs:
        f = _bomb_factor(reading, o)
        factor *= f
        why.append(_public_phrase(combos, reading, index, f))
    return factor, why


def _public_phrase(combos: Combos, bomb: Reading, index: int, factor: int) -> Phrase:
    """A bomb's public multiplier (§5), `factor`, with its reason."""
    why = msg(
        "public ×{factor}: {play} played at action {action}",
        factor=factor,
        play=_bomb_words(combos, bomb),
        action=counted(index),
    )
    # its English is its template filled in (an f-string, compiled: format() took a third of the making): each
    # parameter, a number or a phrase, shows in English as itself
    return Phrase(why, f"public ×{factor}: {why.params['play']} played at action {counted(index)}")


def _bomb_words(combos: Combos, bomb: Reading) -> Phrase:
    """A bomb played, in words (describe), made once per bomb under one set of options: its words are those of its
    type, rank and size (a bomb's jokers do not show)."""
    key = (bomb.type, bomb.rank, bomb.size)
    found = combos.bomb_words.get(key)
    if found is None:
        found = combos.bomb_words[key] = Phrase(describe(bomb))
    return found


# what a loser holds that multiplies his payment (§5): a joker, a four-bomb, a triplet bomb, a joker bomb
HELD_JOKER: Final = 0
HELD_FOUR: Final = 1
HELD_TRIPLET: Final = 2
HELD_JOKER_BOMB: Final = 3


def _private(state: DealState, seat: int, why: list[Phrase]) -> int:
    """The factor of a loser's jokers and held bombs, natural cards only (§5, §10.9), each with its reason
    added to `why`."""
    o, combos = state.options, state.combos
    factor = 1
    hand = state.hands[seat]
    blacks, reds = hand.count(BJ), hand.count(RJ)
    for _joker in range(blacks + reds):
        factor *= _private_why(combos, seat, HELD_JOKER, 0, why)
    for r in range(13):
        m = hand.of_rank(r)
        for _four in range(m // 4):
            factor *= _private_why(combos, seat, HELD_FOUR, r, why)
        if m % 4 == 3 and o.triplet_is_bomb:
            factor *= _private_why(combos, seat, HELD_TRIPLET, r, why)
    for _couple in range(min(blacks, reds)):
        factor *= _private_why(combos, seat, HELD_JOKER_BOMB, 0, why)
    return factor


def _private_why(combos: Combos, seat: int, held: int, r: int, why: list[Phrase]) -> int:
    """The factor of one holding (_private_phrase), its reason added to `why`."""
    factor, reason = _private_phrase(combos, seat, held, r)
    why.append(reason)
    return factor


def _private_phrase(combos: Combos, seat: int, held: int, r: int) -> tuple[int, Phrase]:
    """A loser's private multiplier for what he holds (`held`, of rank `r`), with its reason (§5): made once
    per seat and holding under one set of options."""
    key = (seat * 4 + held) * 16 + r
    found = combos.private_phrases.get(key)
    if found is None:
        factor = 2 if held == HELD_JOKER else 8 if held == HELD_JOKER_BOMB else 4
        if held == HELD_TRIPLET and not combos.options.soft_bombs:
            factor = 2
        reason = (
            _A_JOKER
            if held == HELD_JOKER
            else _A_JOKER_BOMB
            if held == HELD_JOKER_BOMB
            else msg("a held four-bomb of {rank}s", rank=rank_shown(RANKS[r]))
            if held == HELD_FOUR
            else msg("a held triplet bomb of {rank}s", rank=rank_shown(RANKS[r]))
        )
        found = (factor, Phrase(msg("seat {seat} ×{factor}: {reason}", seat=seat, factor=factor, reason=reason)))
        combos.private_phrases[key] = found
    return found


_A_JOKER, _A_JOKER_BOMB = msg("a joker"), msg("a held joker bomb")


def _payments(state: DealState) -> tuple[list[int], list[Phrase]]:
    """p(L) for every seat (0 for the winner) and every multiplier applied, with its reason (§5)."""
    return _payments_if(state, state.winner, state.bombs)


def _payments_if(
    state: DealState, winner: int | None, bombs: list[tuple[Reading, int]]
) -> tuple[list[int], list[Phrase]]:
    """_payments, were `winner` the winner after `bombs` were played."""
    o, cap = state.options, state.options.payment_cap
    public, why = _public(state.combos, bombs)
    pays = [0] * state.seats
    for seat in range(state.seats):
        if winner is not None and seat == winner:
            continue
        hand = state.hands[seat]
        aces = hand.of_rank(ACE)
        factor = 1
        for _ace in range(aces):  # ace_multiplier ** aces: `**` is Any to mypy, and then generic in compiled code
            factor *= o.ace_multiplier
        if aces and o.ace_multiplier > 1:
            why.append(_aces_phrase(state.combos, seat, aces, factor))
        if o.private_multipliers:
            factor *= _private(state, seat, why)
        pay = hand.size * factor * public
        if cap is not None and pay > cap:
            why.append(Phrase(msg("seat {seat} capped: {pays} → {cap}", seat=seat, pays=pay, cap=cap)))
            pay = cap
        pays[seat] = pay
    return pays, why


def _aces_phrase(combos: Combos, seat: int, aces: int, factor: int) -> Phrase:
    """The multiplier of a loser's `aces` (§5), `factor` in all: made once per seat and count under one set of options."""
    key = seat * 16 + aces
    found = combos.ace_phrases.get(key)
    if found is None:
        found = Phrase(
            msg_n(
                "seat {seat} ×{factor}: {n} ace at ×{each}",
                "seat {seat} ×{factor}: {n} aces at ×{each}",
                aces,
                seat=seat,
                factor=factor,
                each=combos.options.ace_multiplier,
            )
        )
        combos.ace_phrases[key] = found
    return found


def _scores(state: DealState, pays: list[int]) -> list[int]:
    if state.winner is None:
        return [0] * state.seats
    zero_sum = state.options.scoring == "zero_sum"
    scores = [-p if zero_sum else 0 for p in pays]
    won = 0
    for pay in pays:
        won += pay
    scores[state.winner] = won
    return scores


CARDS_SHOWN: Final = tuple(Cards(code) for code in CODES)  # each card as an outcome shows it


def finish_deal(ctx: Context, match: Match, state: DealState, deal: Deal) -> Outcome:
    if state.report_at:
        state.reports.warn_missing(ctx)
    dead = state.winner is None
    pays, why = ([0] * state.seats, []) if dead else _payments(state)
    scores = _scores(state, pays)
    _carry(match, scores, state.dealer if dead else state.winner)
    match.carried = carried_on(match.carried, scores, deal.result or {})
    outcome: Outcome = {
        "deal": deal.index,
        "status": DEAD if dead else COMPLETE,
        "dealer": state.dealer,
        "winner": state.winner,
        "left": state.sizes(),
        "held": [hand.named(CARDS_SHOWN) for hand in state.hands],
        "talon": state.talon_left,
        "multipliers": why,
        "payments": pays,
        "scores": scores,
        "totals": None if match.totals is None else list(match.totals),
    }
    _check_deal_claims(ctx, deal, outcome)
    return outcome


def _carry(match: Match, scores: list[int], next_dealer: int | None) -> None:
    """Totals and the next dealer (§1, §5)."""
    match.totals = add_scores(match.totals, scores)
    match.dealer = next_dealer if match.options.next_dealer == "winner" else None


def _check_deal_claims(ctx: Context, deal: Deal, outcome: Outcome) -> None:
    _check_claims(ctx, deal.result or {}, outcome, ctx.at("result"))


def _check_claims(ctx: Context, claimed: dict[str, Any], outcome: Outcome, where: str) -> None:
    """A deal's claims (`where`: their pointer, a deal's `result` or a `score` ruling's) against its outcome."""
    winner = outcome["winner"]
    _check_claim_keys(ctx, claimed, where)
    if "winner" in claimed and claimed["winner"] != winner:
        ctx.error(
            "gandengyan.result.winner",
            f"{where}/winner",
            msg(
                "claimed winner seat {claimed}, but {computed}",
                claimed=claimed["winner"],
                computed=_winner_text(winner),
            ),
        )
    order = claimed.get("order")
    if order:
        if order[0] != winner:
            ctx.error(
                "gandengyan.result.order",
                f"{where}/order/0",
                msg(
                    "claimed seat {claimed} went out first, but {computed}",
                    claimed=order[0],
                    computed=_winner_text(winner),
                ),
            )
        if len(order) > 1:
            ctx.add(
                INFO,
                "gandengyan.result.order",
                f"{where}/order/1",
                msg("only the winner is ranked in Gan Deng Yan; the rest of the order is ignored"),
            )
    if "scores" in claimed and list(claimed["scores"]) != outcome["scores"]:
        ctx.error("gandengyan.result.scores", f"{where}/scores", _scores_differ(claimed["scores"], outcome))


def _scores_differ(claimed: Sequence[Number], outcome: Outcome) -> Msg:
    scores = {
        "claimed": Listing(claimed, ", ") if claimed else word("none"),
        "computed": Listing(outcome["scores"], ", "),
    }
    if outcome["multipliers"]:
        return msg(
            "claimed scores {claimed}, computed {computed} ({why})", **scores, why=Listing(outcome["multipliers"], "; ")
        )
    return msg("claimed scores {claimed}, computed {computed}", **scores)


OTHER_GAMES_CLAIMS: Final[tuple[str, ...]] = ("levels", "tribute")  # a tuple of any length: compiled, looped natively


def _check_claim_keys(ctx: Context, claimed: dict[str, Any], where: str) -> None:
    """Claims notation §6 gives to other games are errors (notation §9); `where`: the pointer of the claims."""
    for key in OTHER_GAMES_CLAIMS:
        if key in claimed:
            ctx.error("gandengyan.result.key", f"{where}/{key}", msg("{key} is not a Gan Deng Yan claim", key=key))


def _winner_text(winner: int | None) -> Msg:
    if winner is None:
        return msg("the deal ended without a winner (§4.6)")
    return msg("seat {seat} went out first", seat=winner)


def skip_deal(ctx: Context, match: Match, deal: Deal, state: DealState | None, stopped: bool) -> Outcome:
    """A deal not played to its end: the position reached; a stopped one then carries on
    from its claims (notation §9)."""
    outcome: Outcome = {"deal": deal.index, "status": STOPPED}
    if state is not None:
        outcome.update({"dealer": state.dealer, "turn": state.turn, "left": state.sizes(), "talon": state.talon_left})
    claimed = deal.result or {}
    scores = claimed.get("scores")
    if not stopped:  # the last deal, incomplete: totals with its claimed scores are no new finding (notation §5)
        if scores is not None and len(scores) == match.seats and match.carried is not None:
            match.carried = add_scores(match.carried, scores)
        return outcome
    _check_claim_keys(ctx, claimed, ctx.at("result"))
    order = claimed.get("order") or []
    winner = claimed.get("winner", order[0] if order else None)
    match.totals = None if scores is None or len(scores) != match.seats else add_scores(match.totals, scores)
    match.carried = None if match.totals is None or scores is None else add_scores(match.carried, scores)
    match.dealer = winner if match.options.next_dealer == "winner" else None
    match.first = False
    if winner is not None or scores is not None:
        outcome.update({"winner": winner, "scores": scores, "totals": match.totals, "from_claim": True})
    return outcome


def finish_match(ctx: Context, match: Match, claimed: dict[str, Any] | None) -> dict[str, Any]:
    return check_totals(
        ctx, NAME, word("Gan Deng Yan"), match.totals, match.carried, claimed or {}, "seat", _leader_of, _leader_text
    )


def ruled_match(ctx: Context, summary: dict[str, Any], keys: set[str], claimed: dict[str, Any]) -> None:
    """Ruled totals or winner (notation §10): the seat with the highest ruled total wins, unless the winner is ruled."""
    ruled_totals(ctx, NAME, summary, keys, claimed, "seat", _leader_of, _leader_text)


def _leader_text(leader: int | None) -> Msg:
    if leader is None:
        return msg("the top totals are tied")
    return msg("seat {seat} has the highest total", seat=leader)


def _leader_of(totals: Sequence[Number] | None) -> int | None:
    """The seat with the highest total; None on a tie (§5). Totals claimed may be any number."""
    if not totals:
        return None
    best = max(totals)
    return totals.index(best) if totals.count(best) == 1 else None


# ---------------------------------------------------------------- the arbiter's decisions (notation §10)


def fork(match: Match) -> Match:
    """A copy of the match state: where a voided deal's redeal starts from (made field by field: compiled by
    mypyc, Match is a native class)."""
    return Match(
        match.options,
        match.combos,
        match.seats,
        None if match.totals is None else list(match.totals),
        match.dealer,
        match.first,
        None if match.carried is None else list(match.carried),
    )


# Gan Deng Yan's claims carry on as totals (Match.carried), never as a whole match state
claimed_state, adopt_claim = no_claimed_state, computed_state


def stand(ctx: Context, state: DealState, action: Action) -> None:
    """An action that broke a rule, taken as played (a ruling `stands`): a play becomes the trick's latest
    (read as its `as`, or as the highest reading its cards make) and the turn passes on from its seat; a
    pass is that seat's pass. Raises StopDeal, before any change, where the action cannot stand."""
    seat, cards = action.seat, action.cards
    if action.verb == "play":
        listed, again, key = _require(state, seat, cards)
        readings = state.combos.readings_of(cards, key)
        if not readings:
            raise StopDeal("gandengyan.play.combination", _no_combination(seat, cards))
        chosen = (
            max(readings, key=lambda r: (r.bomb, bomb_order(r.rank)))
            if action.as_ is None
            else _named_reading(seat, cards, readings, action.as_)
        )
        _put(state, action, chosen, listed, again)
    elif action.verb == "pass":
        _passed(state, action)


COMPLETE_RESULT: Term = word(
    "the winner and every seat's scores, as the rules' scoring gives them: each loser pays what it loses "
    "(zero_sum: a score of 0 or less; winner_only: 0) and the winner scores what the losers pay (§5)"
)


def complete_result(result: dict[str, Any], seats: int, options: dict[str, Any]) -> bool:
    winner, scores = result.get("winner"), result.get("scores")
    if not (type(winner) is int and 0 <= winner < seats and isinstance(scores, list) and len(scores) == seats):
        return False
    # the form §5's scoring gives: zero_sum, each loser -p (p >= 0) and the winner the sum of the p;
    # winner_only, each loser 0 and the winner 0 or more
    losers = [score for seat, score in enumerate(scores) if seat != winner]
    if options["scoring"] == "zero_sum":
        return all(score <= 0 for score in losers) and scores[winner] == -sum(losers)
    return all(score == 0 for score in losers) and scores[winner] >= 0


def score_deal(ctx: Context, match: Match, deal: Deal, state: DealState, result: dict[str, Any], where: str) -> Outcome:
    """The deal ended at the decided action with the winner and scores a ruling `score` fixed: the totals
    and the next dealer follow from them (§1, §5). What else the ruling's result (at `where`) claims is
    checked against them."""
    winner, scores = result["winner"], list(result["scores"])
    _carry(match, scores, winner)
    match.carried = carried_on(match.carried, scores, deal.result or {})
    outcome: Outcome = {
        "deal": deal.index,
        "status": "scored",
        "dealer": state.dealer,
        "winner": winner,
        "left": state.sizes(),
        "talon": state.talon_left,
        "multipliers": [],
        "scores": scores,
        "totals": None if match.totals is None else list(match.totals),
    }
    _check_deal_claims(ctx, deal, outcome)
    _check_claims(ctx, result, outcome, where)
    return outcome


def claim_stands(before: Match, match: Match, outcome: Outcome, claimed: dict[str, Any], keys: set[str]) -> Match:
    """A deal's differing scores claim that a ruling `claim` let stand: the totals go on from it (notation §10)."""
    totals_claim_stands(match, outcome, claimed, keys)
    return match
