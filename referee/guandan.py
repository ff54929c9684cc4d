"""Guandan (掼蛋), as docs/rules/guandan.md says. Section numbers (§) are that page's.

Every Guandan rule lives here; the replay driver calls it through the contract in game.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from .actions import DealPlay
from .cards import (
    CODES,
    RANKS,
    RJ,
    TwoPackHand,
    Valued,
    card_counts,
    marks,
    parse_card,
    rank,
    rank_code,
    rank_shown,
    run_low,
)
from .claims import match_result
from .findings import INFO, WARNING, StopDeal, plays_said
from .messages import Cards, Listing, Msg, Phrase, Run, Term, counted, part
from .reports import ReportWatch
from .rules import Option, shared

msg, msg_n, word, word_of = part("guandan")

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from typing import Any, Final

    from mypy_extensions import i64  # a native 64-bit int where mypyc compiles the module; an int otherwise

    from .actions import Action, Deal
    from .contract import Legal, Outcome, Snapshot
    from .findings import Finding
    from .replay import Context

NAME = "guandan"
SEATS: Final = 4
MIN_SEATS = MAX_SEATS = SEATS
HAND_SIZE: Final = 27
ACE: Final = 12  # rank indices
RJ_RANK: Final = 14  # the red joker's (cards.rank)
CARD_IDS: Final = 54  # cards.py: 0..51 the natural cards, 52 and 53 the jokers
NATURAL_IDS: Final = 52
ALL_CARDS: Final = (1 << CARD_IDS) - 1  # a bit for each card id
TEN: Final = 8
HEARTS: Final = 1
TEN_OR_LOWER: Final = (1 << 4 * (TEN + 1)) - 1  # a bit for each card of 2..10

DEFAULT_PRESET = "official"
PRESETS: dict[str, dict[str, Any]] = {
    "official": {},
    "pagat": {
        "one_two_levels": 4,
        "return_cap": "none",
        "equal_double_tribute": "free",
        "a_fail_rule": "three_to_two",
        "wild_stands_for_itself": True,
        "report_at": None,
    },
}
PRESET_ALIASES: dict[str, str] = {"guandan-official": "official", "guandan-pagat": "pagat"}
OPTIONS: dict[str, Option] = {
    "max_bomb_size": Option(10, (8, 9, 10), effect=word("largest bomb")),
    "joker_bomb_rank": Option(
        "top",
        ("top", "below_eight"),
        effect=word("below_eight: the joker bomb ranks between the 7- and 8-card bombs (§3.4)"),
    ),
    "straight_flush_bomb": Option(
        True, (True, False), effect=word("false: no straight flush; one-suit runs are straights")
    ),
    "ace_low": Option(True, (True, False), effect=word("false: A only at 14")),
    "level_in_sequences": Option(True, (True, False), effect=word("false: no run covers rank L")),
    "wild_straight_flush": Option(True, (True, False), effect=word("false: a wild-completed run is only a straight")),
    "wild_stands_for_itself": Option(
        False, (True, False), effect=word("true: only the readings where the most wild cards stand for themselves (§2)")
    ),
    "full_house_joker_pair": Option(True, (True, False), effect=word("BJ BJ / RJ RJ as a full house's pair")),
    "one_two_levels": Option(3, (3, 4), effect=word("levels the winners rise after a 1-2 finish (§5)")),
    "a_win": Option(
        "one_two_or_one_three",
        ("one_two_or_one_three", "one_two", "any"),
        effect=word("which finishes at level A win the match for the declaring team (§5)"),
    ),
    "a_fail_rule": Option(
        "none",
        ("none", "three_to_two", "three_consecutive_to_k", "three_to_opponents_level", "two_consecutive_to_two"),
        effect=word("what failed attempts at level A cost the team (§5)"),
    ),
    "a_fail_after": Option(
        None,
        kind=int,
        nullable=True,
        effect=word("failures at level A after which the team is moved; null: as a_fail_rule says (docs/guandan.md)"),
    ),
    "a_fail_counts": Option(
        None,
        (None, "attempts", "consecutive_attempts", "deals_at_a"),
        effect=word("what counts as a failure at level A; null: as a_fail_rule says (docs/guandan.md)"),
    ),
    "a_fail_to": Option(
        None,
        (None, *RANKS[:-1], "opponents_level"),
        effect=word("the level a failing team is moved to; null: as a_fail_rule says (docs/guandan.md)"),
    ),
    "ace_finish_to_two": Option(
        False,
        (True, False),
        effect=word("true: an opponent going out first on aces at level A sends the declarers to 2 (§5)"),
    ),
    "return_cap": Option(
        "ten",
        ("ten", "none", "ten_to_partner"),
        effect=word(
            "which card a tribute receiver may return: ten or lower, any, ten or lower only to a partner (§6.5)"
        ),
    ),
    "return_excludes_level": Option(
        False, (True, False), effect=word("true: a return of rank L is refused even at face value ten or less (§6.5)")
    ),
    "play_out_after_one_two": Option(
        False, (True, False), effect=word("true: after a 1-2 finish play goes on until a third seat is out (§4.5)")
    ),
    "equal_double_tribute": Option(
        "clockwise",
        ("clockwise", "free"),
        effect=word("equal double tributes: the payer after o1 pays o1 and leads, or any allocation (§6.4)"),
    ),
    "report_at": Option(
        10,
        kind=int,
        nullable=True,
        effect=word("a seat at this many cards or fewer should report its count; null: no reports (§7)"),
    ),
}


class GuandanOptions:
    """A record's options (OPTIONS), as rules.py resolved and checked them: what each one does is said there (a
    plain class, not a dataclass, whose methods are made at start-up: 5 M instructions)."""

    def __init__(
        self,
        *,
        max_bomb_size: int,
        joker_bomb_rank: str,
        straight_flush_bomb: bool,
        ace_low: bool,
        level_in_sequences: bool,
        wild_straight_flush: bool,
        wild_stands_for_itself: bool,
        full_house_joker_pair: bool,
        one_two_levels: int,
        a_win: str,
        a_fail_rule: str,
        a_fail_after: int | None,
        a_fail_counts: str | None,
        a_fail_to: str | None,
        ace_finish_to_two: bool,
        return_cap: str,
        return_excludes_level: bool,
        play_out_after_one_two: bool,
        equal_double_tribute: str,
        report_at: int | None,
    ) -> None:
        self.max_bomb_size = max_bomb_size
        self.joker_bomb_rank = joker_bomb_rank
        self.straight_flush_bomb = straight_flush_bomb
        self.ace_low = ace_low
        self.level_in_sequences = level_in_sequences
        self.wild_straight_flush = wild_straight_flush
        self.wild_stands_for_itself = wild_stands_for_itself
        self.full_house_joker_pair = full_house_joker_pair
        self.one_two_levels = one_two_levels
        self.a_win = a_win
        self.a_fail_rule = a_fail_rule
        self.a_fail_after = a_fail_after
        self.a_fail_counts = a_fail_counts
        self.a_fail_to = a_fail_to
        self.ace_finish_to_two = ace_finish_to_two
        self.return_cap = return_cap
        self.return_excludes_level = return_excludes_level
        self.play_out_after_one_two = play_out_after_one_two
        self.equal_double_tribute = equal_double_tribute
        self.report_at = report_at


def partner(seat: int) -> int:
    return (seat + 2) % SEATS


def team(seat: int) -> int:
    return seat % 2


def level_code(level: int) -> str:
    return RANKS[level]


# ---------------------------------------------------------------- §2 combinations


class Reading(Valued):
    """One reading of a play (§2): a value, never changed once made (a plain class, not a frozen dataclass,
    so that mypyc compiles its making: plays are read by the thousand)."""

    __slots__ = ("type", "rank", "key", "step", "self_count", "name")

    def __init__(self, type: str, rank: str, key: int, step: float | None, self_count: int = 0) -> None:
        self.type = type
        self.rank = rank  # the RANK of `as`
        self.key = key  # compares within the type (level or natural order)
        self.step = step  # place on the bomb ladder (§3.4); None for other types
        self.self_count = self_count  # wild cards standing for themselves (§2, wild_stands_for_itself)
        self.name = f"{type}:{rank}"  # as `as` names it (TYPE:RANK)

    def fields(self) -> tuple[str, str, int, float | None, int]:
        return self.type, self.rank, self.key, self.step, self.self_count


RUN_SHAPES: Final = {"straight": (5, 1), "tube": (3, 2), "plate": (2, 3)}  # positions, cards per position
BOMB_STEPS: Final = {4: 0, 5: 1, 6: 3, 7: 4, 8: 5, 9: 6, 10: 7}  # straight flush: 2 (§3.4)
STRAIGHT_FLUSH_STEP: Final = 2


def level_value(r: i64, level: i64) -> i64:
    """Level order (§ terms): 2..A without L, then L, then BJ, then RJ."""
    if r == level:
        return 13
    return r + 1 if r >= 13 else r


def card_value(card: i64, level: i64) -> i64:
    """A card's place in level order: its rank's level_value."""
    return level_value(card >> 2 if card < NATURAL_IDS else card - 39, level)  # its rank (cards.rank)


def _combos(options: dict[str, Any]) -> Combos:
    """The readings of plays under the options of a record's rules (shared by rules.shared)."""
    return Combos(GuandanOptions(**options))


CACHE_LIMIT: Final = 200_000  # readings kept per cache: past it the cache is emptied, so that memory stays bounded
PLAY_SIZES: Final = 11  # 0..10 cards: no combination is larger than the largest bomb (§2)
ONE_RANK_PLAYS: Final = (RJ_RANK + 1) * PLAY_SIZES  # plays of one rank without wild cards, by rank and size


