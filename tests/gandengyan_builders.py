"""Helpers to write Gan Deng Yan records by hand in tests: hands are filled up to 6
(dealer) or 5 cards and the talon is the rest of the deck after the cards a test puts
on top, so a test names only the cards it is about."""

from __future__ import annotations

import random

from referee.cards import CODES, TwoPackHand, parse_card
from referee.gandengyan import OPTIONS, PRESETS, Combos, GandengyanOptions, Reading, beats
from referee.replay import check_record


def options(preset="pagat", **changes) -> GandengyanOptions:
    """The options of a preset with `changes`, as a deal state holds them."""
    opts = {name: opt.default for name, opt in OPTIONS.items()}
    opts.update(PRESETS[preset])
    opts.update(changes)
    return GandengyanOptions(**opts)


def readings(cards, **changes) -> set[str]:
    combos = Combos(options(**changes))
    return {r.name for r in combos.readings(tuple(sorted(parse_card(c) for c in cards)))}


def reading(cards, name, **changes) -> Reading:
    combos = Combos(options(**changes))
    found = [r for r in combos.readings(tuple(sorted(parse_card(c) for c in cards))) if r.name == name]
    assert found, f"{cards} cannot be read as {name}"
    return found[0]


def follows(x_cards, x_as, y_cards, y_as, **changes) -> bool:
    return beats(reading(x_cards, x_as, **changes), reading(y_cards, y_as, **changes), options(**changes))


def deal(partial, actions, talon_top=(), dealer=0, decks=1, seed=0, **extra) -> dict:
    """A deal: each hand filled to its size, the talon `talon_top` then the rest of the deck."""
    rest = [code for code in CODES for _ in range(decks)]
    for card in [c for hand in partial for c in hand] + list(talon_top):
        rest.remove(card)
    random.Random(seed).shuffle(rest)
    hands = []
    for seat, hand in enumerate(partial):
        need = (6 if seat == dealer else 5) - len(hand)
        hands.append(list(hand) + rest[:need])
        rest = rest[need:]
    return {"hands": hands, "talon": list(talon_top) + rest, "actions": actions, **extra}


def record(deals, rules="pagat", seats=None, **extra) -> dict:
    seats = seats or len(deals[0]["hands"])
    return {
        "cgr": 1,
        "game": "gandengyan",
        "rules": rules,
        "players": [f"P{i}" for i in range(seats)],
        "deals": deals,
        **extra,
    }


def check(rec):
    return check_record(rec)


def errors(rep) -> list[tuple[str, str]]:
    return [(f.rule, f.at) for f in rep.findings if f.severity == "error"]


def found(rep, severity=None) -> list[tuple[str, str]]:
    return [(f.rule, f.at) for f in rep.findings if severity is None or f.severity == severity]


def play(seat, *cards, as_=None) -> dict:
    act = {"seat": seat, "play": list(cards)}
    if as_:
        act["as"] = as_
    return act


def pas(seat) -> dict:
    return {"seat": seat, "pass": True}


def table(hands, talon=(), turn=0, dealer=0, **changes):
    """A deal state in the middle of play, for flow rules: hands and talon as codes."""
    from referee.gandengyan import DealState

    o = options(**changes)
    ids = [[parse_card(c) for c in hand] for hand in hands]
    state = DealState(o, Combos(o), len(hands), dealer, [TwoPackHand(h) for h in ids], [parse_card(c) for c in talon])
    state.turn = turn
    return state


def act(state, seat, *cards, as_=None, verb=None, declare=None, count=None, index=0):
    """Applies one action to a state; returns the context (findings). StopDeal propagates."""
    from referee.gandengyan import apply
    from referee.notation import Action
    from referee.replay import Context

    ctx = Context()
    ctx.deal = 0
    verb = verb or ("declare" if declare else "play" if cards else "pass")
    action = Action(index, seat, verb, tuple(parse_card(c) for c in cards), as_=as_, declare=declare, count=count)
    apply(ctx, state, action)
    return ctx


def hand(state, seat) -> list[str]:
    return sorted(CODES[c] for c in state.held(seat))
