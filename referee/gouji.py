"""Gou Ji (够级), as docs/rules/gouji.md says. Section numbers (§) are that page's.

Every Gou Ji rule lives here; the replay driver calls it through the contract in game.py.
Where the page is silent, docs/gouji.md says how it was read.

Speed matters (a deal is about 300 actions): suits never matter to the play, so a play is read
into a small Set (size, rank, black jokers, red jokers), made once per kind of set, never per play; a
hand is a Hand, how many of each card it holds four bits a card, so that the cards a seat holds are
still checked card by card; seat sets are bit masks; seats, counts and masks are native 64-bit ints
(i64) where mypyc compiles the module; finding messages are built only when something is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .actions import DealPlay
from .cards import CODES, card_counts
from .claims import Number, add_scores, carried_on, check_totals, ruled_totals, totals_claim_stands
from .findings import WARNING, StopDeal, plain
from .game import computed_state, no_claimed_state
from .marks import final
from .messages import Cards, Count, Listing, Msg, Phrase, Term, part
from .reports import ReportWatch
from .rules import Option

msg, msg_n, word, word_of = part("gouji")

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from typing import Any, Final, NoReturn

    from mypy_extensions import i64  # a native 64-bit int where mypyc compiles the module; an int otherwise

    from .actions import Action, Deal
    from .contract import Legal, Outcome, Snapshot
    from .replay import Context


NAME = "gouji"
SEATS: Final = 6
MIN_SEATS = MAX_SEATS = SEATS
HAND_SIZE: Final = 36
COPIES: Final = 4
BJ: Final = 52
RJ: Final = 53

# Set order (§ terms): 3..A are 1..12, then 2, BJ, RJ.
TWO: Final = 13
BLACK: Final = 14
RED: Final = 15
RANK_NAMES = ("", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "BJ", "RJ")
_SET_RANK: Final[tuple[int, ...]] = tuple(TWO if c < 4 else c >> 2 for c in range(52)) + (BLACK, RED)
_RANK_WORDS = {"T": word("T"), "BJ": word("BJ"), "RJ": word("RJ")}  # ranks other languages write otherwise
WILD_CODES = [CODES[c] for c in (*range(4), BJ, RJ)]  # the 2s and the jokers (§ terms)
NORMAL: Final = 0
DUEL: Final = 1
SHAO: Final = 2
BLOCKS: Final = 1
ALTERNATING: Final = 2
NONE: Final = 0  # the action just taken (DealState.last_event): none of the three below
PLAYED: Final = 1  # a play that started no Gou Ji
STARTED: Final = 2  # a play that started a Gou Ji
DECLARED: Final = 3  # Xian Rang Rang or Shao Pai declared

DEFAULT_PRESET = "pagat"
PRESETS: dict[str, dict[str, Any]] = {"pagat": {}}
PRESET_ALIASES: dict[str, str] = {"gouji-pagat": "pagat"}
_BOOL = (True, False)
OPTIONS: dict[str, Option] = {
    "duel_thresholds": Option(
        {"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2},
        kind=dict,
        effect=word("rank -> least size of a set of that rank that starts a Gou Ji (§2)"),
    ),
    "pure_twos_qualify": Option(True, _BOOL, effect=word("a set of RANK 2 starts a Gou Ji (§2)")),
    "black_joker_qualifies": Option(True, _BOOL, effect=word("a set with a BJ and no RJ starts a Gou Ji (§2)")),
    "catch_wind": Option(
        "next_active", ("next_active", "teammate"), effect=word("who leads after a player went out (§4.3)")
    ),
    "end_when_team_out": Option(False, _BOOL, effect=word("the deal ends when one whole team is out (§5)")),
    "sweep_tribute": Option(
        "replace", ("replace", "add"), effect=word("the sweep exchange replaces or adds to tribute (§6.1)")
    ),
    "same_team_tribute": Option("waivable", ("waivable", "never"), effect=word("tribute between team-mates (§6.1)")),
    "revolution_declarers": Option(1, (1, 2, 3, 4, 5, 6), effect=word("declarations that void the deal (§6.5)")),
    "place_points": Option([4, 2, 0, 0, -2, -4], kind=list, effect=word("points of places 1-6 (§5)")),
    "sweep_multiplier": Option(2, kind=int, effect=word("factor of both team scores after a sweep (§5)")),
    "scoring": Option(
        "zero_sum",
        ("zero_sum", "winner_only"),
        effect=word("zero_sum: both teams score; winner_only: only the team with the positive score (§5)"),
    ),
    "threes_last": Option(False, _BOOL, effect=word("a set of 3s only as the last cards, without wilds (§2)")),
    "report_at": Option(None, kind=int, nullable=True, effect=word("count at which a report is expected (§7)")),
}


class GoujiOptions:
    """A record's options (OPTIONS), as rules.py resolved and checked them: what each one does is said there."""

    __slots__ = (
        "duel_thresholds",
        "pure_twos_qualify",
        "black_joker_qualifies",
        "catch_wind",
        "end_when_team_out",
        "sweep_tribute",
        "same_team_tribute",
        "revolution_declarers",
        "place_points",
        "sweep_multiplier",
        "scoring",
        "threes_last",
        "report_at",
    )

    def __init__(
        self,
        duel_thresholds: dict[str, int],
        pure_twos_qualify: bool,
        black_joker_qualifies: bool,
        catch_wind: str,
        end_when_team_out: bool,
        sweep_tribute: str,
        same_team_tribute: str,
        revolution_declarers: int,
        place_points: list[int],
        sweep_multiplier: int,
        scoring: str,
        threes_last: bool,
        report_at: int | None,
    ) -> None:
        self.duel_thresholds, self.pure_twos_qualify = duel_thresholds, pure_twos_qualify
        self.black_joker_qualifies, self.catch_wind = black_joker_qualifies, catch_wind
        self.end_when_team_out, self.sweep_tribute = end_when_team_out, sweep_tribute
        self.same_team_tribute, self.revolution_declarers = same_team_tribute, revolution_declarers
        self.place_points, self.sweep_multiplier, self.scoring = place_points, sweep_multiplier, scoring
        self.threes_last, self.report_at = threes_last, report_at


def team(seat: i64) -> i64:
    return seat & 1


def team_seats(t: i64) -> i64:
    """The seats of team `t` as bits: 0, 2, 4 and 1, 3, 5 (notation §3)."""
    return 0b010101 << t


def dui_men(seat: i64) -> i64:
    return seat + 3 if seat < 3 else seat - 3


def _seats(mask: int) -> list[int]:
    return [s for s in range(SEATS) if mask >> s & 1]


# ---------------------------------------------------------------- §2 sets, §3 the follow relation


class Set:
    """A set as §2 reads a play: how many cards, its RANK in set order, and the black and red jokers in it."""

    __slots__ = ("size", "rank", "black", "red")

    def __init__(self, size: i64, rank: i64, black: i64, red: i64) -> None:
        self.size, self.rank, self.black, self.red = size, rank, black, red


def read_set(cards: Sequence[int]) -> Set | None:
    """The set a play makes, or None when it is no set (§2)."""
    return _reading(tuple(cards))


LARGEST: Final = (
    16 + 16 + 2 * COPIES
)  # the most cards a held set has: 16 of a rank and 16 2s (4 suits, 4 packs), jokers
_READ: Final[list[Set | None]] = [None] * (16 * (LARGEST + 1) * (COPIES + 1) * (COPIES + 1))


NOT_HELD: Final = Set(0, 0, 0, 0)  # what _reading answers for the cards of a play the hand does not hold


def _reading(cards: tuple[int, ...], hand: Hand | None = None, rest: Hand | None = None) -> Set | None:
    """The set a play makes, or None when it is no set (§2); with the hand that plays it, NOT_HELD unless it holds
    every card (a card as many times as `cards` lists it), and then `rest` holds the hand without them. Read card
    by card (taken one by one from a copy of the hand's counts), the Set itself made once per kind of set (a table
    by size, rank and jokers), never per play; a single card (most plays) from a table by card."""
    if hand is not None and rest is not None and len(cards) == 1:
        return _single(cards[0], hand, rest)
    natural: i64 = 0
    twos: i64 = 0
    black: i64 = 0
    red: i64 = 0
    mixed = False
    w0: i64 = 0
    w1: i64 = 0
    w2: i64 = 0
    w3: i64 = 0
    if hand is not None:
        w0, w1, w2, w3 = hand.w0, hand.w1, hand.w2, hand.w3
    for card in cards:
        c: i64 = card
        if hand is not None:
            shift = (c & 15) << 2
            one: i64 = 1
            one <<= shift
            w = c >> 4
            if w == 0:
                if not w0 >> shift & 15:
                    return NOT_HELD
                w0 -= one
            elif w == 1:
                if not w1 >> shift & 15:
                    return NOT_HELD
                w1 -= one
            elif w == 2:
                if not w2 >> shift & 15:
                    return NOT_HELD
                w2 -= one
            else:
                if not w3 >> shift & 15:
                    return NOT_HELD
                w3 -= one
        if c >= BJ:
            if c == BJ:
                black += 1
            else:
                red += 1
        elif c < 4:
            twos += 1
        elif natural != c >> 2:
            mixed = mixed or natural != 0  # natural cards of a second rank
            natural = c >> 2
    size: i64 = len(cards)
    if hand is not None and rest is not None:
        rest.w0, rest.w1, rest.w2, rest.w3, rest.size = w0, w1, w2, w3, hand.size - size
    if mixed:
        return None
    rank: i64 = natural
    if not natural:
        rank = TWO if twos else BLACK if black else RED
    return _set_of(size, rank, black, red)