class Combos:
    """The readings of plays under one set of options, cached per level and shape (what the readings depend
    on: so "5S 5D" finds those of "5H 5C"), by shape alone where they are the same at every level (any_level),
    singles per level and card, other plays of one rank without wild cards per level, rank and size; new_match
    shares one per option set among all records (rules.shared)."""

    def __init__(self, options: GuandanOptions):
        self.options = options
        self.joker_step: float = 4.5 if options.joker_bomb_rank == "below_eight" else 8
        self.singles: list[list[tuple[Reading, ...] | None]] = [[None] * CARD_IDS for _ in RANKS]
        self.one_rank: list[list[tuple[Reading, ...] | None]] = [[None] * ONE_RANK_PLAYS for _ in RANKS]
        self.by_shape: list[dict[int, tuple[Reading, ...]]] = [{} for _ in RANKS]
        self.any_level: dict[int, tuple[Reading, ...]] = {}

    def readings(self, cards: tuple[int, ...], level: int) -> tuple[Reading, ...]:
        """The readings of `cards` at `level`, from the cache when it has them."""
        if len(cards) == 1:  # most plays are singles: theirs are kept by the card
            singles = self.singles[level]
            single = singles[cards[0]]
            if single is None:
                single = singles[cards[0]] = self._readings(cards, level)
            return single
        return self._readings(cards, level)

    def _readings(self, cards: tuple[int, ...], level: int) -> tuple[Reading, ...]:
        """Every reading of `cards`, the one with the most wild cards standing for themselves of each name
        (§2). They depend only on the play's shape: how many natural cards of each rank it holds, its wild
        cards and whether its natural cards are of one suit, hearts or another."""
        size: i64 = len(cards)
        if size > self.options.max_bomb_size:
            return ()  # no combination is larger than the largest bomb (§2)
        wild: i64 = level
        wild = wild * 4 + HEARTS
        wilds: i64 = 0
        suits: i64 = 0  # a bit for each suit among the natural cards
        naturals: i64 = 0  # how many cards of each rank 2..A but wild cards: 4 bits a rank, from the 2
        black: i64 = 0
        red: i64 = 0  # jokers
        ranks: i64 = 0  # a bit for each rank (cards.rank) among the cards but wild cards
        r: i64 = 0
        c: i64
        for c in cards:
            if c == wild:
                wilds += 1
                continue
            suit: i64 = 1  # shifted in place: mypyc writes `1 << n` as a C int's shift, of 32 bits
            suit <<= c & 3
            suits |= suit
            if c < NATURAL_IDS:
                r = c >> 2
                count: i64 = 1
                count <<= 4 * r  # to its rank's 4 bits
                naturals += count
            elif c == NATURAL_IDS:
                r = RJ_RANK - 1
                black += 1
            else:
                r = RJ_RANK
                red += 1
            bit: i64 = 1
            bit <<= r
            ranks |= bit
        if wilds == 0 and ranks & (ranks - 1) == 0:  # one rank, no wild card: suits do not matter
            kept = self.one_rank[level]
            found = kept[r * PLAY_SIZES + size]
            if found is None:
                found = kept[r * PLAY_SIZES + size] = self._shaped(
                    size, _rank_counts(naturals, black, red), 0, suits, level
                )
            return found
        if wilds > 3 or black > 3 or red > 3:  # held by no hand of two packs: not kept
            return self._shaped(size, _rank_counts(naturals, black, red), wilds, suits, level)
        # whether the natural cards are of one suit, hearts or another: only a straight's readings depend on it
        one_suit: i64 = 0 if size != 5 or suits == 0 or suits & (suits - 1) else 2 if suits == 1 << HEARTS else 1
        shape: i64 = naturals | black << 52 | red << 54 | wilds << 56 | one_suit << 58
        shape ^= shape >> 20 ^ shape >> 40  # one to one; the bits that differ reach the low bits a dict indexes
        # the level counts only through the wild cards and the cards of rank L (their place in level order and
        # the wild cards standing for them), and in runs where level_in_sequences is false (§2)
        at_any_level = wilds == 0 and not naturals >> 4 * level & 15 and self.options.level_in_sequences
        cache = self.any_level if at_any_level else self.by_shape[level]
        found = cache.get(shape)
        if found is None:
            if len(cache) >= CACHE_LIMIT:
                cache.clear()
            found = cache[shape] = self._shaped(size, _rank_counts(naturals, black, red), wilds, suits, level)
        return found

    def _shaped(self, size: int, counts: dict[int, int], wilds: int, suits: int, level: int) -> tuple[Reading, ...]:
        """The readings of a play of `size` cards: `counts` natural cards by rank, `wilds` wild cards, the
        natural cards of the suits `suits` (a bit for each)."""
        found: dict[str, Reading] = {}

        if len(counts) <= 1:
            self._same_rank(found, size, counts, wilds, level)
        if size == 4 and counts.get(13) == 2 and counts.get(14) == 2:
            _keep(found, Reading("joker_bomb", "RJ", 0, self.joker_step))
        if size == 5:
            self._full_houses(found, counts, wilds, level)
        if (size == 5 or size == 6) and 13 not in counts and 14 not in counts:
            for kind, (positions, per) in RUN_SHAPES.items():
                if size == positions * per:
                    self._runs(found, kind, positions, per, counts, suits, wilds, level)
        result = list(found.values())
        if self.options.wild_stands_for_itself and result:
            most = max(r.self_count for r in result)
            result = [r for r in result if r.self_count == most]
        return tuple(result)

    def _same_rank(self, found: dict[str, Reading], size: int, counts: dict[int, int], wilds: int, level: int) -> None:
        """single, pair, triple and bombs: one rank, wild cards filling in (§2)."""
        r = next(iter(counts)) if counts else level  # wild cards alone are rank L (§10.6)
        code = RANKS[r] if r < 13 else ("BJ", "RJ")[r - 13]
        key = level_value(r, level)
        itself = wilds if r == level else 0
        if r >= 13:
            if wilds == 0 and size <= 2:
                _keep(found, Reading(("single", "pair")[size - 1], code, key, None))
            return
        if size <= 3:
            _keep(found, Reading(("single", "pair", "triple")[size - 1], code, key, None, itself))
        elif size <= self.options.max_bomb_size:
            _keep(found, Reading("bomb", code, key, BOMB_STEPS[size], itself))

    def _full_houses(self, found: dict[str, Reading], counts: dict[int, int], wilds: int, level: int) -> None:
        """A triple plus a pair of another rank; never five equal cards (§10.5)."""
        if len(counts) > 2:
            return
        for t, have_t in counts.items():
            if t >= 13 or have_t > 3:
                continue
            others = [r for r in counts if r != t]
            if len(others) > 1:
                continue
            p = others[0] if others else -1  # -1: the pair is wild cards alone
            have_p = counts[p] if p >= 0 else 0
            if have_p > 2 or (p >= 13 and (have_p < 2 or not self.options.full_house_joker_pair)):
                continue
            need_t, need_p = 3 - have_t, 2 - have_p
            if need_t + need_p != wilds:
                continue
            itself = need_t if t == level else 0
            if p == level or (p < 0 and t != level):
                itself += need_p
            _keep(found, Reading("full_house", RANKS[t], level_value(t, level), None, itself))

    def _runs(
        self,
        found: dict[str, Reading],
        kind: str,
        positions: int,
        per: int,
        counts: dict[int, int],
        suits: int,
        wilds: int,
        level: int,
    ) -> None:
        """Straights, tubes, plates (and straight flushes) on natural positions (§2): the positions of a run
        ending at `top` are top - positions + 1 .. top, the ace at 1 where that is the lowest, else at 14."""
        low, high, ace = 15, 0, False  # the positions of the natural cards but aces (rank + 2)
        for r, n in counts.items():
            if n > per:
                return
            if r == ACE:
                ace = True
            else:
                low, high = min(low, r + 2), max(high, r + 2)
        lowest_top = positions if self.options.ace_low else positions + 1
        for top in range(max(lowest_top, high), 15):
            first = top - positions + 1
            if first > low:
                return
            if ace and first != 1 and top != 14:
                continue
            level_pos = 1 if level == ACE and first == 1 else level + 2
            level_in_run = first <= level_pos <= top
            if level_in_run and not self.options.level_in_sequences:
                continue
            itself = min(wilds, per - counts.get(level, 0)) if level_in_run else 0
            code = RANKS[top - 2]
            if kind != "straight":
                _keep(found, Reading(kind, code, top, None, itself))
            else:
                self._straights(found, code, top, suits, wilds, itself)

    def _straights(self, found: dict[str, Reading], code: str, top: int, suits: int, wilds: int, itself: int) -> None:
        one_suit = suits != 0 and suits & (suits - 1) == 0
        hearts = suits == 1 << HEARTS
        flush_allowed = self.options.straight_flush_bomb and (wilds == 0 or self.options.wild_straight_flush)
        if one_suit and flush_allowed:
            _keep(found, Reading("straight_flush", code, top, STRAIGHT_FLUSH_STEP, itself if hearts else 0))
            if wilds == 0:
                return  # five natural one-suit cards in a run are only a straight flush (§10.2)
        if one_suit and flush_allowed and hearts:
            itself = min(itself, wilds - 1)  # one wild must stand for another suit, or it is a flush
        _keep(found, Reading("straight", code, top, None, itself))


def _rank_counts(naturals: i64, black: i64, red: i64) -> dict[int, int]:
    """A play's cards but wild cards by rank, low ranks first: `naturals` of the ranks 2..A (4 bits each,
    from the 2), `black` and `red` jokers."""
    counts: dict[int, int] = {}
    for r in range(ACE + 1):
        if naturals >> 4 * r & 15:
            counts[r] = naturals >> 4 * r & 15
    if black:
        counts[RJ_RANK - 1] = black
    if red:
        counts[RJ_RANK] = red
    return counts


def _keep(found: dict[str, Reading], reading: Reading) -> None:
    """A reading found, kept where no other of its name lets more wild cards stand for themselves."""
    name = reading.name
    best = found.get(name)
    if best is None or reading.self_count > best.self_count:
        found[name] = reading


def beats(x: Reading, y: Reading) -> bool:
    """Whether X may follow Y (§3)."""
    if y.step is not None:
        return x.step is not None and (x.step, x.key) > (y.step, y.key)
    if x.step is not None:
        return True
    return x.type == y.type and x.key > y.key


