"""Helpers to write Guandan records by hand in tests: partial hands are filled up to
27 cards from the rest of two packs, so a test names only the cards it is about."""

from __future__ import annotations

import random

from referee.cards import CODES, parse_card
from referee.guandan import OPTIONS, PRESETS, Combos, GuandanOptions, beats

DECK = [code for code in CODES for _ in range(2)]


def fill_hands(partial, seed=0):
    rest = list(DECK)
    for hand in partial:
        for card in hand:
            rest.remove(card)
    random.Random(seed).shuffle(rest)
    hands = []
    for hand in partial:
        need = 27 - len(hand)
        hands.append(list(hand) + rest[:need])
        rest = rest[need:]
    return hands


def guandan(deals, rules="official", **extra):
    record = {"cgr": 1, "game": "guandan", "rules": rules, "players": ["A", "B", "C", "D"], "deals": deals}
    record.update(extra)
    return record


def deal(partial, actions, seed=0, **extra):
    """A deal whose hands hold at least the cards of `partial` (seat order, may be short)."""
    partial = list(partial) + [[] for _ in range(4 - len(partial))]
    return {"hands": fill_hands(partial, seed), "actions": actions, **extra}


def options(preset="official", **changes):
    opts = {name: opt.default for name, opt in OPTIONS.items()}
    opts.update(PRESETS[preset])
    opts.update(changes)
    return opts


def readings(cards, level, **changes):
    """The `as` names a play can be read as, at a level given as a rank code."""
    combos = Combos(GuandanOptions(**options(**changes)))
    ids = tuple(sorted(parse_card(c) for c in cards))
    return {r.name for r in combos.readings(ids, "23456789TJQKA".index(level))}


def reading(cards, level, name=None, **changes):
    combos = Combos(GuandanOptions(**options(**changes)))
    ids = tuple(sorted(parse_card(c) for c in cards))
    found = combos.readings(ids, "23456789TJQKA".index(level))
    return next(r for r in found if name is None or r.name == name)


def follows(x, y, level, x_as=None, y_as=None, **changes):
    return beats(reading(x, level, x_as, **changes), reading(y, level, y_as, **changes))


def findings(report, severity="error"):
    return [(f.rule, f.at) for f in report.findings if f.severity == severity]


def quick_deal(out_seats, level="2", ranks=None, seed=0, **extra):
    """A deal in which `out_seats` go out in that order, each with three 8-card bombs and
    a triple (the triple last), while the other seats pass or lead a single to hand over
    (a planned seat hands over with a card of its triple)."""
    ranks = ranks or [r for r in "3456789TJQKA2" if r != level]
    plan, partial = {}, [[] for _ in range(4)]
    for i, seat in enumerate(out_seats):
        mine = ranks[4 * i : 4 * i + 4]
        plan[seat] = [[r + s for s in "SSHHDDCC"] for r in mine[:3]] + [[mine[3] + s for s in "SDC"]]
        partial[seat] = [card for group in plan[seat] for card in group]
    hands = fill_hands(partial, seed)
    spare = [sorted(set(hands[s]) - set(partial[s]), key=parse_card) for s in range(4)]
    sizes, out, actions = [27] * 4, [], []

    def play(seat, cards):
        actions.append({"seat": seat, "play": cards})
        sizes[seat] -= len(cards)

    def passes(after, until=None):
        for i in range(1, 4):
            seat = (after + i) % 4
            if seat == until:
                return
            if sizes[seat]:
                actions.append({"seat": seat, "pass": True})

    turn = out_seats[0]
    for seat in out_seats:
        groups = plan[seat]
        if turn != seat:  # the seat on lead hands over with a single
            play(turn, [(plan[turn][-1] if turn in plan else spare[turn]).pop(0)])
            passes(turn, until=seat)
        for group in groups:
            play(seat, group)
            if sizes[seat] == 0:
                out.append(seat)
                if len(out) >= 3 or (len(out) == 2 and out[1] == (out[0] + 2) % 4):
                    return {"hands": hands, "leader": out_seats[0], "actions": actions, **extra}
            passes(seat)
        turn = (
            (seat + 2) % 4
            if sizes[(seat + 2) % 4]
            else next((seat + i) % 4 for i in range(1, 4) if sizes[(seat + i) % 4])
        )
    raise ValueError("the plan does not end the deal")