def _set_of(size: i64, rank: i64, black: i64, red: i64) -> Set:
    if size > LARGEST or black > COPIES or red > COPIES:  # no seat holds it: made as it is
        return Set(size, rank, black, red)
    key = ((rank * (LARGEST + 1) + size) * (COPIES + 1) + black) * (COPIES + 1) + red
    found = _READ[key]
    if found is None:
        found = _READ[key] = Set(size, rank, black, red)
    return found


def _single(card: i64, hand: Hand, rest: Hand) -> Set:
    """The set a single card makes when `hand` holds it (`rest` then the hand without it), else NOT_HELD."""
    if not 0 <= card < len(_SINGLES) or not hand[card]:
        return NOT_HELD
    rest.become(hand)
    rest.add(card, -1)
    return _SINGLES[card]


_SINGLES: Final = tuple(_set_of(1, _SET_RANK[c], int(c == BJ), int(c == RJ)) for c in range(RJ + 1))  # by card


@final
class Hand:
    """How many of each card (by id) a seat holds, and how many cards in all: four bits a card (a card has
    at most four copies in four packs), sixteen cards a word, so that a play's cards are still checked
    card by card, in native code and without making any object."""

    __slots__ = ("w0", "w1", "w2", "w3", "size")

    def __init__(self) -> None:
        self.w0: i64 = 0
        self.w1: i64 = 0
        self.w2: i64 = 0
        self.w3: i64 = 0
        self.size: i64 = 0

    def __getitem__(self, card: i64) -> i64:
        """How many of `card` the hand holds."""
        w = card >> 4
        word = self.w0 if w == 0 else self.w1 if w == 1 else self.w2 if w == 2 else self.w3
        return word >> ((card & 15) << 2) & 15

    def add(self, card: i64, n: i64) -> i64:
        """`n` more of `card` (fewer when negative), and how many the hand then holds; the caller keeps every
        count from 0 to 15."""
        w, shift = card >> 4, (card & 15) << 2
        step = n << shift
        if w == 0:
            self.w0 += step
            word = self.w0
        elif w == 1:
            self.w1 += step
            word = self.w1
        elif w == 2:
            self.w2 += step
            word = self.w2
        else:
            self.w3 += step
            word = self.w3
        self.size += n
        return word >> shift & 15

    def become(self, other: Hand) -> None:
        """The hand made to hold what `other` holds."""
        self.w0, self.w1, self.w2, self.w3, self.size = other.w0, other.w1, other.w2, other.w3, other.size

    def natural_ranks(self) -> i64:
        """How many of the natural ranks 3 … A the hand holds a card of: rank r's four cards (ids 4r … 4r+3)
        are the sixteen bits from (r % 4) * 16 of word r // 4."""
        n: i64 = 0
        for r in range(1, TWO):
            word = self.w0 if r < 4 else self.w1 if r < 8 else self.w2 if r < 12 else self.w3
            n += word >> ((r & 3) << 4) & 0xFFFF != 0
        return n

    def copy(self) -> Hand:
        copied = Hand()
        copied.become(self)
        return copied

    def lacking(self, cards: tuple[int, ...]) -> list[int]:
        """The cards of `cards` (a multiset) that the hand does not hold."""
        left = self.copy()
        short: list[int] = []
        for card in cards:
            if left[card]:
                left.add(card, -1)
            else:
                short.append(card)
        return short


def _cards_of(hand: Hand) -> list[int]:
    """The cards of a hand, low ids first."""
    return [c for c in range(54) for _ in range(hand[c])]


def _without(hand: Hand, cards: tuple[int, ...]) -> Hand:
    """The hand without the cards of a play it holds."""
    rest = Hand()
    _reading(cards, hand, rest)
    return rest


def follows(x: Set, y: Set) -> bool:
    """Whether set X may follow the top set Y (§3, all four conditions)."""
    return x.size == y.size and not y.red and x.rank > y.rank and x.red >= y.black


def qualifies(x: Set, thresholds: tuple[int, ...], o: GoujiOptions) -> bool:
    """Whether a set starts a Gou Ji (§2 qualifying set)."""
    if x.red:
        return False
    if x.black and o.black_joker_qualifies:
        return True
    if x.rank == TWO and o.pure_twos_qualify:
        return True
    return x.size >= thresholds[x.rank]


_SET_NAMES: Final = tuple(f"set:{name}" for name in RANK_NAMES)


def set_name(x: Set) -> str:
    return _SET_NAMES[x.rank]


def rank_word(r: int) -> str:
    """A set-order rank as messages name it (T, BJ and RJ are words of the catalogue)."""
    return _RANK_WORDS.get(RANK_NAMES[r], RANK_NAMES[r])


def describe(x: Set) -> Msg:
    size, black, red = x.size, x.black, x.red
    rank = "10" if x.rank == 8 else rank_word(x.rank)
    head = (
        msg("a single {rank}", rank=rank) if size == 1 else msg("a set of {size} {rank}s", size=Count(size), rank=rank)
    )
    jokers = [joker for joker in (_black_jokers(black), _red_jokers(red)) if joker]
    return msg("{set} ({jokers})", set=head, jokers=Listing(jokers, " and ")) if jokers else head


def reading_words(text: str, cards: list[str]) -> Msg | str:
    """A set played (`as` SET:RANK) in words, as a trick's line shows it: 三张4（含1张小王）."""
    x = read_set([CODES.index(code) for code in cards])
    return text if x is None else describe(x)


def _black_jokers(n: int) -> Msg | int:
    return n and msg_n("{n} black joker", "{n} black jokers", n)


def _red_jokers(n: int) -> Msg | int:
    return n and msg_n("{n} red joker", "{n} red jokers", n)


def may_follow(y: Set) -> Msg:
    if y.red:
        return msg("nothing may follow a set with a red joker (§3 rule 2)")
    if y.black:
        return msg_n(
            "only a set of {n} card of a higher rank than {rank} holding at least {reds} may follow",
            "only a set of {n} cards of a higher rank than {rank} holding at least {reds} may follow",
            y.size,
            rank=rank_word(y.rank),
            reds=_red_jokers(y.black),
        )
    return msg_n(
        "only a set of {n} card of a higher rank than {rank} may follow",
        "only a set of {n} cards of a higher rank than {rank} may follow",
        y.size,
        rank=rank_word(y.rank),
    )


def shao_valid(hand: Hand) -> bool:
    """§4.7.2: a non-empty rest whose jokers number at least (distinct natural ranks) − 1."""
    return hand.size > 0 and hand[BJ] + hand[RJ] >= hand.natural_ranks() - 1


# ---------------------------------------------------------------- match state (§1, §5, §6)


class Match:
    def __init__(
        self,
        options: GoujiOptions,
        thresholds: tuple[int, ...],
        previous: list[int] | None,
        fresh: bool,
        totals: list[int] | None,
    ) -> None:
        self.options, self.thresholds = options, thresholds
        self.previous = previous  # the previous finishing order; None when there is none
        self.fresh = fresh  # the next deal is a fresh game owing no ordinary tribute
        self.known = True  # False after a stopped deal that claims no order
        self.totals = totals  # [team 0, team 1]; None when not checkable
        self.carried = totals  # the totals the deals' claimed scores add up to (notation §9)


def new_match(ctx: Context, record: dict[str, Any], rules: dict[str, Any]) -> Match | None:
    if len(record["players"]) != SEATS:
        ctx.error(
            "gouji.deal.seats",
            "/players",
            msg("Gou Ji is played by 6 seats; this record lists {n} players", n=len(record["players"])),
        )
        return None
    thresholds = _options_fit(ctx, record, rules["options"])
    if thresholds is None:
        return None
    o = GoujiOptions(**rules["options"])
    start = record.get("start") or {}
    previous = start.get("previous_order")
    if previous is not None and sorted(previous) != list(range(SEATS)):
        ctx.error(
            "gouji.start.previous_order",
            "/start/previous_order",
            msg("previous_order must list all six seats once each"),
        )
        previous = None
    if start.get("fresh") is False and previous is None:
        ctx.error(
            "gouji.start.previous_order",
            "/start/fresh",
            msg("fresh is false, so the first deal is an ordinary game, but start gives no previous_order"),
        )
    given = list(start.get("totals", [0, 0]))
    totals = given if len(given) == 2 else None
    if totals is None:
        ctx.error("gouji.start.totals", "/start/totals", msg("start totals must give 2 numbers, one per team"))
    return Match(o, thresholds, previous, previous is None or start.get("fresh") is True, totals)


def _options_fit(ctx: Context, record: dict[str, Any], o: dict[str, Any]) -> tuple[int, ...] | None:
    """Ranges the option types cannot say; the thresholds as a table by set-order rank. `o`: the options as
    rules.py resolved them, whose values may still be of any type inside a dict or list."""
    raw = record.get("rules")
    given = raw.get("options", {}) if isinstance(raw, dict) else {}

    def bad(name: str, wanted: Msg) -> None:
        ctx.error(
            "notation.rules.option",
            f"/rules/options/{name}" if name in given else "/rules",
            msg("option {name} takes {wanted}", name=name, wanted=wanted),
        )

    table = [10**9] * 16
    fits = True
    for key, least in o["duel_thresholds"].items():
        r = RANK_NAMES.index(key) if key in RANK_NAMES[1:] else 0
        if not r or type(least) is not int or least < 1:
            bad("duel_thresholds", msg("an object of rank codes (3 … A, 2, BJ, RJ) to sizes ≥ 1"))
            fits = False
            break
        table[r] = least
    points = o["place_points"]
    if len(points) != SEATS or any(type(p) is not int for p in points):
        bad("place_points", msg("a list of 6 integers"))
        fits = False
    if o["sweep_multiplier"] < 1:
        bad("sweep_multiplier", msg("an integer ≥ 1"))
        fits = False
    if o["report_at"] is not None and o["report_at"] < 1:
        bad("report_at", msg("an integer ≥ 1 or null"))
        fits = False
    return tuple(table) if fits else None