# the combinations' names (§2), for what a report shows (`as`, may_follow) in each language
COMPLETE, STOPPED = word("complete"), word("stopped")  # a deal's status, as reports show it
# a wild card as a table's legend and a card's label name it (Guandan's 逢人配, the others' 百搭)
WILD_WORDS: tuple[Term, Term] = (word("wild"), word("wild card"))
# the finishing places as players name them (头游 … 末游), first out first
PLACES: tuple[Term, ...] = (word("first out"), word("second out"), word("third out"), word("last out"))
# the deal's tribute (§6) and the phases of a deal, as reports and tables show them
TRIBUTES = {
    "none": word_of("tribute", "none"),
    "single": word_of("tribute", "single"),
    "double": word_of("tribute", "double"),
    "resisted": word_of("tribute", "resisted"),
}
PHASES = {
    "tribute": word_of("phase", "tribute"),
    "return": word_of("phase", "return"),
    "play": word_of("phase", "play"),
    "over": word_of("phase", "over"),
}

COMBINATIONS = {
    "single": word("single"),
    "pair": word("pair"),
    "triple": word("triple"),
    "full_house": word("full house"),
    "straight": word("straight"),
    "tube": word("tube"),
    "plate": word("plate"),
    "bomb": word("bomb"),
    "straight_flush": word("straight flush"),
    "joker_bomb": word("joker bomb"),
}


# a play in words (§2), per type: the templates marked for the catalogue
DESCRIPTIONS = {
    "single": word("a single {rank}"),
    "pair": word("a pair of {rank}s"),
    "triple": word("a triple of {rank}s"),
    "full_house": word("a full house of {rank}s"),
    "straight": word("a straight to {rank}"),
    "tube": word("a tube to {rank}"),
    "plate": word("a plate to {rank}"),
    "straight_flush": word("a straight flush to {rank}"),
    "bomb": word("a bomb of {size} {rank}s"),
}


def describe(reading: Reading) -> Msg:
    """A play in words, as a message: "a pair of 10s", "a straight to K" (§2)."""
    return _described(reading.type, reading.rank, _bomb_size(reading) if reading.type == "bomb" else 0)


def reading_words(text: str, cards: list[str]) -> Msg | str:
    """An `as` reading (TYPE:RANK) of `cards` in words, as a trick's line shows it."""
    kind, _, r = text.partition(":")
    return _described(kind, r, len(cards)) if kind in COMBINATIONS else text


def _described(kind: str, r: str, size: int) -> Msg:
    if kind == "joker_bomb":
        return msg("the joker bomb")
    if r in ("BJ", "RJ"):  # a single or a pair of jokers
        if kind == "single":
            return msg("a single {joker}", joker=Term({"BJ": "black joker", "RJ": "red joker"}[r]))
        return msg("a pair of {jokers}", jokers={"BJ": word("black jokers"), "RJ": word("red jokers")}[r])
    positions = RUN_SHAPES[kind][0] if kind in RUN_SHAPES else 5 if kind == "straight_flush" else 0
    rank: Run | str = Run((rank_shown(run_low(r, positions)), rank_shown(r))) if positions else rank_shown(r)
    if kind == "bomb":
        return msg(str(DESCRIPTIONS[kind]), rank=rank, size=size)
    return msg(str(DESCRIPTIONS[kind]), rank=rank)


def _bomb_size(reading: Reading) -> int:
    return next(n for n, step in BOMB_STEPS.items() if step == reading.step)


def may_follow(top: Reading) -> Msg:
    """In words: what may follow `top` (§3)."""
    if top.type == "joker_bomb" and top.step == 8:
        return msg("nothing may follow the joker bomb")
    if top.step is None:
        return msg("only a higher {kind}, or a bomb, may follow", kind=COMBINATIONS[top.type])
    return msg("only a higher bomb may follow")


# ---------------------------------------------------------------- match state (§1, §5)


class Match:
    """The match as it stands between deals (a plain class, not a dataclass, so that mypyc compiles its making)."""

    def __init__(
        self,
        combos: Combos,
        levels: list[int] | None = None,
        settled: bool = True,
        declaring: int | None = None,
        previous_order: list[int] | None = None,
        attempts: list[int] | None = None,
        winner: int | None = None,
        claimed: Match | None = None,
    ) -> None:
        self.combos = combos  # the readings of plays, and the options
        self.levels = [0, 0] if levels is None else levels  # [team0, team1] rank indices
        self.settled = settled  # False once a deal ended without a known order
        self.declaring = declaring  # None: the fresh match's first deal (§1)
        self.previous_order = previous_order  # full o1..o4 of the last deal
        self.attempts = [0, 0] if attempts is None else attempts  # failed attempts at A, as counted (§5)
        self.winner = winner
        self.claimed = claimed  # carried on from a deal's differing levels claim (notation §9)


def fork(match: Match) -> Match:
    """A copy of the match state that later deals can advance on their own, made field by field."""
    return Match(
        match.combos,
        list(match.levels),
        match.settled,
        match.declaring,
        match.previous_order,
        list(match.attempts),
        match.winner,
        None if match.claimed is None else fork(match.claimed),
    )


def claimed_state(match: Match) -> Match | None:
    return match.claimed


def adopt_claim(ctx: Context, match: Match, broken: Finding) -> Match:
    """The state carried on from the differing claim, for a deal that breaks a rule at the computed
    levels but plays through at the claimed ones: the table went on from the claim (notation §9)."""
    chain = match.claimed
    assert chain is not None  # the driver asks only where claimed_state has one
    levels: dict[str, object] = {
        "computed": _levels_text(match.levels),
        "claimed": _levels_text(chain.levels),
        "broken": broken.text or broken.message,
    }
    if broken.action is None:
        text = msg(
            "at the computed levels {computed} this deal breaks a rule ({broken}), but it plays through "
            "at the claimed {claimed}: it is judged there, as the table played it",
            **levels,
        )
    else:
        text = msg(
            "at the computed levels {computed} this deal breaks a rule at action {action} ({broken}), but it "
            "plays through at the claimed {claimed}: it is judged there, as the table played it",
            action=counted(broken.action),
            **levels,
        )
    ctx.add(INFO, "guandan.levels.from_claim", ctx.at(), text)
    return chain


def _levels_text(levels: list[int]) -> Listing:
    return Listing([RANKS[v] for v in levels], " and ")


def new_match(ctx: Context, record: dict[str, Any], rules: dict[str, Any]) -> Match | None:
    if len(record["players"]) != SEATS:
        ctx.error(
            "guandan.deal.seats",
            "/players",
            msg("Guandan is played by 4 seats; this record lists {n} players", n=len(record["players"])),
        )
        return None
    after = rules["options"]["a_fail_after"]
    if after is not None and after < 1:
        ctx.error(
            "notation.rules.option",
            "/rules/options/a_fail_after",
            msg("option {option} takes an integer ≥ 1 or null", option="a_fail_after"),
        )
        return None
    match = Match(shared(_combos, rules["options"]), levels=[0, 0])
    start = record.get("start") or {}
    if start:
        _read_start(ctx, match, start)
    return match


def _read_start(ctx: Context, match: Match, start: dict[str, Any]) -> None:
    """`start` for a record that begins mid-match (§1)."""
    if "levels" not in start:
        ctx.error("guandan.start.levels", "/start/levels", msg("a mid-match start must give both teams' levels"))
    else:
        match.levels = [_rank_index(v) for v in start["levels"]]
    if "a_attempts" in start:
        match.attempts = list(start["a_attempts"])
    order = start.get("previous_order")
    if order is not None:
        full = _complete_order(order)
        if full is None:
            ctx.error(
                "guandan.start.previous_order",
                "/start/previous_order",
                msg("previous_order must list 2 partners (a 1-2 finish), 3 or 4 different seats"),
            )
        else:
            match.previous_order = full
            match.declaring = team(full[0])
            if "playing" in start and start["playing"] != match.declaring:
                ctx.error(
                    "guandan.start.playing",
                    "/start/playing",
                    msg(
                        "previous_order makes team {team} the declaring team, not team {named}",
                        team=match.declaring,
                        named=start["playing"],
                    ),
                )
        return
    if "playing" in start:
        match.declaring = start["playing"]
    elif match.levels and (match.levels[0] != match.levels[1] or match.levels[0] == ACE):
        ctx.error(
            "guandan.start.playing",
            "/start/playing",
            msg("the levels differ (or both are A): start must say which team is playing"),
        )


RANK_INDEX: Final = {spelled: r for r, code in enumerate(RANKS) for spelled in (code, code.lower())} | {"10": TEN}


def _rank_index(code: str) -> int:
    found = RANK_INDEX.get(code)
    return RANKS.index(rank_code(code)) if found is None else found


def _complete_order(order: list[int]) -> list[int] | None:
    """o1..o4 from a listed order of 2 (a 1-2 finish), 3 or 4 distinct seats (§5)."""
    if len(set(order)) != len(order) or not 2 <= len(order) <= 4:
        return None
    if len(order) == 2 and order[1] != partner(order[0]):
        return None
    rest = [s for s in ((order[-1] + i) % SEATS for i in range(1, SEATS)) if s not in order]
    return list(order) + rest


# ---------------------------------------------------------------- deal state


