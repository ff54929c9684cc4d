"""Cards of CGR/1 (notation section 2).

A card is an integer id: rank index * 4 + suit index for the 52 natural cards
(ranks 2..A are indices 0..12, suits S H D C are 0..3), 52 for the black joker
and 53 for the red joker.

A packed multiset (`pack`) gives each card id 4 bits of one int: the archive's
integrity keys are made of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

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