COMPLETE, VOID, STOPPED = word("complete"), word("void"), word("stopped")  # a deal's status, as reports show it
# what a deal's tribute was (§6.1, §6.4, §6.5), as reports show it and result.tribute claims it
SWEEP, ORDINARY, SWEEP_AND_ORDINARY = word("sweep"), word("ordinary"), word("sweep_and_ordinary")
NO_TRIBUTE, REVOLUTION, WAIVED, LIBERATION = word("none"), word("revolution"), word("waived"), word("liberation")
TRIBUTE, RETURN = word("tribute"), word("return")  # a tribute or a return card, as messages name it
# a wild card as a table's legend and a card's label name it (Guandan's 逢人配, the others' 百搭)
WILD_WORDS: tuple[Term, Term] = (word("wild"), word("wild card"))
# the finishing places as players name them (头科 … 大落; sources/gouji-pagat.txt), first out first
PLACES: tuple[Term, ...] = (
    word("main winner"),
    word("second winner"),
    word("third winner"),
    word("fourth winner"),
    word("second loser"),
    word("big loser"),
)


# ---------------------------------------------------------------- deal state


class Relation:
    """One tribute duty (§6.1): payer owes `n` cards to receiver and gets as many back."""

    __slots__ = ("payer", "receiver", "n", "kind", "paid", "returned", "cancelled")

    def __init__(self, payer: int, receiver: int, n: int, kind: Term) -> None:
        self.payer, self.receiver, self.n, self.kind = payer, receiver, n, kind
        self.paid = self.returned = 0
        self.cancelled: str | None = None  # "waived" or "liberation"

    @property
    def open(self) -> bool:
        return self.cancelled is None


class DealState(DealPlay):
    __slots__ = (
        "options",
        "thresholds",
        "reports_at",
        "hands",
        "rest",
        "dealt",
        "live_count",
        "out",
        "penalised",
        "over",
        "void",
        "deal_kind",
        "holders",
        "relations",
        "previous",
        "leader",
        "leader_given",
        "revolutions",
        "tribute_started",
        "playing",
        "swapped",
        "top",
        "top_seat",
        "passed",
        "mode",
        "duel_starter",
        "duel_answerer",
        "duel_final",
        "shao_declarer",
        "shao_pending",
        "shao_bound",
        "locked",
        "rang_declarer",
        "rang_awaited",
        "last_actor",
        "last_event",
        "event_seat",
        "allowed",
        "endgame",
        "block_team",
        "acted_mask",
        "first_team",
        "actions",
        "last_taken",
        "void_plays",
        "trick_start",
        "reports",
        "leader_checked",
        "offender",
        "lapsed",
    )
    options: GoujiOptions
    thresholds: tuple[int, ...]
    reports_at: bool  # the options watch hand-size reports (report_at)
    hands: list[Hand]
    rest: Hand  # the hand of the seat whose play is judged, without that play's cards (_refusal fills it)
    dealt: list[list[int]]  # the record's dealt hands (card ids)
    holders: i64  # seats still holding cards, as bits (as every seat set)
    live_count: i64  # how many
    out: list[int]  # seats gone out, first out first
    penalised: list[int]  # seats out of the deal for an infringement, first penalised first
    over: bool
    void: bool
    deal_kind: str  # "fresh", "sweep" or "ordinary" (§6)
    relations: list[Relation]
    previous: list[int] | None
    leader: i64
    leader_given: int | None
    leader_checked: bool
    revolutions: set[int]
    tribute_started: bool
    playing: bool
    swapped: bool
    top: Set | None  # the trick's top set, and the seat that played it (-1 while it is None)
    top_seat: i64
    passed: i64
    mode: i64
    duel_starter: i64  # DUEL: the seat that started the Gou Ji, and its Dui Men
    duel_answerer: i64
    duel_final: bool
    shao_declarer: i64  # the seat playing Shao Pai (mode SHAO), else -1
    shao_pending: i64  # a Shao Pai declarer who has still to play its first set, else -1
    shao_bound: i64  # a Shao Pai declarer none of whose sets was beaten yet (§4.7.4), else -1
    locked: bool  # the trick is locked by Xian Rang Rang (§4.6)
    rang_declarer: i64  # Xian Rang Rang declared: the declarer and the seat whose pass is awaited, else -1
    rang_awaited: i64
    last_actor: i64  # the seat that played or passed last, else -1
    last_event: i64  # what the action just taken was (NONE, PLAYED, STARTED or DECLARED), and its seat
    event_seat: i64
    allowed: i64
    endgame: i64  # BLOCKS or ALTERNATING with four holders or fewer (§4.8), else 0
    block_team: i64  # BLOCKS: the team whose block acts
    acted_mask: i64  # the seats that acted in the block (BLOCKS) or round (ALTERNATING)
    first_team: i64  # ALTERNATING: the team that acts first
    actions: list[Action]  # the deal's actions (Action.index is the place of each)
    last_taken: i64  # the index of the last play or pass taken, else -1
    void_plays: list[int]  # the indices of the plays voided by §4.7.5 (never taken)
    trick_start: i64  # the index of the current trick's first action
    offender: i64
    lapsed: bool
    reports: ReportWatch

    def __init__(self, match: Match, deal: Deal, hands: list[Hand]) -> None:
        self.options, self.thresholds = match.options, match.thresholds
        self.reports_at = self.options.report_at is not None
        self.hands, self.rest = hands, Hand()
        self.dealt = deal.hands
        self.holders = (1 << SEATS) - 1
        self.live_count = SEATS
        self.out, self.penalised = [], []
        self.over = self.void = False
        self.relations = []
        self.previous = match.previous
        self.leader = -1 if deal.leader is None else deal.leader
        self.leader_given = deal.leader
        self.leader_checked = False
        self.revolutions = set()
        self.tribute_started = self.playing = self.swapped = False
        self.lapsed = False  # tribute and returns still owed lapsed: a play or pass before them stood
        self.top, self.top_seat, self.passed, self.mode = None, -1, 0, NORMAL
        self.duel_starter, self.duel_answerer, self.duel_final = -1, -1, False
        self.shao_declarer = self.shao_pending = self.shao_bound = -1
        self.locked, self.rang_declarer, self.rang_awaited = False, -1, -1
        self.last_actor, self.last_event, self.event_seat = -1, NONE, -1
        self.allowed = 0
        self.endgame = self.block_team = self.acted_mask = self.first_team = 0
        self.actions, self.last_taken, self.void_plays, self.trick_start = deal.actions, -1, [], 0
        self.offender = -1  # the seat whose action stopped the deal (for pagat's ruling)
        self.reports = ReportWatch(NAME, self.options.report_at)

    def take(self, ctx: Context, action: Action) -> None:
        """The action taken (the replay's loop calls this for each one): a pass or play of the play itself here,
        without a further call, any other action by _between_plays."""
        verb = action.verb
        if self.playing:
            if verb == "pass":
                return _pass(ctx, self, action)
            if verb == "play":
                return _play(ctx, self, action)
        _between_plays(ctx, self, action)

    def open_mask(self) -> i64:
        """Holders that have not passed and did not play the top set (§4)."""
        open_: i64 = self.holders & ~self.passed
        if self.top_seat >= 0:
            open_ &= ~(1 << self.top_seat)
        return open_

    def live(self, seat: i64) -> bool:
        """Whether the seat still holds cards."""
        return bool(self.holders >> seat & 1)

    def next_live(self, seat: i64) -> i64:
        for i in range(1, SEATS + 1):
            s = (seat + i) % SEATS
            if self.live(s):
                return s
        return seat


def deal_layout(options: dict[str, Any], seats: int, dealer: int) -> tuple[int, list[tuple[int, int]]]:
    """The packs, and (seat, cards) in the order a seed deals them (notation §11): four packs, 36 cards
    to each seat from seat 0."""
    return COPIES, [(seat, HAND_SIZE) for seat in range(seats)]


def start_deal(ctx: Context, match: Match, deal: Deal) -> DealState:
    if not match.known:
        raise StopDeal(
            "gouji.deal.uncheckable",
            msg("this deal cannot be checked: an earlier deal stopped and claims no finishing order"),
            severity=WARNING,
        )
    hands = _checked_hands(ctx, deal)
    state = DealState(match, deal, hands)  # led by the record's leader; an ordinary game by the last big loser
    previous = match.previous  # None only before a fresh game
    sweep = previous is not None and team(previous[0]) == team(previous[1]) == team(previous[2])
    state.deal_kind = "sweep" if sweep else "fresh" if match.fresh or previous is None else "ordinary"
    if state.deal_kind != "ordinary" and deal.leader is None:
        raise StopDeal(
            "gouji.leader.missing",
            msg("this deal is a fresh game (§1): the record must name its leader"),
            ctx.at("leader"),
        )
    if previous is not None:
        _owe(state, previous)
        if state.deal_kind == "ordinary":
            state.leader = previous[5]
    _tribute_done(ctx, state)
    return state


def _checked_hands(ctx: Context, deal: Deal) -> list[Hand]:
    """The dealt hands counted, once they are found to be six of 36 cards from four packs (§1)."""
    if len(deal.hands) != SEATS:
        raise StopDeal(
            "gouji.deal.hand_size", msg("a Gou Ji deal has 6 hands, not {n}", n=len(deal.hands)), ctx.at("hands")
        )
    for seat, cards in enumerate(deal.hands):
        if len(cards) != HAND_SIZE:
            raise StopDeal(
                "gouji.deal.hand_size",
                msg("seat {seat} was dealt {n} cards, not 36", seat=seat, n=len(cards)),
                ctx.at("hands", seat),
            )
    deck = Hand()  # six hands of 36 holding no card more than four times hold every card four times
    hands: list[Hand] = []
    for cards in deal.hands:
        hand = Hand()
        for card in cards:
            hand.add(card, 1)
            if deck.add(card, 1) > COPIES:
                _wrong_deck(ctx, deal)
        hands.append(hand)
    return hands