class DealState(DealPlay):
    """A deal as it stands (a plain class, not a dataclass, so that mypyc compiles its making)."""

    def __init__(
        self,
        level: int,
        options: GuandanOptions,
        combos: Combos,
        dealt: list[list[int]],
        sizes: list[int],
        tribute: str,
        payers: list[int],
        receivers: list[int],
        record_leader: int | None,
    ) -> None:
        self.level, self.options, self.combos, self.dealt = level, options, combos, dealt
        self.hands = [TwoPackHand(cards) for cards in dealt]  # by seat
        self.holding: i64 = 0  # a bit for each seat that holds cards
        for seat in range(len(sizes)):
            self.hands[seat].size = sizes[seat]
            if sizes[seat]:
                self.holding |= 1 << seat
        self.tribute = tribute  # none, single, double, resisted (§6)
        self.payers = payers  # seats owing tribute, in the order o3, o4 / o4
        self.receivers = receivers  # o1 (and o2)
        self.record_leader = record_leader
        self.paid: dict[int, tuple[int, int, int | None]] = {}  # payer -> (card, action index, to)
        self.given: dict[int, tuple[int, int]] = {}  # receiver -> (payer, card received)
        self.returned: dict[int, tuple[int, int]] = {}  # receiver -> (card returned, seat it went to)
        self.wrong_cards: set[int] = set()  # payers whose tribute card was not the due one
        self.levels: list[str] = []  # both teams' levels as the deal starts
        self.declaring: int | None = None
        self.leader: int | None = None
        self.turn: int | None = None
        self.top: Reading | None = None  # the reading of the top play
        self.top_seat: i64 = -1  # the seat of the top play; -1 on a lead
        self.passed: i64 = 0  # a bit for each seat that passed on the top play
        # the deal's plays and passes as taken, the current trick's from trick_start on (a log, never cleared:
        # the end of a trick moves trick_start), and the reading of each play, in the same order
        self.trick: list[Action] = []
        self.trick_start: i64 = 0
        self.readings: list[Reading] = []
        self.out: list[int] = []
        self.last_play: dict[int, tuple[int, ...]] = {}  # the play that took each seat out
        self.reports = ReportWatch(NAME, options.report_at)
        self.report_at = options.report_at or 0  # 0 where there are no reports (§7)
        self.low: i64 = 0  # a bit for each seat that `reports` saw go to report_at cards or fewer
        self.over = False
        self.lapsed = False  # tribute and returns still owed lapsed: a play or pass before them stood

    def take(self, ctx: Context, action: Action) -> None:
        apply(ctx, self, action)

    @property
    def phase(self) -> str:
        if self.lapsed:
            return "play"
        if len(self.paid) < len(self.payers):
            return "tribute"
        if len(self.returned) < len(self.given):
            return "return"
        return "play"

    def next_holder(self, seat: i64) -> i64:
        holding = self.holding
        for i in range(1, SEATS):
            s = (seat + i) % SEATS
            if holding >> s & 1:
                return s
        return seat

    def cards(self, seat: int) -> list[int]:
        """The cards `seat` holds, low ids first."""
        return self.hands[seat].cards()


def deal_layout(options: dict[str, Any], seats: int, dealer: int) -> tuple[int, list[tuple[int, int]]]:
    """The packs, and (seat, cards) in the order a seed deals them (notation §11): two packs, 27 cards
    to each seat from seat 0."""
    return 2, [(seat, HAND_SIZE) for seat in range(seats)]


def start_deal(ctx: Context, match: Match, deal: Deal) -> DealState:
    if match.winner is not None:
        raise StopDeal(
            "guandan.match.over", msg("team {team} already won the match; no deal may follow", team=match.winner)
        )
    if not match.settled:
        raise StopDeal(
            "guandan.deal.uncheckable",
            msg("this deal cannot be checked: an earlier deal stopped and claims no finishing order"),
            severity=WARNING,
        )
    _check_hands(ctx, deal)
    level = match.levels[match.declaring if match.declaring is not None else 0]
    order = match.previous_order
    state = DealState(
        level, match.combos.options, match.combos, deal.hands, [HAND_SIZE] * SEATS, "none", [], [], deal.leader
    )
    _check_deck(ctx, deal, state.hands)
    state.levels, state.declaring = [level_code(v) for v in match.levels], match.declaring
    if order is None:
        if deal.leader is None:
            raise StopDeal(
                "guandan.leader.missing",
                msg("the first deal of a match must name its leader (the holder of the turned card)"),
                ctx.at("leader"),
            )
        _begin_play(state, deal.leader)
        return state
    _owe_tribute(state, order)
    if state.tribute == "resisted":
        _begin_play(state, order[0])
    elif state.tribute == "single":
        _begin_play(state, state.payers[0])
    if state.leader is not None:
        _check_leader(ctx, state)
    return state


def _check_hands(ctx: Context, deal: Deal) -> None:
    """Four hands of 27 (§1)."""
    if len(deal.hands) != SEATS:
        raise StopDeal(
            "guandan.deal.hands", msg("a Guandan deal has 4 hands, not {n}", n=len(deal.hands)), ctx.at("hands")
        )
    for seat, hand in enumerate(deal.hands):
        if len(hand) != HAND_SIZE:
            raise StopDeal(
                "guandan.deal.hand_size",
                msg("seat {seat} was dealt {n} cards; every Guandan hand has 27", seat=seat, n=len(hand)),
                ctx.at("hands", seat),
                seat=seat,
            )


def _check_deck(ctx: Context, deal: Deal, hands: list[TwoPackHand]) -> None:
    """The four hands dealt (`hands`, made from `deal`'s) together are exactly two packs (§1)."""
    if not _two_packs(hands):
        wrong = [(c, n) for c, n in enumerate(card_counts(deal.hands)) if n != 2]
        counts = Listing([msg("{card} {n} times", card=Cards(CODES[c]), n=n) for c, n in wrong[:6]], ", ")
        text = (
            msg("the hands are not two full packs: every card must appear exactly twice, but {counts}", counts=counts)
            if len(wrong) <= 6
            else msg(
                "the hands are not two full packs: every card must appear exactly twice, but {counts} …", counts=counts
            )
        )
        raise StopDeal("guandan.deck", text, ctx.at("hands"))


def _two_packs(hands: list[TwoPackHand]) -> bool:
    """Whether the hands hold every card exactly twice together: as they hold 108 cards (_check_hands), whether
    they hold every card at least twice (a hand keeps no third of a card, so a hand dealt three of one leaves
    another short). A bit for each card in masks of the cards met at least once and twice."""
    once: i64 = 0
    twice: i64 = 0
    for hand in hands:
        twice |= hand.twice | once & hand.once
        once |= hand.once
    return twice == ALL_CARDS


def _owe_tribute(state: DealState, order: list[int]) -> None:
    """Kind of tribute and who pays whom (§6.1, §6.2)."""
    o1, o2, o3, o4 = order
    if o2 == partner(o1):
        payers, receivers = [o3, o4], [o1, o2]
    else:
        payers, receivers = [o4], [o1]
    red_jokers = sum(state.hands[p].count(RJ) for p in payers)
    if red_jokers == 2:
        state.tribute = "resisted"
        return
    state.tribute = "double" if len(payers) == 2 else "single"
    state.payers, state.receivers = payers, receivers


def previous_order_shown(payers: list[int], o1: int) -> list[int]:
    """The previous deal's finishing order as far as a deal's tribute shows it (§6.1, §6.2), for a
    record that starts mid-match: o1 and the payers, o4 (and o3). Two payers mean a 1-2 finish.
    Places the tribute cannot tell apart (o2 and o3 of a 1-4 finish) go in seat order; nothing
    checked depends on them."""
    if len(payers) == 2:
        return [o1, partner(o1)]
    o4 = payers[0]
    if o4 == partner(o1):
        return [o1, (o1 + 1) % SEATS, (o1 + 3) % SEATS, o4]
    return [o1, partner(o4), partner(o1), o4]


def equal_tributes(cards: list[str], level: str) -> bool:
    """Two tributes of equal value (§6.4): where they are allocated freely, the record must name
    the leader."""
    ids = [card for card in map(parse_card, cards) if card is not None]
    values = {card_value(c, _rank_index(level)) for c in ids}
    return len(ids) == len(cards) == 2 and len(values) == 1


def _begin_play(state: DealState, leader: int) -> None:
    state.leader = state.turn = leader


def _check_leader(ctx: Context, state: DealState) -> None:
    """A wrong `leader` is reported; the seat the rules name leads all the same (notation §9)."""
    if state.record_leader is not None and state.record_leader != state.leader:
        ctx.error(
            "guandan.leader",
            ctx.at("leader"),
            msg(
                "the record names seat {named} as leader, but seat {seat} leads ({reason})",
                named=state.record_leader,
                seat=state.leader,
                reason=_leader_reason(state),
            ),
        )


def _leader_reason(state: DealState) -> Msg:
    """Who leads after the tribute (§6.6): the leader is checked only in a deal with one."""
    if state.tribute == "single":
        return msg("the tribute payer leads")
    if state.tribute == "double":
        return msg("the payer who paid o1 leads")
    return msg("after anti-tribute the previous winner leads")


# ---------------------------------------------------------------- actions

# what an unknown declaration's message adds in Guandan (§6.2), made once: reports are declared often
DECLARATIONS_NOTE: Final = msg(" (anti-tribute is automatic)")


def apply(ctx: Context, state: DealState, action: Action) -> None:
    verb = action.verb  # the most common first
    if verb == "pass":
        _in_turn(state, action)
        _pass(state, action)
    elif verb == "play":
        _in_turn(state, action)
        _play(state, action)
    elif verb == "declare":
        state.reports.declare(ctx, action, state.hands[action.seat].size, DECLARATIONS_NOTE)
    elif verb == "tribute":
        _tribute(ctx, state, action)
    else:
        _return(ctx, state, action)


def _in_turn(state: DealState, action: Action) -> None:
    """A play or pass: in play, by the seat whose turn it is (§4.2, §6)."""
    if len(state.returned) < len(state.receivers) and not state.lapsed:  # returns come last: not play yet (§6)
        owed = _owed_text(state)
        text = (
            msg("seat {seat} played while {owed}", seat=action.seat, owed=owed)
            if action.verb == "play"
            else msg("seat {seat} passed while {owed}", seat=action.seat, owed=owed)
        )
        raise StopDeal("guandan.tribute.order", text)
    turn = state.turn
    if turn is None or action.seat != turn:
        raise StopDeal(
            "guandan.turn",
            msg("seat {seat} acted out of turn: it was seat {turn}'s turn", seat=action.seat, turn=turn),
        )


