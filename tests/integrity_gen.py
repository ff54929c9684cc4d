"""Archives for the integrity tests (referee/integrity.py): fair deals of each game, and deals with a planted bias."""

from __future__ import annotations

import random

from referee.cards import CODES

SEATS = {"guandan": 4, "gouji": 6, "gandengyan": 4}
PACKS = {"guandan": 2, "gouji": 4, "gandengyan": 1}
HAND = {"guandan": 27, "gouji": 36, "gandengyan": 5}


def fair_deal(rng: random.Random, game: str, seats: int | None = None, dealer: int = 0) -> dict:
    """A uniformly shuffled deal: Gan Deng Yan's dealer 6 cards, the next seats 5, the rest the talon."""
    seats = seats or SEATS[game]
    deck = list(CODES) * PACKS[game]
    rng.shuffle(deck)
    sizes = [HAND[game] + (game == "gandengyan" and s == dealer) for s in range(seats)]
    hands, at = [[] for _ in range(seats)], 0
    for k in range(seats):
        seat = (dealer + k) % seats
        hands[seat], at = deck[at : at + sizes[seat]], at + sizes[seat]
    deal = {"hands": hands, "actions": []}
    if game == "gandengyan":
        deal["talon"] = deck[at:]
    else:
        deal["leader"] = 0
    return deal


def record(game: str, deals: list[dict], players: list[str] | None = None, **extra) -> dict:
    seats = len(deals[0]["hands"])
    return {"cgr": 1, "game": game, "players": players or [f"P{s}" for s in range(seats)], "deals": deals, **extra}


def favour(rng: random.Random, deal: dict, seat: int, cards: tuple[str, ...], chance: float) -> dict:
    """With `chance`, one of `cards` held by another seat is swapped with a random card of `seat`'s hand:
    a dealer biased towards that seat."""
    hands = deal["hands"]
    if rng.random() >= chance:
        return deal
    held = [(s, i) for s, hand in enumerate(hands) if s != seat for i, c in enumerate(hand) if c in cards]
    if not held:
        return deal
    s, i = rng.choice(held)
    j = rng.randrange(len(hands[seat]))
    hands[s][i], hands[seat][j] = hands[seat][j], hands[s][i]
    return deal