def _wrong_deck(ctx: Context, deal: Deal) -> NoReturn:
    seen = card_counts(deal.hands)
    wrong = [c for c in range(54) if seen[c] != COPIES]
    shown = Cards(" ".join(CODES[c] for c in wrong[:6]) + (" …" if len(wrong) > 6 else ""))
    raise StopDeal(
        "gouji.deal.deck",
        msg("{cards} do not appear exactly four times: the hands must be four 54-card packs", cards=shown),
        ctx.at("hands"),
    )


def _owe(state: DealState, previous: list[int]) -> None:
    """The relations owed at the start of a deal (§6.1), before any declaration."""
    if state.deal_kind == "sweep":
        state.relations = [Relation(p, dui_men(p), 1, SWEEP) for p in previous[3:]]
        if state.options.sweep_tribute == "replace":
            return
    elif state.deal_kind != "ordinary":
        return
    _owe_ordinary(state, previous)


# ---------------------------------------------------------------- actions


def apply(ctx: Context, state: DealState, action: Action) -> None:
    """The action taken, as every game's apply takes one: DealState.take, which the replay's loop calls itself."""
    state.take(ctx, action)


def _between_plays(ctx: Context, state: DealState, action: Action) -> None:
    """A declaration, tribute or return (DealState.take takes a play's passes and plays itself)."""
    verb = action.verb
    if verb == "declare":
        return _declare(ctx, state, action)
    if verb == "tribute":
        return _tribute(ctx, state, action)
    if verb == "return":
        return _return(ctx, state, action)
    seat, owed = action.seat, _owed(state)
    raise StopDeal(
        "gouji.tribute.order",
        msg("seat {seat} played while {owed}", seat=seat, owed=owed)
        if verb == "play"
        else msg("seat {seat} passed while {owed}", seat=seat, owed=owed),
    )


def _stop(state: DealState, seat: int, rule: str, message: Msg) -> NoReturn:
    state.offender = seat
    raise StopDeal(rule, message)


def _turn_error(state: DealState, seat: int, what: Msg) -> NoReturn:
    state.offender = seat
    if state.shao_pending >= 0:
        raise StopDeal(
            "gouji.shao_pai.first",
            msg(
                "seat {declarer} declared Shao Pai, so its play must come next (§4.7.1), but seat {seat} {did}",
                declarer=state.shao_pending,
                seat=seat,
                did=what,
            ),
        )
    raise StopDeal("gouji.turn", msg("seat {seat} {did} out of turn; {who}", seat=seat, did=what, who=_who_may(state)))


def _who_may(state: DealState) -> Msg:
    seats = _seats(state.allowed)
    if not seats:
        return msg("no seat could act")
    return msg("only {seats} could act ({mode})", seats=_seats_said(seats), mode=_mode(state))


def _seats_said(seats: list[int]) -> Listing:
    """Seats as a message lists them: seat 1 or seat 3."""
    return Listing([msg("seat {seat}", seat=s) for s in seats], " or ")


def _pass(ctx: Context, state: DealState, action: Action) -> None:
    seat: i64 = action.seat
    if not state.leader_checked:
        _check_leader(ctx, state)
    if not state.allowed >> seat & 1 or state.shao_pending >= 0:
        _turn_error(state, seat, msg("passed"))
    if state.top is None:
        _stop(state, seat, "gouji.lead.pass", msg("seat {seat} leads this trick and must play (§4.1)", seat=seat))
    _passed(state, seat, action)


def _passed(state: DealState, seat: i64, action: Action) -> None:
    """A pass that is taken (§4.3, §4.5); a leader's pass (taken only as a ruling lets it stand) hands the
    lead on."""
    bit: i64 = 1 << seat
    state.last_event = NONE
    state.last_taken = action.index
    if state.mode == DUEL and state.top is not None:  # §4.5: any pass ends the duel's trick
        return _end_trick(state)
    state.passed |= bit
    state.last_actor = seat
    if state.rang_declarer >= 0:
        _xian_rang_rang_pass(state, seat)
    if state.endgame:
        state.acted_mask |= bit
        state.first_team = 1 - team(seat)
    _next(state)


def _play(ctx: Context, state: DealState, action: Action) -> None:
    seat: i64 = action.seat
    cards = action.cards
    if not state.leader_checked:
        _check_leader(ctx, state)
    if not state.allowed >> seat & 1 or (state.shao_pending >= 0 and seat != state.shao_pending):
        _turn_error(state, seat, msg("played"))
    x = _reading(cards, state.hands[seat], state.rest)
    refused = _refusal(state, x)
    if refused is not None:
        _stop(state, seat, refused, _refusal_text(state, refused, seat, cards, x))
    assert x is not None  # no set is refused
    top = state.top
    if action.as_ is not None and action.as_ != set_name(x):
        ctx.error(
            "gouji.play.as",
            ctx.at("actions", action.index, "as"),
            msg(
                "seat {seat}'s {cards} reads as {set}, not {claimed} (§2)",
                seat=seat,
                cards=_shown(cards),
                set=set_name(x),
                claimed=action.as_,
            ),
            seat,
            action.index,
        )
    if x.rank == 1 and state.options.threes_last:
        _threes_last(state, seat, cards, x)
    if state.shao_pending >= 0:
        return _shao_first(ctx, state, action, x)
    if top is None and seat == state.shao_bound and not _shao_lead_ok(state, seat, x, cards):
        return _shao_void(
            ctx,
            state,
            action,
            msg(
                "seat {seat} led {set} while bound by its Shao Pai (§4.7.4): a lead "
                "must hold a joker unless it empties the hand, and leave a hand "
                "that still meets §4.7.2",
                seat=seat,
                set=describe(x),
            ),
        )
    _put(state, seat, action, x)


def _put(state: DealState, seat: i64, action: Action, x: Set) -> None:
    """A play that is taken (its cards held: state.rest is the hand without them): it becomes the trick's top
    set, and who acts next follows from its seat (§4.2)."""
    top = state.top
    hand = state.hands[seat]
    hand.become(state.rest)
    if state.reports_at:
        state.reports.played(seat, hand.size, action.index)
    if state.top_seat == state.shao_bound and top is not None:
        state.shao_bound = -1  # a set of the Shao Pai declarer was beaten (§4.7.4)
    state.last_taken = action.index
    state.top, state.top_seat, state.last_actor = x, seat, seat
    state.rang_declarer = -1  # a play declines Xian Rang Rang (§4.6)
    gone = hand.size == 0
    if gone:
        _goes_out(state, seat)
        if state.over:
            return
    _after_play(state, seat, x, gone)


def _after_play(state: DealState, seat: i64, x: Set, gone: bool) -> None:
    """§4.2.2 and §4.2.3: the mode after a play by `seat`, and who acts next."""
    mode = state.mode
    started = False
    if mode == SHAO:  # §4.7.3: a play on S1 starts a Gou Ji, qualifying or not
        started = state.live(dui_men(seat))
        state.mode = DUEL if started else NORMAL
    elif mode == NORMAL:
        started = state.live(dui_men(seat)) and qualifies(x, state.thresholds, state.options)
        if started:
            state.mode = DUEL
    state.last_event, state.event_seat = STARTED if started else PLAYED, seat
    if state.mode == DUEL:
        if started:
            state.duel_starter, state.duel_answerer, state.duel_final = seat, dui_men(seat), gone
            state.allowed = 1 << dui_men(seat)
        elif state.duel_final:  # §4.5: the one answer after a duellist went out
            _end_trick(state)
        else:
            state.duel_final = gone
            state.allowed = 1 << (state.duel_starter if seat == state.duel_answerer else state.duel_answerer)
        return
    if state.endgame:
        state.acted_mask |= 1 << seat
        state.first_team = 1 - team(seat)
    if gone and state.live_count <= 4:
        _restart(state, state.next_live(seat))
    _next(state)


def _refusal(state: DealState, x: Set | None) -> str | None:
    """The rule a play read as `x` (by _reading, with the hand that plays it) breaks now, or None: cards not
    held first, even when they would make no set (§4.9), then no set (§2), then a set that may not
    follow (§3). What the judge of a play and the list of what was legal both ask."""
    if x is NOT_HELD:
        return "gouji.cards.not_held"
    if x is None:
        return "gouji.play.combination"
    if state.top is not None and not follows(x, state.top):
        return "gouji.shao_pai.first" if state.shao_pending >= 0 else "gouji.follow"
    return None


def _refusal_text(state: DealState, rule: str, seat: i64, cards: tuple[int, ...], x: Set | None) -> Msg:
    if rule == "gouji.cards.not_held":
        lacking = state.hands[seat].lacking(cards)
        if len(lacking) < len(cards):
            return msg(
                "seat {seat} does not hold {cards} (of {play})", seat=seat, cards=_shown(lacking), play=_shown(cards)
            )
        return msg("seat {seat} does not hold {cards}", seat=seat, cards=_shown(lacking))
    if x is None:
        return msg(
            "seat {seat} played {cards}: natural cards of more than one rank are no Gou Ji set (§2)",
            seat=seat,
            cards=_shown(cards),
        )
    top = state.top
    assert top is not None  # a set refused while the table is empty is no set or not held
    return msg(
        "seat {seat} played {set} on {top}; {rule}", seat=seat, set=describe(x), top=describe(top), rule=may_follow(top)
    )