def _require(state: DealState, seat: int, cards: tuple[int, ...]) -> tuple[i64, i64]:
    """The marks of `cards`, which `seat` must hold."""
    listed, again = marks(cards)
    hand = state.hands[seat]
    if not hand.holds(listed, again):
        lacking = hand.lacking(cards)
        if len(lacking) < len(cards):
            raise StopDeal(
                "guandan.card.not_held",
                msg(
                    "seat {seat} does not hold {lacking} (of {cards})",
                    seat=seat,
                    lacking=_shown(lacking),
                    cards=_shown(cards),
                ),
            )
        raise StopDeal(
            "guandan.card.not_held", msg("seat {seat} does not hold {lacking}", seat=seat, lacking=_shown(lacking))
        )
    return listed, again


def _take(state: DealState, seat: int, card: int) -> None:
    """A tribute or return card leaves `seat`'s hand."""
    hand = state.hands[seat]
    listed, again = _require(state, seat, (card,))
    hand.take(listed, again, 1)
    if not hand.size:
        state.holding &= ~(1 << seat)


def _give(state: DealState, seat: int, card: int) -> None:
    hand = state.hands[seat]
    hand.add(card)
    state.holding |= 1 << seat


def _tribute(ctx: Context, state: DealState, action: Action) -> None:
    """A tribute (§6.3, §6.4, §6.7)."""
    seat = action.seat
    if state.tribute in ("none", "resisted"):
        why = (
            msg("the payers hold both red jokers (anti-tribute)")
            if state.tribute == "resisted"
            else msg("no tribute is due in this deal")
        )
        raise StopDeal("guandan.tribute.none", msg("seat {seat} paid tribute, but {why}", seat=seat, why=why))
    if state.lapsed or seat not in state.payers or seat in state.paid:
        raise StopDeal(
            "guandan.tribute.payer", msg("seat {seat} paid tribute, but {why}", seat=seat, why=_owed_text(state))
        )
    _take(state, seat, action.card)
    best = _tribute_rank(state, seat)
    if card_value(action.card, state.level) != best or action.card == state.level * 4 + HEARTS:
        state.wrong_cards.add(seat)
        ctx.error(
            "guandan.tribute.card",
            ctx.at("actions", action.index, "tribute"),
            msg(
                "seat {seat} paid {card}, but the tribute must be a card of the highest rank in the dealt "
                "hand (leaving out wild cards): a {rank}",
                seat=seat,
                card=Cards(CODES[action.card]),
                rank=_level_rank_name(best, state.level),
            ),
            seat,
            action.index,
        )
    state.paid[seat] = (action.card, action.index, action.to)
    if len(state.paid) == len(state.payers):
        _allocate(ctx, state)


def _tribute_rank(state: DealState, seat: int) -> int:
    """The highest rank in level order of the seat's dealt hand but its wild cards (§6.3)."""
    level: i64 = state.level
    wild: i64 = level * 4 + HEARTS
    best: i64 = -1
    c: i64
    for c in state.dealt[seat]:
        if c != wild:
            best = max(best, card_value(c, level))
    return best


def _level_rank_name(value: int, level: int) -> str:
    """The rank of level order `value` (§ terms) in words: "10", "K", a joker's name."""
    if value >= 14:
        return Term(("black joker", "red joker")[value - 14])
    r = level if value == 13 else value
    return rank_shown(RANKS[r])


def _allocate(ctx: Context, state: DealState) -> None:
    """Who receives which tribute, and who leads (§6.4, §6.6). Where a payer paid a wrong card, the
    tributes go as the due cards would have gone (the wrong card is the one fault). A `to` that names
    another seat is an error; the card goes to the receiver the rules fix all the same (notation §9)."""
    receiver_of: dict[int, int]
    if state.tribute == "single":
        receiver_of = {state.payers[0]: state.receivers[0]}
    else:
        due = _by_value(state, lambda p, c: _tribute_rank(state, p)) if state.wrong_cards else None
        receiver_of = due or _allocate_double(ctx, state)
    for payer, receiver in receiver_of.items():
        card, index, to = state.paid[payer]
        if to is not None and to != receiver:
            ctx.error(
                "guandan.tribute.to",
                ctx.at("actions", index, "to"),
                msg(
                    "seat {seat}'s tribute goes to seat {receiver}, not seat {to}", seat=payer, receiver=receiver, to=to
                ),
                payer,
                index,
            )
        _give(state, receiver, card)
        state.given[receiver] = (payer, card)
    if state.leader is None:
        o1 = state.receivers[0]
        _begin_play(state, next(p for p, r in receiver_of.items() if r == o1))
        _check_leader(ctx, state)


def _allocate_double(ctx: Context, state: DealState) -> dict[int, int]:
    by_value = _by_value(state, lambda p, c: card_value(c, state.level))
    if by_value is not None:
        return by_value
    o1, o2 = state.receivers
    (p1, (_, _, to1)), (p2, (_, i2, to2)) = state.paid.items()
    if {to1, to2} != {o1, o2}:
        raise StopDeal(
            "guandan.tribute.to",
            msg(
                "equal tributes under free allocation must each name a different receiver, seats {o1} and {o2}",
                o1=o1,
                o2=o2,
            ),
            ctx.at("actions", i2),
        )
    if state.record_leader not in (p1, p2):
        raise StopDeal(
            "guandan.leader.missing",
            msg(
                "with equal tributes allocated freely the record must name the leader: seat {p1} or {p2}", p1=p1, p2=p2
            ),
            ctx.at("leader"),
        )
    state.leader = state.turn = state.record_leader
    assert to1 is not None and to2 is not None  # they name o1 and o2
    return {p1: to1, p2: to2}


def _by_value(state: DealState, value: Callable[[int, int], int]) -> dict[int, int] | None:
    """The double allocation by the tributes' values (`value(payer, card)`): o1 takes the higher;
    equal ones clockwise (§10.7: the payer seated right after o1 pays o1); None when free."""
    o1, o2 = state.receivers
    (p1, (c1, _, _)), (p2, (c2, _, _)) = state.paid.items()
    v1, v2 = value(p1, c1), value(p2, c2)
    if v1 != v2:
        high = p1 if v1 > v2 else p2
        return {high: o1, (p2 if high == p1 else p1): o2}
    if state.options.equal_double_tribute == "clockwise":
        first = (o1 + 1) % SEATS
        return {first: o1, (p2 if first == p1 else p1): o2}
    return None


def _return(ctx: Context, state: DealState, action: Action) -> None:
    """A return (§6.5)."""
    seat = action.seat
    if state.tribute in ("none", "resisted"):
        raise StopDeal(
            "guandan.tribute.none", msg("seat {seat} returned a card, but no tribute was paid in this deal", seat=seat)
        )
    if state.phase == "tribute":
        raise StopDeal(
            "guandan.tribute.order",
            msg("seat {seat} returned a card before all tributes were paid: {owed}", seat=seat, owed=_owed_text(state)),
        )
    if state.lapsed or seat not in state.given or seat in state.returned:
        raise StopDeal(
            "guandan.return.payer", msg("seat {seat} returned a card, but {owed}", seat=seat, owed=_owed_text(state))
        )
    payer, received = state.given[seat]
    problem = _return_problem(state, seat, payer, received, action.card)
    _take(state, seat, action.card)
    if problem:
        ctx.error(
            "guandan.return.card",
            ctx.at("actions", action.index, "return"),
            msg("seat {seat} returned {card}: {problem}", seat=seat, card=Cards(CODES[action.card]), problem=problem),
            seat,
            action.index,
        )
    if action.to is not None and action.to != payer:  # the card goes to the payer all the same (notation §9)
        ctx.error(
            "guandan.return.to",
            ctx.at("actions", action.index, "to"),
            msg(
                "seat {seat} returns to seat {payer}, who paid him, not to seat {to}",
                seat=seat,
                payer=payer,
                to=action.to,
            ),
            seat,
            action.index,
        )
    _give(state, payer, action.card)
    state.returned[seat] = (action.card, payer)


def _return_problem(state: DealState, seat: int, payer: int, received: int, card: int) -> Msg | None:
    """Why `card` may not be returned, or None (§6.5, §10.8)."""
    hand = state.hands[seat]
    if card == received and hand.count(card) < 2:
        return msg("the card received as tribute cannot be given back")
    cap = state.options.return_cap
    if cap == "ten_to_partner":
        cap = "ten" if payer == partner(seat) else "none"
    if cap == "none":
        return None
    level: i64 = state.level
    small = _small_cards(level if state.options.return_excludes_level else -1)
    received_bit: i64 = 1
    received_bit <<= received
    others = hand.once & ~received_bit | hand.twice & received_bit  # the cards held but the one received
    if others & small:
        if small >> card & 1:
            return None
        if state.options.return_excludes_level:
            return msg("the return must be a card of 10 or lower, not of the level rank")
        return msg("the return must be a card of 10 or lower")
    lowest = _lowest_value(others, level)
    if card_value(card, level) != lowest:
        return msg(
            "holding no card of 10 or lower, the return must be of the lowest rank held, {rank}",
            rank=_level_rank_name(lowest, state.level),
        )
    return None


def _small_cards(excluded: i64) -> i64:
    """The cards of 10 or lower but those of the rank `excluded` (§6.5), as a mask of card ids (TwoPackHand)."""
    if excluded < 0:
        return TEN_OR_LOWER
    of_rank: i64 = 15
    of_rank <<= 4 * excluded
    return TEN_OR_LOWER & ~of_rank


def _lowest_value(cards: i64, level: i64) -> i64:
    """The lowest level_value (§ terms) of the cards of a mask of card ids (TwoPackHand)."""
    r: i64
    for r in range(ACE + 1):
        if r != level and cards >> 4 * r & 15:
            return r
    if cards >> 4 * level & 15:
        return 13
    return 14 if cards >> NATURAL_IDS & 1 else 15  # the black joker, else the red


def _owing(state: DealState) -> list[int]:
    """The seats that still owe a tribute (or, once all are paid, a return) (§6.7)."""
    if state.phase == "tribute":
        return [p for p in state.payers if p not in state.paid]
    return [r for r in state.given if r not in state.returned]


