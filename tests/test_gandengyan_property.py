"""Property tests: random legal matches under random option sets validate, and one changed
action (a card not held, a weaker follow, a wrong seat) is caught at that action."""

import copy

from hypothesis import HealthCheck, given, settings, strategies as st

from referee.replay import check_record
from tests.gandengyan_gen import Play, follows, match_record, value

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def option_sets(draw):
    o = {
        "decks": draw(st.sampled_from([1, 2])),
        "jokers_wild": draw(st.booleans()),
        "joker_as_two": draw(st.booleans()),
        "triplet_is_bomb": draw(st.booleans()),
        "max_sequence_ranks": draw(st.sampled_from([3, 5, 12])),
        "min_sequence_length": 3,
        "max_bomb_size": draw(st.sampled_from([4, 6])),
        "follow_equal_rank": draw(st.booleans()),
        "two_on_two": draw(st.booleans()),
        "lone_joker_lead": draw(st.booleans()),
        "talon_limit_to_win": draw(st.sampled_from([None, 0, 5])),
        "scoring": draw(st.sampled_from(["zero_sum", "winner_only"])),
        "ace_multiplier": draw(st.integers(1, 4)),
        "public_multipliers": draw(st.booleans()),
        "private_multipliers": draw(st.booleans()),
        "soft_bombs": draw(st.booleans()),
        "payment_cap": draw(st.sampled_from([None, 1, 30])),
        "report_at": draw(st.sampled_from([None, 3])),
        "next_dealer": draw(st.sampled_from(["winner", "any"])),
    }
    o["triplet_sequences"] = not o["triplet_is_bomb"] and draw(st.booleans())
    o["min_sequence_length"] = draw(st.integers(3, min(5, o["max_sequence_ranks"])))
    return o


def problems(record):
    rep = check_record(copy.deepcopy(record))
    return [(f.rule, f.at, f.message) for f in rep.findings if f.severity != "info"]


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    seats=st.integers(2, 6),
    options=option_sets(),
    preset=st.sampled_from(["pagat", "wenshan", "catsatcards"]),
)
def test_random_legal_matches_validate(seed, seats, options, preset):
    record = match_record(seed, seats, deals=2, options=options, preset=preset)
    assert problems(record) == []


def _one_deal(seed, seats, options):
    trace = []
    record = match_record(seed, seats, deals=1, options=options, trace=trace)
    return record, trace[0]


def _turns(record):
    return [i for i, a in enumerate(record["deals"][0]["actions"]) if "declare" not in a]


@SETTINGS
@given(seed=st.integers(0, 10**6), seats=st.integers(2, 6), options=option_sets(), pick=st.integers(0, 10**6))
def test_a_wrong_seat_is_caught_at_that_action(seed, seats, options, pick):
    record, _ = _one_deal(seed, seats, options)
    turns = _turns(record)
    i = turns[pick % len(turns)]
    action = record["deals"][0]["actions"][i]
    action["seat"] = (action["seat"] + 1 + pick % (seats - 1)) % seats
    assert problems(record)[0][:2] == ("gandengyan.turn", f"/deals/0/actions/{i}")


@SETTINGS
@given(seed=st.integers(0, 10**6), seats=st.integers(2, 6), options=option_sets(), pick=st.integers(0, 10**6))
def test_a_card_not_held_is_caught_at_that_action(seed, seats, options, pick):
    record, before = _one_deal(seed, seats, options)
    plays = [i for i, a in enumerate(record["deals"][0]["actions"]) if "play" in a]
    i = plays[pick % len(plays)]
    held = before[i][0]
    foreign = [
        c
        for c in record["deals"][0]["talon"] + [c for hand in record["deals"][0]["hands"] for c in hand]
        if c not in held
    ]
    action = record["deals"][0]["actions"][i]
    action["play"][pick % len(action["play"])] = foreign[pick % len(foreign)]
    assert problems(record)[0][:2] == ("gandengyan.card.not_held", f"/deals/0/actions/{i}")


@SETTINGS
@given(seed=st.integers(0, 10**6), seats=st.integers(2, 6), options=option_sets(), pick=st.integers(0, 10**6))
def test_a_weaker_follow_is_caught_at_that_action(seed, seats, options, pick):
    record, before = _one_deal(seed, seats, options)
    weaker = []
    for i, (held, top) in enumerate(before):
        if top is None or top.kind != "single" or "pass" not in record["deals"][0]["actions"][i]:
            continue
        weaker += [
            (i, c)
            for c in held
            if c not in ("BJ", "RJ") and not follows(Play("single", value(c[0]), [c], 0), top, options)
        ]
    if not weaker:
        return
    i, card = weaker[pick % len(weaker)]
    record["deals"][0]["actions"][i] = {"seat": record["deals"][0]["actions"][i]["seat"], "play": [card]}
    assert problems(record)[0][:2] == ("gandengyan.follow", f"/deals/0/actions/{i}")
