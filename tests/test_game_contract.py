"""One conformance test over every registered game (referee/game.py) against the contract (referee/contract.py), as OpenSpiel runs one simulation
test over all its games: the game satisfies the contract; random legal play from random deals (each
game's generator in tests/*_gen.py, written apart from the referee) replays valid, every deal state a
DealPlay; at random points of those deals every play `legal` lists is accepted by the game's own `apply`;
`legal` and `snapshot` have the typed shape (Legal, Snapshot) and every deal's outcome the shape of Outcome."""

from __future__ import annotations

import inspect
import random
from typing import Any, get_type_hints

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from referee import contract
from referee.actions import DealPlay
from referee.cards import parse_card
from referee.contract import Game, Legal, Outcome, Snapshot
from referee.game import GAMES, game, games
from referee.messages import Term
from referee.replay import check_record
from referee.rules import Option
from tests import gandengyan_gen, gouji_gen, guandan_gen
from tests.legal_check import accepted

# a short random match of each game, every claim filled in by its generator
RECORDS = {
    "guandan": lambda seed: guandan_gen.match_record(seed, max_deals=2),
    "gouji": lambda seed: gouji_gen.match_record(seed, deals=1),
    "gandengyan": lambda seed: gandengyan_gen.match_record(seed, seats=random.Random(seed).randint(2, 6), deals=2),
}
PLAYED_OUT = ("complete", "void", "dead")  # a deal's status when played to its end (void: Gou Ji's revolution)
POINTS = 6  # the points of a record at which each listed play is tried
SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_every_game_has_a_generator():
    assert sorted(RECORDS) == sorted(GAMES) == sorted(games())


def test_no_game_for_other_names():
    assert game("chess") is None and game(None) is None and game(["guandan"]) is None


def _members() -> tuple[dict[str, Any], list[str]]:
    """The contract's constants (name -> type) and its methods' names."""
    constants = get_type_hints(Game, {**vars(contract), "Option": Option, "Term": Term})
    methods = [name for name, value in vars(Game).items() if inspect.isfunction(value) and not name.startswith("_")]
    return constants, methods


@pytest.mark.parametrize("name", GAMES)
def test_satisfies_the_contract(name):
    module = game(name)
    constants, methods = _members()
    assert methods and constants
    for method in methods:
        assert callable(getattr(module, method, None)), f"{name} lacks {method}"
    for constant, kind in constants.items():
        value = getattr(module, constant)
        assert isinstance(value, getattr(kind, "__origin__", kind)), (name, constant, value)
    assert name == module.NAME and 2 <= module.MIN_SEATS <= module.MAX_SEATS
    assert module.DEFAULT_PRESET in module.PRESETS and set(module.PRESET_ALIASES.values()) <= set(module.PRESETS)


def _has_shape(value: dict, shape) -> bool:
    """Whether a dict holds its TypedDict's required keys and no key the TypedDict does not name."""
    return shape.__required_keys__ <= value.keys() <= shape.__required_keys__ | shape.__optional_keys__


def _plays(legal: Legal) -> list[tuple[int, tuple[int, ...], str | None]]:
    """(seat, cards, reading) of each play `legal` lists: "CARDS as TYPE:RANK" of the seat to act, or (Gou Ji)
    the cards of each seat that may act."""
    plays = legal.get("plays") or []
    if isinstance(plays, dict):
        return [(int(seat), _cards(cards), None) for seat, listed in plays.items() for cards in listed]
    found = []
    for entry in plays:
        cards, _, reading = entry.partition(" as ")
        found.append((legal["seat"], _cards(cards), reading))
    return found


def _cards(codes: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(code) for code in codes.split()))


def _conforms(name: str, seed: int) -> None:
    module, record = game(name), RECORDS[name](seed)
    rng = random.Random(seed)
    tables: list[tuple[Legal, Snapshot]] = []
    seen = tried = 0

    def observe(deal, index, state):
        nonlocal seen, tried
        seen += 1
        assert isinstance(state, DealPlay)
        if state.over:
            return
        legal, snapshot = module.legal(state), module.snapshot(state)
        tables.append((legal, snapshot))
        if legal.get("plays") and rng.random() < POINTS / 60:
            for seat, cards, reading in _plays(legal):
                assert accepted(module, state, seat, cards, reading), (name, seed, deal, index, seat, cards, reading)
                tried += 1

    report = check_record(record, observe=observe)
    assert report.valid, [f.as_dict() for f in report.findings]
    assert seen and tables
    for legal, snapshot in tables:
        assert _has_shape(legal, Legal) and isinstance(legal["may"], str), legal
        assert _has_shape(snapshot, Snapshot), snapshot.keys()
        assert len(snapshot["hands"]) == len(record["players"])
    for outcome in report.deals:
        assert _has_shape(outcome, Outcome) and outcome["status"] in PLAYED_OUT, outcome


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_random_legal_play_replays_valid(name, seed):
    _conforms(name, seed)