def _owed_text(state: DealState) -> Msg:
    if state.phase == "play":
        return msg("no tribute or return is owed now")
    seats = Listing([msg("seat {seat}", seat=s) for s in _owing(state)], " and ")
    if state.phase == "tribute":
        return msg("tribute is still owed by {seats}", seats=seats)
    return msg("a return is still owed by {seats}", seats=seats)


def _pass(state: DealState, action: Action) -> None:
    """A pass (§4.2, §4.3)."""
    t = state.top_seat
    if t < 0:
        raise StopDeal("guandan.lead.pass", msg("seat {seat} leads this trick and must play", seat=action.seat))
    seat: i64 = action.seat
    state.passed |= 1 << seat
    state.trick.append(action)
    following = state.next_holder(seat)
    if following == t or state.passed >> following & 1:  # passes come in turn: every other holder passed,
        _on_from(state, seat, t)  # unless a pass out of turn stood (notation §10)
    else:
        state.turn = following


def _on_from(state: DealState, seat: i64, t: i64) -> None:
    """After a pass by `seat` on the top play of `t`: the next holder that has neither passed nor made the
    top play acts (a seat that a pass out of turn skipped); with none, the trick ends."""
    holding, passed = state.holding, state.passed
    for i in range(1, SEATS + 1):
        s = (seat + i) % SEATS
        if holding >> s & 1 and s != t and not passed >> s & 1:
            state.turn = s
            return
    _end_trick(state, t)


def _end_trick(state: DealState, t: i64) -> None:
    """The top player leads; if he is out, his partner (接风) (§4.3)."""
    if state.holding >> t & 1:
        state.turn = t
    elif state.holding >> partner(t) & 1:
        state.turn = partner(t)
    else:
        state.turn = state.next_holder(t)  # both out: only after a played-out 1-2 finish
    state.top = None
    state.top_seat = -1
    state.passed = 0
    state.trick_start = len(state.trick)


def _play(state: DealState, action: Action) -> None:
    cards = action.cards
    listed, again = _require(state, action.seat, cards)
    _put(state, action, _choose_reading(state, action.seat, cards, action.as_), listed, again)


def _put(state: DealState, action: Action, reading: Reading, listed: i64, again: i64) -> None:
    """A play that is taken (its cards as _require's marks): it becomes the trick's latest, and the turn passes on
    from its seat (§4.2)."""
    seat: i64 = action.seat
    cards = action.cards
    hand = state.hands[seat]
    hand.take(listed, again, len(cards))
    size = hand.size
    state.top = reading
    state.top_seat = seat
    state.passed = 0
    state.trick.append(action)
    state.readings.append(reading)
    if 0 < size <= state.report_at and not state.low >> seat & 1:  # the watch keeps the first only
        state.reports.played(seat, size, action.index)
        state.low |= 1 << seat
    if size == 0:
        state.last_play[seat] = cards
        state.holding &= ~(1 << seat)
        _goes_out(state, seat)
    if not state.over:
        state.turn = state.next_holder(seat)


def _shown(cards: Iterable[int]) -> Cards:
    return Cards(" ".join(CODES[c] for c in sorted(cards)))


def in_rank_order(cards: Iterable[int], level: int) -> list[int]:
    """Cards low to high in level order (§ terms), the wild cards among the level cards."""
    return sorted(cards, key=lambda c: (card_value(c, level), c))


def _choose_reading(state: DealState, seat: int, cards: tuple[int, ...], as_: str | None) -> Reading:
    """The reading a play stands for (§2.1, §3)."""
    readings = state.combos.readings(cards, state.level)
    top = state.top
    if as_ is None and len(readings) == 1 and (top is None or beats(readings[0], top)):
        return readings[0]  # the common case: one reading, and it may be played here
    _any_reading(seat, cards, readings)
    legal = _legal_readings(state, cards, top)
    if as_ is not None:
        chosen = _named_reading(seat, cards, readings, as_)
        if top is not None and chosen not in legal:  # on a lead every reading is legal
            raise StopDeal("guandan.follow", _not_following(seat, chosen, top))
        return chosen
    if top is not None and not legal:
        raise StopDeal("guandan.follow", _not_following(seat, readings[0], top))
    if len(legal) == 1:
        return legal[0]
    if not _ends_deal(state, seat, len(cards)):
        raise StopDeal(
            "guandan.play.as_required",
            msg(
                "seat {seat}'s {cards} reads as {readings}; the play must say which with as",
                seat=seat,
                cards=_shown(cards),
                readings=Listing([r.name for r in legal], " or "),
            ),
        )
    return _highest(legal)


def _highest(readings: Iterable[Reading]) -> Reading:
    return max(readings, key=lambda r: (r.step is not None, r.step or 0, r.key))


def _any_reading(seat: int, cards: tuple[int, ...], readings: tuple[Reading, ...]) -> None:
    if not readings:
        raise StopDeal(
            "guandan.play.combination",
            msg("seat {seat} played {cards}, which is no Guandan combination", seat=seat, cards=_shown(cards)),
        )


def _named_reading(seat: int, cards: tuple[int, ...], readings: tuple[Reading, ...], as_: str) -> Reading:
    """The reading `as` names (§2.1)."""
    chosen = next((r for r in readings if r.name == as_), None)
    if chosen is None:
        raise StopDeal(
            "guandan.play.as",
            msg(
                "seat {seat}'s {cards} cannot be read as {named}; it reads as {readings}",
                seat=seat,
                cards=_shown(cards),
                named=as_,
                readings=Listing([r.name for r in readings], " or "),
            ),
        )
    return chosen


def _legal_readings(state: DealState, cards: tuple[int, ...], top: Reading | None) -> list[Reading]:
    """The readings of `cards` that may be played now (§2, §3): what the judge of a play and the list of what
    was legal both ask."""
    return [r for r in state.combos.readings(cards, state.level) if top is None or beats(r, top)]


def _not_following(seat: int, played: Reading, top: Reading) -> Msg:
    return msg(
        "seat {seat} played {played} on {top}; {may}",
        seat=seat,
        played=describe(played),
        top=describe(top),
        may=may_follow(top),
    )


def _ends_deal(state: DealState, seat: int, played: int) -> bool:
    if state.hands[seat].size != played:
        return False
    out = state.out + [seat]
    return _deal_is_over(out, state.options)


def _deal_is_over(out: list[int], options: GuandanOptions) -> bool:
    """§4.5: at the second seat out after a 1-2 finish, otherwise at the third."""
    one_two = len(out) == 2 and out[1] == partner(out[0])
    return len(out) >= 3 or (one_two and not options.play_out_after_one_two)


def _goes_out(state: DealState, seat: int) -> None:

    state.out.append(seat)
    state.over = _deal_is_over(state.out, state.options)


# ---------------------------------------------------------------- what would have been legal


def legal(state: DealState) -> Legal:
    phase = state.phase
    if phase != "play":
        owed = Phrase(_owed_text(state))
        return {"phase": phase, "owed": owed, "may": owed}
    seat = state.turn
    if state.top is None or seat is None:
        return {"phase": "play", "seat": seat, "may": Phrase(msg("seat {seat} leads: any combination", seat=seat))}
    top = state.top
    found = _followers(state, seat, top)
    shown = [(r, " ".join(CODES[c] for c in in_rank_order(cards, state.level))) for r, cards in found]
    if shown:
        may = msg(
            "seat {seat} passes, or plays on {top}: {allowed}; from its hand: {plays}",
            seat=seat,
            top=describe(top),
            allowed=may_follow(top),
            plays=plays_said([(COMBINATIONS[r.type], cards) for r, cards in shown]),
        )
    else:
        may = msg(
            "seat {seat} passes, or plays on {top}: {allowed}; it held nothing that may follow",
            seat=seat,
            top=describe(top),
            allowed=may_follow(top),
        )
    return {
        "phase": "play",
        "seat": seat,
        "top": top.name,
        "plays": [f"{cards} as {r.name}" for r, cards in shown],
        "may": Phrase(may),
    }


def _followers(state: DealState, seat: int, top: Reading) -> list[tuple[Reading, tuple[int, ...]]]:
    """One play from the seat's hand for each reading (type and rank; bombs by size) that may follow
    `top`, weakest first (§3): every shape a combination can take (§2) is tried on the hand, fewest
    wild cards first, and each is judged as a play is (_legal_readings)."""
    found: dict[tuple[str, float | None], tuple[Reading, tuple[int, ...]]] = {}
    for play in sorted(_shapes(state, seat), key=lambda p: (p.count(state.level * 4 + HEARTS), p)):
        for r in _legal_readings(state, play, top):
            found.setdefault((r.name, r.step), (r, play))
    return sorted(found.values(), key=lambda rc: (rc[0].step is not None, rc[0].step or 0, rc[0].key))


def _shapes(state: DealState, seat: int) -> set[tuple[int, ...]]:
    """The seat's plays that stand for every reading its hand can make: the readings of a play (§2)
    depend only on how many natural cards of each rank it holds, its wild cards and, for a straight,
    whether its natural cards are of one suit (hearts or another); one play of each such kind."""
    cards = state.cards(seat)
    wild = state.level * 4 + HEARTS
    wilds = [c for c in cards if c == wild]
    by_rank: dict[int, list[int]] = {}
    for c in cards:
        if c != wild:
            by_rank.setdefault(rank(c), []).append(c)
    found: set[tuple[int, ...]] = set()

    def add(naturals: list[int], size: int) -> None:
        short = size - len(naturals)
        if 0 <= short <= len(wilds) and size:
            found.add(tuple(sorted(naturals + wilds[:short])))

    for group in [*by_rank.values(), []]:  # one rank, or wild cards alone (§10.6)
        for size in range(1, state.options.max_bomb_size + 1):
            for n in range(min(size, len(group)) + 1):
                add(group[:n], size)
    jokers = by_rank.get(13, []) + by_rank.get(14, [])
    if len(jokers) == 4:
        add(jokers, 4)
    for t, triple in by_rank.items():  # full houses: a triple and a pair of another rank
        for p in [r for r in by_rank if r != t] + [None]:
            pair = by_rank[p] if p is not None else []
            for a in range(1, min(3, len(triple)) + 1):
                for b in range(min(2, len(pair)) + 1):
                    add(triple[:a] + pair[:b], 5)
    for positions, per in RUN_SHAPES.values():
        for high in range(positions, 15):
            groups = [by_rank.get(ACE if p in (1, 14) else p - 2, []) for p in range(high - positions + 1, high + 1)]
            for taken in _run_fills(groups, per, len(wilds)):
                if per == 1:
                    for naturals in _suit_choices([g for g, n in zip(groups, taken) if n]):
                        add(naturals, positions)
                else:
                    add([c for g, n in zip(groups, taken) for c in g[:n]], positions * per)
    return found


