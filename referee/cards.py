"""Cards of CGR/1 (notation section 2) and a fast multiset of them.

A card is an integer id: rank index * 4 + suit index for the 52 natural cards
(ranks 2..A are indices 0..12, suits S H D C are 0..3), 52 for the black joker
and 53 for the red joker.

Hands are packed-int multisets: 4 bits per card id, the low 3 bits the count
(up to 7, enough for Gou Ji's four packs) and the high bit a guard used to test
"contains" with one subtraction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

RANKS = "23456789TJQKA"
SUITS = "SHDC"
BJ, RJ = 52, 53
CARD_IDS = range(54)

CODES = tuple(r + s for r in RANKS for s in SUITS) + ("BJ", "RJ")

_SLOT: Final = 4
_GUARD: Final = sum(8 << (_SLOT * c) for c in CARD_IDS)
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


_BY_CODE = _aliases()


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


def contains(hand: int, cards: int) -> bool:
    """Whether packed multiset `hand` holds packed multiset `cards`."""
    return ((hand | _GUARD) - cards) & _GUARD == _GUARD


def count(hand: int, card: int) -> int:
    return (hand >> (_SLOT * card)) & 7


def card_counts(hands: Iterable[Iterable[int]]) -> list[int]:
    """How many of each card (by id) the hands hold together: what every game's deck check counts (§1)."""
    counts = [0] * len(CODES)
    for hand in hands:
        for card in hand:
            counts[card] += 1
    return counts


def unpack(hand: int) -> list[int]:
    """The cards of packed `hand`, low ids first. Each card's 4-bit slot is one hex digit."""
    cards = []
    for card, digit in enumerate(f"{hand:x}"[::-1]):
        if digit != "0":
            cards += [card] * int(digit)
    return cards


def missing(hand: int, cards: Iterable[int]) -> list[int]:
    """The cards of `cards` (a multiset) that packed `hand` does not hold."""
    short: list[int] = []
    wanted: dict[int, int] = {}
    for c in cards:
        wanted[c] = wanted.get(c, 0) + 1
    for c, n in wanted.items():
        short += [c] * max(0, n - count(hand, c))
    return sorted(short)


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


class PlayCache(dict[Any, Any]):
    """Values computed once per packed play (and whatever else the key holds); emptied
    when it grows past `limit`, so that memory stays bounded."""

    def __init__(self, compute: Callable[..., Any], limit: int = 200_000) -> None:
        super().__init__()
        self.compute, self.limit = compute, limit

    def __missing__(self, key: Any) -> Any:
        if len(self) >= self.limit:
            self.clear()
        value = self[key] = self.compute(key)
        return value
