"""Cards of CGR/1 (notation section 2).

A card is an integer id: rank index * 4 + suit index for the 52 natural cards
(ranks 2..A are indices 0..12, suits S H D C are 0..3), 52 for the black joker
and 53 for the red joker.

A packed multiset (`pack`) gives each card id 4 bits of one int: the archive's
integrity keys are made of them. A hand of a two-pack game (`TwoPackHand`) is two bit masks of card ids.
"""

from __future__ import annotations

from collections.abc import Iterable

from .marks import final

TYPE_CHECKING = False  # typing is not imported where records are checked (referee/game.py)
if TYPE_CHECKING:
    from typing import Final, TypeVar

    from mypy_extensions import i64  # a native 64-bit int where mypyc compiles the module; an int otherwise

    T = TypeVar("T")


# Final: compiled code reads them as constants, not from the module's dict at every use
RANKS: Final = "23456789TJQKA"
SUITS: Final = "SHDC"
BJ: Final = 52
RJ: Final = 53
CARD_IDS: Final = range(54)

CODES: Final = tuple(r + s for r in RANKS for s in SUITS) + ("BJ", "RJ")
ID_COUNT: Final = 54  # len(CODES): the card ids, each counted in a hand

_SLOT: Final = 4
ONE: Final = tuple(1 << (_SLOT * c) for c in CARD_IDS)


def _aliases() -> dict[str, int]:
    table = {}
    for card, code in enumerate(CODES):
        variants = {code, code.lower()}
        if code[0] == "T":
            variants |= {"10" + code[1], "10" + code[1].lower()}
        for v in variants:
            table[v] = card
    return table


_BY_CODE: Final = _aliases()


def parse_card(code: str) -> int | None:
    """The id of a card code or alias (any letter case), or None."""
    card = _BY_CODE.get(code)
    if card is None and isinstance(code, str):
        card = _BY_CODE.get(code.upper())
    return card


def rank_code(code: str) -> str:
    """A rank code with its aliases resolved: `10` -> `T`, lower case -> upper."""
    code = code.upper()
    return "T" if code == "10" else code


def rank_shown(code: str) -> str:
    """A rank code as messages show it: 10 for T."""
    return "10" if code == "T" else code


def run_low(high: str, length: int) -> str:
    """The lowest rank of a run of `length` ranks topped by `high`; an ace below the 2 where the run
    reaches down to it (A2345)."""
    order = "A" + RANKS
    return order[order.rindex(high) - length + 1]


def reading_code(text: str) -> str:
    """An `as` reading `TYPE:RANK` with the rank's aliases resolved (notation §5)."""
    kind, _, r = text.partition(":")
    return f"{kind}:{rank_code(r)}"


def rank(card: int) -> int:
    """Rank index 0..12 (2..A); 13 and 14 for the black and red joker."""
    return card >> 2 if card < 52 else card - 39


def pack(cards: Iterable[int]) -> int:
    total = 0
    for c in cards:
        total += ONE[c]
    return total


def card_counts(hands: Iterable[Iterable[int]]) -> list[int]:
    """How many of each card (by id) the hands hold together: what a deck check counts (§1)."""
    counts = [0] * ID_COUNT
    for hand in hands:
        for card in hand:
            counts[card] += 1
    return counts


ID_TUPLE: Final = tuple(CARD_IDS)  # each card id as itself (TwoPackHand.named)
BITS_SET: Final = bytes(bin(n).count("1") for n in range(16))  # by a rank's 4 bits of a mask: how many are set
THRICE: Final = -1  # marks' `again` for cards listing one three times or more: no two-pack hand holds that


@final  # compiled, its methods are called directly, not through the class's table
class TwoPackHand:
    """A seat's cards in a game of two packs: a bit for each card id it holds in `once`, and in `twice` as well for
    a card it holds two of (a third is not kept: each game refuses a deal that holds one); `size`, how many cards
    it holds."""

    once: i64
    twice: i64
    size: i64

    def __init__(self, cards: list[int]) -> None:
        self.once = self.twice = self.size = 0
        for c in cards:
            self.add(c)

    def add(self, card: i64) -> None:
        bit: i64 = 1
        bit <<= card  # not `1 << card`: compiled, a literal 1 shifts as a 32-bit C int
        if self.once & bit:
            self.twice |= bit
        else:
            self.once |= bit
        self.size += 1

    def count(self, card: i64) -> i64:
        """How many of `card` the hand holds."""
        return (self.once >> card & 1) + (self.twice >> card & 1)

    def of_rank(self, r: i64) -> i64:
        """How many natural cards of rank index `r` the hand holds."""
        return BITS_SET[self.once >> 4 * r & 15] + BITS_SET[self.twice >> 4 * r & 15]

    def holds(self, listed: i64, again: i64) -> bool:
        """Whether the hand holds the cards of `marks`, a card listed twice twice."""
        return listed & ~self.once == 0 and again & ~self.twice == 0

    def take(self, listed: i64, again: i64, count: i64) -> None:
        """The `count` cards of `marks`, which the hand holds, leave it."""
        held_once = listed & ~again & ~self.twice  # listed once, held once
        self.twice &= ~listed
        self.once &= ~(again | held_once)
        self.size -= count

    def lacking(self, cards: tuple[int, ...]) -> list[int]:
        """The cards of `cards` (a multiset) that the hand does not hold, low ids first."""
        counts = [self.count(c) for c in CARD_IDS]
        short: list[int] = []
        for c in cards:
            if counts[c]:
                counts[c] -= 1
            else:
                short.append(c)
        return sorted(short)

    def cards(self) -> list[int]:
        """The cards held, low ids first."""
        return self.named(ID_TUPLE)

    def named(self, names: tuple[T, ...]) -> list[T]:
        """The cards held, low ids first, each as `names` (by card id) names it."""
        cards: list[T] = []
        once, twice = self.once, self.twice
        card: i64 = 0
        while once:
            if not once & 15:  # no card of this rank
                once >>= 4
                twice >>= 4
                card += 4
                continue
            if once & 1:
                cards.append(names[card])
                if twice & 1:
                    cards.append(names[card])
            once >>= 1
            twice >>= 1
            card += 1
        return cards

    def copy(self) -> TwoPackHand:
        copied = TwoPackHand([])
        copied.once, copied.twice, copied.size = self.once, self.twice, self.size
        return copied


def marks(cards: tuple[int, ...]) -> tuple[i64, i64]:
    """A play's cards as masks of card ids (TwoPackHand): a bit for each card listed, and for each listed twice
    (THRICE where one is listed more often)."""
    listed: i64 = 0
    again: i64 = 0
    card: i64
    for card in cards:
        listed, again = marked(listed, again, card)
    return listed, again


def marked(listed: i64, again: i64, card: i64) -> tuple[i64, i64]:
    """The masks of `marks` with `card` listed once more (a step of its loop, which a game's own loop over a
    play may take too)."""
    bit: i64 = 1
    bit <<= card  # not `1 << card`: compiled, a literal 1 shifts as a 32-bit C int
    if not listed & bit:
        return listed | bit, again
    if again & bit:  # a third time (THRICE has every bit: it stays so)
        return listed, THRICE
    return listed, again | bit


class Valued:
    """A value that is its fields: equal to, and hashed as, another of its class with the same `fields()`
    (the games' readings of a play)."""

    def fields(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Valued) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self.fields()}"