def _threes_last(state: DealState, seat: i64, cards: tuple[int, ...], x: Set) -> None:
    if x.size != state.hands[seat].size or any(c < 4 or c >= BJ for c in cards):
        _stop(
            state,
            seat,
            "gouji.threes_last",
            msg(
                "seat {seat} played {cards}: with threes_last a set of 3s may only "
                "be the player's last cards, without wild cards (§2)",
                seat=seat,
                cards=_shown(cards),
            ),
        )


def _shown(cards: Iterable[int]) -> Cards:
    return Cards(" ".join(CODES[c] for c in cards))


def _goes_out(state: DealState, seat: i64) -> None:
    """§4.2.1 and §5: the seat leaves the holders; the deal may end."""
    state.out.append(seat)
    _leave(state, seat)


def _leave(state: DealState, seat: i64) -> None:
    state.holders &= ~(1 << seat)
    state.live_count -= 1
    if state.shao_bound == seat:
        state.shao_bound = -1
    if state.live_count <= 1 or (
        state.options.end_when_team_out and sum(1 for s in state.out if team(s) == team(seat)) == 3
    ):
        state.over = True
    if state.over:
        state.allowed = 0


# ---------------------------------------------------------------- turn order (§4.3, §4.4, §4.8)


def _next(state: DealState) -> None:
    """Who may act now in NORMAL or SHAO mode; the trick ends when nobody may."""
    if state.endgame and state.live_count <= 4:
        allowed = _endgame_next(state)
    else:
        allowed = _first_after(state.last_actor, state.open_mask())
    if allowed:
        state.allowed = allowed
    else:
        _end_trick(state)


def _first_after(seat: i64, mask: i64) -> i64:
    """The bit of the first seat of `mask` after `seat` in seat order, `seat` itself last (§4.4); 0 if none."""
    after: i64 = mask >> (seat + 1) << (seat + 1)
    found = after if after else mask
    return found & -found


def _end_trick(state: DealState) -> None:
    """§4.3: the player of the top set leads, or the wind is caught from him."""
    t = state.top_seat
    if state.live(t):
        return _lead(state, t)
    if state.options.catch_wind == "teammate":
        for i in (2, 4):
            s = (t + i) % SEATS
            if state.live(s):
                return _lead(state, s)
    _lead(state, state.next_live(t))


def _lead(state: DealState, leader: i64) -> None:
    state.top, state.top_seat, state.passed, state.mode = None, -1, 0, NORMAL
    state.locked, state.rang_declarer, state.duel_final = False, -1, False
    state.trick_start = state.last_taken + 1
    state.allowed = 1 << leader
    state.endgame = 0
    if state.live_count <= 4:
        state.endgame = _endgame_kind(state)
        _bookkeeping_at_lead(state, leader)


def _endgame_kind(state: DealState) -> i64:
    return _ENDGAME_KINDS[state.holders]


def _endgame_kind_of(mask: int) -> int:
    holders = _seats(mask)
    alternating = len(holders) == 4 and all(team(holders[i]) != team(holders[i - 1]) for i in range(4))
    return ALTERNATING if alternating else BLOCKS


_ENDGAME_KINDS: Final = tuple(_endgame_kind_of(mask) for mask in range(1 << SEATS))  # by the holders' seat bits


def _block_before(state: DealState, seat: i64) -> i64:
    """The seats of `seat`'s block that come before it on the cycle of holders (§4.8)."""
    if not state.holders & team_seats(1 - team(seat)):
        return 0
    mask: i64 = 0
    s = seat
    while True:
        s = s - 1 if s > 0 else SEATS - 1
        if state.holders >> s & 1:
            if team(s) != team(seat):
                return mask
            mask |= 1 << s


def _bookkeeping_at_lead(state: DealState, leader: i64) -> None:
    if state.endgame == BLOCKS:
        state.block_team, state.acted_mask = team(leader), _block_before(state, leader)
    else:
        state.acted_mask, state.first_team = 0, 1 - team(leader)


def _restart(state: DealState, h: i64) -> None:
    """§4.8: the holders changed mid-trick; as if the turn had just reached h."""
    state.endgame = _endgame_kind(state)
    if state.endgame == BLOCKS:
        state.block_team, state.acted_mask = team(h), _block_before(state, h)
    else:
        state.acted_mask, state.first_team = 0, team(h)


def _endgame_next(state: DealState) -> i64:
    open_ = state.open_mask()
    if state.endgame == BLOCKS:
        found = open_ & team_seats(state.block_team) & ~state.acted_mask
        for _block in range(2):
            if found:
                return found
            state.block_team, state.acted_mask = 1 - state.block_team, 0
            found = open_ & team_seats(state.block_team)
        return found
    first, second = team_seats(state.first_team), team_seats(1 - state.first_team)
    free = open_ & ~state.acted_mask
    if not free:  # the circuit ends (§4.8)
        state.acted_mask, free = 0, open_
    return free & first if free & first else free & second


def _mode(state: DealState) -> Msg:
    if state.over:
        return msg("over")
    if not state.playing:
        return msg("tribute")
    if state.mode == DUEL:
        return msg("DUEL {seat}-{other}", seat=state.duel_starter, other=state.duel_answerer)
    if state.mode == SHAO:
        return msg("SHAO {seat}", seat=state.shao_declarer)
    if state.endgame and state.live_count <= 4:
        return msg("endgame blocks") if state.endgame == BLOCKS else msg("endgame alternating")
    return msg("NORMAL (locked)") if state.locked else msg("NORMAL")


# ---------------------------------------------------------------- Xian Rang Rang (§4.6), Shao Pai (§4.7)

# A declaration that breaks its conditions: the rule and the finding's message
Problem = tuple[str, Msg]


def _declare(ctx: Context, state: DealState, action: Action) -> None:
    name, seat = action.declare or "", action.seat  # a declare action always names one (notation §5)
    if state.over:
        return ctx.error(
            "gouji.deal.over",
            ctx.at("actions", action.index),
            msg("the deal was already over; no action may follow"),
            seat,
            action.index,
        )
    if name == "report":
        return state.reports.declare(ctx, action, state.hands[seat].size)
    if state.shao_pending >= 0:
        _turn_error(state, seat, msg("declared {name}", name=Term(name)))
    if name == "xian_rang_rang":  # the declaration met most, called without the table's generic call
        problem = _xian_rang_rang(state, seat)
    else:
        handler = _DECLARATIONS.get(name)
        if handler is None:
            return state.reports.declare(ctx, action, state.hands[seat].size, ", " + ", ".join(_DECLARATIONS))
        problem = handler(state, seat)
    if problem:
        rule, message = problem
        return ctx.error(rule, ctx.at("actions", action.index, "declare"), message, seat, action.index)
    if name in ("xian_rang_rang", "shao_pai"):
        state.last_event, state.event_seat = DECLARED, seat  # a declaration that broke its conditions changed nothing
    elif not state.over:
        state.playing = False  # the duties or the leader changed (§6.4)
        _tribute_done(ctx, state)


def _xian_rang_rang(state: DealState, s: int) -> Problem | None:
    rule = "gouji.xian_rang_rang"
    if not state.playing or state.mode != NORMAL or state.live_count < 5:
        return rule, msg("seat {seat} declared Xian Rang Rang, which needs mode NORMAL and five holders (§4.6)", seat=s)
    d = dui_men(s)
    if state.last_event != PLAYED or state.event_seat != d or not _only_passes_since(state, s):
        return rule, msg(
            "seat {seat} declared Xian Rang Rang, which must come right after its Dui Men "
            "(seat {dui_men}) played on seat {seat}'s set with only passes by seats {first} and "
            "{second} in between (§4.6)",
            seat=s,
            dui_men=d,
            first=(s + 1) % 6,
            second=(s + 2) % 6,
        )
    follower = (s + 4) % SEATS
    if not state.open_mask() >> follower & 1:
        return rule, msg(
            "seat {seat} declared Xian Rang Rang, but seat {follower} is not open (§4.6)", seat=s, follower=follower
        )
    state.rang_declarer, state.rang_awaited = s, follower
    return None


def _only_passes_since(state: DealState, s: int) -> bool:
    """The trick ends ... P by s, passes by s+1 / s+2 only, then s+3's play on P (§4.6)."""
    for action in reversed(_table(state)[:-1]):  # before s+3's play, last first
        if action.verb == "play":
            return action.seat == s
        if action.seat != (s + 1) % SEATS and action.seat != (s + 2) % SEATS:
            return False
    return False


def _xian_rang_rang_pass(state: DealState, seat: i64) -> None:
    """A pass by s+4 accepts; when s+5 passes too (or is not open) the trick is locked (§4.6)."""
    s, expected = state.rang_declarer, state.rang_awaited
    if seat != expected:
        return
    after = (s + 5) % SEATS
    if expected == after or not state.open_mask() >> after & 1:
        state.locked, state.rang_declarer = True, -1
    else:
        state.rang_awaited = after


def _shao_pai(state: DealState, q: int) -> Problem | None:
    rule = "gouji.shao_pai.declare"
    if not state.playing or state.last_event != STARTED:
        return rule, msg(
            "seat {seat} declared Shao Pai, which must come right after a play that started a Gou Ji (§4.7)", seat=q
        )
    p = state.event_seat
    if not state.live(q) or team(q) == team(p) or q == dui_men(p):
        return rule, msg(
            "seat {seat} declared Shao Pai on seat {starter}'s Gou Ji; only a holder of the other team "
            "other than the Dui Men (seat {dui_men}) may (§4.7)",
            seat=q,
            starter=p,
            dui_men=dui_men(p),
        )
    if state.locked:
        return rule, msg("seat {seat} declared Shao Pai in a trick locked by Xian Rang Rang (§4.6)", seat=q)
    state.shao_pending, state.allowed = q, 1 << q
    return None