def _run_fills(groups: list[list[int]], per: int, wilds: int) -> Iterator[list[int]]:
    """How many cards to take of each rank of a run (up to `per`), leaving at most `wilds` places short."""
    if not groups:
        yield []
        return
    for n in range(min(per, len(groups[0])) + 1):
        if per - n <= wilds:
            for rest in _run_fills(groups[1:], per, wilds - (per - n)):
                yield [n, *rest]


def _suit_choices(groups: list[list[int]]) -> list[list[int]]:
    """A straight's cards, one from each rank's cards `groups`: of one suit, for each suit that has them
    all, and of more than one suit, where the hand has them (§2)."""
    choices = []
    for suit in range(4):
        picked = [next((c for c in g if c & 3 == suit), -1) for g in groups]
        if -1 not in picked:
            choices.append(picked)
    mixed = [g[0] for g in groups]
    if len({c & 3 for c in mixed}) == 1:
        for i, g in enumerate(groups):
            other = next((c for c in g if c & 3 != mixed[0] & 3), None)
            if other is not None:
                mixed[i] = other
                break
    return choices + [mixed]


def snapshot(state: DealState) -> Snapshot:
    return {
        "level": level_code(state.level),
        "phase": PHASES["over" if state.over else state.phase],
        "turn": None if state.over else state.turn if state.phase == "play" else _owing(state),
        "levels": state.levels,
        "declaring": state.declaring,
        "wild": [CODES[state.level * 4 + HEARTS]],
        "hands": [[CODES[c] for c in in_rank_order(state.cards(seat), state.level)] for seat in range(SEATS)],
        "table": _table(state),
        "out": list(state.out),
        "tribute": {
            "kind": TRIBUTES[state.tribute],
            "paid": [{"seat": p, "card": Cards(CODES[c])} for p, (c, _, _) in state.paid.items()],
            "returned": [{"seat": r, "card": Cards(CODES[c]), "to": to} for r, (c, to) in state.returned.items()],
        },
        "owed": None if state.phase == "play" else Phrase(_owed_text(state)),
    }


def _table(state: DealState) -> list[dict[str, Any]]:
    """The plays and passes of the trick (DealState.trick), as the table shows them."""
    readings = iter(state.readings[sum(a.verb != "pass" for a in state.trick[: state.trick_start]) :])
    return [
        {"seat": a.seat, "pass": True}
        if a.verb == "pass"
        else {"seat": a.seat, "play": [CODES[c] for c in sorted(a.cards)], "as": next(readings).name}
        for a in state.trick[state.trick_start :]
    ]


# ---------------------------------------------------------------- end of deal (§5)


def finish_deal(ctx: Context, match: Match, state: DealState, deal: Deal) -> Outcome:
    order = _final_order(state)
    state.reports.warn_missing(ctx)
    return _ended(ctx, match, state, deal, order, state.last_play.get(order[0]), COMPLETE)


def _ended(
    ctx: Context,
    match: Match,
    state: DealState,
    deal: Deal,
    order: list[int],
    o1_last_play: tuple[int, ...] | None,
    status: str,
) -> Outcome:
    """The outcome of a deal that ended in `order`, the match advanced, the deal's claims checked."""
    declaring, level = match.declaring, state.level
    _advance_chains(match, order, o1_last_play)
    outcome: Outcome = {
        "deal": deal.index,
        "status": status,
        "level": level_code(level),
        "declaring": declaring,
        "tribute": TRIBUTES[state.tribute],
        "leader": state.leader,
        "order": order,
        "levels": [level_code(v) for v in match.levels],
        "a_attempts": list(match.attempts),
    }
    if match.winner is not None:
        outcome["match_winner"] = match.winner
    _check_deal_claims(ctx, match, deal, outcome, state)
    return outcome


def _final_order(state: DealState) -> list[int]:
    out = state.out
    order = list(out)
    gone: i64 = 0  # a bit for each seat out
    for seat in out:
        gone |= 1 << seat
    after = out[1] + 1 if len(out) == 2 else 0  # 1-2 finish: the other two in seat order from o2 onward (§5)
    for i in range(SEATS):
        seat = (after + i) % SEATS
        if not gone >> seat & 1:
            order.append(seat)
    return order


def _advance_chains(match: Match, order: list[int], o1_last_play: tuple[int, ...] | None) -> None:
    """The computed match, and the chain carried on from a differing levels claim, after a deal."""
    for chain in (match, match.claimed):
        if chain is not None:
            _advance(chain, order, chain.levels[chain.declaring if chain.declaring is not None else 0], o1_last_play)


def _advance(match: Match, order: list[int], level: int, o1_last_play: tuple[int, ...] | None) -> None:
    """Rise, match win, failures at A (§5), then the winners declare the next deal."""
    o1 = order[0]
    winners, declaring = team(o1), match.declaring
    start_levels = list(match.levels)
    partner_place = order.index(partner(o1)) + 1
    opts = match.combos.options
    rise = opts.one_two_levels if partner_place == 2 else SEATS + 1 - partner_place  # 3: two levels, 4: one
    match.levels[winners] = min(ACE, match.levels[winners] + rise)
    attempting = declaring if level == ACE and declaring is not None else None
    a_win = opts.a_win
    if (
        attempting is not None
        and winners == attempting
        and (a_win == "any" or partner_place == 2 or (a_win == "one_two_or_one_three" and partner_place == 3))
    ):
        match.winner = attempting
    else:
        _count_failures(match, attempting, start_levels)
        if (
            attempting is not None
            and opts.ace_finish_to_two
            and winners != attempting
            and o1_last_play
            and all(rank(c) == ACE for c in o1_last_play)
        ):
            match.levels[attempting] = 0
            match.attempts[attempting] = 0
    match.declaring = winners
    match.previous_order = order


# the page's named A-failure rules (§5) as (failures, what counts as one, where the team goes)
A_FAIL_RULES = {
    "none": (None, "attempts", None),
    "three_to_two": (3, "attempts", "2"),
    "three_consecutive_to_k": (3, "consecutive_attempts", "K"),
    "three_to_opponents_level": (3, "attempts", "opponents_level"),
    "two_consecutive_to_two": (2, "consecutive_attempts", "2"),
}


def a_fail_rule(opts: GuandanOptions) -> tuple[int | None, str, str]:
    """(failures, what counts, where the team goes): the named `a_fail_rule`, each part
    replaced by `a_fail_after`, `a_fail_counts`, `a_fail_to` where those are set."""
    after, counts, to = A_FAIL_RULES[opts.a_fail_rule]
    return (opts.a_fail_after or after, opts.a_fail_counts or counts, opts.a_fail_to or to or "2")


def _count_failures(match: Match, attempting: int | None, start_levels: list[int]) -> None:
    """A deal that did not win the match: failures at A, and the move at the limit (§5).
    `attempts`: each deal at A the team declared; `consecutive_attempts`: the same, restarting
    at any deal that is not its attempt; `deals_at_a`: every deal the team began at A."""
    after, counts, to = a_fail_rule(match.combos.options)
    if counts == "attempts" and attempting is None:
        return  # no attempt at A, no failure
    for t in (0, 1):
        failed = start_levels[t] == ACE if counts == "deals_at_a" else t == attempting
        if failed:
            match.attempts[t] += 1
        elif counts == "consecutive_attempts":
            match.attempts[t] = 0
        if failed and after is not None and match.attempts[t] >= after:
            match.levels[t] = start_levels[1 - t] if to == "opponents_level" else _rank_index(to)
            match.attempts[t] = 0


def _check_deal_claims(ctx: Context, match: Match, deal: Deal, outcome: Outcome, state: DealState) -> None:
    claimed = deal.result or {}
    _check_claim_keys(ctx, claimed, ctx.at("result"))
    computed = outcome.get("order") or []
    if "order" in claimed and not _order_matches(claimed["order"], computed):
        ctx.error(
            "guandan.result.order",
            ctx.at("result", "order"),
            msg(
                "claimed finishing order {claimed}, computed {computed}",
                claimed=Listing(claimed["order"]),
                computed=Listing(computed),
            ),
        )
    _follow_levels_claim(ctx, match, claimed, outcome)
    _check_tribute_claim(ctx, claimed, outcome["tribute"], ctx.at("result"))


def _check_claim_keys(ctx: Context, claimed: dict[str, Any], where: str) -> None:
    """Claims notation §6 gives to other games are errors (notation §9); `where`: the pointer of the claims."""
    for key in claimed:
        if key in ("winner", "scores"):
            ctx.error("guandan.result.key", f"{where}/{key}", msg("{key} is not a Guandan claim", key=key))


def _follow_levels_claim(ctx: Context, match: Match, claimed: dict[str, Any], outcome: Outcome) -> None:
    """A levels claim that agrees with the computed levels, or with those carried on from an earlier
    differing claim, is no new finding; one that differs from both is, and later deals have its
    levels as a second candidate (notation §9)."""
    if "levels" not in claimed:
        return
    said = [_rank_index(v) for v in claimed["levels"]]
    if said == match.levels:
        match.claimed = None
        return
    outcome["claimed"] = {"levels": [RANKS[v] for v in said]}
    if match.claimed is not None and said == match.claimed.levels:
        return
    _levels_differ(ctx, ctx.at("result", "levels"), said, match.levels)
    # a team the claim moves off A was moved for its failures: its count starts again (§5)
    attempts = [0 if was == ACE != now else n for was, now, n in zip(match.levels, said, match.attempts)]
    claim = fork(match)
    claim.levels, claim.attempts, claim.claimed, claim.winner = said, attempts, None, None
    match.claimed = claim


