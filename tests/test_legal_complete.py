"""`legal.plays` lists every play the referee would accept, and only those (issue 30): at random
positions of random deals, with wild cards and every option set, each sub-multiset of the acting hand
up to the largest combination is tried with the game's own apply (tests/legal_check.py). Regression
tests for the classes the outside engine found missing."""

import random
from itertools import product

from hypothesis import HealthCheck, given, settings, strategies as st

from referee import gandengyan, gouji, guandan
from referee.cards import BJ, CODES, RJ, parse_card, rank
from tests import builders, gouji_gen, guandan_gen
from tests.legal_check import accepted, at_positions, check_may, listed, sub_multisets
from tests.test_gouji_property import option_sets as gouji_options
from tests.test_legal_listing import tables as gandengyan_tables

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def ids(codes: str) -> list[int]:
    return [parse_card(c) for c in codes.split()]


# ---------------------------------------------------------------- Guandan

GUANDAN_OPTIONS = {
    "max_bomb_size": [8, 9, 10],
    "joker_bomb_rank": ["top", "below_eight"],
    "straight_flush_bomb": [True, False],
    "ace_low": [True, False],
    "level_in_sequences": [True, False],
    "wild_straight_flush": [True, False],
    "wild_stands_for_itself": [True, False],
    "full_house_joker_pair": [True, False],
}
RUNS = {"straight": (5, 1), "straight_flush": (5, 1), "tube": (3, 2), "plate": (2, 3)}


def guandan_top(rng, combos, level, max_bomb):
    """A random play of another seat, with a reading of its kind, or None."""
    kind, r = rng.choice([*RUNS, "single", "pair", "triple", "full_house", "bomb", "joker_bomb"]), rng.randrange(15)
    if kind in RUNS:
        positions, per = RUNS[kind]
        high = rng.randrange(positions, 15)
        cards = [
            (12 if p == 1 else p - 2) * 4 + (0 if kind == "straight_flush" else i % 4)
            for p in range(high - positions + 1, high + 1)
            for i in range(per)
        ]
    elif kind == "joker_bomb":
        cards = [BJ, BJ, RJ, RJ]
    elif kind == "full_house":
        other = (r + 1) % 13
        cards = [r % 13 * 4 + i for i in range(3)] + [other * 4, other * 4 + 2]
    else:
        size = {"single": 1, "pair": 2, "triple": 3}.get(kind) or rng.randint(4, max_bomb)
        cards = [BJ + (r == 14)] * size if r >= 13 and size <= 2 else [r % 13 * 4 + i % 4 for i in range(size)]
    found = [x for x in combos.readings(tuple(sorted(cards)), level) if x.type == kind]
    return (tuple(cards), rng.choice(found)) if found else None


def guandan_table(seed, options, hand=None):
    """Seat 0 to follow another seat's play at a random level, holding `hand` or random cards of a few
    neighbouring ranks with the level's wild cards and jokers."""
    rng = random.Random(seed)
    level = rng.randrange(13)
    o = guandan.GuandanOptions(**builders.options(**options))
    combos = guandan.Combos(o)
    if hand is None:  # runs of one or two suits are common, so are bombs
        low, suits = rng.randrange(13), rng.sample(range(4), rng.randint(1, 3))
        pool = [
            c
            for c in range(54)
            for _ in range(2)
            if c == level * 4 + 1
            or (c >= 52 and rng.random() < 0.4)
            or ((rank(c) - low) % 13 < 6 and (c & 3 in suits or rng.random() < 0.3))
        ]
        hand = rng.sample(pool, min(len(pool), rng.randint(4, 13)))
    top = None
    while top is None:
        top = guandan_top(rng, combos, level, o.max_bomb_size)
    state = guandan.DealState(level, o, combos, [hand, [], [], []], [len(hand), 20, 20, 20], "none", [], [], None)
    state.turn, state.top_seat, state.top = 0, 1, top[1]
    return state


def check_guandan(state, seed=0):
    legal, seat = guandan.legal(state), state.turn
    check_may(legal)
    shown = listed(legal["plays"])
    hand = state.cards(seat)
    for cards in sub_multisets(hand, state.options.max_bomb_size, seed):
        for r in state.combos.readings(cards, state.level):
            if accepted(guandan, state, seat, cards, r.name):
                assert (r.name, len(cards)) in shown, (
                    CODES[state.level * 4],
                    state.top.name,
                    [CODES[c] for c in cards],
                    r.name,
                    legal["plays"],
                )
    for entry in legal["plays"]:
        cards, _, name = entry.partition(" as ")
        play = tuple(sorted(parse_card(c) for c in cards.split()))
        assert accepted(guandan, state, seat, play, name), entry