def _shao_first(ctx: Context, state: DealState, action: Action, x: Set) -> None:
    """§4.7.1-3: S1, the declarer's play right after the declaration."""
    q = action.seat
    state.shao_pending = -1
    rest = _without(state.hands[q], action.cards)
    if not shao_valid(rest):
        return _shao_void(
            ctx,
            state,
            action,
            msg(
                "seat {seat}'s Shao Pai is false: after {set} its hand does not "
                "split into sets that each hold a joker plus one last set (§4.7.2)",
                seat=q,
                set=describe(x),
            ),
        )
    if state.top_seat == state.shao_bound:
        state.shao_bound = -1  # S1 beat a set of an earlier declarer (§4.7.4)
    state.hands[q] = rest
    if state.reports_at:
        state.reports.played(q, rest.size, action.index)
    state.last_taken = action.index
    state.top, state.top_seat, state.last_actor = x, q, q
    state.mode, state.shao_declarer, state.shao_bound = SHAO, q, q
    state.last_event, state.event_seat = PLAYED, q
    if state.live_count <= 4:
        state.endgame = _endgame_kind(state)
        _bookkeeping_at_lead(state, q)
        state.acted_mask |= 1 << q
    _next(state)


def _shao_void(ctx: Context, state: DealState, action: Action, message: Msg) -> None:
    """§4.7.5: the offending play is void; the declarer is ranked big loser and leaves the deal."""
    q = action.seat
    ctx.error(
        "gouji.shao_pai.invalid",
        ctx.at("actions", action.index),
        msg("{problem}; ruling: the play is void and the seat is ranked big loser (§4.7.5)", problem=message),
        q,
        action.index,
    )
    state.penalised.append(q)
    state.void_plays.append(action.index)
    state.last_event = NONE
    if state.shao_bound == q:
        state.shao_bound = -1
    was_lead = state.top is None
    _leave(state, q)
    if state.over:
        return
    if was_lead:
        _lead(state, state.next_live(q))
    elif state.mode == DUEL:
        state.allowed = 1 << state.duel_answerer  # d(p) answers p's set


def _shao_lead_ok(state: DealState, q: int, x: Set, cards: tuple[int, ...]) -> bool:
    if x.size == state.hands[q].size:
        return True
    return (x.black + x.red) > 0 and shao_valid(_without(state.hands[q], cards))


# ---------------------------------------------------------------- tribute and its declarations (§6)


def _between_deals(state: DealState, seat: int, name: str) -> Problem | None:
    """The common timing of §6.3.1: before any tribute action and before the first play."""
    if state.tribute_started or state.last_actor >= 0:
        return "gouji.tribute.order", msg(
            "seat {seat} declared {name} after tribute or play had begun; the "
            "declarations between deals come first (§6.3)",
            seat=seat,
            name=Term(name),
        )
    return None


def _revolution(state: DealState, seat: int) -> Problem | None:
    late = _between_deals(state, seat, "revolution")
    if late:
        return late
    if any(c < 4 or c >= BJ for c in state.dealt[seat]):
        return "gouji.revolution", msg(
            "seat {seat} declared revolution, but its dealt hand holds a 2 or a joker (§6.5)", seat=seat
        )
    if seat in state.revolutions:
        return "gouji.revolution", msg("seat {seat} already declared revolution (§6.5)", seat=seat)
    state.revolutions.add(seat)
    if len(state.revolutions) >= state.options.revolution_declarers:
        state.void = state.over = True
        state.allowed = 0
    return None


def _swap_losers(state: DealState, seat: int) -> Problem | None:
    late = _between_deals(state, seat, "swap_losers")
    if late:
        return late
    previous = state.previous
    if (
        previous is None
        or state.deal_kind != "ordinary"
        or state.swapped
        or seat not in previous[4:]
        or team(previous[4]) != team(previous[5])
    ):
        return "gouji.swap_losers", msg(
            "seat {seat} declared swap_losers; only the two losers of the previous "
            "deal, when team-mates, may swap, once, in an ordinary game (§6.4)",
            seat=seat,
        )
    if any(r.cancelled for r in state.relations):
        return "gouji.tribute.order", msg("swap_losers must come before any waiver or liberation (§6.3)")
    state.swapped = True
    order = previous[:4] + [previous[5], previous[4]]
    state.previous = order
    state.relations = []
    _owe_ordinary(state, order)
    state.leader = order[5]
    return None


def _owe_ordinary(state: DealState, order: list[int]) -> None:
    """o6 owes o1 two cards, o5 owes o2 one; between team-mates only when waivable (§6.1)."""
    for payer, receiver, n in ((order[5], order[0], 2), (order[4], order[1], 1)):
        if team(payer) != team(receiver) or state.options.same_team_tribute == "waivable":
            state.relations.append(Relation(payer, receiver, n, ORDINARY))


def _waive_tribute(state: DealState, seat: int) -> Problem | None:
    late = _between_deals(state, seat, "waive_tribute")
    if late:
        return late
    found = [
        r for r in state.relations if r.open and team(r.payer) == team(r.receiver) and seat in (r.payer, r.receiver)
    ]
    if not found:
        return "gouji.waive_tribute", msg(
            "seat {seat} waived tribute, but it has no tribute relation with a team-mate (§6.4)", seat=seat
        )
    for r in found:
        r.cancelled = "waived"
    return None


def _liberation(state: DealState, seat: int) -> Problem | None:
    late = _between_deals(state, seat, "liberation")
    if late:
        return late
    paying = [r for r in state.relations if r.open and r.payer == seat]
    if state.dealt[seat].count(RJ) != 4 or not paying:
        return "gouji.liberation", msg(
            "seat {seat} declared liberation; only a seat that owes tribute and was "
            "dealt all four red jokers may (§6.4)",
            seat=seat,
        )
    for r in paying:
        r.cancelled = "liberation"
    return None


_DECLARATIONS: dict[str, Callable[[DealState, int], Problem | None]] = {
    word("revolution"): _revolution,
    word("swap_losers"): _swap_losers,
    word("waive_tribute"): _waive_tribute,
    word("liberation"): _liberation,
    word("shao_pai"): _shao_pai,
    word("xian_rang_rang"): _xian_rang_rang,
}


def _tribute(ctx: Context, state: DealState, action: Action) -> None:
    seat, card = action.seat, action.card
    owed = [r for r in state.relations if r.open and r.payer == seat and r.paid < r.n and not state.lapsed]
    if not owed:
        raise StopDeal("gouji.tribute.payer", msg("seat {seat} paid tribute, but {owed}", seat=seat, owed=_owed(state)))
    relation, taker = _receiver(ctx, state, action, owed, "gouji.tribute.to", TRIBUTE)
    _holds(state, seat, card)
    highest = _highest_rank(state.hands[seat])
    if _SET_RANK[card] != highest:
        ctx.error(
            "gouji.tribute.card",
            ctx.at("actions", action.index, "tribute"),
            msg(
                "seat {seat} paid {card} as tribute, but must pay a card of its highest rank, {rank} (§6.2)",
                seat=seat,
                card=Cards(CODES[card]),
                rank=rank_word(highest),
            ),
            seat,
            action.index,
        )
    state.tribute_started = True
    _move(state, seat, taker, card)
    relation.paid += 1
    _tribute_done(ctx, state)


def _return(ctx: Context, state: DealState, action: Action) -> None:
    seat, card = action.seat, action.card
    due = [r for r in state.relations if r.open and r.receiver == seat and r.returned < r.n and not state.lapsed]
    if not due:
        raise StopDeal(
            "gouji.return.payer", msg("seat {seat} returned a card, but {owed}", seat=seat, owed=_owed(state))
        )
    if any(r.open and r.paid < r.n for r in state.relations):
        raise StopDeal(
            "gouji.tribute.order", msg("seat {seat} returned a card while {owed}", seat=seat, owed=_owed(state))
        )
    relation, taker = _receiver(ctx, state, action, due, "gouji.return.to", RETURN)
    _holds(state, seat, card)
    _move(state, seat, taker, card)
    relation.returned += 1
    _tribute_done(ctx, state)


_HIGH_FIRST: Final[tuple[int, ...]] = (RJ, BJ, 0, 1, 2, 3, *range(51, 3, -1))  # the cards in set order, highest first


def _highest_rank(hand: Hand) -> i64:
    """The highest set-order rank of the cards a hand holds (it holds one at least)."""
    for c in _HIGH_FIRST:
        if hand[c]:
            return _SET_RANK[c]
    return 0


def _holds(state: DealState, seat: int, card: int) -> None:
    if not state.hands[seat][card]:
        raise StopDeal(
            "gouji.cards.not_held", msg("seat {seat} does not hold {cards}", seat=seat, cards=Cards(CODES[card]))
        )


def _move(state: DealState, giver: int, taker: int, card: int) -> None:
    state.hands[giver].add(card, -1)
    state.hands[taker].add(card, 1)