def _levels_differ(ctx: Context, at: str, said: list[int], computed: list[int]) -> None:
    ctx.error(
        "guandan.result.levels",
        at,
        msg(
            "claimed levels {claimed} after this deal, computed {computed}",
            claimed=_levels_text(said),
            computed=_levels_text(computed),
        ),
    )


def _check_tribute_claim(ctx: Context, claimed: dict[str, Any], computed: str, where: str) -> None:
    if "tribute" in claimed and claimed["tribute"] != computed:
        ctx.error(
            "guandan.result.tribute",
            f"{where}/tribute",
            msg("claimed tribute {claimed}, computed {computed}", claimed=claimed["tribute"], computed=computed),
        )


def _order_matches(claimed: list[int], computed: list[int]) -> bool:
    """§5: after a 1-2 finish the last two in either order or left out; otherwise 3 or 4 places."""
    one_two = computed[1] == partner(computed[0])
    if one_two:
        return claimed[:2] == computed[:2] and (
            len(claimed) == 2 or (len(claimed) == 4 and set(claimed[2:]) == set(computed[2:]))
        )
    return len(claimed) in (3, 4) and claimed == computed[: len(claimed)]


def skip_deal(ctx: Context, match: Match, deal: Deal, state: DealState | None, stopped: bool) -> Outcome:
    """A deal not played to its end: a stopped one carries on from its claimed order, if any,
    and its claimed levels set the next deal's levels (notation §9)."""
    claimed = deal.result or {}
    full = _complete_order(claimed["order"]) if claimed.get("order") else None
    outcome: Outcome = {"deal": deal.index, "status": STOPPED}
    if state is not None:
        outcome.update(
            {
                "level": level_code(state.level),
                "declaring": match.declaring,
                "tribute": TRIBUTES[state.tribute],
                "leader": state.leader,
                "out": list(state.out),
            }
        )
    if match.winner is None and not stopped and (full or "levels" in claimed):
        chain = _incomplete_claim(match, claimed, full)
        if (chain.levels, chain.winner) != (match.levels, match.winner):
            match.claimed = chain
    if match.winner is not None or not stopped:
        return outcome
    _check_claim_keys(ctx, claimed, ctx.at("result"))
    if state is not None:
        _check_tribute_claim(ctx, claimed, state.tribute, ctx.at("result"))
    if full is None or not match.settled:
        match.settled = False  # later deals are not checkable (notation §9)
        return outcome
    _advance_chains(match, full, None)
    _follow_levels_claim(ctx, match, claimed, outcome)
    if "levels" in claimed:  # they set the next deal's levels (notation §9)
        match.levels, match.claimed = [_rank_index(v) for v in claimed["levels"]], None
    outcome.update({"order": full, "levels": [level_code(v) for v in match.levels], "from_claim": True})
    return outcome


def _incomplete_claim(match: Match, claimed: dict[str, Any], full: list[int] | None) -> Match:
    """The match as the last deal, incomplete, claims it ended: record levels or a winner that agree
    with it are no new finding (notation §5)."""
    level = match.levels[match.declaring if match.declaring is not None else 0]
    chain = fork(match)
    chain.claimed = None
    if full:
        _advance(chain, full, level, None)
    if "levels" in claimed:
        chain.levels = [_rank_index(v) for v in claimed["levels"]]
    return chain


def finish_match(ctx: Context, match: Match, claimed: dict[str, Any] | None) -> dict[str, Any]:
    levels = [level_code(v) for v in match.levels]
    summary: dict[str, Any] = {"levels": levels, "winner": match.winner, "a_attempts": list(match.attempts)}
    if not match.settled:
        summary["settled"] = False  # levels as they stood before a deal that did not finish
    if match.claimed is not None:
        summary["claimed"] = {"levels": [level_code(v) for v in match.claimed.levels]}
    summary["result"] = match_result(match.levels, match.winner)  # also of a match stopped before it was won
    claimed = claimed or {}
    if "totals" in claimed:
        ctx.error("guandan.result.key", "/result/totals", msg("Guandan keeps no point totals; claim levels or winner"))
    chains = [match] if match.claimed is None else [match, match.claimed]  # either agrees (notation §9)
    if "levels" in claimed and match.settled:
        said = [_rank_index(v) for v in claimed["levels"]]
        if all(said != chain.levels for chain in chains):
            ctx.error(
                "guandan.match.levels",
                "/result/levels",
                msg(
                    "claimed final levels {claimed}, computed {computed}",
                    claimed=_levels_text(said),
                    computed=_levels_text(match.levels),
                ),
            )
    if "winner" in claimed and match.settled and all(claimed["winner"] != chain.winner for chain in chains):
        computed = (
            msg("no team has won the match") if match.winner is None else msg("team {team} won", team=match.winner)
        )
        ctx.error(
            "guandan.match.winner",
            "/result/winner",
            msg("claimed winner team {claimed}, but {computed}", claimed=claimed["winner"], computed=computed),
        )
    return summary


# ---------------------------------------------------------------- the arbiter's decisions (notation §10)


def ruled_match(ctx: Context, summary: dict[str, Any], keys: set[str], claimed: dict[str, Any]) -> None:
    """Ruled levels (in canonical codes, as computed ones are) or winner: the result follows from them, its margin
    the level difference."""
    levels = [_rank_index(code) for code in summary["levels"]]
    summary["levels"] = [level_code(level) for level in levels]
    summary["result"] = match_result(levels, summary["winner"])


def stand(ctx: Context, state: DealState, action: Action) -> None:
    """An action that broke a rule, taken as played (a ruling `stands`): a play becomes the trick's latest
    (read as its `as`, or as the highest reading its cards make) and the turn passes on from its seat; a
    pass is that seat's pass; a tribute or return card moves to the seat its `to` names. Raises StopDeal,
    before any change, where the action cannot stand."""
    seat = action.seat
    if action.verb == "play":
        listed, again = _require(state, seat, action.cards)
        readings = state.combos.readings(action.cards, state.level)
        _any_reading(seat, action.cards, readings)
        chosen = _highest(readings) if action.as_ is None else _named_reading(seat, action.cards, readings, action.as_)
        _lapse_tribute(state, seat)
        _put(state, action, chosen, listed, again)
    elif action.verb == "pass":
        _lapse_tribute(state, seat)
        _stood_pass(state, action)
    elif action.verb in ("tribute", "return"):
        if action.to is None:
            raise StopDeal(
                f"{NAME}.tribute.to",
                msg("the record does not say which seat received seat {seat}'s card (to)", seat=seat),
            )
        _take(state, seat, action.card)
        _give(state, action.to, action.card)


def _lapse_tribute(state: DealState, seat: int) -> None:
    """A play or pass that stood while tribute or a return was still owed: play has begun, so what is still
    owed is not given any more, and the seat led (notation §10; docs/guandan.md, Rulings)."""
    if state.phase != "play":
        state.lapsed = True
        if state.leader is None:
            state.leader = seat


def _stood_pass(state: DealState, action: Action) -> None:
    """A pass taken as played, also out of turn or on a lead: the turn passes on from its seat; the seats
    it skipped act when the turn comes to them (§4.2, §4.3)."""
    seat: i64 = action.seat
    state.passed |= 1 << seat
    state.trick.append(action)
    if state.top_seat < 0:
        state.turn = state.next_holder(seat)
    else:
        _on_from(state, seat, state.top_seat)


COMPLETE_RESULT: Term = word("the finishing order of every seat")


def complete_result(result: dict[str, Any], seats: int, options: dict[str, Any]) -> bool:
    return sorted(result.get("order") or [-1]) == list(range(seats))


def score_deal(ctx: Context, match: Match, deal: Deal, state: DealState, result: dict[str, Any], where: str) -> Outcome:
    """The deal ended at the decided action with the finishing order a ruling `score` fixed: levels, the
    match and the next tribute follow from it (§5, §6). What else the ruling's result (at `where`) claims is
    checked against them: claims of other games are errors, levels and tribute are the computed ones."""
    outcome = _ended(ctx, match, state, deal, list(result["order"]), None, "scored")
    _check_claim_keys(ctx, result, where)
    said = [_rank_index(v) for v in result["levels"]] if "levels" in result else match.levels
    # levels that follow from an earlier differing claim are no new finding either (notation §9)
    if said != match.levels and (match.claimed is None or said != match.claimed.levels):
        _levels_differ(ctx, f"{where}/levels", said, match.levels)
    _check_tribute_claim(ctx, result, outcome["tribute"], where)
    return outcome


def claim_stands(before: Match, match: Match, outcome: Outcome, claimed: dict[str, Any], keys: set[str]) -> Match:
    """A deal's differing claims that a ruling `claim` let stand (notation §10): a claimed finishing order
    advances the match from where the deal began in place of the computed one (levels, the declaring team,
    the next deal's tribute, §5); claimed levels are the levels the match goes on from."""
    order = _complete_order(claimed["order"]) if "order" in keys else None
    if order is not None:
        outcome["computed"] = {"order": outcome["order"], "levels": outcome["levels"]}
        before.claimed = match.claimed
        _advance(before, order, before.levels[before.declaring if before.declaring is not None else 0], None)
        outcome["order"], outcome["levels"] = order, [level_code(v) for v in before.levels]
        match = before
    chain = match.claimed
    if "levels" not in keys or chain is None:
        return match
    outcome.setdefault("computed", {}).setdefault("levels", outcome["levels"])
    outcome["levels"] = [level_code(v) for v in chain.levels]
    chain.claimed, chain.declaring, chain.previous_order = None, match.declaring, match.previous_order
    return chain
