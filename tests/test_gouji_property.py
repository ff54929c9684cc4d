"""Property tests: random legal Gou Ji matches validate under random options, and one fault
(an illegal play, a wrong seat, a card not held, a wrong tribute card, a wrong claim) is
reported once, at its own deal and action."""

import copy

from hypothesis import HealthCheck, given, settings, strategies as st

from referee.replay import check_record
from tests.gouji_gen import hoard_jokers, match_record

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def option_sets(draw):
    return {
        "pure_twos_qualify": draw(st.booleans()),
        "black_joker_qualifies": draw(st.booleans()),
        "duel_thresholds": draw(st.sampled_from([{"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2}, {"9": 3, "A": 1}, {}])),
        "catch_wind": draw(st.sampled_from(["next_active", "teammate"])),
        "end_when_team_out": draw(st.booleans()),
        "sweep_tribute": draw(st.sampled_from(["replace", "add"])),
        "same_team_tribute": draw(st.sampled_from(["waivable", "never"])),
        "place_points": draw(st.sampled_from([[4, 2, 0, 0, -2, -4], [2, 1, 0, 0, -1, -2]])),
        "sweep_multiplier": draw(st.integers(1, 3)),
        "scoring": draw(st.sampled_from(["zero_sum", "winner_only"])),
        "threes_last": draw(st.booleans()),
        "report_at": draw(st.sampled_from([None, 10])),
    }


def errors(record):
    report = check_record(copy.deepcopy(record))
    return [(f.rule, f.deal, f.action) for f in report.findings if f.severity == "error"]


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    options=option_sets(),
    hoard=st.booleans(),
    start=st.sampled_from([None, {"previous_order": [0, 2, 4, 1, 3, 5]}, {"previous_order": [5, 2, 1, 3, 0, 4]}]),
)
def test_random_legal_matches_validate(seed, options, hoard, start):
    record = match_record(
        seed,
        deals=2,
        options=options,
        arrange=hoard_jokers if hoard else None,
        start=start,
        chance={"shao": 0.6, "report": 0.005},
    )
    report = check_record(record)
    assert [(f.rule, f.at, f.message) for f in report.findings if f.severity != "info"] == []
    assert report.match["totals"] == record["result"]["totals"]


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    kind=st.sampled_from(["reentry", "intrude", "black_joker"]),
    deal=st.integers(0, 1),
    after=st.integers(0, 150),
    hoard=st.booleans(),
)
def test_an_illegal_play_is_caught_at_its_action(seed, kind, deal, after, hoard):
    record = match_record(seed, deals=2, fault=(kind, deal, after), arrange=hoard_jokers if hoard else None)
    fault = record.pop("x-fault", None)
    if fault is None:
        return  # the situation never arose
    assert errors(record) == [(fault["rule"], fault["deal"], fault["action"])]


@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_a_tribute_card_that_is_not_the_highest_is_caught(seed):
    record = match_record(seed, deals=3, chance={"wrong_tribute": 1})
    fault = record.pop("x-fault", None)
    if fault is None:
        return  # no tribute was owed
    assert errors(record) == [("gouji.tribute.card", fault["deal"], fault["action"])]


@SETTINGS
@given(seed=st.integers(0, 10**6), pick=st.integers(0, 10**6), hoard=st.booleans())
def test_a_seat_that_may_not_act_is_caught(seed, pick, hoard):
    record = match_record(seed, deals=1, events=True, arrange=hoard_jokers if hoard else None, chance={"revolution": 0})
    turns = record["deals"][0]["x-turns"]
    index, allowed = turns[pick % len(turns)]
    action = record["deals"][0]["actions"][index]
    others = [s for s in range(6) if s not in allowed]
    action["seat"] = others[pick % len(others)]
    assert errors(record)[:1] == [("gouji.turn", 0, index)]


@SETTINGS
@given(seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_a_card_not_held_is_caught(seed, pick):
    """A card of the same rank and another suit, never dealt to the seat: suits are checked."""
    record = match_record(seed, deals=1, chance={"revolution": 0})
    deal = record["deals"][0]
    plays = [(i, a) for i, a in enumerate(deal["actions"]) if "play" in a]
    for i, action in plays[pick % len(plays) :] + plays[: pick % len(plays)]:
        dealt = deal["hands"][action["seat"]]
        for k, card in enumerate(action["play"]):
            foreign = [card[0] + suit for suit in "SHDC" if card[0] + suit not in dealt and card not in ("BJ", "RJ")]
            if foreign:
                action["play"][k] = foreign[0]
                assert errors(record)[:1] == [("gouji.cards.not_held", 0, i)]
                return


@SETTINGS
@given(seed=st.integers(0, 10**6), claim=st.sampled_from(["order", "scores", "tribute", "totals"]))
def test_a_wrong_claim_is_caught(seed, claim):
    record = match_record(seed, deals=2, chance={"revolution": 0})
    result = record["deals"][1]["result"]
    if claim == "order":
        result["order"][0], result["order"][3] = result["order"][3], result["order"][0]
        expected = ("gouji.result.order", 1, None)
    elif claim == "scores":
        result["scores"] = [result["scores"][0] + 2, result["scores"][1] - 2]
        expected = ("gouji.result.scores", 1, None)
    elif claim == "tribute":
        result["tribute"] = "liberation"
        expected = ("gouji.result.tribute", 1, None)
    else:
        record["result"]["totals"] = [record["result"]["totals"][0] + 4, record["result"]["totals"][1]]
        expected = ("gouji.match.totals", None, None)
    assert errors(record) == [expected]