def _receiver(
    ctx: Context, state: DealState, action: Action, duties: list[Relation], rule: str, verb: Term
) -> tuple[Relation, int]:
    """The duty a tribute or return settles and the seat its card goes to; `to` is required when it could be
    more than one seat (§6.2). A wrong `to` is reported and the card goes to the seat owed, unless a ruling
    lets it stand: then it goes to `to` (notation §10)."""
    mask: i64 = 0
    for r in duties:
        mask |= 1 << _counterpart(r, verb)
    seats = _seats(mask)
    if action.to is None:
        if len(seats) > 1:
            raise StopDeal(
                rule,
                msg(
                    "seat {seat} owes a {verb} to seats {first} and {second}; the action must say which with to (§6.2)",
                    seat=action.seat,
                    verb=verb,
                    first=seats[0],
                    second=seats[1],
                ),
            )
        return duties[0], seats[0]
    for r in duties:
        if _counterpart(r, verb) == action.to:
            return r, action.to
    if len(seats) > 1:
        raise StopDeal(
            rule,
            msg(
                "seat {seat} gave a {verb} to seat {to}, but owes one only to seats {first} and {second} (§6.2)",
                seat=action.seat,
                verb=verb,
                to=action.to,
                first=seats[0],
                second=seats[1],
            ),
        )
    stood = ctx.error_stands(
        rule,
        ctx.at("actions", action.index, "to"),
        msg(
            "seat {seat}'s {verb} goes to seat {owed}, not seat {to} (§6.2)",
            seat=action.seat,
            verb=verb,
            owed=seats[0],
            to=action.to,
        ),
        action.seat,
        action.index,
    )
    return duties[0], action.to if stood else seats[0]


def _counterpart(r: Relation, verb: Term) -> int:
    """The seat a duty's card goes to: its receiver for a tribute, its payer for a return."""
    return r.receiver if verb == "tribute" else r.payer


def _tribute_done(ctx: Context, state: DealState) -> None:
    """Play begins once every open duty is paid and returned (§6.3)."""
    if any(r.open and (r.paid < r.n or r.returned < r.n) for r in state.relations):
        return
    state.playing = True
    _lead(state, state.leader)


def _check_leader(ctx: Context, state: DealState) -> None:
    """A wrong `leader` is reported; the seat the rules name leads all the same (notation §9)."""
    state.leader_checked = True
    given = state.leader_given
    if given is not None and given != state.leader:
        ctx.error(
            "gouji.leader",
            ctx.at("leader"),
            msg(
                "the record names seat {given} as leader, but seat {leader}, "
                "the big loser of the previous deal, leads (§1)",
                given=given,
                leader=state.leader,
            ),
        )


def _owing(state: DealState) -> list[int]:
    """The seats that owe a tribute or return card before play starts (§6), as _owed says them."""
    seats = {r.payer for r in state.relations if r.open and r.paid < r.n}
    seats |= {r.receiver for r in state.relations if r.open and r.paid == r.n and r.returned < r.n}
    return sorted(seats)


def _owed(state: DealState) -> Listing | Msg:
    """What is owed before play starts (§6), for a message."""
    if state.lapsed:
        return msg("no tribute or return is owed")
    owed = [
        msg_n(
            "seat {seat} owes {n} tribute card to seat {to}",
            "seat {seat} owes {n} tribute cards to seat {to}",
            r.n - r.paid,
            seat=r.payer,
            to=r.receiver,
        )
        for r in state.relations
        if r.open and r.paid < r.n
    ]
    owed += [
        msg_n(
            "seat {seat} owes {n} return card to seat {to}",
            "seat {seat} owes {n} return cards to seat {to}",
            r.n - r.returned,
            seat=r.receiver,
            to=r.payer,
        )
        for r in state.relations
        if r.open and r.paid == r.n and r.returned < r.n
    ]
    return Listing(owed, "; ") if owed else msg("no tribute or return is owed")


def _tribute_kind(state: DealState) -> Term:
    if state.void:
        return REVOLUTION
    if not state.relations:
        return NO_TRIBUTE
    kinds = {r.kind for r in state.relations if r.open}
    if not kinds:
        return WAIVED if any(r.cancelled == "waived" for r in state.relations) else LIBERATION
    return SWEEP_AND_ORDINARY if len(kinds) == 2 else kinds.pop()


# ---------------------------------------------------------------- what would have been legal, the table


def _ruling(state: DealState) -> Phrase:
    return Phrase(
        msg(
            "pagat: an infringement makes the offender, seat {seat}, big loser (Da La) of the deal; the page "
            "applies that penalty to the outcome only for a false Shao Pai (§7), so no order is computed",
            seat=state.offender,
        )
    )


def legal(state: DealState) -> Legal:
    seats = _seats(state.allowed)
    mode = Phrase(_mode(state))
    out = _legal(state, seats, mode)
    if state.offender >= 0:
        out["ruling"] = _ruling(state)
    return out


def _legal(state: DealState, seats: list[int], mode: Phrase) -> Legal:
    if not state.playing or state.over:
        return {
            "mode": mode,
            "seats": seats,
            "may": Phrase(_owed(state) if not state.over else msg("the deal is over")),
        }
    out: Legal = {"mode": mode, "seats": seats, "may": ""}
    if state.top is None:
        out["may"] = Phrase(msg("{who} leads: any set", who=_seats_said(seats)))
        return out
    plays = {s: _followers(state, s, state.top) for s in seats}
    out["top"] = set_name(state.top)
    out["plays"] = {str(s): p for s, p in plays.items()}
    held = Listing(
        [
            msg("seat {seat} holds {sets}", seat=s, sets=Listing(p, ", "))
            if p
            else msg("seat {seat} holds nothing that may follow", seat=s)
            for s, p in plays.items()
        ],
        "; ",
    )
    if state.shao_pending >= 0:  # the declarer's first set, S1, must follow (§4.7.1)
        out["may"] = Phrase(
            msg(
                "seat {seat} plays its first Shao Pai set on {top} (§4.7.1): {allowed}; {held}",
                seat=state.shao_pending,
                top=describe(state.top),
                allowed=may_follow(state.top),
                held=held,
            )
        )
        return out
    out["may"] = Phrase(
        msg(
            "{who} passes or plays on {top}: {allowed}; {held}",
            who=_seats_said(seats),
            top=describe(state.top),
            allowed=may_follow(state.top),
            held=held,
        )
    )
    return out


def _followers(state: DealState, seat: int, top: Set) -> list[Cards]:
    """One set per rank from the seat's hand that may follow the top set, with the fewest wild cards
    (and of those the fewest jokers, red ones last). A set's rank and what it may follow depend only on
    how many natural cards, 2s, black and red jokers it holds (§2, §3): for every rank's natural cards
    (or none) and every count of each joker the rest is filled with that rank's cards, then 2s, and
    each such set is judged as a play is (_refusal)."""
    size = top.size
    held: dict[int, list[int]] = {}
    for c in _cards_of(state.hands[seat]):
        held.setdefault(_SET_RANK[c], []).append(c)
    twos, blacks, reds = held.get(TWO, []), held.get(BLACK, []), held.get(RED, [])
    best: dict[int, tuple[tuple[int, int, int], tuple[int, ...]]] = {}
    for own in [held.get(r, []) for r in range(1, TWO)] + [[]]:
        for d in range(min(size, len(reds)) + 1):
            for c in range(min(size - d, len(blacks)) + 1):
                a = min(len(own), size - c - d)
                b = size - a - c - d
                if b > len(twos):
                    continue
                cards = tuple(own[:a] + twos[:b] + blacks[:c] + reds[:d])
                x = _reading(cards, state.hands[seat], state.rest)
                if x is not None and _refusal(state, x) is None:
                    cost = (b + c + d, d, c)
                    if x.rank not in best or cost < best[x.rank][0]:
                        best[x.rank] = (cost, cards)
    return [_shown(sorted(best[r][1])) for r in sorted(best)]


def snapshot(state: DealState) -> Snapshot:
    return {
        "mode": Phrase(_mode(state)),
        "turn": None if state.over else _seats(state.allowed) if state.playing else _owing(state),
        "wild": WILD_CODES,
        "hands": [[CODES[c] for c in sorted(_cards_of(h), key=lambda c: (_SET_RANK[c], c))] for h in state.hands],
        "table": [_on_table(action) for action in _table(state)],
        "out": list(state.out),
        "penalised": list(state.penalised),
        "lock": state.locked or None,
        "owed": None if state.playing or state.over else Phrase(_owed(state)),
    }


def _table(state: DealState) -> list[Action]:
    """The plays and passes of the current trick, as taken: the deal's actions since the trick began, but its
    declarations, tributes and returns and the plays voided by §4.7.5."""
    since = state.actions[state.trick_start : state.last_taken + 1]
    return [a for a in since if a.verb in ("play", "pass") and a.index not in state.void_plays]


def _on_table(action: Action) -> dict[str, Any]:
    seat, cards = action.seat, action.cards
    if action.verb != "play":
        return {"seat": seat, "pass": True}
    x = read_set(cards)
    assert x is not None  # a play taken is a set
    return {"seat": seat, "play": [CODES[c] for c in cards], "as": set_name(x)}


# ---------------------------------------------------------------- end of deal, scoring (§5)


def _final_order(state: DealState) -> list[int]:
    rest = _seats(state.holders)
    if len(rest) > 1:  # end_when_team_out: fewer cards first, ties from after the last out
        last = state.out[-1]
        rest.sort(key=lambda s: (state.hands[s].size, (s - last - 1) % SEATS))
    return state.out + rest + state.penalised[::-1]


def scores_of(order: list[int], o: GoujiOptions) -> list[int]:
    points = o.place_points
    scores = [0, 0]
    for place, seat in enumerate(order):
        scores[team(seat)] += points[place]
    if team(order[0]) == team(order[1]) == team(order[2]):
        scores = [s * o.sweep_multiplier for s in scores]
    if o.scoring == "winner_only":
        scores = [max(s, 0) for s in scores]
    return scores


