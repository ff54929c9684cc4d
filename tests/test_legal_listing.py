"""What would have been legal is found from the shapes that can follow, never from every
combination of a hand: a hostile hand costs little, and ordinary hands are listed as before."""

import random
import time
from itertools import combinations

from hypothesis import HealthCheck, given, settings, strategies as st

from referee.cards import BJ, CODES, RJ, TwoPackHand, rank
from referee.gandengyan import Combos, DealState, beats, bomb_order, in_rank_order, legal
from referee.replay import check_record
from tests import builders, gouji_builders
from tests.gandengyan_builders import options

GDY_DECK = [c for c in CODES for _ in range(2)]


def every_combination_followers(state, seat):
    """The listing as it was first written: every combination of the hand, one per rank pattern."""
    top, o = state.top, state.options
    hand = state.held(seat)
    found, seen = [], set()
    for size in sorted({top.size, *range(2, o.max_bomb_size + 1)}):
        for cards in sorted(set(combinations(hand, size))):
            ranks = tuple(map(rank, cards))
            if ranks not in seen:
                seen.add(ranks)
                found += [
                    (r, " ".join(CODES[c] for c in in_rank_order(cards)))
                    for r in state.combos.readings(cards)
                    if beats(r, top, o)
                ]
    found.sort(key=lambda rc: (rc[0].bomb, bomb_order(rc[0].rank), rc[0].size))
    return [f"{cards} as {r.name}" for r, cards in found]


def shape(kind: str, high: int, size: int) -> tuple[int, ...]:
    """Natural cards of one play: `size` cards of rank `high`, or a sequence kind ending at `high`
    (none when it would start below the 3)."""
    per = {"sequence": 1, "double_sequence": 2, "triplet_sequence": 3}.get(kind)
    if per is None:
        return tuple(high * 4 + i % 4 for i in range(size))
    low = high - size // per + 1
    return tuple(r * 4 + i for r in range(low, high + 1) for i in range(per)) if low >= 1 else ()


@st.composite
def tables(draw):
    """A seat to follow a top play with up to 12 cards drawn from a few neighbouring ranks, 2s and jokers."""
    o = options(
        decks=2,
        jokers_wild=draw(st.booleans()),
        joker_as_two=draw(st.booleans()),
        follow_equal_rank=draw(st.booleans()),
        two_on_two=draw(st.booleans()),
        max_bomb_size=draw(st.sampled_from([4, 6, 8])),
        min_sequence_length=draw(st.sampled_from([3, 4])),
    )
    if draw(st.booleans()):
        o.triplet_is_bomb, o.triplet_sequences = False, True
    low = draw(st.integers(1, 8))
    pool = [c for c in range(54) for _ in range(2) if low <= rank(c) < low + 5 or rank(c) in (0, 13, 14)]
    hand = draw(st.permutations(pool))[: draw(st.integers(1, 12))]
    kind, size = draw(
        st.sampled_from(
            [
                ("single", 1),
                ("pair", 2),
                ("triplet", 3),
                ("four_bomb", 4),
                ("bomb", 6),
                ("sequence", 3),
                ("sequence", 5),
                ("double_sequence", 6),
                ("double_sequence", 4),
                ("triplet_sequence", 6),
                ("joker_bomb", 2),
            ]
        )
    )
    cards = (BJ, RJ) if kind == "joker_bomb" else shape(kind, draw(st.integers(max(0, low - 2), low + 4)), size)
    combos = Combos(o)
    tops = [r for r in combos.readings(tuple(sorted(cards))) if r.type == kind]
    state = DealState(o, combos, 2, 0, [TwoPackHand(hand), TwoPackHand([])], [])
    state.turn, state.top_seat, state.top = 0, 1, tops[0] if tops else None
    return state


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(state=tables())
def test_gandengyan_lists_what_every_combination_would(state):
    if state.top is None:
        return
    assert legal(state)["plays"] == every_combination_followers(state, 0)


def gandengyan_hand_of(cards_held: int) -> dict:
    """Two seats, two packs: seat 0 leads a single each trick and seat 1 passes (both draw) until
    seat 1 holds `cards_held`; then seat 0 leads 5S and seat 1 follows with a card that may not."""
    rest = list(GDY_DECK)
    rest.remove("5S")
    random.Random(7).shuffle(rest)
    held, talon = [["5S"] + rest[:5], rest[5:10]], rest[10:]
    deal = {"hands": [list(h) for h in held], "talon": talon, "actions": []}
    while len(held[1]) < cards_held:
        lead = next(c for c in held[0] if c not in ("5S", "BJ", "RJ"))
        held[0].remove(lead)
        deal["actions"] += [{"seat": 0, "play": [lead]}, {"seat": 1, "pass": True}]
        held[0].append(talon.pop(0))
        held[1].append(talon.pop(0))
    refused = next(c for c in held[1] if c[0] in "89TJQK")
    deal["actions"] += [{"seat": 0, "play": ["5S"]}, {"seat": 1, "play": [refused]}]
    deal["talon"] = rest[10:]
    return {
        "cgr": 1,
        "game": "gandengyan",
        "players": ["P0", "P1"],
        "deals": [deal],
        "rules": {"preset": "pagat", "options": {"decks": 2, "max_bomb_size": 8}},
    }


def cpu_seconds(record):
    start = time.process_time()
    report = check_record(record)
    return time.process_time() - start, report


def test_a_34_card_gandengyan_hand_after_a_refused_follow_is_listed_at_once():
    seconds, report = cpu_seconds(gandengyan_hand_of(34))
    stop = next(f for f in report.findings if f.severity == "error")
    assert stop.rule == "gandengyan.follow"
    assert stop.action == 2 * (34 - 5) + 1 and "from its hand: " in stop.legal["may"]
    assert seconds < 0.5


def test_a_full_guandan_hand_with_both_wild_cards_is_listed_at_once():
    straight = ["3S", "4H", "5S", "6S", "7S"]
    rec = builders.guandan(
        [
            builders.deal(
                [straight, ["2H", "2H", "8C"]], [{"seat": 0, "play": straight}, {"seat": 1, "play": ["8C"]}], leader=0
            )
        ]
    )
    seconds, report = cpu_seconds(rec)
    assert [f.rule for f in report.findings if f.severity == "error"][:1] == ["guandan.follow"]
    assert seconds < 0.5


def test_a_four_pack_gouji_hand_is_listed_at_once():
    rec = gouji_builders.record(
        [gouji_builders.deal([["5S"], ["4S"]], [gouji_builders.play(0, "5S"), gouji_builders.play(1, "4S")])]
    )
    seconds, report = cpu_seconds(rec)
    assert [f.rule for f in report.findings if f.severity == "error"][:1] == ["gouji.follow"]
    assert seconds < 0.5