@SETTINGS
@given(
    seed=st.integers(0, 10**9),
    options=st.fixed_dictionaries({key: st.sampled_from(values) for key, values in GUANDAN_OPTIONS.items()}),
)
def test_guandan_lists_every_play_the_referee_accepts(seed, options):
    check_guandan(guandan_table(seed, options))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    options=st.fixed_dictionaries({key: st.sampled_from(values) for key, values in GUANDAN_OPTIONS.items()}),
)
def test_guandan_lists_every_play_of_a_dealt_hand(seed, options):
    """A whole 27-card hand of a random deal: its sub-multisets sampled."""
    deck = [c for c in range(54) for _ in range(2)]
    random.Random(seed).shuffle(deck)
    check_guandan(guandan_table(seed, options, hand=deck[:27]), seed)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), data=st.data())
def test_guandan_lists_every_play_at_positions_of_a_played_match(seed, data):
    """Random positions of a random match, tributes and all: the acting seat's hand sampled."""
    record = guandan_gen.match_record(seed, max_deals=2)

    def eligible(state):
        return state.phase == "play" and state.top is not None and not state.over

    found = at_positions(record, eligible, None)
    chosen = set(data.draw(st.lists(st.integers(0, found - 1), max_size=3))) if found else set()
    at_positions(record, eligible, lambda state: check_guandan(state, seed), chosen)


# ---------------------------------------------------------------- Gan Deng Yan


@SETTINGS
@given(state=gandengyan_tables())
def test_gandengyan_lists_every_play_the_referee_accepts(state):
    if state.top is None:
        return
    legal = gandengyan.legal(state)
    check_may(legal)
    shown = listed(legal["plays"])
    hand = state.held(0)
    for cards in sub_multisets(hand, len(hand)):
        for r in state.combos.readings(cards):
            if accepted(gandengyan, state, 0, cards, r.name):
                assert (r.name, len(cards)) in shown, (state.top.name, [CODES[c] for c in cards], r.name)
    for entry in legal["plays"]:
        cards, _, name = entry.partition(" as ")
        assert accepted(gandengyan, state, 0, tuple(sorted(parse_card(c) for c in cards.split())), name), entry


# ---------------------------------------------------------------- Gou Ji


def gouji_record(seed, options):
    """A random deal (36-card hands, 2s and jokers wild)."""
    return gouji_gen.match_record(
        seed, deals=1, options=options, arrange=gouji_gen.hoard_jokers if seed % 2 else None, chance={"shao": 0.6}
    )


def gouji_follows(state) -> bool:
    """A table where seats may follow a set."""
    return state.playing and state.top is not None and not state.over and state.shao_pending < 0


def gouji_sets(hand: list[int], sizes) -> list[tuple[int, ...]]:
    """Every sub-multiset of `hand` of the given sizes whose natural cards are of one rank (suits never
    matter in Gou Ji: the lowest cards of each kind are taken)."""
    held: dict[int, list[int]] = {}
    for c in hand:
        held.setdefault(gouji._SET_RANK[c], []).append(c)
    twos, blacks, reds = (held.get(r, []) for r in (gouji.TWO, gouji.BLACK, gouji.RED))
    found = set()
    for own in [held.get(r, []) for r in range(1, gouji.TWO)] + [[]]:
        for a, b, c, d in product(
            range(len(own) + 1), range(len(twos) + 1), range(len(blacks) + 1), range(len(reds) + 1)
        ):
            if a + b + c + d in sizes:
                found.add(tuple(sorted(own[:a] + twos[:b] + blacks[:c] + reds[:d])))
    return sorted(found)


def check_gouji(state, seed):
    legal = gouji.legal(state)
    check_may_names(legal)
    size = state.top.size
    for seat in gouji._seats(state.allowed):
        shown = {gouji.read_set(ids(p)).rank: p for p in legal["plays"][str(seat)]}
        hand = [c for c in range(54) for _ in range(state.hands[seat][c])]
        tried = gouji_sets(hand, {size - 1, size, size + 1}) + sub_multisets(hand, size + 1, seed)[:300]
        for cards in tried:
            if accepted(gouji, state, seat, cards, None):
                assert gouji.read_set(cards).rank in shown, ([CODES[c] for c in cards], gouji.set_name(state.top))
        for p in shown.values():
            assert accepted(gouji, state, seat, tuple(sorted(ids(p))), None), p


def check_may_names(legal):
    """Gou Ji's `may` names every set of `legal.plays`, seat by seat."""
    for plays in legal["plays"].values():
        for p in plays:
            assert p in str(legal["may"])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), options=gouji_options(), data=st.data())
def test_gouji_lists_every_play_the_referee_accepts(seed, options, data):
    record = gouji_record(seed, options)
    found = at_positions(record, gouji_follows, None)
    chosen = {0} | set(data.draw(st.lists(st.integers(0, found - 1), max_size=3))) if found else set()
    at_positions(record, gouji_follows, lambda state: check_gouji(state, seed), chosen)  # 0: hands of about 36