def finish_deal(ctx: Context, match: Match, state: DealState, deal: Deal) -> Outcome:
    if state.options.report_at is not None:
        state.reports.warn_missing(ctx)
    if not state.leader_checked:  # a deal voided by revolution before any play (§1)
        _check_leader(ctx, state)
    if state.void:
        match.fresh, match.previous = True, None
        return _ended(ctx, match, state, deal, None, [0, 0], VOID)
    order = _final_order(state)
    return _ended(ctx, match, state, deal, order, scores_of(order, state.options), COMPLETE)


def _ended(
    ctx: Context, match: Match, state: DealState, deal: Deal, order: list[int] | None, scores: list[int], status: str
) -> Outcome:
    """The outcome of a deal that ended in `order` (None: voided), the match advanced, the deal's claims checked."""
    if order is not None:
        match.fresh, match.previous = False, order
    match.totals = add_scores(match.totals, scores)
    match.carried = carried_on(match.carried, scores, deal.result or {})
    outcome: Outcome = {
        "deal": deal.index,
        "status": status,
        "tribute": _tribute_kind(state),
        "leader": None if state.void else state.leader,
        "order": order,
        "penalised": (state.penalised or None) if status != "scored" else None,
        "scores": scores,
        "totals": None if match.totals is None else list(match.totals),
    }
    _check_deal_claims(ctx, deal, outcome)
    return outcome


def _complete(order: Sequence[int] | None) -> list[int] | None:
    """A claimed order of six seats, or of five with the sixth implied (§5)."""
    if order is None:
        return None
    listed = set(order)
    if len(listed) != len(order) or len(order) not in (5, 6):
        return None
    return list(order) + [s for s in range(SEATS) if s not in listed]


def _check_deal_claims(ctx: Context, deal: Deal, outcome: Outcome) -> None:
    _check_claims(ctx, deal.result or {}, outcome, ctx.at("result"))


def _check_claims(ctx: Context, claimed: dict[str, Any], outcome: Outcome, where: str) -> None:
    """A deal's claims (`where`: their pointer, a deal's `result` or a `score` ruling's) against its outcome."""
    for key in ("levels", "winner"):
        if key in claimed:
            ctx.error("gouji.result.key", f"{where}/{key}", msg("{key} is not a Gou Ji deal claim", key=key))
    if "order" in claimed:
        computed = outcome["order"]
        if computed is None:
            ctx.error(
                "gouji.result.order",
                f"{where}/order",
                msg("a deal voided by revolution has no finishing order (§5)"),
            )
        elif _complete(claimed["order"]) != computed:
            ctx.error("gouji.result.order", f"{where}/order", _order_differs(claimed["order"], outcome))
    if "scores" in claimed and list(claimed["scores"]) != outcome["scores"]:
        ctx.error(
            "gouji.result.scores",
            f"{where}/scores",
            msg(
                "claimed scores {claimed}, computed {scores}",
                claimed=_claimed(claimed["scores"]),
                scores=Listing(outcome["scores"]),
            ),
        )
    if "tribute" in claimed and claimed["tribute"] != outcome["tribute"]:
        ctx.error(
            "gouji.result.tribute",
            f"{where}/tribute",
            msg(
                'claimed tribute {claimed}, computed "{tribute}"',
                claimed=plain(claimed["tribute"]),
                tribute=outcome["tribute"],
            ),
        )


def _order_differs(claimed: object, outcome: Outcome) -> Msg:
    order, penalised = Listing(outcome["order"]), outcome["penalised"]
    if penalised:
        return msg(
            "claimed order {claimed}, computed {order} (penalised seats last: {penalised})",
            claimed=_claimed(claimed),
            order=order,
            penalised=Listing(penalised),
        )
    return msg("claimed order {claimed}, computed {order}", claimed=_claimed(claimed), order=order)


def _claimed(value: object) -> Listing | str:
    """A claimed list of numbers as a list (shown as plain() shows it); any other value as the record wrote it."""
    if isinstance(value, list) and value and all(type(v) is int for v in value):
        return Listing(value)
    return plain(value)


def skip_deal(ctx: Context, match: Match, deal: Deal, state: DealState | None, stopped: bool) -> Outcome:
    """A deal not played to its end; a stopped one carries on from its claims (notation §9)."""
    outcome: Outcome = {"deal": deal.index, "status": STOPPED}
    if state is not None:
        outcome.update(
            {
                "mode": Phrase(_mode(state)),
                "turn": _seats(state.allowed),
                "out": list(state.out),
                "penalised": list(state.penalised) or None,
                "left": [hand.size for hand in state.hands],
            }
        )
        if state.offender >= 0:
            outcome["ruling"] = _ruling(state)
    claimed = deal.result or {}
    order = _complete(claimed.get("order"))
    scores = claimed.get("scores")
    if scores is None and order is not None:
        scores = scores_of(order, match.options)
    if not stopped:  # the last deal, incomplete: totals with its claimed scores are no new finding (notation §5)
        if scores is not None and len(scores) == 2 and match.carried is not None:
            match.carried = add_scores(match.carried, scores)
        return outcome
    if claimed.get("tribute") == "revolution":
        match.fresh, match.previous = True, None
    elif order is None:
        match.known = False
    else:
        match.fresh, match.previous = False, order
    match.totals = None if scores is None or len(scores) != 2 else add_scores(match.totals, scores)
    match.carried = None if match.totals is None or scores is None else add_scores(match.carried, scores)
    if order is not None or scores is not None:
        outcome.update({"order": order, "scores": scores, "totals": match.totals, "from_claim": True})
    return outcome


def finish_match(ctx: Context, match: Match, claimed: dict[str, Any] | None) -> dict[str, Any]:
    """The team with the higher total after the last complete deal wins; none on a tie (§5)."""
    return check_totals(
        ctx, NAME, word("Gou Ji"), match.totals, match.carried, claimed or {}, "team", _higher_team, _higher_said
    )


def ruled_match(ctx: Context, summary: dict[str, Any], keys: set[str], claimed: dict[str, Any]) -> None:
    """Ruled totals or winner (notation §10): the team with the higher ruled total wins, unless the winner is ruled."""
    ruled_totals(ctx, NAME, summary, keys, claimed, "team", _higher_team, _higher_said)


def _higher_said(winner: int | None) -> Msg:
    return msg("the totals are tied") if winner is None else msg("team {team} has the higher total", team=winner)


def _higher_team(totals: Sequence[Number] | None) -> int | None:
    return None if totals is None or totals[0] == totals[1] else int(totals[1] > totals[0])


# ---------------------------------------------------------------- the arbiter's decisions (notation §10)


def fork(match: Match) -> Match:
    """A copy of the match state: where a voided deal's redeal starts from."""
    copy = Match(
        match.options,
        match.thresholds,
        match.previous,
        match.fresh,
        None if match.totals is None else list(match.totals),
    )
    copy.known, copy.carried = match.known, None if match.carried is None else list(match.carried)
    return copy


# Gou Ji's claims carry on as the order and totals a later deal starts from, never as a whole match state
claimed_state, adopt_claim = no_claimed_state, computed_state


def stand(ctx: Context, state: DealState, action: Action) -> None:
    """An action that broke a rule, taken as played (a ruling `stands`): a play becomes the trick's top set
    and who acts next follows from its seat; a pass is that seat's pass; a tribute or return card moves to
    the seat its `to` names. Raises StopDeal, before any change, where the action cannot stand."""
    seat = action.seat
    if action.verb == "play":
        x = _reading(action.cards, state.hands[seat], state.rest)
        unplayable = (
            "gouji.cards.not_held" if x is NOT_HELD else "gouji.play.combination" if x is None else None
        )  # held first (§4.9)
        if unplayable is not None:
            _stop(state, seat, unplayable, _refusal_text(state, unplayable, seat, action.cards, x))
        assert x is not None  # no set is unplayable
        _lapse_tribute(state, seat)
        _put(state, seat, action, x)
    elif action.verb == "pass":
        _lapse_tribute(state, seat)
        _passed(state, seat, action)
    elif action.verb in ("tribute", "return"):
        if action.to is None:
            raise StopDeal(
                f"{NAME}.tribute.to",
                msg("the record does not say which seat received seat {seat}'s card (to)", seat=seat),
            )
        _holds(state, seat, action.card)
        _move(state, seat, action.to, action.card)


def _lapse_tribute(state: DealState, seat: int) -> None:
    """A play or pass that stood while tribute or a return was still owed: play has begun, with the trick led
    by that seat, so what is still owed is not given any more (notation §10; docs/gouji.md, Rulings)."""
    if not state.playing:
        state.lapsed = state.playing = True
        _lead(state, seat)


COMPLETE_RESULT: Term = word("the finishing order of every seat")


def complete_result(result: dict[str, Any], seats: int, options: dict[str, Any]) -> bool:
    return sorted(result.get("order") or [-1]) == list(range(seats))


def score_deal(ctx: Context, match: Match, deal: Deal, state: DealState, result: dict[str, Any], where: str) -> Outcome:
    """The deal ended at the decided action with the finishing order a ruling `score` fixed (pagat: the
    offender becomes the big loser): the scores and the next deal's tribute follow from it (§5, §6). What
    else the ruling's result (at `where`) claims is checked against them."""
    order = list(result["order"])
    outcome = _ended(ctx, match, state, deal, order, scores_of(order, state.options), "scored")
    _check_claims(ctx, result, outcome, where)
    return outcome


def claim_stands(before: Match, match: Match, outcome: Outcome, claimed: dict[str, Any], keys: set[str]) -> Match:
    """A deal's differing claims that a ruling `claim` let stand: its claimed order sets the next deal's
    tribute, its claimed scores the totals (notation §10)."""
    order = _complete(claimed.get("order")) if "order" in keys else None
    if order is not None:
        match.fresh, match.previous = False, order
    totals_claim_stands(match, outcome, claimed, keys)
    return match
