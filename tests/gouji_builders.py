"""Helpers to write Gou Ji records by hand in tests: partial hands are filled up to 36 cards
from the rest of four packs, so a test names only the cards it is about."""

from __future__ import annotations

import copy
import random

from referee.replay import check_record
from tests.gouji_gen import DECK


def fill_hands(partial, seed=0, exclude=()):
    """Six hands holding the cards of `partial` (seat order, may be short); the filling never
    uses the codes in `exclude` (so a hand can be kept free of 2s or jokers)."""
    partial = [list(h) for h in partial] + [[] for _ in range(6 - len(partial))]
    rest = list(DECK)
    for hand in partial:
        for card in hand:
            rest.remove(card)
    random.Random(seed).shuffle(rest)
    rest.sort(key=lambda c: c in exclude or c[0] in exclude)  # excluded cards go to the last hands
    hands = []
    for hand in partial:
        need = 36 - len(hand)
        hands.append(hand + rest[:need])
        rest = rest[need:]
    return hands


def record(deals, options=None, **extra):
    rec = {"cgr": 1, "game": "gouji", "players": ["A", "B", "C", "D", "E", "F"], "deals": deals}
    if options:
        rec["rules"] = {"preset": "pagat", "options": options}
    rec.update(extra)
    return rec


def deal(partial, actions, leader=0, seed=0, **extra):
    out = {"hands": fill_hands(partial, seed), "actions": actions, **extra}
    if leader is not None:
        out["leader"] = leader
    return out


def play(seat, *cards, **extra):
    return {"seat": seat, "play": list(cards), **extra}


def passes(*seats):
    return [{"seat": s, "pass": True} for s in seats]


def declare(seat, name, **extra):
    return {"seat": seat, "declare": name, **extra}


def findings(rec, severity="error"):
    """(rule, at) of the findings of one severity."""
    report = check_record(copy.deepcopy(rec))
    return [(f.rule, f.at) for f in report.findings if f.severity == severity]


def report_of(rec):
    return check_record(copy.deepcopy(rec))


def go_out(seat, hand, holders):
    """Actions in which `seat`, leading, plays its hand one rank at a time (plain sets of ranks
    3 … 9, which never start a Gou Ji) while every other holder passes in seat order."""
    groups = {}
    for card in hand:
        groups.setdefault(card[0], []).append(card)
    actions = []
    others = [s % 6 for s in range(seat + 1, seat + 6) if s % 6 in holders]
    for cards in groups.values():
        actions.append(play(seat, *cards))
        actions += passes(*others)
    return actions
